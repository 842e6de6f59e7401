"""Classic TOML data files -> validated, frozen Classic card definitions (CLASSIC.md C-COMP; schema
in docs/data.md, "Classic mode").

A complete Classic set is a directory holding ``door.toml`` (``[[door]]`` cards and the ``[human]``
table) and ``treasure.toml`` (``[[treasure]]`` cards). :func:`load_classic` reads one and checks its
composition against C-COMP-6 (:mod:`mq.cards.classic_comp`); :func:`load_classic_default` reads the
set shipped in ``mq/data/classic`` and caches it. A **pack** (``mq cards --mode classic --cards
DIR``) is a directory holding either file or both, with new ids and no ``[human]``:
:func:`load_classic_with_pack` adds it to the default set. A pack's cards are validated exactly as
the default ones; the merged set is not held to C-COMP-6's proportions, which a pack changes
(C-PACK-1: a pack adds cards to the two decks).

The readers are the Quest loader's (:mod:`mq.cards.loader`): the same strict types, the same
unknown-key errors, the same effect parsing (with Classic's vocabulary), the same ``count``
expansion and the same :class:`DataError` naming file, card and field, e.g.
``door.toml: CD12: level: 0 is out of range 1..20``.

Nothing here enforces a rule of play: that is the Classic engine's (mq.classic); the loader only
makes sure the data says things the engine understands.
"""
from __future__ import annotations

import functools
import importlib.resources
import os
from pathlib import Path
from typing import Any

from mq.cards import classic_vocab as V
from mq.cards import pack as quest_pack
from mq.cards.classic_comp import check_composition
from mq.cards.classic_defs import (
    ClassicDoorDef,
    ClassicDungeonDef,
    ClassicMonsterDef,
    ClassicSet,
    ClassicTreasureDef,
    HumanDef,
)
from mq.cards.classic_vocab import K
from mq.cards.defs import DataError, Effect
from mq.cards.loader import _bonuses, _effects, _Entry, _load_deck, _read, _shown, _top

DOOR, TREASURE, DUNGEON = "door.toml", "treasure.toml", "dungeon.toml"
FILES = (DOOR, TREASURE)
PACK_FILES = FILES + (DUNGEON,)  # a pack may bring a dungeon deck (C-PACK-7)
HUMAN = "human"

# Every field some card of the deck may have: a field of another kind gets "not allowed on a curse
# card" rather than "unknown field".
_DOOR_FIELDS = ("id", "name", "text", "kind", "count", "level", "levels", "treasure", "keywords",
                "bonuses", "effects", "bad_stuff", "on_escape", "key", "bonus", "powers", "drawbacks",
                "epic", "when")
_TREASURE_FIELDS = ("id", "name", "text", "kind", "count", "slot", "hands", "big", "bonus", "value", "both",
                    "only", "not_for", "keywords", "effects", "use", "when")


# --- public API ---------------------------------------------------------------------------------

def load_classic(path: str | os.PathLike | Any, labels: dict[str, str] | None = None) -> ClassicSet:
    """Load, validate and check the composition of the complete Classic set in directory ``path``
    (a path or an importlib Traversable). ``labels`` renames the files in errors."""
    root = Path(path) if isinstance(path, (str, os.PathLike)) else path
    labels = labels or {}
    docs = {name: _read(root, name) for name in FILES}
    door_doc = docs[DOOR]
    if HUMAN not in door_doc:
        raise DataError(labels.get(DOOR, DOOR), "", HUMAN,
                        "missing: a complete set needs a [human] table (C-CHAR-4, C-EPIC-6)")
    human = _human(door_doc[HUMAN], labels.get(DOOR, DOOR))
    cards = ClassicSet(_load_door(door_doc, labels.get(DOOR, DOOR)),
                       _load_treasure(docs[TREASURE], labels.get(TREASURE, TREASURE)), human)
    check_composition(cards, labels.get(DOOR, DOOR), labels.get(TREASURE, TREASURE))
    return cards


