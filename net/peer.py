"""A peer: one process's part of a LAN game (DESIGN "Networking contract"; docs/net.md).

Every peer holds the game state, applies the shared action log strictly in order and persists it
(net.gamelog).  One peer is the *sequencer* (leader): it owns the lobby, runs the seed
commit-reveal, validates proposals with the engine, numbers them, makes them durable and sends them
to everyone.  The others are *followers*: a DEALER connected to the leader's ROUTER.  Every peer
also binds a ROUTER of its own so that it can take over as sequencer.

The roles are objects that own their own fields: the sequencer's is net.sequencer.Sequencer
(``Peer.sequencer``, kept across reigns); while this peer sequences, ``Peer.role`` is it and it
handles what reaches the ROUTER, and becoming sequencer or stepping down swaps ``role`` (there is
no ``leader`` flag to keep in step: ``Peer.leader`` is ``role is sequencer``).  ``Peer`` is the
facade the client and the CLIs use.

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
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable

import zmq

from mq.cards import load_default
from mq.rules import Action, IllegalAction, make_params
from mq.rules import codec as state_codec
from mq.rules.actions import encode as encode_action
from mq.rules.state import COLOURS
from mq.table import Applied, Notice
from net import (
    admission,
    catchup,
    desync,
    gamelog,
    identity,
    options,
    port,
    replica,
    seeding,
    transport,
    wire,
)
from net.election import next_epoch
from net.seats import SeatInfo
from net.sequencer import ENDING_S, Sequencer
from net.wire import PROTOCOL

log = logging.getLogger("mq.net")


# A joiner that hears nothing from the host in the lobby says hello again for this long before it
# gives up (there is no failover before the game starts).
LOBBY_PATIENCE_S = 15.0
CHAT_KEPT = 100  # chat lines every peer keeps, and the sequencer gives a peer that (re)joins the game


@dataclass
class Config:
    """How a peer behaves.  Times are seconds."""

    name: str = "player"
    key: str = ""  # identity: the CURVE secret key as hex (net.identity); a fresh one if empty
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
        self._public, self._secret = identity.keypair(self.key)
        self.cards = load_default()
        self.inc = rt.random(8)  # this process's incarnation: proposal ids are (inc, counter)
        self._pid = 0
        # Dropped input is counted; a sender is reported once a minute at most (log and notice).
        self.drops = wire.Counters(clock=rt.now, report=lambda text: self._notice("info", None, text))
        self.router: Any
        self.port: int
        self.router, self.port = rt.router(cfg.bind, cfg.port, self._public, self._secret)
        self._server_key: str | None = None  # follower: the key of the peer the DEALER talks to
        self.dealer: Any = None
        self._dealer_task: asyncio.Task | None = None
        self._tasks: list[asyncio.Task] = []
        self._listeners: list[Callable] = []
        self.chat_kept: deque[tuple[int | None, str]] = deque(maxlen=CHAT_KEPT)  # for players who rejoin
        # Taking the chat so far (``notice`` with ``past``): from a welcome, while this peer has no
        # chat yet, until the sequencer sends anything but the header or more of it.
        self._taking_past = False
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
        # The roles: the sequencer's part (net.sequencer) is the object that handles what reaches our
        # ROUTER while ``role`` is it; otherwise this peer follows, or looks for, a sequencer.
        self.sequencer = Sequencer(self)
        self.role: Sequencer | None = None
        self._stepped_down = False  # looking for the sequencer after giving up sequencing
        # follower-only
        self._connecting = False
        self._connect_deadline = 0.0
        self._candidate: int | None = None
        self._last_hello = 0.0
        self._welcomed = False
        self._lobby_retry = False  # saying hello again after the host went silent in the lobby
        self._last_heard = 0.0
        self._last_ping = 0.0
        self.catchup = catchup.CatchUp()  # entries ahead of our log, the head, the last fetch
        self._dead: set[int] = set()
        self._addrs: dict[int, tuple[str, int]] = {}  # where we reached each sequencer we followed
        self._seat_keys: dict[int, str] = {}  # and its public key
        self._retry_hint: int | None = None
        self._target: tuple[str, int] = ("", 0)
        self._pledge: seeding.Pledge | None = None  # our part in the seed exchange (not sequencing)
        self._end_seq: int | None = None
        self._over_since: float | None = None  # when a peer not sequencing saw the game over
        self._unreported: list[list] = []  # [seq, state hash] applied, for the next report
        self._sync_scheduled = False
        self._paused_at: float | None = None
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

    def _emit(self, item) -> None:
        for fn in list(self._listeners):
            try:
                fn(item)
            except Exception:  # a listener bug must not stop the game loop
                log.exception("listener failed")

    def _notice(self, kind: str, seat: int | None, text: str) -> None:
        log.info("[%s] %s", kind, text)
        self._emit(Notice(kind, seat, text))

    def _spawn(self) -> None:
        self._tasks = self.rt.start(self.router, self._from_router, self._tick, self._public)

    async def wait_finished(self, timeout: float | None = None) -> bool:
        try:
            await asyncio.wait_for(self._finished.wait(), timeout)
            return True
        except asyncio.TimeoutError:
            return False

    async def wait_started(self, timeout: float | None = None) -> bool:
        try:
            await asyncio.wait_for(self._started.wait(), timeout)
            return True
        except asyncio.TimeoutError:
            return False

    def _finish(self, phase: str) -> None:
        self.phase = phase
        self.ended_at = self.rt.perf()
        self._finished.set()

    async def close(self, linger_ms: int = 0) -> None:
        if self._shut:
            return
        self._shut = True
        if self._welcomed and not self.leader and self.dealer is not None:
            self._up({"t": "bye"})
        await self.rt.cancel(self._tasks + ([self._dealer_task] if self._dealer_task else []))
        if self.log is not None:
            self.log.close()
        await self.rt.aclose([self.dealer, self.router], linger_ms)
        was = self.phase
        if was not in ("ended", "desync"):
            self.phase = "closed"
            self._emit(Notice("closed", None, "left the table"))
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
        self._adopt_log(lg)

    def _adopt_log(self, lg: gamelog.GameLog) -> None:
        """Take a log we hold (our file, or what a rewind left of it): every entry re-applied
        through the one entry check (net.replica), or PeerError naming the first that fails (the
        log is closed, nothing in it changed)."""
        try:
            self.replica.adopt(lg)
        except replica.BadEntry as err:
            lg.close()
            raise PeerError(f"{lg.path}: {err}") from None
        self.game = self.header.game
        self.catchup.heard(self.seq)
        if self.seat is None and self.cfg.role == "play":
            self.seat = self._seat_of(self.pub)

    @property
    def _me(self) -> int:
        """Our seat, where only a player's peer gets (sequencing, looking for the game as a player)."""
        assert self.seat is not None, "a spectator has no seat"
        return self.seat

    def _seat_of(self, pub: str) -> int | None:
        if self.header is None:
            return None
        for i, (_, p, kind) in enumerate(self.header.roster):
            if kind == "peer" and p == pub:
                return i
        return None

    def _log_path(self) -> str:
        if self.cfg.log_path:
            return self.cfg.log_path
        path = identity.log_path(self.game)
        # A spectator on a player's machine must not overwrite that player's log.
        return path.replace(".mqlog", ".watch.mqlog") if self.cfg.role == "watch" else path

    def _start_from_header(self, header: gamelog.Header) -> None:
        """A fresh log with this header, and the game's first state."""
        lg = gamelog.GameLog.create(self._log_path())
        lg.write_header(header)
        lg.sync()
        lg.raise_promise(self.epoch)
        self.replica.start(lg)
        self.game = header.game
        self.phase = "game"
        self.started_at = self.rt.perf()
        self._note_addresses()
        self._started.set()
        self._notice("info", None, f"the game starts: seed {header.seed:016x}, game {header.game.hex()}")

    def _take(self, e: gamelog.Entry) -> None:
        """Check and apply the next entry (net.replica.apply_entry), log it and commit it; raises
        replica.BadEntry, with nothing changed, if it does not check out.  Used by followers and by
        a new sequencer adopting entries from another peer's log."""
        self._committed(e, self.replica.take(e))

    def _committed(self, e: gamelog.Entry, applied: Applied) -> None:
        """The replica took entry ``e``: answer our own proposal, tell the listeners."""
        self.catchup.heard(e.n)
        self._counts["applied"] += 1
        if e.pid is not None and e.pid[0] == self.inc and e.author == self.seat:
            self.outstanding.pop(e.pid[1], None)
            sent = self._sent_at.pop(e.pid[1], None)
            if sent is not None and not self.leader:
                self.commit_ms.append((self.rt.perf() - sent) * 1000)
        self._emit(applied)

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
            reason = self.sequencer.sequence(self.seat, (self.inc, pid), action)
            if reason is not None:
                self._sent_at.pop(pid, None)
                self._reject_local(pid, *reason)
            else:
                self.commit_ms.append((self.rt.perf() - now) * 1000)
            return pid
        self.outstanding[pid] = (action, now)
        if self._welcomed:
            self._up({"t": "propose", "pid": pid, "x": encode_action(action)})
        return pid

    def _reject_local(self, pid: int, reason: str, detail: str) -> None:
        self.outstanding.pop(pid, None)
        self._counts["rejected"] += 1
        self._emit(("reject", pid, reason, detail))

    def say(self, text: str) -> None:
        text = str(text)[:wire.MAX_TEXT]
        if self.leader:
            self.sequencer.chat(self.seat, text)
        elif self._welcomed:
            self._up({"t": "say", "text": text})

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
            self.opts = options.with_gender(self.opts, self._me, gender)
            self.sequencer.broadcast_lobby()
        elif self._welcomed:
            self._up({"t": "gender", "gender": gender})

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
        return self._welcomed

    @property
    def connecting(self) -> bool:
        """This peer says hello to a peer and waits for its answer."""
        return self._connecting

    @property
    def candidate(self) -> int | None:
        """The seat this peer last connected to as a candidate sequencer (None: an address given)."""
        return self._candidate

    @property
    def refusal(self) -> str | None:
        """Why joining failed or the game was given up, in words; None if it did not."""
        return self._refused

    def my_turn(self) -> bool:
        return (self.phase == "game" and self.seat is not None and self.state is not None
                and self.seat in port.actors(self.state))

    # =========================================================================================
    # Leader
    # =========================================================================================
    async def host(self, seats: int, bots: int = 0, window_ms: int = 10_000, away: str = "wait",
                   away_s: int = 60, start: int = 3) -> None:
        """Open a lobby as sequencer on seat 0; the last ``bots`` seats are bots; ``start``: the
        starting hand (Q-OPT-3); the host's gender is ``cfg.gender`` (Q-SETUP-3)."""
        self.opts = options.with_gender(options.make(seats, window_ms, away, away_s, start), 0, self.cfg.gender)
        if not 0 <= bots < seats:
            raise PeerError("bots must leave seat 0 for the host")
        self._setup_admission()
        self.game = self.rt.random(8)
        self.seats = [SeatInfo() for _ in range(seats)]
        # Cut as the CLIs do: a longer name breaks the lobby's schema and every joiner would drop it.
        self.seats[0] = SeatInfo(self.cfg.name[:wire.MAX_NAME], "peer", self.pub, self.cfg.bind, self.port)
        for s in range(seats - bots, seats):
            self.seats[s] = SeatInfo(f"bot-{COLOURS[s]}", "bot")
        self.seat = 0
        self.role, self.leader_seat, self.sequencer.live = self.sequencer, 0, True
        self.epoch = next_epoch(0, 0)  # the first reign: nobody can have promised a later one
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
        self.seats = [SeatInfo(name, kind, pub, away=(kind == "peer"))
                      for name, pub, kind in self.header.roster]
        for s, addr in enumerate(self._noted_addresses()):
            if addr is not None and self.seats[s].kind == "peer":
                self.seats[s].host, self.seats[s].port = addr
        self.seats[self._me] = SeatInfo(self.cfg.name[:wire.MAX_NAME] or self.seats[self._me].name, "peer",
                                         self.pub, self.cfg.bind, self.port)

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

    def _note_addresses(self) -> None:
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

    def _adrift(self) -> bool:
        """A player of a started game that neither sequences nor follows anyone: restarted and not
        welcomed yet, or looking for the game after stepping down."""
        return (not self.leader and not self._welcomed and self.header is not None and self.seat is not None
                and self.cfg.role == "play" and self.phase not in ("ended", "desync", "closed")
                and (self._stepped_down or self._candidate is None))

    def _rendezvous(self) -> None:
        """Two adrift peers met (a hello, or a retry naming nobody): the lower seat sequences, so
        peers that all restarted, or all stepped down, find each other (docs/net.md, "Failover")."""
        log.info("seat %d: another player follows nobody either: sequencing", self.seat)
        if not self.seats:
            self._table_from_log()
        if self.phase == "idle":  # restarted from our log, never welcomed: the game goes on
            self.phase = "game"
            self._started.set()
        self._stepped_down = False
        self._become_leader({s for s in self._peer_seats() if s != self.seat}, self.cfg.settle_s)

    def _become_leader(self, expect: set[int], settle: float) -> None:
        """Sequence, in a new epoch: the sequencer becomes our role and reconciles (not live yet)."""
        self.role, self.leader_seat = self.sequencer, self.seat
        self.epoch = next_epoch(max(self.epoch, self.log.promise, self.log.last_epoch), self._me)
        self.log.raise_promise(self.epoch)
        self.catchup.buffer.clear()
        self.sequencer.begin(expect, settle)
        self.seats[self._me].away = False
        self.seats[self._me].host, self.seats[self._me].port = self.cfg.bind, self.port
        self._dealer_lost()
        self._welcomed = False
        self._connecting = False
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

    def _new_nonce(self) -> bytes:
        return seeding.new_nonce(self.rt.random, self.cfg.local_seed, self.seat)


    # -- connections ----------------------------------------------------------------------------


    def _who(self, seat: int | None) -> str:
        if seat is None or seat < 0:
            return "the table"
        name = self.seats[seat].name if seat < len(self.seats) else ""
        return f"{name} ({COLOURS[seat]})" if name else COLOURS[seat]


    # -- sequencing -----------------------------------------------------------------------------


    # -- hashes, desync -------------------------------------------------------------------------


    def _on_desync(self, msg: dict) -> None:
        """Every peer (leader included) writes its own report and stops."""
        n = msg["seq"]
        peers = []
        for item in msg["hashes"]:
            if type(item) is list and len(item) == 2 and wire.AUTHOR(item[0]) and wire.U64(item[1]):
                s = item[0]
                peers.append({"seat": s, "name": self._who(s), "hash": f"{item[1]:016x}"})
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
        self._notice("desync", None, f"desync after entry {n}: first difference at {msg['path']} "
                                     f"(report: {self.report_file})")
        self._finish("desync")

    # -- leader timers --------------------------------------------------------------------------

    # -- quorum (docs/net.md, "Quorum") ----------------------------------------------------------
    def _peer_seats(self) -> list[int]:
        if self.header is not None:
            return [s for s, (_, _, kind) in enumerate(self.header.roster) if kind == "peer"]
        return [s for s, i in enumerate(self.seats) if i.kind == "peer"]


    def _step_down(self) -> None:
        """No quorum for a while: the others follow another sequencer, or most are gone.  Stop
        sequencing and look for the game as a follower (the lowest other seat we can reach)."""
        log.warning("no quorum for %.1f s: seat %s stops sequencing", 2 * self.cfg.dead_s, self.seat)
        self._notice("info", self.seat, "too few players are reachable: looking for the game's host")
        self.role, self.leader_seat = None, None
        self.sequencer.stand_down()
        self._dead = {self._me}
        self._last_heard = self.rt.now()
        self._stepped_down = True
        self._elect()


    # -- leader I/O -----------------------------------------------------------------------------
    def _to(self, rid: bytes, msg: dict) -> None:
        if not self.rt.send(self.router, [rid, wire.pack(msg)]):
            log.debug("could not send %s to %r", msg.get("t"), rid)


    def _on_router(self, frames: list) -> None:
        """One message on this peer's ROUTER: the sequencer's, while it is our role; otherwise only
        a hello is answered (where the sequencer we follow is, or: two adrift peers meet)."""
        if len(frames) != 2:
            return self.drops.drop("frame", f"{len(frames)} frames")
        rid = frames[0].bytes
        try:
            msg = wire.unpack(frames[1].bytes)
        except wire.Malformed as e:
            return self.drops.drop("message", str(e), transport.peer_address(frames[1]))
        t = msg["t"]
        try:
            # The sender's CURVE public key, as the handshake proved it and ZAP reported it.
            user = frames[1].get("User-Id")
        except zmq.ZMQError:
            user = None
        if not self.leader:
            if t != "hello":
                return
            asker = self._seat_of(user) if user else None
            if asker is None or asker == self.seat or msg.get("game") != self.game or not self._adrift():
                # Not (yet) the sequencer: point the asker at the one we follow.
                where = list(self._addrs[self.leader_seat]) if self.leader_seat in self._addrs else None
                return self._to(rid, {"t": "retry", "leader": self.leader_seat, "addr": where,
                                      "key": self._server_key if self._welcomed else None})
            if asker < self._me:  # it follows nobody either, and the lower seat sequences
                return self._to(rid, {"t": "retry", "leader": None, "from": self.seat})
            self._rendezvous()  # then answer its hello as the sequencer
        self.sequencer.on_router(rid, msg, frames[1], user)

    # =========================================================================================
    # Follower
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
        self._connect(host, port, None, timeout, key)

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

    def _key_of(self, seat: int | None) -> str | None:
        """The public key of a peer seat, from the last lobby or else the log's roster."""
        if seat is None:
            return None
        if seat < len(self.seats) and self.seats[seat].kind == "peer" and identity.valid_public(self.seats[seat].pub):
            return self.seats[seat].pub
        if self.header is not None and seat < len(self.header.roster):
            _, pub, kind = self.header.roster[seat]
            if kind == "peer" and identity.valid_public(pub):
                return pub
        return self._seat_keys.get(seat)

    def _remember(self, keys) -> None:
        if self.cfg.known_keys_path:
            try:
                identity.remember_keys(self.cfg.known_keys_path, [k for k in keys if k and k != self.pub])
            except OSError as e:
                log.warning("could not remember peer keys: %s", e)

    def _connect(self, host: str, port: int, seat: int | None, timeout: float, key: str | None = None) -> None:
        """Connect the DEALER to the peer at host:port, whose public key is ``key`` (default: the
        key of ``seat`` as we know it).  Without a key there is nothing to connect to: the
        candidate counts as dead."""
        key = key or self._key_of(seat)
        if key is None:
            log.error("no public key known for seat %s at %s:%d", seat, host, port)
            if seat is not None and self.header is not None:
                self._dead.add(seat)
                return self._elect()
            self._refused = self._refused or f"no public key known for {host}:{port}"
            self._welcome_evt.set()
            return self._finish("closed")
        if self._dealer_task is not None:
            self._dealer_task.cancel()
        self.rt.close(self.dealer)
        self._server_key = key
        self.dealer = dealer = self.rt.dealer(host, port, self._public, self._secret, key.encode("ascii"))
        self._dealer_task = self.rt.listen(dealer, lambda frames: self._from_dealer(dealer, frames))
        self._connecting, self._welcomed = True, False
        self._candidate = seat
        self._retry_hint = None
        self._target = (host, port)
        self._connect_deadline = self.rt.now() + timeout
        self._last_hello = 0.0
        self.catchup.buffer.clear()
        self._send_hello()

    def _send_hello(self) -> None:
        self._last_hello = self.rt.now()
        tail = []
        if self.log is not None and self.seq:
            # The last 16 entries, then exponentially sparser back to 1: enough for the sequencer
            # to find where two logs part, in one message.
            seqs = sorted({self.seq - i for i in range(16)} | {self.seq - 16 - (1 << k) for k in range(40)})
            tail = [[n, self.log.id_at(n)] for n in seqs if n >= 1]
        msg = {"t": "hello", "v": PROTOCOL, "id": self.pub, "name": self.cfg.name[:wire.MAX_NAME],
               "role": self.cfg.role, "inc": self.inc, "port": self.port, "last": self.seq,
               "tail": tail, "game": self.game or None, "epoch": self._promise(),
               "lep": self.log.last_epoch if self.log is not None else 0, "gender": self.cfg.gender}
        if self.admission.secret is not None:
            msg["code"] = self.admission.secret  # inside the CURVE channel, to a key we checked
        self._up(msg)

    def _promise(self) -> int:
        """The highest epoch we followed or sequenced in: we follow no sequencer of a lower one."""
        return max(self.epoch, self.log.promise if self.log is not None else 0)

    def _ping(self) -> None:
        self._last_ping = self.rt.now()
        self._report()
        self._up({"t": "ping", "seq": self.seq, "epoch": self._promise()})

    def _up(self, msg: dict) -> bool:
        return self.dealer is not None and self.rt.send(self.dealer, [wire.pack(msg)])

    def _on_dealer(self, frames: list) -> None:
        if self.phase == "closed":
            # We gave up on this game (refused, or our log of it did not check out): take nothing
            # more, above all no header that would start a fresh log over the one we refused.
            return
        if len(frames) != 1:
            return self.drops.drop("frame", f"{len(frames)} frames", "sequencer")
        try:
            msg = wire.unpack(frames[0].bytes)
        except wire.Malformed as e:
            return self.drops.drop("message", str(e), "sequencer")
        self._last_heard = self.rt.now()
        t = msg["t"]
        if t not in ("welcome", "header", "end") and not (t == "notice" and msg.get("past")):
            self._taking_past = False
        try:
            handler = getattr(self, "_f_" + t)
        except AttributeError:
            return self.drops.drop(t, "not for a follower", "sequencer")
        try:
            handler(msg)
        except wire.Malformed as e:
            self.drops.drop(t, str(e), "sequencer")

    def _f_welcome(self, msg: dict) -> None:
        if msg["v"] != PROTOCOL:
            self._refused = f"the host speaks protocol {msg['v']}"
            self._welcome_evt.set()
            return self._finish("closed")
        if self.game and msg["game"] != self.game:
            return self.drops.drop("welcome", "another game", "sequencer")
        if msg["epoch"] < self._promise():
            # A sequencer of an older reign than one we followed (it missed a failover): our hello
            # tells it our promise, and it takes a later epoch before it welcomes us again.
            log.info("the sequencer's epoch %d is older than our promise %d", msg["epoch"], self._promise())
            return self._send_hello()
        self._taking_past = not self.chat_kept
        self.game = msg["game"]
        self.seat = msg["seat"]
        self.leader_seat = msg["leader"]
        if type(msg.get("opts")) is dict:
            self.opts = msg["opts"]
        self._connecting, self._welcomed = False, True
        self._stepped_down = self._lobby_retry = False
        self._dead.discard(self.leader_seat)
        self._dead.discard(self.seat)  # after a step-down: we may be elected again later
        self._addrs[self.leader_seat] = self._target
        if self._server_key is not None:
            self._seat_keys[self.leader_seat] = self._server_key
        self._remember([self._server_key])
        if self.log is None and self.cfg.role == "play":
            path = self._log_path()
            if os.path.exists(path):
                # We have played this game before: load our log and say hello again with it.
                try:
                    self.open_log(path)
                except PeerError as e:
                    self._refused = f"cannot use {path}: {e}"
                    self._welcome_evt.set()
                    return self._finish("closed")
                self._welcomed = False
                self._connecting = True
                return self._send_hello()
        self.epoch = msg["epoch"]
        if self.log is not None:
            self.log.raise_promise(self.epoch)
        rewind = msg["rewind"]
        if rewind >= 0 and self.log is not None and rewind < self.seq:
            log.warning("the sequencer's log differs after entry %d: rewinding from %d", rewind, self.seq)
            self.log.truncate_after(rewind)
            lg, self.log = self.log, None
            self._adopt_log(lg)
            self._notice("info", self.seat, f"rewound to entry {rewind} to follow the host")
        self._ping()  # tells the sequencer our promise (it goes live once a quorum has promised)
        self._welcome_evt.set()
        if self.header is not None:
            self._started.set()
            self.phase = "game" if self.phase not in ("ended", "desync") else self.phase
            self._fetch(force=True)
        for pid, (action, _) in sorted(self.outstanding.items()):
            self._up({"t": "propose", "pid": pid, "x": encode_action(action)})
        log.info("welcomed as %s by seat %s", "spectator" if self.seat is None else f"seat {self.seat}",
                 self.leader_seat)

    def _f_refuse(self, msg: dict) -> None:
        self._refused = f"refused ({msg['reason']}): {msg['text']}"
        log.error("%s", self._refused)
        self._welcome_evt.set()
        self._finish("closed")

    def _f_retry(self, msg: dict) -> None:
        """The peer we asked is not the sequencer; it names the one it follows."""
        hint = msg["leader"]
        if hint is None and type(msg.get("from")) is int and self._adrift() and self.seat < msg["from"]:
            return self._rendezvous()  # the peer we asked follows nobody either, and is a higher seat
        if hint is None or hint == self._candidate or hint == self.seat or not 0 <= hint < wire.MAX_SEATS:
            return
        if hint in self._dead:
            # It still hears the sequencer we lost.  Give it until our deadline to notice; if it
            # still does then, we were the one cut off, and we go back (see _follower_timers).
            self._retry_hint = hint
            return
        addr = self._addrs.get(hint)
        given = msg.get("addr")
        if addr is None and type(given) is list and len(given) == 2 and type(given[0]) is str \
                and len(given[0]) <= 64 and type(given[1]) is int and 0 < given[1] < 65536:
            addr = (given[0], given[1])
        if addr is None and hint < len(self.seats) and self.seats[hint].port:
            addr = (self.seats[hint].host, self.seats[hint].port)
        # Its key: as we know it (lobby, our log), else as the peer we asked (whose key we checked)
        # knows it.
        key = self._key_of(hint)
        if key is None and identity.valid_public(msg.get("key")):
            key = msg["key"]
        if addr is not None and key is not None:
            self._connect(addr[0], addr[1], hint, self.cfg.dead_s * 2, key)

    def _f_who(self, msg: dict) -> None:
        self._hello_again()

    def _hello_again(self) -> None:
        """Say hello again to the peer we follow (it lost our connection, or our logs part)."""
        self._welcomed, self._connecting = False, True
        self._connect_deadline = self.rt.now() + self.cfg.dead_s * 2
        self._send_hello()

    def _f_lobby(self, msg: dict) -> None:
        seats = [SeatInfo.from_wire(d) for d in msg["seats"]]
        self.seats = seats
        self.opts = msg["opts"]
        self.leader_seat = msg["leader"]
        self._note_addresses()
        self._emit(("lobby", seats, dict(self.opts)))

    def _f_commit_req(self, msg: dict) -> None:
        if self.phase not in ("idle", "lobby"):  # a replayed or stray request must not restart the seeding
            raise wire.Malformed("commit_req: not in the lobby")
        try:
            params = state_codec.decode(msg["params"])
            make_params(params.players, params.genders, params.start_treasure, params.window_ms,
                        params.away, params.away_s)
        except Exception:
            raise wire.Malformed("commit_req: bad params") from None
        self.phase = "seeding"
        self._pledge = seeding.Pledge(self._new_nonce())
        self._up({"t": "commit", "h": seeding.commitment(self._pledge.nonce)})

    def _f_commits(self, msg: dict) -> None:
        if self._pledge is None:
            raise wire.Malformed("commits: unexpected")
        self._pledge.shown(msg["hs"])
        self._up({"t": "reveal", "nonce": self._pledge.nonce})

    def _f_header(self, msg: dict) -> None:
        header = gamelog.decode_header(msg["rec"])
        if header.game != self.game:
            raise wire.Malformed("header of another game")
        if self.header is not None:
            if header.id != self.header.id:
                self._notice("info", None, "the host's game header differs from our log")
            return
        if self._pledge is not None:
            self._pledge.check(header)  # the nonces are the ones committed to, ours among them
        self._start_from_header(header)
        if self.seat is None and self.cfg.role == "play":
            self.seat = self._seat_of(self.pub)
        self._remember(pub for _, pub, kind in header.roster if kind == "peer")
        self._fetch(force=True)

    def _f_entries(self, msg: dict) -> None:
        if self.log is None:
            raise wire.Malformed("entries before the header")
        for raw in msg["recs"]:
            if type(raw) is not bytes:
                raise wire.Malformed("entries: not bytes")
            e = gamelog.decode_entry(raw)
            self.catchup.offer(e, self.seq)
        if len(msg["recs"]) >= catchup.FETCH_BATCH:
            self.catchup.full_batch(e.n)
        self._drain()

    def _drain(self) -> None:
        """Apply buffered entries in order; sync; report hashes; fetch what is missing."""
        if self.phase not in ("game",):
            return
        hs = []
        while (e := self.catchup.next(self.seq)) is not None:
            if e.prev != self.log.last_id:
                # Our log parts from the sequencer's before this entry (a rewind it sent us was
                # lost, or entries of another reign were buffered): say hello again, so that it
                # tells us where to rewind to.
                log.warning("entry %d does not chain to our entry %d: asking the sequencer again", e.n, self.seq)
                self.catchup.buffer.clear()
                self._hello_again()
                break
            try:
                self._take(e)
            except replica.HashMismatch as err:
                # Our state after it differs from the sequencer's: keep ours (logged and applied),
                # so that the sequencer's search can walk it, report it and stop.
                self.replica.keep(e, err.applied)
                self._committed(e, err.applied)
                log.error("%s", err)
                hs.append([e.n, port.hash(self.state), e.id])
                self._pause_self(e.n, str(err))
                break
            except replica.BadEntry as err:  # not applied at all
                log.error("%s", err)
                hs.append([e.n, 0, e.id])
                self._pause_self(e.n, str(err))
                break
            hs.append([e.n, port.hash(self.state), e.id])
            if self.cfg.perturb and self.cfg.perturb[0] == e.n:
                # Test-only (MQ_TEST_PERTURB): after reporting an honest hash for entry n, make this
                # peer's state disagree, so the next entry must be caught.
                self.state = desync.perturbed(self.state, self.cfg.perturb[1])
                log.warning("TEST: perturbed %s after entry %d", self.cfg.perturb[1], e.n)
        if hs:
            # Sync in a later callback: a bot woken by these entries proposes first, so the
            # fdatasync is not on the path of the next move.  The hashes go to the sequencer with
            # the next ping, not one message per entry: we compared each with the sequencer's own
            # (carried in the entry) already, so its check is a second one and can wait ping_s;
            # a mismatch is reported at once.
            self._unreported.extend(hs)
            if self.phase == "paused":
                self._report()
            else:
                self._schedule_sync()
        if self._end_seq is not None and self.seq >= self._end_seq:
            self._end_seq = None
            self._notice("closed", None, f"the game is over after {self.seq} entries")
            self._finish("ended")
        elif self.phase == "game":
            self._fetch()

    def _schedule_sync(self) -> None:
        """Sync the log in a later callback (net.transport.ZmqRuntime.sync_soon), once for all
        that is appended meanwhile: the sequencer's entries are sent, a follower's applied, first."""
        if not self._sync_scheduled:
            self._sync_scheduled = True
            self.rt.sync_soon(self._sync_later)

    def _sync_later(self) -> None:
        self._sync_scheduled = False
        if self.log is not None and not self._shut:
            self.log.sync()

    def _report(self) -> None:
        """Send the hashes of the entries applied since the last report (synced first: a report
        means durable)."""
        if self._unreported and self.log is not None and not self._shut:
            self.log.sync()
            hs, self._unreported = self._unreported, []
            for i in range(0, len(hs), 4000):  # wire.SCHEMAS: at most 4096 per report
                self._up({"t": "report", "hs": hs[i:i + 4000]})

    def _pause_self(self, n: int, problem: str) -> None:
        self.phase = "paused"
        self._paused_at = self.rt.now()
        self._notice("info", None, f"paused: {problem}")

    def _fetch(self, force: bool = False) -> None:
        if self._welcomed and self.catchup.should_fetch(self.seq, self.rt.now(), self.cfg.ping_s, force):
            self._up({"t": "fetch", "from": self.seq + 1})

    def _f_tick(self, msg: dict) -> None:
        self.catchup.heard(msg["head"])
        self._fetch()

    def _f_reject(self, msg: dict) -> None:
        pid = msg["pid"]
        if pid in self.outstanding:
            self.outstanding.pop(pid)
            self._sent_at.pop(pid, None)
            self._counts["rejected"] += 1
            self._emit(("reject", pid, msg["reason"], msg["detail"]))

    def _f_notice(self, msg: dict) -> None:
        if msg["kind"] not in ("away", "back", "bot", "chat", "info"):
            raise wire.Malformed("notice: unknown kind")
        if msg.get("past"):  # the chat so far: kept for Table.history, never news
            if msg["kind"] == "chat" and self._taking_past:
                self.chat_kept.append((msg["seat"], msg["text"]))
            return
        if msg["kind"] == "chat":
            self.chat_kept.append((msg["seat"], msg["text"]))
        self._emit(Notice(msg["kind"], msg["seat"], msg["text"]))

    def _f_pause(self, msg: dict) -> None:
        if self.phase == "game":
            self.phase = "paused"
            self._paused_at = self.rt.now()
            self._notice("info", None, f"the host paused the game at entry {msg['seq']} ({msg['reason']})")

    def _f_kids_req(self, msg: dict) -> None:
        st = self.ring.get(msg["seq"])
        if st is None or not all(type(i) is int for i in msg["path"]):
            ok, d = "missing", list[int]()
        else:
            ok, d = desync.kids(st, msg["path"])
        self._up({"t": "kids", "seq": msg["seq"], "path": msg["path"], "ok": ok, "d": d})

    def _f_desync(self, msg: dict) -> None:
        if self.phase != "desync":
            self._on_desync(msg)

    def _f_fetch_req(self, msg: dict) -> None:
        start = msg["from"]
        if self.log is not None:
            recs = catchup.records_from(self.log, start)
            self._up({"t": "entries", "recs": recs})

    def _f_end(self, msg: dict) -> None:
        if self.seq >= msg["seq"]:
            if self.phase == "game":
                self._notice("closed", None, f"the game is over after {self.seq} entries")
                self._finish("ended")
        else:
            self._end_seq = msg["seq"]
            self.catchup.heard(msg["seq"])
            self._fetch(force=True)

    # -- follower timers and failover -----------------------------------------------------------
    def _follower_timers(self, now: float) -> None:
        if self.phase in ("ended", "desync", "closed"):
            return
        if self._connecting:
            if now > self._connect_deadline and not self._restarted_over():
                if self.header is None or self._candidate is None:
                    if not self._welcome_evt.is_set():
                        self._refused = ("no answer from the host (not running there, or the secure "
                                         "handshake failed: a wrong host key, or refused)")
                        self._welcome_evt.set()
                    return self._finish("closed")
                back, self._retry_hint = self._retry_hint, None
                if back is not None and back in self._addrs:
                    self._dead.discard(back)
                    log.warning("seat %d still follows seat %d: going back to it", self._candidate, back)
                    return self._connect(*self._addrs[back], back, self.cfg.dead_s * 2)
                self._dead.add(self._candidate)
                return self._elect()
            if now - self._last_hello >= self.cfg.hello_s:
                self._send_hello()
            return
        if not self._welcomed:
            return
        if now - self._last_ping >= self.cfg.ping_s:
            self._ping()
        if now - self._last_heard > self.cfg.dead_s:
            return self._leader_lost()
        for pid, (action, sent) in list(self.outstanding.items()):
            if now - sent > self.cfg.resend_s:
                self.outstanding[pid] = (action, now)
                self._up({"t": "propose", "pid": pid, "x": encode_action(action)})
        if self.phase == "game":
            self._fetch()
        if self.phase == "paused" and self._paused_at is not None and now - self._paused_at > 5.0:
            self._paused_at = None
            n = self.seq
            e = self.log.entries[n - 1] if n else None
            self._on_desync({"seq": n, "hashes": [], "path": "unknown (the sequencer did not search)",
                             "entry": [e.n, e.author, e.action, e.hash] if e else []})

    def _await_end(self, now: float) -> None:
        """A peer whose applied state is over and that is not the live sequencer waits a bounded
        time for ``end`` (sent at most ENDING_S after the last entry), then ends by itself: the
        game has a winner and no entry can follow, so whether it was cut off, is looking for a
        new sequencer or sequences without a quorum, there is nothing left to wait for."""
        if not (self.phase == "game" or self._restarted_over()) or self.state is None \
                or (self.leader and self.sequencer.live) or not port.is_over(self.state):
            self._over_since = None
            return
        if self._over_since is None:
            self._over_since = now
        elif now - self._over_since > ENDING_S + self.cfg.dead_s:
            if self._unreported and self.log is not None:
                self.log.sync()  # what it applied is durable before it stops
            self._notice("closed", None, f"the game is over after {self.seq} entries (no end heard)")
            self._welcome_evt.set()  # a join waiting for an answer returns: the game is over
            self._finish("ended")

    def _restarted_over(self) -> bool:
        """Restarted from our own log, never welcomed since, and the logged game is over: whoever
        we ask may have ended and follow nobody (or point back at us), so nobody need answer; we
        go on saying hello while _await_end waits its bounded time, then end (no refusal)."""
        return self.phase == "idle" and self.header is not None and port.is_over(self.state)

    def _leader_lost(self) -> None:
        old = self.leader_seat
        self._welcomed = False
        if self.header is None and self.phase in ("idle", "lobby", "seeding") and not self._lobby_retry:
            # Before the game there is nobody to fail over to; a flaky link (a lost segment holds
            # the TCP stream up for longer than dead_s) is no reason to leave the lobby yet: say
            # hello again (the host gives the seat back to our key) for LOBBY_PATIENCE_S.
            self._lobby_retry = True
            self._notice("info", None, "the host is silent: trying again")
            self._connecting = True
            self._connect_deadline = self.rt.now() + LOBBY_PATIENCE_S
            return self._send_hello()
        if self.header is None or self.phase not in ("game", "paused"):
            self._refused = self._refused or "the host went away"
            self._notice("closed", None, "the host went away")
            return self._finish("closed")
        if old is not None:
            self._dead.add(old)
            if old < len(self.seats):
                self.seats[old].away = True
            self._notice("away", old, f"the host {self._who(old)} is gone")
        self._elect()

    def _elect(self) -> None:
        """Lowest live peer seat becomes sequencer (deterministic: everyone computes the same).
        A sequencer that stepped down (no quorum) tries every other peer seat, away or not."""
        cands = [s for s, i in enumerate(self.seats)
                 if i.kind == "peer" and s not in self._dead
                 and (s == self.seat or ((self._stepped_down or not i.away) and i.port))]
        if self._stepped_down:
            # The seats we had lost are the likeliest to be where the game went on: try them first.
            cands.sort(key=lambda s: (not self.seats[s].away, s))
        if not cands:
            if self.seat is not None and self.seat in self._dead and self.cfg.role == "play":
                # We stepped down and reached nobody: sequence again (live once a quorum is back).
                self._dead.clear()
                self._stepped_down = False
                cands = [self.seat]
            else:
                self._notice("closed", None, "no player is left to host the game")
                return self._finish("closed")
        c = cands[0]
        if c == self.seat:
            expect = {s for s in cands if s != self.seat}
            self._become_leader(expect, self.cfg.settle_s)
            self.sequencer.broadcast_lobby()
            return
        info = self.seats[c]
        log.info("following seat %d as the new sequencer at %s:%d", c, info.host, info.port)
        self._connect(info.host, info.port, c, self.cfg.dead_s * 2)

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
        self._guarded(self._on_dealer, frames)
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
            if self.leader:
                self.sequencer.tick(now)
            else:
                self._follower_timers(now)
        except Exception:
            log.exception("timer failed")

