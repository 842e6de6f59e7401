"""The card loader: the default set loads, and every validation error is actually raised.

Each error test copies the default data files to a temporary directory, makes one small edit, and
checks that loading fails with a DataError naming the file, the entry and the field.
"""
from __future__ import annotations

import dataclasses
import importlib.resources
import shutil
from pathlib import Path

import pytest

from mq.cards import (
    CardSet,
    DataError,
    DxmDef,
    Effect,
    MonsterDef,
    RoomFace,
    TreasureDef,
    load_cards,
    load_default,
    vocab,
)
from mq.cards.loader import FILES

DATA = Path(str(importlib.resources.files("mq") / "data"))


@pytest.fixture
def data(tmp_path: Path) -> Path:
    for name in FILES:
        shutil.copy(DATA / name, tmp_path / name)
    return tmp_path


def edit(d: Path, file: str, old: str, new: str) -> None:
    """Replace the one occurrence of ``old`` in ``file`` (fails loudly if the anchor moved)."""
    text = (d / file).read_text(encoding="utf-8")
    assert text.count(old) == 1, f"anchor {old!r} occurs {text.count(old)} times in {file}"
    (d / file).write_text(text.replace(old, new), encoding="utf-8")


def edit_after(d: Path, file: str, anchor: str, old: str, new: str) -> None:
    """Replace the first ``old`` after the one occurrence of ``anchor`` (e.g. an entry's id)."""
    text = (d / file).read_text(encoding="utf-8")
    assert text.count(anchor) == 1, f"anchor {anchor!r} occurs {text.count(anchor)} times"
    j = text.index(old, text.index(anchor))
    (d / file).write_text(text[:j] + new + text[j + len(old):], encoding="utf-8")


def append(d: Path, file: str, toml: str) -> None:
    with open(d / file, "a", encoding="utf-8") as f:
        f.write("\n" + toml + "\n")


def fails(d: Path, *parts: str) -> DataError:
    """Loading ``d`` raises a DataError whose message contains every part, in order."""
    with pytest.raises(DataError) as info:
        load_cards(d)
    msg = str(info.value)
    pos = 0
    for part in parts:
        i = msg.find(part, pos)
        assert i >= 0, f"{part!r} not found (in order) in {msg!r}"
        pos = i + len(part)
    return info.value


# --- the default set and the API -----------------------------------------------------------------

def test_default_loads_and_is_cached():
    a = load_default()
    assert isinstance(a, CardSet)
    assert load_default() is a


def test_load_cards_from_a_copy_equals_default(data):
    assert load_cards(data) == load_default()
    assert load_cards(str(data)) == load_default()
    assert hash(load_cards(data)) == hash(load_default())


