"""A deterministic simulation of the LAN protocol with fault injection: ``python -m net.sim``.

N real :class:`net.peer.Peer` objects (2–6 seats, every seat a peer whose moves the bot policy
``mq.bots.choose`` makes, as a headless bot peer does) run over a simulated network in virtual time:
each Peer gets a :class:`SimRuntime` instead of net.transport.ZmqRuntime, so the protocol code is
the real one and only sockets, clock, deferred calls, the 50 ms timer and randomness are simulated.
Every peer writes its own real log file (net.gamelog) under a temporary directory.

One seeded scheduler (:class:`Sim`) owns an ordered event queue (virtual time, then insertion
order): no threads, no wall clock, no event loop.  Faults, each drawn from the seed:

- message faults: *drop*, *duplicate*, *reorder* (a message overtakes or is overtaken), *delay*
  (up to half a second);
- *partition*: the peers split in two groups; messages between them are lost until it *heals*
  (connections across it that lasted past the ZMTP heartbeat timeout reconnect: new routing ids);
- *crash* of any peer, the sequencer included: at a random moment, right after it applied an
  entry, or during an fdatasync (which takes simulated time, ``Options.sync_s``; a sequencer's runs
  after it sent the entries it syncs, so its followers may hold entries its own disk never got).
  The Peer object is discarded (its pending callbacks never run, its sockets vanish, what it sent
  that has not arrived yet is lost with its machine); with *tear*, the last record of its log, if
  not yet synced, is cut at a random byte; then a *restart* from its own log with the same
  identity key, rejoining through another peer's address (a ``retry`` leads it to the sequencer),
  or ``--resume`` when no peer is left.

After the faults stop (``fault_s`` of virtual time), every dead peer is restarted and partitions
heal; the game must then reach ``entries`` entries (or its end) at every peer within ``settle_s``
of virtual time (liveness).

Checked after every event (safety):

- *Same entry, same state*: a peer that applies entry n with id i has the same state hash as any
  other peer that applied (n, i) (hashes are taken from the applied states, not from the log).
- *Acknowledged entries are never lost*.  An entry of epoch E is **acknowledged** once it is
  durable (written and fdatasynced) in the logs of a *quorum* of the game's peer seats (more than
  half of them, or exactly half including the lowest peer seat: docs/net.md, "Quorum"), each of
  which synced it while in epoch E — the sequencer that numbered it, and peers following that
  sequencer — and so is every entry before it.  This is Raft's commitment rule: an entry that
  reached a quorum only later, copied by a sequencer of another epoch, is not acknowledged by
  that alone, because a log with a later last epoch can still win over it (Raft's "figure 8";
  docs/net.md, "Epochs").  An entry applied only by its proposer and the sequencer is not
  acknowledged either: both may crash before anyone else has it.  Once (n, i) is acknowledged, no
  sequencer goes live or sequences holding another entry at n, and at the end every peer's log
  contains it.  (A peer that does not sequence may hold a stale entry there for a while, as a
  Raft follower may: its log from before a restart, or a tail it adopted while reconciling.)
- *Logs agree in the end*: logs may part while peers are cut off or reconciling (a tail a
  sequencer wrote but could not get to a quorum); at the end, every peer's log is a prefix of the
  longest one.
- No peer reaches ``desync`` (the protocol's own hash comparison failing) and none raises.

A failure raises :class:`SimFailure` with the seed and the last events; the same seed and options
reproduce the same run exactly (``python -m net.sim --seeds 1 --start SEED -v``).
"""
from __future__ import annotations

import argparse
import heapq
import logging
import os
import random
import shutil
import sys
import tempfile
import time
from collections import Counter, deque
from dataclasses import dataclass, field, replace
from typing import Callable

from mq.bots import choose
from mq.rules import IllegalAction, is_over, state_hash, step, view
from mq.table import Applied, Notice
from net import identity, transport
from net.byzantine import Attacker, refusing_check
from net.peer import Config, Peer

log = logging.getLogger("mq.net.sim")

TICK_S = 0.05  # the peers' timer period, as net.transport.ZmqRuntime
BASE_PORT = 47400


class SimFailure(AssertionError):
    """A safety or liveness check failed; the message names the seed and shows a short trace."""


# =================================================================================================
# The simulated runtime: what a Peer sees instead of ZeroMQ and asyncio
# =================================================================================================
class Frame:
    """A received frame as the handlers read it (zmq.Frame's ``bytes`` and ``get``)."""

    __slots__ = ("bytes", "user", "addr")

    def __init__(self, data: bytes, user: str | None = None, addr: str | None = None) -> None:
        self.bytes, self.user, self.addr = data, user, addr

    def get(self, prop: str):
        if prop == "User-Id" and self.user:
            return self.user
        if prop == "Peer-Address" and self.addr:
            return self.addr
        import zmq
        raise zmq.ZMQError(22)


class _Handle:
    """Stands for an asyncio task of the real runtime (a peer only ever cancels it)."""

    def cancel(self) -> None:
        pass


def _no_tick(now: float) -> None:
    pass


def _unheard(frames: list) -> bool:
    return False


class Router:
    def __init__(self, rt: "SimRuntime", host: str, port: int, public: str) -> None:
        self.rt, self.host, self.port, self.public = rt, host, port, public
        self.deliver: Callable[[list], object] = _unheard  # the peer's handler, once it listens
        self.rids: dict[int, bytes] = {}  # dealer id -> routing id given to that connection
        self.conns: dict[bytes, Dealer] = {}
        self.closed = False


