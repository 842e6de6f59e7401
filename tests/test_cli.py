"""The ``mq`` command line: the narrated bot game of ``mq play`` and the LAN commands not built yet."""
from __future__ import annotations

import os
import subprocess
import sys


def mq(*args):
    env = dict(os.environ, MQ_BEACON_ADDR="127.0.0.1")  # a host's beacon never leaves the machine
    return subprocess.run([sys.executable, "-m", "mq.cli", *args], capture_output=True, text=True,
                          timeout=300, check=False, env=env)


def test_play_narrates_a_whole_game_in_plain_sentences():
    out = mq("play", "--players", "3", "--seed", "100")
    assert out.returncode == 0
    text = out.stdout
    assert "== Turn 1:" in text
    assert " explores (" in text and " fights " in text
    assert "THE BOSS appears" in text and "the Boss and win" in text
    assert "final state hash" in text


def test_play_never_names_a_face_down_card_drawn_alone():
    text = mq("play", "--players", "2", "--seed", "5").stdout
    for line in text.splitlines():
        if "draws a DxM card" in line:
            assert line.rstrip().endswith("draws a DxM card."), line


def test_lan_commands_explain_their_usage_errors():
    out = mq("host", "--headless")
    assert out.returncode == 2 and "--headless needs --bot" in out.stderr
