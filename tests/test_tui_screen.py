"""The screen never breaks: a two-player LAN game on loopback, each client in its own tmux
terminal.  Nothing but the client writes to its terminal (the protocol log goes to a file under
MQ_HOME/logs, which ``i`` names), a notice the peer repeats shows once, Ctrl-L repaints over
whatever else wrote there, a terminal below 80x24 gets a notice instead of a garbled frame, and
all of that holds when the host is killed with SIGKILL and again after ``mq host --resume``."""
from __future__ import annotations

import glob
import os
import re
import shlex
import shutil
import signal
import socket
import sys
import time

import pytest
from test_tui_e2e import ROOT, Tmux

# What a log line or a traceback looks like on a screen: a timestamp, a level, a stack frame.
LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d|WARNING|ERROR|Traceback|File \"")
NET = "--bind 127.0.0.1 --ping-ms 100 --dead-ms 700"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _mq(home, args: str, tail: str = "", rc=None) -> str:
    """The shell command running ``mq ARGS`` (the pane's own process, unless ``rc``: then a shell
    runs it and writes its exit status to the file ``rc``)."""
    run = (f"{shlex.quote(sys.executable)} -m mq.cli {args}{tail}")
    after = f"; echo $? > {shlex.quote(str(rc))}; sleep 5" if rc is not None else ""
    return (f"cd {shlex.quote(str(ROOT))} && MQ_HOME={shlex.quote(str(home))} MQ_BEACON_ADDR=127.0.0.1 "
            f"{'' if rc is not None else 'exec '}{run}{after}")


def _tmux_exe() -> str:
    exe = shutil.which("tmux")
    if exe is None:
        pytest.fail("tmux is not installed (apt-get install -y tmux, as .ci/run does)")
    return exe


def _exit_status(rc, what: str, timeout: float = 15) -> str:
    """The exit status the pane's shell wrote to ``rc`` (see _mq), waiting up to ``timeout``."""
    deadline = time.monotonic() + timeout
    while not (rc.exists() and rc.read_text().strip()):
        assert time.monotonic() < deadline, f"{what} did not exit"
        time.sleep(0.05)
    return rc.read_text().strip()


def _children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(p) for p in f.read().split()]


def _clean(screen: str) -> str:
    bad = [ln for ln in screen.splitlines() if LOG_LINE.search(ln)]
    assert not bad, "log lines on the client's screen:\n" + "\n".join(bad) + "\n---\n" + screen
    return screen


