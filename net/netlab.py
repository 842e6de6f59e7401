"""A small LAN in Linux network namespaces, for tests of real peers over a real (lossy, slow) network.

    with Lab(peers=4, delays_ms=(25, 33, 42, 50), loss_pct=2) as lab:
        lab.prefix(0)          # ["ip", "netns", "exec", "<ns of peer 0>"]: run a process there
        lab.address(0)         # "10.77.0.1"
        lab.cut(2); lab.restore(2)
        lab.counters()         # {"loss": packets, "cut": packets} dropped by nftables

Topology (everything inside namespaces this lab creates; the host's own namespace is never touched):

    peer ns P_i:  eth0 10.77.0.(i+1)/24
                    |  veth
    switch ns S:  p<i> --[forwarder: delay]-- f<i> ==veth== b<i> --+-- br0 (bridge)
                                                                   |   nftables bridge table:
                                             (other peers' b<j>) --+   loss and cuts

The kernel here has no ``tc netem``, so (DESIGN.md "LAN tests on one machine"):
- **loss** and **cuts** are nftables rules in the bridge family on ``br0``'s forward hook in S
  (``numgen random`` for loss, a rule per direction of a cut port), each with a named counter;
- **delay** is :func:`forward`, a user-space AF_PACKET forwarder in S between ``p<i>`` and ``f<i>``:
  every frame peer i *sends* is held ``delays_ms[i]``; frames towards peer i pass at once.  So the
  one-way latency from peer i to peer j is ``delays_ms[i]`` and a round trip is the sum of both
  delays.  Offloads are off on every veth end (``ethtool -K``) so the forwarder sees whole frames
  with final checksums.  A peer with delay 0 is put on the bridge directly.

:func:`play` runs one whole bot game on a lab (peer i, the real ``python -m mq.cli host|join``
process, in namespace i, through net.harness) and returns what it saw (:class:`GameRun`: exit codes,
hashes, verified logs, drops, ping, commit latency, a cut's catch-up, who sequenced).
``python -m net.netlab check`` says whether this machine can build a lab; ``python -m net.netlab
game --games N [--cut follower|sequencer]`` is the long run (tests/test_net_netns.py the short one).

Invariants:
- Names are unique per lab (a random suffix), so labs may run side by side; addresses are
  10.77.0.0/24 inside the lab's own namespaces, which no other lab or the host can see.
- :meth:`Lab.close` (also on any failure in setup, and from ``__exit__``) ends every process left in
  the lab's namespaces and deletes the namespaces, which removes every link, the bridge and every
  nftables rule with them.  It never raises; it returns what it could not remove.
"""
from __future__ import annotations

import collections
import os
import re
import secrets
import select
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUBNET = "10.77.0"  # /24, only inside the lab's namespaces
ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4
TABLE = "mqlab"
OFFLOADS = ("tso", "gso", "gro", "tx", "rx", "sg")


class LabError(RuntimeError):
    """A command that should have worked did not."""


def _run(argv: list[str], input: str | None = None, timeout: float = 20) -> str:
    try:
        r = subprocess.run(argv, input=input, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise LabError(f"{' '.join(argv)}: no answer in {timeout}s") from None
    if r.returncode != 0:
        raise LabError(f"{' '.join(argv)}: exit {r.returncode}: {r.stderr.strip() or r.stdout.strip()}")
    return r.stdout


def unavailable() -> str | None:
    """Why this machine cannot build a lab, or None if it can (checked by building a tiny one:
    a namespace, a bridge, a veth pair, an nftables bridge table)."""
    if not sys.platform.startswith("linux"):
        return "network namespaces need Linux"
    if os.geteuid() != 0:
        return "network namespaces, bridges and nftables need root"
    for tool, pkg in (("ip", "iproute2"), ("nft", "nftables"), ("ethtool", "ethtool"), ("ping", "iputils-ping")):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (apt-get install {pkg})"
    ns = f"mqnl-{secrets.token_hex(3)}-probe"
    try:
        _run(["ip", "netns", "add", ns])
    except LabError as e:
        return f"cannot create a network namespace: {e}"
    try:
        _run(["ip", "-n", ns, "link", "add", "br0", "type", "bridge"])
        _run(["ip", "-n", ns, "link", "add", "name", "va", "type", "veth", "peer", "name", "vb"])
        _run(["ip", "netns", "exec", ns, "nft", "-f", "-"],
             input=f"table bridge {TABLE} {{\n chain fw {{\n type filter hook forward priority 0;\n }}\n}}\n")
        _run(["ip", "netns", "exec", ns, "ethtool", "-K", "va", "tso", "off"])
    except LabError as e:
        return f"cannot build a bridge, veth pair and nftables bridge table in a namespace: {e}"
    finally:
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)
    return None


