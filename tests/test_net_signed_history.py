"""Signed history on real peers (net.signing, net.replica.check_signatures; docs/net.md, "Signed
history"): a player that keeps its log and appends entries of its choosing — moves for another
player's seat made as "the table", hashes, chain and CRCs recomputed with the engine — has them
refused, named, and no honest peer gives up an entry it holds for them; a log of the unsigned
format replays, says it is unsigned, and is not resumed.

The forger speaks the protocol on its own sockets (a modified client: its own CURVE key, a ROUTER
or a DEALER), the honest peers are real ``Peer`` objects or ``mq`` processes on loopback.
"""
from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import time
from dataclasses import dataclass

import msgpack
import pytest
import zmq
import zmq.asyncio
from signed import Players

from mq.bots import choose
from mq.cards import load_default
from mq.rules import actors, codec, legal_actions, make_params, new_game, state_hash, step, view
from mq.rules.actions import decode as decode_action
from mq.rules.actions import encode as encode_action
from mq.table import Notice
from net import gamelog, identity, incarnation, replica, signing, wire
from net.client import NetTable
from net.harness import ROOT, Cluster
from net.peer import Config, Peer
from net.replay import replay

CARDS = load_default()
HONEST = 40  # entries every honest peer holds
FAST = dict(ping_s=0.05, dead_s=0.5, hello_s=0.05)


@dataclass(frozen=True)
class Game:
    """Three players (seat 0 hosts: its peer sequences epoch 8), a game the bots played."""

    keys: tuple[str, str, str]
    players: Players
    header: gamelog.Header
    moves: tuple  # (encoded action, its seat, state hash after it)
    kept: int  # the forger kept its log to here (the next move is another seat's), then appended its own

    def write(self, path: str, moves=None, epoch: int = 8) -> list[gamelog.Entry]:
        """A log of ``moves`` (default: the honest game), each seat's move its own, sequenced by
        seat 0 in ``epoch``."""
        lg = gamelog.GameLog.create(path)
        lg.write_header(self.header)
        for n, (x, seat, h) in enumerate(self.moves[:HONEST] if moves is None else moves, 1):
            lg.append(gamelog.decode_entry(self.players.entry(self.header.game, n, seat, x, h, lg.last_id, epoch)))
        lg.sync()
        lg.raise_promise(epoch)
        lg.close()
        return gamelog.read(path).entries

    def write_entries(self, upto: int) -> list[gamelog.Entry]:
        """The honest game's first ``upto`` entries, sequenced by seat 0 in epoch 8."""
        entries: list[gamelog.Entry] = []
        for n, (x, seat, h) in enumerate(self.moves[:upto], 1):
            prev = entries[-1].id if entries else self.header.id
            entries.append(gamelog.decode_entry(self.players.entry(self.header.game, n, seat, x, h, prev, 8)))
        return entries

    def forged(self, path: str, sequencer: int, epoch: int, cert: tuple[int, ...] = ()) -> list[gamelog.Entry]:
        """The forger's log: the honest one to ``kept``, then 7 moves (as the bots would make them,
        legal, hashes recomputed; the first another player's) made "the table", signed by seat
        ``sequencer`` as the sequencer of ``epoch``; a new reign's first entry carries the promises
        of the seats ``cert``."""
        lg = gamelog.GameLog.create(path)
        lg.write_header(self.header)
        for n, (x, seat, h) in enumerate(self.moves[:self.kept], 1):
            lg.append(gamelog.decode_entry(self.players.entry(self.header.game, n, seat, x, h, lg.last_id, 8)))
        for x, _, h in self.moves[self.kept:self.kept + 7]:
            first = lg.last_seq == self.kept and epoch != 8
            lg.append(gamelog.decode_entry(self.players.entry(
                self.header.game, lg.last_seq + 1, -1, x, h, lg.last_id, epoch, sequencer=sequencer,
                cert=self.players.certificate(self.header.game, epoch, cert) if first else None)))
        lg.sync()
        lg.close()
        return gamelog.read(path).entries