@functools.cache
def load_classic_default() -> ClassicSet:
    """The default Classic set of ``mq/data/classic``, loaded once per process."""
    return load_classic(importlib.resources.files("mq") / "data" / "classic")


def load_classic_with_pack(path: str | os.PathLike | None, base: ClassicSet | None = None) -> ClassicSet:
    """``base`` (the default Classic set), plus the pack in directory ``path`` when one is given:
    the pack's cards follow the base ones in each deck; every pack id must be new.  The table's
    packs (mq.cards.classic_packs, C-PACK) and house packs (``--cards DIR``) load this way."""
    base = base or load_classic_default()
    if path is None:
        return base
    labels = {name: str(Path(path) / name) for name in PACK_FILES}
    docs = quest_pack.read(path, PACK_FILES)
    door_doc = docs.get(DOOR, {})
    if HUMAN in door_doc:
        raise DataError(labels[DOOR], "", HUMAN, "a pack adds cards; it cannot change the human")
    door = _load_door(door_doc, labels[DOOR]) if DOOR in docs else ()
    treasure = _load_treasure(docs[TREASURE], labels[TREASURE]) if TREASURE in docs else ()
    dungeon = _load_dungeon(docs[DUNGEON], labels[DUNGEON]) if DUNGEON in docs else ()
    for file, deck in ((DOOR, door), (TREASURE, treasure), (DUNGEON, dungeon)):
        for c in deck:
            try:
                old = base.card(c.id)
            except KeyError:
                continue
            raise DataError(labels[file], c.id, "id", f"clashes with {old.name!r} of the set it extends "
                                                      f"(pack cards need new ids, e.g. 3 digits)")
    clash = [c.id for c in dungeon if c.id in {d.id for d in base.dungeon}]
    if clash:
        raise DataError(labels[DUNGEON], clash[0], "id", "clashes with a dungeon of the set it extends")
    return ClassicSet(base.door + door, base.treasure + treasure, base.human, base.dungeon + dungeon)


# --- the files ----------------------------------------------------------------------------------

def _load_door(doc: dict, file: str) -> tuple:
    _top(doc, file, ("door", HUMAN))
    return _load_deck({"door": doc.get("door")} if "door" in doc else {}, file, "door", "CD", _door)


def _load_treasure(doc: dict, file: str) -> tuple:
    return _load_deck(doc, file, "treasure", "CT", _treasure)


def _human(table: object, file: str) -> HumanDef:
    if not isinstance(table, dict):
        raise DataError(file, "", HUMAN, f"must be a table, got {_shown(table)}")
    e = _Entry(file, HUMAN, table)
    human = HumanDef(e.string("text"), _fx(e, "epic", V.EPIC))
    e.finish()
    return human


def _fx(e: _Entry, key: str, context: str, required: bool = False) -> tuple[Effect, ...]:
    return _effects(e, key, context, required, V)


def _refuse_other_fields(e: _Entry, kind: str, fields: tuple[str, ...]) -> None:
    """A field some other kind has is "not allowed" here; any other stray key is left to
    ``_Entry.finish`` ("unknown field", with a suggestion)."""
    word = V.KIND_WORDS[kind]
    article = "an" if word[0] in "aeiu" else "a"  # "a one-shot", "an enhancer"
    e.forbid(tuple(f for f in fields if f not in e.used), f"on {article} {word} card")


# --- dungeon.toml (C-PACK-7) ----------------------------------------------------------------------

def _load_dungeon(doc: dict, file: str) -> tuple:
    return _load_deck(doc, file, "dungeon", "CG", _dungeon)


def _dungeon(e: _Entry, cid: str) -> ClassicDungeonDef:
    name, text = e.string("name"), e.string("text")
    effects = _fx(e, "effects", V.DUNGEON, required=True)
    if not effects:
        raise e.err("effects", "a dungeon must have a rule for the table")
    for x in effects:
        if x.name == "sale_gold" and x.number("amount") % V.VALUE_STEP:
            raise e.err("effects", f"sale_gold: {x.number('amount')} is not a multiple of {V.VALUE_STEP} gold")
    return ClassicDungeonDef(cid, name, text, effects)


