"""Memory benchmark: the peak RSS of a peer in a 6-player game.

``python -m bench.memory [--quick]`` (also part of ``python -m bench``).  Peak RSS is the kernel's
``ru_maxrss`` of a process that did nothing else, so every figure comes from a fresh subprocess.

1. **Engine as a peer holds it.**  A subprocess plays a 6-player bot game (seeded, mq.sim) and
   keeps what a peer keeps between entries: the current state, a ring of the last
   ``net.replica.RING`` states (for desync walks) and every applied action with its events.  It
   reports its resident set (``/proc/self/statm``) right after importing the engine and the net
   code and loading the cards (the floor of any peer) and at the end of the game (the
   difference is what the game holds), and its peak RSS.  Several seeds; the rows give the
   medians and the largest peak.
2. **A real peer.**  A 6-player loopback game of headless bot peer processes (net.harness.Cluster,
   the same harness as bench/net.py; 127.0.0.1 only, no beacon), run from a subprocess that
   waits for all six: its ``RUSAGE_CHILDREN`` peak RSS is that of the largest peer (pyzmq,
   CurveZMQ, the log and the engine included).  Skipped with ``--quick``.
"""
from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _kib_to_mib(kib: int) -> float:
    return kib / 1024  # ru_maxrss is in KiB on Linux


def _rss_kib() -> int:
    """The resident set now, in KiB (Linux)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)


def _engine_child(seed: int) -> dict:
    """Run in a fresh process: one 6-player game held as a peer holds it."""
    from mq.bots import choose
    from mq.cards import load_default
    from mq.rules import actors, is_over, make_params, new_game, step, view
    from net.replica import RING

    cards = load_default()
    floor = _rss_kib()
    state = new_game(make_params(6), seed, cards)
    ring = {0: state}
    log = []
    n = 0
    while not is_over(state) and n < 50_000:
        seat = actors(state)[0]
        action = choose(view(state, seat), seat, cards)
        state, events = step(state, action, cards)
        n += 1
        ring[n] = state
        ring.pop(n - RING, None)
        log.append((action, events))
    end = _rss_kib()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"floor_kib": floor, "end_kib": end, "peak_kib": peak, "entries": n, "ring": len(ring)}


def _peers_child(work: str, seats: int) -> dict:
    """Run in a fresh process: one loopback game of ``seats`` bot peers; the largest peak RSS."""
    from net.harness import Cluster

    bound = ["--timeout", "30"]
    with Cluster(work) as c:
        c.host("--seats", str(seats), *bound)
        for i in range(1, seats):
            c.join(i, *bound)
        codes = c.wait_all(60)
        entries = c.summary(0)[0] if not codes[0] else 0
    return {"peak_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "codes": codes,
            "entries": entries}


def _run(args: list[str], timeout: float) -> dict:
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-m", "bench.memory", *args], capture_output=True, text=True,
                         env=env, cwd=ROOT, timeout=timeout, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(quick: bool = False) -> list[tuple[str, str]]:
    from mq.sim import game_seed

    runs = [_run(["--engine", str(game_seed(61, k))], 300) for k in range(2 if quick else 5)]
    floors = [r["floor_kib"] for r in runs]
    ends = [r["end_kib"] for r in runs]
    peaks = [r["peak_kib"] for r in runs]
    held = statistics.median(e - f for e, f in zip(ends, floors))
    rows = [
        ("peer floor: interpreter, engine, net code, cards", f"{_kib_to_mib(statistics.median(floors)):.1f} MiB resident"),
        (f"6-player game as a peer holds it ({len(runs)} games)",
         f"{_kib_to_mib(statistics.median(ends)):.1f} MiB resident at the end, +{_kib_to_mib(held):.1f} MiB "
         f"over the floor ({_kib_to_mib(statistics.median(ends)) / _kib_to_mib(statistics.median(floors)):.2f}x); "
         f"{statistics.median(r['entries'] for r in runs):.0f} entries, ring of {runs[0]['ring']} states"),
        ("  its peak RSS", f"{_kib_to_mib(statistics.median(peaks)):.1f} MiB median, {_kib_to_mib(max(peaks)):.1f} MiB max"),
    ]
    if quick:
        rows.append(("real 6-peer loopback game, largest peer", "skipped with --quick"))
        return rows
    with tempfile.TemporaryDirectory(prefix="mq-bench-mem-") as work:
        r = _run(["--peers", work, "6"], 180)
    if any(r["codes"].values()):
        rows.append(("real 6-peer loopback game, largest peer", f"game did not end cleanly: exit codes {r['codes']}"))
    else:
        rows.append(("real 6-peer loopback game, largest peer",
                     f"peak {_kib_to_mib(r['peak_kib']):.1f} MiB ({r['entries']} entries)"))
    return rows


if __name__ == "__main__":
    if sys.argv[1:2] == ["--engine"]:
        print(json.dumps(_engine_child(int(sys.argv[2]))))
    elif sys.argv[1:2] == ["--peers"]:
        print(json.dumps(_peers_child(sys.argv[2], int(sys.argv[3]))))
    else:
        from bench.engine import print_table

        print_table(main("--quick" in sys.argv))
