"""Frozen definitions of every card, room face and connector of a card set.

These are *definitions*, shared by all games and all peers: a game state refers to them by id
(``"M12"``, ``"R03b"``) and never copies them. They are produced by :mod:`mq.cards.loader`, which
validates every value against the closed vocabularies of :mod:`mq.cards.vocab`; nothing here
re-validates.

Invariants (guaranteed by the loader):
- Everything is immutable and hashable: tuples, never lists or dicts.
- Tuples keep the order of the data file, except ``Effect.params`` which is sorted by key, so two
  equal effects compare and hash equal whatever order the file wrote their parameters in.
- Ids are unique within a :class:`CardSet`: card ids across the three decks, face ids across all
  faces (the Entrance face is ``"ENTRANCE"``).
"""
from __future__ import annotations

from dataclasses import dataclass

from mq.cards.conditions import Condition

# A parameter value of an effect. bool is listed although it is an int subclass: the loader never
# lets a bool stand in for an int or the other way round.  A ``who`` of a room effect is a
# Condition (Q-COMBAT-6).
Param = int | str | bool | tuple[str, ...] | Condition


class DataError(ValueError):
    """Invalid card data. The message names the file, the entry id and the field, e.g.
    ``monsters.toml: M12: keywords: unknown keyword 'flyng' (did you mean 'flying'?)``."""

    def __init__(self, file: str, where: str = "", field: str = "", message: str = "") -> None:
        self.file, self.where, self.field, self.message = file, where, field, message
        super().__init__(": ".join(part for part in (file, where, field, message) if part))


@dataclass(frozen=True)
class Effect:
    """A named behaviour the engine implements (see ``vocab.EFFECTS`` for the names and the
    parameter schema of each); ``params`` are ``(key, value)`` pairs sorted by key."""

    name: str
    params: tuple[tuple[str, Param], ...] = ()

    def get(self, key: str, default: Param | None = None) -> Param | None:
        for k, v in self.params:
            if k == key:
                return v
        return default

    # The typed reads of a parameter: the schema (vocab.EFFECTS) fixes each one's type.  Without
    # a default the parameter is required (the loader fills in the schema's own defaults).
    def number(self, key: str, default: int | None = None) -> int:
        """An int parameter."""
        v = self.get(key, default)
        if not isinstance(v, int):
            raise TypeError(f"effect {self.name}: parameter {key} is {v!r}, not a number")
        return v

    def text(self, key: str, default: str | None = None) -> str:
        """A str parameter."""
        v = self.get(key, default)
        if not isinstance(v, str):
            raise TypeError(f"effect {self.name}: parameter {key} is {v!r}, not a word")
        return v

    def condition(self, key: str) -> Condition:
        """A condition on a munchkin (Q-COMBAT-6)."""
        v = self.get(key)
        if not isinstance(v, Condition):
            raise TypeError(f"effect {self.name}: parameter {key} is {v!r}, not a condition")
        return v


@dataclass(frozen=True)
class RoomFace:
    id: str  # "R01a" / "R01b"; the Entrance face is "ENTRANCE"
    tile: str  # "R01" ("ENTRANCE" for the Entrance)
    name: str
    text: str
    # 6 entries in colour order red, green, blue, yellow, purple, orange (Q-COMP-5);
    # value = direction 0 N, 1 E, 2 S, 3 W, or -1 for no arrow of that colour (Q-MT-2).
    arrows: tuple[int, ...]
    green: tuple[Condition, ...]  # green icons / "good for X" (Q-COMBAT-6): +1 die each
    red: tuple[Condition, ...]  # red icons / "bad for X": -1 die each
    search: int  # search modifier -2..+2 (Q-SEARCH-1)
    no_search: bool
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class RoomTile:
    id: str  # "R01"
    faces: tuple[RoomFace, RoomFace]  # side a, side b


@dataclass(frozen=True)
class ConnectorDef:
    id: str  # "C01".."C73"
    back: int  # the non-corridor face: 1 DOOR, 2 LOCKED, 3 SECRET, 4 WALL (front is 0 CORRIDOR)


@dataclass(frozen=True)
class MonsterDef:
    id: str
    name: str
    text: str
    level: int  # 1..20
    dice: int  # 0..3 combat dice (Q-COMBAT-5)
    treasure: int  # treasures for killing it
    mighty: bool  # worth 2 levels (Q-COMBAT-9)
    size: str  # "tiny" | "small" | "human" | "huge" (Q-COMP-4)
    movement: str  # "normal" | "fast" | "slow" | "lurking" | "backwards" (Q-MT-3)
    passes: tuple[str, ...]  # subset of ("locked", "secret", "wall") it may cross (Q-MT-3)
    smashes: bool  # smashes doors into corridors (Q-MT-6)
    keywords: tuple[str, ...]  # kind/ability keywords (vocab.MONSTER_KEYWORDS)
    bonuses: tuple[tuple[str, int], ...]  # (who, amount) vs a fighter who is who (Q-COMBAT-4)
    ignores: tuple[str, ...]  # race/class/gender names it ignores (Q-COMBAT-2)
    runaway: int  # modifier to every run-away roll against it (Q-RUN-2)
    bad_stuff: tuple[Effect, ...]  # never empty
    rewards: tuple[Effect, ...]


