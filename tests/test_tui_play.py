"""``mq play`` in a terminal is a LAN game on loopback: this process hosts seat 0 on 127.0.0.1 and
every other seat is a headless bot peer process; ``--seed`` fixes the seed through the peers'
commit-reveal nonces; a bot peer that does not join is replaced by the host's own bot; leaving
stops the bot processes and removes their directory."""
from __future__ import annotations

import asyncio
import hashlib
import os
import subprocess
import sys
import tempfile

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from mq.rules import new_game, state_hash
from mq.tui import cli
from net import gamelog
from net.client import play_bot


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """The game's log goes under MQ_HOME/logs: a temporary one, never the user's."""
    monkeypatch.setenv("MQ_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


async def _until(pred, timeout: float, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not pred():
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


def test_each_bot_is_a_peer_process_and_the_seed_comes_from_the_given_one():
    async def main():
        async with cli.local_game(3, seed=3, delay=0.0) as game:
            table = game.table
            assert game.missing == [] and [s.kind for s in table.peer.seats] == ["peer"] * 3
            assert len({p.pid for p in game.bots} | {os.getpid()}) == 3
            assert all(p.poll() is None for p in game.bots)
            assert {s.host for s in table.peer.seats} == {"127.0.0.1"}
            # The seed is the hash of the commit-reveal nonces, each derived from 3 and its seat.
            nonces = [hashlib.sha256(f"mq-local-seed:3:{s}".encode()).digest() for s in range(3)]
            header = table.peer.header
            assert header.nonces == tuple(nonces) and header.seed == gamelog.seed_from(nonces)
            assert state_hash(table.peer.ring[0]) == state_hash(new_game(header.params, header.seed))
            me = asyncio.get_running_loop().create_task(play_bot(table))  # seat 0 plays too
            try:
                await _until(lambda: table.peer.seq >= 60, 60, "the bot peers to play")
            finally:
                me.cancel()
            bots, work = game.bots, game.work
        assert all(p.poll() is not None for p in bots) and not os.path.exists(work)

    asyncio.run(main())


def test_a_bot_peer_that_does_not_join_is_replaced_by_the_hosts_bot(monkeypatch, capsys):
    spawn = cli._spawn_bot

    def flaky(work, i, port, seed, delay, fork=False):
        if i == 2:
            os.makedirs(os.path.join(work, "bot2"))
            with open(os.path.join(work, "bot2", "err"), "w") as err:
                return subprocess.Popen([sys.executable, "-c", "raise SystemExit('no network today')"],
                                        stderr=err)
        return spawn(work, i, port, seed, delay, fork)

    monkeypatch.setattr(cli, "_spawn_bot", flaky)

    async def main():
        # The start waits for the bot peers still running (the failed one has exited): 60 s is a
        # bound for a loaded machine, not a wait.
        async with cli.local_game(3, seed=None, delay=0.0, join_s=60) as game:
            assert game.missing == [2]
            assert [s.kind for s in game.table.peer.seats] == ["peer", "peer", "bot"]
            me = asyncio.get_running_loop().create_task(play_bot(game.table))
            try:
                await _until(lambda: game.table.peer.seq >= 60, 60, "the game to go on")
            finally:
                me.cancel()

    asyncio.run(main())
    err = capsys.readouterr().err
    assert "own bot plays Blue" in err and "no network today" in err


def test_the_client_runs_over_the_local_game_and_cleans_up_when_quit(monkeypatch, tmp_path):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))

    async def main():
        with create_pipe_input() as pipe:
            pipe.send_text("\r")  # the lobby: start the game
            play = asyncio.get_running_loop().create_task(cli.client(2, 5, 0.0, input=pipe, output=DummyOutput()))
            await _until(lambda: list((tmp_path / "home" / "logs").glob("*.mqlog")), 60, "the game to start")
            await asyncio.sleep(0.3)  # the game's screen takes over the input
            pipe.send_text("qy")  # quit, yes
            return await asyncio.wait_for(play, 60)

    assert asyncio.run(main()) == 0
    assert not [p for p in os.listdir(tmp_path) if p.startswith("mq-play-")]
    assert len(list((tmp_path / "home" / "logs").glob("*.mqlog"))) == 1  # the game's log is kept


FORKED = r"""
import asyncio, os, sys
from mq.tui import cli
from net.client import play_bot
from mq.cards import load_default
load_default()
assert cli.can_fork()
peers = cli.start_bot_peers(3, 3, 0.0, fork=cli.can_fork())
assert [type(p).__name__ for p in peers.procs] == ["ForkedBot", "ForkedBot"] and peers.port
pids = [p.pid for p in peers.procs]

async def main():
    assert not cli.can_fork()  # never from inside a running event loop
    async with cli.local_game(3, 3, 0.0, peers=peers) as game:
        table = game.table
        assert game.missing == [] and [s.kind for s in table.peer.seats] == ["peer"] * 3
        assert table.peer.port == peers.port  # the port the bot peers were told before it was open
        me = asyncio.get_running_loop().create_task(play_bot(table))
        while table.peer.seq < 60:
            await asyncio.sleep(0.02)
        me.cancel()
    return game.work

work = asyncio.run(asyncio.wait_for(main(), 90))
assert all(p.poll() is not None for p in peers.procs) and not os.path.exists(work)
for pid in pids:  # reaped: no zombie left behind
    assert not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().split()[2] != "Z"
print("ok", len(set(pids) | {os.getpid()}))
"""


def test_mq_play_forks_its_bot_peers_before_the_game_opens(tmp_path):
    # In a process of its own: a test worker has threads, and forking needs a process without.
    out = subprocess.run([sys.executable, "-c", FORKED], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, MQ_HOME=str(tmp_path)), cwd=tmp_path)
    assert out.returncode == 0 and out.stdout.split() == ["ok", "3"], out.stderr


def test_the_player_chooses_their_gender_and_the_starting_hand():
    """Q-SETUP-3, Q-OPT-3: ``mq play --gender female --starting-hand 4``: Red's munchkin is female, the
    bot peers' genders are rolled from the seed, and everyone starts with 4 + 4 cards; all of it in
    the game parameters (so in the hash)."""
    async def main():
        async with cli.local_game(3, seed=4, delay=0.0, gender="female", start=4) as game:
            params = game.table.peer.header.params
            assert params.genders == ("female", "rolled", "rolled") and params.start_treasure == 4
            first = game.table.peer.ring[0]
            assert first.players[0].gender == "female" and all(len(p.hand) == 8 for p in first.players)

    asyncio.run(main())


def test_mq_play_refuses_a_starting_hand_the_rules_do_not_have(tmp_path):
    out = subprocess.run([sys.executable, "-m", "mq.cli", "play", "--starting-hand", "6"], capture_output=True,
                         text=True, timeout=30, env=dict(os.environ, MQ_HOME=str(tmp_path)))
    assert out.returncode == 2 and "--starting-hand" in out.stderr and "Traceback" not in out.stderr
    narrated = subprocess.run([sys.executable, "-m", "mq.cli", "play", "--players", "2", "--seed", "3",
                               "--starting-hand", "4", "--gender", "female"], capture_output=True, text=True,
                              timeout=120, env=dict(os.environ, MQ_HOME=str(tmp_path)))
    assert narrated.returncode == 0 and "a 2-player bot game, seed 3" in narrated.stdout
