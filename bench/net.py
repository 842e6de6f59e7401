"""LAN benchmarks on loopback: the ZeroMQ floor, commit latency to every peer, and catch-up.

``python -m bench.net [--quick]`` (also part of ``python -m bench``).  Everything is measured in this
run on 127.0.0.1 only; no beacon is sent.  Percentiles are nearest-rank over all samples.

1. **Round trip.**  A DEALER sends a 100-byte msgpack message (a ``propose``-shaped map) to a
   ROUTER in another process, which sends it straight back; plain synchronous pyzmq sockets, one
   message in flight, 200 warm-up round trips, then 2 000 (``--quick``) or 20 000 timed ones.
   This is the network floor under any commit: one proposal up, one entry down.  The other floor
   is the sequencer's ``fdatasync`` before it sends an entry (durable before sent, DESIGN.md):
   appended 120-byte records synced one by one in the directory the peers' logs use, 20 warm-up
   syncs then 200 (``--quick``) or 1 000; the commit rows also give their p50 over the sum of
   the two p50s.

2. **Commit latency to every peer.**  Whole games of N = 2, 4 and 6 headless bot peers (one
   process each, ``net.harness.Cluster``, loopback, no beacon; 2 games per N with ``--quick``, 8
   without).  A game is stopped after 20 s (they take 1-3 s): some 2-player bot games never end
   (e.g. ``mq.sim.play_game(2, 10020187043821319314)`` is at turn 7 504 after 20 000 actions), so
   such a game is not counted, another is played instead (at most 2), and the row says so.  Each
   peer process runs ``python -m bench.net host|join ...``, which is ``mq.cli``
   with two listeners added (no change to the peer code): every ``Peer.propose`` notes its clock
   time, and every applied entry notes its clock time at that peer (before anything else hears of
   it).  The clock is CLOCK_MONOTONIC, one clock for every process on the machine, so times from
   different peers compare directly.  Each process writes its trace to ``MQ_NET_TRACE`` when it
   exits.  For every proposal that became entry n: *commit to all* = (the latest time any of the N
   peers applied n) - (the time it was proposed); *at the proposer* = when the proposer itself
   applied it (what ``python -m net.harness`` reports).  The first row per N counts every
   proposal, the host's (seat 0, the sequencer: applied at once, then one hop to the others)
   and the joiners' (up to the sequencer, then down to everyone); the second row the joiners'
   alone.  Entries the table makes itself (timers, leader-run bots) have no proposal and are not
   counted.  The ratio is commit-to-all p50 over the round-trip p50: how many network floors a
   commit costs (four processes or more share this machine's cores, so it is mostly CPU).  (An
   entry is applied by a follower as soon as it arrives; its fdatasync follows in the same
   event-loop pass, off this path: docs/net.md "fsync policy".)

3. **Catch-up.**  One log file of a single long game, written with net.gamelog exactly as a peer
   writes it (header with nonces and roster, entries with author, proposal id, state hash and
   chain link), every entry applied by the engine.  Bot games end after a few hundred actions, so
   this game's players pick a uniformly random legal action most of the time (CATCHUP_RANDOM) and
   the bot policy's otherwise (every entry is still a legal engine step, of the usual kinds); since the
   revised rules end such games of 4 players after 250-4 000 entries, it is a game of 6 players,
   the longest of CATCHUP_TRIES seeds, cut at 10 000 entries (the table says how many it has).
   Then, timed (median of 1 or 3 repeats):

   - *rejoin from its own log*: what ``Peer.join`` does first for a peer that comes back with its
     log (``Peer.open_log``): read the file, check every CRC, the numbering and the hash
     chain (gamelog), then re-apply every entry with the engine and compare each state hash with
     the recorded one;
   - *rejoin over the wire*: a peer whose log has only the header rejoins a sequencer (in this
     process, resumed from the full log and still waiting for the others, so it adds no entries;
     a third peer holding the whole log joins first, so that the three are a quorum of 6 seats)
     and fetches everything: ``fetch``/``entries`` in batches of 2 000, each entry checked (chain,
     author, engine, hash), appended to its log, one fdatasync per batch, hashes reported.  Timed
     from ``Peer.join`` to the last entry applied, with the default heartbeat (250 ms).  After
     a full batch the follower fetches the next one at once (before that, it waited for the
     sequencer's next ``tick``: 1.42 s, now 0.76 s on a 2-core machine);
   - ``mq replay LOG --verify`` (net.replay): the same checks from the file plus a full hash
     recompute at the end; an offline tool, shown for comparison.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import os
import random
import re
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import msgpack

CLOCK = time.CLOCK_MONOTONIC
# The catch-up log: one game of 6 players (games of 4 end after a few thousand entries since the
# rules were revised), the longest of CATCHUP_TRIES seeds, cut at CATCHUP_ENTRIES.
CATCHUP_ENTRIES = 10_000
CATCHUP_PLAYERS = 6
CATCHUP_TRIES = 8
CATCHUP_RANDOM = 0.8  # the share of uniformly random moves (the rest: the bot policy's)


def _now_ns() -> int:
    return time.clock_gettime_ns(CLOCK)


def pct(xs: list[float], q: float) -> float:
    """Nearest-rank percentile ``q`` (0..100) of ``xs``."""
    s = sorted(xs)
    return s[min(len(s) - 1, int(len(s) * q / 100))]


# -- 1. the ZeroMQ round trip --------------------------------------------------------------------
def message(size: int = 100) -> bytes:
    """A msgpack map shaped like a ``propose`` (net/wire.py), padded to exactly ``size`` bytes."""
    base = {"t": "propose", "pid": 123456, "x": [1, "move", [2, 0], []], "pad": b""}
    pad = size - len(msgpack.packb(base, use_bin_type=True))
    raw = msgpack.packb(dict(base, pad=b"x" * pad), use_bin_type=True)
    assert len(raw) == size, len(raw)
    return raw


def _echo() -> int:
    """``python -m bench.net --echo``: a ROUTER on 127.0.0.1 that sends every message back; prints
    its port; stops on b"stop" or after 10 s without a message."""
    import zmq

    ctx = zmq.Context()
    sock = ctx.socket(zmq.ROUTER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.setsockopt(zmq.RCVTIMEO, 10_000)
    port = sock.bind_to_random_port("tcp://127.0.0.1", min_port=20000, max_port=60000, max_tries=200)
    print(port, flush=True)
    try:
        while True:
            try:
                rid, msg = sock.recv_multipart()
            except zmq.Again:
                return 1
            if msg == b"stop":
                return 0
            sock.send_multipart([rid, msg])
    finally:
        sock.close(0)
        ctx.term()


def round_trips(samples: int, warmup: int = 200) -> list[float]:
    """Round trips in microseconds, DEALER here -> ROUTER in another process -> back."""
    import zmq

    proc = subprocess.Popen([sys.executable, "-m", "bench.net", "--echo"], stdout=subprocess.PIPE,
                            cwd=_root(), env=_env(), text=True)
    ctx = zmq.Context()
    sock = ctx.socket(zmq.DEALER)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 15)
        if not ready:
            raise RuntimeError("the echo process did not start within 15 s")
        port = int(proc.stdout.readline())
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.RCVTIMEO, 2000)
        sock.setsockopt(zmq.SNDTIMEO, 2000)
        sock.connect(f"tcp://127.0.0.1:{port}")
        msg = message()
        out = []
        for i in range(warmup + samples):
            t0 = time.perf_counter_ns()
            sock.send(msg)
            got = sock.recv()
            t1 = time.perf_counter_ns()
            if got != msg:
                raise RuntimeError("the echo changed the message")
            if i >= warmup:
                out.append((t1 - t0) / 1000)
        sock.send(b"stop")
        proc.wait(5)
        return out
    finally:
        sock.close(0)
        ctx.term()
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
        proc.stdout.close()


def syncs(directory: str, samples: int, warmup: int = 20) -> list[float]:
    """fdatasync after appending one 120-byte record, in microseconds, in ``directory`` (where the
    peers of this run keep their logs): the sequencer's other floor, as it syncs every entry
    before sending it (docs/net.md "fsync policy")."""
    path = os.path.join(directory, "sync-probe")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    out = []
    try:
        for i in range(warmup + samples):
            os.write(fd, b"r" * 120)
            t0 = time.perf_counter_ns()
            os.fdatasync(fd)
            if i >= warmup:
                out.append((time.perf_counter_ns() - t0) / 1000)
    finally:
        os.close(fd)
        os.unlink(path)
    return out


# -- 2. commit latency, traced peer processes ----------------------------------------------------
def _traced_peer(argv: list[str]) -> int:
    """``python -m bench.net host|join ...``: ``mq.cli`` with every proposal's and every applied
    entry's clock time recorded, written as JSON to ``MQ_NET_TRACE`` at exit."""
    from mq.cli import main
    from mq.table import Applied
    from net import peer as peermod

    path = os.environ.get("MQ_NET_TRACE")
    traces: list[dict] = []
    init0, propose0 = peermod.Peer.__init__, peermod.Peer.propose

    def init(self, *a, **k):
        init0(self, *a, **k)
        tr = {"applied": [], "mine": [], "sent": {}}
        self._bench_trace = tr
        traces.append(tr)

        def on(item, peer=self):
            if isinstance(item, Applied):
                t = _now_ns()
                tr["applied"].append([item.seq, t])
                e = peer.log.entries[item.seq - 1]  # appended before the entry is applied
                if e.pid is not None and e.pid[0] == peer.inc:
                    sent = tr["sent"].pop(e.pid[1], None)
                    if sent is not None:
                        tr["mine"].append([item.seq, sent])

        self.subscribe(on)  # first listener: before the client or the bot hears of the entry

    def propose(self, action):
        self._bench_trace["sent"][self._pid + 1] = _now_ns()  # propose() numbers it _pid + 1
        return propose0(self, action)

    peermod.Peer.__init__, peermod.Peer.propose = init, propose
    try:
        return main(argv)
    finally:
        if path:
            with open(path, "w", encoding="utf-8") as f:
                json.dump([{"applied": t["applied"], "mine": t["mine"]} for t in traces], f)