def test_the_screen_stays_the_clients_through_a_killed_and_resumed_host(tmp_path):
    exe = _tmux_exe()
    port = _free_port()
    hosts = Tmux(exe, f"mqscrh{os.getpid()}")
    joiner = Tmux(exe, f"mqscrj{os.getpid()}")
    host_home, join_home = tmp_path / "host", tmp_path / "join"
    try:
        hosts.run("new-session", "-d", "-s", hosts.target, "-x", "120", "-y", "40",
                  _mq(host_home, f"host --seats 2 --port {port} --open --no-beacon --name ann {NET}"))
        hosts.wait(lambda t: "Enter start" in t and "Table options" in t, "the host's lobby screen")
        joiner.run("new-session", "-d", "-s", joiner.target, "-x", "120", "-y", "40",
                   _mq(join_home, f"join 127.0.0.1:{port} --name bob {NET}",
                       f" 2> {shlex.quote(str(tmp_path / 'join.err'))}"))
        joiner.wait(lambda t: "Waiting for the host to start" in t and re.search(r"Red +ann \(host\)", t)
                    and re.search(r"Green +bob \(you\)", t), "the joiner in the lobby, seeing who sits where")
        hosts.wait(lambda t: "bob joined as Green" in t, "the host seeing the joiner arrive")
        hosts.keys("Enter")
        for t in (hosts, joiner):
            t.wait(lambda s: "Your hand" in s and "Ready" in s, "the client in the setup phase", timeout=30)
            t.keys("e")  # ready
        screen = joiner.wait(lambda s: re.search(r"Turn 1 ·", s) is not None, "the first turn")
        assert "  ann · " in screen and "  bob · " in screen  # names in the side panel
        assert re.search(r"── Turn 1: \w+ \((ann|bob)\) ──", screen), screen  # and in the log

        # `i` names the protocol log, a file under MQ_HOME/logs
        logs = glob.glob(str(join_home / "logs" / "*.txt"))
        assert len(logs) == 1, logs
        joiner.keys("i")
        info = joiner.wait(lambda s: "Protocol log" in s, "the table overview")
        assert logs[0] in "".join(ln.strip() for ln in info.split("Protocol log", 1)[1].splitlines())
        joiner.keys("Escape")

        # something else writes into the terminal: Ctrl-L draws every cell again
        tty = joiner.run("display-message", "-p", "-t", joiner.target, "#{pane_tty}").strip()
        with open(tty, "w") as f:
            f.write("\x1b[5;5HSTRAY-OUTPUT-XYZ\n")
        joiner.wait(lambda s: "STRAY-OUTPUT-XYZ" in s, "the stray output on the screen")
        joiner.keys("C-l")
        joiner.wait(lambda s: "STRAY-OUTPUT-XYZ" not in s and "Your hand" in s, "the repainted screen")

        # the host dies without a word: the joiner's screen says so, once, and shows no log lines
        pid = int(hosts.run("display-message", "-p", "-t", hosts.target, "#{pane_pid}").strip())
        os.kill(pid, signal.SIGKILL)
        joiner.wait(lambda s: "is gone" in s, "the joiner noticing the host has gone", timeout=20)
        joiner.wait(lambda s: "looking for the game's host" in s, "the joiner looking for a host")
        time.sleep(4)  # the peer repeats that notice every ~3 s while it looks
        screen = _clean(joiner.screen())
        assert screen.count("looking for the game's host") <= 2, screen  # a banner and one log line
        # ... and says what to do if the host never comes back: resume from a log, its own named
        own_log = glob.glob(str(join_home / "logs" / "*.mqlog"))
        assert len(own_log) == 1 and "mq host --resume LOG" in " ".join(screen.split()), screen
        assert own_log[0] in "".join(screen.replace("│", " ").split()), screen
        with open(logs[0], encoding="utf-8") as f:
            assert "WARNING" in f.read()  # the warnings went to the file instead

        # below 80x24 a notice, not a garbled frame; back at 80x24 the whole client again
        joiner.run("resize-window", "-t", joiner.target, "-x", "70", "-y", "20")
        small = joiner.wait(lambda s: "needs at least 80x24" in s, "the too-small notice")
        assert "70x20" in small and "Your hand" not in small
        joiner.run("resize-window", "-t", joiner.target, "-x", "80", "-y", "24")
        _clean(joiner.wait(lambda s: "Your hand" in s and "Actions" in s, "the client at 80x24"))

        # the host comes back from its log: its own screen is the client's too
        log = glob.glob(str(host_home / "logs" / "*.mqlog"))[0]
        hosts.kill()  # the session ended with its process; this stops the server too
        hosts.run("new-session", "-d", "-s", hosts.target, "-x", "120", "-y", "40",
                  _mq(host_home, f"host --resume {shlex.quote(log)} --port {port} --settle-ms 2000 --no-beacon {NET}",
                      f" 2> {shlex.quote(str(tmp_path / 'resume.err'))}"))
        hosts.wait(lambda s: "Your hand" in s and "is back" in s, "the resumed host seeing the joiner back",
                   timeout=30)
        time.sleep(2)
        _clean(hosts.screen())
        _clean(joiner.screen())
        assert "Traceback" not in (tmp_path / "resume.err").read_text()
    finally:
        hosts.kill()
        joiner.kill()


