"""The Classic cards in plain words: the lines ``mq cards list/show/validate --mode classic`` print.

Pure functions of a :class:`ClassicSet` (no I/O, no argument parsing: mq/cards/cli.py does that).
Effects read as sentences (:func:`mq.cards.classic_vocab.describe`), kinds, slots and timings as
words, so a player can check a card without knowing the data format.

Invariants: output is a pure function of the set, in file order; every card has exactly one list
line, which starts with its id.
"""
from __future__ import annotations

import textwrap
from collections import Counter

from mq.cards import classic_vocab as V
from mq.cards.classic_defs import (
    ClassicCardDef,
    ClassicDoorDef,
    ClassicDungeonDef,
    ClassicMonsterDef,
    ClassicSet,
    ClassicTreasureDef,
)
from mq.cards.classic_vocab import CurseKind, K, Timing
from mq.cards.defs import Effect

WHEN_WORDS = {Timing.ANYTIME: "at any time", Timing.COMBAT: "in combat",
              Timing.OWN_TURN: "on your turn, outside combat"}
CURSE_WORDS = {CurseKind.IMMEDIATE: "acts at once", CurseKind.NEXT_COMBAT: "waits for your next combat",
               CurseKind.LASTING: "stays until a card removes it"}
SLOT_WORDS = {"head": "headgear", "armour": "armour", "feet": "footgear", "none": "no slot"}
HUMAN_ID = "human"
DUNGEON = "dungeon"  # the dungeons pack's own deck (C-PACK-7), listed after the two decks when in play
LIST_DECKS = V.DECKS + (DUNGEON,)


def _effects(fx: tuple[Effect, ...]) -> str:
    return "; ".join(V.describe(e) for e in fx) if fx else "none"


def _words(ws: tuple[str, ...]) -> str:
    return ", ".join(ws) if ws else "none"


def _slot(c: ClassicTreasureDef) -> str:
    if c.slot == "hands":
        return "one hand" if c.hands == 1 else "two hands"
    return SLOT_WORDS[c.slot]


def _gold(value: int) -> str:
    return f"{value} gold" if value else "no value"


# -- list ----------------------------------------------------------------------------------------

def _summary(c: ClassicCardDef) -> str:
    if isinstance(c, ClassicMonsterDef):
        return f"level {c.level}, {c.treasure} Treasure" + (f", {c.levels} levels" if c.levels > 1 else "")
    if isinstance(c, ClassicDoorDef):
        if c.kind == K.ENHANCER:
            return f"{c.bonus:+d} to its level"
        if c.kind == K.CURSE:
            return CURSE_WORDS[c.curse_kind]
        if c.key:
            return c.key
        return WHEN_WORDS[c.when] if c.when else ""
    if c.kind in (K.ITEM, K.ONESHOT) + V.FOLLOWERS:
        bits = [_slot(c)] if c.kind == K.ITEM else ["or " + _other_role(c)] if c.kind in V.FOLLOWERS and c.both else []
        bits += ["big"] if c.big else []
        bits += [f"{c.bonus:+d}"] if c.bonus else []
        return ", ".join(bits + [_gold(c.value)])
    return WHEN_WORDS[c.when] if c.when else ""


def card_line(c: ClassicCardDef) -> str:
    return f"{c.id:<8} {V.KIND_WORDS[c.kind]:<18} {_summary(c):<34} {c.name}"


def dungeon_line(d: ClassicDungeonDef) -> str:
    return f"{d.id:<8} {'dungeon':<18} {d.name}: {_effects(d.effects)}"


def list_lines(cards: ClassicSet, deck: str | None = None) -> list[str]:
    """A header per deck, then one line per card in file order; the dungeon deck too when the set
    has one (the dungeons pack, C-PACK-7), or when it is asked for."""
    out: list[str] = []
    for name in (deck,) if deck else V.DECKS + ((DUNGEON,) if cards.dungeon else ()):
        if out:
            out.append("")
        if name == DUNGEON:
            out.append(f"Dungeon deck: {len(cards.dungeon)} cards" + ("" if cards.dungeon else " (the dungeons pack is off)"))
            out += ["  " + dungeon_line(d) for d in cards.dungeon]
            continue
        cs = cards.door if name == "door" else cards.treasure
        out.append(f"{name.capitalize()} deck: {len(cs)} cards")
        out += ["  " + card_line(c) for c in cs]
    return out


# -- show ----------------------------------------------------------------------------------------

