"""Movement and connectors (Q-MOVE, Q-COMP-3 costs)."""
from __future__ import annotations

import pytest
from builders import (
    CORRIDOR,
    DOOR,
    LOCKED,
    SECRET,
    WALL,
    E,
    N,
    S,
    W,
    act,
    add_monster,
    add_room,
    colour,
    fresh_turn,
    kinds_of,
    legal,
    legal_kinds,
    line,
    monster_card,
    nxt,
    put,
    quiet,
    refused,
    rig,
    set_player,
    treasure_card,
)

from mq.rules import Action

BOOTS = treasure_card(lambda d: d.kind == "item" and not d.only and not d.not_for
                      and any(e.name == "move" and e.get("amount") == 1 for e in d.effects))


def _moves(s, seat):
    return {(a.kind, a.args[0]) for a in legal(s, seat) if a.kind in ("move", "dash")}


@pytest.mark.parametrize("kind,cost", [(CORRIDOR, 1), (DOOR, 1), (LOCKED, 2)])
def test_connector_move_costs(kind, cost):
    """Q-MOVE-1 (Q-COMP-3): corridor 1, door 1, locked door 2."""
    s = quiet(2)
    a = s.turn.seat
    s, (r1, r2) = line(s, 2, kinds=(kind,))
    s, ev = act(s, a, "move", E)
    assert s.turn.spent == 1 and s.players[a].room == r1
    s, ev = act(s, a, "move", E)
    assert s.turn.spent == 1 + cost and s.players[a].room == r2
    assert ev[0] == ("move", a, r1, r2, False)


def test_secret_door_costs_three():
    """Q-MOVE-1: a secret door costs 3, a whole turn's base move."""
    s = quiet(2)
    a = s.turn.seat
    s, (r1, r2) = line(s, 2, kinds=(SECRET,))
    s = set_player(s, a, room=r1)
    s, _ = act(s, a, "move", E)
    assert s.turn.spent == 3 and s.players[a].room == r2 and not s.turn.dashed


def test_walls_are_impassable_and_do_not_join_rooms():
    """Q-MOVE-1: a wall cannot be crossed at all (not even by spending all move); rooms joined only
    by a wall are not adjacent."""
    s = quiet(2)
    a = s.turn.seat
    s, (r1, r2) = line(s, 2, kinds=(WALL,))
    s = set_player(s, a, room=r1)
    assert _moves(s, a) == {("move", W)}
    assert refused(s, a, "move", E) == "move/wall"
    assert refused(s, a, "dash", E) == "move/wall"


def test_not_enough_move_left():
    """Q-MOVE-1: with 1 move left a locked door (2) cannot be walked through."""
    s = quiet(2)
    a = s.turn.seat
    s, (r1, r2) = line(s, 2, kinds=(LOCKED,))
    s = set_player(s, a, room=r1)
    s = fresh_turn(s, a, spent=2)
    assert ("move", E) not in _moves(s, a)
    assert refused(s, a, "move", E) == "move/not-enough"


def test_dash_spends_everything_to_cross_any_connector_once():
    """Q-MOVE-2: once per turn, spend all remaining move (here 1) to cross a connector costing more."""
    s = quiet(2)
    a = s.turn.seat
    s, (r1, r2, r3) = line(s, 3, kinds=(SECRET, LOCKED))
    s, _ = act(s, a, "move", E)
    assert _moves(s, a) == {("move", W), ("dash", E)}  # 2 left, the secret door costs 3
    s = fresh_turn(s, a, spent=2)
    assert _moves(s, a) == {("move", W), ("dash", E)}
    s, ev = act(s, a, "dash", E)
    assert ev[0] == ("move", a, r1, r2, True)
    assert s.players[a].room == r2 and s.turn.spent == 3 and s.turn.dashed
    # the second expensive connector: no move left and the dash is used
    assert _moves(s, a) == set()
    assert refused(s, a, "dash", E) == "move/dash-used"


