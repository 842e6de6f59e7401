"""The follower: the role of a peer that follows a sequencer, or looks for one (DESIGN
"Networking contract"; docs/net.md, "Topology and roles", "Heartbeats, away seats, rejoining",
"Failover").

It says hello over the peer's DEALER (with its log's tail and epochs, so that the sequencer can
find where their logs part), takes part in the seed exchange, applies the sequencer's entries in
order through the one entry check (net.replica), syncs them and reports their state hashes,
catches up on what it missed (net.catchup), answers the sequencer's questions (its log's entries
while reconciling, subtree digests in a desync search), sends heartbeats, and notices when the
sequencer is gone (then the peer elects the next one).

Invariants:
- One ``Follower`` per peer, kept across reigns; it handles what reaches the peer's ROUTER and
  its timers while it is the peer's ``role`` (net.peer.Peer), and what reaches the DEALER always
  (only a follower has one).  It owns only the follower's fields.
- It follows no sequencer of an epoch older than its promise, and applies an entry only if it
  chains to its log (otherwise it says hello again to be told where to rewind to).
- A rewind the sequencer asks for drops nothing until the sequencer's entry after the rewind
  point is in and checks out (net.replica.Replica.would_take: signatures, authorship, engine,
  hash): an honest peer never gives up entries it holds for ones that fail the check.
- A report of state hashes is sent only for entries synced to its log.
"""
from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING

from mq.rules import check_params, decode_params
from mq.table import Notice
from net import catchup, desync, election, gamelog, identity, port, replica, seeding, wire
from net.seats import SeatInfo
from net.wire import PROTOCOL

if TYPE_CHECKING:
    from net.peer import Peer

log = logging.getLogger("mq.net")

# A joiner that hears nothing from the host in the lobby says hello again for this long before it
# gives up (there is no failover before the game starts).
LOBBY_PATIENCE_S = 15.0


