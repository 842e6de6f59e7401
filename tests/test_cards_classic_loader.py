"""The Classic loader (mq/cards/classic_loader.py) and its composition check (classic_comp.py): the
default set loads, every validation error is actually raised with the file, card and field named,
and packs add cards without touching the default set.

Each error test copies the default files to a temporary directory, makes one small edit and checks
the message, in order, part by part.
"""
from __future__ import annotations

import importlib.resources
import shutil
from pathlib import Path

import pytest

from mq.cards import DataError, load_cards
from mq.cards.classic_defs import ClassicMonsterDef, ClassicSet
from mq.cards.classic_loader import FILES, load_classic, load_classic_default, load_classic_with_pack
from mq.cards.loader import FILES as QUEST_FILES

DATA = Path(str(importlib.resources.files("mq") / "data" / "classic"))
QUEST_DATA = Path(str(importlib.resources.files("mq") / "data"))

MONSTER = '''
[[door]]
id = "CD901"
name = "Vending Machine That Wants Exact Change"
text = "+2 against thieves. Bad Stuff: lose a level."
kind = "monster"
level = 4
treasure = 1
count = 2
bonuses = { thief = 2 }
bad_stuff = [{ name = "lose_levels", n = 1 }]
'''
ITEM = '''
[[treasure]]
id = "CT901"
name = "Spork of Moderate Destiny"
text = "One hand. +1."
kind = "item"
slot = "hands"
hands = 1
bonus = 1
value = 100
'''


@pytest.fixture
def data(tmp_path: Path) -> Path:
    for name in FILES:
        shutil.copy(DATA / name, tmp_path / name)
    return tmp_path


def edit(d: Path, file: str, anchor: str, old: str, new: str) -> None:
    """Replace the first ``old`` at or after the one occurrence of ``anchor`` (e.g. a card's id)."""
    text = (d / file).read_text(encoding="utf-8")
    assert text.count(anchor) == 1, f"anchor {anchor!r} occurs {text.count(anchor)} times in {file}"
    j = text.index(old, text.index(anchor))
    (d / file).write_text(text[:j] + new + text[j + len(old):], encoding="utf-8")


def fails(load, *parts: str) -> DataError:
    """``load()`` raises a DataError whose message contains every part, in order."""
    with pytest.raises(DataError) as info:
        load()
    msg = str(info.value)
    pos = 0
    for part in parts:
        i = msg.find(part, pos)
        assert i >= 0, f"{part!r} not found (in order) in {msg!r}"
        pos = i + len(part)
    return info.value


# --- the default set ---------------------------------------------------------------------------------

def test_default_loads_once_and_equals_a_copy(data):
    cards = load_classic_default()
    assert isinstance(cards, ClassicSet) and load_classic_default() is cards
    assert load_classic(data) == cards  # a pure function of the files' bytes
    assert hash(load_classic(data)) == hash(cards)


def test_lookup_by_id():
    cards = load_classic_default()
    m = cards.card("CD33")
    assert isinstance(m, ClassicMonsterDef) and m.kind == "monster" and m.levels == 2
    assert cards.card("CD60").curse_kind == "lasting" and cards.card("CD01").kind == "monster"
    assert cards.card("CD48").curse_kind == "immediate" and cards.card("CD58").curse_kind == "next_combat"
    assert cards.card("CT21").effects[0].get("who") == "undead"
    with pytest.raises(KeyError, match="no card with id 'CD999'"):
        cards.card("CD999")


def test_count_expands_copies_in_place(data):
    edit(data, "treasure.toml", 'id = "CT64"', 'kind = "level"', 'kind = "level"\ncount = 2')
    cards = load_classic(data)
    ids = [c.id for c in cards.treasure]
    assert ids[ids.index("CT64"):ids.index("CT64") + 3] == ["CT64", "CT64.2", "CT65"]
    assert cards.card("CT64.2").name == cards.card("CT64").name and len(cards.treasure) == 74


# --- errors: every field, every effect -----------------------------------------------------------------