def _root() -> str:
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _env() -> dict:
    return dict(os.environ, PYTHONPATH=_root() + os.pathsep + os.environ.get("PYTHONPATH", ""))


GAME_S = 20  # a game's bound (--timeout); bot games end after 1-3 s, see commit_game


def commit_game(work: str, seats: int) -> dict[str, list]:
    """One game of ``seats`` traced bot peers (the host is seat 0); returns, in ms, commit to all
    peers for the host's own proposals (``host``) and for the others' (``to_all``), and when the
    others' proposals were applied at the proposer (``at_proposer``); ``stuck`` is [entries] if
    the game had not ended after GAME_S seconds."""
    from net.harness import Cluster

    class Traced(Cluster):
        module = "bench.net"

    os.makedirs(work)
    traces = {i: os.path.join(work, f"trace{i}.json") for i in range(seats)}
    bound = ["--timeout", str(GAME_S)]
    stuck = []
    with Traced(work) as c:
        c.host("--seats", str(seats), *bound, env={"MQ_NET_TRACE": traces[0]})
        for i in range(1, seats):
            c.join(i, *bound, env={"MQ_NET_TRACE": traces[i]})
        codes = c.wait_all(GAME_S + 30)
        timed_out = [re.search(r"timed out at entry (\d+)", p.out()) for p in c.procs.values()]
        if any(codes.values()):
            if not all(timed_out):
                tails = "\n".join(f"--- {p.name}:\n{p.out()}{p.err()[-2000:]}" for p in c.procs.values())
                raise RuntimeError(f"{seats}-peer game: exit codes {codes}\n{tails}")
            stuck = [int(timed_out[0].group(1))]  # a game the bots never finish (docstring)
    per = []
    for i in range(seats):
        with open(traces[i], encoding="utf-8") as f:
            (tr,) = json.load(f)
        per.append(tr)
    applied = [dict(map(tuple, tr["applied"])) for tr in per]
    out: dict[str, list] = {"host": [], "to_all": [], "at_proposer": [], "stuck": stuck}
    for i, tr in enumerate(per):
        for n, sent in tr["mine"]:
            times = [a.get(n) for a in applied]
            if None in times:
                continue  # a peer never applied it (cannot happen in a game that ended cleanly)
            out["host" if i == 0 else "to_all"].append((max(times) - sent) / 1e6)
            if i != 0:
                out["at_proposer"].append((applied[i][n] - sent) / 1e6)
    return out


