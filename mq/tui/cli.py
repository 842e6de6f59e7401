"""``mq play``: a local game against bots.

In a terminal (stdin and stdout both ttys) it is the full-screen client on seat 0 of a
:class:`mq.table.LocalTable`; with ``--narrate``, or when either end is not a terminal (a pipe, a
test), it prints a whole bot game in plain sentences instead, as before the client existed.

``add_commands(subparsers)`` registers the command on ``mq``'s argument parser (mq/cli.py).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time

DEFAULT_DELAY = 0.5  # seconds before each bot action in the client, so a person can follow


def add_commands(subparsers) -> None:
    p = subparsers.add_parser("play", help="play a local game against bots (full screen in a terminal)")
    p.add_argument("--players", type=int, default=4, help="2 to 6 (you are Red, bots play the rest)")
    p.add_argument("--seed", type=int, help="the game's seed (default: random)")
    p.add_argument("--delay", type=float, default=None,
                   help=f"seconds before each bot action (default {DEFAULT_DELAY} in the client, 0 narrated)")
    p.add_argument("--narrate", action="store_true", help="print a narrated all-bot game instead")
    p.set_defaults(func=play)


def play(args) -> int:
    from mq.rules import IllegalAction, make_params

    try:
        make_params(args.players)
    except IllegalAction as err:  # e.g. --players 9: say why instead of a traceback
        print(f"mq play: {err.detail or err.reason}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(8), "little")
    if args.narrate or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return narrated(args.players, seed, args.delay or 0.0)
    delay = DEFAULT_DELAY if args.delay is None else max(0.0, args.delay)
    try:
        return asyncio.run(client(args.players, seed, delay))
    except KeyboardInterrupt:  # Ctrl-C before or after the screen had the terminal
        return 0


async def client(players: int, seed: int, delay: float) -> int:
    from mq.rules import make_params, new_game
    from mq.table import LocalTable
    from mq.tui.app import run

    table = LocalTable(new_game(make_params(players), seed), seat=0, bot_delay=delay)
    return await run(table)


def narrated(players: int, seed: int, delay: float = 0.0) -> int:
    """A whole bot game in plain sentences (mq.narrate), every seat a bot."""
    from mq.cards import load_default
    from mq.narrate import Narrator
    from mq.sim import play_game

    narrator = Narrator(load_default())
    print(f"mq: a {players}-player bot game, seed {seed}")

    def show(state, events):
        lines = narrator.lines(state, events)
        for line in lines:
            print(line)
        if delay and lines:
            sys.stdout.flush()
            time.sleep(delay)

    try:
        result, _, _ = play_game(players, seed, on_step=show)
        print(f"\n{result.turns} turns, {result.actions} actions, final state hash {result.hash}")
    except BrokenPipeError:  # `mq play | head`: the reader has gone, which is fine
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m mq.tui.cli play ...``: the same command without the rest of ``mq``."""
    parser = argparse.ArgumentParser(prog="mq")
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