BAD_EDITS = [
    # (file, anchor, old, new, message parts)
    ("door.toml", 'id = "CD01"', "level = 1", "levle = 1",
     ("door.toml: CD01: level: missing (required) (is 'levle' a misspelling of 'level'?)",)),
    ("door.toml", 'id = "CD01"', "level = 1", "level = 21", ("door.toml: CD01: level: 21 is out of range 1..20",)),
    ("door.toml", 'id = "CD01"', "level = 1", "level = true", ("CD01: level: must be an integer, got boolean True",)),
    ("door.toml", 'id = "CD33"', "levels = 2", "levels = 3", ("CD33: levels: 3 is out of range 1..2",)),
    ("door.toml", 'id = "CD01"', "treasure = 1", "treasure = 1\ntreasures = 2",
     ("CD01: treasures: unknown field (did you mean 'treasure'?)",)),
    ("door.toml", 'id = "CD01"', '"plant"', '"plnt"', ("CD01: keywords: unknown keyword 'plnt' (did you mean 'plant'?)",)),
    ("door.toml", 'id = "CD02"', "wizard = 2", "wizzard = 2", ("CD02: bonuses.wizzard: unknown race/class/gender",)),
    ("door.toml", 'id = "CD02"', "wizard = 2", "wizard = 0", ("CD02: bonuses.wizard: must not be 0",)),
    ("door.toml", 'id = "CD04"', '"lose_levels"', '"lose_level"',
     ("door.toml: CD04: bad_stuff[0]: unknown effect 'lose_level' (did you mean 'lose_levels'?)",)),
    ("door.toml", 'id = "CD02"', "n = 2", 'n = "two"',
     ("CD02: bad_stuff[0].n: parameter 'n' of effect 'lose_hand' must be an integer, got string 'two'",)),
    ("door.toml", 'id = "CD02"', "n = 2", "n = 2, cards = 1",
     ("CD02: bad_stuff[0]: unknown parameter 'cards' of effect 'lose_hand' (expects: n)",)),
    ("door.toml", 'id = "CD02"', "n = 2", "n = 11", ("CD02: bad_stuff[0].n: parameter 'n' of effect 'lose_hand': 11 is out of range 1..10",)),
    ("door.toml", 'id = "CD07"', "amount = -1", "amount = 0",
     ("CD07: effects[0].amount: parameter 'amount' of effect 'runaway' must not be 0",)),
    ("door.toml", 'id = "CD05"', '"scroll"', '"scrol"', ("CD05: effects[0].keyword: parameter 'keyword' of effect "
                                                       "'bonus_vs_item': unknown value 'scrol' (did you mean 'scroll'?)",)),
    ("door.toml", 'id = "CD01"', '{ name = "lose_slot", slot = "feet" }', '{ name = "lose_slot", slot = "shoes" }',
     ("CD01: bad_stuff[0].slot:", "unknown value 'shoes'",)),
    ("door.toml", 'id = "CD01"', 'bad_stuff = [{ name = "lose_slot", slot = "feet" }]', "bad_stuff = []",
     ("CD01: bad_stuff: must not be empty: every monster has Bad Stuff (C-RUN-4)",)),
    ("door.toml", 'id = "CD01"', 'bad_stuff = [{ name = "lose_slot", slot = "feet" }]', "",
     ("CD01: bad_stuff: missing (required)",)),
    ("door.toml", 'id = "CD34"', '[{ name = "death" }]', '[{ name = "death" }, { name = "lose_levels", n = 1 }]',
     ("CD34: bad_stuff: 'death' must be alone in its list (C-RUN-5)",)),
    ("door.toml", 'id = "CD04"', '[{ name = "auto_kill", who = "cleric" }]',
     '[{ name = "auto_kill", who = "cleric" }, { name = "auto_defeat", who = "cleric" }]',
     ("CD04: effects: a cleric cannot both kill and defeat it automatically",)),
    ("door.toml", 'id = "CD04"', '"auto_kill"', '"wins_ties"',
     ("CD04: effects[0]: effect 'wins_ties' is not allowed here (allowed: runaway, bonus_vs_item",)),
    ("door.toml", 'id = "CD12"', 'on_escape = [{ name = "lose_slot", slot = "feet" }]',
     'on_escape = [{ name = "lose_slot", slot = "feet" }, { name = "lose_slot", slot = "feet" }]',
     ("CD12: on_escape[1]: duplicate effect 'lose_slot'",)),
    ("door.toml", 'id = "CD01"', 'kind = "monster"', 'kind = "monstre"',
     ("CD01: kind: unknown Door kind 'monstre' (did you mean 'monster'?)",)),
    ("door.toml", 'id = "CD02"', 'id = "CD02"', 'id = "CD01"', ("door.toml: CD01: id: duplicate id 'CD01'",)),
    ("door.toml", 'id = "CD02"', 'id = "CD02"', 'id = "CT02"', ("CT02: id: 'CT02' is not an id of the form CD01",)),
    ("door.toml", 'id = "CD02"', 'name = "Lint Elemental"', 'name = "  "', ("CD02: name: must not be empty",)),
    # enhancers (C-COMBAT-6)
    ("door.toml", 'id = "CD42"', '"fewer_treasure"', '"extra_treasure"',
     ("CD42: effects: a monster made weaker carries less Treasure: bonus -5 goes with fewer_treasure (C-COMBAT-6)",)),
    ("door.toml", 'id = "CD42"', 'effects = [{ name = "fewer_treasure", n = 1 }]', "effects = []",
     ("CD42: effects: an enhancer changes the Treasure count once",)),
    ("door.toml", 'id = "CD42"', "bonus = -5", "bonus = 0", ("CD42: bonus: an enhancer must change the monster's level",)),
    ("door.toml", 'id = "CD42"', "bonus = -5", "bonus = -5\nlevel = 3", ("CD42: level: not allowed on an enhancer card",)),
    # curses (C-CARD-8)
    ("door.toml", 'id = "CD48"', 'kind = "curse"', 'kind = "curse"\nlevel = 3', ("door.toml: CD48: level: not allowed on a curse card",)),
    ("door.toml", 'id = "CD48"', '"lose_levels"', '"death"', ("CD48: effects[0]: effect 'death' is not allowed here",)),
    ("door.toml", 'id = "CD60"', '[{ name = "lasting_strength", amount = -1 }]',
     '[{ name = "lasting_strength", amount = -1 }, { name = "next_combat", amount = -1 }]',
     ("CD60: effects: a curse either waits for the next combat or lasts until removed, not both (C-CARD-8)",)),
    ("door.toml", 'id = "CD48"', 'effects = [{ name = "lose_levels", n = 1 }]', "effects = []",
     ("CD48: effects: a curse must do something",)),
    # races and classes (C-CHAR)
    ("door.toml", 'id = "CD63"', 'key = "elf"', 'key = "human"', ("CD63: key: 'human' is not a race card",)),
    ("door.toml", 'id = "CD63"', 'key = "elf"', 'key = "troll"', ("CD63: key: unknown race 'troll'",)),
    ("door.toml", 'id = "CD72"', 'key = "warrior"', 'key = "juggler"', ("CD72: key: unknown class 'juggler'",)),
    ("door.toml", 'id = "CD66"', '{ name = "any_big_items" }', '{ name = "no_hand_limit" }',
     ("CD66: powers[0]: effect 'no_hand_limit' is not allowed here",)),
    ("door.toml", 'id = "CD66"', 'epic = [{ name = "no_hand_limit" }]', 'epic = [{ name = "wins_ties" }]',
     ("CD66: epic[0]: effect 'wins_ties' is not allowed here",)),
    ("door.toml", 'id = "CD69"', 'drawbacks', 'drawback', ("CD69: drawback: unknown field (did you mean 'drawbacks'?)",)),
    ("door.toml", 'id = "CD84"', 'kind = "halfbreed"', 'kind = "halfbreed"\neffects = [{ name = "send_away" }]',
     ("CD84: effects: not allowed on a Half-Breed card",)),
    # specials
    ("door.toml", 'id = "CD90"', 'when = "combat"\n', "", ("CD90: when: missing (required)",)),
    ("door.toml", 'id = "CD90"', 'when = "combat"', 'when = "later"', ("CD90: when: unknown timing 'later'",)),
    ("door.toml", 'id = "CD90"', '"end_combat"', '"kill", max_level = 3',
     ("CD90: effects[0]: effect 'kill' is not allowed here",)),
    # the [human] table
    ("door.toml", '"pet", max_level = 5', "max_level = 5", "max_level = 50",
     ("door.toml: human: epic[0].max_level:", "50 is out of range 1..20")),
    ("door.toml", '"pet", max_level = 5', "}]", '}]\npowers = []', ("door.toml: human: powers: unknown field",)),
    # treasure.toml
    ("treasure.toml", 'id = "CT16"', "hands = 1\n", "", ("treasure.toml: CT16: hands: missing (required)",)),
    ("treasure.toml", 'id = "CT01"', 'slot = "head"', 'slot = "head"\nhands = 1',
     ('CT01: hands: not allowed unless slot = "hands"',)),
    ("treasure.toml", 'id = "CT01"', 'slot = "head"', 'slot = "haed"', ("CT01: slot: unknown slot 'haed' (did you mean 'head'?)",)),
    ("treasure.toml", 'id = "CT16"', "hands = 1", "hands = 3", ("CT16: hands: 3 is out of range 1..2",)),
    ("treasure.toml", 'id = "CT01"', "value = 400", "value = 450", ("CT01: value: 450 is not a multiple of 100 gold (C-COMP-6)",)),
    ("treasure.toml", 'id = "CT01"', "value = 400", "value = 6000", ("CT01: value: 6000 is out of range 0..5000",)),
    ("treasure.toml", 'id = "CT01"', 'only = ["wizard"]', 'only = ["wizard"]\nnot_for = ["wizard"]',
     ("CT01: not_for: 'wizard' is in both only and not_for",)),
    ("treasure.toml", 'id = "CT01"', 'only = ["wizard"]', 'only = ["wizard", "wizard"]', ("CT01: only: race/class/gender 'wizard' listed twice",)),
    ("treasure.toml", 'id = "CT08"', "big = true", 'big = "yes"', ("CT08: big: must be true or false, got string 'yes'",)),
    ("treasure.toml", 'id = "CT43"', 'use = [{ name = "escape" }]', 'use = [{ name = "runaway", amount = 1 }]',
     ("CT43: use[0]: effect 'runaway' is not allowed here (allowed: escape)",)),
    ("treasure.toml", 'id = "CT06"', '"runaway"', '"escape"', ("CT06: effects[0]: effect 'escape' is not allowed here",)),
    ("treasure.toml", 'id = "CT55"', 'effects = [{ name = "escape" }]', "",
     ("CT55: effects: a one-shot must do something: give it a bonus or an effect",)),
    ("treasure.toml", 'id = "CT49"', 'kind = "oneshot"', 'kind = "oneshot"\nslot = "none"',
     ("CT49: slot: not allowed on a one-shot card",)),
    ("treasure.toml", 'id = "CT64"', 'kind = "level"', 'kind = "level"\nbonus = 1', ("CT64: bonus: not allowed on a go-up-a-level card",)),
    ("treasure.toml", 'id = "CT73"', 'when = "own_turn"', 'when = "own turn"', ("CT73: when: unknown timing 'own turn' (did you mean 'own_turn'?)",)),
    ("treasure.toml", 'id = "CT73"', '"search_discards", deck = "treasure"', '"search_discards", deck = "dxm"',
     ("CT73: effects[0].deck:", "unknown value 'dxm'")),
]