class Dealer:
    def __init__(self, rt: "SimRuntime", did: int, host: str, port: int, public: str, server_key: str) -> None:
        self.rt, self.id, self.host, self.port = rt, did, host, port
        self.public, self.server_key = public, server_key
        self.deliver: Callable[[list], bool] = _unheard  # the peer's handler, once it listens
        self.closed = False


class SimRuntime:
    """One peer process's runtime in the simulation (the interface of net.transport.ZmqRuntime)."""

    def __init__(self, sim: "Sim", seat: int, incarnation: int) -> None:
        self.sim, self.seat, self.incarnation = sim, seat, incarnation
        self.alive = True
        self.rng = random.Random(f"{sim.seed}:{seat}:{incarnation}")
        self.disk = random.Random(f"{sim.seed}:{seat}:{incarnation}:disk")  # how long each fdatasync takes
        self.router_sock: Router | None = None
        self.busy_until = 0.0  # blocked in an fdatasync until then
        self.tick: Callable[[float], None] = _no_tick  # the peer's timers, once it starts them

    # clock, randomness, deferred calls
    def now(self) -> float:
        return self.sim.now

    perf = now

    def random(self, n: int) -> bytes:
        return self.rng.randbytes(n)

    def call_soon(self, fn: Callable[[], None]) -> None:
        self.sim.at(0.0, fn, self)

    def call_later(self, delay: float, fn: Callable[[], None]) -> None:
        self.sim.at(delay, fn, self)

    def sync_soon(self, fn: Callable[[], None]) -> None:
        self.sim.at(0.0, lambda: self._fdatasync(fn), self)

    def _fdatasync(self, fn: Callable[[], None]) -> None:
        """``fn`` syncs the log.  The process blocks in fdatasync for a simulated while (none of its
        events run meanwhile: Sim._run_until defers them), which covers what it wrote before; what
        it sent before travels meanwhile, and a crash drawn for this sync lands during it."""
        low, high = self.sim.o.sync_s
        took = low + self.disk.random() * (high - low)
        self.busy_until = self.sim.now + took
        tear = self.sim.crash_in_sync.pop(self.seat, None)
        if tear is not None:
            def crash(seat=self.seat, tear=tear):
                if self.sim.rts[seat] is self:
                    self.sim.note(f"seat {seat} crashes during its fdatasync")
                    self.sim.out.faults["in_sync"] += 1
                    self.sim.crash(seat, tear)
            self.sim.at(self.disk.random() * took, crash)  # the machine's doing, not the blocked process's
        self.sim.at(took, fn, self)

    # sockets
    def router(self, host: str, port: int, public: bytes, secret: bytes) -> tuple[Router, int]:
        r = Router(self, host, port, public.decode("ascii"))
        self.router_sock = r
        self.sim.listening[(host, port)] = r
        return r, port

    def dealer(self, host: str, port: int, public: bytes, secret: bytes, server_key: bytes) -> Dealer:
        self.sim.dealer_ids += 1
        return Dealer(self, self.sim.dealer_ids, host, port, public.decode("ascii"), server_key.decode("ascii"))

    def start(self, sock: Router, deliver, tick, public: bytes) -> list:
        sock.deliver = deliver
        self.tick = tick
        # The first tick at a random phase of the period, as processes started at different times.
        self.sim.at(self.rng.random() * TICK_S, self._tick, self)
        return [_Handle()]

    def _tick(self) -> None:
        self.sim.at(TICK_S, self._tick, self)
        self.tick(self.sim.now)

    def listen(self, sock: Dealer, deliver) -> _Handle:
        sock.deliver = deliver
        return _Handle()

    def send(self, sock, parts: list) -> bool:
        if sock is None or sock.closed or not self.alive:
            return False
        if self.sim.attacker is not None and self.seat == self.sim.attacker.seat:
            parts = self.sim.attacker.outgoing(isinstance(sock, Dealer), parts)
        if isinstance(sock, Dealer):
            return self.sim.dealer_send(sock, parts)
        return self.sim.router_send(sock, parts)

    def close(self, sock, linger_ms: int = 0) -> None:
        if sock is not None and not sock.closed:
            sock.closed = True
            if isinstance(sock, Router) and self.sim.listening.get((sock.host, sock.port)) is sock:
                del self.sim.listening[(sock.host, sock.port)]

    async def cancel(self, tasks: list) -> None:
        pass

    async def aclose(self, sockets: list, linger_ms: int) -> None:
        for s in sockets:
            self.close(s)
        self.alive = False


# =================================================================================================
# Options and counts
# =================================================================================================
@dataclass(frozen=True)
class Faults:
    """Probabilities per message, and rates of the schedule-level faults (per virtual second)."""

    drop: float = 0.02
    duplicate: float = 0.02
    reorder: float = 0.03
    delay: float = 0.02
    partition_rate: float = 0.3  # partitions start at this rate (per second) while none is on
    crash_rate: float = 0.4  # crashes per second (of any live peer)
    tear: float = 0.5  # a crash tears the unsynced last record with this probability
    oneway: float = 0.3  # a partition starts one-way with this probability

    @classmethod
    def none(cls) -> "Faults":
        return cls(0, 0, 0, 0, 0, 0, 0, 0)


NO_FAULTS = Faults.none()


