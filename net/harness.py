"""Run real peer processes on loopback: the test and soak harness for LAN games.

Each peer is ``python -m net.cli host|join ... --headless --bot`` in its own process, with its own
``MQ_HOME`` (identity, logs) under a work directory, its stdout/stderr in files there.  Every wait is
bounded; ports are picked by the host itself (``--port 0``) and read from its output, and so is the
join code it shows, which every joiner and spectator is given (``--code``), as a person would type it.

    with Cluster(tmpdir) as c:
        c.host(seats=4)
        for i in (1, 2, 3):
            c.join(i)
        c.wait_all(30)

By default every peer runs on this machine and listens on 127.0.0.1.  ``prefix`` and ``address``
place peer i elsewhere: its command line starts with ``prefix(i)`` (``ip netns exec NS``: a network
namespace of net.netlab) and it listens on, and is reached at, ``address(i)``.
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from typing import Callable

from net import gamelog

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOOPBACK = "127.0.0.1"
FAST = ["--ping-ms", "100", "--dead-ms", "700", "--bind", LOOPBACK, "-v"]


class Proc:
    def __init__(self, name: str, argv: list[str], env: dict, work: str) -> None:
        self.name = name
        self.argv = argv
        self.out_path = os.path.join(work, f"{name}.out")
        self.err_path = os.path.join(work, f"{name}.err")
        # Append: a restarted peer keeps the earlier output for post-mortems; out() reads only ours.
        self._start = os.path.getsize(self.out_path) if os.path.exists(self.out_path) else 0
        with open(self.out_path, "ab") as out, open(self.err_path, "ab") as err:
            self.p = subprocess.Popen(argv, stdout=out, stderr=err, env=env, cwd=ROOT)

    def out(self) -> str:
        with open(self.out_path, "rb") as f:
            f.seek(self._start)
            return f.read().decode("utf-8", "replace")

    def err(self) -> str:
        with open(self.err_path, encoding="utf-8", errors="replace") as f:
            return f.read()

    def wait_for(self, pattern: str, timeout: float, stream: str = "out") -> re.Match:
        """Wait until this run's stdout (or stderr, ``stream="err"``) matches ``pattern``."""
        read = self.out if stream == "out" else self.err
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = re.search(pattern, read())
            if m:
                return m
            if self.p.poll() is not None:
                m = re.search(pattern, read())
                if m:
                    return m
                raise AssertionError(f"{self.name} exited ({self.p.returncode}) before {pattern!r}:\n"
                                     f"{self.out()}\n{self.err()[-3000:]}")
            time.sleep(0.01)
        raise AssertionError(f"{self.name}: no {pattern!r} within {timeout}s:\n{self.out()}\n{self.err()[-3000:]}")

    def kill9(self) -> None:
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGKILL)
        self.p.wait(5)

    def wait(self, timeout: float) -> int:
        return self.p.wait(timeout)


