"""Run the terminal client on seat 0 of a local Classic game against Classic bots (a LocalTable):
``python tests/classic_local.py SEED [--epic]``; the tmux test of the Classic client runs it.
``--trade``: instead of a new game, a 3-player table at the end of Red's first turn with items in
play to trade (Red wears a beanie and keeps a helm and an armour aside, Green wears clogs and keeps
socks aside; tests/classic_table.py builds it from a real new game), for the tmux test of a trade."""
from __future__ import annotations

import asyncio
import sys

from mq.classic.state import Phase
from mq.rules import make_params, new_game
from mq.table import LocalTable
from mq.tui.app import run

BEANIE, HELM, ARMOUR, CLOGS, SOCKS = "CT05", "CT02", "CT06", "CT13", "CT14"


def trade_table(seed: int):
    from classic_table import in_play, playing  # (tests/ is this script's directory: on the path)

    s = in_play(in_play(playing(3, seed=seed), 0, BEANIE), 0, HELM, ARMOUR, in_use=False)
    s = in_play(in_play(s, 1, CLOGS), 1, SOCKS, in_use=False)
    return s.replace(turn=s.turn.replace(phase=Phase.END))


def main(argv: list[str]) -> int:
    seed = int(argv[0]) if argv else 1
    if "--trade" in argv:
        state = trade_table(seed)
    else:
        state = new_game(make_params(4, mode="classic", epic="--epic" in argv), seed)
    return asyncio.run(run(LocalTable(state, seat=0, bot_delay=0.05)))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
