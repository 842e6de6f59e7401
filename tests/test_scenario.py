"""Scenario files (mq/scenario.py, docs/scenarios.md): every example in scenarios/ runs and meets
its [expect] table; positions are fresh games with only the file's parts replaced; no card exists
twice; every validation error names its field; the command's exit codes and JSON shape."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from mq import scenario as S
from mq.cards import DataError, load_default
from mq.rules import Action, make_params, new_game, state_hash, step
from mq.rules.state import OVER, SETUP, TURN

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
EXAMPLES = sorted(SCENARIOS.glob("*.toml"))
ROOM1 = '[[room]]\nface = "R16b"\nx = 1\ny = 0\nsides = ["wall", "wall", "wall", "corridor"]\n'


def load(text: str) -> S.Scenario:
    return S.loads(text, "t.toml")


def error(text: str, *parts: str) -> str:
    """Loading ``text`` fails; the message contains every part."""
    with pytest.raises((S.ScenarioError, DataError)) as info:
        load(text)
    message = str(info.value)
    for part in parts:
        assert part in message, message
    return message


# -- the example files -------------------------------------------------------------------------
def test_there_are_examples_and_each_says_what_it_expects():
    assert len(EXAMPLES) >= 4
    for path in EXAMPLES:
        assert S.load(path).expect, f"{path.name} has no [expect] table"


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_meets_its_expectations(path):
    result = S.run(S.load(path))
    assert S.check(result) == []
    assert S.narrate(result) and S.describe(result.state, result.scenario.cards)
    json.dumps(S.to_json(result))  # serialisable


def test_the_rulebook_combat_has_the_books_numbers():
    """Strength 12 + helper 18 against 6 + 6 vs warriors + 10 + a thrown 5 (Q-COMBAT-4, Q-HELP-3,
    Q-ITEM-9); the warrior has no die in a room bad for warriors (Q-COMBAT-6); a loaded die turns
    the 1 into a 6 (Q-COMBAT-7); an elf helper goes up a level (Q-CHAR-4)."""
    result = S.run(S.load(SCENARIOS / "rulebook_combat.toml"))
    fight = S.last_fight(result)
    mine = dict(fight["terms"])
    assert mine == {"level": 5, "items": 2, "one-shots": 5, "room": 0, "helper": 18}
    monster, thrown = fight["monster_terms"]
    assert dict(monster) == {"level": 6, "enhancers": 10, "vs": 6, "room": 0} and thrown == [["one-shots", 5]]
    assert (fight["total"], fight["monster_total"]) == (36, 33)
    changed = [e for e in result.events if e.kind == "die_changed"]
    assert [e[1:] for e in changed] == [(3, "D906", "munchkins", 0, 6)]
    # before the loaded die the dice were the book's: 1 for Kelandur, 6 for the monster (31:33)
    state = result.scenario.state
    for action, _ in result.steps:
        if action.kind == "set_die":
            break
        state = step(state, action, result.scenario.cards)[0]
    assert state.combat.my_dice == (1,) and state.combat.their_dice == ((6,),)
    levels = [e[1:] for e in result.events if e.kind == "level"]
    assert levels[:2] == [(0, 6, "kill"), (3, 10, "kill")]


def test_a_player_may_play_two_cards_in_a_row_in_the_window():
    """Q-DIGI-2: after her +5 Kelandur may follow up with her -5 at once."""
    result = S.run(S.load(SCENARIOS / "rulebook_combat_window.toml"))
    assert result.stopped is None and result.state.monsters[0].enhancers == ("D901", "D902", "D903")


# -- building a position -----------------------------------------------------------------------
def test_an_empty_file_is_a_fresh_game_at_its_first_turn():
    sc = load("")
    fresh = new_game(make_params(2), 0)
    s = sc.state
    assert s.phase == TURN and s.turn.seat == fresh.order[0] and s.turn.number == 1
    assert s.order == fresh.order and s.rng_n == fresh.rng_n
    assert [p.hand for p in s.players] == [p.hand for p in fresh.players]
    for deck in ("monster_deck", "treasure_deck", "dxm_deck", "room_deck", "connector_deck"):
        assert getattr(s, deck) == getattr(fresh, deck)
    assert all(p.ready and p.level == 1 and p.hp == 4 and p.gold == 300 for p in s.players)
    assert sc.setup_events == () and sc.actions == () and sc.expect is None


def test_the_setup_phase_keeps_the_fresh_state():
    s = load('[game]\nplayers = 3\nseed = 11\nphase = "setup"').state
    fresh = new_game(make_params(3), 11)
    assert s == fresh and s.phase == SETUP and s.turn is None


def test_loading_is_deterministic():
    text = (SCENARIOS / "rulebook_combat.toml").read_text(encoding="utf-8")
    assert state_hash(load(text).state) == state_hash(load(text).state)


def all_cards(s) -> Counter:
    out: Counter = Counter()
    for p in s.players:
        out.update(p.hand + p.races + p.classes + p.hybrids + tuple(it.card for it in p.items))
    for r in s.rooms:
        out.update(r.pile)
    for m in s.monsters:
        out.update((m.card,) + m.enhancers)
    for d in (s.monster_deck, s.treasure_deck, s.dxm_deck):
        out.update(d.draw + d.discard)
    return out


def test_no_card_exists_twice_and_none_is_lost():
    """Placed cards leave the decks and the dealt hands; the rest of each deck keeps the seed's order."""
    sc = load(f"""
[game]
players = 3
seed = 4
{ROOM1}
gold = 50
pile = ["T02"]
[[player]]
worn = ["T01"]
hand = ["D01"]
[[player]]
classes = ["D09"]
[[monster]]
card = "M01"
room = 1
colour = "green"
enhancers = ["D40"]
[decks]
treasure = ["T03", "T04"]
dxm_discard = ["D23"]
""")
    s = sc.state
    cards = load_default()
    everything = Counter(c.id for c in cards.monsters + cards.treasures + cards.dxm)
    assert all_cards(s) == everything
    assert s.treasure_deck.draw[:2] == ("T03", "T04") and s.dxm_deck.discard == ("D23",)
    fresh = new_game(make_params(3), 4)
    placed = {"T01", "T02", "T03", "T04", "D01", "D09", "D23", "D40", "M01"}
    # unspecified hands (seats 1 and 2) are dealt from the seed's order, in seat order
    shuffled_t = [c for p in fresh.players for c in p.hand if c.startswith("T")] + list(fresh.treasure_deck.draw)
    rest_t = [c for c in shuffled_t if c not in placed]
    assert [c for c in s.players[1].hand if c.startswith("T")] == rest_t[:3]
    assert [c for c in s.players[2].hand if c.startswith("T")] == rest_t[3:6]
    assert s.treasure_deck.draw[2:] == tuple(rest_t[6:])
    assert s.rooms[1].pile == ("T02",) and s.rooms[1].pile_gold == 50
    assert s.monsters[0].uid == 1 and s.next_uid == 2 and s.monsters[0].enhancers == ("D40",)


