"""The ``mq`` command."""
from __future__ import annotations

import argparse
import sys


def _sim(args) -> int:
    from mq.sim import run

    return run(args.players, args.games, args.seed, args.json)


def _not_yet(name: str):
    def handler(args) -> int:
        print(f"mq {name}: not implemented yet (LAN play arrives with the net/ package)", file=sys.stderr)
        return 2
    return handler


def main(argv: list[str] | None = None) -> int:
    from mq.tui.cli import add_commands as add_play

    parser = argparse.ArgumentParser(prog="mq", description="A peer-to-peer LAN dungeon crawl.")
    sub = parser.add_subparsers(dest="command", required=True)
    add_play(sub)
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