@pytest.mark.parametrize("file, anchor, old, new, parts", BAD_EDITS, ids=[p[4][0] for p in BAD_EDITS])
def test_a_bad_edit_names_file_card_and_field(data, file, anchor, old, new, parts):
    edit(data, file, anchor, old, new)
    fails(lambda: load_classic(data), *parts)


def test_the_error_has_its_parts(data):
    edit(data, "door.toml", 'id = "CD01"', "level = 1", "level = 0")
    err = fails(lambda: load_classic(data), "level")
    assert (err.file, err.where, err.field) == ("door.toml", "CD01", "level")
    assert err.message == "0 is out of range 1..20"


def test_a_card_without_a_readable_id_is_named_by_position(data):
    edit(data, "treasure.toml", 'id = "CT01"', 'id = "CT01"', "id = 1")
    fails(lambda: load_classic(data), "treasure.toml: treasure #1: id: 1 is not an id of the form CT01")


@pytest.mark.parametrize("file, text, parts", [
    ("door.toml", "[[door]\n", ("door.toml: not valid TOML",)),
    ("treasure.toml", "[extra]\nx = 1\n" + ITEM, ("treasure.toml: extra: unknown top-level key (expected: treasure)",)),
    ("door.toml", MONSTER, ("door.toml: human: missing: a complete set needs a [human] table (C-CHAR-4, C-EPIC-6)",)),
    ("door.toml", "[human]\ntext = 'Human.'\n", ("door.toml: door: missing: the file needs [[door]] entries",)),
    ("door.toml", "human = 3\n[[door]]\nid = 'CD01'\n", ("door.toml: human: must be a table, got integer 3",)),
])
def test_whole_file_errors(data, file, text, parts):
    (data / file).write_text(text, encoding="utf-8")
    fails(lambda: load_classic(data), *parts)