def test_only_and_tile_placement():
    """Placed tiles leave the room deck; ``only`` empties a deck: a complete dungeon (Q-EXPLORE-6)."""
    s = load(ROOM1 + '[decks]\nrooms = ["R01"]\n').state
    assert s.room_deck.draw[0] == "R01" and "R16" not in s.room_deck.draw
    sc = load(ROOM1 + '[[player]]\nroom = 1\n[game.turn]\nseat = 0\n[decks]\nrooms = []\nonly = ["rooms"]\n'
              '[[action]]\nseat = 0\nkind = "move"\nargs = ["W"]\n[[action]]\nseat = 0\nkind = "move"\nargs = ["N"]\n'
              '[expect]\nreason = "move/dungeon-complete"\nat = 2\n')
    assert sc.state.room_deck.draw == ()
    assert S.check(S.run(sc)) == []


def test_a_fight_starts_while_the_position_settles():
    """Q-TURN-5, Q-COMBAT-1: the active munchkin in a room with a hostile monster fights at once."""
    sc = load(ROOM1 + '[game]\norder = [0, 1]\n[[player]]\nroom = 1\n'
              '[[monster]]\ncard = "M901"\nroom = 1\ncolour = "green"\n'
              '[[extra.monster]]\nid = "M901"\nname = "Test Dummy"\ntext = "Does nothing."\n'
              'level = 2\ndice = 0\ntreasure = 1\nbad_stuff = [{ name = "hits", n = 1 }]\n')
    assert sc.state.combat.fighter == 0 and sc.state.combat.monsters == (1,)
    assert [e.kind for e in sc.setup_events] == ["combat_starts"]
    assert sc.cards.card("M901").name == "Test Dummy"
    assert S.narrate(S.run(sc))[0] == "(the position settles)"