@dataclass(frozen=True)
class Ping:
    """Round trips measured with ``ping`` between two peers."""

    sent: int
    received: int
    min_ms: float
    avg_ms: float
    max_ms: float


class Lab:
    """``peers`` namespaces on one bridge, with per-peer send delay and bridge-wide random loss."""

    def __init__(self, peers: int = 4, delays_ms: tuple[int, ...] | None = None, loss_pct: int = 0) -> None:
        if not 1 <= peers <= 200:
            raise ValueError("peers: 1 to 200")
        delays = tuple(delays_ms) if delays_ms is not None else (0,) * peers
        if len(delays) != peers or any(d < 0 or d > 10_000 for d in delays):
            raise ValueError("delays_ms: one per peer, 0 to 10000 ms")
        if not 0 <= loss_pct < 100:
            raise ValueError("loss_pct: 0 to 99")
        self.peers, self.delays_ms, self.loss_pct = peers, delays, loss_pct
        self.tag = secrets.token_hex(3)
        self.switch = f"mqnl-{self.tag}-sw"
        self._made: list[str] = []  # namespaces created, in order
        self._forwarder: subprocess.Popen | None = None
        self._cut: set[int] = set()

    # -- names ----------------------------------------------------------------------------------
    def ns(self, i: int) -> str:
        return f"mqnl-{self.tag}-p{i}"

    def address(self, i: int) -> str:
        return f"{SUBNET}.{i + 1}"

    def prefix(self, i: int) -> list[str]:
        """The argv prefix that runs a command inside peer i's namespace."""
        return ["ip", "netns", "exec", self.ns(i)]

    def port_of(self, i: int) -> str:
        """Peer i's port on the bridge (where cuts apply)."""
        return f"b{i}" if self.delays_ms[i] else f"p{i}"

    # -- setup / teardown -----------------------------------------------------------------------
    def __enter__(self) -> "Lab":
        try:
            self._build()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _sw(self, *args: str, input: str | None = None) -> str:
        return _run(["ip", "netns", "exec", self.switch, *args], input=input)

    def _add_ns(self, name: str) -> None:
        _run(["ip", "netns", "add", name])
        self._made.append(name)
        _run(["ip", "-n", name, "link", "set", "lo", "up"])
        # No IPv6 chatter (router solicitations, DAD) on the lab's links: the counters count the game.
        _run(["ip", "netns", "exec", name, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
              "net.ipv6.conf.default.disable_ipv6=1"])

    def _offloads_off(self, ns: str, dev: str) -> None:
        argv = ["ip", "netns", "exec", ns, "ethtool", "-K", dev]
        for o in OFFLOADS:
            argv += [o, "off"]
        # Some veth features are fixed; ethtool reports them but the ones we need (tx checksum,
        # segmentation, GRO) are settable, so "Could not change any device features" is an error.
        r = subprocess.run(argv, capture_output=True, text=True, timeout=20)
        if r.returncode != 0 and "Could not change any" in r.stderr:
            raise LabError(f"{' '.join(argv)}: {r.stderr.strip()}")
        feats = _run(["ip", "netns", "exec", ns, "ethtool", "-k", dev])
        for name in ("tx-checksumming", "tcp-segmentation-offload", "generic-segmentation-offload",
                     "generic-receive-offload"):
            if re.search(rf"^{name}: on", feats, re.M):
                raise LabError(f"{dev} in {ns}: {name} is still on")

    def _build(self) -> None:
        self._add_ns(self.switch)
        sw = ["ip", "-n", self.switch]
        _run([*sw, "link", "add", "br0", "type", "bridge", "stp_state", "0", "forward_delay", "0"])
        pairs = []
        for i in range(self.peers):
            ns = self.ns(i)
            self._add_ns(ns)
            _run(["ip", "link", "add", "name", "eth0", "netns", ns, "type", "veth", "peer", "name", f"p{i}",
                  "netns", self.switch])
            self._offloads_off(ns, "eth0")
            self._offloads_off(self.switch, f"p{i}")
            _run(["ip", "-n", ns, "addr", "add", f"{self.address(i)}/24", "dev", "eth0"])
            _run(["ip", "-n", ns, "link", "set", "eth0", "up"])
            if self.delays_ms[i]:
                _run([*sw, "link", "add", "name", f"f{i}", "type", "veth", "peer", "name", f"b{i}"])
                self._offloads_off(self.switch, f"f{i}")
                self._offloads_off(self.switch, f"b{i}")
                # The forwarder's ends take any frame (the peer's MAC is not theirs).
                _run([*sw, "link", "set", f"p{i}", "promisc", "on", "up"])
                _run([*sw, "link", "set", f"f{i}", "promisc", "on", "up"])
                pairs.append(f"p{i}:f{i}:{self.delays_ms[i]}")
            _run([*sw, "link", "set", self.port_of(i), "master", "br0", "up"])
        _run([*sw, "link", "set", "br0", "up"])
        loss = (f"meta protocol ip numgen random mod 100 < {self.loss_pct} counter name loss drop"
                if self.loss_pct else "")
        self._sw("nft", "-f", "-", input=f"""
table bridge {TABLE} {{
    counter loss {{ }}
    counter cut {{ }}
    chain cut {{ }}
    chain fw {{
        type filter hook forward priority 0; policy accept;
        jump cut
        {loss}
    }}
}}
""")
        if pairs:
            self._forwarder = subprocess.Popen(
                ["ip", "netns", "exec", self.switch, sys.executable, "-m", "net.netlab", "forward", *pairs],
                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            out, errs = self._forwarder.stdout, self._forwarder.stderr
            assert out is not None and errs is not None  # both PIPE
            ready, _, _ = select.select([out], [], [], 15)
            line = out.readline() if ready else ""
            if line.strip() != "ready":
                err = errs.read() if self._forwarder.poll() is not None else ""
                raise LabError(f"the delay forwarder did not start: {line!r} {err}")
        # Every peer hears every other one before the lab is handed over (ARP resolved, no drop).
        for i in range(1, self.peers):
            self._reach(0, i, 10)

    def _reach(self, i: int, j: int, timeout: float) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            r = subprocess.run([*self.prefix(i), "ping", "-c", "1", "-W", "1", self.address(j)],
                               capture_output=True, text=True, timeout=10)
            if r.returncode == 0:
                return
        raise LabError(f"peer {i} cannot reach peer {j} ({self.address(j)})")

    def close(self) -> list[str]:
        """End the lab's processes and delete its namespaces (and with them every link, the bridge
        and the nftables table).  Returns the namespaces that could not be deleted (none, normally)."""
        if self._forwarder is not None:
            if self._forwarder.poll() is None:
                self._forwarder.terminate()
                try:
                    self._forwarder.wait(5)
                except subprocess.TimeoutExpired:
                    self._forwarder.kill()
                    self._forwarder.wait(5)
            for f in (self._forwarder.stdout, self._forwarder.stderr):
                if f is not None:
                    f.close()
            self._forwarder = None
        left = []
        for ns in reversed(self._made):
            # Whatever still runs in our namespace is ours (a peer a test did not stop): end it,
            # or the namespace's links outlive its name.
            try:
                r = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True, timeout=20)
                for pid in r.stdout.split():
                    try:
                        os.kill(int(pid), signal.SIGKILL)
                    except (ProcessLookupError, ValueError):
                        pass
                deleted = subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=20).returncode == 0
            except (OSError, subprocess.TimeoutExpired):
                deleted = False
            if not deleted:
                left.append(ns)
        self._made = [ns for ns in self._made if ns in left]
        return left

    # -- impairments ----------------------------------------------------------------------------
    def cut(self, i: int) -> None:
        """Drop every frame to and from peer i at the bridge (counted in ``counters()["cut"]``)."""
        if i in self._cut:
            return
        port = self.port_of(i)
        self._sw("nft", "add", "rule", "bridge", TABLE, "cut", "iifname", port, "counter", "name", "cut", "drop")
        self._sw("nft", "add", "rule", "bridge", TABLE, "cut", "oifname", port, "counter", "name", "cut", "drop")
        self._cut.add(i)

    def restore(self, i: int) -> None:
        """Undo :meth:`cut` for peer i (the other cuts stay)."""
        self._cut.discard(i)
        self._sw("nft", "flush", "chain", "bridge", TABLE, "cut")
        for j in sorted(self._cut):
            self._cut.discard(j)
            self.cut(j)

    def counters(self) -> dict[str, int]:
        """Packets dropped so far: ``loss`` (random loss) and ``cut`` (cuts)."""
        out = {}
        for name in ("loss", "cut"):
            text = self._sw("nft", "list", "counter", "bridge", TABLE, name)
            m = re.search(r"packets (\d+)", text)
            out[name] = int(m.group(1)) if m else 0
        return out

    def ping(self, i: int, j: int, count: int = 10, interval: float = 0.2) -> Ping:
        """Round trips from peer i to peer j through the bridge, the forwarder and the loss."""
        r = subprocess.run([*self.prefix(i), "ping", "-n", "-q", "-c", str(count), "-i", str(interval),
                            "-W", "2", self.address(j)], capture_output=True, text=True,
                           timeout=count * interval + 10)
        m = re.search(r"(\d+) packets transmitted, (\d+) received", r.stdout)
        if not m:
            raise LabError(f"ping {i}->{j}: {r.stdout} {r.stderr}")
        rtt = re.search(r"= ([\d.]+)/([\d.]+)/([\d.]+)/", r.stdout)
        lo, avg, hi = (float(x) for x in rtt.groups()) if rtt else (0.0, 0.0, 0.0)
        return Ping(int(m.group(1)), int(m.group(2)), lo, avg, hi)


