"""``mq cards`` (mq/cards/cli.py) and extra card packs (mq/cards/pack.py): listing, showing and
validating the set, with a pack of house cards loaded on top through the same merge scenarios use."""
from __future__ import annotations

from pathlib import Path

import pytest

from mq.cards import DataError, load_default, pack
from mq.cards.cli import main
from mq.scenario import loads

MONSTER = '''
[[monster]]
id = "M901"
name = "Tax Collector of the Deep"
text = "+2 against halflings. Bad Stuff: lose 100 gold."
level = 7
dice = 1
treasure = 2
bonuses = { halfling = 2 }
bad_stuff = [{ name = "lose_gold", amount = 100 }]
'''
TILE = '''
[[tile]]
id = "R901"
[tile.a]
name = "The Break Room"
text = "Someone's lunch is in the fridge. Good for dwarves."
arrows = { red = "N" }
green = ["dwarf"]
[tile.b]
name = "The Other Break Room"
text = "Nobody's lunch. Nothing happens here."
arrows = {}
'''


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["cards", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def house(tmp_path: Path) -> Path:
    """A pack with one monster, one treasure, one DxM card, a tile and a connector."""
    (tmp_path / "monsters.toml").write_text(MONSTER, encoding="utf-8")
    (tmp_path / "treasure.toml").write_text(
        '[[treasure]]\nid = "T901"\nname = "Spork of Destiny"\ntext = "+1. One hand."\nkind = "item"\n'
        'slot = "hands"\nhands = 1\nbonus = 1\nvalue = 100\ncount = 2\n', encoding="utf-8")
    (tmp_path / "dxm.toml").write_text(
        '[[card]]\nid = "D901"\nname = "Second Wind"\ntext = "One-shot: +2."\nkind = "oneshot"\nbonus = 2\n',
        encoding="utf-8")
    (tmp_path / "rooms.toml").write_text(TILE, encoding="utf-8")
    (tmp_path / "connectors.toml").write_text('[[connector]]\nid = "C901"\nback = "secret"\n', encoding="utf-8")
    return tmp_path


# -- list ---------------------------------------------------------------------------------------
def test_list_shows_every_deck_in_file_order(capsys):
    code, out, _ = run(capsys, "list")
    cards = load_default()
    assert code == 0
    for header in ("Monster deck:", "Treasure deck:", "DxM deck:", "Rooms:", "Connectors:"):
        assert header in out
    lines = out.splitlines()
    ids = [line.split()[0] for line in lines if line.startswith("  ")]
    expected = ([d.id for d in cards.monsters] + [d.id for d in cards.treasures] + [d.id for d in cards.dxm]
                + ["ENTRANCE"] + [f.id for t in cards.rooms for f in t.faces] + [c.id for c in cards.connectors])
    assert ids == expected


def test_list_one_deck(capsys):
    code, out, _ = run(capsys, "list", "--deck", "connectors")
    assert code == 0 and out.startswith("Connectors: ") and "Monster deck" not in out
    assert "  C01      corridor / " in out


def test_list_with_a_pack(capsys, house):
    code, out, _ = run(capsys, "list", "--deck", "monster", "--cards", str(house))
    assert code == 0
    assert out.splitlines()[-1].split()[0] == "M901" and "Tax Collector of the Deep" in out
    assert f"Monster deck: {len(load_default().monsters) + 1} cards" in out
    _, out, _ = run(capsys, "list", "--deck", "treasure", "--cards", str(house))
    assert "T901 " in out and "T901.2 " in out  # count expands as in the data files


# -- show ---------------------------------------------------------------------------------------
def test_show_a_monster_prints_text_and_every_field(capsys):
    code, out, _ = run(capsys, "show", "M13")
    d = load_default().card("M13")
    assert code == 0 and out.startswith("Monster card\nM13: " + d.name)
    for field in ("level", "dice", "treasure", "mighty", "size", "movement", "passes", "smashes", "keywords",
                  "bonuses", "ignores", "runaway", "bad_stuff", "rewards"):
        assert f"\n  {field}: " in out
    assert d.text.split()[0] in out


@pytest.mark.parametrize("ident, first", [("T18", "Treasure card"), ("D24", "DxM card"), ("R02a", "Room face"),
                                          ("ENTRANCE", "Room face"), ("R02", "Room tile R02 (two faces)"),
                                          ("C01", "Connector C01")])
def test_show_any_kind_of_id(capsys, ident, first):
    code, out, _ = run(capsys, "show", ident)
    assert code == 0 and out.splitlines()[0] == first


def test_show_spells_out_effects_arrows_and_backs(capsys):
    _, out, _ = run(capsys, "show", "R02a")
    assert "  arrows: red E, blue W" in out and "effects: monster_bonus(amount=-3, keyword=flying)" in out
    _, out, _ = run(capsys, "show", "C01")
    assert "back: door (front: corridor)" in out


def test_show_a_pack_card(capsys, house):
    code, out, _ = run(capsys, "show", "M901", "--cards", str(house))
    assert code == 0 and "Tax Collector of the Deep" in out and "bonuses: halfling +2" in out
    assert "bad_stuff: lose_gold(amount=100)" in out


def test_show_an_unknown_id_suggests_one(capsys):
    code, out, err = run(capsys, "show", "M133")
    assert code == 1 and out == "" and "no card, room or connector with id 'M133'" in err and "did you mean" in err


# -- validate -----------------------------------------------------------------------------------
def test_validate_the_default_set(capsys):
    code, out, _ = run(capsys, "validate")
    cards = load_default()
    assert code == 0 and out.startswith("ok: the default set\n")
    assert f"monsters:   {len(cards.monsters)} cards" in out
    assert f"connectors: {len(cards.connectors)} (" in out
    assert f"the Entrance + {len(cards.rooms)} tiles" in out


def test_validate_with_a_pack_counts_it(capsys, house):
    code, out, _ = run(capsys, "validate", "--cards", str(house))
    cards = load_default()
    assert code == 0 and f"+ the pack in {house}" in out
    assert f"monsters:   {len(cards.monsters) + 1} cards" in out
    assert f"treasure:   {len(cards.treasures) + 2} cards" in out
    assert f"the Entrance + {len(cards.rooms) + 1} tiles" in out
    assert f"connectors: {len(cards.connectors) + 1} (" in out


@pytest.mark.parametrize("file, text, parts", [
    ("monsters.toml", MONSTER.replace("level = 7", "level = 0"), ("monsters.toml: M901: level: 0 is out of range 1..20",)),
    ("monsters.toml", MONSTER.replace("M901", "M01"), ("monsters.toml: M01: id: clashes with 'Sock Mimic'",)),
    ("monsters.toml", MONSTER.replace("keywords", "kewords") + 'kewords = ["beast"]\n',
     ("monsters.toml: M901: kewords: unknown field",)),
    ("rooms.toml", '[entrance]\nname = "x"\ntext = "y"\n' + TILE, ("rooms.toml: entrance: a pack adds room tiles",)),
    ("rooms.toml", TILE.replace("R901", "R01"), ("rooms.toml: R01: id: clashes with tile R01",)),
    ("connectors.toml", '[[connector]]\nid = "C01"\nback = "door"\n', ("connectors.toml: C01: id: clashes",)),
    ("connectors.toml", '[[connector]]\nid = "C901"\nback = "portal"\n', ("C901: back: unknown connector back 'portal'",)),
    ("dxm.toml", "[[card]\n", ("dxm.toml: not valid TOML",)),
])
def test_validate_reports_the_loaders_message(capsys, tmp_path, file, text, parts):
    (tmp_path / file).write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "validate", "--cards", str(tmp_path))
    assert code == 1 and out == ""
    for part in parts:
        assert part in err, err


