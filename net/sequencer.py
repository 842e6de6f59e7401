"""The sequencer: the role of the peer that numbers the game's entries (DESIGN "Networking
contract"; docs/net.md, "Topology and roles", "Epochs", "Quorum", "Hashes and desyncs").

It runs the lobby (who takes which seat, the table options; the seats themselves are the peer's)
and the seed commit-reveal, validates proposals with the engine (through net.port), numbers them,
sends them and has them synced, plays the table's moves (bots, away seats, the window timer), watches its members'
heartbeats and the quorum, reconciles the logs of a new reign and adopts the most up-to-date one,
compares every member's state hash with its own and, when one differs, runs the desync search
(net.desync.Search: it walks to the first difference; the sequencer sends its questions).

Invariants:
- One ``Sequencer`` per peer, kept across reigns; it handles what reaches the peer's ROUTER only
  while it is the peer's ``role`` (net.peer.Peer: becoming sequencer swaps it in, stepping down
  out).  It owns only the sequencer's fields; the game (replica), the seats, the epoch and the
  peer's identity are the peer's.
- It sequences only while ``live``: a quorum promised its epoch and holds nothing more up to date.
- An entry's author is the seat bound to the connection that proposed it, or TABLE_AUTHOR for
  the table's own moves (net.replica.may_author checks either).
- It numbers a seat's proposal only if that seat signed it (its key in the header) under an id
  new to the log, and signs every entry it numbers (net.signing; net.replica.check_signatures is
  what every peer checks).
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from mq.rules import Action, IllegalAction
from mq.rules import codec as state_codec
from mq.rules.actions import decode as decode_action
from mq.rules.actions import encode as encode_action
from mq.rules.state import COLOURS
from mq.table import Applied, Notice
from net import (
    catchup,
    desync,
    election,
    gamelog,
    incarnation,
    membership,
    options,
    port,
    replica,
    seeding,
    signing,
    transport,
    wire,
)
from net.membership import Member
from net.replica import RING
from net.seats import SeatInfo
from net.wire import PROTOCOL, TABLE_AUTHOR

if TYPE_CHECKING:
    from net.peer import Peer

log = logging.getLogger("mq.net")

# The sequencer waits this long after the game's last entry for every peer to report it, then sends
# ``end``; a peer that has applied the last entry but hears no ``end`` (it was cut off while the
# sequencer ended the game and exited) ends by itself ENDING_S + dead_s after that entry.
ENDING_S = 3.0


class Sequencer:
    """The sequencer's part of peer ``p`` (see the module's invariants)."""

    def __init__(self, p: "Peer") -> None:
        self.p = p
        self.membership = membership.Membership()  # members, seat_rid, away_since (above)
        self.last_pid: dict[int, tuple[bytes, int]] = {}
        self._drive_scheduled = False
        self.live = False
        self._pending_props: list[tuple[bytes, dict, float]] = []
        self._reconcile_until = 0.0
        self._no_quorum_since: float | None = None
        self._fetch_until = 0.0  # how long to wait for the more up-to-date logs asked for (reconciling)
        self._last_fetch_req = 0.0
        self.expect: set[int] = set()
        self.fetching: set[bytes] = set()
        self._seeding: seeding.Exchange | None = None
        self.steward = port.Steward()  # the window timer (the table's passes, Q-OPT-1)
        self._ending_until: float | None = None
        self.search = desync.Search(RING)  # hash reports and the desync search (net.desync)
        self._last_tick = 0.0
        self._bot_failures = 0
        self.cert: gamelog.Cert | None = None  # the certificate the reign's first entry carries (go_live)

    # -- what reaches the ROUTER ----------------------------------------------------------------
    def on_router(self, rid: bytes, msg: dict, frame, user: str | None) -> None:
        """A message on the peer's ROUTER, decoded; ``frame`` carries the connection's properties,
        ``user`` its CURVE public key as the handshake proved it (None: none)."""
        t = msg["t"]
        if not user:
            return self.p.drops.drop("message", "no CURVE identity", transport.peer_address(frame))
        now = self.p.rt.now()
        if t == "hello":
            return self.on_hello(rid, msg, transport.peer_address(frame), user)
        m = self.membership.members.get(rid)
        if m is None:
            if t != "bye":
                self.p.send_to(rid, {"t": "who"})
            return
        if m.pub != user:  # a routing id is not an identity
            return self.p.drops.drop(t, "sent on another key's routing id", m.name)
        m.last_seen = now
        handler = _FROM_MEMBERS.get(t)
        if handler is None:
            return self.p.drops.drop(t, "not for the sequencer", m.name)
        handler(self, rid, m, msg)

    def _on_propose(self, rid: bytes, m: Member, msg: dict) -> None:
        self.on_propose(rid, msg, self.p.rt.perf())

    def _on_ping(self, rid: bytes, m: Member, msg: dict) -> None:
        m.acked = max(m.acked, min(msg["seq"], self.p.seq))
        if msg["epoch"] <= m.promised:
            return
        key = self.p.seats[m.seat].sign if m.seat is not None and m.seat < len(self.p.seats) else b""
        if not self._signed_promise(m.seat, key, msg["epoch"], msg["psig"]):
            return self.p.drops.drop("ping", "a promise its seat did not sign", m.name)
        if not self._followable(msg["epoch"]):
            return self.p.drops.drop("ping", f"a promise of epoch {msg['epoch']}, too far ahead", m.name)
        m.promised, m.psig = msg["epoch"], msg["psig"]
        if msg["epoch"] > self.p.epoch and self.p.header is not None:
            self.raise_epoch(msg["epoch"])

    def _signed_promise(self, seat: int | None, key: bytes, epoch: int, psig: bytes | None) -> bool:
        """Whether a player's promise of ``epoch`` is signed by its seat's key ``key`` (net.signing):
        only a signed one counts towards a reign, since the reign's first entry carries them as its
        certificate (docs/net.md, "Promise certificates").  A spectator's promise is not counted
        for a quorum, so it needs no signature; no promise (0) neither."""
        if seat is None or epoch == 0:
            return True
        if psig is None:
            return False
        try:
            signing.verify_promise(key, self.p.game, epoch, seat, psig)
        except signing.Refused:
            return False
        return True

    def _followable(self, promise: int) -> bool:
        """Whether we may take a member's promise (net.election.within_reach: the epoch we would
        raise to for it is not too far above our log's last entry).  One beyond it is one
        player's word that would spend the epochs; taken as no promise, it counts once our log
        has caught up (with a more up-to-date log that member holds: at its next ping)."""
        return self.p.log is None or election.within_reach(election.next_epoch(promise, self.p.me),
                                                           self.p.log.last_epoch)

    def _on_fetch(self, rid: bytes, m: Member, msg: dict) -> None:
        self._serve_fetch(rid, msg["from"])

    def _on_say(self, rid: bytes, m: Member, msg: dict) -> None:
        if m.seat is not None:
            self.chat(m.seat, msg["text"])

    def _on_gender(self, rid: bytes, m: Member, msg: dict) -> None:
        if m.seat is not None and self.p.phase == "lobby":
            self.p.opts = options.with_gender(self.p.opts, m.seat, msg["gender"])
            self.broadcast_lobby()

    def _on_bye(self, rid: bytes, m: Member, msg: dict) -> None:
        self._member_gone(rid, "left")

    # -- reigns ----------------------------------------------------------------------------------
    def begin(self, expect: set[int], settle: float) -> None:
        """A new reign (the peer took a new epoch): reconcile with the seats ``expect``ed, waiting
        for them up to ``settle`` seconds; every other player is away until it says hello."""
        now = self.p.rt.now()
        self.live = False
        self.expect = set(expect)
        self._reconcile_until = now + settle
        self.membership.clear()
        self.fetching.clear()
        for s, info in enumerate(self.p.seats):
            if info.kind == "peer" and s != self.p.seat:
                info.away = True
                self.membership.away_since.setdefault(s, now)
        self.rebuild_dedupe()

    def stand_down(self) -> None:
        """The reign ends (no quorum for too long): no connections, nothing pending."""
        self.live = False
        self._no_quorum_since = None
        self.membership.clear()
        self.fetching.clear()
        self._pending_props.clear()

    def rebuild_dedupe(self) -> None:
        """The highest proposal id handled per seat, as the log holds them."""
        self.last_pid = {}
        for e in self.p.log.entries:
            if e.pid is not None:
                self.last_pid[e.author] = e.pid

    def raise_epoch(self, seen: int) -> None:
        """A peer promised a reign later than ours (a sequencer we never heard of went on): take an
        epoch above it, reconcile again (its log may be more up to date than ours) and have every
        member promise the new epoch before sequencing more."""
        self.p.epoch = election.next_epoch(seen, self.p.me)
        self.p.log.raise_promise(self.p.epoch)
        log.warning("a peer promised epoch %d: sequencing again as epoch %d", seen, self.p.epoch)
        if self.live:
            self.live = False
            self.expect.clear()
            self._reconcile_until = self.p.rt.now()
        for rid, m in self.membership.members.items():
            m.promised = 0
            self.p.send_to(rid, self.welcome(m.seat, -1))

    def welcome(self, seat: int | None, rewind: int) -> dict:
        return {"t": "welcome", "v": PROTOCOL, "seat": seat, "game": self.p.game, "leader": self.p.seat,
                "rewind": rewind, "opts": self.p.opts, "epoch": self.p.epoch}

    def go_live(self, cert: gamelog.Cert) -> None:
        """Sequence, with ``cert`` (a quorum's signed promises of our epoch) for the first entry of
        the reign (net.replica.check_certificate)."""
        self.live = True
        self.expect.clear()
        self.cert = None if self.p.epoch == election.FIRST_EPOCH else cert
        # Issue 13 item 6: a window open in the logged state is timed from now (the sequencer that
        # timed it may be gone), or it would wait for its seats for ever.
        self.steward.rearm(self.p.state, self.p.rt.now())
        # A peer whose log we did not (fully) adopt — its answer was lost or did not check, or we
        # took a more up-to-date one since — holds entries past what it shares with ours, which
        # we are about to number differently.  Never acknowledged (a quorum that promised our
        # epoch holds nothing more up to date than ours): rewind it.
        for rid, m in self.membership.members.items():
            if m.last > m.common:
                m.last = m.common
                self.p.send_to(rid, self.welcome(m.seat, m.common))
        self.fetching.clear()
        self.p.notice("info", self.p.seat, f"{self.p.who(self.p.seat)} hosts the game from entry {self.p.seq}")
        self.broadcast_lobby()
        self.broadcast({"t": "tick", "head": self.p.seq})
        # Own proposals the old sequencer never answered go through us now (the dedupe table,
        # rebuilt from the log, refuses any that it did sequence).
        for pid, (action, _) in sorted(self.p.outstanding.items()):
            del self.p.outstanding[pid]
            reason = self.sequence(self.p.me, (self.p.inc, pid), action, self.p.sign_action(pid, action))
            if reason is not None:
                self.p.rejected(pid, *reason)
        pending, self._pending_props = self._pending_props, []
        for rid, msg, t0 in pending:
            if rid in self.membership.members:  # (not a connection replaced meanwhile)
                self.on_propose(rid, msg, t0)
        self.check_over()
        self.schedule_drive()

    def start_seeding(self, params) -> None:
        """Leave the lobby for the seed commit-reveal among the peer seats (net.seeding)."""
        p = self.p
        roster = [[i.name, i.pub, i.kind] for i in p.seats]
        peer_seats = [s for s, i in enumerate(p.seats) if i.kind == "peer"]
        signers = [i.sign if i.kind == "peer" else b"" for i in p.seats]
        self._seeding = seeding.Exchange.open(params, roster, peer_seats, p.rt.now() + 10.0, p.me, p.new_nonce(),
                                              signers)
        p.phase = "seeding"
        msg = {"t": "commit_req", "params": state_codec.encode(params), "roster": roster}
        for s in peer_seats:
            if s != p.seat:
                self.to_seat(s, msg)
        self.broadcast_lobby()
        self._seed_progress()

    def _seed_progress(self) -> None:
        ex = self._seeding
        if ex is None:
            return
        hs = ex.to_reveal()
        if hs is not None:
            for s in ex.seats:
                if s != self.p.seat:
                    self.to_seat(s, {"t": "commits", "hs": hs})
        raw = ex.header(self.p.game)
        if raw is not None:
            self._seeding = None
            self.p.start_from_header(gamelog.decode_header(raw))
            self.broadcast({"t": "header", "rec": raw})
            self.schedule_drive()

    def _on_commit(self, rid: bytes, m: Member, msg: dict) -> None:
        why = "not expected now" if self._seeding is None or m.seat is None else self._seeding.commit(m.seat, msg["h"])
        if why is not None:
            return self.p.drops.drop("commit", why, m.name)
        self._seed_progress()

    def _on_reveal(self, rid: bytes, m: Member, msg: dict) -> None:
        why = ("not expected now" if self._seeding is None or m.seat is None
               else self._seeding.reveal(m.seat, msg["nonce"]))
        if why is not None:
            return self.p.drops.drop("reveal", why, m.name)
        self._seed_progress()

    def on_hello(self, rid: bytes, msg: dict, addr: str, pub: str) -> None:
        """``pub`` is the connection's CURVE public key (ZAP User-Id): the only identity that counts."""
        if not self._admits(rid, msg, addr, pub):
            return
        seat, refusal = self._seat_for(msg, pub)
        if refusal is not None:
            return self.p.send_to(rid, refusal)
        if not self._replaces_old(rid, msg, pub):
            return
        promised, psig = msg["epoch"], msg["psig"]
        if not self._signed_promise(seat, msg["sign"], promised, psig):
            self.p.drops.drop("hello", "a promise its seat did not sign", addr)
            promised, psig = 0, None
        elif not self._followable(promised):
            self.p.drops.drop("hello", f"a promise of epoch {promised}, too far ahead", addr)
            promised, psig = 0, None
        if self.p.header is not None and promised > self.p.epoch:
            self.raise_epoch(promised)  # before this peer's welcome, which names our epoch
        name = msg["name"][:wire.MAX_NAME] or "player"
        mem = Member(rid, pub, name, seat, msg["inc"], addr, msg["port"], self.p.rt.now(), msg["last"],
                     lep=msg["lep"], promised=promised, psig=psig)
        self.membership.members[rid] = mem
        if seat is not None:
            self._seat_member(seat, rid, name, pub, addr, msg)
        rewind = self._compare_logs(mem, msg) if self.p.header is not None and msg["last"] > 0 else -1
        self._answer_hello(rid, seat, rewind)
        log.info("%s joined as %s", name, "spectator" if seat is None else f"seat {seat}")
        self.broadcast_lobby()
        if self.p.phase == "lobby":
            self.p.notice("info", seat, f"{name} joined" + ("" if seat is None else f" as {COLOURS[seat].capitalize()}"))

    def _admits(self, rid: bytes, msg: dict, addr: str, pub: str) -> bool:
        """Whether this hello may go on: our protocol and game, a key we know or one the join code
        admits (net.admission); otherwise it is refused (or, broken, dropped) here."""
        if msg["v"] != PROTOCOL:
            self.p.send_to(rid, {"t": "refuse", "reason": "protocol",
                             "text": wire.other_version(PROTOCOL, msg["v"])})
            return False
        if msg["role"] not in ("play", "watch"):
            self.p.drops.drop("hello", "bad role", addr)
            return False
        if msg["id"] != pub:  # the field is informative only; a mismatch is a broken or lying peer
            self.p.drops.drop("hello", "id is not the connection's key", addr)
            return False
        if not incarnation.proves(msg["proof"], msg["inc"]):  # a copy naming another process's inc
            self.p.send_to(rid, {"t": "refuse", "reason": "incarnation",
                                 "text": "your hello does not prove its incarnation (inc): a modified client?"})
            return False
        known = self.p.admission.admitted(pub) or any(i.kind == "peer" and i.pub == pub for i in self.p.seats)
        if not known:
            refusal = self.p.admission.admit(rid, msg.get("code"), addr, pub, self.p.rt.now())
            if refusal is not None:
                self.p.send_to(rid, {"t": "refuse", "reason": refusal[0], "text": refusal[1]})
                return False
        if msg["game"] is not None and msg["game"] != self.p.game:
            self.p.send_to(rid, {"t": "refuse", "reason": "other-game", "text": "your log is of another game"})
            return False
        return True

    def _seat_for(self, msg: dict, pub: str) -> tuple[int | None, dict | None]:
        """The seat a player's key holds, or an open one in the lobby (None: a spectator), or the
        ``refuse`` to send."""
        if msg["role"] != "play":
            return None, None
        seat = next((s for s, i in enumerate(self.p.seats) if i.kind == "peer" and i.pub == pub), None)
        if seat == self.p.seat:
            return None, {"t": "refuse", "reason": "same-identity",
                          "text": "that identity is the host's own (set MQ_HOME per player)"}
        h = self.p.header
        if seat is not None and h is not None and h.signed and h.signers[seat] != msg["sign"]:
            return None, {"t": "refuse", "reason": "signing-key",
                          "text": "your signing key is not the one your seat signs this game with"}
        if seat is None:
            if self.p.phase != "lobby":
                return None, {"t": "refuse", "reason": "started",
                              "text": "the game has started: join with --watch to follow it"}
            seat = next((s for s, i in enumerate(self.p.seats) if i.kind == "open"), None)
            if seat is None:
                return None, {"t": "refuse", "reason": "full", "text": "every seat is taken"}
        return seat, None

    def _replaces_old(self, rid: bytes, msg: dict, pub: str) -> bool:
        """A restarted peer replaces its old connection once that is gone (issue 13, "one seat,
        one live process").  While another process with the same identity (a copied key, a second
        terminal) is connected, a player's seat stays with the process whose incarnation came first
        in the seat's proposals (net.incarnation: from the log, so every sequencer decides alike):
        a player that stalled gets its seat back from a copy that took it meanwhile, which is
        refused in words.  A later one's hello is refused in words if the process that holds the
        seat was heard from lately, or told to retry while it is silent (stalled, or its machine
        gone: libzmq's heartbeat ends such a connection within HEARTBEAT_TIMEOUT, and the seat is
        the newcomer's then, as a restart's).  A spectator's connection is replaced once it is
        silent."""
        now = self.p.rt.now()
        for old_rid, old in list(self.membership.members.items()):
            if old.pub == pub and old_rid != rid:
                if old.inc != msg["inc"] and self._connected(old_rid):
                    heard = now - old.last_seen < 2 * self.p.cfg.ping_s
                    if old.seat is not None and msg["role"] == "play":
                        if not incarnation.earlier(self.p.replica.proposals.incarnations(old.seat), msg["inc"], old.inc):
                            self._keep_seat(rid, old_rid, old.seat, heard)
                            return False
                        self._take_seat_back(rid, old_rid, old.seat)
                    elif heard:  # a spectator's connection, heard lately: ask again later
                        self.p.send_to(rid, {"t": "retry", "leader": self.p.seat, "addr": None})
                        return False
                del self.membership.members[old_rid]
                self.fetching.discard(old_rid)
        return True

    def _keep_seat(self, rid: bytes, old_rid: bytes, seat: int, heard: bool) -> None:
        """The process on ``old_rid`` keeps ``seat``: the hello on ``rid`` is refused (told to retry
        while the keeper is silent), and the keeper hears of it, in words."""
        log.info("a hello with the same identity as seat %d, which is %s", seat,
                 "connected: refused" if heard else "silent: told to wait")
        if not heard:
            return self.p.send_to(rid, {"t": "retry", "leader": self.p.seat, "addr": None})
        self.p.send_to(rid, {"t": "refuse", "reason": "same-identity", "text": (
            f"another process with this identity plays {self.p.who(seat)} and is still connected: one seat, "
            "one live process (a copied key, or a second terminal on one MQ_HOME?)")})
        self.p.send_to(old_rid, {"t": "notice", "kind": "info", "seat": seat, "text": (
            f"another process with this identity asked for {self.p.who(seat)} and was refused: this one "
            "keeps the seat (one seat, one live process; if the other is yours, it lost the seat while it "
            "was silent)")})

    def _take_seat_back(self, rid: bytes, old_rid: bytes, seat: int) -> None:
        """The hello on ``rid`` proved the seat's earlier incarnation: the process on ``old_rid``
        (which took the seat while this one was silent) is refused, in words, and the seat is
        ``rid``'s again."""
        log.info("a hello with the same identity as seat %d proved that it played it first: the seat is its "
                 "again, the other process is refused", seat)
        self.p.send_to(old_rid, {"t": "refuse", "reason": "same-identity", "text": (
            f"another process with this identity played {self.p.who(seat)} first and has the seat back: "
            "one seat, one live process (a copied key?)")})
        self.p.send_to(rid, {"t": "notice", "kind": "info", "seat": seat, "text": (
            f"{self.p.who(seat)} is this process's again: another process with this identity held it while "
            "this one was silent, and was refused (one seat, one live process)")})

    def _connected(self, rid: bytes) -> bool:
        """Whether the connection on routing id ``rid`` is still up: a send to it is taken
        (ROUTER_MANDATORY refuses an unknown one).  What is sent is a ``tick``, news to nobody."""
        return self.p.rt.send(self.p.router, [rid, wire.pack({"t": "tick", "head": self.p.seq})])

    def _seat_member(self, seat: int, rid: bytes, name: str, pub: str, addr: str, msg: dict) -> None:
        """Bind ``seat`` to this connection (its key, where it listens); it is no longer away."""
        info = self.p.seats[seat]
        was_away = info.away
        self.p.seats[seat] = SeatInfo(name if self.p.phase == "lobby" else info.name, "peer", pub, addr,
                                      msg["port"], sign=msg["sign"])
        self.membership.seat_rid[seat] = rid
        self.membership.away_since.pop(seat, None)
        self.expect.discard(seat)
        if was_away:
            self.p.notice("back", seat, f"{self.p.who(seat)} is back")
        if self.p.phase == "lobby":
            self.p.opts = options.with_gender(self.p.opts, seat, msg.get("gender", "rolled"))

    def _compare_logs(self, mem: Member, msg: dict) -> int:
        """Where a member's log (its hello's tail and epochs) stands to ours: the entry it must
        rewind to (-1: none), or, its log more up to date, ask for its entries (reconciling)."""
        rid = mem.rid
        common = self._common_point(msg["tail"])
        mem.last, mem.common = msg["last"], common
        if self.live or (msg["lep"], msg["last"]) <= (self.p.log.last_epoch, self.p.seq):
            # Ours is at least as up to date (so it holds whatever of theirs was acknowledged),
            # or we sequence (a quorum that promised our epoch had nothing more up to date, so
            # their extra entries never were): keep what they share with ours.
            if common != msg["last"]:
                mem.last = common
                return common
            return -1
        # Their log is more up to date: adopt it (checked one by one in _on_entries, which also
        # finds where the logs part and drops our own tail from there).
        self.fetching.add(rid)
        self._fetch_until = max(self._fetch_until, self.p.rt.now() + 2 * self.p.cfg.dead_s)
        self.p.send_to(rid, {"t": "fetch_req", "from": common + 1})
        return -1

    def _answer_hello(self, rid: bytes, seat: int | None, rewind: int) -> None:
        """The welcome, the header, the end if the game is over, and the chat so far."""
        self.p.send_to(rid, self.welcome(seat, rewind))
        if self.p.header is not None:
            self.p.send_to(rid, {"t": "header", "rec": self.p.header.raw})
        if self.p.phase == "ended":
            self.p.send_to(rid, {"t": "end", "seq": self.p.seq, "h": port.hash(self.p.state)})
        if self.p.header is not None:  # the chat so far, for a player who comes back (or joins to watch)
            for s, text in self.p.chat_kept:
                self.p.send_to(rid, {"t": "notice", "kind": "chat", "seat": s, "text": text, "past": True})

    def _common_point(self, tail: list) -> int:
        """The last entry that the peer's log (as sampled by its ``tail``) shares with ours."""
        common = 0
        for item in tail:
            if type(item) is list and len(item) == 2 and wire.SEQ(item[0]) and wire.ID16(item[1]):
                s, i = item
                if common < s <= self.p.seq and self.p.log.id_at(s) == i:
                    common = s
        return common

    def _member_gone(self, rid: bytes, why: str) -> None:
        m = self.membership.members.pop(rid, None)
        if m is None:
            return
        self.fetching.discard(rid)
        if self.p.phase in ("ended", "desync", "closed"):
            if m.seat is not None:
                self.membership.seat_rid.pop(m.seat, None)
            return
        if m.seat is not None and self.membership.seat_rid.get(m.seat) == rid:
            del self.membership.seat_rid[m.seat]
            if self.p.phase == "lobby":
                self.p.seats[m.seat] = SeatInfo()
                self.p.opts = options.with_gender(self.p.opts, m.seat, "rolled")
                self.p.notice("info", m.seat, f"{m.name} left the lobby")
            else:
                self.p.seats[m.seat].away = True
                self.membership.away_since[m.seat] = self.p.rt.now()
                self.p.notice("away", m.seat, f"{self.p.who(m.seat)} is away ({why})")
            self.broadcast_lobby()
        if self.search.walk is not None and self.search.walk.rid == rid:
            self._finish_walk("the peer went away during the search")

    def broadcast_lobby(self) -> None:
        if not self.p.leader:
            return
        msg = {"t": "lobby", "seats": [s.wire() for s in self.p.seats], "opts": self.p.opts,
               "leader": self.p.seat, "phase": self.p.phase}
        self.broadcast(msg)
        self.p.note_addresses()
        self.p.emit(("lobby", [SeatInfo(**vars(s)) for s in self.p.seats], dict(self.p.opts)))

    def on_propose(self, rid: bytes, msg: dict, t0: float) -> None:
        m = self.membership.members[rid]
        pid = msg["pid"]
        if not self.live and self.p.phase == "game" and self.search.seq is None:
            self._pending_props.append((rid, msg, t0))  # a new sequencer reconciling: soon
            return
        if m.seat is None:
            return self.p.send_to(rid, {"t": "reject", "pid": pid, "reason": "net/watcher",
                                   "detail": "spectators do not act"})
        try:
            action = decode_action(msg["x"])
        except IllegalAction as e:
            return self.p.send_to(rid, {"t": "reject", "pid": pid, "reason": e.reason, "detail": e.detail})
        reason = self.sequence(m.seat, (m.inc, pid), action, msg["sig"])
        if reason is not None:
            self.p.count("rejected")
            self.p.send_to(rid, {"t": "reject", "pid": pid, "reason": reason[0], "detail": reason[1][:wire.MAX_TEXT]})
        else:
            self.p.commit_ms.append((self.p.rt.perf() - t0) * 1000)

    def sequence(self, author: int, pid: tuple[bytes, int] | None, action: Action,
                 sig: bytes | None = None) -> tuple[str, str] | None:
        """Validate, number, sign, log and queue one entry; returns (reason, detail) if refused.
        ``sig``: the author's signature of a seat's proposal (None for the table's moves)."""
        if self.p.phase != "game" or not self.live:
            if self.p.phase == "ended" or (self.p.state is not None and port.is_over(self.p.state)):
                return "game/over", "the game is over"
            if self.p.phase == "desync" or self.search.seq is not None:
                return "net/paused", "the game stopped on a desync"
            return "net/not-started", "the game is not running yet"
        why = replica.may_author(self.p.header, author, action, self.p.state, self.p.cards)
        if why is not None:
            return "net/not-your-seat", why
        if pid is not None:
            last = self.last_pid.get(author)
            if last is not None and last[0] == pid[0] and pid[1] <= last[1]:
                return "net/duplicate", f"proposal {pid[1]} was already handled"
            self.last_pid[author] = pid
        why = self._unsigned(author, pid, action, sig)
        if why is not None:
            return "net/unsigned", why
        try:
            state, events = port.apply(self.p.state, action, self.p.cards)
        except IllegalAction as e:
            return e.reason, e.detail
        except Exception as e:  # an engine bug: refuse this action, keep the game as it is
            log.exception("the engine failed on %s", action)
            return "engine/error", f"{type(e).__name__}: {e}"
        starts = self.p.log.last_epoch < self.p.epoch  # the reign's first entry: it carries the certificate
        raw = gamelog.signed_entry(self.p.signer, self.p.game, self.p.seq + 1, author, pid, encode_action(action),
                                   port.hash(state), self.p.log.last_id, self.p.epoch, sig,
                                   self.cert if starts else None)
        entry = gamelog.decode_entry(raw)
        applied = Applied(entry.n, action, tuple(events), state)
        self.p.replica.keep(entry, applied)
        self.p.count("sequenced")
        # Sent at once, before anyone here hears of it and before it is durable here: the followers
        # receive, apply and sync it while our own fdatasync runs (Raft thesis 10.2.1; one sync for
        # everything sequenced in this loop iteration).  An entry is acknowledged once a quorum
        # holds it in its epoch, with or without the sequencer (docs/net.md, "Epochs"), so a
        # sequencer that crashes before its sync returns loses nothing acknowledged.
        self.broadcast({"t": "entries", "recs": [raw]})
        self.p.schedule_sync()
        self.p.committed(entry, applied)
        self._after_change()
        return None

    def _unsigned(self, author: int, pid: tuple[bytes, int] | None, action: Action, sig: bytes | None) -> str | None:
        """Why a proposal fails the signature checks every peer will make of its entry (None: it
        passes): a seat's own signature under a proposal id new to the log (net.signing)."""
        if author == TABLE_AUTHOR:
            return None
        h = self.p.header
        if pid is None or sig is None:
            return "a player's action needs its signature"
        try:
            signing.verify_action(h.signers[author], h.game, author, pid, encode_action(action), sig)
        except signing.Refused as err:
            return str(err)
        return self.p.replica.proposals.refuses(author, pid)

    def _after_change(self) -> None:
        self.steward.saw(self.p.state, self.p.rt.now())  # Q-DIGI-2, Q-OPT-1: every reaction window is timed
        self.check_over()
        self.schedule_drive()

    def check_over(self) -> None:
        if self.p.leader and port.is_over(self.p.state) and self._ending_until is None and self.p.phase == "game":
            self._ending_until = self.p.rt.now() + ENDING_S

    def _driven_by_me(self, seat: int) -> bool:
        info = self.p.seats[seat]
        return info.kind == "bot" or (info.kind == "peer" and info.botted and seat != self.p.seat)

    def schedule_drive(self) -> None:
        if self.p.leader and not self._drive_scheduled:
            self._drive_scheduled = True
            self.p.rt.call_soon(self._drive)

    def _drive(self) -> None:
        """One move for a seat the leader plays (bot seats, botted away seats); then again."""
        self._drive_scheduled = False
        if not self.p.leader or not self.live or self.p.phase != "game" or port.is_over(self.p.state):
            return
        for seat in port.actors(self.p.state):
            if self._driven_by_me(seat):
                try:
                    action = port.bot_move(self.p.state, seat, self.p.cards)
                    reason = self.sequence(TABLE_AUTHOR, None, action)
                except Exception as e:  # a bot bug must not kill the sequencer
                    log.exception("the bot for seat %d failed", seat)
                    action, reason = None, ("engine/error", str(e))
                if reason is not None:
                    self._bot_failures += 1
                    log.error("bot for seat %d: %s was refused: %s", seat, action, reason)
                    if self._bot_failures > 20:
                        self.p.error = f"the bot for seat {seat} keeps failing"
                        return
                    self.p.rt.call_later(0.1, self.schedule_drive)
                return  # _sequence scheduled the next drive

    def _on_report(self, rid: bytes, m: Member, msg: dict) -> None:
        for item in msg["hs"]:  # (the schema checked each item: [seq, state hash, entry id])
            n, h, i = item
            if not 1 <= n <= self.p.seq or self.p.log.id_at(n) != i:
                # Not about our entry n: a tail the member applied before our log and its parted
                # (it is told to rewind, or its next entry from us does not chain), or one we
                # dropped since we served it while reconciling.  Nothing to compare.
                continue
            m.acked = max(m.acked, n)
            if m.seat is None:
                continue
            self.search.reported(n, m.seat, h)
            if h != self.p.log.entries[n - 1].hash:
                self._start_desync(n, m, h)

    def _start_desync(self, n: int, m: Member, h: int) -> None:
        if self.p.phase == "desync" or self.search.walk is not None:
            return
        log.error("desync at entry %d: %s has %016x, the sequencer %016x", n, m.name, h, self.p.log.entries[n - 1].hash)
        self.live = False
        self.broadcast({"t": "pause", "seq": n, "reason": "desync"})
        self.p.notice("info", m.seat, f"state hashes differ after entry {n}: the game is paused")
        path = self.search.begin(m.rid, m.seat, n, self.p.ring.get(n), self.p.rt.now())
        if path is not None:
            self.p.send_to(m.rid, {"t": "kids_req", "seq": n, "path": path})

    def _on_kids(self, rid: bytes, m: Member, msg: dict) -> None:
        w = self.search.walk
        if w is None or m.rid != w.rid or msg["seq"] != w.seq or msg["path"] != w.path:
            return self.p.drops.drop("kids", "no such question", m.name)
        if not all(wire.U64(d) for d in msg["d"]):
            return self.p.drops.drop("kids", "bad digest", m.name)
        path = self.search.answer(self.p.ring[w.seq], (msg["ok"], msg["d"]), self.p.rt.now())
        if path is not None:
            self.p.send_to(m.rid, {"t": "kids_req", "seq": w.seq, "path": path})

    def _finish_walk(self, problem: str) -> None:
        w = self.search.walk
        assert w is not None  # a search runs
        self.search.finish(self.p.ring.get(w.seq), problem, self.p.rt.now())

    def _publish_desync(self, now: float) -> None:
        found = self.search.due(now, self.membership.seat_rid)
        if found is None:
            return
        n, text = found
        e = self.p.log.entries[n - 1]
        msg = {"t": "desync", "seq": n, "hashes": self.search.hashes(n, self.p.seat, e.hash), "path": text[:400],
               "entry": [e.n, e.author, e.action, e.hash]}
        self.broadcast(msg)
        self.p.report_desync(msg)

    def tick(self, now: float) -> None:
        """The sequencer's timers (every 50 ms while it is the peer's role)."""
        if self.p.phase in ("desync", "closed"):
            return
        if now - self._last_tick >= self.p.cfg.ping_s:
            self._last_tick = now
            self.broadcast({"t": "tick", "head": self.p.seq})
        for rid in self.membership.silent(now, self.p.cfg.dead_s):
            self._member_gone(rid, "no heartbeat")
        self._seeding_timer(now)
        if self.p.phase == "game" and self.search.seq is None and self._reign_timers(now):
            return
        if self.search.unanswered(now):
            self._finish_walk("the peer did not answer")
        self._publish_desync(now)
        if self.p.phase != "game" or not self.live:
            return
        # Q-DIGI-2: the timer closes a window by passing for the seats still waiting (a refused
        # pass is skipped as the timer goes on).
        while (action := self.steward.due(self.p.state, now)) is not None:
            self.sequence(TABLE_AUTHOR, None, action)
        self._away_timers(now)
        if self._ending_until is not None:
            waiting = [m for m in self.membership.members.values() if m.seat is not None and m.acked < self.p.seq]
            if not waiting or now > self._ending_until:
                self.broadcast({"t": "end", "seq": self.p.seq, "h": port.hash(self.p.state)})
                self.p.notice("closed", None, f"the game is over after {self.p.seq} entries")
                self.p.finish("ended")

    def _seeding_timer(self, now: float) -> None:
        """Seats that did not take part in the seed exchange in time: back to the lobby without them."""
        if self._seeding is not None and now > self._seeding.deadline:
            missing = self._seeding.missing()
            self._seeding = None
            self.p.phase = "lobby"
            for s in missing:
                self.p.seats[s] = SeatInfo()
            self.broadcast_lobby()
            self.p.notice("info", None, f"seats {missing} did not take part in the seed exchange: back to the lobby")

    def _reign_timers(self, now: float) -> bool:
        """The quorum (docs/net.md, "Quorum"): stop sequencing without one; reconciling, go live
        once ready, or step down after 2 x dead_s without a quorum.  True: the tick ends here."""
        quorate = self._quorum(self._reach(now))
        if quorate:
            self._no_quorum_since = None
        elif self._no_quorum_since is None:
            self._no_quorum_since = now
        if self.live and not quorate:
            # The others may be following another sequencer: stop until a quorum is back.
            self.live = False
            self.expect.clear()
            self._reconcile_until = now
            self.p.notice("info", self.p.seat, "no quorum of the players is reachable: the game waits")
        if not self.live:
            # Wait for the peers expected (up to the settle time) and for the more up-to-date
            # logs asked for (up to 2 x dead_s: going live without one rewinds its tail, which
            # is safe once a quorum is ready without it, but loses moves that were on it).
            if self.fetching and now - self._last_fetch_req > 4 * self.p.cfg.ping_s:
                self._last_fetch_req = now
                for rid in self.fetching:  # the answer may have been lost: ask again
                    m = self.membership.members.get(rid)
                    if m is not None:
                        self.p.send_to(rid, {"t": "fetch_req", "from": min(m.common, self.p.seq) + 1})
            cert = self._certificate(now)
            if self._quorum({s for s, _ in cert}) and (not self.expect or now > self._reconcile_until) \
                    and (not self.fetching or now > self._fetch_until):
                self.go_live(cert)
                return True
            if self._no_quorum_since is not None and now - self._no_quorum_since > 2 * self.p.cfg.dead_s:
                self.p.step_down()
                return True
        return False

    def _away_timers(self, now: float) -> None:
        """Q-OPT-2: a bot plays an away seat once the table's away time has passed, until it is back."""
        p = self.p.state.params
        for seat, since in list(self.membership.away_since.items()):
            info = self.p.seats[seat]
            if not info.botted and info.away and port.takes_over(p, since, now):
                info.botted = True
                self.p.notice("bot", seat, f"a bot plays for {self.p.who(seat)} while they are away")
                self.broadcast_lobby()
                self.schedule_drive()
        for info in self.p.seats:
            if info.botted and not info.away:
                info.botted = False
                self.broadcast_lobby()

    def _quorum(self, seats: set[int]) -> bool:
        return membership.quorum(self.p.peer_seats(), seats)

    def _reach(self, now: float) -> set[int]:
        return self.membership.reach(self.p.me, now, self.p.cfg.dead_s / 2)

    def _certificate(self, now: float) -> gamelog.Cert:
        """The signed promises of our epoch from the seats ready to follow us (ours among them), by
        seat: the reign's certificate, once they are a quorum."""
        ready = self.membership.ready(self.p.me, now, self.p.cfg.dead_s / 2, self.p.epoch, self.fetching)
        sigs = {m.seat: m.psig for m in self.membership.members.values()
                if m.seat in ready and m.promised == self.p.epoch and m.psig is not None}
        own = self.p.promise_sig(self.p.epoch)
        if own is not None:
            sigs[self.p.me] = own
        return sorted(sigs.items())

    def chat(self, seat: int | None, text: str) -> None:
        self.broadcast({"t": "notice", "kind": "chat", "seat": seat, "text": text})
        self.p.chat_kept.append((seat, text))
        self.p.emit(Notice("chat", seat, text))

    def to_seat(self, seat: int, msg: dict) -> None:
        rid = self.membership.seat_rid.get(seat)
        if rid is not None:
            self.p.send_to(rid, msg)

    def broadcast(self, msg: dict) -> None:
        data = wire.pack(msg)
        for rid in list(self.membership.members):
            self.p.rt.send(self.p.router, [rid, data])

    def _serve_fetch(self, rid: bytes, start: int) -> None:
        if self.p.log is None:
            return
        recs = catchup.records_from(self.p.log, start)
        if recs:
            self.p.send_to(rid, {"t": "entries", "recs": recs})

    def _on_entries(self, rid: bytes, m: Member, msg: dict) -> None:
        """A new sequencer takes the entries of a peer whose log is more up to date (reconciliation)."""
        if m.rid not in self.fetching or self.live:
            return self.p.drops.drop("entries", "not asked for", m.name)
        problem = gap = None
        for raw in msg["recs"]:
            try:
                e = gamelog.decode_entry(raw) if type(raw) is bytes else None
            except wire.Malformed:
                e = None
            if e is None:
                problem = "a bad record"
                break
            if e.n <= self.p.seq and e.id == self.p.log.id_at(e.n):
                m.common = max(m.common, e.n)
                continue
            if e.n <= self.p.seq:
                if (m.lep, m.last) <= (self.p.log.last_epoch, self.p.seq):
                    # Ours became at least as up to date (adopted from another peer): it truncates.
                    log.warning("%s's log parts from ours at entry %d", m.name, e.n)
                    self.fetching.discard(m.rid)
                    m.last = m.common = e.n - 1
                    return self.p.send_to(m.rid, self.welcome(m.seat, e.n - 1))
                # Theirs is more up to date: our entries from here were never acknowledged — if
                # theirs check out.  An entry that does not is no one's acknowledged entry (every
                # honest peer checked it before keeping it): nothing of ours is dropped for it.
                # Nor for another entry of the same epoch as ours: that epoch's sequencer signed
                # both, and a quorum may hold ours (docs/net.md, "An equivocating sequencer").
                try:  # (and not for the other face of an equivocation: ours may be one a quorum holds)
                    self.p.replica.would_replace(e.n - 1, e)
                except replica.BadEntry as err:
                    problem = str(err)
                    break
                self.truncate(e.n - 1, f"{m.name}'s log is more up to date")
            if e.n != self.p.seq + 1:  # a stale or reordered answer: ask again (_leader_timers)
                gap = e.n
                break
            try:
                self.p.take(e)
            except replica.BadEntry as err:  # nothing of it kept
                problem = str(err)
                break
            m.common = e.n
            if e.pid is not None:
                self.last_pid[e.author] = e.pid
        self.p.log.sync()
        if problem:
            # Entries that do not check are no one's acknowledged entries (every honest peer checked
            # them before keeping them): the peer keeps what it shares with ours.
            log.error("not adopting %s's log: %s", m.name, problem)
            self.fetching.discard(m.rid)
            m.last = m.common
            self.p.send_to(m.rid, self.welcome(m.seat, m.common))
        elif gap is not None:
            log.info("%s sent entry %d where %d was due", m.name, gap, self.p.seq + 1)
        elif len(msg["recs"]) >= catchup.FETCH_BATCH:
            self.p.send_to(m.rid, {"t": "fetch_req", "from": self.p.seq + 1})
        else:
            self.fetching.discard(m.rid)
            m.last = m.common  # its whole log past ours came in this answer: now we hold it all
            log.info("adopted %s's log up to entry %d", m.name, self.p.seq)

    def truncate(self, keep: int, why: str) -> None:
        """Drop our entries after ``keep`` (never acknowledged: see the callers) and rebuild."""
        log.warning("dropping entries %d..%d: %s", keep + 1, self.p.seq, why)
        self.p.log.truncate_after(keep)
        lg, self.p.log = self.p.log, None
        self.p.adopt_log(lg)
        self.rebuild_dedupe()
        for other in self.membership.members.values():
            other.common = min(other.common, keep)
        self.p.notice("info", self.p.seat, f"rewound to entry {keep}: {why}")


# What a member may send the sequencer, by message type (docs/net.md, "Messages").
_FROM_MEMBERS = {
    "propose": Sequencer._on_propose, "report": Sequencer._on_report, "ping": Sequencer._on_ping,
    "fetch": Sequencer._on_fetch, "commit": Sequencer._on_commit, "reveal": Sequencer._on_reveal,
    "kids": Sequencer._on_kids, "entries": Sequencer._on_entries, "say": Sequencer._on_say,
    "gender": Sequencer._on_gender, "bye": Sequencer._on_bye,
}
