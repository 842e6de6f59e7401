"""The golden fingerprint: seeded games (their actions, events, legal lists, views and hashes, step by
step, see bench/fingerprint.py) must play exactly as recorded in tests/golden/fingerprint.json.

A refactoring must leave every game identical, so it never touches the record.  A rule fix changes
games on purpose: it re-records them in its own commit (``python -m bench.fingerprint record``; the
message says which rule changed) and checks the record in both core modes
(``python -m bench.fingerprint check`` and ``MQ_PUREPYTHON=1 python -m bench.fingerprint check``).

Cost (2 cores, idle): the whole fingerprint plays 42 games (11 of them Classic) in about 9 s on the native core and about
70 s on the pure-Python twin.  The native pass of ``make test`` checks every game; the twin pass checks
a fixed subset (one bot game per table size and four random games, about 12 s), and the twin agrees
with the native core on every hash (tests/test_core_twins.py), so the subset catches any divergence of
the rules themselves.
"""
from __future__ import annotations

import os
from typing import NamedTuple

import pytest

from bench import fingerprint as fp
from mq.cards import load_default

SUBSET = ("bots-2p-0", "bots-3p-0", "bots-4p-0", "bots-5p-0", "bots-6p-0",
          "random-0", "random-5", "random-10", "random-15", "classic-base-bots-4p-0", "classic-packs-random-3")
GAMES = SUBSET if os.environ.get("MQ_PUREPYTHON") == "1" else fp.GAMES


@pytest.fixture(scope="module")
def golden() -> dict[str, list[str]]:
    return fp.read(fp.GOLDEN)


def test_the_record_holds_exactly_the_fingerprint_games(golden):
    assert tuple(golden) == fp.GAMES
    assert set(SUBSET) <= set(fp.GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_game_plays_as_recorded(golden, name):
    got = fp.play(name, load_default())
    assert fp.compare({name: golden[name]}, {name: got}) == []


def test_the_digest_reads_fields_not_python_reprs():
    """An event's digest is that of its fields: a tuple subclass (a named event type) with the same
    fields digests the same; an unknown field type is an error, never a silent repr."""
    class Hit(NamedTuple):
        kind: str
        seat: int
        n: int
        hp: int

    assert fp._events([Hit("hit", 0, 2, 3)]) == fp._events([("hit", 0, 2, 3)]) == [["hit", 0, 2, 3]]
    assert fp._events([("combat_starts", 0, 4, (7, 8))]) == [["combat_starts", 0, 4, [7, 8]]]
    with pytest.raises(TypeError):
        fp._events([("hit", 0, 1.5, 3)])
