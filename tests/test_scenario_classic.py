"""Classic scenario files (mq/scenario_classic.py, docs/scenarios.md "Classic"): a position of the
card game built from a fresh game with only the file's parts replaced, no card twice, the same
[expect] and --json shape as Quest's where it applies, and every validation error naming its field.
(The example files in scenarios/ are run by test_scenario.py with Quest's.)"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from mq import scenario as S
from mq.cards.classic_loader import load_classic_default
from mq.classic import is_classic
from mq.classic.state import Phase
from mq.rules import make_params, new_game

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
CARDS = load_classic_default()
GAME = '[game]\nmode = "classic"\n'


def load(text: str) -> S.Scenario:
    return S.loads(GAME + text, "c.toml")


def error(text: str, *parts: str) -> str:
    with pytest.raises(S.ScenarioError) as info:
        load(text)
    message = str(info.value)
    for part in parts:
        assert part in message, message
    return message


def all_cards(s) -> Counter:
    out: Counter = Counter()
    for p in s.players:
        out.update(p.hand + p.races + p.classes + p.curses + p.next_combat + tuple(it.card for it in p.items))
        out.update(c for c in (p.halfbreed, p.supermunchkin, p.pet) if c)
    for d in (s.door, s.treasure):
        out.update(d.draw + d.discard)
    return out


def test_an_empty_classic_file_is_a_fresh_game_at_its_first_turn():
    """C-SETUP-3, C-TURN-1: two players dealt 4 + 4 from the seed's decks, the first seat's turn,
    about to kick open the door."""
    s = load("").state
    fresh = new_game(make_params(2, mode="classic"), 0)
    assert is_classic(s) and s.phase == Phase.PLAY and s.turn.seat == fresh.order[0] and s.turn.phase == Phase.KICK
    assert [p.hand for p in s.players] == [p.hand for p in fresh.players]
    assert s.door == fresh.door and s.treasure == fresh.treasure


def test_no_card_exists_twice_and_the_rest_is_dealt_as_a_fresh_game_deals():
    """C-SETUP-3: placed cards leave the decks and the dealt hands; an unspecified hand gets the
    next 4 Door and 4 Treasure cards of what is left, in seat order; the decks keep the rest in
    the seed's order, under the listed top cards."""
    sc = load("""players = 3
seed = 4
epic = true
[[player]]
level = 11
races = ["CD63"]
classes = ["CD72"]
items = ["CT01"]
aside = ["CT32"]
curses = ["CD60"]
hand = ["CD01", "CT36"]
[[player]]
next_combat = ["CD58"]
[decks]
door = ["CD14", "CD20"]
treasure_discard = ["CT02"]
""")
    s = sc.state
    assert all_cards(s) == Counter(c.id for c in CARDS.door + CARDS.treasure)
    p = s.players[0]
    assert (p.level, p.races, p.classes, p.curses) == (11, ("CD63",), ("CD72",), ("CD60",))
    assert [(it.card, it.in_use) for it in p.items] == [("CT01", True), ("CT32", False)]
    assert s.door.draw[:2] == ("CD14", "CD20") and s.treasure.discard == ("CT02",)
    fresh = new_game(make_params(3, mode="classic", epic=True), 4)
    placed = {"CD63", "CD72", "CT01", "CT32", "CD60", "CD01", "CT36", "CD58", "CD14", "CD20", "CT02"}
    doors = [c for c in [c for q in fresh.players for c in q.hand if c.startswith("CD")] + list(fresh.door.draw)
             if c not in placed]
    assert [c for c in s.players[1].hand if c.startswith("CD")] == doors[:4]
    assert [c for c in s.players[2].hand if c.startswith("CD")] == doors[4:8]
    assert s.players[1].next_combat == ("CD58",) and s.door.draw[2:] == tuple(doors[8:])


@pytest.mark.parametrize("text, parts", [
    ('[[player]]\nhand = ["CT01"]\n[[player]]\nitems = ["CT01"]', ("player[1].items", "already in player[0].hand")),
    ('[[player]]\nitems = ["CD63"]', ("player[0].items", "is not an item card")),
    ('[[player]]\nraces = ["CD63", "CD66"]', ("player[0].races", "two with a Half-Breed")),
    ('[[player]]\ncurses = ["CD48"]', ("player[0].curses", "a lasting curse")),
    ('[[player]]\npet = "CD01"', ("player[0].pet", "set [game] epic = true")),
    ('[[player]]\nlevel = 10', ("player[0].level", "out of range 1..9")),
    ('[[player]]\ndead = true\nhand = ["CT01"]', ("player[0].dead", "C-DEATH-1")),
    ('[[player]]\nlevl = 2', ("player[0].levl", "did you mean 'level'")),
    ('[decks]\ndoor = ["CT01"]', ("decks.door", "is not a Door card")),
    ('[decks]\ntreasure = ["CT999"]', ("decks.treasure", "unknown card id")),
    ('winners = [0]', ("game.winners", "C-WIN")),
    ('start_cards = 3', ("game", "4 or 2 cards of each deck")),
    ('[game.turn]\nphase = "loot"', ("game.turn.phase", "unknown value 'loot'")),
    ('[[extra.monster]]\nid = "CD901"', ("extra", "not yet")),
    ('[[action]]\nseat = 0\nkind = "fly"', ("action[1].kind", "unknown value 'fly'")),
    ('[expect]\ncombat = { fightr = 0 }', ("expect.combat.fightr", "did you mean 'fighter'")),
    ('[expect]\nmonsters = 1', ("expect.monsters", "unknown key")),
])
def test_classic_validation_errors_name_the_field(text, parts):
    """Each problem names the file and the field (a bare key is one of the [game] table's)."""
    assert error(text, *parts).startswith("c.toml: ")