def test_a_missing_file_is_named(data):
    (data / "treasure.toml").unlink()
    fails(lambda: load_classic(data), "treasure.toml: file not found in")


# --- composition (C-COMP-6) ----------------------------------------------------------------------------

@pytest.mark.parametrize("file, anchor, old, new, parts", [
    ("door.toml", 'id = "CD46"', 'kind = "wandering"', 'kind = "mate"',
     ("door.toml: the set: Wandering Monsters: 2; C-COMP-6 wants exactly 3",)),
    ("door.toml", 'id = "CD01"', 'kind = "monster"', 'kind = "monster"\ncount = 9',
     ("door.toml: the set: monsters: 45; C-COMP-6 wants about 37 (34..40)",)),
    ("door.toml", 'id = "CD37"', "level = 20", "level = 19", ("door.toml: the set: monsters of level 20: 0; C-COMP-6 wants at least 1",)),
    ("door.toml", 'id = "CD63"', 'key = "elf"', 'key = "dwarf"', ("door.toml: the set: elf cards: 2; C-COMP-6 wants exactly 3",)),
    ("door.toml", 'id = "CD89"', 'who = "cleric"', 'who = "elf"',
     ("door.toml: the set: specials raising every cleric a level (C-LAW-2): 0; C-COMP-6 wants at least 1",)),
    ("treasure.toml", 'id = "CT46"', "value = 1000", "value = 1100",
     ("treasure.toml: the set: cards worth more than 1000 gold: 1; C-COMP-6 wants exactly 0",)),
    ("treasure.toml", 'id = "CT64"', 'kind = "level"', 'kind = "level"\ncount = 20',
     ("door.toml + treasure.toml: the set: cards in all: 188; C-COMP-6 wants about 168 (152..184)",)),
])
def test_a_set_outside_c_comp_6_is_refused(data, file, anchor, old, new, parts):
    edit(data, file, anchor, old, new)
    fails(lambda: load_classic(data), *parts)


