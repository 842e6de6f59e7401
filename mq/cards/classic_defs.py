"""Frozen definitions of the Classic mode's cards (CLASSIC.md C-COMP): the Door and Treasure decks.

Like the Quest definitions (:mod:`mq.cards.defs`), these are shared by all games and all peers; a
game refers to a card by id (``"CD12"``, ``"CT03"``). They are produced by
:mod:`mq.cards.classic_loader`, which validates every value against :mod:`mq.cards.classic_vocab`;
nothing here re-validates. Effects are :class:`mq.cards.defs.Effect`, the same type as Quest's.

Invariants (guaranteed by the loader):
- Everything is immutable and hashable: tuples, never lists or dicts; tuples keep the file's order
  (an effect's parameters are sorted by key).
- Ids are unique within a :class:`ClassicSet`; Door ids start ``CD``, Treasure ids ``CT``.
- Fields that do not apply to a card's kind hold their empty value (``None``, ``0``, ``()``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from mq.cards.classic_vocab import K, curse_kind
from mq.cards.defs import DataError, Effect


@dataclass(frozen=True)
class ClassicMonsterDef:
    """A monster card (C-COMP-4): one monster, even with a plural name."""

    kind: ClassVar[str] = K.MONSTER
    id: str
    name: str
    text: str
    level: int  # printed level, 1..20
    levels: int  # levels it gives when killed: 1, or 2 for very dangerous ones (C-COMBAT-9)
    treasure: int  # Treasure cards it carries
    keywords: tuple[str, ...]  # monster keywords (undead...)
    bonuses: tuple[tuple[str, int], ...]  # (who, amount) against a fighter who is who (C-COMBAT-3)
    effects: tuple[Effect, ...]  # its special text: vocab context "monster"
    bad_stuff: tuple[Effect, ...]  # never empty (C-RUN-4)
    on_escape: tuple[Effect, ...]  # what it does even to those who escape it (C-RUN-4)


@dataclass(frozen=True)
class ClassicDoorDef:
    """Every other Door card (C-COMP-2): enhancer, Wandering Monster, Mate, curse, race, class,
    Half-Breed, Super Munchkin, Cheat!, special."""

    id: str
    name: str
    text: str
    kind: str  # classic_vocab.DOOR_KINDS, never "monster"
    key: str | None  # race cards: elf/dwarf/halfling; class cards: the class; else None
    bonus: int  # enhancers: the monster's level change (C-COMBAT-6); else 0
    effects: tuple[Effect, ...]  # enhancers, curses, specials
    powers: tuple[Effect, ...]  # race/class benefits (C-CHAR-4/5)
    drawbacks: tuple[Effect, ...]  # race/class drawbacks, which a Half-Breed / Super Munchkin drops
    epic: tuple[Effect, ...]  # race/class epic powers (C-EPIC-2)
    when: str | None  # specials: a classic_vocab.Timing (C-TURN-6/7/8); else None

    @property
    def curse_kind(self) -> str | None:
        """The curse's :class:`~mq.cards.classic_vocab.CurseKind` (C-CARD-8); None for other kinds."""
        return curse_kind(self.effects) if self.kind == K.CURSE else None


@dataclass(frozen=True)
class ClassicTreasureDef:
    """A Treasure card (C-COMP-3/5): item, one-shot, go up a level, special; with the steeds and
    hirelings pack (C-PACK-5) a steed or a hireling."""

    id: str
    name: str
    text: str
    kind: str  # classic_vocab.TREASURE_KINDS
    slot: str | None  # items: classic_vocab.SLOTS; else None
    hands: int  # slot "hands": 1 or 2; else 0
    big: bool  # C-ITEM-4
    bonus: int  # items: while in use; one-shots: when played, on either side
    value: int  # gold, a multiple of 100; 0 = no value (cannot be sold, C-ITEM-7)
    only: tuple[str, ...]  # usable only by these races/classes/genders (C-ITEM-3); empty = anyone
    not_for: tuple[str, ...]  # not usable by these
    keywords: tuple[str, ...]  # item keywords
    effects: tuple[Effect, ...]  # items: while in use; one-shots and specials: when played
    use: tuple[Effect, ...]  # items: a power used by discarding the item from play
    when: str | None  # specials: as ClassicDoorDef.when; else None
    both: bool = False  # a steed that may serve as a hireling instead, or the other way round (C-PACK-5)