def test_defs_are_frozen_and_hold_only_tuples():
    cs = load_default()

    def walk(x, path):
        assert not isinstance(x, (list, dict, set)), path
        if dataclasses.is_dataclass(x):
            for f in dataclasses.fields(x):
                walk(getattr(x, f.name), f"{path}.{f.name}")
        elif isinstance(x, tuple):
            for i, y in enumerate(x):
                walk(y, f"{path}[{i}]")
        else:
            assert x is None or isinstance(x, (int, str)), path

    walk(cs, "cards")
    m = cs.monsters[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.level = 5  # type: ignore[misc]
    hash(cs)


def test_lookups():
    cs = load_default()
    assert isinstance(cs.card("M01"), MonsterDef)
    assert isinstance(cs.card("T01"), TreasureDef)
    assert isinstance(cs.card("D01"), DxmDef)
    assert cs.face("ENTRANCE") is cs.entrance
    assert isinstance(cs.face("R24b"), RoomFace)
    assert cs.face("R24b").tile == "R24"
    assert cs.rooms[0].faces[0].id == "R01a" and cs.rooms[0].faces[1].id == "R01b"
    with pytest.raises(KeyError):
        cs.card("M999")
    with pytest.raises(KeyError):
        cs.face("R99a")


def test_cardset_rejects_duplicate_ids():
    cs = load_default()
    with pytest.raises(DataError, match="duplicate card id"):
        CardSet(cs.entrance, cs.rooms, cs.connectors, cs.monsters + cs.monsters[:1],
                cs.treasures, cs.dxm)
    with pytest.raises(DataError, match="duplicate room face id"):
        CardSet(cs.entrance, cs.rooms + cs.rooms[:1], cs.connectors, cs.monsters,
                cs.treasures, cs.dxm)


def test_effect_params_sorted_and_get():
    cs = load_default()
    e = cs.face("R02a").effects[0]
    assert e == Effect("monster_bonus", (("amount", -3), ("keyword", "flying")))
    assert e.get("keyword") == "flying" and e.get("amount") == -3
    assert e.get("nope") is None and e.get("nope", 7) == 7
    for f in (f for t in cs.rooms for f in t.faces):
        for e in f.effects:
            assert [k for k, _ in e.params] == sorted(k for k, _ in e.params)


def test_values_are_converted(data):
    cs = load_default()
    arrows = cs.face("R02a").arrows  # red E, blue W, yellow W, purple E, orange N
    assert arrows == (1, -1, 3, 3, 1, 0)
    assert cs.entrance.arrows == (-1,) * 6 and cs.entrance.no_search
    assert [c.back for c in cs.connectors[:1]] == [1]
    assert {c.back for c in cs.connectors} == {1, 2, 3, 4}
    m40 = cs.card("M40")
    assert m40.bonuses == (("thief", 2), ("cleric", -2))  # file order kept
    assert cs.card("T01").slot == "head" and cs.card("T36").slot == "belt"
    assert cs.card("T46").slot is None
    assert cs.card("D01").key == "elf" and cs.card("D17").key is None


def test_count_expands_in_place(data):
    cs = load_default()
    ids = [m.id for m in cs.monsters]
    i = ids.index("M02")
    assert ids[i:i + 3] == ["M02", "M02.2", "M03"]
    assert dataclasses.replace(cs.card("M02.2"), id="M02") == cs.card("M02")
    edit(data, "monsters.toml", 'id = "M03"\n', 'id = "M03"\ncount = 3\n')
    ids = [m.id for m in load_cards(data).monsters]
    assert ids[ids.index("M03"):ids.index("M03") + 4] == ["M03", "M03.2", "M03.3", "M04"]


def test_dataerror_parts(data):
    edit_after(data, "monsters.toml", 'id = "M08"', '"beast", "flying"', '"beast", "flyng"')
    err = fails(data, "monsters.toml: M08: keywords: unknown keyword 'flyng'",
                "(did you mean 'flying'?)")
    assert (err.file, err.where, err.field) == ("monsters.toml", "M08", "keywords")
    assert isinstance(err, ValueError)


# --- files and top level --------------------------------------------------------------------------

def test_missing_file(data):
    (data / "dxm.toml").unlink()
    fails(data, "dxm.toml", "file not found")


def test_toml_syntax_error(data):
    append(data, "treasure.toml", "this is not toml")
    fails(data, "treasure.toml", "not valid TOML")


def test_unknown_top_level_key(data):
    append(data, "connectors.toml", "[conector]\nid = 1")
    fails(data, "connectors.toml", "conector", "unknown top-level key")


def test_missing_entries(data):
    (data / "monsters.toml").write_text("# nothing\n", encoding="utf-8")
    fails(data, "monsters.toml", "monster", "missing")
    (data / "monsters.toml").write_text("monster = []\n", encoding="utf-8")
    fails(data, "monsters.toml", "monster", "non-empty array of tables")


def test_standees(data):
    """Q-COMP-4: monsters.toml counts the standees by size, every size, enough for the 18 monsters
    the bases allow on the board (Q-MON-2); a pack cannot change them."""
    assert load_default().standees == (("tiny", 8), ("small", 8), ("human", 14), ("huge", 8))
    edit(data, "monsters.toml", "huge = 8\n", "huge = 8\ngiant = 2\n")
    fails(data, "monsters.toml", "standees", "giant", "unknown field")
    edit(data, "monsters.toml", "huge = 8\ngiant = 2\n", "")
    fails(data, "monsters.toml", "standees", "huge", "missing")
    edit(data, "monsters.toml", "human = 14\n", "human = 14\nhuge = -1\n")
    fails(data, "monsters.toml", "standees", "huge", "out of range")
    edit(data, "monsters.toml", "human = 14\nhuge = -1\n", "human = 1\nhuge = 0\n")
    fails(data, "monsters.toml", "standees", "17 standees, fewer than the 18")
    text = (data / "monsters.toml").read_text(encoding="utf-8")
    (data / "monsters.toml").write_text(text.replace("[standees]", "[stand_ins]"), encoding="utf-8")
    fails(data, "monsters.toml", "stand_ins", "unknown top-level key")


# --- fields common to all entries -----------------------------------------------------------------

def test_unknown_field(data):
    edit(data, "monsters.toml", 'id = "M03"\n', 'id = "M03"\nlevle = 3\n')
    fails(data, "monsters.toml: M03: levle: unknown field (did you mean 'level'?)")


def test_missing_required_field_points_at_typo(data):
    edit_after(data, "monsters.toml", 'id = "M03"', "level = 1", "levle = 1")
    fails(data, "monsters.toml: M03: level: missing (required) (is 'levle' a misspelling of 'level'?)")


def test_missing_required_field(data):
    edit(data, "treasure.toml", 'name = "Cardboard Plate"\n', "")
    fails(data, "treasure.toml: T06: name: missing")


def test_empty_text(data):
    edit(data, "treasure.toml", 'text = "+1. It says ARMOUR on it in crayon, which counts."',
         'text = "   "')
    fails(data, "treasure.toml: T06: text: must not be empty")


def test_wrong_type_string(data):
    edit(data, "treasure.toml", 'name = "Cardboard Plate"', "name = 7")
    fails(data, "treasure.toml: T06: name: must be a string, got integer 7")


def test_bool_is_not_an_int(data):
    edit_after(data, "monsters.toml", 'id = "M04"', "level = 1", "level = true")
    fails(data, "monsters.toml: M04: level: must be an integer, got boolean True")


def test_int_is_not_a_bool(data):
    edit(data, "monsters.toml", "smashes = true\nkeywords = [\"giant\"]",
         "smashes = 1\nkeywords = [\"giant\"]")
    fails(data, "monsters.toml: M32: smashes: must be true or false, got integer 1")


def test_out_of_range(data):
    edit(data, "monsters.toml", "level = 20\n", "level = 21\n")
    fails(data, "monsters.toml: M66: level: 21 is out of range 1..20")


def test_bad_id_format(data):
    edit(data, "treasure.toml", 'id = "T06"', 'id = "X06"')
    fails(data, "treasure.toml: X06: id:", "not an id of the form T01")


def test_entry_without_id_is_named_by_position(data):
    edit(data, "connectors.toml", 'id = "C02"\n', "")
    fails(data, "connectors.toml: connector #2: id: missing")


def test_duplicate_id(data):
    edit(data, "monsters.toml", 'id = "M04"', 'id = "M03"')
    fails(data, "monsters.toml: M03: id: duplicate id 'M03'")


def test_duplicate_id_connectors(data):
    edit(data, "connectors.toml", 'id = "C02"', 'id = "C01"')
    fails(data, "connectors.toml: C01: id: duplicate id 'C01'")


def test_duplicate_tile_id(data):
    edit(data, "rooms.toml", 'id = "R02"', 'id = "R01"')
    fails(data, "rooms.toml: R01: id: duplicate id 'R01'")


def test_count_range(data):
    edit(data, "monsters.toml", 'id = "M03"\n', 'id = "M03"\ncount = 0\n')
    fails(data, "monsters.toml: M03: count: 0 is out of range 1..20")


def test_count_not_allowed_for_connectors(data):
    edit(data, "connectors.toml", 'id = "C01"\n', 'id = "C01"\ncount = 2\n')
    fails(data, "connectors.toml: C01: count: unknown field")


def test_word_list_duplicates_and_type(data):
    edit_after(data, "monsters.toml", 'id = "M08"', '"beast", "flying"', '"beast", "beast"')
    fails(data, "monsters.toml: M08: keywords: keyword 'beast' listed twice")


def test_word_list_must_be_array(data):
    edit_after(data, "monsters.toml", 'id = "M08"', 'keywords = ["beast", "flying"]', 'keywords = "beast"')
    fails(data, "monsters.toml: M08: keywords: must be an array of strings, got string 'beast'")


# --- effects ---------------------------------------------------------------------------------------

def test_unknown_effect(data):
    edit(data, "monsters.toml", '[{ name = "lose_slot", slot = "feet" }]\n\n[[monster]]\nid = "M02"',
         '[{ name = "los_slot", slot = "feet" }]\n\n[[monster]]\nid = "M02"')
    fails(data, "monsters.toml: M01: bad_stuff[0]: unknown effect 'los_slot'",
          "did you mean 'lose_slot'")


def test_effect_not_allowed_in_this_field(data):
    edit(data, "monsters.toml", 'rewards = [{ name = "gold", amount = 200 }]',
         'rewards = [{ name = "heal_on_enter", amount = 1 }]')
    fails(data, "monsters.toml: M10: rewards[0]: effect 'heal_on_enter' is not allowed here",
          "allowed: extra_treasure, gold, heal")


def test_effect_missing_name(data):
    edit(data, "monsters.toml", 'rewards = [{ name = "gold", amount = 200 }]',
         "rewards = [{ amount = 200 }]")
    fails(data, "monsters.toml: M10: rewards[0]: missing effect name")


def test_effect_bad_param_type(data):
    edit_after(data, "monsters.toml", 'id = "M02"', '{ name = "hits", n = 1 }',
               '{ name = "hits", n = "two" }')
    fails(data, "monsters.toml: M02: bad_stuff[0].n: parameter 'n' of effect 'hits' "
                "must be an integer, got string 'two'")


def test_effect_bool_param_is_not_int(data):
    edit(data, "rooms.toml", '{ name = "heal_on_enter", amount = 2 }',
         '{ name = "heal_on_enter", amount = true }')
    fails(data, "rooms.toml: R06b: effects[0].amount: parameter 'amount' of effect "
                "'heal_on_enter' must be an integer, got boolean True")


def test_effect_string_param_type_and_choice(data):
    edit(data, "rooms.toml", '{ name = "monster_bonus", keyword = "flying", amount = -3 }',
         '{ name = "monster_bonus", keyword = 3, amount = -3 }')
    fails(data, "rooms.toml: R02a: effects[0].keyword: parameter 'keyword' of effect "
                "'monster_bonus' must be a string, got integer 3")


def test_effect_unknown_param_value(data):
    edit(data, "rooms.toml", '{ name = "monster_bonus", keyword = "flying", amount = -3 }',
         '{ name = "monster_bonus", keyword = "flyers", amount = -3 }')
    fails(data, "rooms.toml: R02a: effects[0].keyword:", "unknown value 'flyers'")


def test_effect_any_only_where_allowed(data):
    # "any" is fine for a room bonus but not for an item's bonus_vs (which needs a keyword).
    edit(data, "treasure.toml", '{ name = "bonus_vs", who = "undead", amount = 2 }',
         '{ name = "bonus_vs", who = "any", amount = 2 }')
    fails(data, "treasure.toml: T18: effects[0].who:", "unknown value 'any'")


def test_effect_unknown_param(data):
    edit(data, "treasure.toml", '[{ name = "escape" }]', '[{ name = "escape", speed = 3 }]')
    fails(data, "treasure.toml: T41: effects[0]: unknown parameter 'speed' of effect 'escape'",
          "no parameters")


def test_effect_missing_param(data):
    edit(data, "treasure.toml", '[{ name = "heal", amount = 2 }]', '[{ name = "heal" }]')
    fails(data, "treasure.toml: T43: effects[0].amount: missing parameter of effect 'heal'")


def test_effect_param_range_and_nonzero(data):
    edit(data, "treasure.toml", '[{ name = "heal", amount = 2 }]', '[{ name = "heal", amount = 11 }]')
    fails(data, "treasure.toml: T43: effects[0].amount:", "11 is out of range 1..10")
    edit(data, "treasure.toml", '[{ name = "heal", amount = 11 }]', '[{ name = "heal", amount = 2 }]')
    edit_after(data, "treasure.toml", 'id = "T13"', '{ name = "move", amount = 1 }',
               '{ name = "move", amount = 0 }')
    fails(data, "treasure.toml: T13: effects[0].amount:", "must not be 0")


def test_effect_duplicate(data):
    edit(data, "monsters.toml", 'bad_stuff = [{ name = "lose_levels", n = 3 }]',
         'bad_stuff = [{ name = "lose_levels", n = 3 }, { name = "lose_levels", n = 3 }]')
    fails(data, "monsters.toml: M60: bad_stuff[1]: duplicate effect 'lose_levels'")


def test_effects_must_be_array_of_tables(data):
    edit(data, "monsters.toml", 'bad_stuff = [{ name = "lose_levels", n = 3 }]',
         'bad_stuff = "lose 3 levels"')
    fails(data, "monsters.toml: M60: bad_stuff: must be an array of inline tables")


def test_lose_slot_vocabulary(data):
    edit(data, "monsters.toml", '[{ name = "lose_slot", slot = "hands" }]',
         '[{ name = "lose_slot", slot = "belt" }]')
    fails(data, "monsters.toml: M39: bad_stuff[0].slot:", "unknown value 'belt'")


def test_bool_and_string_list_params(data, monkeypatch):
    # No shipped effect has bool or string-list parameters yet; the loader supports both
    # (defs.Param), so check them with a temporary effect spec.
    spec = vocab.EffectSpec(
        "test_only", (vocab.ParamSpec("flag", vocab.BOOL),
                      vocab.ParamSpec("whos", vocab.STRS, choices=vocab.WHO)),
        (vocab.ROOM,), "Q-TEST", "test")
    monkeypatch.setitem(vocab.EFFECTS, "test_only", spec)
    old = '{ name = "heal_on_enter", amount = 2 }'
    edit(data, "rooms.toml", old, '{ name = "test_only", whos = ["elf", "dwarf"], flag = true }')
    eff = load_cards(data).face("R06b").effects[0]
    assert eff == Effect("test_only", (("flag", True), ("whos", ("elf", "dwarf"))))
    hash(eff)
    edit(data, "rooms.toml", "flag = true", "flag = 1")
    fails(data, "rooms.toml: R06b: effects[0].flag: parameter 'flag' of effect 'test_only' "
                "must be true or false, got integer 1")
    edit(data, "rooms.toml", "flag = 1", "flag = false")
    edit(data, "rooms.toml", 'whos = ["elf", "dwarf"]', 'whos = ["elf", "elk"]')
    fails(data, "rooms.toml: R06b: effects[0].whos:", "unknown value 'elk'")
    edit(data, "rooms.toml", 'whos = ["elf", "elk"]', 'whos = ["elf", "elf"]')
    fails(data, "rooms.toml: R06b: effects[0].whos:", "listed twice")
    edit(data, "rooms.toml", 'whos = ["elf", "elf"]', 'whos = "elf"')
    fails(data, "rooms.toml: R06b: effects[0].whos:", "must be an array of strings")


def test_effect_specs_are_consistent():
    # Every effect has a schema with at least one context and the rule it implements.
    for name, spec in vocab.EFFECTS.items():
        assert spec.name == name and spec.contexts and spec.rule.startswith("Q-")
        assert set(vocab.effects_for(spec.contexts[0])) >= {name}


# --- rooms -----------------------------------------------------------------------------------------

def test_arrows_two_directions_for_one_colour(data):
    edit(data, "rooms.toml", 'arrows = { red = "E", blue = "W", yellow = "W", purple = "E", orange = "N" }',
         'arrows = { red = ["E", "S"], blue = "W", yellow = "W", purple = "E", orange = "N" }')
    fails(data, "rooms.toml: R02a: arrows.red: 2 directions ['E', 'S']",
          "at most one arrow per colour (Q-MT-2)")


def test_arrows_same_colour_twice_is_a_toml_error(data):
    edit(data, "rooms.toml", 'arrows = { red = "E", blue = "W", yellow = "W", purple = "E", orange = "N" }',
         'arrows = { red = "E", blue = "W", red = "S" }')
    fails(data, "rooms.toml", "not valid TOML")


def test_arrows_unknown_colour_and_direction(data):
    edit(data, "rooms.toml", 'arrows = { red = "E", blue = "W", yellow = "W", purple = "E", orange = "N" }',
         'arrows = { red = "E", blu = "W" }')
    fails(data, "rooms.toml: R02a: arrows.blu: unknown colour 'blu'", "did you mean 'blue'")
    edit(data, "rooms.toml", 'arrows = { red = "E", blu = "W" }', 'arrows = { red = "NE" }')
    fails(data, "rooms.toml: R02a: arrows.red: unknown direction 'NE'")


def test_arrows_required_on_tile_faces(data):
    edit_after(data, "rooms.toml", 'name = "The Belfry of Broken Eardrums"', "arrows = ", "nope = ")
    fails(data, "rooms.toml: R02a: arrows: missing")


def test_arrows_refused_on_entrance(data):
    edit_after(data, "rooms.toml", "[entrance]", "no_search = true", "no_search = true\narrows = {}")
    fails(data, "rooms.toml: ENTRANCE: arrows: unknown field")


def test_entrance_must_be_no_search(data):
    edit_after(data, "rooms.toml", "[entrance]", "no_search = true", "no_search = false")
    fails(data, "rooms.toml: ENTRANCE: no_search: the Entrance cannot be searched")


def test_missing_entrance(data):
    text = (data / "rooms.toml").read_text()
    (data / "rooms.toml").write_text(text.replace("[entrance]", "[entrance_hall]"))
    fails(data, "rooms.toml", "entrance_hall", "unknown top-level key")
    start = text.index("[entrance]")
    end = text.index("[[tile]]")
    (data / "rooms.toml").write_text(text[:start] + text[end:])
    fails(data, "rooms.toml: entrance: missing: the file needs an [entrance] table")
    (data / "rooms.toml").write_text('entrance = "here"\n' + text[:start] + text[end:])
    fails(data, "rooms.toml: entrance: must be a table, got string 'here'")


def test_face_missing(data):
    edit_after(data, "rooms.toml", 'id = "R02"', "[tile.b]", "[tile.c]")
    fails(data, "rooms.toml: R02: b: missing")


def test_icon_green_and_red(data):
    edit(data, "rooms.toml", 'green = ["elf"]\nred = ["dwarf", "warrior"]',
         'green = ["elf"]\nred = ["dwarf", "elf"]')
    fails(data, "rooms.toml: R07b: red: 'elf' is both a green and a red icon")


def test_icon_unknown(data):
    edit(data, "rooms.toml", 'green = ["elf"]\nred = ["dwarf", "warrior"]',
         'green = ["elf"]\nred = ["dwarf", "warior"]')
    fails(data, "rooms.toml: R07b: red[1]: unknown condition 'warior'", "(did you mean 'warrior'?)")


@pytest.mark.parametrize("icon,message", [
    ('"level 5-2"', "'level 5-2': the levels must go up within 1..10"),
    ('"level 0-3"', "'level 0-3': the levels must go up within 1..10"),
    ('"level 1-10"', "'level 1-10' holds for every munchkin"),
    ('"level three"', "a level range is written 'level 3-5'"),
    ('"carrying shinny"', "unknown item keyword 'shinny' in 'carrying shinny' (did you mean 'shiny'?)"),
    ('"any"', "'any' is not allowed here"),
    ('"odd levl"', "unknown condition 'odd levl' (did you mean 'odd level'?)"),
    ("3", "a condition is a string"),
])
def test_icon_conditions_refused(data, icon, message):
    """Q-COMBAT-6: a condition outside the closed vocabulary is refused with a sentence saying why."""
    edit(data, "rooms.toml", 'green = ["elf"]\nred = ["dwarf", "warrior"]', f'green = ["elf"]\nred = ["dwarf", {icon}]')
    fails(data, "rooms.toml: R07b: red[1]: ", message)


def test_icon_conditions_are_read_in_canonical_form(data):
    """Q-COMBAT-6: every condition kind loads; spacing and a one-level range read canonically, so
    the same condition twice is caught whatever its spelling."""
    edit(data, "rooms.toml", 'green = ["elf"]\nred = ["dwarf", "warrior"]',
         'green = ["odd level", "level  4-4", "carrying fire", "female"]\nred = ["even level", "level 8-10"]')
    f = load_cards(data).face("R07b")
    assert [(c.kind, c.text) for c in f.green] == [
        ("odd level", "odd level"), ("level", "level 4"), ("carrying", "carrying fire"), ("is", "female")]
    assert [c.text for c in f.red] == ["even level", "level 8-10"]
    edit(data, "rooms.toml", '"even level", "level 8-10"', '"even level", "level 4"')
    fails(data, "rooms.toml: R07b: red: 'level 4' is both a green and a red icon")
    edit(data, "rooms.toml", '"even level", "level 4"', '"even level", "even  level"')
    fails(data, "rooms.toml: R07b: red: condition 'even level' listed twice")


def test_room_effect_who_is_a_condition(data):
    """Q-COMBAT-6: the `who` of munchkin_bonus and hurt_on_enter is any condition, or any."""
    edit(data, "rooms.toml", '{ name = "hurt_on_enter", who = "thief", hits = 1 }',
         '{ name = "hurt_on_enter", who = "carrying holy", hits = 1 }')
    e = load_cards(data).face("R10b").effects[0]
    assert e.get("who").text == "carrying holy" and e.get("hits") == 1
    edit(data, "rooms.toml", 'who = "carrying holy"', 'who = "carrying wings"')
    fails(data, "rooms.toml: R10b: effects[0].who: parameter 'who' of effect 'hurt_on_enter': "
                "unknown item keyword 'wings'")


def test_search_range_and_no_search(data):
    edit_after(data, "rooms.toml", 'name = "Bat Guano Gallery"', "search = -1", "search = -3")
    fails(data, "rooms.toml: R02b: search: -3 is out of range -2..2")
    edit_after(data, "rooms.toml", 'name = "Bat Guano Gallery"', "search = -3",
               "search = -1\nno_search = true")
    fails(data, "rooms.toml: R02b: search: a no_search room cannot also have a search modifier")


def test_room_effect_context(data):
    edit(data, "rooms.toml", '{ name = "heal_on_enter", amount = 2 }', '{ name = "heal", amount = 2 }')
    fails(data, "rooms.toml: R06b: effects[0]: effect 'heal' is not allowed here")


# --- connectors ------------------------------------------------------------------------------------

def test_connector_unknown_back(data):
    edit(data, "connectors.toml", 'id = "C01"\nback = "door"', 'id = "C01"\nback = "dor"')
    fails(data, "connectors.toml: C01: back: unknown connector back 'dor'", "did you mean 'door'")


def test_connector_back_cannot_be_corridor(data):
    edit(data, "connectors.toml", 'id = "C01"\nback = "door"', 'id = "C01"\nback = "corridor"')
    fails(data, "connectors.toml: C01: back: unknown connector back 'corridor'")


# --- monsters --------------------------------------------------------------------------------------

def test_monster_unknown_keyword(data):
    edit_after(data, "monsters.toml", 'id = "M08"', '"beast", "flying"', '"beast", "flyng"')
    fails(data, "monsters.toml: M08: keywords: unknown keyword 'flyng' (did you mean 'flying'?)")


def test_monster_size_is_not_a_keyword(data):
    edit_after(data, "monsters.toml", 'id = "M08"', '"beast", "flying"', '"beast", "tiny"')
    fails(data, "monsters.toml: M08: keywords: 'tiny' is a size, not a keyword: write size = 'tiny'")
    edit_after(data, "monsters.toml", 'id = "M08"', 'keywords = ["beast", "tiny"]',
               'keywords = ["fast"]')
    fails(data, "monsters.toml: M08: keywords: 'fast' is a movement, not a keyword")


def test_monster_size(data):
    edit_after(data, "monsters.toml", 'id = "M01"', 'size = "tiny"', 'size = "medium"')
    fails(data, "monsters.toml: M01: size: unknown size 'medium'")


def test_monster_movement(data):
    edit_after(data, "monsters.toml", 'id = "M01"', 'movement = "lurking"', 'movement = "sneaky"')
    fails(data, "monsters.toml: M01: movement: unknown movement 'sneaky'")


def test_monster_passes(data):
    edit_after(data, "monsters.toml", 'id = "M10"', 'passes = ["locked"]', 'passes = ["door"]')
    fails(data, "monsters.toml: M10: passes: unknown connector kind 'door'")


def test_monster_bonuses(data):
    edit(data, "monsters.toml", "bonuses = { elf = 2 }\nbad_stuff = [{ name = \"hits\", n = 1 }]\nrewards",
         "bonuses = { elves = 2 }\nbad_stuff = [{ name = \"hits\", n = 1 }]\nrewards")
    fails(data, "monsters.toml: M11: bonuses.elves: unknown race/class/gender 'elves'")
    edit(data, "monsters.toml", "bonuses = { elves = 2 }", "bonuses = { elf = 0 }")
    fails(data, "monsters.toml: M11: bonuses.elf: must not be 0")
    edit(data, "monsters.toml", "bonuses = { elf = 0 }", 'bonuses = { elf = "2" }')
    fails(data, "monsters.toml: M11: bonuses.elf: must be an integer, got string '2'")
    edit(data, "monsters.toml", 'bonuses = { elf = "2" }', "bonuses = [\"elf\"]")
    fails(data, "monsters.toml: M11: bonuses: must be a table, got array")


def test_monster_ignores_and_bonus_conflict(data):
    edit(data, "monsters.toml", "bonuses = { thief = 4 }\nignores = [\"wizard\"]",
         "bonuses = { thief = 4 }\nignores = [\"thief\"]")
    fails(data, "monsters.toml: M61: ignores: 'thief' is ignored and also gets a bonus")


def test_monster_bad_stuff_required_and_non_empty(data):
    edit(data, "monsters.toml", 'bad_stuff = [{ name = "lose_levels", n = 3 }]', "")
    fails(data, "monsters.toml: M60: bad_stuff: missing")
    edit_after(data, "monsters.toml", 'id = "M60"', "keywords = ", "bad_stuff = []\nkeywords = ")
    fails(data, "monsters.toml: M60: bad_stuff: must not be empty")


def test_monster_death_alone(data):
    edit(data, "monsters.toml", 'runaway = -2\nbad_stuff = [{ name = "death" }]\n\n# ---',
         'runaway = -2\nbad_stuff = [{ name = "death" }, { name = "hits", n = 1 }]\n\n# ---')
    fails(data, "monsters.toml: M62: bad_stuff: 'death' must be the only Bad Stuff")


def test_monster_dice_range(data):
    edit_after(data, "monsters.toml", 'id = "M66"', "dice = 3", "dice = 4")
    fails(data, "monsters.toml: M66: dice: 4 is out of range 0..3")


# --- treasure --------------------------------------------------------------------------------------

def test_treasure_unknown_kind_and_slot(data):
    edit(data, "treasure.toml", 'kind = "item"\nslot = "head"\nbonus = 1\nvalue = 200',
         'kind = "gadget"\nslot = "head"\nbonus = 1\nvalue = 200')
    fails(data, "treasure.toml: T01: kind: unknown treasure kind 'gadget'")
    edit(data, "treasure.toml", 'kind = "gadget"', 'kind = "item"')
    edit(data, "treasure.toml", 'kind = "item"\nslot = "head"\nbonus = 1\nvalue = 200',
         'kind = "item"\nslot = "hat"\nbonus = 1\nvalue = 200')
    fails(data, "treasure.toml: T01: slot: unknown slot 'hat'")


def test_treasure_hands(data):
    edit(data, "treasure.toml", 'slot = "hands"\nhands = 1\nbonus = 1\n', 'slot = "hands"\nbonus = 1\n')
    fails(data, "treasure.toml: T16: hands: missing")
    edit(data, "treasure.toml", 'slot = "hands"\nbonus = 1\n', 'slot = "hands"\nhands = 3\nbonus = 1\n')
    fails(data, "treasure.toml: T16: hands: 3 is out of range 1..2")
    edit(data, "treasure.toml", 'slot = "hands"\nhands = 3\nbonus = 1\n',
         'slot = "head"\nhands = 1\nbonus = 1\n')
    fails(data, "treasure.toml: T16: hands: not allowed unless slot = \"hands\"")


def test_treasure_level_card_takes_no_extras(data):
    edit(data, "treasure.toml", 'name = "Participation Trophy"', 'name = "Participation Trophy"\nbonus = 2')
    fails(data, "treasure.toml: T47: bonus: not allowed on a level card")


def test_treasure_oneshot_rules(data):
    edit(data, "treasure.toml", 'kind = "oneshot"\nbonus = 3\nvalue = 200',
         'kind = "oneshot"\nvalue = 200')
    fails(data, "treasure.toml: T36: effects: a one-shot must do something")
    edit(data, "treasure.toml", 'kind = "oneshot"\nvalue = 200\nkeywords = ["potion"]',
         'kind = "oneshot"\nbonus = 3\nbig = true\nvalue = 200\nkeywords = ["potion"]')
    fails(data, "treasure.toml: T36: big: not allowed on a one-shot")
    edit(data, "treasure.toml", "bonus = 3\nbig = true\nvalue = 200",
         'bonus = 3\nslot = "hands"\nvalue = 200')
    fails(data, "treasure.toml: T36: slot: unknown one-shot slot", "'hands'")


def test_treasure_item_effect_context(data):
    edit(data, "treasure.toml", '[{ name = "move", amount = -1 }]', '[{ name = "escape" }]')
    fails(data, "treasure.toml: T08: effects[0]: effect 'escape' is not allowed here",
          "allowed: runaway, move, max_hp, bonus_vs")


def test_treasure_restrictions(data):
    edit(data, "treasure.toml", 'only = ["warrior"]', 'only = ["warrior"]\nnot_for = ["warrior"]')
    fails(data, "treasure.toml: T03: not_for: 'warrior' is in both only and not_for")
    edit(data, "treasure.toml", 'only = ["warrior"]\nnot_for = ["warrior"]', 'only = ["barbarian"]')
    fails(data, "treasure.toml: T03: only: unknown race/class/gender 'barbarian'")


def test_treasure_item_keyword(data):
    edit(data, "treasure.toml", 'keywords = ["magic", "fire"]\n\n[[treasure]]\nid = "T05"',
         'keywords = ["magik", "fire"]\n\n[[treasure]]\nid = "T05"')
    fails(data, "treasure.toml: T04: keywords: unknown item keyword 'magik'", "'magic'")


# --- DxM -------------------------------------------------------------------------------------------

def test_dxm_unknown_kind(data):
    append(data, "dxm.toml", '[[card]]\nid = "D99"\nname = "X"\ntext = "Y."\nkind = "spell"')
    fails(data, "dxm.toml: D99: kind: unknown DxM kind 'spell'")


def test_dxm_race_keys(data):
    edit(data, "dxm.toml", 'kind = "race"\nkey = "elf"\n\n[[card]]\nid = "D02"',
         'kind = "race"\nkey = "human"\n\n[[card]]\nid = "D02"')
    fails(data, "dxm.toml: D01: key: 'human' is not a race card")
    edit(data, "dxm.toml", 'key = "human"', 'key = "orc"')
    fails(data, "dxm.toml: D01: key: unknown race 'orc'")
    edit(data, "dxm.toml", 'key = "orc"', "")
    fails(data, "dxm.toml: D01: key: missing")


def test_dxm_class_key(data):
    edit(data, "dxm.toml", 'kind = "class"\nkey = "thief"\n\n[[card]]\nid = "D14"',
         'kind = "class"\nkey = "bard"\n\n[[card]]\nid = "D14"')
    fails(data, "dxm.toml: D13: key: unknown class 'bard'")


def test_dxm_key_and_bonus_where_not_allowed(data):
    edit(data, "dxm.toml", 'name = "Dramatic Training Montage"', 'name = "Dramatic Training Montage"\nkey = "elf"')
    fails(data, "dxm.toml: D19: key: not allowed on a level card")
    edit(data, "dxm.toml", 'name = "Dramatic Training Montage"\nkey = "elf"',
         'name = "Dramatic Training Montage"\nbonus = 1')
    fails(data, "dxm.toml: D19: bonus: not allowed on a level card")


def test_dxm_oneshot_needs_something(data):
    edit(data, "dxm.toml", 'kind = "oneshot"\nbonus = 2', 'kind = "oneshot"')
    fails(data, "dxm.toml: D23: effects: a one-shot must do something")


def test_dxm_oneshot_effect_context(data):
    edit(data, "dxm.toml", '[{ name = "teleport" }]', '[{ name = "runaway", amount = 1 }]')
    fails(data, "dxm.toml: D30: effects[0]: effect 'runaway' is not allowed here",
          "allowed: heal, escape, teleport")
