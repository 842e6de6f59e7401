"""Epochs (docs/net.md, "Epochs"): when logs part, the more up-to-date one wins — the later epoch of
its last entry, then the length — not the longer one; and a peer never follows a sequencer older
than one it promised to follow.  Real peers on 127.0.0.1, logs built with the real engine."""
from __future__ import annotations

import asyncio
import os
import socket
import time

import zmq
from signed import Players

from mq.bots import choose
from mq.cards import load_default
from mq.rules import actors, make_params, new_game, state_hash, step, view
from mq.rules.actions import encode as encode_action
from net import gamelog, identity, transport, wire
from net.election import next_epoch
from net.peer import Config, Peer

CARDS = load_default()
FAST = dict(ping_s=0.05, dead_s=0.4, hello_s=0.05)


class _Delivered(transport.ZmqRuntime):
    """The real transport (the fault seam, docs/net.md), keeping the callback its peer gave for
    the DEALER's loop, so that a test hands it a message as that loop would."""

    def listen(self, sock, deliver):
        self.from_dealer = deliver
        return super().listen(sock, deliver)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _logs(tmp_path, keys):
    """A 3-seat game (two players, one bot) played by bots for 20 entries in epoch 8; then the
    host's log goes on for 4 more entries in epoch 8 (made durable, never sent), and the other
    player's for 2 entries in epoch 17 (a later reign that went on without the host)."""
    nonces = [bytes([i + 1]) * 32 for i in range(2)]
    roster = [["h", identity.public_id(keys[0]), "peer"], ["b", identity.public_id(keys[1]), "peer"],
              ["bot-blue", "", "bot"]]
    players = Players({0: keys[0], 1: keys[1]})
    header = gamelog.decode_header(gamelog.encode_header(b"E" * 8, gamelog.seed_from(nonces), make_params(3),
                                                         nonces, roster, players.row(3)))
    state = new_game(header.params, header.seed, CARDS)
    moves = []
    for _ in range(24):
        seat = actors(state)[0]
        action = choose(view(state, seat), seat, CARDS)
        state, _ = step(state, action, CARDS)
        moves.append((action, -1 if seat == 2 else seat, state_hash(state)))  # the table plays the bot
    paths = {}
    for name, tail, epoch in (("h", 4, 8), ("b", 2, 17)):
        path = str(tmp_path / f"{name}.mqlog")
        lg = gamelog.GameLog.create(path)
        lg.write_header(header)
        for n, (action, author, h) in enumerate(moves[:20 + tail], 1):
            lg.append(gamelog.decode_entry(players.entry(
                header.game, n, author, encode_action(action), h, lg.last_id, 8 if n <= 20 else epoch,
                cert=players.certificate(header.game, epoch, (0, 1)) if n == 21 and epoch != 8 else None)))
        lg.sync()
        lg.raise_promise(epoch)
        lg.close()
        paths[name] = path
    return paths


async def _until(cond, timeout):
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "condition not met in time"
        await asyncio.sleep(0.005)


def test_a_shorter_log_of_a_later_epoch_wins_over_a_longer_stale_one(tmp_path):
    keys = [os.urandom(32).hex() for _ in range(2)]
    paths = _logs(tmp_path, keys)
    newer = [e.id for e in gamelog.read(paths["b"]).entries]
    stale = gamelog.read(paths["h"]).entries[20:]

    async def main():
        h = Peer(Config(name="h", key=keys[0], log_path=paths["h"], settle_s=5.0, **FAST))
        await h.resume(paths["h"])
        # The resumed host's reign is later than its own log's, but not than b's promise (17).
        assert h.epoch == next_epoch(8, 0) == 16 and h.seq == 24
        b = Peer(Config(name="b", key=keys[1], log_path=paths["b"], server_key=h.pub, **FAST))
        await b.join("127.0.0.1", h.port, timeout=5)
        await _until(lambda: h.sequencing, 10)
        try:
            # b's promise made h take an epoch above 17, and b's log (last epoch 17, 22 entries)
            # won over h's (last epoch 8, 24 entries): h dropped its stale tail and adopted b's.
            assert h.epoch == next_epoch(17, 0) == 24
            assert [e.id for e in h.log.entries[:22]] == newer
            assert all(e.id not in {s.id for s in stale} for e in h.log.entries)
            assert b.log.promise == h.log.promise == 24
            assert [e.id for e in b.log.entries[:22]] == newer  # b was never rewound
            # Anything sequenced from now on carries h's epoch.
            assert all(e.epoch == 24 for e in h.log.entries[22:])
        finally:
            await b.close()
            await h.close()

    asyncio.run(main())
    after = gamelog.read(paths["h"])
    assert [e.id for e in after.entries[:22]] == newer


