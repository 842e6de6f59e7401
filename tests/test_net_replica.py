"""One entry check for every path that re-applies a log (net.replica; docs/net.md, "The log file").

A crafted log — CRCs, numbering, chain and state hashes all valid, but seat 0 acting for seat 1,
or the table playing a player's seat in a game that waits for away players — is refused, with a
message naming the entry, by ``mq replay --verify``, by ``mq host --resume`` and by a player
rejoining with it (real peer processes on loopback), by a new sequencer reconciling with a peer
that sends it (a real CURVE socket speaking the protocol), and by a follower whose sequencer sends
it.  Nothing of the honest log is lost: the game goes on from it to its end.  (A rewind re-applies
what is left of a log that already passed the check on the way in, through the same function.)
"""
from __future__ import annotations

import asyncio
import filecmp
import logging
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass

import pytest
import zmq
import zmq.asyncio
from signed import Players

from mq.bots import choose
from mq.cards import load_default
from mq.rules import Action, actors, make_params, new_game, state_hash, step, view
from mq.rules.actions import encode as encode_action
from mq.table import Notice
from net import gamelog, identity, incarnation, port, replica, signing, wire
from net.harness import ROOT, Cluster
from net.peer import Config, Peer
from net.replay import replay

CARDS = load_default()
ENTRIES = 40
FAST = dict(ping_s=0.05, dead_s=0.5, hello_s=0.05)
# How each forgery is refused (the entry's number comes before it).
REFUSED = {"seat": "seat 0 cannot act for seat 1", "table": "the table cannot act for seat 1",
           "hash": "state hash"}


@dataclass(frozen=True)
class Game:
    keys: tuple[str, str]  # seat 0's and seat 1's identities; seat 2 is a bot seat
    header: gamelog.Header
    moves: tuple  # (action, state hash after it) per entry
    at: int  # the entry the forgeries change: seat 1 acting, not a pass
    players: Players  # the seats' signing keys: seat 0's peer sequences epoch 8 and signs its entries

    def write(self, path: str, upto: int = ENTRIES, forge: str | None = None) -> list[bytes]:
        """The game's first ``upto`` entries as a peer logs them (player seats author their own
        moves, the table the bot's), entry ``at`` forged; returns the records."""
        lg = gamelog.GameLog.create(path)
        lg.write_header(self.header)
        for n, (action, h) in enumerate(self.moves[:upto], 1):
            author = -1 if action.seat == 2 else action.seat
            if n == self.at and forge == "seat":
                author = 0
            elif n == self.at and forge == "table":
                author = -1
            elif n == self.at and forge == "hash":
                h ^= 1
            lg.append(gamelog.decode_entry(self.players.entry(self.header.game, n, author, encode_action(action), h,
                                                              lg.last_id, 8)))
        lg.sync()
        lg.raise_promise(8)
        lg.close()
        return [e.raw for e in gamelog.read(path).entries]


@pytest.fixture(scope="module")
def game() -> Game:
    keys = (os.urandom(32).hex(), os.urandom(32).hex())
    nonces = [bytes([i + 5]) * 32 for i in range(2)]
    roster = [["p0", identity.public_id(keys[0]), "peer"], ["p1", identity.public_id(keys[1]), "peer"],
              ["bot-blue", "", "bot"]]
    players = Players({0: keys[0], 1: keys[1]})
    header = gamelog.decode_header(gamelog.encode_header(
        b"crafted!", gamelog.seed_from(nonces), make_params(3, window_ms=500, away="wait"), nonces, roster,
        players.row(3)))
    state = new_game(header.params, header.seed, CARDS)
    moves = []
    for _ in range(ENTRIES):
        seat = actors(state)[0]
        action = choose(view(state, seat), seat, CARDS)
        state, _ = step(state, action, CARDS)
        moves.append((action, state_hash(state)))
    at = next(n for n, (a, _) in enumerate(moves, 1) if n >= 10 and a.seat == 1 and a.kind != "pass")
    return Game(keys, header, tuple(moves), at, players)


