"""A LAN game in a real terminal: ``mq host`` in tmux with two headless bot peers joining over
loopback; the host starts the game from the lobby and plays in the full-screen client."""
from __future__ import annotations

import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time

import pytest
from test_tui_e2e import ROOT, Tmux


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_host_plays_a_lan_game_in_the_full_screen_client(tmp_path):
    exe = shutil.which("tmux")
    if exe is None:
        pytest.fail("tmux is not installed (apt-get install -y tmux, as .ci/run does)")
    port = _free_port()
    net = ["--bind", "127.0.0.1", "--ping-ms", "100", "--dead-ms", "700"]
    rc = tmp_path / "rc"
    host = (f"cd {shlex.quote(str(ROOT))} && MQ_HOME={shlex.quote(str(tmp_path / 'host'))} "
            f"{shlex.quote(sys.executable)} -m mq.cli host --seats 3 --port {port} --no-beacon --open "
            f"{' '.join(net)} 2> {shlex.quote(str(tmp_path / 'stderr'))}; echo $? > {shlex.quote(str(rc))}; sleep 5")
    tmux = Tmux(exe, f"mqlan{os.getpid()}")
    joiners = []
    tmux.run("new-session", "-d", "-s", tmux.target, "-x", "120", "-y", "40", host)
    try:
        tmux.wait(lambda t: "Enter start" in t and "Table options" in t, "the lobby screen")
        for i in range(2):
            env = dict(os.environ, MQ_HOME=str(tmp_path / f"bot{i}"))
            joiners.append(subprocess.Popen(
                [sys.executable, "-m", "mq.cli", "join", f"127.0.0.1:{port}", "--headless", "--bot", *net],
                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        time.sleep(2)  # let both joiners take their seats (empty seats would get bots anyway)
        tmux.keys("Enter")
        screen = tmux.wait(lambda t: "Your hand" in t and "Ready" in t, "the client in the setup phase", timeout=30)
        assert "Red*" in screen
        tmux.keys("1")  # Ready: the game starts
        tmux.wait(lambda t: re.search(r"Turn \d+ ·", t) is not None, "the game under way")
        tmux.keys("q")
        tmux.wait(lambda t: "Quit the game?" in t, "the quit question")
        tmux.keys("y")
        deadline = time.monotonic() + 15
        while not (rc.exists() and rc.read_text().strip()):
            assert time.monotonic() < deadline, "mq host did not exit after q, y"
            time.sleep(0.05)
        errors = (tmp_path / "stderr").read_text()
        assert rc.read_text().strip() == "0" and "Traceback" not in errors, errors
    finally:
        tmux.kill()
        for p in joiners:
            p.kill()
            p.wait(timeout=10)
