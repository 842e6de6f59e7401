"""The line-mode client (net/textclient.py): ``mq host`` with its input and output on pipes, not a
terminal, narrates the game, lists the host's legal actions by number when the game waits for its
seat, plays the one typed, and answers a bad line in words."""
from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time

from test_tui_e2e import ROOT


def _lines(proc: subprocess.Popen) -> queue.Queue:
    q: queue.Queue = queue.Queue()

    def read() -> None:
        for line in proc.stdout:
            q.put(line.rstrip("\n"))
        q.put(None)
    threading.Thread(target=read, daemon=True).start()
    return q


def _until(q: queue.Queue, seen: list[str], want, timeout: float = 30.0) -> str:
    """The next line for which ``want(line)`` holds (every line read goes to ``seen``)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            line = q.get(timeout=max(0.01, end - time.monotonic()))
        except queue.Empty:
            break
        if line is None:
            raise AssertionError("the client exited:\n" + "\n".join(seen[-40:]))
        seen.append(line)
        if want(line):
            return line
    raise AssertionError("not seen in time:\n" + "\n".join(seen[-40:]))


def test_the_line_mode_client_plays_the_hosts_seat(tmp_path):
    env = dict(os.environ, MQ_HOME=str(tmp_path / "home"), MQ_BEACON_ADDR="127.0.0.1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "mq.cli", "host", "--seats", "2", "--bots", "1", "--port", "0", "--open",
         "--no-beacon", "--bind", "127.0.0.1", "--name", "ann", "--timeout", "120"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    seen: list[str] = []
    try:
        q = _lines(proc)
        _until(q, seen, lambda line: "press Enter to start" in line)
        proc.stdin.write("\n")  # the host, in the lobby: start (the open seat is the bot's)
        proc.stdin.flush()
        _until(q, seen, lambda line: line.startswith("== your move (red):"))
        first = _until(q, seen, lambda line: line.startswith("   0  "))
        for typed, answer in (("99", "mq: no such option"), ("go", "mq: type the number of an action, or /say TEXT")):
            proc.stdin.write(typed + "\n")
            proc.stdin.flush()
            _until(q, seen, lambda line, answer=answer: line == answer)
        proc.stdin.write("/say hello\n")
        proc.stdin.flush()
        _until(q, seen, lambda line: line == "-- red: hello")
        # Five moves by number: each is applied (the game goes on: narrated), then our seat is asked
        # again, with the options of the new state.
        for _ in range(5):
            proc.stdin.write("0\n")
            proc.stdin.flush()
            _until(q, seen, lambda line: not line.startswith(("  ", "mq:", "--", "==")), 60)
            _until(q, seen, lambda line: line.startswith("== your move (red):"), 60)
        assert first.strip()  # an action was offered under 0
        assert proc.poll() is None
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
    assert "Traceback" not in proc.stderr.read()
