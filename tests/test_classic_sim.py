"""``mq sim --mode classic``: whole Classic bot games headless, every one with a winner, the same
bytes in both core modes (the engine's determinism, C-DIGI-1)."""
from __future__ import annotations

import os
import subprocess
import sys

from mq.cli import main

ARGS = ["sim", "--mode", "classic", "--players", "4", "--games", "6", "--seed", "1"]


def test_classic_sim_finishes_every_game_with_a_winner(capsys):
    assert main(ARGS) == 0
    out = capsys.readouterr().out.splitlines()
    assert len([line for line in out if line.startswith("game ")]) == 6
    assert all("winners=none" not in line for line in out)
    assert out[-2].startswith("total: 6 games, 6 with a winner") and "won by the monsters" not in out[-2]
    assert "fights" in out[-1] and "deals made" in out[-1]


def test_classic_sim_is_identical_in_both_core_modes():
    runs = []
    args = ARGS[:-3] + ["3", "--seed", "2"]
    for pure in ("0", "1"):
        env = dict(os.environ, MQ_PUREPYTHON=pure)
        done = subprocess.run([sys.executable, "-m", "mq.cli", *args], env=env, capture_output=True, text=True,
                              timeout=900, check=True)  # (a loaded 2-core machine is slow; idle: a few seconds)
        runs.append(done.stdout)
    assert runs[0] == runs[1] and runs[0].count("winners=") == 3


def test_classic_sim_refuses_bad_tables_in_words(capsys):
    assert main(["sim", "--mode", "classic", "--players", "7"]) == 2
    assert "Classic plays with 2 to 6" in capsys.readouterr().err
