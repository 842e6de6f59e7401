"""Argument types shared by the ``mq`` commands: argparse checks each value as it parses it, so a
bad one is a usage error in words (``mq host: error: argument --port: ...``, exit 2) and never
a traceback.  Limits that are rules of the game (players, the window timer, Q-OPT) stay the
engine's: the commands ask ``make_params`` and print its words (:func:`rule_words`).
"""
from __future__ import annotations

import argparse
import math

MAX_PORT = 65534  # a game's key service listens on the next port, which must exist too
MAX_SEED = 2**64 - 1


def _number(text: str, kind, what: str):
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}")
    return value


def whole(lo: int, hi: int | None = None, unit: str = ""):
    """A whole number from ``lo`` (to ``hi``)."""
    span = f"{lo} to {hi}" if hi is not None else f"{lo} or more"
    what = f"a whole number{' of ' + unit if unit else ''} ({span})"

    def parse(text: str) -> int:
        n = _number(text, int, what)
        if n < lo or (hi is not None and n > hi):
            raise argparse.ArgumentTypeError(f"{n} is out of range: {span}{' ' + unit if unit else ''}")
        return n

    parse.__name__ = "whole number"  # what argparse calls the type in its messages
    return parse


def seconds(text: str) -> float:
    """A duration in seconds, 0 or more."""
    s = _number(text, float, "a number of seconds")
    if s < 0:
        raise argparse.ArgumentTypeError(f"{text} seconds: a duration cannot be negative")
    return s


def positive_seconds(text: str) -> float:
    s = seconds(text)
    if s == 0:
        raise argparse.ArgumentTypeError("0 seconds is too short: give more than 0")
    return s


def listen_port(text: str) -> int:
    """A TCP port to listen on: 1 to 65534 (the key service takes the next one), or 0 for any."""
    n = _number(text, int, "a port number")
    if not 0 <= n <= MAX_PORT:
        raise argparse.ArgumentTypeError(f"port {n} does not exist: use 1 to {MAX_PORT} (the key service "
                                         "takes the next port) or 0 for any free port")
    return n


def port_of(text: str) -> int:
    """The port part of HOST:PORT: 1 to 65534."""
    n = _number(text, int, "a port number")
    if not 1 <= n <= MAX_PORT:
        raise argparse.ArgumentTypeError(f"port {n} does not exist: a game's port is 1 to {MAX_PORT}")
    return n


def seed(text: str) -> int:
    """A game's seed: 0 to 2**64 - 1."""
    n = _number(text, int, "a whole number")
    if not 0 <= n <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"{n} is out of range: a seed is 0 to 2**64 - 1")
    return n


def packs(text: str) -> tuple[str, ...]:
    """``--packs LIST``: pack names separated by commas, or all (C-OPT-4), in the packs' order."""
    from mq.cards.classic_packs import UnknownPack, parse_packs

    try:
        return parse_packs(text)
    except UnknownPack as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_packs_option(p: argparse.ArgumentParser) -> None:
    from mq.cards.classic_packs import NAMES

    p.add_argument("--packs", type=packs, default=(), metavar="LIST",
                   help=f"classic only: the packs to play with (C-OPT-4), names separated by commas "
                        f"({', '.join(NAMES)}) or all; default none")


def add_player_options(p: argparse.ArgumentParser) -> None:
    """The choice each player makes for themselves (Q-SETUP-3)."""
    p.add_argument("--gender", choices=("male", "female", "rolled"), default="rolled",
                   help="your munchkin's gender (Q-SETUP-3; default rolled: the game's seed decides)")


def add_table_options(p: argparse.ArgumentParser) -> None:
    """Table options a game's host chooses (Q-OPT, C-OPT) that ``mq host`` and ``mq play`` share;
    the engine judges the combination (``--epic`` is Classic's, each mode has its starting hands)."""
    p.add_argument("--mode", choices=("quest", "classic"), default="quest",
                   help="quest (the board game, default) or classic (the card game, CLASSIC.md)")
    p.add_argument("--epic", action="store_true", help="classic only: play to level 20 with epic powers (C-EPIC)")
    add_packs_option(p)
    p.add_argument("--starting-hand", type=int, choices=(2, 3, 4), default=None, metavar="2|3|4",
                   help="the starting hand: Quest 3 Treasure + 3 DxM (default) or 4 + 4 (Q-OPT-3); "
                        "Classic 4 Door + 4 Treasure (default) or 2 + 2 (C-OPT-2)")


def rule_words(err) -> str:
    """An IllegalAction the engine raised for a bad option, as the sentence it carries (its
    detail), without the reason code or the rulebook's ids (mq.refusals.RULE_ID)."""
    from mq.refusals import RULE_ID

    return RULE_ID.sub("", getattr(err, "detail", "") or str(err))