@dataclass(frozen=True)
class Options:
    peers: int = 0  # 0: drawn from the seed (2–6)
    entries: int = 40  # the run ends when every peer has applied this many entries (or the game ends)
    fault_s: float = 5.0  # faults are injected during this much virtual time after the game starts
    settle_s: float = 30.0  # then, every peer must reach ``entries`` within this
    think_s: float = 0.06  # a bot thinks 0.5-1.5 times this before each move (--bot-delay)
    sync_s: tuple[float, float] = (0.00005, 0.002)  # an fdatasync takes this long (uniform): ~1 round trip
    faults: Faults = field(default_factory=Faults)
    away: str = ""  # "wait" or "bot"; "": drawn from the seed
    mode: str = "quest"  # the game's mode (CLASSIC.md: "classic"), a table option like any other
    trace: int = 30  # events kept for a failure's trace
    byzantine: bool = False  # one seat (drawn from the seed) attacks: net.byzantine


@dataclass
class Outcome:
    seed: int
    peers: int
    entries: int = 0
    virtual_s: float = 0.0
    events: int = 0
    faults: Counter = field(default_factory=Counter)
    acknowledged: int = 0
    attacks: Counter = field(default_factory=Counter)  # (kind, outcome) -> count (net.byzantine)
    refusal: str | None = None  # a Byzantine run that stopped: the first honest peer's words


