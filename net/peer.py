"""A peer: one process's part of a LAN game (DESIGN "Networking contract"; docs/net.md).

Every peer holds the game state, applies the shared action log strictly in order and persists it
(net.gamelog).  One peer is the *sequencer* (leader): it owns the lobby, runs the seed
commit-reveal, validates proposals with the engine, numbers them, makes them durable and sends them
to everyone.  The others are *followers*: a DEALER connected to the leader's ROUTER.  Every peer
also binds a ROUTER of its own so that it can take over as sequencer.

The roles are objects that own their own fields: net.sequencer.Sequencer (``Peer.sequencer``) and
net.follower.Follower (``Peer.follower``), one of each per peer, kept across reigns.
``Peer.role`` is the one that handles what reaches the ROUTER and the timers; becoming sequencer
or stepping down swaps it (there is no ``leader`` flag to keep in step: ``Peer.leader`` is ``role
is sequencer``).  The DEALER is only ever the follower's.  ``Peer`` is the facade the client and
the CLIs use: the game's life cycle, proposals, the log, the seats, the epoch, election.

The roles reach their peer only through its public members, never its underscore ones (nor
each other's): the shared fields (``seats``, ``opts``, ``seat``, ``leader_seat``, ``epoch``,
``game``, ``phase``, ``outstanding``, the replica's ``log``/``state``/``seq``/``ring``,
``election``, ``catchup``, ``admission``, ``drops``, ``rt``, ``router``, ``dealer``,
``dealer_key``) and the role interface: messages (``send_to``, ``connect_dealer``), the
listeners (``emit``, ``notice``), entries (``take``, ``committed``, ``adopt_log``,
``start_from_header``, ``schedule_sync``), proposals (``rejected``, ``count``), the life cycle
(``finish``, ``give_up``, ``join_answered``, ``answered``, ``mark_started``, ``shut``,
``report_desync``), what the peer knows (``me``, ``seat_of``, ``who``, ``key_of``,
``peer_seats``, ``log_path``, ``promise``, ``promise_sig``, ``new_nonce``, ``remember_keys``,
``note_addresses``) and the election (``elect``, ``rendezvous``, ``step_down``, ``adrift``,
``restarted_over``).  Tests and the simulation use the same members and the fault seam
(docs/net.md, "The fault seam").

Invariants:
- The state changes only by applying a log entry, in sequence order, with ``net.port.apply``; this
  module never builds a State (except the test-only perturbation in net.desync).  Every entry
  taken from a log (our own file, the sequencer's, another peer's while reconciling) is checked
  and applied by net.replica.apply_entry, the check of ``mq replay --verify``; the sequencer's
  own entries follow the same authorship rule (net.replica.may_author).
- Every link is CurveZMQ (net.transport).  A seat belongs to a CURVE public key: the leader binds
  it to the ``User-Id`` of the connection (the key the handshake proved), checked again on every
  message, never to a message field or a routing id.  A key the leader does not know (not in the
  roster, not an admitted spectator) is admitted only with the join code (``hello.code``, inside
  the encrypted channel), or on a loopback-only host opened with ``admit="open"``; wrong codes are
  counted and slow down the address they come from, never anyone else (net.admission).
- A follower connects only to a peer whose public key it knows: the host's from ``cfg.server_key``,
  a known key, or the key service's answer checked against the join code (or taken on trust on
  loopback); other peers' keys from the roster in the sequencer's ``lobby`` and the log header.
- An entry's author is the seat bound to the connection that proposed it, or TABLE_AUTHOR (-1) for
  entries the leader makes itself: bots in bot seats and away seats, and closing an interrupt
  window when its timer ends (Q-DIGI-2, Q-OPT-1, Q-OPT-2).  What the table plays, and every other
  question about the game, is asked through net.port (the game layer decides; net carries).
- Proposals carry (incarnation, counter); the leader applies each at most once, also after a
  reconnect or a failover (the dedupe table is rebuilt from the log).
- Signed history (net.signing, docs/net.md "Signed history"): a player signs each action it
  proposes with its Ed25519 key (``cfg.sign_key``), which the header binds to its seat; the
  sequencer checks that signature before numbering and signs every entry it numbers.  Every path
  that takes an entry checks both (net.replica), and a peer rewinds its log only for entries that
  check out (net.replica.Replica.would_take).
- The leader sends an entry before its own fdatasync of it returns (the sync follows at once, off
  the send's path); followers sync each received batch before reporting their hashes.  An entry
  is acknowledged once a quorum holds it durably in its epoch (docs/net.md, "Epochs"), so no
  acknowledged entry depends on the leader's disk alone.
- Epochs (Raft's terms; docs/net.md "Epochs"): every sequencer reign has an epoch higher than any a
  quorum of its peers had promised, stamped on each entry it numbers.  A peer durably promises the
  epoch of the sequencer it follows (``GameLog.raise_promise``) and never follows an older one.  A
  log is more up to date than another by (epoch of its last entry, length); that, not length
  alone, decides which tail wins when logs part.
- Every peer compares its hash after entry n with the leader's (carried in the entry); the leader
  compares every follower's reported hash with its own.  A mismatch pauses the game for good: the
  leader walks subtree digests to the first differing field and every peer writes a report.
- Failover: the lowest-numbered live peer seat becomes sequencer with a new epoch; it collects the
  others' logs (``hello`` carries each peer's last entry ids and epochs), adopts the most up-to-date
  one, and goes live once a quorum has promised its epoch and holds nothing more up to date.
- Quorum: a sequencer sequences only while it reaches (heard within ``dead_s / 2``) a quorum of the
  game's peer seats: more than half, or exactly half with the lowest; without one it waits, and
  after ``2 * dead_s`` steps down to look for the sequencer the others follow (docs/net.md).
- All I/O, time and randomness go through ``self.rt`` (net.transport.ZmqRuntime, or
  net.sim.SimRuntime in the simulation), so the simulation runs this very code.
- Malformed input is dropped with a log line and a counter; it never raises out of a handler.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
from dataclasses import dataclass
from typing import Any, Callable

import zmq

from mq.cards import load_default
from mq.rules import Action, IllegalAction
from mq.rules.actions import encode as encode_action
from mq.rules.state import COLOURS
from mq.table import Applied, Notice
from net import (
    admission,
    catchup,
    desync,
    election,
    gamelog,
    identity,
    incarnation,
    options,
    port,
    replica,
    seeding,
    signing,
    transport,
    wire,
)
from net.chatlog import ChatLog
from net.follower import Follower
from net.seats import SeatInfo
from net.sequencer import ENDING_S, Sequencer

log = logging.getLogger("mq.net")


CHAT_KEPT = 100  # chat lines every peer keeps, and the sequencer gives a peer that (re)joins the game


@dataclass
class Config:
    """How a peer behaves.  Times are seconds."""

    name: str = "player"
    key: str = ""  # identity: the CURVE secret key as hex (net.identity); a fresh one if empty
    sign_key: str = ""  # the Ed25519 signing seed as hex (net.identity.signing_seed); "": derived from key
    role: str = "play"  # "play" or "watch"
    bind: str = "127.0.0.1"  # where this peer's ROUTER listens
    port: int = 0  # 0: any free port
    log_path: str | None = None  # default: net.identity.log_path(game)
    ping_s: float = 0.25  # heartbeat period (application level)
    dead_s: float = 1.5  # silence after which a peer (or the sequencer) is gone
    settle_s: float = 3.0  # how long a new sequencer waits for the others' logs
    hello_s: float = 0.2  # hello retry period while connecting
    resend_s: float = 1.5  # an unanswered proposal is sent again after this
    perturb: tuple[int, str] | None = None  # test-only: after entry n, bump one int field
    # Local play only (``mq play --seed``): the seed commit-reveal nonce is derived from this and
    # the seat instead of drawn at random, so a game whose every peer has it gets the same seed
    # each time.  Never in a game with other people: a predictable nonce lets them choose the seed.
    local_seed: int | None = None
    # Admission.  A host admits keys it does not know with a join code it makes (``admit="code"``,
    # Peer.join_code) or, bound to loopback only, without one (``admit="open"``: local games, tests).
    admit: str = "open"
    code: str | None = None  # joiner: the host's join code; a new sequencer after a failover admits with it
    server_key: str | None = None  # joiner: the host's public key (Z85) if known another way
    known_keys_path: str | None = None  # keys of peers played with (net.identity); None: none kept
    gender: str = "rolled"  # this player's munchkin (Q-SETUP-3; net.options): told the host in the lobby


class PeerError(Exception):
    """Joining or hosting failed (refused, unreachable, bad log)."""


def _replica_field(name: str, doc: str) -> property:
    return property(lambda self: getattr(self.replica, name),
                    lambda self, value: setattr(self.replica, name, value), doc=doc)


def _member_field(name: str, doc: str) -> property:
    return property(lambda self: getattr(self.sequencer.membership, name), doc=doc)


class Peer:
    """One peer.  Use :meth:`host`, :meth:`resume` or :meth:`join` (coroutines), then read
    ``state``/``seq``, :meth:`propose`, and listen with :meth:`subscribe`."""

    # The peer's copy of the game is its replica's (net.replica.Replica).
    log = _replica_field("log", "the open log (net.gamelog.GameLog); None before the game")
    header = _replica_field("header", "the log's header (net.gamelog.Header); None before the game")
    state = _replica_field("state", "the state after the last entry applied")
    seq = _replica_field("seq", "the number of the last entry applied")
    ring = _replica_field("ring", "entry number -> the state after it, for the last RING entries")
    # The sequencer's connections are its membership's (net.membership.Membership).
    members = _member_field("members", "routing id -> Member: the sequencer's connections")
    seat_rid = _member_field("seat_rid", "seat -> the routing id of the connection holding it")
    away_since = _member_field("away_since", "seat -> when it went away (the sequencer's clock)")

    def __init__(self, cfg: Config, ctx=None, runtime=None) -> None:
        """``runtime``: where the I/O, clock and randomness come from (net.transport.ZmqRuntime on
        ``ctx`` by default; net.sim.SimRuntime in the simulation)."""
        self.cfg = cfg
        # Any object with ZmqRuntime's methods (its sockets are the runtime's own kind).
        rt: Any = runtime if runtime is not None else transport.ZmqRuntime(ctx)
        self.rt = rt
        self.ctx = getattr(rt, "ctx", None)
        self.key = cfg.key or rt.random(32).hex()
        if not identity.valid_secret(self.key):
            raise PeerError("the identity key is not 32 bytes of hex")
        self.pub = identity.public_id(self.key)
        self.signer = signing.Signer(cfg.sign_key or signing.seed_for(self.key))
        self._promise_sig: tuple[tuple[bytes, int], bytes] = ((b"", 0), b"")  # the last promise signed
        self._public, self._secret = identity.keypair(self.key)
        self.cards = load_default()
        # This process's incarnation (proposal ids are (inc, counter)) and the secret that proves
        # it to a sequencer (net.incarnation: sent in hello only).
        self.inc_secret = rt.random(incarnation.SECRET_LEN)
        self.inc = incarnation.of(self.inc_secret)
        self._pid = 0
        # Dropped input is counted; a sender is reported once a minute at most (log and notice).
        self.drops = wire.Counters(clock=rt.now, report=lambda text: self.notice("info", None, text))
        self.router: Any
        self.port: int
        self.router, self.port = rt.router(cfg.bind, cfg.port, self._public, self._secret)
        self.dealer_key: str | None = None  # the key of the peer the DEALER talks to (connect_dealer)
        self.dealer: Any = None
        self._dealer_task: asyncio.Task | None = None
        self._tasks: list[asyncio.Task] = []
        self._listeners: list[Callable] = []
        self.chat_kept = ChatLog(CHAT_KEPT)  # for players who rejoin; beside the log once there is one
        # game
        self.phase = "idle"  # lobby | seeding | game | desync | ended | closed
        self.game: bytes = b""
        self.replica = replica.Replica(self.cards)  # log, header, state, seq, ring (below)
        self.seat: int | None = None
        self.seats: list[SeatInfo] = []
        self.opts: dict = {}
        self.leader_seat: int | None = None
        self.epoch = 0  # the reign we sequence in, or that of the sequencer we follow
        self._noted: list | None = None  # the seats' addresses as last written (_note_addresses)
        self.outstanding: dict[int, tuple[Action, float]] = {}
        self.error: str | None = None
        self.report_file: str | None = None
        self._counts = {"sequenced": 0, "applied": 0, "rejected": 0}
        # Who comes in when this peer sequences, and the join code it was given (net.admission).
        self.admission = admission.Admission(cfg.code)
        self.commit_ms: list[float] = []  # leader: proposal received -> entry sent (own seat: submit -> applied)
        self._sent_at: dict[int, float] = {}
        self.started_at = self.ended_at = 0.0  # perf_counter at the header and at the end (stats)
        # The roles (net.sequencer, net.follower): ``role`` handles what reaches our ROUTER and the
        # timers; the follower while we follow a sequencer or look for one.
        self.sequencer = Sequencer(self)
        self.follower = Follower(self)
        self.role: Sequencer | Follower = self.follower
        self.election = election.Election()  # the failover's state: dead seats, the candidate, addresses
        # follower-only
        self.catchup = catchup.CatchUp()  # entries ahead of our log, the head, the last fetch
        self._over_since: float | None = None  # when a peer not sequencing saw the game over
        self._sync_scheduled = False
        self._started = asyncio.Event()
        self._welcome_evt = asyncio.Event()
        self._finished = asyncio.Event()
        self._refused: str | None = None
        self._shut = False

    # -- life cycle ------------------------------------------------------------------------------
    def subscribe(self, fn: Callable) -> None:
        """``fn(item)`` is called with every Applied / Notice, and with ("reject", pid, reason,
        detail) tuples for this peer's refused proposals."""
        self._listeners.append(fn)

    def emit(self, item) -> None:
        for fn in list(self._listeners):
            try:
                fn(item)
            except Exception:  # a listener bug must not stop the game loop
                log.exception("listener failed")

    def notice(self, kind: str, seat: int | None, text: str) -> None:
        log.info("[%s] %s", kind, text)
        self.emit(Notice(kind, seat, text))

    def _spawn(self) -> None:
        self._tasks = self.rt.start(self.router, self._from_router, self._tick, self._public)

    async def wait_finished(self, timeout: float | None = None) -> bool:
        try:
            await asyncio.wait_for(self._finished.wait(), timeout)
            return True
        except asyncio.TimeoutError:
            return False

    @property
    def finished(self) -> bool:
        """The game is over here, given up or closed (``wait_finished`` returns)."""
        return self._finished.is_set()

    async def wait_started(self, timeout: float | None = None) -> bool:
        try:
            await asyncio.wait_for(self._started.wait(), timeout)
            return True
        except asyncio.TimeoutError:
            return False

    def finish(self, phase: str) -> None:
        """The game is over here (``ended``, ``desync``) or given up (``closed``)."""
        self.phase = phase
        self.ended_at = self.rt.perf()
        self._finished.set()

    def give_up(self, why: str | None, notice: bool = False) -> None:
        """Close: joining failed or the game was given up.  ``why`` becomes the ``refusal`` unless
        one was given already (None: no reason to give); with ``notice`` the listeners hear it too
        (a ``closed`` notice).  A join waiting for an answer returns."""
        if why is not None and not self._refused:
            self._refused = why
        if notice:
            self.notice("closed", None, why or "closed")
        self._welcome_evt.set()
        self.finish("closed")

    def join_answered(self) -> None:
        """The sequencer answered our hello (a join waiting for it returns)."""
        self._welcome_evt.set()

    @property
    def answered(self) -> bool:
        """A join has had its answer (welcome, refusal), or given up waiting."""
        return self._welcome_evt.is_set()

    def mark_started(self) -> None:
        """The game runs here: a ``wait_started`` returns."""
        self._started.set()

    @property
    def shut(self) -> bool:
        """:meth:`close` has begun: nothing more is written."""
        return self._shut

    async def close(self, linger_ms: int = 0) -> None:
        if self._shut:
            return
        self._shut = True
        if self.follower.welcomed and not self.leader and self.dealer is not None:
            self.follower.up({"t": "bye"})
        await self.rt.cancel(self._tasks + ([self._dealer_task] if self._dealer_task else []))
        if self.log is not None:
            self.log.close()
        await self.rt.aclose([self.dealer, self.router], linger_ms)
        was = self.phase
        if was not in ("ended", "desync"):
            self.phase = "closed"
            self.emit(Notice("closed", None, "left the table"))
        self._finished.set()

    # -- the shared log ---------------------------------------------------------------------------
    def open_log(self, path: str) -> None:
        """Load an existing log: check it, truncate a torn tail, replay it to rebuild the state
        (PeerError if it does not check out)."""
        try:
            lg = gamelog.GameLog.open(path)
        except gamelog.LogCorrupt as e:
            raise PeerError(str(e)) from None
        if lg.header is None:
            lg.close()
            raise PeerError(f"{path}: the log has no header")
        if lg.truncated:
            log.warning("%s: dropped a torn tail of %d bytes", path, lg.truncated)
        self.adopt_log(lg)
        why = self.cannot_sign()
        if why is not None:
            lg.close()
            raise PeerError(f"{path}: {why}")

    def try_open_log(self, path: str) -> str | None:
        """:meth:`open_log`, or why it failed (the PeerError's words)."""
        try:
            self.open_log(path)
        except PeerError as e:
            return str(e)
        return None

    def adopt_log(self, lg: gamelog.GameLog) -> None:
        """Take a log we hold (our file, or what a rewind left of it): every entry re-applied
        through the one entry check (net.replica), or PeerError naming the first that fails (the
        log is closed, nothing in it changed)."""
        try:
            self.replica.adopt(lg)
        except replica.BadEntry as err:
            lg.close()
            raise PeerError(f"{lg.path}: {err}") from None
        self.game = self.header.game
        self.chat_kept.attach(lg.path + ".chat")
        self.catchup.heard(self.seq)
        if self.seat is None and self.cfg.role == "play":
            self.seat = self.seat_of(self.pub)

    @property
    def me(self) -> int:
        """Our seat, where only a player's peer gets (sequencing, looking for the game as a player)."""
        assert self.seat is not None, "a spectator has no seat"
        return self.seat

    def seat_of(self, pub: str) -> int | None:
        if self.header is None:
            return None
        for i, (_, p, kind) in enumerate(self.header.roster):
            if kind == "peer" and p == pub:
                return i
        return None

    def log_path(self) -> str:
        if self.cfg.log_path:
            return self.cfg.log_path
        path = identity.log_path(self.game)
        # A spectator on a player's machine must not overwrite that player's log.
        return path.replace(".mqlog", ".watch.mqlog") if self.cfg.role == "watch" else path

    def start_from_header(self, header: gamelog.Header) -> None:
        """A fresh log with this header, and the game's first state."""
        lg = gamelog.GameLog.create(self.log_path())
        lg.write_header(header)
        lg.sync()
        lg.raise_promise(self.epoch)
        self.replica.start(lg)
        self.chat_kept.attach(lg.path + ".chat", fresh=True)
        self.game = header.game
        self.phase = "game"
        self.started_at = self.rt.perf()
        self.note_addresses()
        self._started.set()
        self.notice("info", None, f"the game starts: seed {header.seed:016x}, game {header.game.hex()}")

    def take(self, e: gamelog.Entry) -> None:
        """Check and apply the next entry (net.replica.apply_entry), log it and commit it; raises
        replica.BadEntry, with nothing changed, if it does not check out.  Used by followers and by
        a new sequencer adopting entries from another peer's log."""
        self.committed(e, self.replica.take(e))

    def committed(self, e: gamelog.Entry, applied: Applied) -> None:
        """The replica took entry ``e``: answer our own proposal, tell the listeners."""
        self.catchup.heard(e.n)
        self.count("applied")
        if e.pid is not None and e.pid[0] == self.inc and e.author == self.seat:
            self.outstanding.pop(e.pid[1], None)
            sent = self._sent_at.pop(e.pid[1], None)
            if sent is not None and not self.leader:
                self.commit_ms.append((self.rt.perf() - sent) * 1000)
        self.emit(applied)

    # -- proposals (any role) ---------------------------------------------------------------------
    def propose(self, action: Action) -> int:
        """Send a proposal for this peer's seat; returns its id.  The result arrives as an Applied
        (with this peer's pid in the entry) or a ("reject", pid, reason, detail) event."""
        if self.seat is None:
            raise IllegalAction("seat/unknown", "a spectator has no seat")
        self._pid += 1
        pid = self._pid
        now = self.rt.perf()
        self._sent_at[pid] = now
        if self.leader and not self.sequencer.live and self.phase == "game":
            self.outstanding[pid] = (action, now)  # sequenced when this new sequencer goes live
            return pid
        if self.leader:
            reason = self.sequencer.sequence(self.seat, (self.inc, pid), action, self.sign_action(pid, action))
            if reason is not None:
                self.rejected(pid, *reason)
            else:
                self.commit_ms.append((self.rt.perf() - now) * 1000)
            return pid
        self.outstanding[pid] = (action, now)
        if self.follower.welcomed:
            self.follower.up(self.proposal(pid, action))
        return pid

    def sign_action(self, pid: int, action: Action) -> bytes:
        """This player's signature of its proposal ``pid`` (net.signing)."""
        return self.signer.sign_action(self.game, self.me, (self.inc, pid), encode_action(action))

    def proposal(self, pid: int, action: Action) -> dict:
        """The ``propose`` message of our proposal ``pid``, signed."""
        return {"t": "propose", "pid": pid, "x": encode_action(action), "sig": self.sign_action(pid, action)}

    def rejected(self, pid: int, reason: str, detail: str) -> None:
        """Our proposal ``pid`` was refused (by our own sequencer role or the one we follow)."""
        self.outstanding.pop(pid, None)
        self._sent_at.pop(pid, None)
        self.count("rejected")
        self.emit(("reject", pid, reason, detail))

    def count(self, kind: str) -> None:
        """One more entry ``sequenced`` or ``applied``, or proposal ``rejected`` (``stats``)."""
        self._counts[kind] += 1

    def say(self, text: str) -> None:
        text = str(text)[:wire.MAX_TEXT]
        if self.leader:
            self.sequencer.chat(self.seat, text)
        elif self.follower.welcomed:
            self.follower.up({"t": "say", "text": text})

    def set_lobby(self, opts: dict, bots: tuple[int, ...]) -> None:
        """Host, in the lobby: new table options (net.options; the engine checks them) and the seats
        bots play (among those no player holds); raises, changing nothing, when they cannot be.  The
        genders stay the players' own (choose_gender)."""
        if not self.leader or self.phase != "lobby":
            raise PeerError("only the host changes the table, in the lobby")
        options.params(opts)  # IllegalAction in the engine's words
        n = opts["seats"]
        held = [s for s, i in enumerate(self.seats) if i.kind == "peer" and s >= n]
        if held or any(not 0 <= s < n or (s < len(self.seats) and self.seats[s].kind == "peer") for s in bots):
            raise PeerError(f"{COLOURS[held[0]].capitalize()} is a player's seat" if held
                            else "bots only take seats no player holds")
        self.seats = [self.seats[s] if s < len(self.seats) and self.seats[s].kind == "peer"
                      else SeatInfo(f"bot-{COLOURS[s]}", "bot") if s in bots else SeatInfo() for s in range(n)]
        self.opts = dict(opts, genders=self.opts["genders"])  # each player's own (a joiner's may be newer)
        self.sequencer.broadcast_lobby()

    def choose_gender(self, gender: str) -> None:
        """In the lobby: this player's munchkin's gender (Q-SETUP-3; net.options), told the host."""
        self.cfg.gender = gender
        if self.leader and self.phase == "lobby":
            self.opts = options.with_gender(self.opts, self.me, gender)
            self.sequencer.broadcast_lobby()
        elif self.follower.welcomed:
            self.follower.up({"t": "gender", "gender": gender})

    # -- what a peer is doing now (read-only: the simulation, the harness and tests watch these) --
    @property
    def leader(self) -> bool:
        """This peer is the sequencer (live or not): its ROUTER's messages go to ``sequencer``."""
        return self.role is self.sequencer

    @property
    def sequencing(self) -> bool:
        """This peer sequences and is live: a quorum promised its epoch (False while a new
        sequencer reconciles, or while it has no quorum)."""
        return self.leader and self.sequencer.live

    @property
    def following(self) -> bool:
        """This peer follows a sequencer that welcomed it."""
        return self.follower.welcomed

    @property
    def connecting(self) -> bool:
        """This peer says hello to a peer and waits for its answer."""
        return self.follower.connecting

    @property
    def candidate(self) -> int | None:
        """The seat this peer last connected to as a candidate sequencer (None: an address given)."""
        return self.election.candidate

    @property
    def refusal(self) -> str | None:
        """Why joining failed or the game was given up, in words; None if it did not."""
        return self._refused

    def my_turn(self) -> bool:
        return (self.phase == "game" and self.seat is not None and self.state is not None
                and self.seat in port.actors(self.state))

    # =========================================================================================
    # Hosting, and becoming sequencer (the role: net.sequencer)
    # =========================================================================================
    async def host(self, seats: int, bots: int = 0, window_ms: int = 10_000, away: str = "wait",
                   away_s: int = 60, start: int | None = None, mode: str = "quest", epic: bool = False,
                   packs: tuple[str, ...] = ()) -> None:
        """Open a lobby as sequencer on seat 0; the last ``bots`` seats are bots; ``start``: the
        starting hand (Q-OPT-3, C-OPT-2; None: the mode's), ``mode``, ``epic`` and ``packs`` the
        game's (C-OPT-3, 4);
        the host's gender is ``cfg.gender`` (Q-SETUP-3)."""
        self.opts = options.with_gender(options.make(seats, window_ms, away, away_s, start, mode=mode, epic=epic,
                                                     packs=packs),
                                        0, self.cfg.gender)
        if not 0 <= bots < seats:
            raise PeerError("bots must leave seat 0 for the host")
        self._setup_admission()
        self.game = self.rt.random(8)
        self.seats = [SeatInfo() for _ in range(seats)]
        # Cut as the CLIs do: a longer name breaks the lobby's schema and every joiner would drop it.
        self.seats[0] = SeatInfo(self.cfg.name[:wire.MAX_NAME], "peer", self.pub, self.cfg.bind, self.port,
                                 sign=self.signer.public)
        for s in range(seats - bots, seats):
            self.seats[s] = SeatInfo(f"bot-{COLOURS[s]}", "bot")
        self.seat = 0
        self.role, self.leader_seat, self.sequencer.live = self.sequencer, 0, True
        self.epoch = election.FIRST_EPOCH  # the first reign: nobody can have promised a later one
        self.phase = "lobby"
        self._spawn()
        log.info("hosting game %s on port %d", self.game.hex(), self.port)

    def _setup_admission(self) -> None:
        """How this host admits keys it does not know: a fresh join code, or (loopback only) none."""
        try:
            self.admission.open_as(self.cfg.admit, self.cfg.bind, self.pub)
        except admission.AdmissionError as e:
            raise PeerError(str(e)) from None

    @property
    def stats(self) -> dict[str, int]:
        """Counts: entries sequenced and applied, proposals rejected, wrong join codes, codes
        refused unchecked while their address waits (net.admission); dropped input is in ``drops``."""
        return {**self._counts, **self.admission.counts}

    @property
    def join_code(self) -> str | None:
        """The code this host shows (``admit="code"``); None otherwise."""
        return self.admission.join_code

    def open_seats(self) -> int:
        return sum(1 for s in self.seats if s.kind == "open")

    async def resume(self, path: str) -> None:
        """Sequence again from a log after every peer stopped; the others rejoin."""
        self.open_log(path)
        self._setup_admission()
        self.cfg.log_path = path
        if self.seat is None:
            raise PeerError("your identity has no seat in this game: resume it as one of its players")
        self._table_from_log()
        self.phase = "game"
        self._started.set()
        self._become_leader({s for s, i in enumerate(self.seats) if i.kind == "peer" and s != self.seat},
                            self.cfg.settle_s)
        self._spawn()
        log.info("resuming game %s at entry %d on port %d", self.game.hex(), self.seq, self.port)

    def _table_from_log(self) -> None:
        """Seats and options from the log's header, for a sequencer that never saw a ``lobby``
        (``--resume``, or a restarted peer sequencing at a rendezvous): the others are away."""
        self.opts = options.from_params(self.header.params)
        h = self.header
        self.seats = [SeatInfo(name, kind, pub, away=(kind == "peer"), sign=h.signers[s] if h.signed else b"")
                      for s, (name, pub, kind) in enumerate(h.roster)]
        for s, addr in enumerate(self._noted_addresses()):
            if addr is not None and self.seats[s].kind == "peer":
                self.seats[s].host, self.seats[s].port = addr
        self.seats[self.me] = SeatInfo(self.cfg.name[:wire.MAX_NAME] or self.seats[self.me].name, "peer",
                                         self.pub, self.cfg.bind, self.port, sign=self.signer.public)

    def _noted_addresses(self) -> list:
        """Where each seat's peer listened when we last heard (``<log>.peers``, see _note_addresses);
        a missing or unreadable file is no addresses (they are hints: a wrong one is a dead candidate)."""
        try:
            with open(self.log.path + ".peers", encoding="utf-8") as f:
                addrs = json.load(f)
        except (OSError, ValueError):
            return []
        ok = type(addrs) is list and len(addrs) == len(self.seats) and all(
            a is None or (type(a) is list and len(a) == 2 and type(a[0]) is str and len(a[0]) <= 64
                          and type(a[1]) is int and 0 < a[1] < 65536) for a in addrs)
        return [tuple(a) if a else None for a in addrs] if ok else []

    def note_addresses(self) -> None:
        """Keep where each seat's peer listens beside our log, so that a peer restarted from its log
        can look for the game at every seat, not only at the address it was given (rendezvous)."""
        if self.log is None or self.header is None:
            return
        addrs = [[i.host, i.port] if i.kind == "peer" and i.port else None for i in self.seats]
        old = self._noted if self._noted is not None else [list(a) if a else None for a in self._noted_addresses()]
        merged = [a or (old[s] if s < len(old) else None) for s, a in enumerate(addrs)]
        if merged == self._noted:
            return
        self._noted = merged
        try:
            with open(self.log.path + ".peers.tmp", "w", encoding="utf-8") as f:
                json.dump(merged, f)
            os.replace(self.log.path + ".peers.tmp", self.log.path + ".peers")
        except OSError as e:
            log.warning("could not note the peers' addresses: %s", e)

    def adrift(self) -> bool:
        """A player of a started game that neither sequences nor follows anyone: restarted and not
        welcomed yet, or looking for the game after stepping down."""
        return (not self.leader and not self.follower.welcomed and self.header is not None and self.seat is not None
                and self.cfg.role == "play" and self.phase not in ("ended", "desync", "closed")
                and (self.election.stepped_down or self.election.candidate is None))

    def cannot_sign(self) -> str | None:
        """Why this peer cannot play its seat in the logged game (None: it can): the log is of
        unsigned history or of uncertified reigns (an older mq: replayable, not resumable), or the
        header binds the seat to another signing key than ours."""
        if self.header is None or self.seat is None:
            return None
        if not self.header.signed:
            return (f"this log is of unsigned history (mq protocol {self.header.version}): "
                    "mq replay --verify checks it, but a game goes on only from a signed log")
        if not self.header.certified:
            return (f"this log is of mq protocol {self.header.version}, whose reigns carry no certificates: "
                    f"mq replay --verify checks it, but a game goes on only from a log of protocol {wire.PROTOCOL}")
        if self.header.signers[self.seat] != self.signer.public:
            return (f"seat {self.seat} signs with another signing key than yours "
                    f"({os.path.join(identity.home(), 'signing')}): use the one you played this game with")
        return None

    def rendezvous(self) -> None:
        """Two adrift peers met (a hello, or a retry naming nobody): the lower seat sequences, so
        peers that all restarted, or all stepped down, find each other (docs/net.md, "Failover")."""
        log.info("seat %d: another player follows nobody either: sequencing", self.seat)
        if not self.seats:
            self._table_from_log()
        if self.phase == "idle":  # restarted from our log, never welcomed: the game goes on
            self.phase = "game"
            self._started.set()
        self.election.stepped_down = False
        self._become_leader({s for s in self.peer_seats() if s != self.seat}, self.cfg.settle_s)

    def _become_leader(self, expect: set[int], settle: float) -> None:
        """Sequence, in a new epoch: the sequencer becomes our role and reconciles (not live yet)."""
        self.role, self.leader_seat = self.sequencer, self.seat
        self.epoch = election.next_epoch(max(self.epoch, self.log.promise, self.log.last_epoch), self.me)
        self.log.raise_promise(self.epoch)
        self.catchup.buffer.clear()
        self.sequencer.begin(expect, settle)
        self.seats[self.me].away = False
        self.seats[self.me].host, self.seats[self.me].port = self.cfg.bind, self.port
        self._dealer_lost()
        self.follower.welcomed = False
        self.follower.connecting = False
        log.info("sequencer now (seat %s, epoch %d) at entry %d; waiting for seats %s", self.seat, self.epoch,
                 self.seq, sorted(expect))

    def start_game(self) -> None:
        """Host: leave the lobby.  Open seats become bots; then the seed commit-reveal runs."""
        if not self.leader or self.phase != "lobby":
            raise PeerError("only the host can start, once")
        for s, info in enumerate(self.seats):
            if info.kind == "open":
                self.seats[s] = SeatInfo(f"bot-{COLOURS[s]}", "bot")
        params = options.params(self.opts, tuple(s for s, i in enumerate(self.seats) if i.kind == "bot"))
        self.sequencer.start_seeding(params)

    def new_nonce(self) -> bytes:
        return seeding.new_nonce(self.rt.random, self.cfg.local_seed, self.seat)

    def who(self, seat: int | None) -> str:
        if seat is None or seat < 0:
            return "the table"
        name = self.seats[seat].name if seat < len(self.seats) else ""
        return f"{name} ({COLOURS[seat]})" if name else COLOURS[seat]

    # -- desync report ---------------------------------------------------------------------------
    def report_desync(self, msg: dict) -> None:
        """Every peer (leader included) writes its own report and stops."""
        n = msg["seq"]
        peers = []
        for item in msg["hashes"]:
            if type(item) is list and len(item) == 2 and wire.AUTHOR(item[0]) and wire.U64(item[1]):
                s = item[0]
                peers.append({"seat": s, "name": self.who(s), "hash": f"{item[1]:016x}"})
        mine = self.ring.get(n)
        last = self.log.entries[max(0, n - 10):n] if self.log else []
        me = {"seat": self.seat, "name": self.cfg.name[:wire.MAX_NAME],
              "hash": f"{port.hash(mine):016x}" if mine is not None else None}
        report = {
            "game": self.game.hex(), "seq": n, "me": me,
            "peers": peers, "entry": msg["entry"], "first_difference": msg["path"],
            "last_actions": [gamelog.entry_summary(e) for e in last],
        }
        base = self.log.path if self.log else os.path.join(identity.home(), "mq")
        self.report_file = desync.write_report(f"{base}.desync-{n}.json", report)
        self.notice("desync", None, f"desync after entry {n}: first difference at {msg['path']} "
                                     f"(report: {self.report_file})")
        self.finish("desync")

    # -- quorum (docs/net.md, "Quorum") ----------------------------------------------------------
    def peer_seats(self) -> list[int]:
        if self.header is not None:
            return [s for s, (_, _, kind) in enumerate(self.header.roster) if kind == "peer"]
        return [s for s, i in enumerate(self.seats) if i.kind == "peer"]

    def _resume_hint(self) -> str:
        """What a player waiting for a host that may never come back can do (any log restarts the game)."""
        if self.log is None:
            return ""
        return (". If the host is gone for good, the game goes on from any player's log: "
                f"mq host --resume LOG (yours: {self.log.path}), and the others join again")

    def step_down(self) -> None:
        """No quorum for a while: the others follow another sequencer, or most are gone.  Stop
        sequencing and look for the game as a follower (the lowest other seat we can reach)."""
        log.warning("no quorum for %.1f s: seat %s stops sequencing", 2 * self.cfg.dead_s, self.seat)
        self.notice("info", self.seat, "too few players are reachable: looking for the game's host" + self._resume_hint())
        self.role, self.leader_seat = self.follower, None
        self.sequencer.stand_down()
        self.election.dead = {self.me}
        self.follower.last_heard = self.rt.now()
        self.election.stepped_down = True
        self.elect()

    # -- I/O -------------------------------------------------------------------------------------
    def send_to(self, rid: bytes, msg: dict) -> None:
        if not self.rt.send(self.router, [rid, wire.pack(msg)]):
            log.debug("could not send %s to %r", msg.get("t"), rid)

    def _on_router(self, frames: list) -> None:
        """One message on this peer's ROUTER, for our role to handle."""
        if len(frames) != 2:
            return self.drops.drop("frame", f"{len(frames)} frames")
        rid = frames[0].bytes
        try:
            msg = wire.unpack(frames[1].bytes)
        except wire.Malformed as e:
            return self.drops.drop("message", str(e), transport.peer_address(frames[1]))
        try:
            # The sender's CURVE public key, as the handshake proved it and ZAP reported it.
            user = frames[1].get("User-Id")
        except zmq.ZMQError:
            user = None
        self.role.on_router(rid, msg, frames[1], user)

    # =========================================================================================
    # Joining, following and failover (the follower's role: net.follower)
    # =========================================================================================
    async def join(self, host: str, port: int, timeout: float = 10.0) -> None:
        """Connect to a game's sequencer; returns once welcomed (raises PeerError if refused)."""
        if self.cfg.code is not None and identity.normalize_code(self.cfg.code) is None:
            raise PeerError(f"{self.cfg.code!r} is not a join code (XXXX-XXXX-XXXX)")
        if self.cfg.role == "play" and self.cfg.log_path and os.path.exists(self.cfg.log_path):
            self.open_log(self.cfg.log_path)
        key = await self._host_key(host, port, timeout)
        self.start_join(host, port, key, timeout)
        try:
            await asyncio.wait_for(self._welcome_evt.wait(), timeout + 1)
        except asyncio.TimeoutError:
            raise PeerError(f"no answer from {host}:{port}") from None
        if self._refused:
            raise PeerError(self._refused)

    def start_join(self, host: str, port: int, key: str, timeout: float = 10.0) -> None:
        """The synchronous part of :meth:`join`, once the host's key is known and checked: start
        the loops, connect, say hello.  The answer comes later (``welcome`` or ``refuse``)."""
        self._spawn()
        self.follower.connect(host, port, None, timeout, key)

    async def _host_key(self, host: str, port: int, timeout: float) -> str:
        """The public key of the peer we join at host:port, checked: ``cfg.server_key``; else the
        key service's answer if it is a key we know (our log's roster, known keys), matches the join
        code's tag, or (no code given) the host is this machine.  Otherwise PeerError."""
        if self.cfg.server_key is not None:
            if not identity.valid_public(self.cfg.server_key):
                raise PeerError("the server key is not a CURVE public key (40 Z85 characters)")
            return self.cfg.server_key
        try:
            key = await transport.fetch_key(host, port, timeout)
        except transport.KeyServiceError as e:
            raise PeerError(str(e)) from None
        if not identity.valid_public(key):
            raise PeerError(f"{host}:{port + 1} sent a bad key")
        if key in self._trusted_keys():
            return key
        if self.cfg.code is not None:
            if identity.code_matches_key(self.cfg.code, key):
                return key
            raise PeerError("the host's key does not match the join code: check the code (or someone "
                            "between you and the host answers in its place)")
        if transport.is_loopback(host):
            log.info("trusting the key of %s:%d on this machine", host, port)
            return key
        raise PeerError(f"cannot check the key of {host}:{port}: give the join code the host shows (--code)")

    def _trusted_keys(self) -> set[str]:
        keys = {i.pub for i in self.seats if i.kind == "peer"}
        if self.header is not None:
            keys |= {pub for _, pub, kind in self.header.roster if kind == "peer"}
        if self.cfg.known_keys_path:
            keys |= identity.known_keys(self.cfg.known_keys_path)
        keys.discard(self.pub)
        return {k for k in keys if identity.valid_public(k)}

    def key_of(self, seat: int | None) -> str | None:
        """The public key of a peer seat, from the last lobby or else the log's roster."""
        if seat is None:
            return None
        if seat < len(self.seats) and self.seats[seat].kind == "peer" and identity.valid_public(self.seats[seat].pub):
            return self.seats[seat].pub
        if self.header is not None and seat < len(self.header.roster):
            _, pub, kind = self.header.roster[seat]
            if kind == "peer" and identity.valid_public(pub):
                return pub
        return self.election.seat_keys.get(seat)

    def remember_keys(self, keys) -> None:
        if self.cfg.known_keys_path:
            try:
                identity.remember_keys(self.cfg.known_keys_path, [k for k in keys if k and k != self.pub])
            except OSError as e:
                log.warning("could not remember peer keys: %s", e)

    def promise(self) -> int:
        """The highest epoch we followed or sequenced in: we follow no sequencer of a lower one."""
        return max(self.epoch, self.log.promise if self.log is not None else 0)

    def promise_sig(self, epoch: int) -> bytes | None:
        """Our signature of the promise ``epoch`` in this game (net.signing; the certificate of a
        reign is a quorum of them); None before we know the game, or for no promise (0)."""
        if not self.game or epoch <= 0:
            return None
        if self._promise_sig[0] != (self.game, epoch):
            self._promise_sig = ((self.game, epoch), self.signer.sign_promise(self.game, epoch))
        return self._promise_sig[1]

    def schedule_sync(self) -> None:
        """Sync the log in a later callback (net.transport.ZmqRuntime.sync_soon), once for all
        that is appended meanwhile: the sequencer's entries are sent, a follower's applied, first."""
        if not self._sync_scheduled:
            self._sync_scheduled = True
            self.rt.sync_soon(self._sync_later)

    def _sync_later(self) -> None:
        self._sync_scheduled = False
        if self.log is not None and not self._shut:
            self.log.sync()

    # -- follower timers and failover -----------------------------------------------------------

    def _await_end(self, now: float) -> None:
        """A peer whose applied state is over and that is not the live sequencer waits a bounded
        time for ``end`` (sent at most ENDING_S after the last entry), then ends by itself: the
        game has a winner and no entry can follow, so whether it was cut off, is looking for a
        new sequencer or sequences without a quorum, there is nothing left to wait for."""
        if not (self.phase == "game" or self.restarted_over()) or self.state is None \
                or (self.leader and self.sequencer.live) or not port.is_over(self.state):
            self._over_since = None
            return
        if self._over_since is None:
            self._over_since = now
        elif now - self._over_since > ENDING_S + self.cfg.dead_s:
            if self.follower.unreported and self.log is not None:
                self.log.sync()  # what it applied is durable before it stops
            self.notice("closed", None, f"the game is over after {self.seq} entries (no end heard)")
            self._welcome_evt.set()  # a join waiting for an answer returns: the game is over
            self.finish("ended")

    def restarted_over(self) -> bool:
        """Restarted from our own log, never welcomed since, and the logged game is over: whoever
        we ask may have ended and follow nobody (or point back at us), so nobody need answer; we
        go on saying hello while _await_end waits its bounded time, then end (no refusal)."""
        return self.phase == "idle" and self.header is not None and port.is_over(self.state)

    def elect(self) -> None:
        """Sequence, or follow the seat net.election.Election.candidates names first."""
        cands = self.election.candidates(self.seats, self.seat, self.cfg.role == "play")
        if not cands:
            self.notice("closed", None, "no player is left to host the game")
            return self.finish("closed")
        c = cands[0]
        if c == self.seat:
            expect = {s for s in cands if s != self.seat}
            self._become_leader(expect, self.cfg.settle_s)
            self.sequencer.broadcast_lobby()
            return
        info = self.seats[c]
        log.info("following seat %d as the new sequencer at %s:%d", c, info.host, info.port)
        self.follower.connect(info.host, info.port, c, self.cfg.dead_s * 2)

    def connect_dealer(self, host: str, port: int, key: str) -> None:
        """Our DEALER (the follower's) to the peer at host:port whose public key is ``key``, in
        place of the one we had; what it receives goes to ``follower.on_dealer``."""
        if self._dealer_task is not None:
            self._dealer_task.cancel()
        self.rt.close(self.dealer)
        self.dealer_key = key
        self.dealer = dealer = self.rt.dealer(host, port, self._public, self._secret, key.encode("ascii"))
        self._dealer_task = self.rt.listen(dealer, lambda frames: self._from_dealer(dealer, frames))

    def _dealer_lost(self) -> None:
        if self._dealer_task is not None:
            self._dealer_task.cancel()
            self._dealer_task = None
        self.rt.close(self.dealer)
        self.dealer = None

    # =========================================================================================
    # Loops
    # =========================================================================================
    # (The runtime runs them: net.transport.ZmqRuntime, net.sim.SimRuntime.)
    def _from_router(self, frames) -> None:
        self._guarded(self._on_router, frames)

    def _from_dealer(self, sock, frames) -> bool:
        """A message on DEALER ``sock``; False once that is no longer our DEALER (stop serving it)."""
        if sock is not self.dealer:
            return False
        self._guarded(self.follower.on_dealer, frames)
        return True

    def _guarded(self, fn, frames) -> None:
        try:
            fn(frames)
        except wire.Malformed as e:
            self.drops.drop("message", str(e))
        except Exception as e:
            # A message that passed the schema but broke a deeper assumption: drop it, loudly.
            log.exception("handler failed")
            self.drops.drop("message", f"{type(e).__name__}: {e}")

    def _tick(self, now: float) -> None:
        """The timers: every 50 ms (``now``: the runtime's clock)."""
        try:
            self._await_end(now)
            self.role.tick(now)
        except Exception:
            log.exception("timer failed")

