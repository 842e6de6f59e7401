"""``python -m bench.sign [--quick]``: the cost per entry of signed history (net.signing, issue 13):
signing and verifying an entry, and an action, medians of many runs on one fresh key (no files)."""
from __future__ import annotations

import secrets
import statistics
import sys
import time

from net.signing import Signer, verify_action, verify_entry

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
    rows = [
        ("sign an entry (seq, epoch, prev, action, author)",
         _median_us(lambda i: s.sign_entry(GAME, i, 1, PREV, ACTION, 2), n)),
        ("verify an entry", _median_us(lambda i: verify_entry(s.public, GAME, i, 1, PREV, ACTION, 2, entry_sigs[i]), n)),
        ("sign an action (author, proposal id)", _median_us(lambda i: s.sign_action(GAME, 2, (INC, i), ACTION), n)),
        ("verify an action", _median_us(lambda i: verify_action(s.public, GAME, 2, (INC, i), ACTION, action_sigs[i]),
                                        n)),
    ]
    return [(name, f"{us:.1f} us (median of {n})") for name, us in rows]


if __name__ == "__main__":
    for name, value in main("--quick" in sys.argv):
        print(f"{name:<52}{value}")
