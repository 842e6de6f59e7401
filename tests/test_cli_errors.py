"""Every command fails politely: a bad argument is refused in words, naming what is wrong, with
exit status 2 (usage) or 1 (it could not be done), never a traceback; a join refusal is said
once; Ctrl-C exits 130.  Each case runs the real command in a subprocess (network only on
127.0.0.1, no beacons)."""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LOOP = ["--bind", "127.0.0.1"]
RULE_ID = re.compile(r"\b[QC]-[A-Z]+-\d+")  # a rulebook id (Q-OPT-1, C-OPT-3)


def mq(home, *args, timeout=60):
    env = dict(os.environ, MQ_HOME=str(home), MQ_BEACON_ADDR="127.0.0.1")
    return subprocess.run([sys.executable, "-m", "mq.cli", *args], capture_output=True, text=True,
                          timeout=timeout, check=False, cwd=ROOT, env=env)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# (arguments, exit status, words the error must contain)
BAD = [
    (["join", "127.0.0.1:99999"], 2, "port 99999 does not exist"),
    (["join", "127.0.0.1:0"], 2, "port 0 does not exist"),
    (["join", "127.0.0.1:abc"], 2, "'abc' is not a port number"),
    (["join", ":47400"], 2, "has no host"),
    (["join", "127.0.0.1:1", "--connect-timeout", "0.5"], 1, "nothing listens on port 2"),
    (["join", "nosuch.invalid:47400", "--connect-timeout", "0.5"], 1, "no machine of that name"),
    (["join", "127.0.0.1:47400", "--connect-timeout", "-1"], 2, "cannot be negative"),
    (["join", "--scan-s", "0", "--headless", "--watch"], 2, "too short"),
    (["join", "--no-beacon", "--headless", "--watch"], 2, "give the host's address"),
    (["join", "127.0.0.1:1", "--no-beacon", "--connect-timeout", "0.5"], 1, "nothing listens on port 2"),
    (["join", "127.0.0.1:47400", "--code", "xyz", "--connect-timeout", "0.5"], 1, "not a join code"),
    (["play", "--delay", "-3"], 2, "--delay: -3 seconds: a duration cannot be negative"),
    (["play", "--players", "0"], 2, "0 players: mq plays with 2 to 6"),
    (["play", "--seed", "-1"], 2, "a seed is 0 to 2**64 - 1"),
    (["play", "--epic"], 2, "Epic is a table option of the Classic mode"),
    (["sim", "--players", "0"], 2, "0 players: mq plays with 2 to 6"),
    (["sim", "--players", "7"], 2, "7 players: mq plays with 2 to 6"),
    (["sim", "--games", "0"], 2, "--games: 0 is out of range: 1 or more"),
    (["sim", "--seed", "x"], 2, "'x' is not a whole number"),
    (["host", "--port", "99999", *LOOP], 2, "port 99999 does not exist"),
    (["host", "--port", "65535", *LOOP], 2, "the key service takes the next port"),
    (["host", "--port", "-5", *LOOP], 2, "port -5 does not exist"),
    (["host", "--seats", "9", *LOOP], 2, "9 players: mq plays with 2 to 6"),
    (["host", "--bots", "-1", *LOOP], 2, "--bots: -1 is out of range"),
    (["host", "--window-ms", "-5", *LOOP], 2, "the interrupt window timer is 0 to 120 s"),
    (["host", "--away-s", "-4", *LOOP], 2, "--away-s: -4 is out of range"),
    (["host", "--ping-ms", "0", *LOOP], 2, "--ping-ms: 0 is out of range"),
    (["host", "--dead-ms", "100", *LOOP], 2, "--dead-ms (100) must be more than --ping-ms (250)"),
    (["host", "--timeout", "-1", *LOOP], 2, "cannot be negative"),
    (["host", "--timeout", "nan", *LOOP], 2, "'nan' is not a number of seconds"),
    (["host", "--resume", "/nonexistent.mqlog", *LOOP], 2, "no such log file"),
    (["host", "--log", "/nonexistent/dir/x.mqlog", *LOOP], 2, "there is no folder /nonexistent/dir"),
    (["host", "--bind", "10.255.255.254", "--no-beacon", "--headless", "--bot"], 1,
     "that address is not one of this machine's"),
    (["host", "--open"], 2, "only with --bind 127.0.0.1"),
    (["replay", "/nonexistent.mqlog", "--as", "red"], 1, "No such file"),
]