def _fields(c: ClassicCardDef) -> list[tuple[str, str]]:
    if isinstance(c, ClassicMonsterDef):
        return [("level", str(c.level)), ("levels it gives", str(c.levels)), ("Treasure", str(c.treasure)),
                ("keywords", _words(c.keywords)),
                ("against", ", ".join(f"{who} {n:+d}" for who, n in c.bonuses) or "none"),
                ("special", _effects(c.effects)), ("Bad Stuff", _effects(c.bad_stuff)),
                ("even if you escape", _effects(c.on_escape))]
    if isinstance(c, ClassicDoorDef):
        if c.kind == K.ENHANCER:
            return [("level change", f"{c.bonus:+d}"), ("Treasure change", _effects(c.effects))]
        if c.kind == K.CURSE:
            return [("does", _effects(c.effects)), ("how long", CURSE_WORDS[c.curse_kind])]
        if c.kind in (K.RACE, K.CLASS):
            return [(c.kind, c.key), ("powers", _effects(c.powers)), ("drawbacks", _effects(c.drawbacks)),
                    ("epic powers", _effects(c.epic))]
        if c.kind == K.SPECIAL:
            return [("when", WHEN_WORDS[c.when]), ("does", _effects(c.effects))]
        return [("what it does", f"the rule of every {V.KIND_WORDS[c.kind]} card (see the text)")]
    if c.kind == K.ITEM:
        return [("slot", _slot(c)), ("big", "yes" if c.big else "no"), ("bonus", f"{c.bonus:+d}"),
                ("value", _gold(c.value)), ("usable only by", _words(c.only)),
                ("not usable by", _words(c.not_for)), ("keywords", _words(c.keywords)),
                ("while in use", _effects(c.effects)), ("discard it to", _effects(c.use))]
    if c.kind == K.ONESHOT:
        return [("bonus", f"{c.bonus:+d}" if c.bonus else "none"), ("value", _gold(c.value)),
                ("keywords", _words(c.keywords)), ("when played", _effects(c.effects))]
    if c.kind == K.SPECIAL:
        return [("when", WHEN_WORDS[c.when]), ("does", _effects(c.effects))]
    if c.kind in V.FOLLOWERS:  # C-PACK-5
        return [("bonus", f"{c.bonus:+d}"), ("value", _gold(c.value)),
                ("may serve as", _other_role(c) if c.both else "no other role"),
                ("while in play", _effects(c.effects)), ("sacrifice it to", _effects(c.use))]
    return [("does", "go up 1 level, never to the winning level")]


def _other_role(c: ClassicTreasureDef) -> str:
    return "hireling" if c.kind == K.STEED else "steed"


def _wrap(text: str) -> str:
    return textwrap.fill(text, 78, initial_indent="  ", subsequent_indent="  ")


def show_lines(cards: ClassicSet, ident: str) -> list[str] | None:
    """The card with id ``ident`` (or ``human``) in full; None when there is none."""
    if ident == HUMAN_ID:
        return ["The human (a munchkin without a race card)", _wrap(cards.human.text),
                f"  epic powers: {_effects(cards.human.epic)}"]
    try:
        c = cards.card(ident)
    except KeyError:
        try:
            d = cards.dungeon_card(ident)
        except KeyError:
            return None
        return [f"Dungeon card {d.id}: {d.name}", _wrap(d.text), f"  rule for the whole table: {_effects(d.effects)}"]
    deck = "Treasure" if isinstance(c, ClassicTreasureDef) else "Door"
    head = [f"{deck} card {c.id}, {V.KIND_WORDS[c.kind]}: {c.name}", _wrap(c.text)]
    return head + [f"  {label}: {value}" for label, value in _fields(c)]


def all_ids(cards: ClassicSet) -> list[str]:
    return [c.id for c in cards.door + cards.treasure] + [d.id for d in cards.dungeon] + [HUMAN_ID]


# -- validate ------------------------------------------------------------------------------------

def _by_kind(cs) -> str:
    counts = Counter(c.kind for c in cs)  # insertion order: the file's order of first appearance
    return ", ".join(f"{n} {V.KIND_WORDS[k]}" for k, n in counts.items())


def summary_lines(cards: ClassicSet) -> list[str]:
    """Counts per deck and kind: what ``mq cards validate --mode classic`` prints for a valid set."""
    curses = Counter(c.curse_kind for c in cards.door if c.kind == K.CURSE)
    monsters = [c for c in cards.door if c.kind == K.MONSTER]
    return [
        f"  Door:     {len(cards.door)} cards ({_by_kind(cards.door)})",
        f"  Treasure: {len(cards.treasure)} cards ({_by_kind(cards.treasure)})",
        f"  in all:   {len(cards.door) + len(cards.treasure)} cards",
        f"  monsters: levels {min(m.level for m in monsters)} to {max(m.level for m in monsters)}, "
        f"{sum(m.levels == 2 for m in monsters)} giving 2 levels, "
        f"{sum('undead' in m.keywords for m in monsters)} undead",
        "  curses:   " + ", ".join(f"{curses[k]} {k.replace('_', '-')}" for k in V.CURSE_KINDS),
    ] + ([f"  Dungeon:  {len(cards.dungeon)} cards (C-PACK-7)"] if cards.dungeon else [])
