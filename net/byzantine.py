"""A Byzantine peer for the simulation (net.sim, ``--byzantine``): one seat whose process runs the
real Peer and, besides, tries to make the honest peers adopt what no honest peer made.

It holds the signing key of its own seat only, and the code.  Every attack goes out through its
own runtime's sockets (the fault seam, docs/net.md: ``rt.send`` on the peer's ROUTER or DEALER),
drawn from the seed, a few times a virtual second:

- *forge-seat*: an entry for another seat's action, authored as that seat (its signature made
  with the wrong key), numbered by the attacker;
- *forge-table*: the same action authored by the table (-1), which the table may not play;
- *alter*: the log's last entry with another action under the copied signatures, the hash, chain
  and CRC recomputed;
- *replay-entry*: an old signed entry again, renumbered after the tip, in the attacker's epoch,
  re-signed by the attacker as sequencer;
- *replay-proposal*: an old signed proposal of its own seat sent to the sequencer again;
- *equivocate* (as the live sequencer, on its own turn): two different entries for the next seq,
  both validly signed (its own action, its own epoch), one to each half of its followers;
- *longer-log*: as a follower, a forged tail (altered entries) offered as the answer to a
  sequencer's ``fetch_req`` (reconciliation);
- *own-reign* (as a follower, on its own turn): a reign of its own seat that no one promised, in an
  epoch later than any, whose entries are its own legal moves (each signed by itself, as the
  author and as that reign's sequencer; the first with the only certificate it can make, its own
  promise), announced in a ``hello`` (that log's last entry and epoch, its promise of the epoch
  signed) and offered as the answer to the ``fetch_req`` that follows.

For every record it makes it asks the one entry check (net.replica.apply_entry, against its own
log) which check refuses it, and tells the simulation, which then checks that no honest peer's
log ever holds a record that fails (``Sim.forged``).  An equivocating entry passes that check: it
is what the epoch's sequencer signed; what must hold then is that no acknowledged entry is lost
and that the fork is refused in words, not left as a silent split.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

from mq.rules import IllegalAction, legal_actions
from mq.rules.actions import decode as decode_action
from mq.rules.actions import encode as encode_action
from net import election, gamelog, port, replica, wire
from net.wire import TABLE_AUTHOR

if TYPE_CHECKING:
    from net.peer import Peer
    from net.sim import Sim

KINDS = ("forge-seat", "forge-table", "alter", "replay-entry", "replay-proposal", "own-reign")  # on a timer; the
# others when the peer's own code sends: equivocate (an entry it numbered), longer-log (a fetch answer)
PERIOD_S = 0.25  # an attack about this often (virtual seconds)


def refusing_check(text: str) -> str:
    """Which check of net.replica.apply_entry a BadEntry's message names."""
    for word, check in (("quorum of promises", "certificate"), ("certificate", "certificate"),
                        ("replay", "replay"), ("signature", "signature"), ("signed", "signature"),
                        ("cannot act", "authorship"), ("chain", "chain"), ("due", "numbering"),
                        ("older than", "epoch"), ("illegal", "legality"), ("state hash", "hash")):
        if word in text:
            return check
    return "other"


