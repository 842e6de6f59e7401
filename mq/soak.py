"""Bot games checked against the invariants (mq.rules.invariants) after every step.

``python -m mq.soak --games 2000 --seed 1`` plays that many bot games (2 to 6 players in turn,
as ``mq sim`` plays them) and prints, per invariant, how many games broke it and the first
thing it found, then the counts: games, steps, seconds.  Exit status 0 when every invariant held.
``make soak`` runs it in both core modes.  The test suite runs a smaller number of the same games
(tests/test_rules_invariants.py)."""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field

from mq import core
from mq.cards import load_default
from mq.rules import invariants
from mq.sim import game_seed, play_game

PLAYERS = (2, 3, 4, 5, 6)


@dataclass
class Report:
    games: int = 0
    steps: int = 0
    broken: dict[str, int] = field(default_factory=dict)  # invariant -> games that broke it
    first: dict[str, str] = field(default_factory=dict)  # invariant -> the first thing found

    def add_game(self, players: int, seed: int) -> None:
        cards = load_default()
        seen: set[str] = set()
        before = []
        step = [0]

        def on_step(state, events) -> None:
            if before:
                for name, check in invariants.INVARIANTS:
                    if name in seen:
                        continue  # a game counts once per invariant it breaks
                    found = check(before[0], state, events, cards)
                    if found:
                        seen.add(name)
                        self.broken[name] = self.broken.get(name, 0) + 1
                        self.first.setdefault(name, f"{players} players, seed {seed}, step {step[0]}: {found[0]}")
                self.steps += 1
                step[0] += 1
                before[0] = state
            else:
                before.append(state)

        play_game(players, seed, on_step)
        self.games += 1


def check_games(games: int, seed: int, start: int = 0) -> Report:
    """Games ``start`` .. ``start + games - 1`` of the run with this seed (as ``mq sim`` seeds them)."""
    report = Report()
    for i in range(start, start + games):
        report.add_game(PLAYERS[i % len(PLAYERS)], game_seed(seed, i))
    return report


def main(argv: list[str] | None = None, out=sys.stdout) -> int:
    parser = argparse.ArgumentParser(prog="python -m mq.soak", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    started = time.perf_counter()
    report = check_games(args.games, args.seed)
    elapsed = time.perf_counter() - started
    for name in invariants.NAMES:
        n = report.broken.get(name, 0)
        print(f"{name}: {'holds' if not n else f'broken in {n} games; first: {report.first[name]}'}", file=out)
    print(f"{report.games} games, {report.steps} steps, {elapsed:.1f} s [{core.IMPLEMENTATION} core]", file=out)
    return 1 if report.broken else 0


if __name__ == "__main__":
    sys.exit(main())