# =================================================================================================
# The simulation
# =================================================================================================
class Sim:
    def __init__(self, seed: int, options: Options | None = None, workdir: str | None = None) -> None:
        self.seed = seed
        self.o = o = options or Options()
        self.rng = random.Random(seed)  # the network's and the fault schedule's draws
        self.n = o.peers or self.rng.randint(2, 6)
        self.away = o.away or self.rng.choice(("wait", "bot"))
        self.now = 0.0
        self._q: list = []
        self._order = 0
        self.listening: dict[tuple[str, int], Router] = {}
        self.dealer_ids = 0
        self.rid_count = 0
        self.link_last: dict[tuple[int, int, int], float] = {}  # FIFO delivery per link and direction
        self._own_dir = workdir is None
        self.dir = workdir or tempfile.mkdtemp(prefix="mq-netsim-")
        self.keys = [self.rng.randbytes(32).hex() for _ in range(self.n)]
        self.pubs = [identity.public_id(k) for k in self.keys]
        self.peers: list[Peer | None] = [None] * self.n
        self.rts: list[SimRuntime | None] = [None] * self.n
        self.incarnations = [0] * self.n
        self.restart_due: dict[int, float] = {}
        self.join_target = [0] * self.n  # rotates when a restarted peer cannot join
        self.groups: dict[int, int] | None = None  # seat -> side of a partition
        self.cut_from: int | None = None  # one-way: the side whose messages are lost
        self.partitions = 0
        self.fixed_partition = False
        self.partition_since = 0.0
        self.faults_until: float | None = None
        self.out = Outcome(seed, self.n)
        self.trace: deque = deque(maxlen=o.trace)
        self.failure: str | None = None
        # safety bookkeeping
        self.mirror: list[list[bytes]] = [[] for _ in range(self.n)]  # each peer's log (ids)
        self.durable: list[int] = [0] * self.n  # how much of the mirror is synced
        self.holders: dict[tuple[int, bytes], set[int]] = {}  # who synced (n, id) in its epoch
        self.epoch_of: dict[bytes, int] = {}  # entry id -> the epoch it was numbered in
        self.acked: dict[int, bytes] = {}
        self.state_of: dict[tuple[int, bytes], int] = {}  # (n, id) -> state hash, as applied
        self.think_due: set[int] = set()
        self.was_live = [False] * self.n
        self.crash_next: dict[int, bool] = {}  # seat -> tear: crash after its next entry
        self.crash_in_sync: dict[int, bool] = {}  # seat -> tear: crash during its next fdatasync
        # A Byzantine seat (Options.byzantine): its own generator, so that the honest draws and
        # counts are those of the same seed without it.
        self.attacker: Attacker | None = None
        if o.byzantine:
            self.attacker = Attacker(self, random.Random(f"{seed}:byzantine-seat").randrange(self.n))
        self.forged: dict[bytes, str] = {}  # id of a record the entry check refuses -> what it was
        self.equivocated: set[bytes] = set()  # ids of a Byzantine sequencer's two-faced entries
        self.replayed: set[tuple[int, tuple[bytes, int]]] = set()  # (author, pid) proposals sent again
        self.refusals: dict[int, str] = {}  # honest seat -> the first stop it named (Byzantine runs)
        # Fixed schedules (tests): called as fn(sim, seat, peer, n) after a peer applies entry n.
        self.on_applied: list[Callable[["Sim", int, Peer, int], None]] = []

    # -- the scheduler -----------------------------------------------------------------------------
    def at(self, delay: float, fn: Callable[[], None], owner: SimRuntime | None = None) -> None:
        self._order += 1
        heapq.heappush(self._q, (self.now + delay, self._order, fn, owner))

    def note(self, text: str) -> None:
        self.trace.append(f"{self.now:9.4f} {text}")

    def fail(self, text: str) -> None:
        if self.failure is None:
            self.failure = text
            self.note("FAIL " + text)

    def _run_until(self, done: Callable[[], bool], until: float) -> bool:
        while self._q and self.failure is None:
            if done():
                return True
            t, _, fn, owner = self._q[0]
            if t > until:
                break
            heapq.heappop(self._q)
            if owner is not None and not owner.alive:
                continue
            if owner is not None and owner.busy_until > t:
                self._at_time(owner.busy_until, fn, owner)  # its process is blocked in fdatasync
                continue
            self.now = t
            self.out.events += 1
            try:
                fn()
            except Exception as e:  # a handler that raises past Peer._guarded is a bug
                log.exception("event failed")
                self.fail(f"an event raised {type(e).__name__}: {e}")
                break
            self.check()
        if self.failure is None and done():
            return True
        self.now = max(self.now, min(until, self._q[0][0] if self._q else until))
        return False

    # -- peers ------------------------------------------------------------------------------------
    def _cfg(self, seat: int) -> Config:
        return Config(name=f"p{seat}", key=self.keys[seat], bind="127.0.0.1", port=BASE_PORT + 10 * seat,
                      log_path=os.path.join(self.dir, f"p{seat}.mqlog"), ping_s=0.1, dead_s=0.7,
                      settle_s=2.1, hello_s=0.2, resend_s=1.0)

    def _new_peer(self, seat: int) -> Peer:
        self.incarnations[seat] += 1
        rt = SimRuntime(self, seat, self.incarnations[seat])
        p = Peer(self._cfg(seat), runtime=rt)
        self.peers[seat], self.rts[seat] = p, rt
        p.subscribe(lambda item, seat=seat, p=p: self._on_event(seat, p, item))
        self.mirror[seat] = []
        self.durable[seat] = 0
        self.think_due.discard(seat)  # a think of the previous process never ran
        self.was_live[seat] = False
        self.crash_next.pop(seat, None)
        self.crash_in_sync.pop(seat, None)
        if self.attacker is not None and seat == self.attacker.seat:
            self.attacker.arm(rt)
        return p

    def honest(self, seat: int) -> bool:
        return self.attacker is None or seat != self.attacker.seat

    def refuse(self, seat: int, text: str) -> None:
        """An honest peer stopped and said why (Byzantine runs: a refusal, not a failure; in an
        honest run nothing may make a peer stop)."""
        if self.attacker is None:
            return self.fail(f"seat {seat} stopped in an honest run: {text}")
        if seat not in self.refusals:
            self.refusals[seat] = text
            self.note(f"seat {seat} refuses: {text}")

    def _on_event(self, seat: int, p: Peer, item) -> None:
        if self.peers[seat] is not p:
            return
        if isinstance(item, Notice) and item.text.startswith("paused:") and self.honest(seat):
            self.refuse(seat, item.text)
        if isinstance(item, Applied) and self.honest(seat):
            n = item.seq
            i = p.log.id_at(n)
            h = state_hash(item.state)
            was = self.state_of.setdefault((n, i), h)
            if was != h:
                self.fail(f"seat {seat} has state {h:016x} after entry {n} ({i.hex()[:8]}), "
                          f"another peer had {was:016x} after the same entry")
            if seat in self.crash_next:
                tear = self.crash_next.pop(seat)
                self.at(0.0, lambda: self.crash(seat, tear))  # before the sync, a later callback
            for fn in self.on_applied:
                fn(self, seat, p, n)
        self._wake(seat)

    def _wake(self, seat: int) -> None:
        if seat not in self.think_due:
            self.think_due.add(seat)
            rt = self.rts[seat]
            assert rt is not None  # a seat is woken only while its process runs
            self.at(self.o.think_s * (0.5 + self.rng.random()), lambda: self._think(seat, rt), rt)

    def _think(self, seat: int, rt: SimRuntime) -> None:
        """The bot of a headless peer (net.client.play_bot): one proposal in flight at a time."""
        self.think_due.discard(seat)
        p = self.peers[seat]
        if p is None or self.rts[seat] is not rt or p.phase != "game" or p.outstanding:
            return
        if not p.my_turn() or is_over(p.state):
            return
        action = choose(view(p.state, seat), seat, p.cards)
        try:
            step(p.state, action, p.cards)  # NetTable.submit checks legality locally first
        except IllegalAction as e:
            return self.fail(f"the bot of seat {seat} chose an illegal action: {e}")
        p.propose(action)

    def _bot_poll(self) -> None:
        """play_bot wakes at least every 0.5 s."""
        self.at(0.5, self._bot_poll)
        for s, p in enumerate(self.peers):
            if p is not None:
                self._wake(s)

    def setup(self) -> None:
        """The lobby: seat 0 hosts, the others join; then the seed commit–reveal."""
        host = self._new_peer(0)
        _sync(host.host(seats=self.n, bots=0, window_ms=2000, away=self.away, away_s=3, mode=self.o.mode))
        for s in range(1, self.n):  # one after the other: seat s is peer s
            p = self._new_peer(s)
            p.start_join("127.0.0.1", host.port, host.pub, timeout=5.0)
            self._run_until(lambda: p.seat is not None, self.now + 5.0)
            if p.seat != s:
                raise SimFailure(f"seed {self.seed}: peer {s} got seat {p.seat}\n" + self.trace_text())
        if host.open_seats():
            raise SimFailure(f"seed {self.seed}: the lobby did not fill\n" + self.trace_text())
        host.start_game()
        self._run_until(lambda: all(p is not None and p.phase == "game" for p in self.peers), self.now + 10.0)
        if not all(p is not None and p.phase == "game" for p in self.peers):
            raise SimFailure(f"seed {self.seed}: the game did not start\n" + self.trace_text())
        self.note(f"game starts: {self.n} peers, away={self.away}")
        self._bot_poll()
        for s in range(self.n):
            self._wake(s)

    def crash(self, seat: int, tear: bool = False) -> None:
        p, rt = self.peers[seat], self.rts[seat]
        if p is None or rt is None:
            return
        rt.alive = False
        for sock in (p.router, p.dealer):
            rt.close(sock)
        torn = 0
        if p.log is not None:
            # No sync: the process is gone (what it wrote is in the page cache).  Torn: power lost
            # before fdatasync, the last, unsynced record is cut at a random byte.
            torn = p.log.abandon((lambda start, end: start + self.rng.randint(0, end - start - 1)) if tear else None)
        self.peers[seat] = self.rts[seat] = None
        self.mirror[seat] = self.mirror[seat][:self.durable[seat]] if torn else self.mirror[seat]
        self._forget(seat, len(self.mirror[seat]))
        self.out.faults["crash"] += 1
        if torn:
            self.out.faults["tear"] += 1
        self.note(f"crash seat {seat}" + (f" (tore {torn} bytes)" if torn else "")
                  + (" [sequencer]" if p.leader else ""))

    def restart(self, seat: int) -> None:
        """Start the peer again from its own log with the same identity: it rejoins through another
        peer's address (as ``mq join HOST`` with the same MQ_HOME), or resumes as host if no peer
        is up."""
        self.restart_due.pop(seat, None)
        p = self._new_peer(seat)
        path = p.cfg.log_path
        assert path is not None  # every simulated peer has one (_cfg)
        try:
            p.open_log(path)
        except Exception as e:
            return self.fail(f"seat {seat} cannot reopen its log: {e}")
        self._sync_mirror(seat, p)
        self._durable(seat, len(self.mirror[seat]))
        # Someone still plays (a sequencer, or a follower of one): rejoin.  Otherwise everyone had
        # stopped (the others, started again, only wait to rejoin): host the game again from the log.
        up = [s for s in range(self.n) if s != seat and (p2 := self.peers[s]) is not None
              and (p2.leader or p2.following or p2.phase == "game" and p2.connecting and p2.candidate is not None)]
        if not up:
            p.log.close()
            p.log = None
            _sync(p.resume(path))
            self.out.faults["resume"] += 1
            self.note(f"restart seat {seat}: resumes the game as host at entry {p.seq}")
            return
        others = [s for s in range(self.n) if s != seat]
        target = others[self.join_target[seat] % len(others)]
        self.join_target[seat] += 1
        self.out.faults["restart"] += 1
        self.note(f"restart seat {seat} at entry {p.seq}: joins via seat {target}")
        p.start_join("127.0.0.1", BASE_PORT + 10 * target, self.pubs[target], timeout=3.0)

    # -- the network ---------------------------------------------------------------------------------
    def _split(self, a: int, b: int) -> bool:
        return self.groups is not None and self.groups[a] != self.groups[b]

    def _cut(self, src: int, dst: int) -> bool:
        """Whether a message from seat ``src`` to seat ``dst`` is lost (a one-way cut loses only
        what leaves side ``cut_from``)."""
        return self.groups is not None and self.groups[src] != self.groups[dst] \
            and (self.cut_from is None or self.groups[src] == self.cut_from)

    def _when(self, link: tuple[int, int, int]) -> tuple[float, str]:
        """Delivery time of a message on a link, with the message faults drawn for it."""
        f = self.o.faults if self._faulty() else NO_FAULTS
        r = self.rng.random()
        base = 0.0002 + self.rng.random() * 0.0015
        if r < f.reorder:
            self.out.faults["reorder"] += 1
            return self.now + self.rng.random() * 0.03, "reorder"
        if r < f.reorder + f.delay:
            self.out.faults["delay"] += 1
            return self.now + 0.05 + self.rng.random() * 0.45, "delay"
        t = max(self.now + base, self.link_last.get(link, 0.0))  # one TCP connection is FIFO
        self.link_last[link] = t
        return t, ""

    def _deliveries(self, link) -> list[float]:
        f = self.o.faults if self._faulty() else NO_FAULTS
        r = self.rng.random()
        if r < f.drop:
            self.out.faults["drop"] += 1
            return []
        times = [self._when(link)[0]]
        if r < f.drop + f.duplicate:
            self.out.faults["duplicate"] += 1
            times.append(self._when(link)[0])
        return times

    def dealer_send(self, d: Dealer, parts: list) -> bool:
        r = self.listening.get((d.host, d.port))
        # IMMEDIATE: nothing is queued for a peer that is not connected; a wrong server key never
        # completes the CURVE handshake (nothing is delivered either way).
        if r is None or r.closed or r.public != d.server_key:
            return False
        if self._cut(d.rt.seat, r.rt.seat):
            # Two-way: the connection is down (IMMEDIATE: nothing queued); one-way: TCP still looks
            # up until the ZMTP heartbeats time out, and what is sent is lost.
            return self.cut_from is not None
        rid = r.rids.get(d.id)
        if rid is None:
            self.rid_count += 1
            rid = r.rids[d.id] = b"\x00" + self.rid_count.to_bytes(4, "big")
        data = parts[0] if len(parts) == 1 else None
        frames = [Frame(rid), Frame(bytes(data), d.public, d.host)] if data is not None else [Frame(rid)] + [
            Frame(bytes(x), d.public, d.host) for x in parts]
        for t in self._deliveries((d.id, r.rt.seat, 0)):
            self._at_time(t, lambda r=r, d=d, rid=rid, frames=frames: self._to_router(r, d, rid, frames), r.rt)
        return True

    def _to_router(self, r: Router, d: Dealer, rid: bytes, frames: list) -> None:
        if r.closed or d.closed or not d.rt.alive or self._cut(d.rt.seat, r.rt.seat) or r.rids.get(d.id) != rid:
            return
        r.conns[rid] = d
        r.deliver(frames)

    def router_send(self, r: Router, parts: list) -> bool:
        if len(parts) != 2:
            return False
        rid = parts[0]
        d = r.conns.get(rid)
        if d is None or d.closed or not d.rt.alive or r.rids.get(d.id) != rid:
            return False  # ROUTER_MANDATORY: an unknown routing id
        if self._cut(r.rt.seat, d.rt.seat):
            return True  # into a TCP connection that no longer gets through
        frames = [Frame(bytes(parts[1]))]
        for t in self._deliveries((d.id, r.rt.seat, 1)):
            self._at_time(t, lambda r=r, d=d, rid=rid, frames=frames: self._to_dealer(r, d, rid, frames), d.rt)
        return True

    def _to_dealer(self, r: Router, d: Dealer, rid: bytes, frames: list) -> None:
        if d.closed or r.closed or self._cut(r.rt.seat, d.rt.seat) or r.rids.get(d.id) != rid:
            return
        d.deliver(frames)

    def _at_time(self, t: float, fn, owner: SimRuntime) -> None:
        self._order += 1
        heapq.heappush(self._q, (t, self._order, fn, owner))

    # -- the fault schedule --------------------------------------------------------------------------
    def _faulty(self) -> bool:
        return self.faults_until is not None and self.now < self.faults_until

    def _schedule_faults(self) -> None:
        self.at(0.1, self._schedule_faults)
        for seat in range(self.n):
            if self.peers[seat] is None and seat not in self.restart_due:
                self.restart_due[seat] = self.now + 0.2 + self.rng.random() * 2.5
        for seat, due in sorted(self.restart_due.items()):
            if self.now >= due:
                self.restart(seat)
        if not self._faulty():
            return
        f = self.o.faults
        if self.groups is None and self.n > 1 and self.rng.random() < f.partition_rate * 0.1:
            self.partition(oneway=self.rng.choice((0, 1)) if self.rng.random() < f.oneway else None)
        elif self.groups is not None and not self.fixed_partition and self.rng.random() < 0.1 / 1.2:
            # (partitions last ~1.2 s)
            self.heal()
        if self.rng.random() < f.crash_rate * 0.1:
            live = [s for s in range(self.n) if self.peers[s] is not None]
            if len(live) > 1:
                seat, tear = self.rng.choice(live), self.rng.random() < f.tear
                how = self.rng.random()
                if how < 0.4:
                    self.crash(seat, tear)
                elif how < 0.7:  # right after its next entry, before it is synced (a sequencer's is in flight)
                    self.crash_next[seat] = tear
                else:  # during its next fdatasync (a sequencer's: after it sent what it syncs)
                    self.crash_in_sync[seat] = tear

    def partition(self, groups: dict[int, int] | None = None, heal_after: float | None = None,
                  oneway: int | None = None) -> None:
        """Split the peers (``groups``: seat -> side; default: drawn); heal after ``heal_after``
        seconds (default: the fault schedule heals it at random).  ``oneway`` = side s: only
        messages leaving side s are lost, until the ZMTP heartbeats (which need answers) time out
        and the connections across drop both ways."""
        self.fixed_partition = heal_after is not None
        self.cut_from = oneway
        self.partitions += 1
        if oneway is not None:
            self.out.faults["oneway"] += 1
            number = self.partitions
            self.at(transport.HEARTBEAT_TIMEOUT_MS / 1000, lambda: self._both_ways(number))
        if heal_after is not None:
            self.at(heal_after, self.heal)
        if groups is None:
            seats = list(range(self.n))
            self.rng.shuffle(seats)
            k = self.rng.randint(1, self.n - 1)
            groups = {s: (0 if i < k else 1) for i, s in enumerate(seats)}
        self.groups = groups
        self.partition_since = self.now
        self.out.faults["partition"] += 1
        self.note(f"partition {sorted(s for s in groups if groups[s] == 0)} "
                  f"{'|' if oneway is None else '->' if oneway == 0 else '<-'} "
                  f"{sorted(s for s in groups if groups[s] == 1)}")

    def _both_ways(self, number: int) -> None:
        if self.partitions == number and self.groups is not None and self.cut_from is not None:
            self.cut_from = None
            self.note("the one-way cut is now both ways (heartbeats timed out)")

    def heal(self) -> None:
        if self.groups is None:
            return
        if self.now - self.partition_since > transport.HEARTBEAT_TIMEOUT_MS / 1000:
            # ZMTP heartbeats dropped the connections across the cut: they reconnect with new ids.
            for r in self.listening.values():
                for did in [did for did, rid in r.rids.items()
                            if (d := r.conns.get(rid)) is None or self._split(d.rt.seat, r.rt.seat)]:
                    del r.rids[did]
        self.groups = None
        self.cut_from = None
        self.note("heal")

    def _closed_peers(self) -> None:
        """A peer that gave up (could not rejoin, its host went away) is a process that exited:
        it is started again, like a crashed one."""
        for s, p in enumerate(self.peers):
            if p is not None and p.phase == "closed":
                self.note(f"seat {s} closed ({p.refusal or p.error or 'left'})")
                self.out.faults["closed"] += 1
                self.crash(s)
                self.out.faults["crash"] -= 1
                self.restart_due[s] = self.now + 0.3 + self.rng.random()

    # -- checks --------------------------------------------------------------------------------------
    def check(self) -> None:
        for s, p in enumerate(self.peers):
            if p is None or not self.honest(s):
                continue
            if p.phase == "desync":
                if self.attacker is None:
                    return self.fail(f"seat {s} stopped on a desync: {p.report_file}")
                self.refuse(s, f"stopped on a desync: {p.report_file}")
            if p.log is not None:
                self._sync_mirror(s, p)
                if p.log.synced and self.durable[s] < len(self.mirror[s]):
                    self._durable(s, len(self.mirror[s]))
            live = p.sequencing
            if live and not self.was_live[s]:
                # A sequencer going live must hold every acknowledged entry its log reaches.
                m = self.mirror[s]
                bad = [n for n, i in self.acked.items() if n <= len(m) and m[n - 1] != i]
                if bad:
                    return self.fail(f"seat {s} sequences with entry {min(bad)} not the acknowledged one")
            self.was_live[s] = live

    def _sync_mirror(self, s: int, p: Peer) -> None:
        """Follow peer s's log.  An entry a live sequencer appends at an acknowledged position must
        be the acknowledged one.  A peer that is not sequencing may hold a stale entry there (its
        log before a restart, a tail it adopted while reconciling): it must be rewound before that
        peer goes live (``check``) and before the end (``final_check``)."""
        entries = p.log.entries
        m = self.mirror[s]
        if len(entries) == len(m) and (not m or entries[-1].id == m[-1]):
            return
        keep = min(len(m), len(entries))
        while keep and entries[keep - 1].id != m[keep - 1]:
            keep -= 1
        if keep < len(m):
            self._forget(s, keep)
            del m[keep:]
        for e in entries[keep:]:
            if e.id in self.forged and self.honest(s):
                return self.fail(f"seat {s} holds entry {e.n}, which fails the entry check "
                                 f"({self.forged[e.id]}): a forged entry was adopted")
            want = self.acked.get(e.n)
            if want is not None and want != e.id and p.sequencing and self.honest(s):
                return self.fail(f"seat {s} holds entry {e.n} {e.id.hex()[:8]}, but {want.hex()[:8]} was "
                                 "acknowledged there: an acknowledged entry was lost")
            m.append(e.id)
            self.epoch_of[e.id] = e.epoch
        self.out.entries = max(self.out.entries, len(m))

    def _forget(self, s: int, keep: int) -> None:
        m = self.mirror[s]
        for n in range(keep + 1, min(self.durable[s], len(m)) + 1):
            self.holders.get((n, m[n - 1]), set()).discard(s)
        self.durable[s] = min(self.durable[s], keep)

    def quorum(self, seats: set[int]) -> bool:
        return 2 * len(seats) > self.n or (2 * len(seats) == self.n and 0 in seats)

    def _durable(self, s: int, upto: int) -> None:
        """Peer s synced its log up to ``upto``: it holds those entries in its current epoch."""
        m = self.mirror[s]
        p = self.peers[s]
        epoch = p.epoch if p is not None else -1  # a peer just restarted is in no epoch yet
        if not self.honest(s):
            epoch = -2  # what the Byzantine seat holds acknowledges nothing: only honest holders count
        for n in range(self.durable[s] + 1, upto + 1):
            i = m[n - 1]
            if self.epoch_of[i] != epoch:
                continue
            h = self.holders.setdefault((n, i), set())
            h.add(s)
            if self.acked.get(n) != i and self.quorum(h):
                for k in range(n, 0, -1):  # this entry and all before it in the chain
                    have = self.acked.get(k)
                    if have == m[k - 1]:
                        break
                    if have is not None:
                        return self.fail(f"entry {k} acknowledged twice: {have.hex()[:8]}, then "
                                         f"{m[k - 1].hex()[:8]}")
                    self.acked[k] = m[k - 1]
                    self.out.acknowledged += 1
        self.durable[s] = upto

    def final_check(self) -> None:
        honest = [s for s in range(self.n) if self.honest(s)]
        for s in honest:
            for n, i in self.acked.items():
                # (one that refused in words may keep the other face of an equivocating sequencer)
                if n <= len(self.mirror[s]) and self.mirror[s][n - 1] != i and s not in self.refusals:
                    return self.fail(f"at the end, seat {s} holds another entry than the acknowledged one at {n}")
            p = self.peers[s]
            if self.replayed and p is not None and p.log is not None:
                pids = [(e.author, e.pid) for e in p.log.entries if e.pid is not None]
                if len(set(pids)) != len(pids):
                    return self.fail(f"seat {s}'s log holds a proposal twice (a replay was taken)")
        if self.out.refusal is not None:  # stopped in words: the logs agree on what was acknowledged (above)
            return
        logs = [self.mirror[s] for s in honest]
        longest = max(logs, key=len)
        for s, m in zip(honest, logs):
            if m != longest[:len(m)]:
                n = next(i for i in range(len(m)) if m[i] != longest[i]) + 1
                return self.fail(f"at the end, seat {s}'s log parts from the longest at entry {n}")
        for n, i in self.acked.items():
            if n > len(longest) or longest[n - 1] != i:
                return self.fail(f"acknowledged entry {n} is not in the final logs")

    # -- a run ---------------------------------------------------------------------------------------
    def done(self) -> bool:
        live = [p for p in self.peers if p is not None]
        if len(live) < self.n:
            return False
        if not (all(p.phase == "ended" for p in live)
                or all(p.phase in ("game", "ended") and p.seq >= self.o.entries for p in live)):
            return False
        # Converged: every log is a prefix of the longest (the ids chain, so the last one tells).
        logs = [m for s, m in enumerate(self.mirror) if self.honest(s)]
        longest = max(logs, key=len)
        return all(not m or longest[len(m) - 1] == m[-1] for m in logs)

    def run(self) -> Outcome:
        try:
            self.setup()
            start = self.now
            self.faults_until = until = start + self.o.fault_s
            self.at(0.1, self._schedule_faults)
            self.at(0.1, self._watch_closed)
            self._run_until(lambda: self.now >= until and self.done(), until)
            if self.failure is None:
                if self.groups is not None:
                    self.heal()
                for seat in range(self.n):  # the fault schedule keeps restarting the dead
                    if self.peers[seat] is None:
                        self.restart_due[seat] = min(self.restart_due.get(seat, self.now), self.now + 0.5)
                ok = self._run_until(self.done, self.now + self.o.settle_s)
                if not ok and self.failure is None and self.refusals:
                    self.out.refusal = self.refusals[min(self.refusals)]
                elif not ok and self.failure is None:
                    self.fail(f"liveness: no progress to {self.o.entries} entries within {self.o.settle_s} s "
                              "after the faults stopped: " + self.describe())
            if self.failure is None:
                self.final_check()
            self.out.virtual_s = self.now
            if self.attacker is not None:
                self.out.attacks = self.attacker.counts
        finally:
            self.close()
        if self.failure is not None:
            raise SimFailure(f"seed {self.seed} (peers {self.n}, away {self.away}): {self.failure}\n"
                             + self.trace_text())
        return self.out

    def _watch_closed(self) -> None:
        self.at(0.1, self._watch_closed)
        self._closed_peers()

    def describe(self) -> str:
        return "; ".join(
            f"seat {s}: down" if p is None else
            f"seat {s}: {p.phase}{' sequencer' if p.leader else ''}{' (reconciling)' if p.leader and not p.sequencing else ''}"
            f" seq {p.seq} leader {p.leader_seat}"
            for s, p in enumerate(self.peers))

    def trace_text(self) -> str:
        return "\n".join(self.trace)

    def close(self) -> None:
        for s in range(self.n):
            p = self.peers[s]
            if p is not None and p.log is not None:
                p.log.abandon()
        if self._own_dir:
            shutil.rmtree(self.dir, ignore_errors=True)