# =============================================================================================
# A game on the lab: real peer processes (net.harness), one per namespace
# =============================================================================================
@dataclass(frozen=True)
class Cut:
    """A peer cut off from the bridge for a while during the game."""

    peer: int  # harness index (0: the host, the first sequencer)
    seat: int
    at_entry: int  # the cut peer's log length when it was cut
    behind: int  # entries the others held beyond its cut point when it was restored
    caught_up_s: float | None  # seconds from the restore until it held all those (None: never)


@dataclass(frozen=True)
class GameRun:
    """What :func:`play` saw.  ``codes[i]`` is None for a peer still running at the deadline."""

    seconds: float  # the game's start to the last peer's exit (or the deadline)
    codes: dict[int, int | None]
    summaries: dict[int, tuple[int, str] | None]  # (entries, state hash) each peer printed at the end
    logs: dict[int, tuple[int, str | None, bool]]  # (entries, final hash hex, replay --verify ok)
    identical: bool  # every peer's log file has the same bytes
    drops: dict[str, int]  # nftables counters: "loss", "cut"
    rtt_ms: dict[int, float]  # ping from peer 0 to peer j: average round trip
    commit_ms: dict[int, tuple[float, float]]  # each peer's commit latency (p50, p99) as it printed it
    cut: Cut | None
    sequencers: tuple[int, ...]  # the peers that were sequencer at some time (the host first)
    diagnosis: str  # who sequenced what, where logs part: for a failure message

    def split_brain(self) -> bool:
        """Peers ended the game with different final hashes: two games where there was one."""
        return len({s for s in self.summaries.values() if s is not None}) > 1

    def ok(self) -> bool:
        hashes = {s for s in self.summaries.values()}
        return (all(c == 0 for c in self.codes.values()) and len(hashes) == 1 and None not in hashes
                and all(v for _, _, v in self.logs.values()) and self.identical
                and (self.cut is None or self.cut.caught_up_s is not None))

    def figures(self) -> str:
        n = next(iter(self.summaries.values()), None)
        lines = [f"game: {self.seconds:.1f} s, {n[0] if n else '?'} entries, final hash {n[1] if n else '?'}; "
                 f"exit codes {self.codes}",
                 f"nftables drops: {self.drops['loss']} by loss, {self.drops['cut']} by the cut",
                 "ping from peer 0: " + ", ".join(f"->{j} {ms:.1f} ms" for j, ms in sorted(self.rtt_ms.items())),
                 "commit latency p50/p99 (proposal sent -> entry applied): "
                 + ", ".join(f"peer {i} {a:.0f}/{b:.0f} ms" for i, (a, b) in sorted(self.commit_ms.items()))]
        if self.cut is not None:
            c = self.cut
            lines.append(f"cut: peer {c.peer} (seat {c.seat}) at its entry {c.at_entry}, {c.behind} entries "
                         f"behind at the restore, caught up "
                         + (f"{c.caught_up_s:.1f} s after" if c.caught_up_s is not None else "never"))
        return "\n".join(lines)