class Cluster:
    """A game's peer processes under ``work``: peer i has MQ_HOME work/home<i> and log work/p<i>.mqlog."""

    module = "mq.cli"  # each peer runs ``python -m <module> host|join ...`` (bench/net.py traces it)

    def __init__(self, work: str, env: dict | None = None,
                 prefix: Callable[[int], list[str]] | None = None,
                 address: Callable[[int], str] | None = None) -> None:
        self.work = work
        self.prefix = prefix or (lambda i: [])
        self.address = address or (lambda i: LOOPBACK)
        self.env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.env.pop("MQ_TEST_PERTURB", None)
        self.env.update(env or {})
        self.procs: dict[int, Proc] = {}
        self.port: int | None = None
        self.code: str | None = None  # the host's join code (None: an --open host)
        self._runs: dict[int, int] = {}

    def log(self, i: int) -> str:
        return os.path.join(self.work, f"p{i}.mqlog")

    def _spawn(self, i: int, args: list[str], env: dict | None) -> Proc:
        e = dict(self.env, MQ_HOME=self.home(i))
        e.update(env or {})
        self._runs[i] = self._runs.get(i, 0) + 1
        argv = [*self.prefix(i), sys.executable, "-m", self.module, *args]
        proc = Proc(f"p{i}", argv, e, self.work)
        self.procs[i] = proc
        return proc

    def _fast(self, i: int) -> list[str]:
        return [*FAST, "--bind", self.address(i)]  # the last --bind counts

    def host(self, *args: str, i: int = 0, env: dict | None = None, resume: bool = False,
             beacon: bool = False, timeout: float = 15, ready: bool = True) -> Proc:
        """Start the host; with ``ready`` (the default) wait until it listens and note its port
        and join code (without: a host expected to stop at once)."""
        cmd = ["host", "--headless", "--bot", "--port", "0", "--name", f"p{i}",
               "--log", self.log(i), "--timeout", "60", *self._fast(i), *args]
        if not beacon:
            cmd.append("--no-beacon")
        if resume:
            cmd += ["--resume", self.log(i)]
        proc = self._spawn(i, cmd, env)
        if not ready:
            return proc
        self.port = int(proc.wait_for(r"(?:hosting|resuming) game \w+ on port (\d+)", timeout).group(1))
        m = re.search(r"join code ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})", proc.out())
        self.code = m.group(1) if m else None
        return proc

    def _code(self) -> list[str]:
        return ["--code", self.code] if self.code else []

    def join(self, i: int, *args: str, env: dict | None = None, port: int | None = None, at: int = 0,
             own_log: bool = True) -> Proc:
        """Peer i joins the peer ``at`` (the host, by default) on ``port`` (the host's), logging to
        ``log(i)`` (``own_log`` False: where ``mq join`` keeps it by default, in its MQ_HOME)."""
        where = ["--log", self.log(i)] if own_log else []
        cmd = ["join", f"{self.address(at)}:{port or self.port}", "--headless", "--bot", "--name", f"p{i}",
               *where, "--timeout", "60", *self._fast(i), *self._code(), *args]
        return self._spawn(i, cmd, env)

    def home(self, i: int) -> str:
        """Peer i's MQ_HOME (its identity, and its logs unless given ``--log``)."""
        return os.path.join(self.work, f"home{i}")

    def watch(self, i: int, *args: str) -> Proc:
        cmd = ["join", f"{self.address(0)}:{self.port}", "--headless", "--watch", "--name", f"w{i}",
               "--log", self.log(i), "--timeout", "60", *self._fast(i), *self._code(), *args]
        return self._spawn(i, cmd, None)

    def entries(self, i: int) -> int:
        """How many entries peer i's log holds now (tolerates a record being written)."""
        try:
            return len(gamelog.read(self.log(i)).entries)
        except (OSError, gamelog.LogCorrupt):
            return 0

    def wait_entries(self, i: int, n: int, timeout: float) -> int:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            got = self.entries(i)
            if got >= n:
                return got
            time.sleep(0.005)
        raise AssertionError(f"peer {i}: fewer than {n} entries after {timeout}s")

    def wait_all(self, timeout: float, which=None) -> dict[int, int]:
        end = time.monotonic() + timeout
        codes = {}
        for i, p in self.procs.items():
            if which is not None and i not in which:
                continue
            try:
                codes[i] = p.wait(max(0.1, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                raise AssertionError(f"{p.name} still running after {timeout}s:\n"
                                     f"{p.out()}\n{p.err()[-4000:]}") from None
        return codes

    def seat(self, i: int, timeout: float = 15) -> int:
        """The seat peer i was given (the host is seat 0; joiners get seats in arrival order)."""
        if i == 0:
            return 0
        return int(self.procs[i].wait_for(r"joined game \w+ \(seat (\d+)\)", timeout).group(1))

    def peer_port(self, i: int, timeout: float = 15) -> int:
        """The port of peer i's own ROUTER (where it answers if it becomes sequencer)."""
        return int(self.procs[i].wait_for(r"(?:listening|on) port (\d+)", timeout).group(1))

    def summary(self, i: int) -> tuple[int, str]:
        m = self.procs[i].wait_for(r"game over after (\d+) entries, state hash ([0-9a-f]{16})", 1)
        return int(m.group(1)), m.group(2)

    def close(self) -> None:
        for p in self.procs.values():
            if p.p.poll() is None:
                p.kill9()

    def __enter__(self) -> "Cluster":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def bench(games: int, seats: int, work: str) -> dict:
    """Play ``games`` games of ``seats`` headless bot peers (one process each) on loopback; return
    entries per second (at the sequencer, header to end) and the players' commit latency
    (proposal sent -> entry applied, in ms) over all games."""
    import json

    entries = seconds = 0.0
    samples: list[float] = []
    for g in range(games):
        gw = os.path.join(work, f"g{g}")
        os.makedirs(gw)
        stats = {i: os.path.join(gw, f"stats{i}.json") for i in range(seats)}
        with Cluster(gw) as c:
            c.host("--seats", str(seats), env={"MQ_NET_STATS": stats[0]})
            for i in range(1, seats):
                c.join(i, env={"MQ_NET_STATS": stats[i]})
            codes = c.wait_all(120)
            if any(codes.values()):
                raise AssertionError(f"game {g}: exit codes {codes}")
        lead = json.load(open(stats[0]))
        entries += lead["entries"]
        seconds += lead["seconds"]
        for i in range(1, seats):
            samples += json.load(open(stats[i]))["commit_ms"]
    samples.sort()
    return {"games": games, "entries": int(entries), "entries_per_s": entries / seconds,
            "commit_ms_p50": samples[len(samples) // 2],
            "commit_ms_p99": samples[min(len(samples) - 1, len(samples) * 99 // 100)],
            "proposals": len(samples)}


def main(argv: list[str] | None = None) -> int:
    import argparse
    import tempfile

    ap = argparse.ArgumentParser(prog="python -m net.harness",
                                 description="LAN soak/bench: whole games of headless bot peers on loopback")
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--seats", type=int, default=4)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="mq-net-bench-") as work:
        r = bench(args.games, args.seats, work)
    print(f"{r['games']} games, {r['entries']} entries, {r['entries_per_s']:.0f} entries/s; "
          f"commit latency p50 {r['commit_ms_p50']:.2f} ms, p99 {r['commit_ms_p99']:.2f} ms "
          f"over {r['proposals']} proposals")
    return 0


if __name__ == "__main__":
    sys.exit(main())
