"""The ``mq`` command."""
from __future__ import annotations

import argparse
import sys


def _play(args) -> int:
    """A local game against bots, narrated (the terminal client comes with its own issue)."""
    from mq.cards import load_default
    from mq.narrate import Narrator
    from mq.sim import play_game

    narrator = Narrator(load_default())
    seed = args.seed if args.seed is not None else int.from_bytes(__import__("os").urandom(8), "little")
    print(f"mq: a {args.players}-player bot game, seed {seed}")

    def show(state, events):
        for line in narrator.lines(state, events):
            print(line)

    result, _, _ = play_game(args.players, seed, on_step=show)
    print(f"\n{result.turns} turns, {result.actions} actions, final state hash {result.hash}")
    return 0


def _sim(args) -> int:
    from mq.sim import run

    return run(args.players, args.games, args.seed, args.json)


def _not_yet(name: str):
    def handler(args) -> int:
        print(f"mq {name}: not implemented yet (LAN play arrives with the net/ package)", file=sys.stderr)
        return 2
    return handler


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mq", description="A peer-to-peer LAN dungeon crawl.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play a local game against bots (narrated)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int)
    p.set_defaults(func=_play)
    s = sub.add_parser("sim", help="play bot games headless and print results")
    s.add_argument("--players", type=int, default=4)
    s.add_argument("--games", type=int, default=10)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=_sim)
    for name in ("host", "join", "replay"):
        sub.add_parser(name, help="(not yet available)").set_defaults(func=_not_yet(name))
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
