"""The Classic client end to end in a real terminal: a local Classic game (tests/classic_local.py)
in a detached tmux session, read with capture-pane, driven with send-keys, at 120x40 and then
resized to 80x24.  Without tmux it fails and says so, as tests/test_tui_e2e.py does."""
from __future__ import annotations

import os
import shlex
import shutil
import sys
import time
from pathlib import Path

import pytest
from test_tui_e2e import Tmux

ROOT = Path(__file__).resolve().parent.parent


def status(screen: str) -> str:
    return " ".join(screen.rstrip("\n").splitlines()[-2:])


@pytest.mark.parametrize("how", ["local", "local-epic", "mq-play"])
def test_a_classic_game_in_a_real_terminal(tmp_path, how):
    """A local Classic game (tests/classic_local.py, Epic too), and ``mq play --mode classic``
    itself: its lobby, then bot peers over loopback."""
    exe = shutil.which("tmux")
    if exe is None:
        pytest.fail("tmux is not installed: this end-to-end test of the terminal client needs it")
    rc = tmp_path / "rc"
    epic = how == "local-epic"
    game = (f"MQ_HOME={shlex.quote(str(tmp_path / 'home'))} {shlex.quote(sys.executable)} -m mq.cli play "
            "--mode classic --seed 5 --delay 0.02" if how == "mq-play"
            else f"{shlex.quote(sys.executable)} tests/classic_local.py 5{' --epic' if epic else ''}")
    command = (f"cd {shlex.quote(str(ROOT))} && {game} 2> {shlex.quote(str(tmp_path / 'stderr'))}; "
               f"echo $? > {shlex.quote(str(rc))}; sleep 5")
    tmux = Tmux(exe, f"mqclassic{os.getpid()}{how}")
    tmux.run("new-session", "-d", "-s", tmux.target, "-x", "120", "-y", "40", command)
    try:
        if how == "mq-play":
            lobby = tmux.wait(lambda t: "Table options" in t and "Enter start" in t, "the lobby screen")
            assert "Classic (the card game)" in lobby
            tmux.keys("Enter")
        screen = tmux.wait(lambda t: "Setup: put a race" in t and "The table" in t and "Your hand" in t,
                           "the first whole frame, in setup")
        assert ("level 20 wins" if epic else "level 10 wins") in screen and "Map" not in screen
        tmux.keys("A", "e")  # pass the bots' windows by ourselves; ready
        for _ in range(60):  # until our turn, refusing to help and passing what the bots cast
            screen = tmux.wait(lambda t: "Red kicks open the door" in t or any(
                w in status(t) for w in ("d kicks open the door", "asks for help", "Space to take", "Space to let",
                                         "Bad luck", "1-9")), "our turn or a question", timeout=30)
            if "d kicks open the door" in status(screen) or "Red kicks open the door" in screen:
                break
            tmux.keys("Space" if "Space" in status(screen) else "1")
            time.sleep(0.2)
        if "Red kicks open the door" not in screen:  # (a 1 sent as the setup's prompt left may have kicked it)
            tmux.keys("d")
        screen = tmux.wait(lambda t: "Red kicks open the door" in t, "the kick in the log")
        tmux.run("resize-window", "-t", tmux.target, "-x", "80", "-y", "24")
        small = tmux.wait(lambda t: len(t.splitlines()) <= 24 and "Red, " in t and "Your hand" in t and "Log" in t,
                           "the 80x24 frame")
        assert all(len(line) <= 80 for line in small.splitlines())
        tmux.keys("?")
        helped = tmux.wait(lambda t: "Kick open the door" in t, "the help screen")
        assert "Move or explore" not in helped
        tmux.keys("Escape")
        errors = _quit(tmux, rc, tmp_path)
        assert "Could not" not in tmux.screen(), errors
    finally:
        tmux.kill()


def test_a_trade_in_a_real_terminal_C_ITEM_6(tmp_path):
    """x, the number keys and Enter offer Green's bot two items for one in a real terminal; the bot
    accepts (it gains strength); the log says so; at 80x24 a second x says why nobody is left to
    offer a trade; q, y leaves with 0 and no traceback."""
    exe = shutil.which("tmux")
    if exe is None:
        pytest.fail("tmux is not installed: this end-to-end test of the terminal client needs it")
    rc = tmp_path / "rc"
    command = (f"cd {shlex.quote(str(ROOT))} && {shlex.quote(sys.executable)} tests/classic_local.py 5 --trade "
               f"2> {shlex.quote(str(tmp_path / 'stderr'))}; echo $? > {shlex.quote(str(rc))}; sleep 5")
    tmux = Tmux(exe, f"mqclassic{os.getpid()}trade")
    tmux.run("new-session", "-d", "-s", tmux.target, "-x", "120", "-y", "40", command)
    try:
        tmux.wait(lambda t: "x trades items" in status(t) and "Your hand" in t, "the end of our turn, x named")
        tmux.keys("x")
        screen = tmux.wait(lambda t: "Trade items in play with Green" in t and "Esc: cancel" in t, "the trade composer")
        assert "You give (your items in play):" in screen and "Enter: send the offer" in screen
        tmux.keys("2", "3", "5")  # the helm and the armour (set aside) for Green's socks
        screen = tmux.wait(lambda t: "5 [x] Socks" in t, "the socks marked")
        assert "2 [x] Traffic Cone Helm" in screen and "3 [x] Bubble-Wrap Armour" in screen
        assert "You offer Green your Traffic Cone Helm and Bubble-Wrap Armour for their Socks" in screen
        tmux.keys("Enter")
        screen = tmux.wait(lambda t: "Trade: you get Socks" in t or "Green declines" in t, "Green's answer in the log")
        assert "Trade: you get Socks" in screen and "Green declines" not in screen, screen  # (it gains strength)
        tmux.run("resize-window", "-t", tmux.target, "-x", "80", "-y", "24")
        small = tmux.wait(lambda t: len(t.splitlines()) <= 24 and "Your hand" in t and "Log" in t, "the 80x24 frame")
        assert all(len(line) <= 80 for line in small.splitlines())
        tmux.keys("x")  # Green was offered one this turn, Blue has nothing in play
        small = tmux.wait(lambda t: "Nobody to offer a trade now" in t, "why no trade is possible")
        assert "Trade items in play with" not in small
        _quit(tmux, rc, tmp_path)
    finally:
        tmux.kill()


def _quit(tmux, rc, tmp_path) -> str:
    """q, y: the client asks, then exits with 0 and no traceback on its stderr (returned)."""
    tmux.keys("q")
    tmux.wait(lambda t: "Quit the game?" in t, "the quit question")
    tmux.keys("y")
    deadline = time.monotonic() + 10
    while not (rc.exists() and rc.read_text().strip()):
        assert time.monotonic() < deadline, "the client did not exit after q, y"
        time.sleep(0.05)
    errors = (tmp_path / "stderr").read_text()
    assert rc.read_text().strip() == "0", errors
    assert "Traceback" not in errors, errors
    return errors
