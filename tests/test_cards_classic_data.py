"""The default Classic set's content (CLASSIC.md C-COMP-6/7): C-COMP-6's counts recounted from the
cards, the coverage of every C-COMP-7 mechanic, every effect and word used and documented, texts
that agree with fields, originality."""
from __future__ import annotations

import importlib.resources
import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from mq.cards import classic_vocab as V
from mq.cards import load_default
from mq.cards.classic_comp import BOUNDS
from mq.cards.classic_loader import load_classic_default
from mq.cards.classic_packs import NAMES, load_classic_packs

CS = load_classic_default()
DOOR, TREASURE = CS.door, CS.treasure
MONSTERS = [c for c in DOOR if c.kind == "monster"]
ITEMS = [c for c in TREASURE if c.kind == "item"]
# The default set with every pack (C-PACK): the vocabulary, texts and names are checked on all of it.
PACKED = load_classic_packs(NAMES)
ALL_DOOR, ALL_TREASURE = PACKED.door, PACKED.treasure
ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "data.md"
DATA = ROOT / "mq" / "data" / "classic"
EFFECT_FIELDS = ("effects", "bad_stuff", "on_escape", "powers", "drawbacks", "epic", "use")
_PLURAL = {"elf": "elves", "dwarf": "dwarves", "thief": "thieves"}


def plural(who: str) -> str:
    return _PLURAL.get(who, who + "s")


def of(kind: str, deck=DOOR):
    return [c for c in deck if c.kind == kind]


def effects(card) -> list:
    return [e for f in EFFECT_FIELDS for e in getattr(card, f, ())]


def every_effect() -> list:
    return ([e for c in ALL_DOOR + ALL_TREASURE for e in effects(c)] + list(CS.human.epic)
            + [e for d in PACKED.dungeon for e in d.effects])  # C-PACK-7: the dungeons' rules