def test_player_fields_and_derived_hp():
    sc = load('[game]\nplayers = 2\ngenders = ["female", "female"]\n'
              '[[player]]\nlevel = 4\nmax_hp = 5\nhp = 2\ngold = 999\ncursed = -2\nraces = ["D04"]\n'
              'carried = ["T18"]\nbackpack = ["T01", "T02"]\n'
              '[[player]]\nalive = false\nhand = ["D23"]\n[game.turn]\nseat = 0\nnumber = 7\nspent = 2\ndashed = true\n')
    p, dead = sc.state.players
    assert (p.level, p.max_hp, p.hp, p.gold, p.cursed, p.races) == (4, 5, 2, 999, -2, ("D04",))
    assert [(it.card, it.place) for it in p.items] == [("T18", "carried"), ("T01", "backpack"), ("T02", "backpack")]
    assert (dead.alive, dead.hp, dead.gold, dead.hand) == (False, 0, 0, ("D23",))
    t = sc.state.turn
    assert (t.seat, t.number, t.spent, t.dashed) == (0, 7, 2, True)
    assert load("[[player]]\nworn = [\"T01\"]").state.players[0].hp == 4  # default hp: the maximum


def test_cheats_and_other_turn_fields():
    """A Cheat! item needs no hands (Q-ITEM-4): two two-handed weapons carried; any Turn field by name."""
    sc = load('[[player]]\ncarried = ["T23", "T24"]\ncheats = { T23 = "D62" }\n'
              '[game.turn]\nspent = 1\nsearched = [0]\nstole = true\n')
    assert [(it.card, it.place, it.cheat) for it in sc.state.players[0].items] == [
        ("T23", "carried", "D62"), ("T24", "carried", "")]
    t = sc.state.turn
    assert (t.spent, t.searched, t.stole) == (1, (0,), True)
    error('[[player]]\ncarried = ["T23", "T24"]', "player[0].carried", "no room left for a hands item (2 hands)")
    error('[[player]]\ncarried = ["T23"]\ncheats = { T24 = "D62" }', "player[0].cheats.T24", "not an item this player has")
    error('[[player]]\ncarried = ["T23"]\ncheats = { T23 = "D23" }', "player[0].cheats.T23", "not a Cheat! card")
    error("[game.turn]\nsearched = [4]", "game.turn.searched", "out of range")
    error("[game.turn]\nspnt = 1", "game.turn.spnt", "did you mean 'spent'")


def test_lasting_curses_stay_on_their_victim():
    """Q-CARD-8: a lasting curse in play changes the munchkin (here their move)."""
    cards = load_default()
    curse = next(d.id for d in cards.dxm if any(e.name == "lasting_move" for e in d.effects))
    sc = load(f'[[player]]\ncurses = ["{curse}"]\n[[expect.player]]\nseat = 0\ncurses = ["{curse}"]\n')
    p = sc.state.players[0]
    assert p.curses == (curse,) and S.check(S.run(sc)) == []
    assert S.to_json(S.run(sc))["players"][0]["derived"]["move"] == 3 + next(
        e.get("amount") for e in cards.card(curse).effects if e.name == "lasting_move")
    error('[[player]]\ncurses = ["D23"]', "player[0].curses", "not a lasting curse")