class Follower:
    """The follower's part of peer ``p`` (see the module's invariants)."""

    def __init__(self, p: "Peer") -> None:
        self.p = p
        # Taking the chat so far (``notice`` with ``past``): from a welcome, while this peer has no
        # chat yet, until the sequencer sends anything but the header or more of it.
        self._taking_past = False
        self.connecting = False
        self._connect_deadline = 0.0
        self._last_hello = 0.0
        self.welcomed = False
        self._lobby_retry = False  # saying hello again after the host went silent in the lobby
        self.last_heard = 0.0
        self._last_ping = 0.0
        self._target: tuple[str, int] = ("", 0)
        self._pledge: seeding.Pledge | None = None  # our part in the seed exchange (not sequencing)
        self.end_seq: int | None = None
        self.unreported: list[list] = []  # [seq, state hash] applied, for the next report
        self.rewind_to: int | None = None  # a rewind asked for, until the entry after it checks out
        self.leader_head: int | None = None  # the last entry the sequencer we follow says it has (tick)
        self._short_since: float | None = None  # since when its ticks say it lacks an entry of its reign we hold
        self._paused_at: float | None = None

    def on_router(self, rid: bytes, msg: dict, frame, user: str | None) -> None:
        """What reaches the peer's ROUTER while it does not sequence: only a hello counts.  Its
        asker is pointed at the sequencer we follow, unless both of us are players adrift in this
        game: then the lower seat sequences (docs/net.md, "Failover": the rendezvous), and if
        that is us, the hello is answered as the sequencer."""
        p = self.p
        if msg["t"] != "hello":
            return
        asker = p.seat_of(user) if user else None
        if asker is None or asker == p.seat or msg.get("game") != p.game or not p.adrift():
            # Not (yet) the sequencer: point the asker at the one we follow.
            where = list(p.election.addrs[p.leader_seat]) if p.leader_seat in p.election.addrs else None
            return p.send_to(rid, {"t": "retry", "leader": p.leader_seat, "addr": where,
                               "key": p.dealer_key if self.welcomed else None})
        if asker < p.me:  # it follows nobody either, and the lower seat sequences
            return p.send_to(rid, {"t": "retry", "leader": None, "from": p.seat})
        p.rendezvous()  # then answer its hello as the sequencer
        p.sequencer.on_router(rid, msg, frame, user)

    def connect(self, host: str, port: int, seat: int | None, timeout: float, key: str | None = None) -> None:
        """Connect the DEALER to the peer at host:port, whose public key is ``key`` (default: the
        key of ``seat`` as we know it).  Without a key there is nothing to connect to: the
        candidate counts as dead."""
        key = key or self.p.key_of(seat)
        if key is None:
            log.error("no public key known for seat %s at %s:%d", seat, host, port)
            if seat is not None and self.p.header is not None:
                self.p.election.dead.add(seat)
                return self.p.elect()
            return self.p.give_up(f"no public key known for {host}:{port}")
        self.p.connect_dealer(host, port, key)
        self.connecting, self.welcomed = True, False
        self.p.election.candidate = seat
        self.p.election.retry_hint = None
        self._target = (host, port)
        self._connect_deadline = self.p.rt.now() + timeout
        self._last_hello = 0.0
        self.p.catchup.buffer.clear()
        self.rewind_to = self.leader_head = None
        self.send_hello()

    def send_hello(self) -> None:
        self._last_hello = self.p.rt.now()
        tail = []
        if self.p.log is not None and self.p.seq:
            # The last 16 entries, then exponentially sparser back to 1: enough for the sequencer
            # to find where two logs part, in one message.
            seqs = sorted({self.p.seq - i for i in range(16)} | {self.p.seq - 16 - (1 << k) for k in range(40)})
            tail = [[n, self.p.log.id_at(n)] for n in seqs if n >= 1]
        msg = {"t": "hello", "v": PROTOCOL, "id": self.p.pub, "name": self.p.cfg.name[:wire.MAX_NAME],
               "role": self.p.cfg.role, "inc": self.p.inc, "port": self.p.port, "last": self.p.seq,
               "tail": tail, "game": self.p.game or None, "epoch": self.p.promise(),
               "psig": self.p.promise_sig(self.p.promise()),
               "lep": self.p.log.last_epoch if self.p.log is not None else 0, "gender": self.p.cfg.gender,
               "sign": self.p.signer.public, "proof": self.p.inc_secret}
        if self.p.admission.secret is not None:
            msg["code"] = self.p.admission.secret  # inside the CURVE channel, to a key we checked
        self.up(msg)

    def _ping(self) -> None:
        self._last_ping = self.p.rt.now()
        self._report()
        promise = self.p.promise()
        self.up({"t": "ping", "seq": self.p.seq, "epoch": promise, "psig": self.p.promise_sig(promise)})

    def up(self, msg: dict) -> bool:
        return self.p.dealer is not None and self.p.rt.send(self.p.dealer, [wire.pack(msg)])

    def on_dealer(self, frames: list) -> None:
        if self.p.phase == "closed":
            # We gave up on this game (refused, or our log of it did not check out): take nothing
            # more, above all no header that would start a fresh log over the one we refused.
            return
        if len(frames) != 1:
            return self.p.drops.drop("frame", f"{len(frames)} frames", "sequencer")
        try:
            msg = wire.unpack(frames[0].bytes)
        except wire.Malformed as e:
            return self.p.drops.drop("message", str(e), "sequencer")
        self.last_heard = self.p.rt.now()
        t = msg["t"]
        if t not in ("welcome", "header", "end") and not (t == "notice" and msg.get("past")):
            self._taking_past = False
        try:
            handler = getattr(self, "_f_" + t)
        except AttributeError:
            return self.p.drops.drop(t, "not for a follower", "sequencer")
        try:
            handler(msg)
        except wire.Malformed as e:
            self.p.drops.drop(t, str(e), "sequencer")

    def _f_welcome(self, msg: dict) -> None:
        if msg["v"] != PROTOCOL:
            return self.p.give_up(f"cannot play with the host: {wire.other_version(msg['v'], PROTOCOL)}")
        if self.p.game and msg["game"] != self.p.game:
            return self.p.drops.drop("welcome", "another game", "sequencer")
        if not self._followable(msg["epoch"]):
            return
        self._taking_past = not self.p.chat_kept
        # Welcomed in a game under way (a failover, the host back with --resume, this peer back):
        # the screen hears who hosts now, which also ends the "gone" banner of that seat.
        again = self.p.header is not None and self.p.phase not in ("ended", "desync")
        self.p.game = msg["game"]
        self.p.seat = msg["seat"]
        self.p.leader_seat = msg["leader"]
        if type(msg.get("opts")) is dict:
            self.p.opts = msg["opts"]
        self.connecting, self.welcomed = False, True
        self.p.election.stepped_down = self._lobby_retry = False
        self.p.election.dead.discard(self.p.leader_seat)
        self.p.election.dead.discard(self.p.seat)  # after a step-down: we may be elected again later
        self.p.election.addrs[self.p.leader_seat] = self._target
        if self.p.dealer_key is not None:
            self.p.election.seat_keys[self.p.leader_seat] = self.p.dealer_key
        self.p.remember_keys([self.p.dealer_key])
        if self.p.log is None and self.p.cfg.role == "play":
            path = self.p.log_path()
            if os.path.exists(path):
                # We have played this game before: load our log and say hello again with it.
                problem = self.p.try_open_log(path)
                if problem is not None:
                    return self.p.give_up(f"cannot use {path}: {problem}")
                self.welcomed = False
                self.connecting = True
                return self.send_hello()
        self.p.epoch = msg["epoch"]
        if self.p.log is not None:
            self.p.log.raise_promise(self.p.epoch)
        rewind = msg["rewind"]
        self.rewind_to = self.leader_head = None
        if rewind >= 0 and self.p.log is not None and rewind < self.p.seq:
            log.warning("the sequencer's log differs after entry %d (ours has %d): checking its entries",
                        rewind, self.p.seq)
            self.rewind_to = rewind
            self.p.catchup.buffer.clear()
        self._ping()  # tells the sequencer our promise (it goes live once a quorum has promised)
        self.p.join_answered()
        if self.p.header is not None:
            self.p.mark_started()
            self.p.phase = "game" if self.p.phase not in ("ended", "desync") else self.p.phase
            self._fetch(force=True)
        for pid, (action, _) in sorted(self.p.outstanding.items()):
            self.up(self.p.proposal(pid, action))
        log.info("welcomed as %s by seat %s", "spectator" if self.p.seat is None else f"seat {self.p.seat}",
                 self.p.leader_seat)
        if again and self.p.leader_seat != self.p.seat:
            self.p.notice("back", self.p.leader_seat,
                          f"{self.p.who(self.p.leader_seat)} hosts the game, from entry {self.p.seq}")

    def _followable(self, epoch: int) -> bool:
        """Whether we follow a sequencer welcoming us in ``epoch`` (else it is dropped, and we say
        hello again where that helps)."""
        lep = self.p.log.last_epoch if self.p.log is not None else 0
        if not election.within_reach(epoch, lep, jumps=2):
            # A reign too far ahead of our log (net.election.MAX_JUMP): not one we follow.  Unheard,
            # the sequencer counts as dead at our deadline, and the next candidate is tried.
            self.p.drops.drop("welcome", f"epoch {epoch}, too far ahead of our log's {lep}", "sequencer")
            if self.welcomed:
                self._hello_again()
            return False
        if epoch < self.p.promise():
            # A sequencer of an older reign than one we followed (it missed a failover): our hello
            # tells it our promise, and it takes a later epoch before it welcomes us again.
            log.info("the sequencer's epoch %d is older than our promise %d", epoch, self.p.promise())
            self.send_hello()
            return False
        return True

    def _f_refuse(self, msg: dict) -> None:
        log.error("refused (%s): %s", msg["reason"], msg["text"])
        self.p.give_up(f"refused ({msg['reason']}): {msg['text']}")

    def _f_retry(self, msg: dict) -> None:
        """The peer we asked is not the sequencer; it names the one it follows."""
        hint = msg["leader"]
        if hint is None and type(msg.get("from")) is int and self.p.adrift() and self.p.seat < msg["from"]:
            return self.p.rendezvous()  # the peer we asked follows nobody either, and is a higher seat
        if hint is None or hint == self.p.election.candidate or hint == self.p.seat or not 0 <= hint < wire.MAX_SEATS:
            return
        if hint in self.p.election.dead:
            # It still hears the sequencer we lost.  Give it until our deadline to notice; if it
            # still does then, we were the one cut off, and we go back (see _follower_timers).
            self.p.election.retry_hint = hint
            return
        addr = self.p.election.addrs.get(hint)
        given = msg.get("addr")
        if addr is None and type(given) is list and len(given) == 2 and type(given[0]) is str \
                and len(given[0]) <= 64 and type(given[1]) is int and 0 < given[1] < 65536:
            addr = (given[0], given[1])
        if addr is None and hint < len(self.p.seats) and self.p.seats[hint].port:
            addr = (self.p.seats[hint].host, self.p.seats[hint].port)
        # Its key: as we know it (lobby, our log), else as the peer we asked (whose key we checked)
        # knows it.
        key = self.p.key_of(hint)
        if key is None and identity.valid_public(msg.get("key")):
            key = msg["key"]
        if addr is not None and key is not None:
            self.connect(addr[0], addr[1], hint, self.p.cfg.dead_s * 2, key)

    def _f_who(self, msg: dict) -> None:
        self._hello_again()

    def _hello_again(self) -> None:
        """Say hello again to the peer we follow (it lost our connection, or our logs part)."""
        self.welcomed, self.connecting = False, True
        self._connect_deadline = self.p.rt.now() + self.p.cfg.dead_s * 2
        self.send_hello()

    def _f_lobby(self, msg: dict) -> None:
        seats = [SeatInfo.from_wire(d) for d in msg["seats"]]
        self.p.seats = seats
        self.p.opts = msg["opts"]
        self.p.leader_seat = msg["leader"]
        self.p.note_addresses()
        self.p.emit(("lobby", seats, dict(self.p.opts)))

    def _f_commit_req(self, msg: dict) -> None:
        if self.p.phase not in ("idle", "lobby"):  # a replayed or stray request must not restart the seeding
            raise wire.Malformed("commit_req: not in the lobby")
        try:
            check_params(decode_params(msg["params"]))
        except Exception:
            raise wire.Malformed("commit_req: bad params") from None
        self.p.phase = "seeding"
        self._pledge = seeding.Pledge(self.p.new_nonce())
        self.up({"t": "commit", "h": seeding.commitment(self._pledge.nonce)})

    def _f_commits(self, msg: dict) -> None:
        if self._pledge is None:
            raise wire.Malformed("commits: unexpected")
        self._pledge.shown(msg["hs"])
        self.up({"t": "reveal", "nonce": self._pledge.nonce})

    def _f_header(self, msg: dict) -> None:
        header = gamelog.decode_header(msg["rec"])
        if header.game != self.p.game:
            raise wire.Malformed("header of another game")
        if self.p.header is not None:
            if header.id != self.p.header.id:
                self.p.notice("info", None, "the host's game header differs from our log")
            return
        if self._pledge is not None:
            self._pledge.check(header)  # the nonces are the ones committed to, ours among them
        self.p.start_from_header(header)
        if self.p.seat is None and self.p.cfg.role == "play":
            self.p.seat = self.p.seat_of(self.p.pub)
        self.p.remember_keys(pub for _, pub, kind in header.roster if kind == "peer")
        self._fetch(force=True)

    def _f_entries(self, msg: dict) -> None:
        if self.p.log is None:
            raise wire.Malformed("entries before the header")
        for raw in msg["recs"]:
            if type(raw) is not bytes:
                raise wire.Malformed("entries: not bytes")
            e = gamelog.decode_entry(raw)
            self.p.catchup.offer(e, self._base())
        if len(msg["recs"]) >= catchup.FETCH_BATCH:
            self.p.catchup.full_batch(e.n)
        self._drain()

    def _base(self) -> int:
        """The entry the sequencer's entries follow: ours, or the rewind point it named."""
        return self.rewind_to if self.rewind_to is not None else self.p.seq

    def _rewind_checked(self) -> bool:
        """Whether the rewind asked for is done (or none was): the sequencer's entry after the
        rewind point has come and checks out, or it has none (its ``tick`` says its log ends
        there), so ours after that point are dropped.  One that fails drops nothing and pauses
        this peer (the host sends entries no honest peer made)."""
        n = self.rewind_to
        while n is not None:
            e = self.p.catchup.buffer.get(n + 1)
            if e is None:
                if self.leader_head is None or self.leader_head > n:
                    return False
                if self._own_reign_after(n):  # it drops an entry it numbered in this reign
                    self.rewind_to = None
                    self._pause_self(n + 1, self._disowned(n))
                    return False
                self._rewind(n)  # nothing to check: the sequencer holds nothing after entry n
                return True
            if n + 1 <= self.p.seq and e.id == self.p.log.id_at(n + 1):
                del self.p.catchup.buffer[n + 1]  # ours too: the logs part later than we were told
                n = self.rewind_to = n + 1 if n + 1 < self.p.seq else None
                continue
            try:  # refused in words, nothing dropped, for a forgery or an equivocation's other face
                self.p.replica.would_replace(n, e)
            except replica.BadEntry as err:
                log.error("not rewinding to entry %d for the host's entry that fails: %s", n, err)
                self.rewind_to = None
                self.p.catchup.buffer.clear()
                self._pause_self(e.n, f"the host's {err}")
                return False
            self._rewind(n)
            return True
        return True

    def _rewind(self, n: int) -> None:
        log.warning("rewinding from entry %d to %d to follow the host", self.p.seq, n)
        self.p.log.truncate_after(n)
        lg, self.p.log = self.p.log, None
        self.p.adopt_log(lg)
        self.p.notice("info", self.p.seat, f"rewound to entry {n} to follow the host")
        self.rewind_to = None

    def _drain(self) -> None:
        """Apply buffered entries in order; sync; report hashes; fetch what is missing."""
        if self.p.phase not in ("game",) or not self._rewind_checked():
            if self.rewind_to is not None:
                self._fetch()
            return
        hs = []
        while (e := self.p.catchup.next(self.p.seq)) is not None:
            if e.prev != self.p.log.last_id:
                # Our log parts from the sequencer's before this entry (a rewind it sent us was
                # lost, or entries of another reign were buffered): say hello again, so that it
                # tells us where to rewind to.
                log.warning("entry %d does not chain to our entry %d: asking the sequencer again", e.n, self.p.seq)
                self.p.catchup.buffer.clear()
                self._hello_again()
                break
            try:
                self.p.take(e)
            except replica.HashMismatch as err:
                # Our state after it differs from the sequencer's: keep ours (logged and applied),
                # so that the sequencer's search can walk it, report it and stop.
                self.p.replica.keep(e, err.applied)
                self.p.committed(e, err.applied)
                log.error("%s", err)
                hs.append([e.n, port.hash(self.p.state), e.id])
                self._pause_self(e.n, str(err))
                break
            except replica.BadEntry as err:  # not applied at all
                log.error("%s", err)
                hs.append([e.n, 0, e.id])
                self._pause_self(e.n, str(err))
                break
            hs.append([e.n, port.hash(self.p.state), e.id])
            if self.p.cfg.perturb and self.p.cfg.perturb[0] == e.n:
                # Test-only (MQ_TEST_PERTURB): after reporting an honest hash for entry n, make this
                # peer's state disagree, so the next entry must be caught.
                self.p.state = desync.perturbed(self.p.state, self.p.cfg.perturb[1])
                log.warning("TEST: perturbed %s after entry %d", self.p.cfg.perturb[1], e.n)
        if hs:
            # Sync in a later callback: a bot woken by these entries proposes first, so the
            # fdatasync is not on the path of the next move.  The hashes go to the sequencer with
            # the next ping, not one message per entry: we compared each with the sequencer's own
            # (carried in the entry) already, so its check is a second one and can wait ping_s;
            # a mismatch is reported at once.
            self.unreported.extend(hs)
            if self.p.phase == "paused":
                self._report()
            else:
                self.p.schedule_sync()
        if self.end_seq is not None and self.p.seq >= self.end_seq:
            self.end_seq = None
            self.p.notice("closed", None, f"the game is over after {self.p.seq} entries")
            self.p.finish("ended")
        elif self.p.phase == "game":
            self._fetch()

    def _report(self) -> None:
        """Send the hashes of the entries applied since the last report (synced first: a report
        means durable)."""
        if self.unreported and self.p.log is not None and not self.p.shut:
            self.p.log.sync()
            hs, self.unreported = self.unreported, []
            for i in range(0, len(hs), 4000):  # wire.SCHEMAS: at most 4096 per report
                self.up({"t": "report", "hs": hs[i:i + 4000]})

    def _pause_self(self, n: int, problem: str) -> None:
        self.p.phase = "paused"
        self._paused_at = self.p.rt.now()
        self.p.notice("info", None, f"paused: {problem}")

    def _fetch(self, force: bool = False) -> None:
        base = self._base()
        if self.welcomed and self.p.catchup.should_fetch(base, self.p.rt.now(), self.p.cfg.ping_s, force):
            self.up({"t": "fetch", "from": base + 1})

    def _own_reign_after(self, n: int) -> bool:
        """Whether we hold an entry after entry ``n`` numbered in the reign we follow (its epoch is
        the sequencer's own): an honest sequencer keeps every entry it numbered in its epoch for as
        long as it reigns (a new reign takes a new epoch), so it never lacks one we hold."""
        return n < self.p.seq and self.p.log.entries[n].epoch == self.p.epoch

    def _disowned(self, n: int) -> str:
        return (f"the host's entry {n + 1}: the sequencer of epoch {self.p.epoch} signed it, but says its log "
                f"ends at entry {n} (it equivocates)")

    def _f_tick(self, msg: dict) -> None:
        self.p.catchup.heard(msg["head"])
        self.leader_head = msg["head"]
        if self.rewind_to is not None:
            return self._drain()
        self._check_head(msg["head"])
        self._fetch()

    def _check_head(self, head: int) -> None:
        """Pause, in words, if the sequencer's ticks say for longer than ``dead_s`` that its log
        ends before an entry of its own reign that we hold: it sent us an entry it did not number
        in its own log (the other face of an equivocation, and nothing comes after it to show the
        fork; net.sim seed 1442 of --byzantine stalled so, silently).  A tick sent before that entry
        may arrive after it (a reordering), hence the patience: every tick sent after the entry
        says more."""
        if self.p.phase != "game" or not self._own_reign_after(head):
            self._short_since = None
            return
        now = self.p.rt.now()
        if self._short_since is None:
            self._short_since = now
        elif now - self._short_since > self.p.cfg.dead_s:
            self._short_since = None
            self._pause_self(head + 1, self._disowned(head))

    def _f_reject(self, msg: dict) -> None:
        pid = msg["pid"]
        if pid in self.p.outstanding:
            self.p.rejected(pid, msg["reason"], msg["detail"])

    def _f_notice(self, msg: dict) -> None:
        if msg["kind"] not in ("away", "back", "bot", "chat", "info"):
            raise wire.Malformed("notice: unknown kind")
        if msg.get("past"):  # the chat so far: kept for Table.history, never news
            if msg["kind"] == "chat" and self._taking_past:
                self.p.chat_kept.append((msg["seat"], msg["text"]))
            return
        if msg["kind"] == "chat":
            self.p.chat_kept.append((msg["seat"], msg["text"]))
        if msg["kind"] != "chat":  # the sequencer's words (a player's chat stays off the protocol log)
            log.info("[%s] %s", msg["kind"], msg["text"])  # as Peer.notice logs its own
        self.p.emit(Notice(msg["kind"], msg["seat"], msg["text"]))

    def _f_pause(self, msg: dict) -> None:
        if self.p.phase == "game":
            self.p.phase = "paused"
            self._paused_at = self.p.rt.now()
            self.p.notice("info", None, f"the host paused the game at entry {msg['seq']} ({msg['reason']})")

    def _f_kids_req(self, msg: dict) -> None:
        st = self.p.ring.get(msg["seq"])
        if st is None or not all(type(i) is int for i in msg["path"]):
            ok, d = "missing", list[int]()
        else:
            ok, d = desync.kids(st, msg["path"])
        self.up({"t": "kids", "seq": msg["seq"], "path": msg["path"], "ok": ok, "d": d})

    def _f_desync(self, msg: dict) -> None:
        if self.p.phase != "desync":
            self.p.report_desync(msg)

    def _f_fetch_req(self, msg: dict) -> None:
        start = msg["from"]
        if self.p.log is not None:
            recs = catchup.records_from(self.p.log, start)
            self.up({"t": "entries", "recs": recs})

    def _f_end(self, msg: dict) -> None:
        if self.p.seq >= msg["seq"]:
            if self.p.phase == "game":
                self.p.notice("closed", None, f"the game is over after {self.p.seq} entries")
                self.p.finish("ended")
        else:
            self.end_seq = msg["seq"]
            self.p.catchup.heard(msg["seq"])
            self._fetch(force=True)

    def tick(self, now: float) -> None:
        if self.p.phase in ("ended", "desync", "closed"):
            return
        if self.connecting:
            if now > self._connect_deadline and not self.p.restarted_over():
                if self.p.header is None or self.p.election.candidate is None:
                    return self.p.give_up(None if self.p.answered else (
                        "no answer from the host (not running there, or the secure handshake failed: "
                        "a wrong host key, or refused)"))
                back, self.p.election.retry_hint = self.p.election.retry_hint, None
                if back is not None and back in self.p.election.addrs:
                    self.p.election.dead.discard(back)
                    log.warning("seat %d still follows seat %d: going back to it", self.p.election.candidate, back)
                    return self.connect(*self.p.election.addrs[back], back, self.p.cfg.dead_s * 2)
                self.p.election.dead.add(self.p.election.candidate)
                return self.p.elect()
            if now - self._last_hello >= self.p.cfg.hello_s:
                self.send_hello()
            return
        if not self.welcomed:
            return
        if now - self._last_ping >= self.p.cfg.ping_s:
            self._ping()
        if now - self.last_heard > self.p.cfg.dead_s:
            return self._leader_lost()
        for pid, (action, sent) in list(self.p.outstanding.items()):
            if now - sent > self.p.cfg.resend_s:
                self.p.outstanding[pid] = (action, now)
                self.up(self.p.proposal(pid, action))
        if self.p.phase == "game":
            self._fetch()
        if self.p.phase == "paused" and self._paused_at is not None and now - self._paused_at > 5.0:
            self._paused_at = None
            n = self.p.seq
            e = self.p.log.entries[n - 1] if n else None
            self.p.report_desync({"seq": n, "hashes": [], "path": "unknown (the sequencer did not search)",
                             "entry": [e.n, e.author, e.action, e.hash] if e else []})

    def _leader_lost(self) -> None:
        old = self.p.leader_seat
        self.welcomed = False
        if self.p.header is None and self.p.phase in ("idle", "lobby", "seeding") and not self._lobby_retry:
            # Before the game there is nobody to fail over to; a flaky link (a lost segment holds
            # the TCP stream up for longer than dead_s) is no reason to leave the lobby yet: say
            # hello again (the host gives the seat back to our key) for LOBBY_PATIENCE_S.
            self._lobby_retry = True
            self.p.notice("info", None, "the host is silent: trying again")
            self.connecting = True
            self._connect_deadline = self.p.rt.now() + LOBBY_PATIENCE_S
            return self.send_hello()
        if self.p.header is None or self.p.phase not in ("game", "paused"):
            return self.p.give_up("the host went away", notice=True)
        if old is not None:
            self.p.election.dead.add(old)
            if old < len(self.p.seats):
                self.p.seats[old].away = True
            self.p.notice("away", old, f"the host {self.p.who(old)} is gone")
        self.p.elect()