def test_a_host_learns_a_later_promise_from_the_hello_and_welcomes_with_a_later_epoch(tmp_path):
    """b promised epoch 17; h resumes with epoch 16.  b's hello carries its promise, so h takes a
    later epoch before it answers: b is only ever welcomed into a reign later than its promise."""
    keys = [os.urandom(32).hex() for _ in range(2)]
    paths = _logs(tmp_path, keys)
    seen = []

    async def main():
        h = Peer(Config(name="h", key=keys[0], log_path=paths["h"], settle_s=5.0, **FAST))
        await h.resume(paths["h"])
        b = Peer(Config(name="b", key=keys[1], log_path=paths["b"], server_key=h.pub, **FAST))
        # The fault seam: b's welcomes are seen on their way in (and none is lost).
        b.rt.faults.lose_received = lambda msg: msg.get("t") == "welcome" and bool(seen.append(msg["epoch"]))
        await b.join("127.0.0.1", h.port, timeout=5)
        await _until(lambda: b.following, 10)
        try:
            assert seen and set(seen) == {24} and b.epoch == h.epoch == 24 and b.log.promise == 24
        finally:
            await b.close()
            await h.close()

    asyncio.run(main())


def test_a_welcome_from_a_sequencer_older_than_the_promise_is_answered_with_a_hello(tmp_path):
    keys = [os.urandom(32).hex() for _ in range(2)]
    paths = _logs(tmp_path, keys)

    async def main():
        b = Peer(Config(name="b", key=keys[1], log_path=paths["b"], **FAST), runtime=_Delivered())
        b.open_log(paths["b"])
        hellos = []
        # The fault seam: b's hellos are seen (and lost) on their way to a sequencer that is not there.
        b.rt.faults.lose_sent = lambda msg: msg.get("t") != "hello" or not hellos.append(msg["epoch"])
        b.start_join("127.0.0.1", _free_port(), identity.public_id(keys[0]))
        hellos.clear()  # the first hello, before any welcome
        welcome = {"t": "welcome", "v": wire.PROTOCOL, "seat": 1, "game": b.game, "leader": 0, "rewind": 20,
                   "opts": {}, "epoch": 16}
        b.rt.from_dealer([zmq.Frame(wire.pack(welcome))])  # as its DEALER's loop delivers it
        try:
            # Not followed, nothing rewound, the promise stands and goes back in a hello.
            assert not b.following and b.epoch == 0 and b.seq == 22 and hellos == [17]
            b.rt.from_dealer([zmq.Frame(wire.pack(dict(welcome, epoch=24)))])
            # Followed; the rewind waits for the sequencer's entry after entry 20 to check out.
            assert b.following and b.epoch == 24 and b.log.promise == 24 and b.seq == 22
            theirs = gamelog.read(paths["h"]).entries[20]
            b.rt.from_dealer([zmq.Frame(wire.pack({"t": "entries", "recs": [theirs.raw]}))])
            assert b.seq == 21 and b.log.entries[20].raw == theirs.raw
        finally:
            await b.close()

    asyncio.run(main())