def _refusal(game: Game, forge: str) -> str:
    return f"entry {game.at}: {REFUSED[forge]}"


def _bytes(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


async def _until(cond, timeout=10.0):
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "condition not met in time"
        await asyncio.sleep(0.005)


def _state_before(game: Game, n: int, params=None):
    state = new_game(params or game.header.params, game.header.seed, CARDS)
    for action, _ in game.moves[:n - 1]:
        state = step(state, action, CARDS)[0]
    return state


def test_who_may_author_an_entry(game):
    """At each entry (asking the engine, net.port.table_may_act): a seat acts for itself; the table
    makes the bot's own move for the bot seat, and, in a game that hands away seats to a bot
    (Q-OPT-2), for any seat; it passes only for a seat a window waits for (Q-DIGI-2)."""
    h = game.header
    state, move = _state_before(game, game.at), game.moves[game.at - 1][0]  # seat 1's move (the bot's)
    other = Action(1, "end_turn") if move != Action(1, "end_turn") else Action(1, "ready")
    assert replica.may_author(h, 1, move, state, CARDS) is None
    assert replica.may_author(h, 0, move, state, CARDS) == "seat 0 cannot act for seat 1"
    assert "the table cannot act for seat 1" in replica.may_author(h, -1, move, state, CARDS)
    assert "the table cannot act for seat 1" in replica.may_author(h, -1, Action(1, "pass"), state, CARDS)
    assert "the table cannot act for seat 9" in replica.may_author(h, -1, Action(9, "end_turn"), state, CARDS)
    n = next(n for n, (a, _) in enumerate(game.moves, 1) if a.seat == 2)
    bot_state, bot = _state_before(game, n), game.moves[n - 1][0]
    assert replica.may_author(h, -1, bot, bot_state, CARDS) is None
    not_bot = Action(2, "pass") if bot != Action(2, "pass") else Action(2, "end_turn")
    assert "the table cannot act for seat 2" in replica.may_author(h, -1, not_bot, bot_state, CARDS)
    botted = gamelog.decode_header(gamelog.encode_header(
        h.game, h.seed, make_params(3, window_ms=500, away="bot"), h.nonces, h.roster, h.signers))
    away = _state_before(game, game.at, botted.params)
    assert replica.may_author(botted, -1, move, away, CARDS) is None
    assert "the table cannot act for seat 1" in replica.may_author(botted, -1, other, away, CARDS)
    assert replica.may_author(botted, 0, move, away, CARDS) == "seat 0 cannot act for seat 1"


@pytest.mark.parametrize("forge", sorted(REFUSED))
def test_replay_verify_refuses_a_crafted_log_and_names_the_entry(tmp_path, game, forge):
    path = str(tmp_path / "crafted.mqlog")
    game.write(path, forge=forge)
    assert len(gamelog.read(path).entries) == ENTRIES  # the file itself is sound: CRCs, chain, epochs
    out = subprocess.run([sys.executable, "-m", "net.cli", "replay", path, "--verify"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "verify: FAILED" in out.stdout, out.stdout + out.stderr
    assert _refusal(game, forge) in out.stdout
    honest = str(tmp_path / "honest.mqlog")
    game.write(honest)
    assert replay(honest).ok


def test_peers_refuse_a_crafted_log_and_the_game_goes_on_from_the_honest_one(tmp_path, game):
    """Real peer processes: ``mq host --resume`` with the crafted log stops, naming the entry; so
    does a player rejoining with it, given with ``--log`` or found where ``mq join`` keeps logs.
    Each crafted file is left as it was.  The honest logs then play the game to its end."""
    crafted = str(tmp_path / "crafted.mqlog")
    game.write(crafted, forge="seat")
    want = _refusal(game, "seat")
    with Cluster(str(tmp_path / "run")) as c:
        for i in (0, 1):
            os.makedirs(c.home(i))
            with open(os.path.join(c.home(i), "identity"), "w", encoding="ascii") as f:
                f.write(game.keys[i] + "\n")
            with open(os.path.join(c.home(i), "signing"), "w", encoding="ascii") as f:
                f.write(signing.seed_for(game.keys[i]) + "\n")
        shutil.copyfile(crafted, c.log(0))
        p = c.host(resume=True, ready=False)
        assert p.wait(30) == 1 and want in p.err(), p.err()[-2000:]
        assert _bytes(c.log(0)) == _bytes(crafted)

        honest = game.write(c.log(0))
        c.host(resume=True)
        shutil.copyfile(crafted, c.log(1))
        p = c.join(1)
        assert p.wait(30) == 1 and want in p.err(), p.err()[-2000:]
        assert _bytes(c.log(1)) == _bytes(crafted)
        default = os.path.join(c.home(1), "logs", f"{game.header.game.hex()}.mqlog")
        os.makedirs(os.path.dirname(default))
        shutil.copyfile(crafted, default)
        p = c.join(1, own_log=False)  # welcomed, it finds its log of this game, and stops
        assert p.wait(30) == 1 and want in p.err() and "cannot use" in p.err(), p.err()[-2000:]
        assert _bytes(default) == _bytes(crafted)

        game.write(c.log(1))
        c.join(1)
        codes = c.wait_all(60)
        assert codes == {0: 0, 1: 0}, {i: c.procs[i].err()[-2000:] for i in codes}
        assert c.summary(0) == c.summary(1)
    after = gamelog.read(c.log(0))
    assert [e.raw for e in after.entries[:ENTRIES]] == honest and len(after.entries) > ENTRIES
    assert filecmp.cmp(c.log(0), c.log(1), shallow=False)
    assert replay(c.log(0)).ok


def _dealer(ctx, key: str, server: str, port: int):
    s = ctx.socket(zmq.DEALER)
    s.linger = 0
    s.curve_publickey, s.curve_secretkey = identity.keypair(key)
    s.curve_serverkey = server.encode()
    s.connect(f"tcp://127.0.0.1:{port}")
    return s


async def _next(sock, t: str, timeout=5.0) -> dict:
    """The next message of type ``t`` on ``sock`` (others are skipped)."""
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        assert left > 0, f"no {t} in time"
        frames = await asyncio.wait_for(sock.recv_multipart(), left)
        msg = wire.unpack(frames[-1])
        if msg["t"] == t:
            return msg


@pytest.mark.parametrize("forge", sorted(REFUSED))
def test_a_new_sequencer_refuses_crafted_entries_from_a_more_up_to_date_log(tmp_path, game, forge, caplog):
    """The host resumes with the honest log up to the entry before the forgery; seat 1 (its key,
    over CURVE) says it holds a longer log of the same epoch, and answers the host's ``fetch_req``
    with the crafted entries.  The host takes none of them and tells seat 1 to rewind."""
    host_log, crafted = str(tmp_path / "h.mqlog"), str(tmp_path / "crafted.mqlog")
    honest = game.write(host_log, upto=game.at - 1)
    game.write(crafted, forge=forge)
    forged = gamelog.read(crafted).entries
    caplog.set_level(logging.ERROR, logger="mq.net")

    async def main():
        h = Peer(Config(name="p0", key=game.keys[0], log_path=host_log, settle_s=5.0, **FAST))
        await h.resume(host_log)
        ctx = zmq.asyncio.Context()
        d = _dealer(ctx, game.keys[1], h.pub, h.port)
        try:
            await d.send(wire.pack({
                "t": "hello", "v": wire.PROTOCOL, "id": identity.public_id(game.keys[1]), "name": "p1",
                "role": "play", "inc": incarnation.of(proof := os.urandom(16)), "proof": proof, "port": 1, "last": len(forged),
                "tail": [[e.n, e.id] for e in forged], "game": game.header.game, "epoch": 8, "lep": 8,
                "sign": game.players.signers[1].public,
                "psig": game.players.signers[1].sign_promise(game.header.game, 8)}))
            ask = await _next(d, "fetch_req")
            assert ask["from"] == game.at
            await d.send(wire.pack({"t": "entries", "recs": [e.raw for e in forged[ask["from"] - 1:]]}))
            while True:
                w = await _next(d, "welcome")
                if w["rewind"] >= 0:
                    break
            assert w["rewind"] == game.at - 1
            assert h.phase == "game" and h.seq >= game.at - 1
            taken = {e.id for e in h.log.entries}
            assert not taken & {e.id for e in forged[game.at - 1:]}
        finally:
            d.close()
            ctx.term()
            await h.close()

    asyncio.run(main())
    assert any(_refusal(game, forge) in r.getMessage() and "not adopting" in r.getMessage()
               for r in caplog.records), [r.getMessage() for r in caplog.records]
    after = gamelog.read(host_log)
    assert [e.raw for e in after.entries[:game.at - 1]] == honest
    assert replay(host_log).ok  # what the host went on with checks out


@pytest.mark.parametrize("forge", ["seat", "table"])
def test_a_follower_refuses_a_crafted_entry_from_its_sequencer(tmp_path, game, forge):
    """A sequencer (a ROUTER with seat 0's key, speaking the protocol) sends the crafted log: the
    follower applies and logs the entries before the forgery, then stops without taking it.  (A
    wrong recorded hash is a desync instead: the follower keeps its own state for the search.)"""
    crafted = str(tmp_path / "crafted.mqlog")
    game.write(crafted, forge=forge)
    forged = gamelog.read(crafted).entries
    mine = str(tmp_path / "f.mqlog")
    notices = []

    async def main():
        ctx = zmq.asyncio.Context()
        r = ctx.socket(zmq.ROUTER)
        r.linger = 0
        r.curve_server = True
        r.curve_publickey, r.curve_secretkey = identity.keypair(game.keys[0])
        port = r.bind_to_random_port("tcp://127.0.0.1")
        f = Peer(Config(name="p1", key=game.keys[1], log_path=mine, server_key=identity.public_id(game.keys[0]),
                        **FAST))
        f.subscribe(lambda item: notices.append(item.text) if isinstance(item, Notice) else None)
        try:
            joining = asyncio.create_task(f.join("127.0.0.1", port, timeout=5))
            rid, data = await asyncio.wait_for(r.recv_multipart(), 5)
            assert wire.unpack(data)["t"] == "hello"
            for msg in ({"t": "welcome", "v": wire.PROTOCOL, "seat": 1, "game": game.header.game, "leader": 0,
                         "rewind": -1, "opts": {}, "epoch": 8},
                        {"t": "header", "rec": game.header.raw},
                        {"t": "entries", "recs": [e.raw for e in forged]}):
                await r.send_multipart([rid, wire.pack(msg)])
            await joining
            await _until(lambda: f.phase == "paused")
            assert f.seq == game.at - 1
        finally:
            await f.close()
            r.close()
            ctx.term()

    asyncio.run(main())
    assert any(_refusal(game, forge) in t for t in notices), notices
    assert [e.raw for e in gamelog.read(mine).entries] == [e.raw for e in forged[:game.at - 1]]


def test_the_table_for_a_seat_its_bot_has_no_move_for_is_refused_in_words(game):
    """A forged table entry for a seat that has nothing to do now, in a game that hands away seats
    to a bot (Q-OPT-2): asking the bot for that seat's move fails (it acts out of turn only when
    the rules ask it to), and the entry check refuses the entry in words instead of raising (the
    simulation's Byzantine sequencer sent such entries: net.byzantine, "forge-table")."""
    h = game.header
    botted = gamelog.decode_header(gamelog.encode_header(
        h.game, h.seed, make_params(3, window_ms=500, away="bot"), h.nonces, h.roster, h.signers))
    away = _state_before(game, game.at, botted.params)  # seat 1 to act
    idle = next(s for s in (0, 2) if s not in actors(away))
    with pytest.raises(Exception):
        port.table_may_act(away, ["peer", "peer", "bot"], Action(idle, "end_turn"), CARDS)
    why = replica.may_author(botted, -1, Action(idle, "end_turn"), away, CARDS)
    assert why is not None and f"the table cannot act for seat {idle}" in why and "no move" in why