@pytest.mark.parametrize("args,status,words", BAD, ids=[" ".join(a) for a, _, _ in BAD])
def test_a_bad_argument_is_refused_in_words(tmp_path, args, status, words):
    extra = ["--no-beacon", "--headless", "--bot", "--timeout", "5"] if args[0] == "host" and "--headless" not in args else []
    if args[0] == "host" and "--port" not in args:  # never the default port: another game may hold it
        extra += ["--port", str(_free_port())]
    out = mq(tmp_path, *args, *extra)
    assert "Traceback" not in out.stderr + out.stdout, out.stderr
    assert out.returncode == status, (out.returncode, out.stdout, out.stderr)
    assert words in out.stderr, out.stderr
    assert not RULE_ID.search(out.stderr), out.stderr  # the rulebook's ids are not words for a player


@pytest.mark.parametrize("option,words", [(["--window-ms", "-5"], "the interrupt window timer is 0 to 120 s"),
                                          (["--seats", "9"], "9 players: mq plays with 2 to 6"),
                                          (["--bots", "4"], "the bots must leave seat 0 for you")])
def test_a_bad_table_option_is_refused_before_any_socket_opens(tmp_path, option, words):
    """With the port busy, the option is what is wrong, and what is said (exit status 2)."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        out = mq(tmp_path, "host", "--port", str(port), *option, *LOOP, "--no-beacon", "--headless", "--bot")
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert "in use" not in out.stderr and words in out.stderr, out.stderr


def test_a_port_in_use_is_named_with_the_reason(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        out = mq(tmp_path, "host", "--port", str(port), *LOOP, "--no-beacon", "--headless", "--bot")
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
    assert f"port {port} and {port + 1}" in out.stderr and "the port is in use" in out.stderr, out.stderr


def test_a_server_key_that_starts_with_a_dash_is_read_as_the_options_value(tmp_path):
    """One Z85 key in 85 starts with "-", which argparse alone would take for an option ("expected
    one argument", exit 2): the join goes ahead and finds nobody on the port (exit 1)."""
    import zmq

    key = next(k for k in iter(lambda: zmq.curve_keypair()[0].decode(), None) if k.startswith("-"))
    out = mq(tmp_path, "join", f"127.0.0.1:{_free_port()}", "--server-key", key, "--connect-timeout", "1",
             *LOOP, "--headless", "--bot")
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
    assert "no answer from the host" in out.stderr, out.stderr


def test_a_join_refusal_is_said_once_and_ctrl_c_exits_130(tmp_path):
    port = _free_port()
    env = dict(os.environ, MQ_HOME=str(tmp_path / "host"), MQ_BEACON_ADDR="127.0.0.1")
    # Ctrl-C as at a terminal: a suite run from a background shell job hands its children SIGINT
    # ignored, and Python then leaves it ignored, so the host starts with Python's own handler.
    ctrl_c = ("import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
              "sys.argv[0] = 'mq'; runpy.run_module('mq.cli', run_name='__main__')")
    host = subprocess.Popen([sys.executable, "-c", ctrl_c, "host", "--seats", "2", "--port", str(port),
                             *LOOP, "--no-beacon", "--headless", "--bot", "--timeout", "60"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = host.stdout.readline()
        deadline = time.monotonic() + 30
        while "hosting game" not in line:
            assert time.monotonic() < deadline and line, "mq host did not open its game"
            line = host.stdout.readline()
        # On this machine the host's key is trusted without a code; the host still wants the code.
        out = mq(tmp_path / "joiner", "join", f"127.0.0.1:{port}", *LOOP, "--headless", "--bot")
        assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
        assert len(re.findall("wrong or missing join code", out.stderr)) == 1, out.stderr
        host.send_signal(signal.SIGINT)
        assert host.wait(30) == 130
        assert "Traceback" not in host.stderr.read()
    finally:
        if host.poll() is None:
            host.kill()
            host.wait(10)
        host.stdout.close()
        host.stderr.close()


def test_every_package_folder_is_listed_so_the_build_does_not_warn():
    # setuptools warns at length about a folder Python could import that `packages` leaves out
    # (it did for mq/data); the list must name every folder of mq/ and net/.
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    folders = {".".join(p.relative_to(ROOT).parts) for top in ("mq", "net") for p in [ROOT / top, *(ROOT / top).rglob("*")]
               if p.is_dir() and p.name != "__pycache__" and not p.name.endswith(".egg-info")}
    assert folders == listed