class Attacker:
    """The Byzantine seat's attacks; ``counts`` holds (kind, outcome) pairs: "tried", the check that
    refused it ("by signature", ...), "valid" (an equivocating entry), "no chance" (nothing to
    attack with at that moment)."""

    def __init__(self, sim: "Sim", seat: int) -> None:
        self.sim, self.seat = sim, seat
        self.rng = random.Random(f"{sim.seed}:byzantine")
        self.counts: Counter = Counter()
        self._own = False  # True while an attack sends (outgoing leaves those alone)
        self._faces: dict[bytes, tuple[bytes, set[bytes]] | None] = {}  # entry id -> its other face
        self._reign: list[bytes] = []  # a made-up reign's entries, announced, offered at the next fetch_req

    def arm(self, rt) -> None:
        """Attack from this process (a restarted one is armed again)."""
        self.sim.at(PERIOD_S * (0.5 + self.rng.random()), lambda: self._attack(rt), rt)

    def outgoing(self, sock_is_dealer: bool, parts: list) -> list:
        """What the Byzantine process's own code sends, as it leaves: an answer to a fetch_req
        (a follower's ``entries``) is forged (longer-log); a live sequencer's entry of its own
        seat's action goes to some followers as another entry (equivocate)."""
        p = self.sim.peers[self.seat]
        if self._own or p is None or p.log is None or p.header is None:
            return parts
        if sock_is_dealer and len(parts) == 1:
            msg = wire.unpack(bytes(parts[0]))
            return [wire.pack(self.answer_fetch(p, msg))] if msg["t"] == "entries" else parts
        if sock_is_dealer or len(parts) != 2:
            return parts
        msg = wire.unpack(bytes(parts[1]))
        if msg["t"] != "entries" or len(msg["recs"]) != 1 or not p.sequencing:
            return parts
        alt = self._other_face(p, gamelog.decode_entry(msg["recs"][0]))
        if alt is None or bytes(parts[0]) not in alt[1]:
            return parts
        return [parts[0], wire.pack({"t": "entries", "recs": [alt[0]]})]

    def _other_face(self, p: "Peer", e: gamelog.Entry) -> tuple[bytes, set[bytes]] | None:
        """For entry ``e`` of our own seat's action, just numbered: the other entry for the same
        seq, validly signed, and the followers that get it instead (drawn once per entry)."""
        if e.id in self._faces:
            return self._faces[e.id]
        face = None
        if e.author == self.seat and e.pid is not None and e.n == p.seq and self.rng.random() < 0.3 \
                and e.n - 1 in p.replica.ring:
            before = p.replica.ring[e.n - 1]
            acts = [a for a in legal_actions(before, self.seat, p.cards) if encode_action(a) != e.action]
            followers = self._followers(p)
            self.counts[("equivocate", "tried")] += 1
            if acts and len(followers) >= 2:
                a = acts[self.rng.randrange(len(acts))]
                x = encode_action(a)
                try:
                    h = port.hash(port.apply(before, a, p.cards)[0])
                except IllegalAction:
                    h = e.hash
                raw = gamelog.signed_entry(p.signer, p.game, e.n, self.seat, e.pid, x, h, e.prev, e.epoch,
                                           p.signer.sign_action(p.game, self.seat, e.pid, x))
                self.rng.shuffle(followers)
                face = (raw, set(followers[:self.rng.randint(1, len(followers) - 1)]))
                alt = gamelog.decode_entry(raw)
                try:
                    p.replica.would_take(e.n - 1, alt)
                    self.counts[("equivocate", "valid")] += 1
                    self.sim.equivocated.update((e.id, alt.id))
                except replica.BadEntry as err:
                    self.counts[("equivocate", "by " + refusing_check(str(err)))] += 1
                    self.sim.forged[alt.id] = f"equivocate: {err}"
            else:
                self.counts[("equivocate", "no chance")] += 1
        self._faces[e.id] = face
        return face

    def _attack(self, rt) -> None:
        self.sim.at(PERIOD_S * (0.5 + self.rng.random()), lambda: self._attack(rt), rt)
        p = self.sim.peers[self.seat]
        if p is None or self.sim.rts[self.seat] is not rt or p.phase != "game" or p.log is None \
                or p.header is None or not p.header.signed:
            return
        kind = self.rng.choice(KINDS)
        self._own = True
        try:
            made = getattr(self, "_" + kind.replace("-", "_"))(p)
        finally:
            self._own = False
        self.counts[(kind, "tried")] += 1
        if not made:
            self.counts[(kind, "no chance")] += 1

    # -- what is sent, and where ---------------------------------------------------------------------
    def _send_entries(self, p: "Peer", kind: str, raws: list[bytes], rids: list[bytes] | None = None) -> None:
        for raw in raws:
            self._judge(p, kind, raw)
        msg = wire.pack({"t": "entries", "recs": raws})
        if p.leader:
            for rid in (rids if rids is not None else self._followers(p)):
                p.rt.send(p.router, [rid, msg])
        else:
            p.rt.send(p.dealer, [msg])  # to the sequencer, unasked

    def _followers(self, p: "Peer") -> list[bytes]:
        return [rid for rid, m in sorted(p.sequencer.membership.members.items()) if m.seat is not None]

    def _judge(self, p: "Peer", kind: str, raw: bytes) -> bool:
        """Ask the one entry check about a record made after our tip; a record it refuses is
        forged, and no honest peer may ever hold it.  True: refused."""
        e = gamelog.decode_entry(raw)
        try:
            replica.apply_entry(p.header, p.cards, p.replica.tip(), e)
        except replica.BadEntry as err:
            self.counts[(kind, "by " + refusing_check(str(err)))] += 1
            self.sim.forged[e.id] = f"{kind}: {err}"
            return True
        self.counts[(kind, "valid")] += 1
        return False

    # -- the attacks -----------------------------------------------------------------------------------
    def _other_action(self, p: "Peer"):
        """A legal action of another seat, now (None: no other seat may act)."""
        seats = [s for s in range(len(p.header.roster)) if s != self.seat]
        self.rng.shuffle(seats)
        for s in seats:
            acts = legal_actions(p.state, s, p.cards)
            if acts:
                return s, acts[self.rng.randrange(len(acts))]
        return None

    def _entry(self, p: "Peer", author: int, pid, action, asig, *, resign: bool = True, ssig=None) -> bytes:
        try:
            h = port.hash(port.apply(p.state, action, p.cards)[0])
        except IllegalAction:
            h = port.hash(p.state)
        x = encode_action(action)
        if resign:
            return gamelog.signed_entry(p.signer, p.game, p.seq + 1, author, pid, x, h, p.log.last_id, p.epoch, asig)
        return gamelog.encode_entry(p.seq + 1, author, pid, x, h, p.log.last_id, p.epoch, asig, ssig)

    def _forge_seat(self, p: "Peer") -> bool:
        other = self._other_action(p)
        if other is None:
            return False
        seat, action = other
        pid = (self.rng.randbytes(8), 1)
        asig = p.signer.sign_action(p.game, seat, pid, encode_action(action))  # our key, not seat's
        self._send_entries(p, "forge-seat", [self._entry(p, seat, pid, action, asig)])
        return True

    def _forge_table(self, p: "Peer") -> bool:
        other = self._other_action(p)
        if other is None:
            return False
        self._send_entries(p, "forge-table", [self._entry(p, TABLE_AUTHOR, None, other[1], None)])
        return True

    def _alter(self, p: "Peer") -> bool:
        """The last entry, another action, the signatures copied; hash, chain and CRC recomputed."""
        if p.seq < 1 or p.seq - 1 not in p.replica.ring:
            return False
        last = p.log.entries[-1]
        before = p.replica.ring[p.seq - 1]
        acts = [a for s in range(len(p.header.roster)) for a in legal_actions(before, s, p.cards)
                if encode_action(a) != last.action]
        if not acts:
            return False
        action = acts[self.rng.randrange(len(acts))]
        try:
            h = port.hash(port.apply(before, action, p.cards)[0])
        except IllegalAction:
            h = last.hash
        raw = gamelog.encode_entry(last.n, last.author, last.pid, encode_action(action), h, last.prev, last.epoch,
                                   last.asig, last.ssig)
        e = gamelog.decode_entry(raw)
        try:  # judged against the log before the entry it replaces
            p.replica.would_take(last.n - 1, e)
            self.counts[("alter", "valid")] += 1
        except replica.BadEntry as err:
            self.counts[("alter", "by " + refusing_check(str(err)))] += 1
            self.sim.forged[e.id] = f"alter: {err}"
        msg = wire.pack({"t": "entries", "recs": [raw]})
        if p.leader:
            for rid in self._followers(p):
                p.rt.send(p.router, [rid, msg])
        else:
            p.rt.send(p.dealer, [msg])
        return True

    def _replay_entry(self, p: "Peer") -> bool:
        olds = [e for e in p.log.entries if e.pid is not None]
        if not olds:
            return False
        old = olds[self.rng.randrange(len(olds))]
        self._send_entries(p, "replay-entry", [self._entry(p, old.author, old.pid, decode_action(old.action), old.asig)])
        return True

    def _replay_proposal(self, p: "Peer") -> bool:
        mine = [e for e in p.log.entries if e.author == self.seat and e.pid is not None and e.asig is not None]
        if not mine or p.leader or not p.follower.welcomed:
            return False
        old = mine[self.rng.randrange(len(mine))]
        self.sim.replayed.add((old.author, old.pid))
        # Sent from this process: the sequencer takes the incarnation from the member, so an old
        # incarnation's proposal comes in under ours, its signature then not matching.
        p.rt.send(p.dealer, [wire.pack({"t": "propose", "pid": old.pid[1], "x": old.action, "sig": old.asig})])
        return True

    def _own_reign(self, p: "Peer") -> bool:
        """A made-up reign of our seat, its entries our own moves, announced in a hello; the
        fetch_req it brings is answered with them (:meth:`answer_fetch`)."""
        if p.leader or not p.follower.welcomed or self.seat not in port.actors(p.state):
            return False
        epoch = election.next_epoch(max(p.promise(), p.log.last_epoch), self.seat)
        if not wire.PROMISE(epoch):
            return False
        state, prev, inc = p.state, p.log.last_id, self.rng.randbytes(8)
        raws: list[bytes] = []
        while len(raws) < 3 and self.seat in port.actors(state):
            acts = legal_actions(state, self.seat, p.cards)
            if not acts:
                break
            action = acts[self.rng.randrange(len(acts))]
            state = port.apply(state, action, p.cards)[0]
            x, pid = encode_action(action), (inc, len(raws) + 1)
            raws.append(gamelog.signed_entry(
                p.signer, p.game, p.seq + 1 + len(raws), self.seat, pid, x, port.hash(state), prev, epoch,
                p.signer.sign_action(p.game, self.seat, pid, x),
                None if raws else [(self.seat, p.signer.sign_promise(p.game, epoch))]))
            prev = gamelog.record_id(raws[-1])
        if not raws:
            return False
        # Refused by its certificate, but where our seat's promise alone is a quorum (seat 0 of a
        # 2-player game, the tie rule of net.membership.quorum): then it is a reign the rules allow.
        if self._judge(p, "own-reign", raws[0]):
            for raw in raws[1:]:  # after a refused first entry, none of them may be held either
                self.sim.forged.setdefault(gamelog.record_id(raw), "own-reign: after a refused first entry")
        self._reign = raws
        made = [gamelog.decode_entry(raw) for raw in raws]
        tail = [[n, p.log.id_at(n)] for n in range(max(1, p.seq - 15), p.seq + 1)] + [[e.n, e.id] for e in made]
        p.rt.send(p.dealer, [wire.pack({
            "t": "hello", "v": wire.PROTOCOL, "id": p.pub, "name": p.cfg.name[:wire.MAX_NAME], "role": p.cfg.role,
            "inc": p.inc, "port": p.port, "last": made[-1].n, "tail": tail, "game": p.game, "epoch": epoch,
            "psig": p.signer.sign_promise(p.game, epoch), "lep": epoch, "sign": p.signer.public,
            "proof": p.inc_secret})])
        return True

    def answer_fetch(self, p: "Peer", msg: dict) -> dict:
        """A follower's answer to a sequencer's fetch_req, its tail forged: the made-up reign we
        announced (own-reign), or (longer-log) every entry from the first one asked for altered
        and re-chained."""
        recs = msg.get("recs")
        reign, self._reign = self._reign, []
        if reign and gamelog.decode_entry(reign[0]).n == p.seq + 1:  # it still follows our log
            self.counts[("own-reign", "offered")] += 1
            return {"t": "entries", "recs": list(recs or []) + reign}
        if not recs or self.rng.random() < 0.5:
            return msg
        self.counts[("longer-log", "tried")] += 1
        first = gamelog.decode_entry(recs[0])
        n = first.n - 1
        prev = p.log.id_at(n)
        state = p.replica.ring.get(n)
        if state is None:
            self.counts[("longer-log", "no chance")] += 1
            return msg
        out = []
        for raw in recs + [None] * self.rng.randint(1, 3):  # and a few more than it holds
            acts = [a for s in range(len(p.header.roster)) for a in legal_actions(state, s, p.cards)]
            if not acts:
                break
            action = acts[self.rng.randrange(len(acts))]
            state = port.apply(state, action, p.cards)[0]
            n += 1
            src = gamelog.decode_entry(raw) if raw is not None else first
            rec = gamelog.encode_entry(n, action.seat, src.pid, encode_action(action), port.hash(state), prev,
                                       src.epoch, src.asig, src.ssig)
            prev = gamelog.record_id(rec)
            out.append(rec)
        e = gamelog.decode_entry(out[0])
        try:
            p.replica.would_take(e.n - 1, e)
            self.counts[("longer-log", "valid")] += 1
        except replica.BadEntry as err:
            self.counts[("longer-log", "by " + refusing_check(str(err)))] += 1
        ours = {k.id for k in p.log.entries}
        for rec in out:
            if gamelog.record_id(rec) not in ours:  # (an action drawn as it was is the real entry)
                self.sim.forged.setdefault(gamelog.record_id(rec), "longer-log")
        return {"t": "entries", "recs": out}