def test_dash_with_zero_move_left():
    """Q-MOVE-2: the dash works 'even with 0' remaining move."""
    s = quiet(2)
    a = s.turn.seat
    s, (r1, r2) = line(s, 2)
    s = set_player(s, a, room=r1)
    s = fresh_turn(s, a, spent=3)
    assert _moves(s, a) == {("dash", W), ("dash", E)}
    s, _ = act(s, a, "dash", E)
    assert s.players[a].room == r2 and s.turn.spent == 3


def test_no_dash_from_a_room_walled_on_every_side():
    """Q-MOVE-2: unless every side of your room is a wall."""
    s = quiet(2)
    a = s.turn.seat
    s = add_room(s, 5, 5, (WALL, WALL, WALL, WALL))
    s = set_player(s, a, room=len(s.rooms) - 1)
    s = fresh_turn(s, a, spent=3)
    assert _moves(s, a) == set()
    assert legal_kinds(s, a) >= {"end_turn"}


def test_unused_move_does_not_carry_over():
    """Q-MOVE-3: each turn starts with the full 3 move, never more."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, (r1, r2, r3, r4) = line(s, 4)
    s = rig(s, colour(5), colour(5))
    s, _ = act(s, a, "end_turn")  # a spent nothing
    s, _ = act(s, b, "end_turn")
    assert s.turn.seat == a and s.turn.spent == 0
    for room in (r1, r2, r3):
        s, _ = act(s, a, "move", E)
        assert s.players[a].room == room
    assert _moves(s, a) == {("dash", W), ("dash", E)}


def test_more_move_mid_turn_counts_from_the_start():
    """Q-MOVE-3: putting on +1 move boots after spending 3 gives one more step."""
    s = quiet(2)
    a = s.turn.seat
    s, (r1, r2, r3, r4) = line(s, 4)
    s = put(s, a, (BOOTS, "backpack"))
    s = set_player(s, a, room=r3)
    s = fresh_turn(s, a, spent=3)
    assert ("move", E) not in _moves(s, a)
    s, _ = act(s, a, "equip", BOOTS, "worn")
    s, _ = act(s, a, "move", E)
    assert s.players[a].room == r4 and s.turn.spent == 4 and not s.turn.dashed


def test_less_move_than_already_spent_stops_moving_without_penalty():
    """Q-MOVE-3: dropping below what was spent stops movement; nothing else happens."""
    s = quiet(2)
    a = s.turn.seat
    s, (r1, r2, r3, r4) = line(s, 4)
    s = put(s, a, (BOOTS, "worn"))
    s = set_player(s, a, room=r3)
    s = fresh_turn(s, a, spent=3)
    assert ("move", E) in _moves(s, a)
    s, _ = act(s, a, "equip", BOOTS, "backpack")
    assert ("move", E) not in _moves(s, a) and ("move", W) not in _moves(s, a)
    assert s.turn.spent == 3 and s.players[a].room == r3 and s.players[a].hp == 4


def test_running_away_costs_no_move():
    """Q-MOVE-4 (and Q-COMBAT-3): the fight and the run away cost nothing."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, (r1, r2) = line(s, 2)
    big = monster_card(lambda d: d.level >= 10 and d.movement == "lurking" and d.dice == 0)
    s = add_monster(s, big, r2, b)
    s = set_player(s, a, room=r1)
    s = fresh_turn(s, a, spent=1)
    s, _ = act(s, a, "move", E)
    assert s.combat is not None and s.turn.spent == 2
    s = rig(s, 1, 6)  # lose the fight, then escape with a 6
    s, _ = act(s, a, "roll")
    s, _ = act(s, a, "run", r1)
    s, ev = act(s, a, "escape", s.combat.to_escape[0])
    assert s.combat is None and s.players[a].room == r1 and s.turn.spent == 2
    assert ("move", E) in _moves(s, a)


def test_crossing_into_darkness_explores():
    """Q-MOVE-5: a connector with no room beyond leads to a new room."""
    s = quiet(2)
    a = s.turn.seat
    s, ev = act(s, a, "move", S)
    assert kinds_of(ev, "explore")[0][1:3] == (a, 1)
    assert (s.rooms[1].x, s.rooms[1].y) == (0, 1) and s.players[a].room == 1
    assert s.turn.spent == 1
    assert Action(a, "move", (N,)) not in legal(s, a)  # the fight comes first