def test_each_curse_kind_must_be_there(data):
    """C-COMP-6: immediate, next-combat and lasting curses; turning the two next-combat curses into
    immediate ones is refused."""
    for cid in ("CD58", "CD59"):
        text = (data / "door.toml").read_text(encoding="utf-8")
        j = text.index('name = "next_combat"', text.index(f'id = "{cid}"'))
        k = text.index("}", j)
        (data / "door.toml").write_text(text[:j] + 'name = "lose_race" ' + text[k:], encoding="utf-8")
    fails(lambda: load_classic(data), "door.toml: the set: next-combat curses: 0; C-COMP-6 wants at least 1")


# --- packs (--cards DIR) ------------------------------------------------------------------------------

def test_a_pack_adds_cards_after_the_default_ones(tmp_path):
    (tmp_path / "door.toml").write_text(MONSTER, encoding="utf-8")
    (tmp_path / "treasure.toml").write_text(ITEM, encoding="utf-8")
    base = load_classic_default()
    cards = load_classic_with_pack(tmp_path)
    assert cards.door[: len(base.door)] == base.door and cards.treasure[: len(base.treasure)] == base.treasure
    assert [c.id for c in cards.door[len(base.door):]] == ["CD901", "CD901.2"]
    assert cards.card("CT901").hands == 1 and cards.human == base.human
    assert load_classic_with_pack(None) is base


