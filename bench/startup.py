"""Start-up benchmark: how long ``mq play`` takes from the command to the first drawn frame.

``mq play`` runs in a pseudo-terminal of 120x40 (pty, as in a real terminal); the clock starts
just before the process is spawned and stops when its output holds the first whole frame, the
lobby screen (mq.tui.lobby: its "Table options" and "Enter start"); then Enter is pressed and a
second clock runs until the game's first whole frame (the "Your hand" and "Actions" titles): the
bot peers joining, the seed exchange and the client.  Rows: a bare ``python -c "import mq.tui.app, net.client"``
(what a peer process pays before it does anything: why ``mq play`` forks its bot peers instead of
starting new interpreters, mq.tui.cli.ForkedBot), then ``mq play --players 2`` and the default
4 players.  Figures: the median, the minimum and the maximum over 5 runs (2 with ``--quick``), and
the machine's load average when the run started: on a shared machine the wall clock says as much
about the others as about mq.  Network: 127.0.0.1 only, no beacon; MQ_HOME a temporary directory.
"""
from __future__ import annotations

import fcntl
import os
import pty
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WIDTH, HEIGHT = 120, 40
LOBBY = (b"Table options", b"Enter start")  # the lobby screen drawn: the first whole frame
FRAME = (b"Your hand", b"Actions")  # both titles drawn: the game's first whole frame
LIMIT_S = 60.0


def _cpu(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` and its living children have used (Linux)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = [int(k) for k in f.read().split()]
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / tick
    except OSError:
        return total
    return total + sum(_cpu(k) for k in kids)


def time_to_frame(players: int = 4) -> tuple[float, float, float]:
    """Seconds from spawning ``mq play --players N`` in a 120x40 pty to its first whole frame (the
    lobby), the CPU seconds it and its bot peers had used by then, and the seconds from Enter in the
    lobby to the game's first whole frame."""
    home = tempfile.mkdtemp(prefix="mq-bench-startup-")
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", HEIGHT, WIDTH, 0, 0))
    env = dict(os.environ, MQ_HOME=home, TERM="xterm-256color", MQ_BEACON_ADDR="127.0.0.1")
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "mq.cli", "play", "--players", str(players), "--delay", "0.5"],
                            stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env, start_new_session=True)
    os.close(slave)
    seen, lobby, want = b"", None, LOBBY
    try:
        while True:
            left = LIMIT_S - (time.perf_counter() - start)
            if left <= 0:
                raise RuntimeError(f"no frame within {LIMIT_S:.0f} s; the output was: {seen[-400:]!r}")
            ready, _, _ = select.select([master], [], [], left)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the process ended
                    raise RuntimeError(f"mq play ended before a frame: {seen[-400:]!r}") from None
                seen += chunk
                if all(word in seen for word in want) and lobby is None:
                    lobby = (time.perf_counter() - start, _cpu(proc.pid))
                    seen, want, entered = b"", FRAME, time.perf_counter()
                    os.write(master, b"\r")  # start the game
                elif all(word in seen for word in want):
                    return lobby[0], lobby[1], time.perf_counter() - entered
    finally:
        os.killpg(proc.pid, signal.SIGTERM)  # its own session: mq play and its bot peers
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
        os.close(master)
        shutil.rmtree(home, ignore_errors=True)


def time_imports() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import mq.tui.app, net.client"], cwd=ROOT, check=True)
    return time.perf_counter() - start


def _row(name: str, runs: list[float]) -> tuple[str, str]:
    return name, (f"median {statistics.median(runs):.2f} s  (min {min(runs):.2f}, max {max(runs):.2f}, "
                  f"{len(runs)} runs)")


def main(quick: bool = False) -> list[tuple[str, str]]:
    n = 2 if quick else 5
    rows = [("load average (1 min) at the start", f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")]
    rows.append(_row("python + imports (one peer process)", [time_imports() for _ in range(n)]))
    for players in (2, 4):
        runs = [time_to_frame(players) for _ in range(n)]
        rows.append(_row(f"mq play --players {players} -> first frame (the lobby)", [w for w, _, _ in runs]))
        rows.append(_row("  CPU used by then, all its processes", [c for _, c, _ in runs]))
        rows.append(_row("  Enter in the lobby -> the game's first frame", [g for _, _, g in runs]))
    return rows


if __name__ == "__main__":
    from bench.engine import print_table

    print_table(main("--quick" in sys.argv))
