"""Run the terminal client on seat 0 of a local Classic game against Classic bots (a LocalTable):
``python tests/classic_local.py SEED [--epic]``; the tmux test of the Classic client runs it."""
from __future__ import annotations

import asyncio
import sys

from mq.rules import make_params, new_game
from mq.table import LocalTable
from mq.tui.app import run


def main(argv: list[str]) -> int:
    seed = int(argv[0]) if argv else 1
    state = new_game(make_params(4, mode="classic", epic="--epic" in argv), seed)
    return asyncio.run(run(LocalTable(state, seat=0, bot_delay=0.05)))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