# -- 3. catch-up ---------------------------------------------------------------------------------
def _key(i: int, salt: int) -> str:
    return hashlib.sha256(f"bench-net-key-{salt}-{i}".encode()).hexdigest()


def build_log(path: str, entries: int = CATCHUP_ENTRIES, players: int = CATCHUP_PLAYERS, seed: int = 1):
    """Write one game of ``entries`` entries to ``path`` as a peer writes its log; returns (header,
    identity keys per seat, entries written).  A game that ends before ``entries`` is kept if it
    is the longest so far and the next seed is tried (at most CATCHUP_TRIES): the longest wins."""
    from mq.bots import choose
    from mq.cards import load_default
    from mq.rules import actors, legal_actions, make_params, new_game, state_hash, step, view
    from mq.rules.actions import encode as encode_action
    from net import gamelog, identity, signing

    cards = load_default()
    params = make_params(players)
    best: tuple | None = None  # (entries, header, keys) of the longest game written to ``path``
    for attempt in range(CATCHUP_TRIES):
        salt = seed * 100 + attempt
        keys = [_key(i, salt) for i in range(players)]
        roster = [[f"p{i}", identity.public_id(keys[i]), "peer"] for i in range(players)]
        signers = [signing.Signer(signing.seed_for(k)) for k in keys]  # as a peer given no signing key
        nonces = [hashlib.sha256(f"bench-net-nonce-{salt}-{i}".encode()).digest() for i in range(players)]
        game_seed = gamelog.seed_from(nonces)
        header = gamelog.decode_header(gamelog.encode_header(
            hashlib.sha256(f"bench-net-game-{salt}".encode()).digest()[:8], game_seed, params, nonces, roster,
            [s.public for s in signers]))
        incs = [hashlib.sha256(f"bench-net-inc-{salt}-{i}".encode()).digest()[:8] for i in range(players)]
        counters = [0] * players
        rng = random.Random(salt)
        lg = gamelog.GameLog.create(path + ".try")
        try:
            lg.write_header(header)
            state = new_game(params, game_seed, cards)
            while lg.last_seq < entries and state.phase != "over":
                seat = actors(state)[0]
                # random moves, but no random suicide: a table where everyone dies ends at once
                # (the monsters win, Q-DEATH-5), long before the entries a test needs
                options = [a for a in legal_actions(state, seat, cards) if a.kind != "suicide"]
                if options and rng.random() < CATCHUP_RANDOM:
                    action = rng.choice(options)
                else:
                    action = choose(view(state, seat), seat, cards)
                state, _ = step(state, action, cards)
                counters[seat] += 1
                pid, x = (incs[seat], counters[seat]), encode_action(action)
                raw = gamelog.signed_entry(signers[0], header.game, lg.last_seq + 1, seat, pid, x, state_hash(state),
                                           lg.last_id, 8, signers[seat].sign_action(header.game, seat, pid, x))
                lg.append(gamelog.decode_entry(raw))
        finally:
            lg.close()
        if best is None or lg.last_seq > best[0]:
            best = (lg.last_seq, header, keys)
            os.replace(path + ".try", path)
        if lg.last_seq >= entries:
            break
    if os.path.exists(path + ".try"):
        os.remove(path + ".try")
    assert best is not None  # CATCHUP_TRIES >= 1
    return best[1], best[2], best[0]


