"""The ``mq`` command."""
from __future__ import annotations

import argparse
import sys


def _sim(args) -> int:
    from mq.sim import run

    return run(args.players, args.games, args.seed, args.json)


def main(argv: list[str] | None = None) -> int:
    from mq.cards.cli import add_commands as add_cards
    from mq.scenario import add_commands as add_scenario
    from mq.tui.cli import add_commands as add_play
    from net.cli import add_commands as add_net

    parser = argparse.ArgumentParser(prog="mq", description="A peer-to-peer LAN dungeon crawl.")
    sub = parser.add_subparsers(dest="command", required=True)
    add_play(sub)
    add_scenario(sub)
    add_cards(sub)
    s = sub.add_parser("sim", help="play bot games headless and print results")
    s.add_argument("--players", type=int, default=4)
    s.add_argument("--games", type=int, default=10)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=_sim)
    add_net(sub)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