def test_a_pack_needs_card_files(capsys, tmp_path):
    code, _, err = run(capsys, "validate", "--cards", str(tmp_path))
    assert code == 1 and "no card files" in err
    code, _, err = run(capsys, "list", "--cards", str(tmp_path / "missing"))
    assert code == 1 and "not a directory" in err


# -- the merge ----------------------------------------------------------------------------------
def test_a_pack_and_a_scenarios_extra_cards_merge_the_same_way(house):
    """Same entry, same definition: the pack directory and a scenario's [[extra.monster]] go through
    one loader and one merge."""
    from_pack = pack.load_with_pack(house)
    base = load_default()
    assert from_pack.monsters[: len(base.monsters)] == base.monsters  # the base set comes first, unchanged
    scenario = loads(MONSTER.replace("[[monster]]", "[[extra.monster]]"), "s.toml")
    assert scenario.cards.card("M901") == from_pack.card("M901")
    assert [c.text for c in from_pack.face("R901a").green] == ["dwarf"] and from_pack.connectors[-1].back == 3


def test_extend_refuses_clashing_ids():
    base = load_default()
    extras = pack.parse({"treasure.toml": {"treasure": [{"id": "T01", "name": "x", "text": "y", "kind": "level"}]}})
    with pytest.raises(DataError, match="T01: id: clashes with"):
        pack.extend(base, extras)
    assert not pack.Extras() and extras
