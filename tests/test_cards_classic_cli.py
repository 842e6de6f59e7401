"""``mq cards list|show|validate --mode classic`` run for real, as a subprocess of the installed
command line (mq/cards/cli.py, mq/cards/classic_show.py), with and without a pack."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mq.cards.classic_loader import load_classic_default
from mq.cards.classic_packs import load_classic_packs

CS = load_classic_default()
PACK_MONSTER = '''
[[door]]
id = "CD901"
name = "Photocopier That Jams on Purpose"
text = "-1 to run away. Bad Stuff: discard your whole hand."
kind = "monster"
level = 3
treasure = 1
effects = [{ name = "runaway", amount = -1 }]
bad_stuff = [{ name = "lose_whole_hand" }]
'''


def mq(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mq.cli", "cards", *args], capture_output=True, text=True,
                          timeout=60)


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    (tmp_path / "door.toml").write_text(PACK_MONSTER, encoding="utf-8")
    return tmp_path


def test_list_prints_both_decks_in_file_order():
    r = mq("list", "--mode", "classic")
    assert r.returncode == 0 and r.stderr == ""
    lines = r.stdout.splitlines()
    assert lines[0] == f"Door deck: {len(CS.door)} cards"
    assert f"Treasure deck: {len(CS.treasure)} cards" in lines
    ids = [line.split()[0] for line in lines if line.startswith("  ")]
    assert ids == [c.id for c in CS.door + CS.treasure]
    assert any(line.split()[1:3] == ["Wandering", "Monster"] for line in lines)  # kinds in words
    line = next(x for x in lines if x.startswith("  CD33 "))
    assert "level 16, 4 Treasure, 2 levels" in line and CS.card("CD33").name in line


def test_list_one_deck_and_refuse_a_quest_deck():
    r = mq("list", "--mode", "classic", "--deck", "treasure")
    assert r.returncode == 0 and r.stdout.startswith("Treasure deck: ") and "Door deck" not in r.stdout
    assert "  CT46     item               no slot, big, +5, 1000 gold" in r.stdout
    r = mq("list", "--mode", "classic", "--deck", "dxm")
    assert r.returncode == 2 and r.stdout == ""
    assert "'dxm' is not a deck of the classic mode (its decks: door, treasure, dungeon)" in r.stderr
    r = mq("list", "--deck", "door")  # and the other way round
    assert r.returncode == 2 and "'door' is not a deck of the quest mode" in r.stderr


def test_the_dungeons_pack_lists_shows_and_counts_its_dungeon_deck_C_PACK_7():
    """C-PACK-7: with the dungeons pack the dungeon deck is listed after the two decks (each
    dungeon's rule in words), shown and counted; without it, asked for, it says the pack is off."""
    packed = load_classic_packs(("dungeons",))
    r = mq("list", "--mode", "classic", "--packs", "dungeons")
    assert r.returncode == 0 and r.stderr == ""
    lines = r.stdout.splitlines()
    start = lines.index(f"Dungeon deck: {len(packed.dungeon)} cards")
    assert [line.split()[0] for line in lines[start + 1:]] == [d.id for d in packed.dungeon]
    first = packed.dungeon[0]
    assert lines[start + 1] == f"  {first.id:<8} {'dungeon':<18} {first.name}: every monster -1"
    assert "Dungeon deck" not in mq("list", "--mode", "classic").stdout
    r = mq("list", "--mode", "classic", "--deck", "dungeon")
    assert r.returncode == 0 and r.stdout.strip() == "Dungeon deck: 0 cards (the dungeons pack is off)"
    r = mq("show", first.id, "--mode", "classic", "--packs", "dungeons")
    assert r.returncode == 0 and r.stdout.startswith(f"Dungeon card {first.id}: {first.name}")
    assert "  rule for the whole table: every monster -1" in r.stdout
    r = mq("validate", "--mode", "classic", "--packs", "all")
    assert r.returncode == 0 and f"  Dungeon:  {len(packed.dungeon)} cards (C-PACK-7)" in r.stdout


def test_show_a_monster_in_plain_words():
    r = mq("show", "CD12", "--mode", "classic")
    assert r.returncode == 0
    out = r.stdout
    assert out.startswith("Door card CD12, monster: Haunted Wheelbarrow\n")
    for line in ("  level: 4", "  levels it gives: 1", "  Treasure: 2", "  keywords: undead, construct",
                 "  special: -1 to run away", "  Bad Stuff: lose 2 levels", "  even if you escape: lose your footgear"):
        assert line + "\n" in out, line
    assert "Nobody pushes it." in out


@pytest.mark.parametrize("ident, lines", [
    ("CT21", ("Treasure card CT21, item: Soup Ladle of Smiting", "  slot: one hand", "  value: 400 gold",
              "  usable only by: cleric", "  while in use: +2 more against undead monsters")),
    ("CD72", ("Door card CD72, class: ", "  powers: the munchkin side wins ties; in combat, discard up to 3 cards",
              "  epic powers: a two-handed item takes one hand; up to 2 big items")),
    ("CD60", ("  how long: stays until a card removes it",)),
    ("CD42", ("  level change: -5", "  Treasure change: 1 Treasure card fewer")),
    ("CD89", ("  when: at any time", "  does: every cleric goes up 1 level, even to the winning level")),
    ("CT64", ("Treasure card CT64, go-up-a-level: ", "  does: go up 1 level, never to the winning level")),
    ("human", ("The human (a munchkin without a race card)",
               "  epic powers: take a monster of level 5 or less entering your combat as your pet")),
])
def test_show_any_kind(ident, lines):
    r = mq("show", ident, "--mode", "classic")
    assert r.returncode == 0
    for line in lines:
        assert line in r.stdout, line


def test_show_an_unknown_id_suggests_one():
    r = mq("show", "CD333", "--mode", "classic")
    assert r.returncode == 1 and r.stdout == ""
    assert "no Classic card with id 'CD333' (did you mean CD33" in r.stderr


def test_validate_prints_the_counts_by_kind():
    r = mq("validate", "--mode", "classic")
    assert r.returncode == 0
    out = r.stdout
    assert out.startswith("ok: the default Classic set\n")
    monsters = sum(c.kind == "monster" for c in CS.door)
    assert f"  Door:     {len(CS.door)} cards ({monsters} monster, " in out
    assert f"  Treasure: {len(CS.treasure)} cards (" in out and "one-shot" in out and "go-up-a-level" in out
    assert f"  in all:   {len(CS.door) + len(CS.treasure)} cards" in out


def test_a_pack_is_listed_shown_and_counted(pack):
    r = mq("list", "--mode", "classic", "--deck", "door", "--cards", str(pack))
    assert r.returncode == 0 and r.stdout.splitlines()[0] == f"Door deck: {len(CS.door) + 1} cards"
    assert r.stdout.splitlines()[-1].split()[0] == "CD901"
    r = mq("show", "CD901", "--mode", "classic", "--cards", str(pack))
    assert r.returncode == 0 and "  Bad Stuff: discard your whole hand" in r.stdout
    r = mq("validate", "--mode", "classic", "--cards", str(pack))
    assert r.returncode == 0 and f"+ the pack in {pack}" in r.stdout
    assert f"  Door:     {len(CS.door) + 1} cards" in r.stdout


def test_a_bad_pack_is_refused_in_words(pack):
    (pack / "treasure.toml").write_text('[[treasure]]\nid = "CT901"\nname = "x"\ntext = "y"\nkind = "level"\n'
                                        'bonus = 1\n', encoding="utf-8")
    for command in ("list", "validate"):
        r = mq(command, "--mode", "classic", "--cards", str(pack))
        assert r.returncode == 1 and r.stdout == ""
        assert r.stderr == f"mq cards: {pack / 'treasure.toml'}: CT901: bonus: not allowed on a go-up-a-level card\n"
        assert "Traceback" not in r.stderr


def test_a_bad_mode_is_a_usage_error():
    r = mq("list", "--mode", "chess")
    assert r.returncode == 2 and "invalid choice: 'chess'" in r.stderr


def test_quest_stays_the_default_mode():
    r = mq("validate")
    assert r.returncode == 0 and r.stdout.startswith("ok: the default set\n") and "monsters:" in r.stdout