def test_monster_standees():
    """Q-COMP-4: a placed monster stands on a standee of its size, as a new one would (the 9th huge
    monster on a human-sized one: the box has 8 huge), unless the file names another size; never
    more of a size than the set has."""
    cards = load_default()
    huge = [d.id for d in cards.monsters if d.size == "huge"][:9]
    text = "[game]\nplayers = 3\n" + ROOM1 + "".join(
        f'[[monster]]\ncard = "{c}"\nroom = 1\ncolour = "{("red", "green", "blue")[i % 3]}"\n' for i, c in enumerate(huge[:8]))
    sc = load(text + f'[[monster]]\ncard = "{huge[8]}"\nroom = 1\ncolour = "blue"\n'
                     '[[expect.monster]]\nuid = 9\nstandee = "human"\n')
    assert [m.standee for m in sc.state.monsters] == ["huge"] * 8 + ["human"] and S.check(S.run(sc)) == []
    assert S.to_json(S.run(sc))["monsters"][8]["standee"] == "human"
    tiny = load(text + '[[monster]]\ncard = "M01"\nroom = 1\ncolour = "blue"\nstandee = "tiny"\n')
    assert tiny.state.monsters[-1].standee == "tiny"
    error(text + '[[monster]]\ncard = "M01"\nroom = 1\ncolour = "blue"\nstandee = "huge"\n',
          "monster[9].standee", "no huge standee is left")
    error(ROOM1 + '[[monster]]\ncard = "M01"\nroom = 1\ncolour = "red"\nstandee = "giant"', "monster[1].standee", "unknown value")


def test_an_over_game_and_its_reason():
    sc = load('[game]\nphase = "over"\nwinners = [1]\n[[action]]\nseat = 0\nkind = "end_turn"\n'
              '[expect]\nreason = "game/over"\nphase = "over"\nwinners = [1]\n')
    assert sc.state.phase == OVER
    assert S.check(S.run(sc)) == []


def test_an_over_game_without_winners_when_every_munchkin_is_dead():
    """Q-DEATH-5: a game may be over with no winner only when the monsters won."""
    sc = load('[game]\nphase = "over"\n[[player]]\nalive = false\n[[player]]\nalive = false\n'
              '[expect]\nphase = "over"\nwinners = []\n')
    assert sc.state.phase == OVER and sc.state.winners == ()
    assert S.check(S.run(sc)) == []
    error('[game]\nphase = "over"\n[[player]]\nalive = false\n', "game.winners", "the monsters won")


