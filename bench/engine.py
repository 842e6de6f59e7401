"""Engine benchmarks: whole bot games, replay throughput with hashing, and what the incremental
state hash costs per action against a full recompute and against ``apply`` itself.

All figures are medians over repeats measured in this run; the core in use is printed."""
from __future__ import annotations

import statistics
import time

from mq import core
from mq.cards import load_default
from mq.rules import apply, full_hash, make_params, new_game, state_hash
from mq.sim import game_seed, play_game


def _games(n: int, players: int):
    walls, played = [], []
    for i in range(n):
        t0 = time.perf_counter()
        result, _, taken = play_game(players, game_seed(2024, i))
        walls.append(time.perf_counter() - t0)
        played.append((result, taken))
    return walls, played


def _replay(played, players: int):
    """Per game: seconds for apply alone, apply + incremental hash, and full hashes of the same states."""
    cards = load_default()
    apply_s, hash_s, full_s, actions = [], [], [], 0
    for result, taken in played:
        s0 = new_game(make_params(players), result.seed, cards)
        t0 = time.perf_counter()
        s = s0
        states = []
        for a in taken:
            s = apply(s, a, cards)
            states.append(s)
        t1 = time.perf_counter()
        for st in states:
            state_hash(st)
        t2 = time.perf_counter()
        for st in states[:: max(1, len(states) // 200)]:
            full_hash(st)
        t3 = time.perf_counter()
        sampled = len(states[:: max(1, len(states) // 200)])
        apply_s.append((t1 - t0) / len(taken))
        hash_s.append((t2 - t1) / len(taken))
        full_s.append((t3 - t2) / sampled)
        actions += len(taken)
    return apply_s, hash_s, full_s, actions


def main(quick: bool = False) -> list[tuple[str, str]]:
    players = 4
    walls, played = _games(4 if quick else 20, players)
    apply_s, hash_s, full_s, actions = _replay(played, players)
    per_game = [len(t) for _, t in played]
    a_med, h_med, f_med = (statistics.median(x) for x in (apply_s, hash_s, full_s))
    rows = [
        ("core", core.IMPLEMENTATION),
        ("4-bot game, median wall time", f"{statistics.median(walls) * 1000:.1f} ms"),
        ("actions per game, median", f"{statistics.median(per_game):.0f}"),
        ("apply, per action (median of games)", f"{a_med * 1e6:.1f} us"),
        ("throughput: apply + hash", f"{1 / (a_med + h_med):,.0f} actions/s"),
        ("incremental hash, per action", f"{h_med * 1e6:.2f} us ({h_med / a_med:.1%} of apply)"),
        ("full hash recompute, per state", f"{f_med * 1e6:.1f} us (incremental is {f_med / h_med:.1f}x cheaper)"),
    ]
    return rows


def print_table(rows) -> None:
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k:<{width}}  {v}")


if __name__ == "__main__":
    import sys

    print_table(main("--quick" in sys.argv))