@dataclass(frozen=True)
class TreasureDef:
    id: str
    name: str
    text: str
    kind: str  # "item" | "oneshot" | "level"
    slot: str | None  # item slot (vocab.SLOTS); one-shots "belt"; None for level cards
    hands: int  # 1 or 2 for slot "hands", else 0
    big: bool  # Q-ITEM-8
    bonus: int  # combat bonus worn/carried (items) or when used (one-shots)
    value: int  # gold value (0 = no value)
    only: tuple[str, ...]  # usable only by these races/classes/genders (Q-ITEM-4); empty = anyone
    not_for: tuple[str, ...]  # not usable by these
    throwable: bool  # Q-ITEM-9
    keywords: tuple[str, ...]  # vocab.ITEM_KEYWORDS
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class DxmDef:
    id: str
    name: str
    text: str
    kind: str  # "race" | "class" | "level" | "oneshot"
    key: str | None  # race/class name for race/class cards, else None
    bonus: int  # one-shots: combat bonus
    effects: tuple[Effect, ...]


CardDef = MonsterDef | TreasureDef | DxmDef


@dataclass(frozen=True)
class CardSet:
    """A complete default or custom set: the Entrance, the room tiles, the connectors and the three
    decks, each in file order. ``card`` and ``face`` look ids up in O(1)."""

    entrance: RoomFace
    rooms: tuple[RoomTile, ...]
    connectors: tuple[ConnectorDef, ...]
    monsters: tuple[MonsterDef, ...]
    treasures: tuple[TreasureDef, ...]
    dxm: tuple[DxmDef, ...]
    # Q-COMP-4: the monster standees, (size, count) in vocab.SIZES order; empty: a standee of its
    # own size for every monster (a set built in code without the monster file's [standees]).
    standees: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        # The lookups are plain attributes, not fields: derived data stays out of eq, hash and
        # dataclasses.fields(), so the set still compares and hashes by its content only.
        cards: dict[str, CardDef] = {}
        for deck in (self.monsters, self.treasures, self.dxm):
            for c in deck:
                if c.id in cards:
                    raise DataError("card set", c.id, "id", "duplicate card id")
                cards[c.id] = c
        faces: dict[str, RoomFace] = {self.entrance.id: self.entrance}
        for tile in self.rooms:
            for f in tile.faces:
                if f.id in faces:
                    raise DataError("card set", f.id, "id", "duplicate room face id")
                faces[f.id] = f
        object.__setattr__(self, "_cards", cards)
        object.__setattr__(self, "_faces", faces)

    def card(self, card_id: str) -> CardDef:
        """The monster, treasure or DxM card with this id (KeyError if none)."""
        try:
            return self._cards[card_id]
        except KeyError:
            raise KeyError(f"no card with id {card_id!r}") from None

    # The typed lookups, where the rules know the deck a card comes from (KeyError otherwise).
    def monster_card(self, card_id: str) -> MonsterDef:
        """The Monster card with this id."""
        d = self._cards.get(card_id)
        if not isinstance(d, MonsterDef):
            raise KeyError(f"{card_id!r} is not a Monster card")
        return d

    def treasure_card(self, card_id: str) -> TreasureDef:
        """The Treasure card with this id."""
        d = self._cards.get(card_id)
        if not isinstance(d, TreasureDef):
            raise KeyError(f"{card_id!r} is not a Treasure card")
        return d

    def dxm_card(self, card_id: str) -> DxmDef:
        """The DxM card with this id."""
        d = self._cards.get(card_id)
        if not isinstance(d, DxmDef):
            raise KeyError(f"{card_id!r} is not a DxM card")
        return d

    def playable_card(self, card_id: str) -> TreasureDef | DxmDef:
        """A Treasure or DxM card: one with a kind, a bonus and effects, that a munchkin plays."""
        d = self.card(card_id)
        if isinstance(d, MonsterDef):
            raise KeyError(f"{card_id!r} is a Monster card")
        return d

    def face(self, face_id: str) -> RoomFace:
        """The room face with this id, the Entrance included (KeyError if none)."""
        try:
            return self._faces[face_id]
        except KeyError:
            raise KeyError(f"no room face with id {face_id!r}") from None