# -- validation --------------------------------------------------------------------------------
@pytest.mark.parametrize("text, parts", [
    ('titel = "x"', ("t.toml: titel: unknown key", "did you mean 'title'")),
    ("[game]\nplayrs = 3", ("game.playrs: unknown key", "'players'")),
    ("[game]\nplayers = 7", ("game.players", "out of range 2..6")),
    ('[game]\nplayers = 2\ngenders = ["male"]', ("game.genders", "1 genders for 2 players")),
    ("[game]\norder = [0, 0]", ("game.order", "every seat")),
    ('[game]\nphase = "over"', ("game.winners", "has winners", "every munchkin is dead")),
    ("[game]\nwinners = [0]", ("game.winners", "only a game that is over")),
    ('[game]\nphase = "setup"\n[game.turn]\nseat = 0', ("game.turn", "no turn yet")),
    ("[[player]]\nlevel = 11", ("player[0].level", "out of range 1..10")),
    ('[[player]]\nhand = ["T9999"]', ("player[0].hand", "unknown card id 'T9999'")),
    ('[[player]]\nhand = ["t01"]', ("did you mean 'T01'",)),
    ('[[player]]\nhand = ["M01"]', ("player[0].hand", "never go into a hand")),
    ('[[player]]\nhand = ["T01"]\n[[player]]\nworn = ["T01"]',
     ("player[1].worn", "T01 is already in player[0].hand: no card exists twice")),
    ('[[player]]\nhand = ["T03"]\n[decks]\ntreasure = ["T03"]', ("decks.treasure", "already in player[0].hand")),
    ('[[player]]\nraces = ["D09"]', ("player[0].races", "is not a race card")),
    ('[[player]]\nraces = ["D01", "D04"]', ("player[0].races", "at most 1")),
    ('[[player]]\ncarried = ["T01"]', ("player[0].carried", "head item: it goes worn, not carried")),
    ('[[player]]\nworn = ["T01", "T02"]', ("player[0].worn", "no room left for a head item")),
    ('[[player]]\nbackpack = ["T01", "T02", "T03"]', ("player[0].backpack", "at most 2")),
    ('[[player]]\nalive = false\nworn = ["T01"]', ("player[0].alive", "no items in play")),
    ("[[player]]\nhp = 5", ("player[0].hp", "1..4")),
    ("[[player]]\nroom = 3", ("player[0].room", "not a room index")),
    ("[[player]]\nseat = 1", ("player[0].seat", "seat order")),
    ("[[player]]\nready = false", ("player[0].ready", "ready")),
    ("[game]\norder = [0, 1]\n[[player]]\nalive = false", ("game.turn.seat", "dead munchkin's turn")),
    ('[[room]]\nface = "R01a"\nx = 0\ny = 0\nsides = ["wall", "wall", "wall", "wall"]', ("room[1].x", "(0, 0) already holds room[0]")),
    ('[[room]]\nface = "R99a"\nx = 5\ny = 5\nsides = ["wall", "wall", "wall", "wall"]', ("room[1].face", "unknown room face")),
    ('[[room]]\nface = "R01a"\nx = 5\ny = 5\nsides = ["wall", "wall", "wall", "wal"]', ("room[1].sides", "'wal'", "did you mean 'wall'")),
    ('[[room]]\nface = "R01a"\nx = 5\ny = 5\nsides = ["wall", "wall", "wall"]', ("room[1].sides", "four")),
    ('[[room]]\nface = "R01a"\nx = 1\ny = 0\nsides = ["wall", "wall", "wall", "door"]',
     ("room[1].sides", "its W side is a door but room[0] next to it has a corridor on its E side")),
    ('[[room]]\nface = "R01a"\nx = 5\ny = 5\nsides = ["wall", "wall", "wall", "wall"]\n'
     '[[room]]\nface = "R01b"\nx = 7\ny = 5\nsides = ["wall", "wall", "wall", "wall"]', ("room[2].face", "tile R01 is already placed")),
    ('[[room]]\nface = "R01b"\nx = 5\ny = 5\nsides = ["wall", "wall", "wall", "wall"]\nmark = "searched"', ("room[1].mark", "cannot be searched")),
    ('[[room]]\nface = "ENTRANCE"\nx = 1', ("room[0].x", "(0, 0)")),
    ('[[room]]\nface = "R01a"\nx = 5\ny = 5\nsides = ["wall", "wall", "wall", "wall"]\n[[room]]\nface = "ENTRANCE"',
     ("room[2].face", "the Entrance is room 0")),
    (ROOM1 + '[[monster]]\ncard = "M01"\nroom = 1\ncolour = "pink"', ("monster[1].colour", "unknown value 'pink'")),
    (ROOM1 + '[[monster]]\ncard = "M01"\nroom = 1\ncolour = "blue"', ("monster[1].colour", "nobody plays blue")),
    (ROOM1 + '[[monster]]\ncard = "T01"\nroom = 1\ncolour = "red"', ("monster[1].card", "is not a Monster card")),
    ('[[monster]]\ncard = "M01"\nroom = 0\ncolour = "red"', ("monster[1].room", "Q-LAW-4")),
    (ROOM1 + '[[monster]]\ncard = "M01"\nroom = 1\ncolour = "red"\nboss = true', ("monster[1].room", "Q-LAW-5")),
    (ROOM1 + '[[monster]]\ncard = "M01"\nroom = 1\ncolour = "red"\nenhancers = ["D23"]', ("monster[1].enhancers", "not a monster enhancer")),
    (ROOM1 + "".join(f'[[monster]]\ncard = "M0{i}"\nroom = 1\ncolour = "red"\n' for i in range(1, 5)),
     ("monster[4].colour", "a fourth monster on a red base")),
    ('[decks]\nrooms = ["R01a"]', ("decks.rooms", "unknown room tile", "tile ids, not faces")),
    ('[decks]\nconnectors = ["C01", "C01"]', ("decks.connectors", "listed twice")),
    ('[decks]\nonly = ["room"]', ("decks.only", "did you mean 'rooms'")),
    ('[decks]\nmonster = ["T01"]', ("decks.monster", "is not a Monster card")),
    ('[[action]]\nseat = 0\nkind = "mvoe"', ("action[1].kind", "did you mean 'move'")),
    ('[[action]]\nseat = 0\nkind = "move"\nargs = [1.5]', ("action[1].args", "integers and strings")),
    ('[[action]]\nseat = 5\nkind = "roll"', ("action[1].seat", "out of range")),
    ('[[action]]\nseat = 0\nkind = "roll"\nsay = 1', ("action[1].say", "must be a string")),
    ("[expect]\nwinner = [0]", ("expect.winner", "did you mean 'winners'")),
    ('[expect]\nreason = "mvoe/wall"', ("expect.reason", "did you mean 'move/wall'")),
    ("[[expect.player]]\nlevel = 2", ("expect.player[0].seat", "missing")),
    ("[[expect.player]]\nseat = 0\nlvl = 2", ("expect.player[0].lvl", "unknown key")),
    ("[expect.combat]\nstage = 1", ("expect.combat.stage", "must be a string")),
    ('[[extra.monsters]]\nid = "M901"', ("extra.monsters", "unknown card table", "did you mean 'monster'")),
    ('[[extra.monster]]\nid = "M901"\nname = "x"\ntext = "y"\nlevel = 0\ndice = 1\ntreasure = 1\nbad_stuff = [{ name = "hits", n = 1 }]',
     ("t.toml: [[extra.monster]]: M901: level: 0 is out of range 1..20",)),
    ('[[extra.monster]]\nid = "M01"\nname = "x"\ntext = "y"\nlevel = 1\ndice = 1\ntreasure = 1\nbad_stuff = [{ name = "hits", n = 1 }]',
     ("[[extra.monster]]: M01: id: clashes with 'Sock Mimic'",)),
    ("[game\n", ("t.toml: not valid TOML",)),
])
def test_validation_errors_name_the_field(text, parts):
    error(text, *parts)