@pytest.fixture(scope="module")
def game() -> Game:
    keys = tuple(os.urandom(32).hex() for _ in range(3))
    players = Players(dict(enumerate(keys)))
    nonces = [bytes([i + 9]) * 32 for i in range(3)]
    roster = [[f"p{i}", identity.public_id(k), "peer"] for i, k in enumerate(keys)]
    header = gamelog.decode_header(gamelog.encode_header(
        b"signed!!", gamelog.seed_from(nonces), make_params(3, window_ms=500, away="wait"), nonces, roster,
        players.row(3)))
    state = new_game(header.params, header.seed, CARDS)
    moves = []
    while len(moves) < HONEST + 20:
        seat = actors(state)[0]
        action = choose(view(state, seat), seat, CARDS)
        state, _ = step(state, action, CARDS)
        moves.append((encode_action(action), seat, state_hash(state)))
    # The forged tail starts where a seat other than the forger's (seat 1) acts next.
    kept = next(n for n in range(30, HONEST - 1) if moves[n][1] != 1)
    return Game(keys, players, header, tuple(moves), kept)


async def _until(cond, timeout=10.0):
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "condition not met in time"
        await asyncio.sleep(0.005)


async def _next(sock, t: str, timeout=5.0) -> tuple[bytes | None, dict]:
    """The next message of type ``t`` on ``sock`` (others are skipped): (routing id or None, message)."""
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        assert left > 0, f"no {t} in time"
        frames = await asyncio.wait_for(sock.recv_multipart(), left)
        msg = wire.unpack(frames[-1])
        if msg["t"] == t:
            return (frames[0] if len(frames) == 2 else None), msg