def _sync(coro) -> None:
    """Run a Peer coroutine that never waits (host, resume) without an event loop."""
    try:
        coro.send(None)
    except StopIteration:
        return
    coro.close()
    raise RuntimeError("the coroutine waited: it needs an event loop")


def run_seed(seed: int, options: Options | None = None) -> Outcome:
    return Sim(seed, options).run()


# =================================================================================================
# Command line
# =================================================================================================
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m net.sim", description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--start", type=int, default=1)
    ap.add_argument("--peers", type=int, default=0, help="2-6; default: drawn per seed")
    ap.add_argument("--entries", type=int, default=Options.entries)
    ap.add_argument("--fault-s", type=float, default=Options.fault_s)
    ap.add_argument("--no-faults", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each failure's trace")
    ap.add_argument("--stop", action="store_true", help="stop at the first failure")
    ap.add_argument("--mode", choices=("quest", "classic"), default="quest", help="the game's mode (default quest)")
    ap.add_argument("--byzantine", action="store_true",
                    help="one seat per game (drawn from the seed) forges, replays and equivocates (net.byzantine)")
    a = ap.parse_args(argv)
    logging.disable(logging.CRITICAL)
    o = Options(peers=a.peers, entries=a.entries, fault_s=a.fault_s, mode=a.mode, byzantine=a.byzantine)
    if a.no_faults:
        o = replace(o, faults=Faults.none())
    totals: Counter = Counter()
    attacks: Counter = Counter()
    refusals: Counter = Counter()  # games that stopped in words, by the check that refused
    examples: dict[str, str] = {}
    failures: list[int] = []
    t0 = time.perf_counter()
    for seed in range(a.start, a.start + a.seeds):
        try:
            out = run_seed(seed, o)
        except SimFailure as e:
            failures.append(seed)
            first = str(e).split("\n")[0]
            print(first if not a.verbose else str(e), flush=True)
            if a.stop:
                break
            continue
        totals["games"] += 1
        totals["entries"] += out.entries
        totals["acknowledged"] += out.acknowledged
        totals["events"] += out.events
        totals.update(out.faults)
        attacks.update(out.attacks)
        if out.refusal is not None:
            why = "equivocation" if "equivocates" in out.refusal else refusing_check(out.refusal)
            refusals[why] += 1
            examples.setdefault(why, out.refusal)
    wall = time.perf_counter() - t0
    print(f"seeds {a.start}..{a.start + a.seeds - 1}: {totals['games']} games passed, {len(failures)} failed "
          f"({wall:.1f} s)")
    print("  " + ", ".join(f"{k} {v}" for k, v in sorted(totals.items()) if k != "games"))
    if a.byzantine:
        print(f"  attacks (kind: outcome count), {len(refusals) and sum(refusals.values())} games stopped in words:")
        for kind in sorted({k for k, _ in attacks}):
            print(f"    {kind}: " + ", ".join(f"{w} {c}" for (k, w), c in sorted(attacks.items()) if k == kind))
        for why, c in refusals.most_common():
            print(f"    stopped by {why} {c}, e.g. \"{examples[why]}\"")
    if failures:
        print("  failing seeds: " + " ".join(map(str, failures[:50])))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