def header_only(src_header, path: str) -> None:
    from net import gamelog

    lg = gamelog.GameLog.create(path)
    lg.write_header(src_header)
    lg.close()


async def rejoin_from_file(path: str, key: str, n: int) -> float:
    """Seconds for a returning peer to load its own log of ``n`` entries (check + replay), as
    Peer.join does."""
    from net.peer import Config, Peer

    peer = Peer(Config(name="p1", key=key, bind="127.0.0.1", log_path=path))
    try:
        t0 = time.perf_counter()
        peer.open_log(path)
        dt = time.perf_counter() - t0
        if peer.seq < n:
            raise RuntimeError(f"replayed {peer.seq} entries")
        return dt
    finally:
        await peer.close()


async def rejoin_over_wire(full: str, empty: str, held: str, keys: list[str], n: int) -> float:
    """Seconds for a peer whose log has only the header to fetch and apply ``n`` entries from a
    sequencer resumed from the full log (which waits for the others, so it adds nothing).  A third
    peer, which holds the whole log too (``held``, a copy), joins first: with the joiner it makes
    a quorum of the game's 6 seats (docs/net.md, "Quorum"), so the sequencer does not step down."""
    from net.peer import Config, Peer

    leader = Peer(Config(name="p0", key=keys[0], bind="127.0.0.1", log_path=full, settle_s=600))
    third = Peer(Config(name="p2", key=keys[2], bind="127.0.0.1", log_path=held))
    joiner = Peer(Config(name="p1", key=keys[1], bind="127.0.0.1", log_path=empty))
    try:
        await leader.resume(full)
        await third.join("127.0.0.1", leader.port, timeout=10)
        t0 = time.perf_counter()
        await joiner.join("127.0.0.1", leader.port, timeout=10)
        end = t0 + 120
        while joiner.seq < n:
            if time.perf_counter() > end or joiner.phase not in ("game",):
                raise RuntimeError(f"catch-up stopped at entry {joiner.seq} ({joiner.phase})")
            await asyncio.sleep(0.001)
        return time.perf_counter() - t0
    finally:
        await joiner.close()
        await third.close()
        await leader.close()


