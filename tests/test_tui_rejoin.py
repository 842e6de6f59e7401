"""A player who comes back gets the game's log and the chat so far (issue 12): a real rejoin over
loopback (the same identity and log file, a new process's peer), its table's ``history`` and the
client that shows it."""
from __future__ import annotations

import asyncio

from drive import running, until

from mq.rules import state_hash
from mq.table import Applied, Notice
from mq.tui.app import connect
from net.client import NetTable, play_bot
from net.peer import Config


def test_a_rejoining_player_gets_the_log_and_the_chat_back(tmp_path):
    async def main():
        host = await NetTable.host(Config(name="ann", log_path=str(tmp_path / "h.mqlog")), seats=2)
        guest = await NetTable.join(Config(name="bob", log_path=str(tmp_path / "g.mqlog")), "127.0.0.1",
                                    host.peer.port)
        await until(lambda: host.peer.open_seats() == 0)
        host.start()
        assert await guest.wait_started(10)
        await host.say("good luck")
        await guest.say("you too")
        bots = [asyncio.create_task(play_bot(t)) for t in (host, guest)]
        await until(lambda: host.peer.seq >= 30 and len(guest.peer.chat_kept) == 2, 30)
        for b in bots:
            b.cancel()
        key, seq = guest.peer.key, None
        await guest.close()
        await until(lambda: host.peer.seats[1].away, 10)
        seq = host.peer.seq
        back = await NetTable.join(Config(name="bob", key=key, log_path=str(tmp_path / "g.mqlog")), "127.0.0.1",
                                   host.peer.port)
        # The host's table may still pass a window the away seat left open (its timer): the
        # player who came back catches up to wherever the host is, not to where it was.
        await until(lambda: back.peer.seq >= seq and back.peer.seq == host.peer.seq
                    and len(back.peer.chat_kept) == 2, 10)
        seq = back.peer.seq
        history = back.history()
        applied = [h for h in history if isinstance(h, Applied)]
        assert [a.seq for a in applied] == list(range(1, seq + 1))
        assert state_hash(applied[-1].state) == state_hash(host.peer.state)
        assert [(n.seat, n.text) for n in history if isinstance(n, Notice)] == [(0, "good luck"), (1, "you too")]
        async with running(connect, back) as (send, client):
            await until(lambda: client.model.chat)
            texts = [line.text for line in client.model.log]
            assert any("Turn 1" in t for t in texts) and len(texts) > 10, texts  # the game so far, worded
            assert [line.text for line in client.model.chat][-2:] == ["<Red ann> good luck", "<Green bob> you too"]
        for t in (back, host):
            await t.close()

    asyncio.run(main())
