"""Player counts (Q-OPT-4): 2 to 6 munchkins set up and play; 1 and 7 are refused."""
from __future__ import annotations

import pytest
from builders import act, colour, legal, monster_card, quiet, rig, stack

from mq.rules import Action, IllegalAction, actors, apply, make_params, new_game
from mq.rules.state import TURN


def _play_round(s, turns):
    """End ``turns`` turns in a row, doing charity with the first offered action."""
    seen = []
    while len(seen) < turns:
        seat = actors(s)[0]
        if s.pending is not None:
            s = apply(s, legal(s, seat)[0])
            continue
        seen.append((s.turn.seat, s.turn.number))
        s = apply(s, Action(seat, "end_turn"))
    return s, seen


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_two_to_six_players_set_up_and_take_turns_in_order(players):
    """Q-SETUP-3, 4 with 2..6 players: each seat is set up, and turns go round in turn order."""
    s = new_game(make_params(players), 21)
    assert len(s.players) == players and [p.seat for p in s.players] == list(range(players))
    assert sorted(s.order) == list(range(players))
    assert [p.gender for p in s.players] == [("male", "female")[i % 2] for i in range(players)]
    for seat in range(players):
        s = apply(s, Action(seat, "ready"))
    assert s.phase == TURN
    s, seen = _play_round(s, 2 * players)
    assert [seat for seat, _ in seen] == list(s.order) * 2
    assert [n for _, n in seen] == list(range(1, 2 * players + 1))


@pytest.mark.parametrize("players", [1, 7, 0])
def test_one_or_seven_players_are_refused(players):
    """Q-OPT-4: mq plays with 2 to 6."""
    with pytest.raises(IllegalAction) as err:
        make_params(players)
    assert err.value.reason == "action/malformed"


def test_genders_must_match_the_player_count():
    with pytest.raises(IllegalAction):
        make_params(3, genders=("male", "female"))
    assert make_params(3, genders=("female",) * 3).genders == ("female",) * 3


def test_with_six_players_every_colour_has_an_owner():
    """Q-MON-1 with 6 players: an orange monster belongs to seat 5, who draws a DxM."""
    s = quiet(6)
    a = s.turn.seat
    m = monster_card(lambda d: d.movement == "lurking" and d.level == 1)
    s = stack(s, "monster", [m])
    s = rig(s, None, None, None, None, colour(5))  # face, 3 connectors, then the base colour
    s2, ev = act(s, a, "move", 0)
    appear = [e for e in ev if e.kind == "monster_appears"][0]
    assert appear[1:4] == (1, m, s2.players[a].room) and appear[4] == 5
    assert s2.pending is None
    draws = [e for e in ev if e.kind == "draw"]
    assert [(e.seat, e.deck) for e in draws] == [(a, "dxm"), (5, "dxm")]  # explorer, then orange
    assert s2.combat is not None and s2.combat.fighter == a
