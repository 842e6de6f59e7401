"""``python -m bench.sign [--quick]``: the cost per entry of signed history (net.signing, issue 13):
signing and verifying an entry, an action and a promise, and checking a reign's certificate (a
quorum of 3 promises, net.replica.check_certificate's work in the first entry of a reign), medians
of many runs on fresh keys (no files)."""
from __future__ import annotations

import secrets
import statistics
import sys
import time

from net.signing import Signer, verify_action, verify_entry, verify_promise

GAME = secrets.token_bytes(8)
PREV = secrets.token_bytes(32)
INC = secrets.token_bytes(8)
ACTION = [2, "offer", [300, 1, "T17", "fighter"]]  # one of the longer actions


def _median_us(fn, n: int) -> float:
    times = []
    for i in range(n):
        t = time.perf_counter_ns()
        fn(i)
        times.append(time.perf_counter_ns() - t)
    return statistics.median(times) / 1000


def main(quick: bool = False) -> list[tuple[str, str]]:
    n = 500 if quick else 5000
    s = Signer(secrets.token_hex(32))
    entry_sigs = [s.sign_entry(GAME, i, 1, PREV, ACTION, 2) for i in range(n)]
    action_sigs = [s.sign_action(GAME, 2, (INC, i), ACTION) for i in range(n)]
    quorum = [Signer(secrets.token_hex(32)) for _ in range(3)]
    promise_sigs = [[q.sign_promise(GAME, i) for q in quorum] for i in range(n)]

    def certificate(i: int) -> None:
        for seat, q in enumerate(quorum):
            verify_promise(q.public, GAME, i, seat, promise_sigs[i][seat])

    rows = [
        ("sign an entry (seq, epoch, prev, action, author)",
         _median_us(lambda i: s.sign_entry(GAME, i, 1, PREV, ACTION, 2), n)),
        ("verify an entry", _median_us(lambda i: verify_entry(s.public, GAME, i, 1, PREV, ACTION, 2, entry_sigs[i]), n)),
        ("sign an action (author, proposal id)", _median_us(lambda i: s.sign_action(GAME, 2, (INC, i), ACTION), n)),
        ("verify an action", _median_us(lambda i: verify_action(s.public, GAME, 2, (INC, i), ACTION, action_sigs[i]),
                                        n)),
        ("sign a promise (game, epoch)", _median_us(lambda i: s.sign_promise(GAME, i), n)),
        ("verify a promise", _median_us(lambda i: verify_promise(quorum[0].public, GAME, i, 0, promise_sigs[i][0]), n)),
        ("check a reign's certificate (3 promises)", _median_us(certificate, n)),
    ]
    return [(name, f"{us:.1f} us (median of {n})") for name, us in rows]


if __name__ == "__main__":
    for name, value in main("--quick" in sys.argv):
        print(f"{name:<52}{value}")