@dataclass(frozen=True)
class ClassicDungeonDef:
    """A dungeon card (C-PACK-7): a rule for the whole table, monsters included, while it is one of
    the (at most two) active dungeons.  Dungeons are a deck of their own, ids ``CG...``."""

    kind: ClassVar[str] = "dungeon"
    id: str
    name: str
    text: str
    effects: tuple[Effect, ...]  # vocab context "dungeon", never empty


@dataclass(frozen=True)
class HumanDef:
    """What a munchkin without a race card is (C-CHAR-4: no powers; C-EPIC-6: an epic one)."""

    text: str
    epic: tuple[Effect, ...]


ClassicCardDef = ClassicMonsterDef | ClassicDoorDef | ClassicTreasureDef


@dataclass(frozen=True)
class ClassicSet:
    """A complete Classic set: the two decks in file order and the human's powers, and the dungeon
    deck of the dungeons pack (C-PACK-7; empty without it). ``card`` looks Door and Treasure ids up
    in O(1), ``dungeon_card`` dungeon ids."""

    door: tuple[ClassicMonsterDef | ClassicDoorDef, ...]
    treasure: tuple[ClassicTreasureDef, ...]
    human: HumanDef
    dungeon: tuple[ClassicDungeonDef, ...] = ()

    def __post_init__(self) -> None:
        # A plain attribute, not a field: it stays out of eq and hash (see CardSet).
        cards: dict[str, ClassicCardDef] = {}
        for c in self.door + self.treasure:
            if c.id in cards:
                raise DataError("classic set", c.id, "id", "duplicate card id")
            cards[c.id] = c
        dungeons = {c.id: c for c in self.dungeon}
        if len(dungeons) != len(self.dungeon) or set(dungeons) & set(cards):
            raise DataError("classic set", "", "id", "duplicate dungeon card id")
        object.__setattr__(self, "_cards", cards)
        object.__setattr__(self, "_dungeons", dungeons)

    def card(self, card_id: str) -> ClassicCardDef:
        """The Door or Treasure card with this id (KeyError if none)."""
        try:
            return self._cards[card_id]
        except KeyError:
            raise KeyError(f"no card with id {card_id!r}") from None

    # The typed lookups, where the rules know the kind of card (KeyError otherwise).
    def monster_card(self, card_id: str) -> ClassicMonsterDef:
        """The Monster card (a Door card) with this id."""
        d = self._cards.get(card_id)
        if not isinstance(d, ClassicMonsterDef):
            raise KeyError(f"{card_id!r} is not a Monster card")
        return d

    def door_card(self, card_id: str) -> ClassicDoorDef:
        """The Door card other than a Monster with this id."""
        d = self._cards.get(card_id)
        if not isinstance(d, ClassicDoorDef):
            raise KeyError(f"{card_id!r} is not a Door card other than a Monster")
        return d

    def playable_card(self, card_id: str) -> ClassicDoorDef | ClassicTreasureDef:
        """A Door card other than a Monster, or a Treasure: one a munchkin plays or uses."""
        d = self.card(card_id)
        if isinstance(d, ClassicMonsterDef):
            raise KeyError(f"{card_id!r} is a Monster card")
        return d

    def dungeon_card(self, card_id: str) -> ClassicDungeonDef:
        """The dungeon card with this id (C-PACK-7)."""
        try:
            return self._dungeons[card_id]
        except KeyError:
            raise KeyError(f"{card_id!r} is not a dungeon card") from None

    def treasure_card(self, card_id: str) -> ClassicTreasureDef:
        """The Treasure card with this id."""
        d = self._cards.get(card_id)
        if not isinstance(d, ClassicTreasureDef):
            raise KeyError(f"{card_id!r} is not a Treasure card")
        return d