def test_a_missing_file_is_a_scenario_error(tmp_path):
    with pytest.raises(S.ScenarioError, match="nope.toml"):
        S.load(tmp_path / "nope.toml")


# -- running and checking ----------------------------------------------------------------------
def test_an_unexpected_illegal_action_and_unmet_expectations_are_reported():
    sc = load(ROOM1 + '[[player]]\nroom = 1\n[game.turn]\nseat = 0\n'
              '[[action]]\nseat = 0\nkind = "move"\nargs = ["E"]\n'
              '[expect]\nmonsters = 1\nevents = ["explore"]\n[[expect.player]]\nseat = 0\nlevel = 3\n')
    result = S.run(sc)
    assert result.stopped == S.Stop(1, Action(0, "move", (1,)), "move/wall", "")
    failures = S.check(result)
    assert any("action 1 (0:move 1) is illegal: move/wall" in f for f in failures)
    assert any("number of monsters: got 0, expected 1" in f for f in failures)
    assert any("'explore' did not happen" in f for f in failures)
    assert any("player[0].level: got 1, expected 3" in f for f in failures)


def test_an_expected_illegal_action_that_does_not_happen_is_a_failure():
    sc = load('[[action]]\nseat = 0\nkind = "suicide"\n[expect]\nreason = "move/wall"\n'
              '[game]\norder = [0, 1]\n')
    assert S.check(S.run(sc)) == ["expected an illegal action (move/wall), but every action was legal"]


