"""The ``mq`` command."""
from __future__ import annotations

import argparse
import os
import sys


def _sim(args) -> int:
    from mq.cliargs import rule_words
    from mq.rules import IllegalAction, make_params
    from mq.sim import run

    try:
        # the engine says who may play (Q-OPT-4, C-OPT-1, 3, 4)
        make_params(args.players, mode=args.mode, epic=args.epic, packs=args.packs)
    except IllegalAction as err:
        print(f"mq sim: {rule_words(err)}", file=sys.stderr)
        return 2
    return run(args.players, args.games, args.seed, args.json, mode=args.mode, epic=args.epic, packs=args.packs)


def main(argv: list[str] | None = None) -> int:
    from mq import cliargs
    from mq.cards.cli import add_commands as add_cards
    from mq.scenario import add_commands as add_scenario
    from mq.tui.cli import add_commands as add_play
    from net.cli import add_commands as add_net
    from net.cli import keys_attached

    parser = argparse.ArgumentParser(prog="mq", description="A peer-to-peer LAN dungeon crawl.")
    sub = parser.add_subparsers(dest="command", required=True)
    add_play(sub)
    add_scenario(sub)
    add_cards(sub)
    s = sub.add_parser("sim", help="play bot games headless and print results")
    s.add_argument("--players", type=int, default=4, help="2 to 6 (default 4)")
    s.add_argument("--games", type=cliargs.whole(1), default=10, help="how many games (default 10)")
    s.add_argument("--seed", type=cliargs.seed, default=1, help="the first game's seed (default 1)")
    s.add_argument("--mode", choices=("quest", "classic"), default="quest",
                   help="quest (the board game, default) or classic (the card game, CLASSIC.md)")
    s.add_argument("--epic", action="store_true", help="classic only: play to level 20 with epic powers (C-EPIC)")
    cliargs.add_packs_option(s)
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=_sim)
    add_net(sub)
    args = parser.parse_args(keys_attached(sys.argv[1:] if argv is None else argv))
    try:
        return args.func(args)
    except KeyboardInterrupt:  # Ctrl-C: the shell's convention, 128 + SIGINT
        return 130
    except BrokenPipeError:  # `mq sim | head`: the reader has gone, which is fine
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