# --- door.toml ----------------------------------------------------------------------------------

def _door(e: _Entry, cid: str) -> ClassicMonsterDef | ClassicDoorDef:
    name, text = e.string("name"), e.string("text")
    kind = e.choice("kind", V.DOOR_KINDS, "Door kind")
    if kind == K.MONSTER:
        card: ClassicMonsterDef | ClassicDoorDef = _monster(e, cid, name, text)
    else:
        card = _door_card(e, cid, name, text, kind)
    _refuse_other_fields(e, kind, _DOOR_FIELDS)
    return card


def _monster(e: _Entry, cid: str, name: str, text: str) -> ClassicMonsterDef:
    level = e.integer("level", V.LEVEL_MIN, V.LEVEL_MAX)
    levels = e.integer("levels", 1, V.LEVELS_GIVEN_MAX, 1)
    treasure = e.integer("treasure", 0, V.TREASURE_MAX)
    keywords = e.words("keywords", V.MONSTER_KEYWORDS, "keyword")
    bonuses = _bonuses(e, V.WHO)
    effects = _fx(e, "effects", V.MONSTER)
    beaten = [x.get("who") for x in effects if x.name in ("auto_defeat", "auto_kill")]
    if len(set(beaten)) != len(beaten):
        raise e.err("effects", f"a {beaten[0]} cannot both kill and defeat it automatically")
    bad_stuff = _fx(e, "bad_stuff", V.BAD_STUFF, required=True)
    if not bad_stuff:
        raise e.err("bad_stuff", "must not be empty: every monster has Bad Stuff (C-RUN-4)")
    on_escape = _fx(e, "on_escape", V.BAD_STUFF)
    for key, fx in (("bad_stuff", bad_stuff), ("on_escape", on_escape)):
        if len(fx) > 1 and any(x.name == "death" for x in fx):
            # C-RUN-5: a dead munchkin suffers nothing more, so nothing may go with it.
            raise e.err(key, "'death' must be alone in its list (C-RUN-5)")
    return ClassicMonsterDef(cid, name, text, level, levels, treasure, keywords, bonuses, effects,
                             bad_stuff, on_escape)


def _door_card(e: _Entry, cid: str, name: str, text: str, kind: str) -> ClassicDoorDef:
    key: str | None = None
    bonus = 0
    effects = powers = drawbacks = epic = ()
    when: str | None = None
    if kind in (K.RACE, K.CLASS):
        if kind == K.RACE:
            if e.raw("key", None) == "human":
                raise e.err("key", "'human' is not a race card: a munchkin without a race card is "
                                   "human (C-CHAR-2)")
            key = e.choice("key", V.RACE_CARD_KEYS, "race")
        else:
            key = e.choice("key", V.CLASSES, "class")
        powers = _fx(e, "powers", V.POWER)
        drawbacks = _fx(e, "drawbacks", V.POWER)
        epic = _fx(e, "epic", V.EPIC)
    elif kind == K.ENHANCER:  # C-COMBAT-6: a monster's level and its Treasure count, the same way
        bonus = e.integer("bonus", V.BONUS_MIN, V.BONUS_MAX)
        if bonus == 0:
            raise e.err("bonus", "an enhancer must change the monster's level")
        effects = _fx(e, "effects", V.ENHANCER, required=True)
        if len(effects) != 1:
            raise e.err("effects", "an enhancer changes the Treasure count once: one extra_treasure "
                                   "or fewer_treasure (C-COMBAT-6)")
        if (V.TREASURE_CHANGES[effects[0].name] > 0) != (bonus > 0):
            want = "extra_treasure" if bonus > 0 else "fewer_treasure"
            raise e.err("effects", f"a monster made {'stronger' if bonus > 0 else 'weaker'} carries "
                                   f"{'more' if bonus > 0 else 'less'} Treasure: bonus {bonus:+d} goes "
                                   f"with {want} (C-COMBAT-6)")
    elif kind == K.CURSE:  # C-CARD-8
        effects = _fx(e, "effects", V.CURSE, required=True)
        if not effects:
            raise e.err("effects", "a curse must do something")
        names = {x.name for x in effects}
        if names & set(V.LASTING_EFFECTS) and names & set(V.NEXT_COMBAT_EFFECTS):
            raise e.err("effects", "a curse either waits for the next combat or lasts until removed, "
                                   "not both (C-CARD-8)")
    elif kind == K.SPECIAL:
        when = e.choice("when", V.TIMINGS, "timing")
        effects = _fx(e, "effects", V.SPECIAL, required=True)
        if not effects:
            raise e.err("effects", "a special must do something")
    # wandering, mate, halfbreed, supermunchkin, cheat, portal: what they do is the kind's rule
    # (C-COMBAT-5, C-CHAR-7/8, C-ITEM-5, C-PACK-7); they have no other field.
    return ClassicDoorDef(cid, name, text, kind, key, bonus, effects, powers, drawbacks, epic, when)


