"""``mq play`` as mq.tui.cli registers it: without a terminal it narrates a bot game (what
test_cli checks through ``mq``); bad arguments are refused in words."""
from __future__ import annotations

import argparse
import subprocess
import sys

from mq.tui import cli


def play(*args):
    return subprocess.run([sys.executable, "-m", "mq.tui.cli", "play", *args], capture_output=True,
                          text=True, timeout=120, check=False)


def test_without_a_terminal_play_narrates_a_bot_game():
    out = play("--players", "2", "--seed", "5")
    assert out.returncode == 0
    assert out.stdout.startswith("mq: a 2-player bot game, seed 5")
    assert "final state hash" in out.stdout


def test_a_wrong_number_of_players_is_refused_in_words():
    out = play("--players", "9")
    assert out.returncode == 2 and "2 to 6" in out.stderr and "Traceback" not in out.stderr


def test_add_commands_registers_play_with_its_options():
    parser = argparse.ArgumentParser(prog="mq")
    cli.add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["play", "--players", "3", "--seed", "7", "--delay", "0.1", "--narrate"])
    assert (args.players, args.seed, args.delay, args.narrate, args.func) == (3, 7, 0.1, True, cli.play)


def test_without_a_terminal_play_narrates_a_classic_or_epic_bot_game():
    """C-OPT-3: ``mq play --mode classic [--epic]`` without a terminal narrates a whole Classic bot
    game in sentences, to its winner; the same seed tells the same game."""
    for extra, what in (((), "Classic"), (("--epic",), "Classic Epic")):
        out = play("--mode", "classic", *extra, "--players", "3", "--seed", "5")
        assert out.returncode == 0, out.stderr
        assert out.stdout.startswith(f"mq: a 3-player {what} bot game, seed 5")
        assert "kicks open the door" in out.stdout and " the game! ***" in out.stdout
        assert "final state hash" in out.stdout and "Traceback" not in out.stderr
    again = play("--mode", "classic", "--epic", "--players", "3", "--seed", "5")
    assert again.stdout == out.stdout