NET_OPTS = ("--ping-ms", "250", "--dead-ms", "1500")  # the defaults: what a real LAN game uses


def play(lab: Lab, work: str, *, seed: int = 1, window_ms: int = 2000, cut: int | None = None,
         cut_at: int = 150, cut_s: float = 30.0, away: str = "wait", away_s: int = 60, catch_up_s: float = 60.0,
         timeout: float = 240.0) -> GameRun:
    """Play one headless bot game of ``lab.peers`` seats, peer i (``python -m mq.cli host|join``)
    in ``lab``'s namespace i (peer 0 hosts), the game seed fixed by ``seed`` (every peer is ours).  With ``cut``: once that
    peer's log holds ``cut_at`` entries, cut it off for ``cut_s`` seconds, then restore it.  Away
    seats are waited for (``away="wait"``: the others go on until the game needs the cut seat, and
    the game cannot end without it) or played by the sequencer's bot after ``away_s`` (``"bot"``:
    the game may end during the cut, with nobody left for the cut peer to rejoin).  The cut peer has
    caught up once its log holds every entry the others held at the restore (the same entries:
    a log as long but of another game does not count), within ``catch_up_s``.
    Every wait is bounded by ``timeout`` in all; the peers are killed at the end in any case."""
    from net import gamelog
    from net.harness import Cluster
    from net.replay import replay

    rtt = {j: lab.ping(0, j, count=10, interval=0.05).avg_ms for j in range(1, lab.peers)}
    before = lab.counters()
    opts = [*NET_OPTS, "--timeout", str(int(timeout)), "--local-seed", str(seed)]
    end = time.monotonic() + timeout
    record = None
    with Cluster(work, prefix=lab.prefix, address=lab.address) as c:
        c.host("--seats", str(lab.peers), "--window-ms", str(window_ms), "--away", away,
               "--away-s", str(away_s), *opts)
        for i in range(1, lab.peers):
            c.join(i, *opts)
        seats = {i: c.seat(i) for i in range(lab.peers)}
        t0 = time.monotonic()
        if cut is not None:
            c.wait_entries(cut, cut_at, max(1.0, end - time.monotonic()))
            at = c.entries(cut)
            lab.cut(cut)
            time.sleep(cut_s)
            # What the others hold now (the longest of their logs) is what it must catch up on.
            theirs = max((_entries(c.log(i)) for i in range(lab.peers) if i != cut), key=len)
            lab.restore(cut)
            restored = time.monotonic()
            caught = None
            while time.monotonic() < min(end, restored + catch_up_s):
                mine = _entries(c.log(cut))
                if len(mine) >= len(theirs) and (not theirs or mine[len(theirs) - 1].raw == theirs[-1].raw):
                    caught = time.monotonic() - restored
                    break
                if c.procs[cut].p.poll() is not None:
                    break
                time.sleep(0.1)
            record = Cut(cut, seats[cut], at, max(0, len(theirs) - at), caught)
        codes: dict[int, int | None] = {}
        for i, p in c.procs.items():
            try:
                codes[i] = p.wait(max(0.1, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                codes[i] = None
        seconds = time.monotonic() - t0
        summaries, commit = {}, {}
        for i, p in c.procs.items():
            m = re.search(r"game over after (\d+) entries, state hash ([0-9a-f]{16})", p.out())
            summaries[i] = (int(m.group(1)), m.group(2)) if m else None
            m = re.search(r"commit latency p50 ([\d.]+) ms p99 ([\d.]+) ms", p.err())
            if m:
                commit[i] = (float(m.group(1)), float(m.group(2)))
        diagnosis = _diagnose(c, seats)
        sequencers = (0, *(i for i in sorted(c.procs) if i and "sequencer now" in c.procs[i].err()))
    after = lab.counters()
    logs = {}
    for i in range(lab.peers):
        try:
            r = replay(c.log(i))
            logs[i] = (r.entries, f"{r.final_hash:016x}" if r.final_hash is not None else None, r.ok)
        except (OSError, gamelog.LogCorrupt):
            logs[i] = (0, None, False)
    raw: list[bytes | None] = []
    for i in range(lab.peers):
        try:
            with open(c.log(i), "rb") as f:
                raw.append(f.read())
        except OSError:  # the game never started there (a peer left the lobby)
            raw.append(None)
    return GameRun(seconds, codes, summaries, logs, None not in raw and len(set(raw)) == 1,
                   {k: after[k] - before[k] for k in after}, rtt, commit, record, sequencers, diagnosis)


def _entries(path: str) -> list:
    from net import gamelog

    try:
        return gamelog.read(path).entries
    except (OSError, gamelog.LogCorrupt):  # not there yet, or a record being written
        return []


def _diagnose(c, seats: dict[int, int]) -> str:
    """Who claimed to be sequencer and when, each log's length, and where the logs part."""
    from net import gamelog

    lines = []
    entries = {}
    for i, p in c.procs.items():
        err = p.err()
        claims = re.findall(r"^(\S+ \S+) \w+ INFO .*?(sequencer now \(seat \d+\) at entry \d+)", err, re.M)
        away = re.findall(r"^(\S+ \S+) \w+ INFO \[(?:away|back|bot)\] (.*)$", err, re.M)
        try:
            entries[i] = gamelog.read(c.log(i)).entries
        except (OSError, gamelog.LogCorrupt) as e:
            entries[i] = []
            lines.append(f"peer {i}: log unreadable: {e}")
        state = "running" if p.p.poll() is None else f"exit {p.p.returncode}"
        lines.append(f"peer {i} (seat {seats[i]}, {state}): {len(entries[i])} entries; "
                     + "; ".join(f"{t} {w}" for t, w in claims + away))
    # The reference: the log most peers ended with (the longest among equals).
    ends = collections.Counter(es[-1].raw for es in entries.values() if es)
    ref = max(entries.values(), key=lambda es: (ends[es[-1].raw] if es else 0, len(es)))
    ref_peers = [i for i, es in entries.items() if es and ref and es[-1].raw == ref[-1].raw]
    for i, es in entries.items():
        part = next((k for k, (a, b) in enumerate(zip(es, ref)) if a.raw != b.raw), None)
        if part is not None:
            lines.append(f"peer {i}: its log parts from peers {ref_peers}' at entry {part + 1}")
    return "\n".join(lines)


# =============================================================================================
# The delay forwarder (runs in the switch namespace: python -m net.netlab forward p0:f0:25 ...)
# =============================================================================================
def _packet_socket(dev: str) -> socket.socket:
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
    s.bind((dev, 0))
    s.setblocking(False)
    return s


def forward(pairs: list[tuple[str, str, float]], ready=None) -> None:
    """Copy every frame between the two devices of each pair: frames arriving on ``a`` leave on
    ``b`` after ``delay_ms``, frames arriving on ``b`` leave on ``a`` at once.  Runs until SIGTERM.
    Frames keep their order (a constant delay per direction: a FIFO per direction)."""
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    routes = {}  # fd -> (in socket, out socket, delay s, queue)
    queues = []
    for a, b, delay_ms in pairs:
        sa, sb = _packet_socket(a), _packet_socket(b)
        qa: collections.deque = collections.deque()
        qb: collections.deque = collections.deque()
        routes[sa.fileno()] = (sa, sb, delay_ms / 1000, qa)
        routes[sb.fileno()] = (sb, sa, 0.0, qb)
        queues += [(qa, sb), (qb, sa)]
    if ready is not None:
        ready()
    poller = select.poll()
    for fd in routes:
        poller.register(fd, select.POLLIN)
    while not stop:
        now = time.monotonic()
        due = min((q[0][0] for q, _ in queues if q), default=None)
        timeout = 1000 if due is None else max(0, (due - now) * 1000)
        try:
            events = poller.poll(timeout)
        except InterruptedError:
            continue
        now = time.monotonic()
        for fd, _ in events:
            sin, sout, delay, q = routes[fd]
            while True:
                try:
                    frame, addr = sin.recvfrom(65536)
                except BlockingIOError:
                    break
                if addr[2] == PACKET_OUTGOING:  # what we sent ourselves on this device
                    continue
                q.append((now + delay, frame))
        now = time.monotonic()
        for q, sout in queues:
            while q and q[0][0] <= now:
                _, frame = q.popleft()
                try:
                    sout.send(frame)
                except OSError:  # a full queue or the link going down: the frame is lost, like on a wire
                    pass


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m net.netlab", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("forward", help="the delay forwarder (inside the lab's switch namespace)")
    f.add_argument("pairs", nargs="+", metavar="A:B:DELAY_MS")
    sub.add_parser("check", help="say whether this machine can build a lab")
    g = sub.add_parser("game", help="play whole bot games on a lab and print the figures (a longer run)")
    g.add_argument("--games", type=int, default=3)
    g.add_argument("--peers", type=int, default=4)
    g.add_argument("--delays", default="25,33,42,50", help="ms each peer's frames are held (default 25,33,42,50)")
    g.add_argument("--loss", type=int, default=2, help="percent of IP frames the bridge drops (default 2)")
    g.add_argument("--cut", choices=("none", "follower", "sequencer"), default="none",
                   help="cut a follower (the last peer) or the sequencer (the host) off mid-game")
    g.add_argument("--cut-s", type=float, default=30.0)
    g.add_argument("--away", choices=("wait", "bot"), default="wait",
                   help="a cut player's seat is waited for, or played by a bot after --away-s (default wait)")
    g.add_argument("--away-s", type=int, default=2)
    g.add_argument("--seed", type=int, default=1, help="the first game's seed (then +1 per game)")
    g.add_argument("--keep", metavar="DIR", help="keep the peers' logs and output under DIR")
    g.add_argument("--timeout", type=float, default=240.0,
                   help="seconds a game may take in all (default 240; heavy loss needs more)")
    args = ap.parse_args(argv)
    if args.cmd == "game":
        return _games(args)
    if args.cmd == "check":
        why = unavailable()
        print(why or "ok: network namespaces, bridges, nftables and ethtool work here")
        return 1 if why else 0
    pairs = []
    for p in args.pairs:
        a, b, d = p.split(":")
        pairs.append((a, b, float(d)))
    forward(pairs, ready=lambda: print("ready", flush=True))
    return 0


def _games(args) -> int:
    import tempfile

    why = unavailable()
    if why:
        print(f"netlab: {why}", file=sys.stderr)
        return 2
    # A terminated run still cleans up: SystemExit unwinds through Lab.__exit__ and Cluster.__exit__.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    delays = tuple(int(d) for d in args.delays.split(","))
    cut = {"none": None, "follower": args.peers - 1, "sequencer": 0}[args.cut]
    failed = 0
    base = args.keep or tempfile.mkdtemp(prefix="mq-netlab-")
    for g in range(args.games):
        work = os.path.join(base, f"g{g}")
        os.makedirs(work, exist_ok=True)
        with Lab(args.peers, delays, args.loss) as lab:
            run = play(lab, work, seed=args.seed + g, cut=cut, cut_s=args.cut_s, away=args.away,
                       away_s=args.away_s, timeout=args.timeout)
        print(f"game {g + 1} (seed {args.seed + g}): {'ok' if run.ok() else 'FAILED'}\n{run.figures()}", flush=True)
        if not run.ok():
            failed += 1
            print(run.diagnosis, flush=True)
    print(f"{args.games - failed} passed, {failed} failed; logs under {base}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