# --- treasure.toml ------------------------------------------------------------------------------

def _treasure(e: _Entry, cid: str) -> ClassicTreasureDef:
    name, text = e.string("name"), e.string("text")
    kind = e.choice("kind", V.TREASURE_KINDS, "Treasure kind")
    slot: str | None = None
    hands = bonus = value = 0
    big = False
    only = not_for = keywords = ()
    effects = use = ()
    when: str | None = None
    both = False
    if kind == K.ITEM:
        slot = e.choice("slot", V.SLOTS, "slot")
        if slot == "hands":
            hands = e.integer("hands", 1, 2)
        big = e.boolean("big", False)
        only = e.words("only", V.WHO, "race/class/gender")
        not_for = e.words("not_for", V.WHO, "race/class/gender")
        clash = [w for w in only if w in not_for]
        if clash:
            raise e.err("not_for", f"{clash[0]!r} is in both only and not_for")
        effects = _fx(e, "effects", V.ITEM)
        use = _fx(e, "use", V.USE)
    elif kind in V.FOLLOWERS:  # C-PACK-5: a steed or a hireling, in play like an item in use
        effects = _fx(e, "effects", V.ITEM)
        use = _fx(e, "use", V.USE)
        both = e.boolean("both", False)
    elif kind == K.ONESHOT:
        effects = _fx(e, "effects", V.ONESHOT)
    elif kind == K.SPECIAL:
        when = e.choice("when", V.TIMINGS, "timing")
        effects = _fx(e, "effects", V.SPECIAL, required=True)
        if not effects:
            raise e.err("effects", "a special must do something")
    if kind in (K.ITEM, K.ONESHOT) + V.FOLLOWERS:
        bonus = e.integer("bonus", V.ITEM_BONUS_MIN, V.ITEM_BONUS_MAX, 0)
        value = e.integer("value", 0, V.VALUE_MAX, 0)
        if value % V.VALUE_STEP:
            raise e.err("value", f"{value} is not a multiple of {V.VALUE_STEP} gold (C-COMP-6)")
        keywords = e.words("keywords", V.ITEM_KEYWORDS, "item keyword")
    if kind == K.ONESHOT and not bonus and not effects:
        raise e.err("effects", "a one-shot must do something: give it a bonus or an effect")
    if kind == K.ITEM and slot != "hands":
        e.forbid(("hands",), 'unless slot = "hands"')
    # A go-up-a-level card is only that (C-CARD-3): no other field.
    _refuse_other_fields(e, kind, _TREASURE_FIELDS)
    return ClassicTreasureDef(cid, name, text, kind, slot, hands, big, bonus, value, only, not_for,
                              keywords, effects, use, when, both)
