"""The Classic mode's optional packs (CLASSIC.md C-PACK, the table option C-OPT-4).

A **pack** is a data directory plus named effects (C-PACK-1): ``mq/data/classic/packs/<name>/``
holds a ``door.toml`` and/or ``treasure.toml`` in the schema of the default set (docs/data.md,
"Classic mode"), with new ids (pack *n* of C-PACK-*n* numbers its cards ``CDn01``, ``CTn01``...);
the effects its cards name are in the Classic vocabulary (mq.cards.classic_vocab) with their engine
code (mq/classic/packs.py for the pack races, classes, steeds and hirelings).

Invariants:
- :data:`PACKS` is the closed list, in a fixed order: a game's packs are always given in that
  order (:func:`check_packs`), so the same choice is the same parameters, hash and card set on
  every peer whatever order a player typed them in.
- :func:`load_classic_packs` adds the packs' cards to the default set, each pack after the
  previous one, deck by deck; with no packs it is the default set itself (packs off change
  nothing, C-OPT-4).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from mq.cards.classic_defs import ClassicSet
from mq.cards.classic_loader import load_classic_default, load_classic_with_pack

ALL = "all"  # every pack (mq play/host/sim --packs all)
ROOT = Path(__file__).resolve().parent.parent / "data" / "classic" / "packs"


@dataclass(frozen=True)
class Pack:
    name: str  # the word players type (--packs) and the parameters hold
    letter: str  # its letter in a lobby's options (net.options)
    rule: str  # its section of CLASSIC.md
    words: str  # what it adds, for the lobby and --help


PACKS = (
    Pack("orcs", "o", "C-PACK-2", "the orc race, more monsters and weapons, companions"),
    Pack("gnomes", "g", "C-PACK-3", "the gnome race and the bard class"),
    Pack("steeds", "s", "C-PACK-5", "steeds to ride and hirelings to follow you, one of each"),
    Pack("rangers", "r", "C-PACK-6", "the ranger class, who tames monsters as steeds; more steeds"),
    Pack("dungeons", "d", "C-PACK-7", "dungeons whose rules hold for the whole table, and portals between them"),
    Pack("more", "m", "C-PACK-8", "more monsters, curses and Treasure of the known kinds"),
)
NAMES = tuple(p.name for p in PACKS)
BY_NAME = {p.name: p for p in PACKS}
BY_LETTER = {p.letter: p for p in PACKS}


class UnknownPack(ValueError):
    """A pack name no table knows; its message says which ones exist."""


def check_packs(names) -> tuple[str, ...]:
    """The packs ``names`` choose, as a tuple in :data:`PACKS` order, each once; ``all`` is every
    pack. UnknownPack in words for a name that is not a pack."""
    chosen: set[str] = set()
    for name in names:
        if name == ALL:
            chosen.update(NAMES)
        elif name in BY_NAME:
            chosen.add(name)
        else:
            raise UnknownPack(f"no pack {name!r}: the packs are {', '.join(NAMES)} (or all)")
    return tuple(n for n in NAMES if n in chosen)


def parse_packs(text: str) -> tuple[str, ...]:
    """``--packs LIST``: names separated by commas (spaces allowed), or ``all``, checked."""
    names = tuple(w.strip() for w in text.split(",") if w.strip())
    if not names:
        raise UnknownPack(f"no pack named: give pack names separated by commas ({', '.join(NAMES)}) or all")
    return check_packs(names)


def packs_words(packs: tuple[str, ...]) -> str:
    """The packs of a game in words, for a lobby or a header."""
    return ", ".join(packs) if packs else "none"


@functools.cache
def load_classic_packs(packs: tuple[str, ...] = ()) -> ClassicSet:
    """The default Classic set plus ``packs`` (names in :data:`PACKS` order), loaded once per process."""
    cards = load_classic_default()
    for name in check_packs(packs):
        cards = load_classic_with_pack(ROOT / name, cards)
    return cards
