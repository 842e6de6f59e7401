"""LocalTable: the in-process implementation of the client contract (mq.table)."""
from __future__ import annotations

import asyncio

import pytest

from mq.rules import Action, IllegalAction, make_params, new_game
from mq.table import Applied, LocalTable


def test_bots_play_a_whole_game_when_nobody_sits():
    async def main():
        table = LocalTable(new_game(make_params(3), 4), seat=None)
        seen = []

        async def watch():
            async for item in table.updates():
                if isinstance(item, Applied):
                    seen.append(item.seq)
                    if item.state.phase == "over":
                        return

        watcher = asyncio.create_task(watch())
        table.start()
        await asyncio.wait_for(watcher, timeout=120)
        await table.close()
        return table, seen

    table, seen = asyncio.run(main())
    assert table.state.winners
    assert seen == list(range(1, len(seen) + 1))


def test_the_human_seat_waits_for_its_player_and_rejects_foreign_seats():
    async def main():
        table = LocalTable(new_game(make_params(2), 8), seat=0)
        table.start()
        for _ in range(50):
            await asyncio.sleep(0)
        assert table.state.players[1].ready and not table.state.players[0].ready
        with pytest.raises(IllegalAction):
            await table.submit(Action(1, "ready"))
        with pytest.raises(IllegalAction):
            await table.submit(Action(0, "end_turn"))
        await table.submit(Action(0, "ready"))
        assert table.state.players[0].ready
        await table.close()

    asyncio.run(main())