def test_an_unknown_mode_is_refused_in_words():
    with pytest.raises(S.ScenarioError, match="game.mode: unknown value 'chess'"):
        S.loads('[game]\nmode = "chess"\n', "c.toml")


def test_a_scenario_sets_the_packs_and_refuses_an_unknown_one_in_words_C_OPT_4_C_PACK_7():
    """C-OPT-4, C-PACK-7: ``[game] packs`` chooses the table's packs; ``dungeons`` the active ones."""
    sc = S.loads('[game]\nmode = "classic"\npacks = ["dungeons"]\ndungeons = ["CG702", "CG701"]\n', "c.toml")
    assert sc.state.params.packs == ("dungeons",) and sc.state.active == ("CG702", "CG701")
    with pytest.raises(S.ScenarioError, match="game.packs: no pack 'dungeonz': the packs are"):
        S.loads('[game]\nmode = "classic"\npacks = ["dungeonz"]\n', "c.toml")
    with pytest.raises(S.ScenarioError, match="game.dungeons: dungeons come with the dungeons pack"):
        S.loads('[game]\nmode = "classic"\ndungeons = ["CG701"]\n', "c.toml")


def test_unmet_classic_expectations_are_each_reported():
    """The same [expect] checks as Quest where they apply (phase, events, a state node's fields,
    the last fight, a player's cards), each failure in words."""
    sc = S.load(SCENARIOS / "classic_help_deal.toml")
    text = (SCENARIOS / "classic_help_deal.toml").read_text(encoding="utf-8")
    text = text[:text.index("[expect]")] + """[expect]
phase = "over"
events = ["death"]
fight = { won = false }
turn = { phase = "kick" }
[[expect.player]]
seat = 0
level = 9
in_hand = ["CT01"]
"""
    result = S.run(S.loads(text, "c.toml"))
    failures = S.check(result)
    assert S.check(S.run(sc)) == []
    assert any(f.startswith("phase: got 'play'") for f in failures)
    assert any(f.startswith("events: 'death' did not happen") for f in failures)
    assert "fight.won: got True, expected False" in failures and "turn.phase: got 'end', expected 'kick'" in failures
    assert "player[0].level: got 4, expected 9" in failures and "player[0].in_hand: got [], expected ['CT01']" in failures


def test_classic_json_shape_and_exit_codes(capsys, tmp_path):
    """``mq scenario --json`` on a Classic file: Quest's keys where they apply (no board: no
    monsters or rooms), the mode, Epic, the curse and the bodies; exit codes as Quest's."""
    assert S.main(["scenario", str(SCENARIOS / "classic_epic_arrows.toml"), "--json"]) == S.EXIT_OK
    d = json.loads(capsys.readouterr().out)
    assert list(d) == ["scenario", "title", "mode", "epic", "phase", "order", "turn", "players", "decks", "combat",
                       "curse", "pending", "bodies", "winners", "actions", "stopped", "events", "expect", "hash"]
    assert (d["mode"], d["epic"], d["phase"], d["combat"], d["expect"]) == ("classic", True, "play", None,
                                                                          {"met": True, "failures": []})
    p = d["players"][0]
    assert p["colour"] == "red" and p["level"] == 13 and p["derived"]["identity"] == ["human", "male"]
    assert set(d["decks"]) == {"door", "treasure"} and d["actions"][0] == [0, "kick", []]
    assert any(e[0] == "result" and e[4] is True for e in d["events"])
    bad = tmp_path / "bad.toml"
    bad.write_text(GAME + '[[action]]\nseat = 0\nkind = "roll"\n', encoding="utf-8")
    assert S.main(["scenario", str(bad)]) == S.EXIT_ILLEGAL
    out = capsys.readouterr().out
    assert "[1] Red: roll  -> ILLEGAL" in out and "Phase play, turn 1" in out