def test_a_pack_may_hold_one_file_and_is_not_held_to_the_proportions(tmp_path):
    """A pack changes the proportions (C-PACK-1): thirty more monsters load."""
    (tmp_path / "door.toml").write_text(MONSTER.replace("count = 2", "count = 20")
                                        + MONSTER.replace("CD901", "CD902").replace("count = 2", "count = 10"),
                                        encoding="utf-8")
    cards = load_classic_with_pack(tmp_path)
    assert len(cards.door) == len(load_classic_default().door) + 30


@pytest.mark.parametrize("file, text, parts", [
    ("door.toml", MONSTER.replace("CD901", "CD01"),
     ("door.toml: CD01: id: clashes with 'Grumpy Doormat' of the set it extends",)),
    ("treasure.toml", ITEM.replace("CT901", "CT01"), ("treasure.toml: CT01: id: clashes with 'Colander of Clear Thinking'",)),
    ("door.toml", "[human]\ntext = 'x'\n" + MONSTER, ("door.toml: human: a pack adds cards; it cannot change the human",)),
    ("door.toml", MONSTER.replace("level = 4", "level = 40"), ("door.toml: CD901: level: 40 is out of range 1..20",)),
    ("treasure.toml", ITEM.replace('slot = "hands"', 'slot = "tail"'), ("treasure.toml: CT901: slot: unknown slot 'tail'",)),
    ("treasure.toml", "[[treasure]\n", ("treasure.toml: not valid TOML",)),
])
def test_a_bad_pack_names_its_file(tmp_path, file, text, parts):
    (tmp_path / file).write_text(text, encoding="utf-8")
    err = fails(lambda: load_classic_with_pack(tmp_path), *parts)
    assert err.file.startswith(str(tmp_path))


def test_a_pack_must_be_a_directory_with_card_files(tmp_path):
    fails(lambda: load_classic_with_pack(tmp_path), "no card files (expected any of: door.toml, treasure.toml, dungeon.toml)")
    fails(lambda: load_classic_with_pack(tmp_path / "missing"), "not a directory")
    (tmp_path / "monsters.toml").write_text("", encoding="utf-8")  # a Quest file is not a Classic pack
    fails(lambda: load_classic_with_pack(tmp_path), "no card files")


# --- the Quest loader is untouched ------------------------------------------------------------------------

def test_classic_only_effects_stay_out_of_quest_files(tmp_path):
    """The two vocabularies are separate: a Quest monster cannot use a Classic-only effect."""
    for name in QUEST_FILES:
        shutil.copy(QUEST_DATA / name, tmp_path / name)
    text = (tmp_path / "monsters.toml").read_text(encoding="utf-8")
    j = text.index('bad_stuff = [{ name = "lose_slot", slot = "feet" }]')
    text = text[:j] + 'bad_stuff = [{ name = "lose_whole_hand" }]' + text[j + len('bad_stuff = [{ name = "lose_slot", slot = "feet" }]'):]
    (tmp_path / "monsters.toml").write_text(text, encoding="utf-8")
    fails(lambda: load_cards(tmp_path), "monsters.toml: M01: bad_stuff[0]: unknown effect 'lose_whole_hand'")