# -- the command ---------------------------------------------------------------------------------
def write(tmp_path, text: str) -> str:
    path = tmp_path / "s.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_exit_codes(tmp_path, capsys):
    assert S.main(["scenario", str(SCENARIOS / "first_steps.toml")]) == S.EXIT_OK
    assert S.main(["scenario", str(SCENARIOS / "wall.toml")]) == S.EXIT_ILLEGAL
    assert S.main(["scenario", write(tmp_path, "[game]\nplayers = 9")]) == S.EXIT_INVALID
    assert "game.players" in capsys.readouterr().err
    assert S.main(["scenario", write(tmp_path, "[expect]\nphase = \"over\"")]) == S.EXIT_EXPECT
    out = capsys.readouterr().out
    assert "Expectations: NOT MET" in out and "phase: got 'turn', expected 'over'" in out
    # no [expect]: an illegal action still exits 1
    assert S.main(["scenario", write(tmp_path, '[[action]]\nseat = 0\nkind = "roll"')]) == S.EXIT_ILLEGAL


def test_text_output_narrates_and_describes(capsys):
    S.main(["scenario", str(SCENARIOS / "first_steps.toml")])
    out = capsys.readouterr().out
    assert out.startswith("== First steps: explore, fight, win ==")
    assert "[1] Red: move 1" in out and "Red explores (1,0)" in out and "Red wins." in out
    assert "Red     level 2" in out and "State hash " in out and "Expectations: met" in out


def test_json_shape(capsys):
    assert S.main(["scenario", str(SCENARIOS / "wall.toml"), "--json"]) == S.EXIT_ILLEGAL
    d = json.loads(capsys.readouterr().out)
    assert list(d) == ["scenario", "title", "phase", "order", "turn", "players", "monsters", "rooms", "decks",
                       "combat", "pending", "winners", "actions", "stopped", "events", "expect", "hash"]
    assert d["stopped"] == {"action": 1, "seat": 0, "kind": "move", "args": [1], "reason": "move/wall",
                            "detail": "", "message": "a wall is in the way"}
    assert d["rooms"][1] == {"index": 1, "face": "R16b", "x": 1, "y": 0, "sides": ["wall", "wall", "wall", "corridor"],
                             "mark": "none", "pile": [], "gold": 0}
    p = d["players"][0]
    assert p["colour"] == "red" and p["derived"] == {"max_hp": 4, "move": 3, "identity": ["human", "male"]}
    assert {"seat", "level", "hp", "max_hp", "gold", "room", "alive", "hand", "items"} <= set(p)
    assert d["combat"] is None and d["pending"] is None and d["expect"] == {"met": True, "failures": []}
    assert len(d["hash"]) == 16 and int(d["hash"], 16) >= 0


def test_json_of_a_fight(capsys):
    S.main(["scenario", str(SCENARIOS / "rulebook_combat_window.toml"), "--json"])
    d = json.loads(capsys.readouterr().out)
    assert d["monsters"] == [{"uid": 1, "card": "M901", "room": 5, "colour": "green", "boss": False,
                              "enhancers": ["D901", "D902", "D903"], "level": 16, "standee": "human"}]
    c = d["combat"]
    assert (c["stage"], c["fighter"], c["helper"], c["waiting"], c["used"]) == ("window", 0, 3, [0, 1, 3], ["T902", "T903"])
    assert d["events"][0][:3] == ["explore", 0, 5]
    assert d["actions"][:2] == [[0, "move", [1]], [0, "use", ["T902"]]]