def about(n: int) -> range:
    """C-COMP-6's "about n": within a tenth (at least 1) either way."""
    slack = max(1, n // 10)
    return range(n - slack, n + slack + 1)


# --- counts (C-COMP-6) ---------------------------------------------------------------------------

def test_counts_are_those_of_c_comp_6():
    """C-COMP-6: about 168 cards, 95 Door + 73 Treasure, and each kind in the base game's
    proportions, recounted here from the cards."""
    assert len(DOOR) + len(TREASURE) in about(168)
    assert len(DOOR) in about(95) and len(TREASURE) in about(73)
    kinds = Counter(c.kind for c in DOOR)
    assert kinds["monster"] in about(37) and kinds["enhancer"] in about(6) and kinds["curse"] in about(15)
    assert (kinds["wandering"], kinds["mate"], kinds["race"], kinds["class"]) == (3, 1, 9, 12)
    assert (kinds["halfbreed"], kinds["supermunchkin"]) == (2, 2)
    assert kinds["special"] + kinds["cheat"] in about(8) and kinds["cheat"] >= 1
    assert Counter(c.key for c in of("race")) == {"elf": 3, "dwarf": 3, "halfling": 3}
    assert Counter(c.key for c in of("class")) == {k: 3 for k in V.CLASSES if k not in V.PACK_CLASSES}
    assert {m.level for m in MONSTERS} >= {1, 20} and min(m.level for m in MONSTERS) == 1
    assert sum(m.levels == 2 for m in MONSTERS) in about(5)
    assert sum("undead" in m.keywords for m in MONSTERS) in about(4)
    up = [c for c in of("enhancer") if c.bonus > 0]
    assert len(up) in about(4) and len(of("enhancer")) - len(up) in about(2)
    tkinds = Counter(c.kind for c in TREASURE)
    assert tkinds["item"] in about(48) and tkinds["oneshot"] in about(15) and tkinds["level"] in about(9)
    assert tkinds["special"] in about(1)
    slots = Counter(c.slot for c in ITEMS)
    assert slots["head"] in about(5) and slots["armour"] in about(6) and slots["feet"] in about(4)
    assert slots["hands"] in about(20) and slots["none"] in about(13)
    assert sum(c.hands == 2 for c in ITEMS) in about(6) and sum(c.big for c in ITEMS) in about(12)
    assert all(0 <= c.value <= 1000 and c.value % 100 == 0 for c in TREASURE)
    assert {0, 1000} <= {c.value for c in ITEMS}  # values 0-1000: both ends occur


def test_the_loaders_bounds_hold_and_say_the_same():
    """The loader's table (mq.cards.classic_comp) counts what this file recounts: each bound holds,
    and the counts of the bounds named after a kind agree with a plain count."""
    for b in BOUNDS:
        n = b.count(CS)
        assert b.lo <= n and (b.hi is None or n <= b.hi), b.what
    named = {b.what: b.count(CS) for b in BOUNDS}
    assert named["monsters"] == len(MONSTERS) and named["items"] == len(ITEMS)
    assert named["curses"] == len(of("curse")) and named["one-shots"] == len(of("oneshot", TREASURE))


def test_docs_and_file_headers_state_the_real_counts():
    """docs/data.md and the file headers describe the set that is shipped."""
    doc = DOCS.read_text(encoding="utf-8")
    curses = Counter(c.curse_kind for c in of("curse"))
    door_row = (f"{len(DOOR)} cards: {len(MONSTERS)} monsters, {len(of('enhancer'))} enhancers, "
                f"{len(of('wandering'))} Wandering Monsters, {len(of('mate'))} Mate, {len(of('curse'))} curses "
                f"({curses['immediate']} immediate, {curses['next_combat']} next-combat, {curses['lasting']} lasting)")
    assert door_row in doc
    treasure_row = (f"{len(TREASURE)} cards: {len(ITEMS)} items, {len(of('oneshot', TREASURE))} one-shots, "
                    f"{len(of('level', TREASURE))} go up a level, {len(of('special', TREASURE))} special")
    assert treasure_row in doc
    head = (DATA / "door.toml").read_text(encoding="utf-8")
    assert f"# {len(DOOR)} cards: {len(MONSTERS)} monsters" in head
    assert f"{curses['immediate']} immediate, {curses['next_combat']} next-combat, {curses['lasting']} lasting" in head
    head = (DATA / "treasure.toml").read_text(encoding="utf-8")
    assert f"# {len(TREASURE)} cards: {len(ITEMS)} items" in head


def test_ids_are_sequential_and_names_unique():
    assert [c.id for c in DOOR] == [f"CD{i:02d}" for i in range(1, len(DOOR) + 1)]
    assert [c.id for c in TREASURE] == [f"CT{i:02d}" for i in range(1, len(TREASURE) + 1)]
    names = [c.name for c in DOOR + TREASURE]
    assert len(names) == len(set(names))


def test_the_deck_order_shows_a_level_curve():
    """Monsters are filed by level; a harder monster never carries less Treasure, and the ones
    giving 2 levels are the hardest (C-COMP-4)."""
    levels = [m.level for m in MONSTERS]
    assert levels == sorted(levels)
    assert [m.treasure for m in MONSTERS] == sorted(m.treasure for m in MONSTERS)
    two = [m.level for m in MONSTERS if m.levels == 2]
    assert min(two) > max(m.level for m in MONSTERS if m.levels == 1)


# --- coverage (C-COMP-7) --------------------------------------------------------------------------

def _bonus_vs(group) -> bool:
    return (any(w in group and n > 0 for m in MONSTERS for w, n in m.bonuses)
            and any(w in group and n < 0 for m in MONSTERS for w, n in m.bonuses))


def _has(cards, name, field="effects", **params) -> bool:
    return any(e.name == name and all(e.get(k) == v for k, v in params.items())
               for c in cards for e in getattr(c, field))


def _bad_stuff(name) -> bool:
    return _has(MONSTERS, name, "bad_stuff")


COVERAGE = {
    "modifiers against a race, both ways": lambda: _bonus_vs(V.RACES),
    "modifiers against a class, both ways": lambda: _bonus_vs(V.CLASSES),
    "modifiers against a gender, both ways": lambda: _bonus_vs(V.GENDERS),
    "monster modifiers against an item keyword": lambda: _has(MONSTERS, "bonus_vs_item"),
    "item bonuses against a monster keyword": lambda: _has(ITEMS, "bonus_vs"),
    "monsters beaten automatically by clerics, killed and defeated": lambda: (
        _has(MONSTERS, "auto_kill", who="cleric") and _has(MONSTERS, "auto_defeat", who="cleric")),
    "monsters not pursuing low levels": lambda: _has(MONSTERS, "no_pursuit"),
    "fast monsters": lambda: any(e.name == "runaway" and e.get("amount") < 0 for m in MONSTERS for e in m.effects),
    "Bad Stuff on escapers": lambda: any(m.on_escape for m in MONSTERS),
    "Bad Stuff: levels": lambda: _bad_stuff("lose_levels"),
    "Bad Stuff: an item": lambda: _bad_stuff("lose_item"),
    "Bad Stuff: a slot": lambda: {e.get("slot") for m in MONSTERS for e in m.bad_stuff
                                  if e.name == "lose_slot"} == set(V.Q.LOSABLE_SLOTS),
    "Bad Stuff: hand cards": lambda: _bad_stuff("lose_hand") and _bad_stuff("lose_whole_hand"),
    "Bad Stuff: death": lambda: _bad_stuff("death"),
    "restrictions by race, class and gender, both ways": lambda: all(
        any(set(getattr(c, f)) & set(group) for c in ITEMS) for f in ("only", "not_for")
        for group in (V.RACES, V.CLASSES)) and any(set(c.only) & set(V.GENDERS) for c in ITEMS),
    "big items": lambda: any(c.big for c in ITEMS),
    "two-handed items": lambda: any(c.hands == 2 for c in ITEMS),
    "enhancers both ways": lambda: {c.bonus > 0 for c in of("enhancer")} == {True, False},
    "each curse kind": lambda: {c.curse_kind for c in of("curse")} == set(V.CURSE_KINDS),
    "cheat": lambda: bool(of("cheat")),
    "die changing": lambda: _has(of("oneshot", TREASURE), "change_die"),
}


@pytest.mark.parametrize("mechanic", COVERAGE)
def test_every_c_comp_7_mechanic_is_on_a_card(mechanic):
    """C-COMP-7: a default card exercises each mechanic."""
    assert COVERAGE[mechanic]()


def test_one_shots_and_specials_of_c_comp_6():
    """C-COMP-6: one-shots give bonuses for either side, help running away, cancel curses and
    change a die; the specials include a cheat card, one raising every cleric a level that may give
    the winning level (C-LAW-2), and one ending a combat without result (C-COMBAT-13)."""
    oneshots = of("oneshot", TREASURE)
    assert sum(c.bonus > 0 for c in oneshots) >= 3
    assert _has(oneshots, "runaway") and _has(oneshots, "escape")
    assert _has(oneshots, "cancel_curse") and _has(oneshots, "change_die")
    specials = of("special")
    assert _has(specials, "level_up_all", who="cleric") and _has(specials, "end_combat")
    assert all(c.when in V.TIMINGS for c in specials + of("special", TREASURE))


def test_race_and_class_cards_carry_the_powers_of_c_char():
    """C-CHAR-4/5 and C-EPIC: the cards of one race or class agree, and carry the rule's powers."""
    by_key: dict[str, set] = {}
    for c in of("race", ALL_DOOR) + of("class", ALL_DOOR):
        by_key.setdefault(c.key, set()).add((c.powers, c.drawbacks, c.epic))
    assert all(len(v) == 1 for v in by_key.values()), by_key
    powers = {k: {(e.name, e.params) for e in next(iter(v))[0]} for k, v in by_key.items()}
    drawbacks = {k: {(e.name, e.params) for e in next(iter(v))[1]} for k, v in by_key.items()}
    epic = {k: {e.name for e in next(iter(v))[2]} for k, v in by_key.items()}
    assert ("runaway", (("amount", 1),)) in powers["elf"] and ("help_levels", ()) in powers["elf"]
    assert drawbacks["halfling"] == {("runaway", (("amount", -1),))}  # C-CHAR-4, C-RUN-2
    assert ("hand_limit", (("n", 6),)) in powers["dwarf"]  # C-TURN-9
    assert ("wins_ties", ()) in powers["warrior"]  # C-COMBAT-4
    assert not any(drawbacks[k] for k in by_key if k != "halfling")
    assert epic == {"elf": {"arrows"}, "dwarf": {"no_hand_limit"}, "halfling": {"double_sale"},
                    "warrior": {"giant_grip", "big_items"}, "wizard": {"dodge_curses"},
                    "thief": {"pickpocket"}, "cleric": {"prayer"},
                    "orc": {"eat_weak"}, "gnome": {"clean_escape"}, "bard": {"luck"}, "ranger": {"claim"}}
    assert powers["orc"] == {("alone_bonus", (("amount", 1),))}  # C-PACK-2
    assert powers["gnome"] == {("runaway", (("amount", 1),))}  # C-PACK-3
    assert powers["bard"] == {("luck", (("extra", 1),))}  # C-PACK-4
    assert powers["ranger"] == {("tame", ())}  # C-PACK-6
    assert [e.name for e in CS.human.epic] == ["pet"]  # C-EPIC-6


# --- the vocabulary ------------------------------------------------------------------------------

def test_every_effect_and_word_is_used():
    """Nothing in the Classic vocabulary is dead: every effect, kind, slot and timing is on a card,
    and so is every monster and item keyword and every who name."""
    assert {e.name for e in every_effect()} == set(V.EFFECTS)
    assert {c.kind for c in DOOR} | {V.K.PORTAL} == set(V.DOOR_KINDS)  # C-PACK-7: the dungeons pack's
    assert {c.kind for c in ALL_DOOR} == set(V.DOOR_KINDS)
    assert {c.kind for c in TREASURE} | set(V.FOLLOWERS) == set(V.TREASURE_KINDS)  # C-PACK-5: the packs'
    assert {c.kind for c in ALL_TREASURE} == set(V.TREASURE_KINDS)
    assert {c.slot for c in ITEMS} == set(V.SLOTS)
    assert {c.when for c in DOOR + TREASURE if c.kind == "special"} == set(V.TIMINGS)
    assert {k for m in MONSTERS for k in m.keywords} == set(V.MONSTER_KEYWORDS)
    assert {k for c in TREASURE for k in c.keywords} == set(V.ITEM_KEYWORDS)
    monsters, items = of("monster", ALL_DOOR), of("item", ALL_TREASURE)
    who = {w for m in monsters for w, _ in m.bonuses} | {w for c in items for w in c.only + c.not_for}
    assert who == set(V.WHO)  # the packs' races and classes too (C-PACK-2, 3, 6)


def test_docs_cover_every_classic_word():
    doc = DOCS.read_text(encoding="utf-8")
    classic = doc[doc.index("# Classic mode"):]
    for w in (V.DECKS + V.DOOR_KINDS + V.TREASURE_KINDS + V.SLOTS + V.TIMINGS + V.CURSE_KINDS
              + tuple(V.EFFECTS)):
        assert f"`{w}`" in classic, w


# --- texts agree with fields ------------------------------------------------------------------------

_NUMBER = {1: "one", 2: "two", 3: "three"}
_DECK = {"door": "Door", "treasure": "Treasure"}
_SLOT = {"head": "headgear", "armour": "armour", "feet": "footgear", "hands": "hand item"}


def _levels(n: int) -> str:
    return "a level" if n == 1 else f"{n} levels"


class _Fields(dict):
    """An effect's fields by name for ``str.format_map``, its amount signed (+1, -2)."""

    def __init__(self, e) -> None:
        super().__init__()
        self.e = e

    def __missing__(self, key: str):
        return f"{self.e.get('amount'):+d}" if key == "amount" else self.e.get(key)


def _signed(phrase: str):
    """The words of an effect with a signed amount: "{amount} more against {who}"."""
    return lambda e: phrase.format_map(_Fields(e))


def _items(n: int) -> str:
    return "an item in play of your choice" if n == 1 else f"{n} items in play of your choice"


# What a card's text says for each effect (one phrase or several), so a field and its text cannot
# drift apart. Compared case-insensitively.
SAYS = {
    "runaway": _signed("{amount} to run away"),
    "bonus_vs": _signed("{amount} more against {who}"),
    "lose_levels": lambda e: _levels(e.get("n")),
    "lose_item": lambda e: _items(e.get("n")),
    "lose_slot": lambda e: _SLOT[e.get("slot")],
    "death": lambda e: "you die",
    "extra_treasure": lambda e: f"{e.get('n')} more treasure",
    "fewer_treasure": lambda e: f"{e.get('n')} treasure fewer",
    "escape": lambda e: "escape every monster",
    "change_die": lambda e: f"turn it to {e.get('to')}",
    "cancel_curse": lambda e: "cancel a curse as it is played, before it acts",
    "next_combat": _signed("{amount} in your next combat"),
    "lasting_strength": _signed("{amount} in every combat until a card removes this curse"),
    "bonus_vs_item": _signed("{amount} against anyone using a {keyword} item"),
    "auto_defeat": lambda e: f"{e.get('who')} on the munchkin side defeats it automatically",
    "auto_kill": lambda e: f"{e.get('who')} on the munchkin side kills it automatically",
    "no_pursuit": lambda e: f"does not pursue munchkins of level {e.get('max_level')} or lower",
    "friendly": lambda e: f"friendly to {plural(e.get('who'))}",
    "lose_hand": lambda e: f"discard {e.get('n')} card",
    "lose_whole_hand": lambda e: "discard your whole hand",
    "lose_race": lambda e: "discard your race card",
    "lose_class": lambda e: "discard your class card",
    "change_gender": lambda e: "you change gender",
    "lasting_runaway": _signed("{amount} to run away until a card removes this curse"),
    "help_levels": lambda e: "go up 1 level for each monster killed",
    "hand_limit": lambda e: f"hand limit {e.get('n')}",
    "any_big_items": lambda e: "any number of big items",
    "double_sale": lambda e: ("one item counts at double" if e.get("items") == 1
                              else f"{_NUMBER[e.get('items')]} items a turn count double"),
    "wins_ties": lambda e: "win ties",
    "discard_bonus": lambda e: (f"discard up to {e.get('max_cards')} cards for {e.get('amount'):+d} each",)
    + (() if e.get("keyword") == "any" else (f"against {e.get('keyword')}",)),
    "escape_boost": lambda e: (f"discard up to {e.get('max_cards')} cards for {e.get('amount'):+d} each "
                               f"to all your run-away rolls"),
    "enthral": lambda e: f"discard your whole hand (at least {e.get('min_cards')} cards) to defeat one monster",
    "backstab": _signed("{amount} in any combat"),
    "theft": lambda e: f"on {e.get('roll')}+",
    "salvage": lambda e: "that deck's discards instead",
    "no_hand_limit": lambda e: "no hand limit",
    "big_items": lambda e: f"{_NUMBER[e.get('n')]} big items",
    "giant_grip": lambda e: "a two-handed item takes you one hand",
    "arrows": lambda e: (f"up to {e.get('n')} arrows", f"{e.get('amount'):+d} to one monster or munchkin"),
    "pet": lambda e: f"monster of level {e.get('max_level')} or less",
    "dodge_curses": lambda e: "roll 5+ to cancel it",
    "prayer": lambda e: f"discard {e.get('discards')} cards to draw a treasure face-down",
    "pickpocket": lambda e: "take a random card from another player's hand",
    "kill": lambda e: f"kill one monster of level {e.get('max_level')} or less",
    "defeat": lambda e: f"defeat one monster of level {e.get('max_level')} or less without killing it",
    "send_away": lambda e: "away: no reward for it",
    "end_combat": lambda e: "ends without result",
    "level_up_all": lambda e: f"every {e.get('who')} goes up 1 level",
    "draw": lambda e: f"draw {e.get('n')} {_DECK[e.get('deck')].lower()} cards",
    "search_discards": lambda e: f"the {_DECK[e.get('deck')].lower()} discards",
    "alone_bonus": _signed("{amount} in combat when you fight as main fighter without a helper"),
    "eat_weak": lambda e: (f"is of level {e.get('max_level')}, you may eat it at once",
                           "it may be the winning level", "no treasure"),
    "clean_escape": lambda e: ("ignore every penalty to your run-away rolls",
                               f"escape every monster of a combat you draw {e.get('treasure')} treasure face-down"),
    "luck": lambda e: (f"draw {e.get('extra')} more" if e.get("extra") > 1 else
                       "draw 1 treasure more than the monsters give", f"discard {e.get('extra')}"),
    "tame": lambda e: ("as many cards from your hand as a monster's treasure", "becomes your steed"),
    "claim": lambda e: f"discard your whole hand (at least {e.get('min_cards')} cards) to take it as your steed",
    "lose_steed": lambda e: "lose your steed",
    "lose_hireling": lambda e: "lose your hireling",
    "send_monster": lambda e: ("on another player", "turn up the top door card", "they fight it at once"),
    # C-PACK-7: the dungeons' rules
    "monsters_stronger": _signed("every monster {amount}"),
    "keyword_stronger": _signed("{keyword} monsters {amount}"),
    "who_strength": _signed("every {who} {amount} in combat"),
    "alone_strength": _signed("{amount} to a main fighter without a helper"),
    "helper_strength": _signed("{amount} to a helper"),
    "slot_strength": lambda e: f"{e.get('amount'):+d} for each {_SLOT[e.get('slot')]} in use",
    "table_runaway": _signed("{amount} to every run-away roll"),
    "hand_limit_change": lambda e: (f"{e.get('amount'):+d} to the hand limit of 5", "a card's own limit stands"),
    "kill_levels": lambda e: "every monster killed 1 level more",
    "bad_stuff_levels": lambda e: f"caught by a monster, lose {_levels(e.get('n'))} more",
    "sale_gold": _signed("{amount} gold for every item sold"),
    "treasure_change": _signed("{amount} treasure from every monster"),
}


def says(text: str, e) -> bool:
    phrases = SAYS[e.name](e)
    return all(p.lower() in text.lower() for p in ((phrases,) if isinstance(phrases, str) else phrases))


def test_says_covers_the_vocabulary():
    assert set(SAYS) == set(V.EFFECTS)


@pytest.mark.parametrize("card", ALL_DOOR + ALL_TREASURE, ids=lambda c: c.id)
def test_text_states_every_effect(card):
    for e in effects(card):
        assert says(card.text, e), (card.id, e)


@pytest.mark.parametrize("dungeon", PACKED.dungeon, ids=lambda d: d.id)
def test_dungeon_texts_state_every_rule_C_PACK_7(dungeon):
    assert dungeon.effects and all(says(dungeon.text, e) for e in dungeon.effects), dungeon.id


def test_the_human_text_states_its_powers():
    assert CS.human.epic and all(says(CS.human.text, e) for e in CS.human.epic)


@pytest.mark.parametrize("card", of("monster", ALL_DOOR), ids=lambda c: c.id)
def test_monster_texts(card):
    assert "Bad Stuff: " in card.text
    assert ("Gives 2 levels." in card.text) == (card.levels == 2)
    assert ("Undead." in card.text) == ("undead" in card.keywords)
    assert ("Even if you escape" in card.text) == bool(card.on_escape)
    for who, n in card.bonuses:
        assert f"{n:+d} against {plural(who)}" in card.text, (card.id, who)


_START = {"enhancer": "Enhancer: ", "wandering": "Wandering Monster: ", "mate": "Mate: ", "curse": "Curse! ",
          "halfbreed": "Half-Breed: ", "supermunchkin": "Super Munchkin: ", "cheat": "Cheat!: ",
          "oneshot": "One-shot: ", "level": "Go up a level. ", "steed": "Steed", "hireling": "Hireling. ",
          "portal": "Portal. "}
_WHEN = {"anytime": "Anytime: ", "combat": "In combat: ", "own_turn": "On your turn, outside combat: "}


@pytest.mark.parametrize("card", [c for c in ALL_DOOR + ALL_TREASURE if c.kind != "monster"], ids=lambda c: c.id)
def test_other_texts_name_their_kind_and_figures(card):
    t = card.text
    if card.kind in ("race", "class"):
        assert t.startswith(f"{card.kind.capitalize()}: {card.key}. ") and "Epic: " in t
        assert ("Drawback: " in t) == bool(card.drawbacks)
    elif card.kind == "special":
        assert t.startswith(_WHEN[card.when])
    elif card.kind == "item":
        slot = {"head": "Headgear", "armour": "Armour", "feet": "Footgear", "none": "No slot",
                "hands": "One hand" if card.hands == 1 else "Two hands"}[card.slot]
        prefix = ("Big. " if card.big else "") + slot + ". "
        assert t.startswith(prefix), card.id
        rest = t[len(prefix):]
        if card.bonus:
            assert re.match(rf"\+{card.bonus}[.,]", rest), card.id
        else:
            assert not re.match(r"\+\d+[.,]", rest), card.id
        for w in card.only:
            assert f"Usable only by {plural(w)}" in t
        for w in card.not_for:
            assert f"Not usable by {plural(w)}" in t
        assert ("No value" in t) == (card.value == 0)
    else:
        assert t.startswith(_START[card.kind]), card.id
    if card.kind == "enhancer":
        assert f"{card.bonus:+d} to its level" in t
    if card.kind == "oneshot" and card.bonus:
        assert f"{card.bonus:+d} to either side" in t
    if card.kind in V.FOLLOWERS:  # C-PACK-5
        assert f" {card.bonus:+d}" in t and ("your choice as you put it into play" in t) == card.both
        assert ("Sacrifice: " in t) == bool(card.use)
    if card.kind == "level":
        assert "cannot give the winning level" in t  # C-LAW-2
    if card.kind == "curse" and card.curse_kind == "lasting":
        assert "It stays in play" in t  # C-CARD-8


# --- originality --------------------------------------------------------------------------------------

# Commercial card names of the seeds' card game (a sample; Q-DATA-1 and C-COMP-6 forbid them,
# including near-verbatim translations), checked case-insensitively against every name.
FORBIDDEN = (
    "munchkin", "plutonium dragon", "gelatinous octahedron", "floating nose", "net troll",
    "large angry chicken", "drooling slime", "lame goblin", "bigfoot", "squidzilla", "tongue demon",
    "wannabe vampire", "undead horse", "pit bull", "potted plant", "flying frogs", "shrieking geek",
    "maul rat", "insurance salesman", "leperchaun", "mr. bones", "face sucker", "hippogriff",
    "ghoulfiends", "king tut", "stoned golem", "unspeakably awful", "3,872 orcs", "snails on speed",
    "gazebo", "bullrog", "platycore", "pukachu", "wight brothers", "harpies", "amazon", "lawyers",
    "crabs", "change sex", "chicken on your head", "duck of doom", "income tax", "malign mirror",
    "truly obnoxious", "lose 1 level", "lose your armor", "lose two cards", "ancient", "enraged",
    "humongous", "intelligent", "baby", "divine intervention", "help me out here", "illusion",
    "out to lunch", "wandering monster", "half-breed", "cheat!", "boots of butt-kicking",
    "boots of running really fast", "bad-ass bandanna", "buckler of swashing", "chainsaw of bloody",
    "cheese grater of peace", "cloak of obscurity", "dagger of treachery", "eleven-foot pole",
    "flaming armor", "gentlemen's club", "hammer of kneecapping", "helm of courage", "horny helmet",
    "huge rock", "kneepads of allure", "leather armor", "limburger", "mace of sharpness",
    "mithril armor", "pantyhose", "pointy hat of power", "rapier of unfairness", "rat on a stick",
    "really impressive title", "sandals of protection", "shield of ubiquity", "short wide armor",
    "singing & dancing sword", "slimy armor", "sneaky bastard sword", "spiky knees",
    "staff of napalm", "stepladder", "swiss army polearm", "tuba of charm", "bow with ribbons",
    "broad sword", "hireling", "hoard", "wand of dowsing", "wishing ring", "loaded die",
    "magic lamp", "steal a level", "transferral potion", "yuppie water", "sleep potion",
    "pretty balloons", "potion of idiotic bravery", "potion of general studliness",
    "flaming poison potion", "freezing explosive potion", "electric radioactive acid potion",
    "nasty-tasting sports drink", "magic missile", "doppleganger", "invisibility potion",
    "instant wall", "friendship potion", "cotion of ponfusion", "boil an anthill", "bribe gm",
    "convenient addition error", "invoke obscure rules", "mutilate the bodies",
    "potion of halitosis", "whine at the gm", "1,000 gold pieces", "kill the hireling",
)


@pytest.mark.parametrize("card", ALL_DOOR + ALL_TREASURE, ids=lambda c: c.id)
def test_names_are_original(card):
    name = card.name.lower()
    assert name != "mate"
    for bad in FORBIDDEN:
        assert bad not in name, (card.id, card.name, bad)


def test_names_are_not_the_quest_sets():
    """The two modes' cards are told apart by name too."""
    quest = load_default()
    names = {c.name for c in quest.monsters + quest.treasures + quest.dxm}
    names |= {f.name for t in quest.rooms for f in t.faces}
    assert not names & {c.name for c in ALL_DOOR + ALL_TREASURE}


def test_data_files_are_package_data():
    root = importlib.resources.files("mq") / "data" / "classic"
    for name in ("door.toml", "treasure.toml"):
        assert (root / name).is_file()
        tomllib.loads((root / name).read_text(encoding="utf-8"))  # valid TOML as shipped
    for pack in (root / "packs").iterdir():  # C-OPT-4: the packs ship with the default set
        assert any((pack / name).is_file() for name in ("door.toml", "treasure.toml")), pack
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"mq.data.classic" = ["*.toml", "packs/*/*.toml"]' in pyproject