def test_mq_play_keeps_its_screen_when_a_bot_peer_dies(tmp_path):
    exe = _tmux_exe()
    tmux = Tmux(exe, f"mqscrp{os.getpid()}")
    try:
        rc = tmp_path / "rc"
        tmux.run("new-session", "-d", "-s", tmux.target, "-x", "80", "-y", "24",
                 _mq(tmp_path, "play --players 3 --seed 4 --delay 0.05", rc=rc))
        tmux.wait(lambda s: "Table options" in s and "Enter start" in s, "the lobby screen at 80x24", timeout=30)
        tmux.keys("Enter")
        tmux.wait(lambda s: "Your hand" in s and "Ready" in s, "the client's first frame", timeout=30)
        shell = int(tmux.run("display-message", "-p", "-t", tmux.target, "#{pane_pid}").strip())
        (play,) = _children(shell)
        bots = _children(play)
        assert len(bots) == 2, bots  # the two bot peer processes mq play started
        os.kill(bots[0], signal.SIGKILL)
        tmux.wait(lambda s: "a bot plays for" in s, "the host's own bot taking the seat", timeout=20)
        time.sleep(3)
        screen = _clean(tmux.screen())
        assert screen.count("a bot plays for") <= 1 and screen.count("A bot plays for") <= 1, screen  # banner, log
        logs = glob.glob(str(tmp_path / "logs" / "*-play-*.txt"))
        assert len(logs) == 1, logs
        tmux.keys("C-c")  # quits at once, with the shell's status for an interrupt
        assert _exit_status(rc, "mq play after Ctrl-C", 15) == "130"
        assert all(not os.path.exists(f"/proc/{p}") or open(f"/proc/{p}/stat").read().split()[2] == "Z"
                   for p in bots), "bot peers left running"
    finally:
        tmux.kill()


def test_ctrl_c_in_the_lobby_exits_130_at_once(tmp_path):
    exe = _tmux_exe()
    tmux = Tmux(exe, f"mqscrl{os.getpid()}")
    rc = tmp_path / "rc"
    try:
        tmux.run("new-session", "-d", "-s", tmux.target, "-x", "100", "-y", "30",
                 _mq(tmp_path, f"host --seats 2 --port {_free_port()} --open --no-beacon {NET}", rc=rc))
        tmux.wait(lambda s: "Enter start" in s and "Table options" in s, "the host's lobby screen")
        tmux.keys("C-c")
        assert _exit_status(rc, "mq host after Ctrl-C in the lobby", 5) == "130"
        _clean(tmux.screen())
    finally:
        tmux.kill()


def test_a_watcher_follows_the_table_in_the_full_screen_client(tmp_path):
    exe = _tmux_exe()
    port = _free_port()
    hosts = Tmux(exe, f"mqscrw{os.getpid()}")
    watcher = Tmux(exe, f"mqscrv{os.getpid()}")
    rc = tmp_path / "rc"
    try:
        # a headless host whose bot plays seat 0, and a bot in seat 1; the game starts when full
        hosts.run("new-session", "-d", "-s", hosts.target, "-x", "100", "-y", "30",
                  _mq(tmp_path / "host", f"host --seats 2 --bots 1 --port {port} --open --no-beacon "
                                         f"--headless --bot --bot-delay 0.3 --name ann {NET}"))
        watcher.run("new-session", "-d", "-s", watcher.target, "-x", "100", "-y", "30",
                    _mq(tmp_path / "watch", f"join 127.0.0.1:{port} --watch {NET}", rc=rc))
        screen = watcher.wait(lambda t: "Watching." in t and "Map" in t and "Log" in t,
                              "the watcher's full-screen client", timeout=30)
        assert "(watching: no hand)" in screen and "(bot)" in screen, screen  # seat 1 marked as a bot
        _clean(screen)
        watcher.keys("q")
        watcher.wait(lambda t: "Quit the game?" in t, "the quit question")
        watcher.keys("y")
        assert _exit_status(rc, "mq join --watch after q, y", 15) == "0"
        assert "you left the table" in watcher.screen()
    finally:
        hosts.kill()
        watcher.kill()
