"""End to end in a real terminal: ``mq play`` in a detached tmux session of 120x40, read with
capture-pane, driven with send-keys.  The test installs nothing: without tmux it fails and says
so (the CI image must provide tmux)."""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from net import gamelog

ROOT = Path(__file__).resolve().parent.parent
SEED = 3
DIRECTION_KEYS = {"north": "k", "east": "l", "south": "j", "west": "h"}
MOVE = r" \d (Explore|Go) (north|east|south|west)"  # a move on the action menu


class Tmux:
    """One private tmux server (its own socket) holding one session."""

    def __init__(self, exe: str, name: str) -> None:
        self.base = [exe, "-L", name]
        self.target = "play"

    def run(self, *args: str) -> str:
        out = subprocess.run(self.base + list(args), capture_output=True, text=True, timeout=10, check=True)
        return out.stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", self.target)

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", self.target, *keys)

    def wait(self, pred, what: str, timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            text = self.screen()
            if pred(text):
                return text
            if time.monotonic() > deadline:
                pytest.fail(f"timed out after {timeout}s waiting for {what}; the screen was:\n{text}")
            time.sleep(0.05)

    def kill(self) -> None:
        subprocess.run(self.base + ["kill-server"], capture_output=True, timeout=10, check=False)


def map_part(screen: str) -> str:
    """The map: the left column of the rows above the log."""
    lines = screen.splitlines()
    end = next((i for i, ln in enumerate(lines) if ln.startswith(" Log")), len(lines))
    return "\n".join(ln[:70] for ln in lines[:end])


def test_play_in_a_real_terminal(tmp_path):
    exe = shutil.which("tmux")
    if exe is None:
        pytest.fail("tmux is not installed: this end-to-end test of the terminal client needs it "
                    "(apt-get install -y tmux in the CI setup, .ci/run)")
    rc = tmp_path / "rc"
    command = (f"cd {shlex.quote(str(ROOT))} && MQ_HOME={shlex.quote(str(tmp_path / 'home'))} "
               f"{shlex.quote(sys.executable)} -m mq.cli play "
               f"--seed {SEED} --delay 0.02 2> {shlex.quote(str(tmp_path / 'stderr'))}; "
               f"echo $? > {shlex.quote(str(rc))}; sleep 5")
    tmux = Tmux(exe, f"mqtest{os.getpid()}")
    tmux.run("new-session", "-d", "-s", tmux.target, "-x", "120", "-y", "40", command)
    try:
        tmux.wait(lambda t: "Table options" in t and "Enter start" in t, "the lobby screen")
        tmux.keys("Enter")  # start the game
        screen = tmux.wait(lambda t: all(w in t for w in ("Your hand", "Actions", "Map", "Red*", "Log")),
                           "the client's first whole frame")
        tmux.keys("e")  # ready: the bots are, and the game starts
        tmux.keys("A")  # pass the bots' interrupt windows by ourselves

        def our_move_or_a_question(t: str) -> bool:
            status = t.rstrip("\n").splitlines()[-1]
            return ("Your turn" in status and re.search(MOVE, t) is not None) or "asks for help" in status

        for _ in range(20):
            screen = tmux.wait(our_move_or_a_question, "our first turn with a move on the menu")
            if "asks for help" not in screen.rstrip("\n").splitlines()[-1]:
                break
            tmux.keys("Space")  # a bot asks for help: we refuse
            tmux.wait(lambda t, before=screen: t != before, "the refusal to show")
        before = map_part(screen)
        here = re.search(r"Map · (.+?)  ", screen).group(1)
        direction = re.search(MOVE, screen).group(2)
        tmux.keys(DIRECTION_KEYS[direction])
        screen = tmux.wait(lambda t: map_part(t) != before and ("Red explores" in t or "Red moves" in t),
                           "the map to change after the move")
        assert re.search(r"Map · (.+?)  ", screen).group(1) != here  # the map follows Red to the new room
        tmux.keys("q")
        tmux.wait(lambda t: "Quit the game?" in t, "the quit question")
        tmux.keys("y")
        deadline = time.monotonic() + 10
        while not (rc.exists() and rc.read_text().strip()):
            assert time.monotonic() < deadline, "mq play did not exit after q, y"
            time.sleep(0.05)
        errors = (tmp_path / "stderr").read_text()
        assert rc.read_text().strip() == "0", errors
        assert "Traceback" not in errors, errors
        # the game's log stays under MQ_HOME/logs, and the command said how to replay it
        logs = list((tmp_path / "home" / "logs").glob("*.mqlog"))
        assert len(logs) == 1, logs
        said = "".join(tmux.screen().split())
        assert f"replayitwith:mqreplay{logs[0]}--asred" in said, tmux.screen()
        verify = subprocess.run([sys.executable, "-m", "mq.cli", "replay", str(logs[0]), "--verify"],
                                capture_output=True, text=True, timeout=120, cwd=ROOT)
        assert verify.returncode == 0 and "verify: ok" in verify.stdout, verify.stdout + verify.stderr
    finally:
        tmux.kill()


def test_play_classic_in_a_real_terminal(tmp_path):
    """C-OPT-3, C-SETUP-5, C-TURN-2: ``mq play --mode classic --epic`` in a terminal: the lobby shows
    the game, Enter starts a loopback LAN game whose bot peers learned the mode from this host, the
    Classic client sets up and kicks open the door; the game's log is a Classic Epic one."""
    exe = shutil.which("tmux")
    if exe is None:
        pytest.fail("tmux is not installed: this end-to-end test of the terminal client needs it")
    rc = tmp_path / "rc"
    command = (f"cd {shlex.quote(str(ROOT))} && MQ_HOME={shlex.quote(str(tmp_path / 'home'))} "
               f"{shlex.quote(sys.executable)} -m mq.cli play --mode classic --epic --players 3 "
               f"--seed {SEED} --delay 0.02 2> {shlex.quote(str(tmp_path / 'stderr'))}; "
               f"echo $? > {shlex.quote(str(rc))}; sleep 5")
    tmux = Tmux(exe, f"mqclassic{os.getpid()}")
    tmux.run("new-session", "-d", "-s", tmux.target, "-x", "120", "-y", "40", command)
    try:
        tmux.wait(lambda t: "Classic Epic (the card game to level 20)" in t and "4 Door + 4 Treasure" in t,
                  "the lobby showing the game")
        tmux.keys("Enter")
        tmux.wait(lambda t: "level 20 wins" in t and "Your hand" in t and "Setup" in t, "the Classic client")
        tmux.keys("e")  # ready
        tmux.wait(lambda t: "d kicks open the door" in t, "our turn or the table going round", timeout=60)
        tmux.keys("q")
        tmux.wait(lambda t: "Quit the game?" in t, "the quit question")
        tmux.keys("y")
        deadline = time.monotonic() + 10
        while not (rc.exists() and rc.read_text().strip()):
            assert time.monotonic() < deadline, "mq play did not exit after q, y"
            time.sleep(0.05)
        errors = (tmp_path / "stderr").read_text()
        assert rc.read_text().strip() == "0" and "Traceback" not in errors, errors
        (log,) = (tmp_path / "home" / "logs").glob("*.mqlog")
        params = gamelog.read(str(log)).header.params
        assert params.mode == "classic" and params.epic and params.players == 3
    finally:
        tmux.kill()