def _bytes(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


@pytest.mark.parametrize("sequencer, epoch, cert, refused", [
    (1, 8, (), "the signature is not the sequencer's of epoch 8"),  # posing as the host's reign
    (1, 9, (1,), "the reign of epoch 9 has no quorum of promises (1 of 2)"),  # a reign it made up
    (1, 9, (0, 1), "the table cannot act for seat"),  # a reign a quorum promised: the rule refuses
], ids=["host-epoch", "own-epoch", "certified-own-epoch"])
def test_a_follower_told_to_rewind_for_a_forged_log_keeps_its_own(tmp_path, game, sequencer, epoch, cert, refused):
    """The forged-log attack on resume: seat 1 resumes the game as host with its forged log (its
    own ROUTER, speaking the protocol as a modified ``mq host --resume`` would) and tells an honest
    player holding all HONEST entries to rewind to where the forgery starts.  The player checks the host's next entry
    before it drops anything: refused, named, and its log is byte for byte what it was.  A reign
    of the forger's own that no quorum promised is refused by its certificate (docs/net.md,
    "Promise certificates"); one that a quorum did promise, by the authorship rule."""
    honest_log, forged_log = str(tmp_path / "p2.mqlog"), str(tmp_path / "forged.mqlog")
    game.write(honest_log)
    before = _bytes(honest_log)
    forged = game.forged(forged_log, sequencer, epoch, cert)
    notices = []

    async def main():
        ctx = zmq.asyncio.Context()
        r = ctx.socket(zmq.ROUTER)
        r.linger = 0
        r.curve_server = True
        r.curve_publickey, r.curve_secretkey = identity.keypair(game.keys[1])
        port = r.bind_to_random_port("tcp://127.0.0.1")
        p = Peer(Config(name="p2", key=game.keys[2], log_path=honest_log,
                        server_key=identity.public_id(game.keys[1]), **FAST))
        p.subscribe(lambda item: notices.append(item.text) if isinstance(item, Notice) else None)
        try:
            joining = asyncio.create_task(p.join("127.0.0.1", port, timeout=5))
            rid, hello = await _next(r, "hello")
            assert hello["last"] == HONEST and hello["sign"] == game.players.signers[2].public
            await r.send_multipart([rid, wire.pack({"t": "welcome", "v": wire.PROTOCOL, "seat": 2, "game": game.header.game,
                                                    "leader": 1, "rewind": game.kept, "opts": {}, "epoch": 17})])
            await r.send_multipart([rid, wire.pack({"t": "header", "rec": game.header.raw})])
            await joining
            _, ask = await _next(r, "fetch")
            assert ask["from"] == game.kept + 1  # it asks for the entries after the rewind point...
            await r.send_multipart([rid, wire.pack({"t": "entries", "recs": [e.raw for e in forged[game.kept:]]})])
            await _until(lambda: p.phase == "paused")
            assert p.seq == HONEST  # ...and drops none of its own for them
        finally:
            await p.close()
            r.close()
            ctx.term()

    asyncio.run(main())
    assert any(f"entry {game.kept + 1}: {refused}" in t for t in notices), notices
    assert _bytes(honest_log) == before
    assert replay(honest_log).ok


def _offer_to_a_resumed_host(game: Game, host_log: str, offered: list[gamelog.Entry]) -> list[bytes]:
    """An honest host (seat 0) resumes from ``host_log`` (as after every peer stopped); seat 1 (its
    key, over CURVE) says it holds ``offered``, a longer log of epoch 8 that parts from the host's at
    ``kept + 1``, and answers the host's ``fetch_req`` with its entries from there.  Returns the
    host's log (records) once it tells seat 1 to rewind to ``kept``."""
    async def main() -> list[bytes]:
        h = Peer(Config(name="p0", key=game.keys[0], log_path=host_log, settle_s=5.0, **FAST))
        await h.resume(host_log)
        ctx = zmq.asyncio.Context()
        d = ctx.socket(zmq.DEALER)
        d.linger = 0
        d.curve_publickey, d.curve_secretkey = identity.keypair(game.keys[1])
        d.curve_serverkey = h.pub.encode()
        d.connect(f"tcp://127.0.0.1:{h.port}")
        try:
            await d.send(wire.pack({
                "t": "hello", "v": wire.PROTOCOL, "id": identity.public_id(game.keys[1]), "name": "p1",
                "role": "play", "inc": incarnation.of(proof := os.urandom(16)),
                "proof": proof, "port": 1, "last": len(offered),
                "tail": [[e.n, e.id] for e in offered][-64:], "game": game.header.game, "epoch": 8, "lep": 8,
                "sign": game.players.signers[1].public,
                "psig": game.players.signers[1].sign_promise(game.header.game, 8)}))
            _, ask = await _next(d, "fetch_req")
            assert ask["from"] == game.kept + 1
            await d.send(wire.pack({"t": "entries", "recs": [e.raw for e in offered[game.kept:]]}))
            while True:
                _, w = await _next(d, "welcome")
                if w["rewind"] >= 0:
                    break
            assert w["rewind"] == game.kept
            return [e.raw for e in h.log.entries]
        finally:
            d.close()
            ctx.term()
            await h.close()

    return asyncio.run(main())


def test_a_resumed_host_refuses_a_forged_log_a_player_offers_and_goes_on(tmp_path, game, caplog):
    """The attack the other way round: an honest host resumes; the forger says it holds a longer
    log of the same epoch and answers the host's ``fetch_req`` with the forged entries.  The host
    takes none, keeps every entry it held, and tells the forger to rewind to what they share."""
    host_log, forged_log = str(tmp_path / "h.mqlog"), str(tmp_path / "forged.mqlog")
    honest = game.write(host_log, game.moves[:game.kept + 1])  # one entry past where the forgery starts
    forged = game.forged(forged_log, 1, 8)
    caplog.set_level(logging.ERROR, logger="mq.net")
    assert _offer_to_a_resumed_host(game, host_log, forged) == [e.raw for e in honest]
    want = f"entry {game.kept + 1}: the signature is not the sequencer's of epoch 8"
    assert any(want in r.getMessage() and "not adopting" in r.getMessage() for r in caplog.records), \
        [r.getMessage() for r in caplog.records]
    assert [e.raw for e in gamelog.read(host_log).entries[:game.kept + 1]] == [e.raw for e in honest]


def _other_face(path: str, game: Game) -> list[gamelog.Entry]:
    """The other face of an equivocation: the honest log to ``kept``, then another legal move of the
    seat that acts there (signed by that seat), and bot moves after it, longer than the honest log,
    every entry numbered and signed by seat 0 as the sequencer of epoch 8 — what a sequencer that
    equivocates sends some of its followers."""
    state = new_game(game.header.params, game.header.seed, CARDS)
    for x, _, _ in game.moves[:game.kept]:
        state = step(state, decode_action(x), CARDS)[0]
    seat = game.moves[game.kept][1]
    other = next(a for a in legal_actions(state, seat, CARDS) if encode_action(a) != game.moves[game.kept][0])
    moves = list(game.moves[:game.kept])
    for k in range(HONEST - game.kept + 4):
        seat = seat if k == 0 else actors(state)[0]
        action = other if k == 0 else choose(view(state, seat), seat, CARDS)
        state = step(state, action, CARDS)[0]
        moves.append((encode_action(action), seat, state_hash(state)))
    return game.write(path, moves)


def test_a_new_sequencer_keeps_its_tail_for_the_other_face_of_an_equivocation(tmp_path, game, caplog):
    """docs/net.md, "An equivocating sequencer": a new sequencer reconciling (an honest host resumed)
    holds entry ``kept + 1`` of epoch 8; seat 1 offers a longer log of the same epoch with another
    entry there, also signed by epoch 8's sequencer (both check out).  The pair proves that epoch's
    sequencer signed two entries for one seq: the host refuses, says so, keeps its own entries (the
    ones a quorum may hold) and tells seat 1 to rewind.  (Before, it dropped them for the longer face.)"""
    host_log, other_log = str(tmp_path / "h.mqlog"), str(tmp_path / "other.mqlog")
    honest = game.write(host_log)
    other = _other_face(other_log, game)
    assert len(other) > len(honest) and other[game.kept].id != honest[game.kept].id
    caplog.set_level(logging.ERROR, logger="mq.net")
    assert _offer_to_a_resumed_host(game, host_log, other)[:HONEST] == [e.raw for e in honest]
    want = (f"not adopting p1's log: entry {game.kept + 1}: the sequencer of epoch 8 signed two different entries "
            "for it (it equivocates)")
    assert any(want in r.getMessage() for r in caplog.records), [r.getMessage() for r in caplog.records]
    assert [e.raw for e in gamelog.read(host_log).entries[:HONEST]] == [e.raw for e in honest]


def test_the_forged_log_is_refused_by_replay_verify_and_by_resume_naming_the_entry(tmp_path, game):
    """``mq replay --verify`` and ``mq host --resume`` (real processes) refuse the forged log, each
    naming the first forged entry, in words, without a traceback; the file is left as it was."""
    forged_log = str(tmp_path / "forged.mqlog")
    game.forged(forged_log, 1, 8)
    before = _bytes(forged_log)
    want = f"entry {game.kept + 1}: the signature is not the sequencer's of epoch 8"
    out = subprocess.run([sys.executable, "-m", "net.cli", "replay", forged_log, "--verify"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "verify: FAILED" in out.stdout and want in out.stdout, out.stdout + out.stderr
    with Cluster(str(tmp_path / "run")) as c:
        os.makedirs(c.home(1))
        for name, secret in (("identity", game.keys[1]), ("signing", signing.seed_for(game.keys[1]))):
            with open(os.path.join(c.home(1), name), "w", encoding="ascii") as f:
                f.write(secret + "\n")
        with open(c.log(1), "wb") as f:
            f.write(before)
        p = c.host(i=1, resume=True, ready=False)
        assert p.wait(30) == 1 and want in p.err() and "Traceback" not in p.err(), p.err()[-2000:]
    assert _bytes(c.log(1)) == before


def _older_log(path: str, game: Game, version: int) -> None:
    """A log as an older mq wrote it: protocol 5 (a header of 7 fields, entries without signatures)
    or protocol 6 (signed; entries of 9 fields, no certificate field, reigns without certificates)."""
    h = game.header
    fields = ["H", version, h.game, h.seed, codec.encode(h.params), list(h.nonces), [list(r) for r in h.roster]]
    if version == 6:
        fields.append(list(h.signers))
    lg = gamelog.GameLog.create(path)
    lg.write_header(gamelog.decode_header(msgpack.packb(fields, use_bin_type=True)))
    for n, (x, seat, sh) in enumerate(game.moves[:HONEST], 1):
        if version == 6:
            pid = (b"crafted!", n)
            asig = game.players.signers[seat].sign_action(h.game, seat, pid, x)
            ssig = game.players.signers[0].sign_entry(h.game, n, 8, lg.last_id, x, seat)
            raw = gamelog.encode_entry(n, seat, pid, x, sh, lg.last_id, 8, asig, ssig, certified=False)
        else:
            raw = gamelog.encode_entry(n, seat, (b"old-log!", n), x, sh, lg.last_id, 8)
        lg.append(gamelog.decode_entry(raw))
    lg.close()


@pytest.mark.parametrize("version, replayed, verdict, refused", [
    (5, "unsigned history (mq protocol 5", "the log is unsigned (mq protocol 5)",
     "this log is of unsigned history (mq protocol 5)"),
    (6, "reigns without certificates (mq protocol 6", "the log's reigns carry no certificates (mq protocol 6)",
     "this log is of mq protocol 6, whose reigns carry no certificates"),
])
def test_an_older_log_replays_says_so_and_is_not_resumed(tmp_path, game, version, replayed, verdict, refused):
    """A log of an older format (protocol 5: no signers, no signatures; protocol 6: signed, but no
    reign carries a certificate) still replays and verifies; the verdict says in words what it
    lacks.  ``mq host --resume`` refuses it in words (docs/net.md, "Signed history", "Promise
    certificates": a game goes on only from a log of this protocol)."""
    old = str(tmp_path / "old.mqlog")
    _older_log(old, game, version)
    assert gamelog.read(old).header.signed == (version == 6) and not gamelog.read(old).header.certified
    out = subprocess.run([sys.executable, "-m", "net.cli", "replay", old, "--verify"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    assert replayed in out.stdout
    assert "verify: ok: the game is unfinished" in out.stdout and verdict in out.stdout
    with Cluster(str(tmp_path / "run")) as c:
        os.makedirs(c.home(0))
        with open(os.path.join(c.home(0), "identity"), "w", encoding="ascii") as f:
            f.write(game.keys[0] + "\n")
        with open(c.log(0), "wb") as f:
            f.write(_bytes(old))
        p = c.host(resume=True, ready=False)
        assert p.wait(30) == 1, p.err()[-2000:]
        assert refused in p.err() and "Traceback" not in p.err()


@pytest.mark.parametrize("author", ["table", "seat"])
def test_a_sequencer_that_authors_a_move_for_another_seat_is_refused(tmp_path, author):
    """A malicious sequencer (the host's own key signs the entry, as its reign's sequencer) makes a
    move for the guest's seat: as the table, in a game that waits for away players, or under the
    guest's seat with a signature of its own.  It goes out on the host's ROUTER (the transport, as
    a modified host sends it); the guest refuses it, naming the entry, and takes nothing of it."""
    async def main():
        fast = dict(ping_s=0.1, dead_s=2.0)
        host = await NetTable.host(Config(name="host", log_path=str(tmp_path / "h.mqlog"), **fast), seats=2)
        guest = await NetTable.join(Config(name="guest", log_path=str(tmp_path / "g.mqlog"), **fast),
                                    "127.0.0.1", host.peer.port)
        notices = []
        guest.peer.subscribe(lambda item: notices.append(item.text) if isinstance(item, Notice) else None)
        await _until(lambda: host.peer.open_seats() == 0)
        host.start()
        assert await guest.wait_started(5)
        hp, gp = host.peer, guest.peer
        await _until(lambda: gp.seq == hp.seq)
        n, x = hp.seq + 1, [1, "ready", []]  # seat 1's move: the guest's, which it has not made
        if author == "table":
            raw = gamelog.signed_entry(hp.signer, hp.game, n, -1, None, x, 0, hp.log.last_id, hp.epoch, None)
            refused = f"entry {n}: the table cannot act for seat 1"
        else:
            pid = (hp.inc, 1)
            raw = gamelog.signed_entry(hp.signer, hp.game, n, 1, pid, x, 0, hp.log.last_id, hp.epoch,
                                       hp.signer.sign_action(hp.game, 1, pid, x))
            refused = f"entry {n}: action 1 of seat 1: the signature is not seat 1's"
        assert hp.rt.send(hp.router, [hp.seat_rid[1], wire.pack({"t": "entries", "recs": [raw]})])
        await _until(lambda: gp.phase == "paused")
        assert gp.seq == n - 1 and len(gp.log.entries) == n - 1
        assert any(refused in t for t in notices), notices
        for t in (guest, host):
            await t.close()

    asyncio.run(main())


def test_a_reign_is_taken_only_with_a_quorum_of_valid_promises(game):
    """net.replica.check_certificate (docs/net.md, "Promise certificates"): the first entry of a
    reign after the host's carries signed promises of its epoch from a quorum of the player seats
    (2 of these 3), each checked against the seat's key; an entry that starts no reign carries none."""
    h, players = game.header, game.players
    tip = replica.Tip.start(h, CARDS)
    for e in game.write_entries(game.kept):
        tip = tip.after(e, replica.apply_entry(h, CARDS, tip, e).state)
    x, _, sh = game.moves[game.kept]

    def first(cert, epoch=9, prev=tip):
        return gamelog.decode_entry(players.entry(h.game, prev.n + 1, -1, x, sh, prev.id, epoch, sequencer=1,
                                                  cert=cert))

    def refusal(e, at=tip) -> str:
        with pytest.raises(replica.BadEntry) as err:
            replica.check_certificate(h, at, e)
        return str(err.value)

    n = game.kept + 1
    replica.check_certificate(h, tip, first(players.certificate(h.game, 9, (0, 1))))  # a quorum: taken
    replica.check_certificate(h, tip, first(players.certificate(h.game, 9, (1, 2))))
    assert refusal(first(None)) == f"entry {n}: the reign of epoch 9 has no quorum of promises (0 of 2)"
    assert refusal(first(players.certificate(h.game, 9, (1,)))) == \
        f"entry {n}: the reign of epoch 9 has no quorum of promises (1 of 2)"
    other_epoch = [(0, players.signers[0].sign_promise(h.game, 17)), (1, players.signers[1].sign_promise(h.game, 9))]
    assert "promise of seat 0 for epoch 9: the signature is not seat 0's" in refusal(first(other_epoch))
    borrowed = [(0, players.signers[1].sign_promise(h.game, 9)), (1, players.signers[1].sign_promise(h.game, 9))]
    assert "promise of seat 0 for epoch 9: the signature is not seat 0's" in refusal(first(borrowed))
    # Within a reign, and in the host's first reign (epoch 8), no certificate.
    assert refusal(first(players.certificate(h.game, 8, (0, 1)), epoch=8)) == \
        f"entry {n}: a certificate where no reign needs one"
    replica.check_certificate(h, tip, first(None, epoch=8))
    with pytest.raises(wire.Malformed):  # seats out of order: not a certificate's shape
        first(list(reversed(players.certificate(h.game, 9, (0, 1)))))


def test_a_promise_counts_only_signed_by_its_seat(tmp_path, game):
    """docs/net.md, "Promise certificates": a resumed host counts a player's promise only if the
    player's seat key signed it, since the reign's first entry will carry it.  Seat 1 (its key, over
    CURVE) promises in its hello and pings with signatures made by seat 2's key: the hello's promise
    counts as none, the ping is dropped (counted) and its later epoch does not move the host; the
    same ping signed by seat 1 makes the host take an epoch above it."""
    host_log = str(tmp_path / "h.mqlog")
    game.write(host_log)
    g, wrong, right = game.header.game, game.players.signers[2], game.players.signers[1]

    async def main():
        h = Peer(Config(name="p0", key=game.keys[0], log_path=host_log, settle_s=30.0, **FAST))
        await h.resume(host_log)
        epoch = h.epoch
        ctx = zmq.asyncio.Context()
        d = ctx.socket(zmq.DEALER)
        d.linger = 0
        d.curve_publickey, d.curve_secretkey = identity.keypair(game.keys[1])
        d.curve_serverkey = h.pub.encode()
        d.connect(f"tcp://127.0.0.1:{h.port}")
        try:
            await d.send(wire.pack({
                "t": "hello", "v": wire.PROTOCOL, "id": identity.public_id(game.keys[1]), "name": "p1",
                "role": "play", "inc": incarnation.of(proof := os.urandom(16)), "proof": proof, "port": 1,
                "last": 0, "tail": [], "game": g,
                "epoch": epoch, "lep": 0, "sign": right.public, "psig": wrong.sign_promise(g, epoch)}))
            await _next(d, "welcome")
            m = next(m for m in h.members.values() if m.seat == 1)
            assert h.drops["hello"] == 1 and m.promised == 0 and m.psig is None
            await d.send(wire.pack({"t": "ping", "seq": 0, "epoch": 40, "psig": wrong.sign_promise(g, 40)}))
            await _until(lambda: h.drops["ping"] == 1)
            assert h.epoch == epoch and m.promised == 0
            await d.send(wire.pack({"t": "ping", "seq": 0, "epoch": 40, "psig": right.sign_promise(g, 40)}))
            await _until(lambda: h.epoch > 40)
            assert h.drops["ping"] == 1
        finally:
            d.close()
            ctx.term()
            await h.close()

    asyncio.run(main())
