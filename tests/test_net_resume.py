"""Everyone killed mid-game; ``mq host --resume`` and the others rejoin; the game finishes."""
from __future__ import annotations

import filecmp

import pytest

from net import gamelog
from net.harness import Cluster
from net.replay import replay

# The mode (Quest; Classic, C-OPT-3) travels in the log header's parameters: resuming needs nothing else.
MODES = pytest.mark.parametrize("mode,at", [((), 100), (("--mode", "classic"), 40)], ids=["quest", "classic"])


@MODES
def test_everyone_killed_then_resume_from_the_hosts_log_and_rejoin(tmp_path, mode, at):
    with Cluster(str(tmp_path)) as c:
        c.host("--seats", "4", "--window-ms", "500", *mode)
        for i in (1, 2, 3):
            c.join(i)
        c.wait_entries(0, at, 30)
        for i in (0, 1, 2, 3):
            c.procs[i].kill9()
        before = gamelog.read(c.log(0))
        assert before.entries and before.header.params.players == 4
        last = before.entries[-1]

        c.host(resume=True)
        for i in (1, 2, 3):
            c.join(i)
        codes = c.wait_all(40)
        assert codes == {0: 0, 1: 0, 2: 0, 3: 0}, {i: c.procs[i].err()[-2000:] for i in codes}
        results = {c.summary(i) for i in range(4)}
    assert len(results) == 1
    after = gamelog.read(c.log(0))
    # Nothing before the crash changed: same header, same entries, same state hashes.
    assert after.header.raw == before.header.raw
    assert after.entries[last.n - 1].raw == last.raw
    assert len(after.entries) > last.n
    for i in (1, 2, 3):
        assert filecmp.cmp(c.log(0), c.log(i), shallow=False)
    assert replay(c.log(0)).ok and after.header.params.mode == (mode[1] if mode else "quest")


def test_a_host_resumed_without_a_name_keeps_its_name_from_the_log(tmp_path):
    """``mq host --resume LOG`` without ``--name``: the seat's name in the log's roster, not a
    default ("player" or $USER) that the others would not know."""
    import subprocess
    import sys

    from net.harness import ROOT

    with Cluster(str(tmp_path)) as c:
        c.host("--seats", "2", "--window-ms", "300", "--bot-delay", "0.02")
        c.join(1, "--bot-delay", "0.02")
        c.wait_entries(0, 20, 30)
        for i in (0, 1):
            c.procs[i].kill9()
        env = dict(c.env, MQ_HOME=c.home(0))
        env.pop("USER", None)
        resumed = subprocess.Popen(
            [sys.executable, "-m", "mq.cli", "host", "--resume", c.log(0), "--headless", "--bot", "--port", "0",
             "--bind", "127.0.0.1", "--no-beacon", "-v", "--settle-ms", "300", "--timeout", "3"],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _, err = resumed.communicate(timeout=60)
    assert "p0 (red) hosts the game from entry" in err, err[-2000:]
    assert "player (red)" not in err.lower() and "Traceback" not in err


def test_a_player_waiting_for_a_killed_host_hears_when_it_hosts_again(tmp_path):
    """The host (a real ``mq host`` process) is killed with SIGKILL mid-game; the player left looks
    for it; resumed with ``mq host --resume``, it welcomes the player again, whose screen hears
    "... hosts the game, from entry N" as a "back" notice for the host's seat (which ends the
    "gone" banner), not only the failure to reach it."""
    import asyncio

    from drive import until

    from mq.table import Notice
    from net.client import NetTable, play_bot
    from net.peer import Config

    with Cluster(str(tmp_path)) as c:
        c.host("--seats", "2", "--window-ms", "300", "--bot-delay", "0.05")

        async def play() -> list[Notice]:
            heard: list[Notice] = []
            guest = await NetTable.join(Config(name="bob", log_path=str(tmp_path / "g.mqlog"), code=c.code),
                                        "127.0.0.1", c.port)
            guest.peer.subscribe(lambda item: heard.append(item) if isinstance(item, Notice) else None)
            try:
                assert await guest.wait_started(15)
                bot = asyncio.create_task(play_bot(guest, 0.05))
                await until(lambda: guest.peer.seq >= 10, 30)
                bot.cancel()
                port = c.port
                c.procs[0].kill9()
                await until(lambda: any(n.kind == "away" and n.seat == 0 for n in heard), 20)
                assert not any(n.kind == "back" for n in heard)
                c.host("--seats", "2", "--port", str(port), resume=True)  # where the player looks for it
                await until(lambda: any(n.kind == "back" and n.seat == 0 for n in heard), 30)
                return heard
            finally:
                await guest.close()

        back = [n for n in asyncio.run(play()) if n.kind == "back"]
    assert len(back) == 1 and "hosts the game, from entry" in back[0].text, back
