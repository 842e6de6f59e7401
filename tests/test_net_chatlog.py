"""The chat kept beside the game log (net.chatlog): bounded, tolerant of a torn line, and given
back after ``mq host --resume`` — a real host process killed with SIGKILL and resumed from its log,
a real joiner over loopback chatting before and getting the chat back after (issue 12)."""
from __future__ import annotations

import asyncio
import os

from drive import until

from mq.table import Notice
from net import chatlog
from net.chatlog import ChatLog
from net.client import NetTable, play_bot
from net.harness import Cluster
from net.peer import Config


def test_the_file_keeps_the_latest_lines_and_stays_bounded(tmp_path):
    path = str(tmp_path / "g.mqlog.chat")
    kept = ChatLog(3)
    kept.append((0, "heard in the lobby"))
    kept.attach(path, fresh=True)
    assert chatlog.read(path) == [(0, "heard in the lobby")]
    for n in range(20):
        kept.append((n % 2, f"line {n}"))
        assert len(chatlog.read(path)) <= 2 * 3
    assert list(kept) == [(1, "line 17"), (0, "line 18"), (1, "line 19")]
    again = ChatLog(3)
    again.append((None, "heard after the restart"))
    again.attach(path)
    assert list(again) == [(0, "line 18"), (1, "line 19"), (None, "heard after the restart")]
    assert chatlog.read(path) == list(again)


def test_a_torn_or_foreign_line_is_skipped_and_a_missing_file_is_no_chat(tmp_path):
    path = tmp_path / "g.mqlog.chat"
    assert chatlog.read(str(path)) == []
    path.write_text('[0, "fine"]\n7\n[1, 2]\n["x", "bad seat"]\n[null, "the table"]\n[1, "torn', encoding="utf-8")
    assert chatlog.read(str(path)) == [(0, "fine"), (None, "the table")]


def test_chat_survives_a_killed_host_resumed_from_its_log(tmp_path):
    """The host (a real ``mq host`` process) hears the joiner's chat, is killed with SIGKILL and
    resumed with ``mq host --resume``; a player joining it again, from a fresh log, gets the chat."""
    with Cluster(str(tmp_path)) as c:
        c.host("--seats", "2", "--window-ms", "300", "--bot-delay", "0.05")

        async def before() -> str:
            cfg = Config(name="bob", log_path=str(tmp_path / "g.mqlog"), code=c.code)
            guest = await NetTable.join(cfg, "127.0.0.1", c.port)
            assert await guest.wait_started(15)
            await guest.say("good luck")
            bot = asyncio.create_task(play_bot(guest, 0.05))
            await until(lambda: guest.peer.seq >= 10, 30)
            await guest.say("mind the stairs")
            await until(lambda: len(chatlog.read(c.log(0) + ".chat")) == 2, 10)
            bot.cancel()
            key = guest.peer.key
            await guest.close()
            return key

        key = asyncio.run(before())
        c.procs[0].kill9()
        assert chatlog.read(c.log(0) + ".chat") == [(1, "good luck"), (1, "mind the stairs")]

        c.host("--seats", "2", resume=True)

        async def after() -> list[tuple[int | None, str]]:
            fresh = str(tmp_path / "g2.mqlog")
            back = await NetTable.join(Config(name="bob", key=key, log_path=fresh, code=c.code), "127.0.0.1", c.port)
            try:
                await until(lambda: len(back.peer.chat_kept) == 2, 15)
                assert os.path.exists(fresh + ".chat")
                return [(n.seat, n.text) for n in back.history() if isinstance(n, Notice)]
            finally:
                await back.close()

        assert asyncio.run(after()) == [(1, "good luck"), (1, "mind the stairs")]