def replay_verify(path: str) -> float:
    from net.replay import replay

    t0 = time.perf_counter()
    res = replay(path)
    dt = time.perf_counter() - t0
    if not res.ok:
        raise RuntimeError(f"replay --verify failed: {res.problems}")
    return dt


def catch_up(work: str, repeats: int) -> dict[str, float]:
    full = os.path.join(work, "full.mqlog")
    t0 = time.perf_counter()
    header, keys, n = build_log(full)
    built = time.perf_counter() - t0
    out = {"build_s": built, "entries": n, "file": [], "wire": [], "replay": []}
    for r in range(repeats):
        copy = os.path.join(work, f"own{r}.mqlog")
        shutil.copyfile(full, copy)
        out["file"].append(asyncio.run(rejoin_from_file(copy, keys[1], n)))
        lead, empty = os.path.join(work, f"lead{r}.mqlog"), os.path.join(work, f"empty{r}.mqlog")
        held = os.path.join(work, f"held{r}.mqlog")
        shutil.copyfile(full, lead)
        shutil.copyfile(full, held)
        header_only(header, empty)
        out["wire"].append(asyncio.run(rejoin_over_wire(lead, empty, held, keys, n)))
        out["replay"].append(replay_verify(full))
    return out


# -- the table -----------------------------------------------------------------------------------
def main(quick: bool = False) -> list[tuple[str, str]]:
    from mq import core

    rtt = round_trips(2_000 if quick else 20_000)
    rtt50, rtt99 = pct(rtt, 50), pct(rtt, 99)
    rows = [
        ("core", core.IMPLEMENTATION),
        ("zmq round trip, 100 B (DEALER-ROUTER-DEALER)",
         f"p50 {rtt50:.0f} us, p99 {rtt99:.0f} us ({len(rtt)} samples)"),
    ]
    games = 2 if quick else 8
    with tempfile.TemporaryDirectory(prefix="mq-bench-net-") as work:
        sync = syncs(work, 200 if quick else 1000)
        sync50 = pct(sync, 50)
        floor = rtt50 + sync50
        rows.append(("fdatasync of one appended entry (the logs' disk)",
                     f"p50 {sync50:.0f} us, p99 {pct(sync, 99):.0f} us ({len(sync)} samples)"))
        rows.append(("commit floor = round trip + fdatasync", f"p50 {floor:.0f} us"))
        for seats in (2, 4, 6):
            got: dict[str, list] = {"host": [], "to_all": [], "at_proposer": []}
            stuck, g = 0, 0
            while g - stuck < games and g < games + 2:  # up to 2 more games for ones that never end
                one = commit_game(os.path.join(work, f"commit{seats}-{g}"), seats)
                g += 1
                if one.pop("stuck"):
                    stuck += 1
                    continue
                for k, v in one.items():
                    got[k] += v
            every = got["host"] + got["to_all"]
            if not every:
                rows.append((f"commit to all {seats} peers", f"no game of {g} ended within {GAME_S} s"))
                continue
            p50 = pct(every, 50)
            unended = f"; {stuck} more never ended, not counted" if stuck else ""
            rows.append((f"commit to all {seats} peers ({g - stuck} games{unended}, {len(every)} proposals)",
                         f"p50 {p50:.2f} ms, p99 {pct(every, 99):.2f} ms; "
                         f"p50 = {p50 * 1000 / rtt50:.1f}x round trip p50, "
                         f"{p50 * 1000 / floor:.1f}x the floor"))
            fol = got["to_all"]
            rows.append((f"  the joiners' proposals ({len(fol)})",
                         f"to all: p50 {pct(fol, 50):.2f} ms, p99 {pct(fol, 99):.2f} ms; "
                         f"at the proposer: p50 {pct(got['at_proposer'], 50):.2f} ms, "
                         f"p99 {pct(got['at_proposer'], 99):.2f} ms"))
        cu = catch_up(work, 1 if quick else 3)
    n = cu["entries"]
    for key, label in (("file", "catch-up: rejoin from own log (check + replay)"),
                       ("wire", "catch-up: rejoin over loopback (fetch + apply)"),
                       ("replay", "catch-up: mq replay --verify")):
        s = statistics.median(cu[key])
        rows.append((f"{label}, {n:,} entries", f"{s:.2f} s, {n / s:,.0f} entries/s"))
    rows.append(("  (writing that log, engine + bots)", f"{cu['build_s']:.1f} s"))
    return rows


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--echo"]:
        sys.exit(_echo())
    if args[:1] in (["host"], ["join"]):
        sys.exit(_traced_peer(args))
    from bench.engine import print_table

    print_table(main("--quick" in args))
