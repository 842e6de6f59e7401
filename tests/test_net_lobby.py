"""Lobby, table options and the edges of joining: LAN discovery, a full table, spectators see
public information only, the interrupt window timer (Q-OPT-1), refusals."""
from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time

import pytest

from mq.bots import choose
from mq.rules import view
from mq.rules.view import HIDDEN
from net.client import NetTable, play_bot
from net.harness import ROOT, Cluster
from net.peer import Config, PeerError
from net.wire import MAX_NAME, PROTOCOL


async def _until(cond, timeout=5.0):
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.005)


def _free_udp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_join_without_an_address_lists_games_heard_on_the_lan(tmp_path):
    env = {"MQ_BEACON_ADDR": "127.0.0.1", "MQ_BEACON_PORT": str(_free_udp_port())}
    with Cluster(str(tmp_path), env=env) as c:
        c.host("--seats", "3", beacon=True)  # waits in the lobby: nobody joins
        out = subprocess.run([sys.executable, "-m", "net.cli", "join", "--headless", "--watch", "--scan-s", "2.2"],
                             cwd=ROOT, env=dict(c.env, MQ_HOME=str(tmp_path / "scan")), capture_output=True,
                             text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    assert f"127.0.0.1:{c.port}" in out.stdout and "1/3 seated" in out.stdout and "(lobby)" in out.stdout


def test_a_full_table_refuses_players_and_a_spectator_sees_no_hidden_cards(tmp_path):
    async def main():
        host = await NetTable.host(Config(name="host", log_path=str(tmp_path / "h.mqlog")), seats=2)
        guest = await NetTable.join(Config(name="g", log_path=str(tmp_path / "g.mqlog")), "127.0.0.1", host.peer.port)
        with pytest.raises(PeerError, match="full"):
            await NetTable.join(Config(name="late", log_path=str(tmp_path / "l.mqlog")), "127.0.0.1", host.peer.port)
        with pytest.raises(PeerError, match="host's own"):
            await NetTable.join(Config(name="twin", key=host.peer.key), "127.0.0.1", host.peer.port)
        await _until(lambda: host.peer.open_seats() == 0)
        host.start()
        watcher = await NetTable.join(Config(name="w", role="watch", log_path=str(tmp_path / "w.mqlog")),
                                      "127.0.0.1", host.peer.port)
        assert await watcher.wait_started(5)
        with pytest.raises(PeerError, match="started"):
            await NetTable.join(Config(name="late2", log_path=str(tmp_path / "l2.mqlog")), "127.0.0.1",
                                host.peer.port)
        assert watcher.seat is None
        for p in watcher.state.players:
            assert p.hand and set(p.hand) == {HIDDEN}
        assert set(watcher.state.treasure_deck.draw) == {HIDDEN} and watcher.state.rng_seed == 0
        assert any(c != HIDDEN for c in guest.state.players[1].hand)  # a player sees its own hand
        for t in (watcher, guest, host):
            await t.close()

    asyncio.run(main())


LOCAL_SEED = 1


def test_the_window_timer_closes_an_interrupt_window_for_a_silent_seat(tmp_path):
    """Q-OPT-1 / Q-DIGI-2: a seat that never answers an interrupt window is passed for by the table
    when the timer ends; the pass is a log entry like any other.  The game is a fixed one (both
    peers' nonces from --local-seed) in which the silent seat meets a window it could act in: in a
    random game it may never hold a card that matters in one, and is always passed by itself."""
    async def main():
        host = await NetTable.host(Config(name="host", log_path=str(tmp_path / "h.mqlog"), local_seed=LOCAL_SEED),
                                   seats=2, window_ms=50)
        guest = await NetTable.join(Config(name="g", log_path=str(tmp_path / "g.mqlog"), local_seed=LOCAL_SEED),
                                    "127.0.0.1", host.peer.port)
        await _until(lambda: host.peer.open_seats() == 0)
        host.start()
        assert await guest.wait_started(5)
        hbot = asyncio.create_task(play_bot(host))
        gp = guest.peer

        async def silent_in_windows():
            while gp.phase == "game":
                st = gp.state
                in_window = st.combat is not None and st.combat.stage == "window"
                if gp.my_turn() and not gp.outstanding and not in_window:
                    await guest.submit(choose(view(st, 1), 1, gp.cards))
                await asyncio.sleep(0.002)

        gbot = asyncio.create_task(silent_in_windows())
        log = host.peer.log
        await _until(lambda: any(e.author == -1 and e.action == [1, "pass", []] for e in log.entries), 60)
        assert gp.seq >= 1
        for t in (hbot, gbot):
            t.cancel()
        for t in (guest, host):
            await t.close()

    asyncio.run(main())


def test_headless_needs_a_bot_or_watch_and_a_bad_log_is_refused(tmp_path):
    out = subprocess.run([sys.executable, "-m", "net.cli", "host", "--headless"], cwd=ROOT, capture_output=True,
                         text=True, timeout=30)
    assert out.returncode == 2 and "--headless needs --bot" in out.stderr
    bad = tmp_path / "bad.mqlog"
    bad.write_bytes(b"not a log at all")
    out = subprocess.run([sys.executable, "-m", "net.cli", "host", "--headless", "--bot", "--resume", str(bad),
                          "--port", "0", "--no-beacon"], cwd=ROOT, capture_output=True, text=True, timeout=30,
                         env={"MQ_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 1 and "not an mq log" in out.stderr


def test_a_long_host_name_is_cut_so_joiners_keep_the_lobby_also_after_a_resume(tmp_path):
    """Peer.host / Peer.resume cut the host's name to wire.MAX_NAME as the CLIs do: the lobby's
    schema would refuse a longer one, and every joiner would drop the lobby."""
    long_name = "h" * 100

    async def main():
        host = await NetTable.host(Config(name=long_name, log_path=str(tmp_path / "h.mqlog")), seats=2)
        assert host.peer.seats[0].name == long_name[:MAX_NAME]
        guest = await NetTable.join(Config(name="g", log_path=str(tmp_path / "g.mqlog")), "127.0.0.1",
                                    host.peer.port)
        await _until(lambda: len(guest.peer.seats) == 2 and guest.peer.seats[0].name == long_name[:MAX_NAME])
        assert guest.peer.drops.total() == 0
        await _until(lambda: host.peer.open_seats() == 0)
        host.start()
        assert await guest.wait_started(5)
        hkey, gkey = host.peer.key, guest.peer.key
        for t in (guest, host):
            await t.close()

        again = await NetTable.resume(Config(name=long_name + "x", key=hkey, settle_s=0.5), str(tmp_path / "h.mqlog"))
        assert again.peer.seats[0].name == long_name[:MAX_NAME]
        back = await NetTable.join(Config(name="g", key=gkey, log_path=str(tmp_path / "g.mqlog")), "127.0.0.1",
                                   again.peer.port)
        await _until(lambda: len(back.peer.seats) == 2 and back.peer.seats[0].name == long_name[:MAX_NAME])
        assert back.peer.drops.total() == 0
        for t in (back, again):
            await t.close()

    asyncio.run(main())


def test_a_joiner_keeps_its_place_when_the_host_is_silent_in_the_lobby_for_a_while(tmp_path):
    """Before the game there is no failover: a joiner that hears nothing for dead_s says hello again
    (for LOBBY_PATIENCE_S) instead of leaving, and the host seats it again; the game then starts."""
    async def main():
        fast = dict(ping_s=0.05, dead_s=0.3)
        host = await NetTable.host(Config(name="host", log_path=str(tmp_path / "h.mqlog"), **fast), seats=2)
        guest = await NetTable.join(Config(name="g", log_path=str(tmp_path / "g.mqlog"), **fast), "127.0.0.1",
                                    host.peer.port)
        hp, gp = host.peer, guest.peer
        await _until(lambda: hp.open_seats() == 0)
        # The host's messages are lost for 1 s (> 3 x dead_s): the guest hears nothing (its hellos
        # still reach the host, which keeps its seat).
        send = hp.rt.send
        hp.rt.send = lambda sock, parts: sock is not hp.router and send(sock, parts)
        notices = []
        gp.subscribe(lambda item: notices.append(item))
        await asyncio.sleep(1.0)
        assert gp.phase != "closed" and gp.connecting
        hp.rt.send = send
        await _until(lambda: gp.following and hp.open_seats() == 0, 5)
        assert any("silent" in getattr(n, "text", "") for n in notices)
        host.start()
        assert await guest.wait_started(5) and gp.seat == 1
        await guest.close()
        await host.close()

    asyncio.run(main())


def test_each_player_chooses_their_gender_and_the_host_the_starting_hand(tmp_path):
    """Q-SETUP-3, Q-OPT-3: the host's gender and starting hand and each joiner's gender (told in its
    hello, changed in the lobby) are table options everyone sees, and go into the game parameters (so
    into the hash); the bot seat's gender is rolled from the seed, and a seat left empty by a joiner
    who went away is rolled again."""
    from mq.rules.newgame import ROLLED
    from net import options

    async def main():
        host = await NetTable.host(Config(name="host", gender="female", log_path=str(tmp_path / "h.mqlog")),
                                   seats=4, bots=1, start=4)
        gone = await NetTable.join(Config(name="gone", gender="male", log_path=str(tmp_path / "x.mqlog")),
                                   "127.0.0.1", host.peer.port)
        await _until(lambda: options.genders(host.peer.opts)[1] == "male")
        await gone.close()
        await _until(lambda: host.peer.open_seats() == 2)
        assert options.genders(host.peer.opts)[1] == ROLLED
        guest = await NetTable.join(Config(name="g", gender="male", log_path=str(tmp_path / "g.mqlog")),
                                    "127.0.0.1", host.peer.port)
        guest.peer.choose_gender("female")  # changed their mind in the lobby
        await _until(lambda: options.genders(guest.lobby[1]) == ("female", "female", ROLLED, ROLLED))
        assert guest.lobby[1]["start"] == 4  # everyone sees the options before the start
        host.start()
        assert await guest.wait_started(10)
        params = guest.peer.header.params
        assert params.genders == ("female", "female", ROLLED, ROLLED) and params.start_treasure == 4
        first = guest.peer.ring[0]
        assert [p.gender for p in first.players[:2]] == ["female", "female"]
        assert first.players[3].gender in ("male", "female") and all(len(p.hand) == 8 for p in first.players)
        for t in (guest, host):
            await t.close()

    asyncio.run(main())


def test_a_bad_starting_hand_or_gender_is_refused_in_words(tmp_path):
    """Q-OPT-3, Q-SETUP-3: the commands refuse options the rules do not have, with no traceback."""
    for args, words in ((["host", "--starting-hand", "5"], "invalid choice"),
                        (["join", "127.0.0.1:1", "--gender", "robot"], "invalid choice")):
        out = subprocess.run([sys.executable, "-m", "mq.cli", *args, "--no-beacon"] if args[0] == "host"
                             else [sys.executable, "-m", "mq.cli", *args], cwd=ROOT, capture_output=True,
                             text=True, timeout=30, env={"MQ_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
        assert out.returncode == 2 and words in out.stderr and "Traceback" not in out.stderr


def test_the_host_chooses_classic_epic_and_a_joiner_learns_it_from_the_lobby_and_the_header(tmp_path):
    """C-OPT-3, C-OPT-2, C-SETUP-4: the mode and the Epic option are table options everyone sees in
    the lobby; they go into the game parameters (the header, so the hash): a joiner who chose
    nothing plays the Classic game, with Classic's starting hand and each player's gender."""
    from mq.classic import is_classic
    from net import options

    async def main():
        host = await NetTable.host(Config(name="host", gender="female", log_path=str(tmp_path / "h.mqlog")),
                                   seats=3, bots=1, mode="classic", epic=True)
        guest = await NetTable.join(Config(name="g", gender="male", log_path=str(tmp_path / "g.mqlog")),
                                    "127.0.0.1", host.peer.port)
        await _until(lambda: options.genders(guest.lobby[1])[1:2] == ("male",))  # (empty until the lobby comes)
        shown = guest.lobby[1]
        assert (shown["mode"], shown["epic"], shown["start"]) == ("classic", 1, 4)
        host.start()
        assert await guest.wait_started(10)
        params = guest.peer.header.params
        assert params.mode == "classic" and params.epic and params.start_door == 4
        first = guest.peer.ring[0]
        assert is_classic(first) and [p.gender for p in first.players[:2]] == ["female", "male"]
        assert first.players[2].gender in ("male", "female") and all(len(p.hand) == 8 for p in first.players)
        for t in (guest, host):
            await t.close()

    asyncio.run(main())


def test_the_host_chooses_packs_and_a_joiner_learns_them_from_the_lobby_and_the_header(tmp_path):
    """C-OPT-4: the packs are a table option everyone sees in the lobby; they go into the game
    parameters (the header, so the hash), and the joiner's game has the packs' cards."""
    from mq.cards.classic_packs import NAMES
    from net import options

    async def main():
        host = await NetTable.host(Config(name="host", log_path=str(tmp_path / "h.mqlog")),
                                   seats=2, mode="classic", packs=NAMES)
        guest = await NetTable.join(Config(name="g", log_path=str(tmp_path / "g.mqlog")), "127.0.0.1", host.peer.port)
        await _until(lambda: "packs" in guest.lobby[1])
        assert options.packs(guest.lobby[1]) == NAMES
        host.start()
        assert await guest.wait_started(10)
        assert guest.peer.header.params.packs == NAMES
        first = guest.peer.ring[0]
        assert any(c.startswith(("CD8", "CT8")) for c in first.door.draw + first.treasure.draw)
        for t in (guest, host):
            await t.close()

    asyncio.run(main())


def test_table_options_that_do_not_go_together_are_refused_in_words(tmp_path):
    """C-OPT-3: Epic is Classic's; C-OPT-2, Q-OPT-3: each mode has its own starting hands. The
    commands say so (exit 2) and open nothing."""
    for args, words in ((["host", "--epic"], "Epic is a table option of the Classic mode"),
                        (["host", "--mode", "classic", "--starting-hand", "3"], "4 or 2 cards of each deck"),
                        (["host", "--starting-hand", "2"], "starting hand"),
                        (["play", "--epic"], "Epic is a table option of the Classic mode"),
                        (["host", "--packs", "all"], "packs are a table option of the Classic mode"),
                        (["play", "--mode", "classic", "--packs", "orcz"], "no pack 'orcz'"),
                        (["host", "--mode", "chess"], "invalid choice")):
        out = subprocess.run([sys.executable, "-m", "mq.cli", *args, "--bind", "127.0.0.1", "--port", "0",
                              "--no-beacon", "--headless", "--bot"] if args[0] == "host"
                             else [sys.executable, "-m", "mq.cli", *args], cwd=ROOT, capture_output=True,
                             text=True, timeout=30, env={"MQ_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
        assert out.returncode == 2 and words in out.stderr and "Traceback" not in out.stderr, (args, out.stderr)


# A peer of an older protocol, in its own process: this mq with the version it says in its hello
# (``hello_only``) or everywhere (its key service check too) set back by one.
OLDER = """
import sys
import net.follower, net.sequencer, net.wire
older = net.wire.PROTOCOL - 1
net.follower.PROTOCOL = net.sequencer.PROTOCOL = older
if sys.argv[1] == "everywhere":
    net.wire.PROTOCOL = older
from mq.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("where", ["hello_only", "everywhere"])
def test_a_peer_of_another_protocol_version_is_refused_in_words(tmp_path, where):
    """The protocol's version is in every hello and in the key service's line (docs/net.md); a
    joiner of an older version is told, in words and once, that everyone needs the same mq, and
    the host's lobby is unchanged."""
    with Cluster(str(tmp_path)) as c:
        host = c.host("--seats", "2")
        old = subprocess.run(
            [sys.executable, "-c", OLDER, where, "join", f"127.0.0.1:{c.port}", "--headless", "--bot",
             "--code", c.code, "--bind", "127.0.0.1", "--connect-timeout", "5", "--log", str(tmp_path / "old.mqlog")],
            cwd=ROOT, capture_output=True, text=True, timeout=60, env=dict(c.env, MQ_HOME=str(tmp_path / "old")))
        assert old.returncode == 1, old.stderr[-2000:]
        assert (f"the game speaks mq protocol {PROTOCOL} and your mq speaks {PROTOCOL - 1}: "
                "everyone at the table needs the same version of mq") in old.stderr
        assert old.stderr.count("same version of mq") == 1 and "Traceback" not in old.stderr
        assert "joined" not in old.stdout and host.p.poll() is None
