"""The composition of a complete Classic set: C-COMP-6's counts and proportions as bounds.

C-COMP-6 describes the default set in round numbers ("about 168 cards ... ~37 monsters ... 3
Wandering Monster"). Each number here is one :class:`Bound`: a figure the rule gives "about" (~)
may be off by a tenth (at least 1) either way; a figure it gives plainly must be exact; "levels
1–20" and the specials it names must be present. :func:`check_composition` raises
:class:`DataError` for the first bound a set breaks, naming the file whose cards are counted:
``door.toml: the set: monsters: 45; C-COMP-6 wants about 37 (34..40)``.

Only a complete set is checked (mq.cards.classic_loader.load_classic): a pack adds cards and so
changes the proportions (C-PACK-1). The bounds count cards after ``count`` expansion.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from mq.cards.classic_defs import ClassicSet
from mq.cards.classic_vocab import CURSE_KINDS, K
from mq.cards.defs import DataError


@dataclass(frozen=True)
class Bound:
    deck: str  # "door", "treasure" or "both": whose file an error names
    what: str  # the cards counted, in plain words
    lo: int
    hi: int | None  # None: no upper bound
    count: Callable[[ClassicSet], int]
    about: int | None = None  # the rule's round figure, when it says "about"

    def wants(self) -> str:
        if self.about is not None:
            return f"about {self.about} ({self.lo}..{self.hi})"
        if self.hi is None:
            return f"at least {self.lo}"
        return f"exactly {self.lo}" if self.lo == self.hi else f"{self.lo}..{self.hi}"


def _about(deck: str, what: str, n: int, count: Callable[[ClassicSet], int]) -> Bound:
    slack = max(1, n // 10)
    return Bound(deck, what, n - slack, n + slack, count, n)


def _exactly(deck: str, what: str, n: int, count: Callable[[ClassicSet], int]) -> Bound:
    return Bound(deck, what, n, n, count)


def _some(deck: str, what: str, count: Callable[[ClassicSet], int]) -> Bound:
    return Bound(deck, what, 1, None, count)


def _door(pred) -> Callable[[ClassicSet], int]:
    return lambda s: sum(1 for c in s.door if pred(c))


def _treasure(pred) -> Callable[[ClassicSet], int]:
    return lambda s: sum(1 for c in s.treasure if pred(c))


def _has(card, name: str, **params) -> bool:
    return any(e.name == name and all(e.get(k) == v for k, v in params.items()) for e in card.effects)


def _monsters(pred) -> Callable[[ClassicSet], int]:
    return _door(lambda c: c.kind == K.MONSTER and pred(c))


def _items(pred) -> Callable[[ClassicSet], int]:
    return _treasure(lambda c: c.kind == K.ITEM and pred(c))


def _kind(deck: str, kind: str, key: str | None = None) -> Callable[[ClassicSet], int]:
    count = _door if deck == "door" else _treasure
    return count(lambda c: c.kind == kind and (key is None or c.key == key))


BOUNDS: tuple[Bound, ...] = (
    _about("both", "cards in all", 168, lambda s: len(s.door) + len(s.treasure)),
    _about("door", "Door cards", 95, lambda s: len(s.door)),
    _about("treasure", "Treasure cards", 73, lambda s: len(s.treasure)),
    # Door (C-COMP-6, first list)
    _about("door", "monsters", 37, _kind("door", K.MONSTER)),
    _some("door", "monsters of level 1", _monsters(lambda c: c.level == 1)),
    _some("door", "monsters of level 20", _monsters(lambda c: c.level == 20)),
    _about("door", "monsters giving 2 levels", 5, _monsters(lambda c: c.levels == 2)),
    _about("door", "undead monsters", 4, _monsters(lambda c: "undead" in c.keywords)),
    _about("door", "enhancers", 6, _kind("door", K.ENHANCER)),
    _about("door", "enhancers up", 4, _door(lambda c: c.kind == K.ENHANCER and c.bonus > 0)),
    _about("door", "enhancers down", 2, _door(lambda c: c.kind == K.ENHANCER and c.bonus < 0)),
    _exactly("door", "Wandering Monsters", 3, _kind("door", K.WANDERING)),
    _exactly("door", "Mates", 1, _kind("door", K.MATE)),
    _about("door", "curses", 15, _kind("door", K.CURSE)),
    *(_some("door", f"{kind.replace('_', '-')} curses", _door(lambda c, k=kind: c.kind == K.CURSE and c.curse_kind == k))
      for kind in CURSE_KINDS),
    _exactly("door", "race cards", 9, _kind("door", K.RACE)),
    *(_exactly("door", f"{race} cards", 3, _kind("door", K.RACE, race)) for race in ("elf", "dwarf", "halfling")),
    _exactly("door", "class cards", 12, _kind("door", K.CLASS)),
    *(_exactly("door", f"{cls} cards", 3, _kind("door", K.CLASS, cls))
      for cls in ("warrior", "wizard", "thief", "cleric")),
    _exactly("door", "Half-Breeds", 2, _kind("door", K.HALFBREED)),
    _exactly("door", "Super Munchkins", 2, _kind("door", K.SUPERMUNCHKIN)),
    _about("door", "other Door specials (Cheat! included)", 8, _door(lambda c: c.kind in (K.SPECIAL, K.CHEAT))),
    _some("door", "Cheat! cards", _kind("door", K.CHEAT)),
    _some("door", "specials raising every cleric a level (C-LAW-2)",
          _door(lambda c: c.kind == K.SPECIAL and _has(c, "level_up_all", who="cleric"))),
    _some("door", "specials ending a combat without result",
          _door(lambda c: c.kind == K.SPECIAL and _has(c, "end_combat"))),
    # Treasure (C-COMP-6, second list)
    _about("treasure", "items", 48, _kind("treasure", K.ITEM)),
    _about("treasure", "headgear", 5, _items(lambda c: c.slot == "head")),
    _about("treasure", "armour", 6, _items(lambda c: c.slot == "armour")),
    _about("treasure", "footgear", 4, _items(lambda c: c.slot == "feet")),
    _about("treasure", "hand items", 20, _items(lambda c: c.slot == "hands")),
    _about("treasure", "two-handed items", 6, _items(lambda c: c.hands == 2)),
    _about("treasure", "items without slot", 13, _items(lambda c: c.slot == "none")),
    _about("treasure", "big items", 12, _items(lambda c: c.big)),
    _exactly("treasure", "cards worth more than 1000 gold", 0, _treasure(lambda c: c.value > 1000)),
    _about("treasure", "one-shots", 15, _kind("treasure", K.ONESHOT)),
    _about("treasure", "go-up-a-level cards", 9, _kind("treasure", K.LEVEL)),
    _about("treasure", "other Treasure specials", 1, _kind("treasure", K.SPECIAL)),
)


def check_composition(cards: ClassicSet, door_file: str, treasure_file: str) -> None:
    """Raise DataError for the first bound of :data:`BOUNDS` that ``cards`` breaks."""
    files = {"door": door_file, "treasure": treasure_file, "both": f"{door_file} + {treasure_file}"}
    for b in BOUNDS:
        n = b.count(cards)
        if n < b.lo or (b.hi is not None and n > b.hi):
            raise DataError(files[b.deck], "the set", b.what, f"{n}; C-COMP-6 wants {b.wants()}")
