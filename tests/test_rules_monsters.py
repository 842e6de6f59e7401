"""Monsters through the engine: bases and owners (Q-MON) and the monster turn (Q-MT): the colour
roll and its DxM, movement by arrows, smashing, the Entrance, gotcha and wrap-around.  (The core's
movement details are unit-tested in test_core_monster_turn.py.)"""
from __future__ import annotations

from builders import (
    CARDS,
    CORRIDOR,
    DOOR,
    LOCKED,
    RED,
    WALL,
    E,
    W,
    act,
    add_monster,
    add_room,
    arrow_face,
    colour,
    kinds_of,
    legal,
    line,
    monster_card,
    nxt,
    quiet,
    refused,
    rig,
    set_player,
    stack,
)

from mq.rules import Action

NORMAL = monster_card(lambda d: d.movement == "normal" and not d.passes and not d.smashes and not d.ignores)
FAST = monster_card(lambda d: d.movement == "fast" and not d.passes and not d.smashes)
SLOW = monster_card(lambda d: d.movement == "slow" and not d.passes and not d.smashes)
LURKER = monster_card(lambda d: d.movement == "lurking" and d.level == 1)
BACKWARDS = monster_card(lambda d: d.movement == "backwards" and not d.passes and not d.smashes)
SMASHER = monster_card(lambda d: d.movement == "normal" and d.smashes and not d.passes)
LOCKPICK = monster_card(lambda d: d.movement == "normal" and d.passes == ("locked",) and not d.smashes)

TO_E, TO_W, STAY = arrow_face(RED, E), arrow_face(RED, W), arrow_face(RED, -1)


def _monster_turn(s, c=RED):
    """The active player ends the turn and the monster die shows ``c``."""
    return act(rig(s, colour(c)), s.turn.seat, "end_turn")


def _rooms_of(s):
    return {m.uid: m.room for m in s.monsters}


# -- Q-MON ------------------------------------------------------------------------------------
def test_unowned_colour_lets_the_spawner_choose_and_nobody_draws():
    """Q-MON-1: a rolled colour nobody plays has no free base: the explorer picks one of the
    colours with a free base, and nobody draws a DxM for it."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s = stack(s, "monster", [LURKER])
    s = rig(s, None, None, None, None, colour(4))
    s, ev = act(s, a, "move", E)
    assert s.pending is not None and (s.pending.seat, s.pending.kind, s.pending.options) == (a, "colour", (0, 1))
    assert s.monsters[0].colour == -1 and s.combat is None
    assert [(e.seat, e.deck) for e in kinds_of(ev, "draw")] == [(a, "dxm")]  # only the explorer's card
    assert refused(s, b, "choose", b) == "seat/not-your-turn"
    assert refused(s, a, "choose", 4) == "choice/invalid"
    s, ev = act(s, a, "choose", b)
    assert s.monsters[0].colour == b and ("colour_chosen", a, s.monsters[0].uid, b) in ev
    assert not kinds_of(ev, "draw")
    assert s.combat is not None and s.combat.monsters == (s.monsters[0].uid,)


def test_a_full_rolled_colour_still_draws_and_the_chosen_colour_does_not():
    """Q-MON-1: all 3 bases of the rolled colour in use: its player still draws a DxM (the draw
    depends only on the die); the spawner chooses among colours with a free base, and the player
    of the chosen colour draws nothing for it."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, (far,) = line(s, 1, y=5)
    for _ in range(3):
        s = add_monster(s, LURKER, far, b)
    s = stack(s, "monster", [LURKER])
    s = rig(s, None, None, None, None, colour(b))
    s, ev = act(s, a, "move", E)
    assert s.pending.options == (a,)
    assert [(e.seat, e.deck) for e in kinds_of(ev, "draw")] == [(a, "dxm"), (b, "dxm")]  # exploring, then the die
    s, ev = act(s, a, "choose", a)
    assert s.monsters[-1].colour == a and not kinds_of(ev, "draw")


def test_no_free_base_evicts_the_highest_level_monsters():
    """Q-MON-2: with every base in use, all monsters tied for the highest level leave play and a
    freed base is reused; so at most 3 x players monsters are on the board."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, (far,) = line(s, 1, y=5)
    by_level = {}
    for d in CARDS.monsters:
        by_level.setdefault(d.level, []).append(d.id)
    top1, top2 = by_level[5][:2]
    for card, c in ((by_level[1][0], a), (by_level[2][0], a), (top1, a),
                    (by_level[3][0], b), (by_level[4][0], b), (top2, b)):
        s = add_monster(s, card, far, c)
    s = stack(s, "monster", [LURKER])
    s = rig(s, None, None, None, None, colour(b))
    s, ev = act(s, a, "move", E)
    evicted = kinds_of(ev, "monster_evicted")
    assert [e.card for e in evicted] == [top1, top2]
    assert {top1, top2} <= set(s.monster_deck.discard)
    assert len(s.monsters) == 5 and s.pending is None
    assert s.monsters[-1].card == LURKER and s.monsters[-1].colour == b


def test_a_surviving_monster_stays_in_front_of_its_owner():
    """Q-MON-4: a monster that wins its fight stays on the board with its card; it never goes into
    a hand."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    big = monster_card(lambda d: d.movement == "lurking" and d.level >= 10 and d.dice == 0)
    s, (r1, r2) = line(s, 2)
    s = add_monster(s, big, r2, b)
    s = set_player(s, a, room=r1)
    s, _ = act(s, a, "move", E)
    s = rig(s, 1, 6)
    s, _ = act(s, a, "roll")
    s, _ = act(s, a, "run", r1)
    s, _ = act(s, a, "escape", s.combat.to_escape[0])
    assert [(m.card, m.room, m.colour) for m in s.monsters] == [(big, r2, b)]
    assert all(big not in p.hand for p in s.players) and big not in s.monster_deck.discard


def test_a_killed_monster_frees_its_base_and_is_discarded():
    """Q-MON-5 (and Q-MON-3: the owner is the base colour): the card goes to the discards, the
    standee leaves, the base is free again for the next monster of that colour."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, (r1, r2) = line(s, 2)
    s, (far,) = line(s, 1, y=5)
    s = add_monster(s, LURKER, far, b)
    s = add_monster(s, LURKER, far, b)
    victim = monster_card(lambda d: d.movement == "lurking" and d.level == 2)
    s = add_monster(s, victim, r1, b)
    s, _ = act(s, a, "move", E)
    s = rig(s, 6, 1)
    s, ev = act(s, a, "roll")
    assert kinds_of(ev, "combat_result")[0][-1] is True
    assert victim in s.monster_deck.discard and all(m.card != victim for m in s.monsters)
    s = set_player(s, a, room=0)
    s = stack(s, "monster", [LURKER])
    s = rig(s, None, None, None, None, colour(b))
    s, _ = act(s, a, "move", W)  # explore west: the new monster takes b's freed base
    assert s.pending is None and s.monsters[-1].colour == b


# -- Q-MT -------------------------------------------------------------------------------------
def test_monster_die_is_rolled_even_with_no_monsters_and_its_player_draws():
    """Q-MT-1: the player whose turn ended rolls the monster die; the player of that colour draws
    a DxM; it becomes the movement colour."""
    s = quiet(3)
    a, b = s.turn.seat, nxt(s)
    c = nxt(s, b)
    top = s.dxm_deck.draw[0]
    s2, ev = _monster_turn(s, c)
    assert ev[0] == ("monster_turn", a, c) and ev[1] == ("draw", c, "dxm", top, False)
    assert s2.last_colour == c and s2.players[c].hand == (top,)
    s3, ev = _monster_turn(s, 4)  # purple: nobody plays it in a 3-player game
    assert ev[0] == ("monster_turn", a, 4) and ev[1].kind == "turn"


def test_monsters_follow_the_arrows_of_the_movement_colour():
    """Q-MT-2: from room to room along arrows of the rolled colour, through corridors and doors,
    stopping where there is no such arrow."""
    s = quiet(2)
    s, (r0, r1, r2, r3) = line(s, 4, face=(TO_E, TO_E, STAY, TO_E), kinds=(CORRIDOR, DOOR, CORRIDOR), y=5)
    s = add_monster(s, NORMAL, r0, 0)
    uid = s.monsters[0].uid
    s2, ev = _monster_turn(s)
    assert _rooms_of(s2) == {uid: r2}
    assert ("monster_moves", uid, r0, r2) in ev
    green = next(c for c in range(6) if c != RED and CARDS.face(TO_E).arrows[c] == -1)
    s3, _ = _monster_turn(s, green)  # no arrow of that colour in its room: it stays
    assert _rooms_of(s3) == {uid: r0}


def test_normal_monsters_stop_at_locked_doors_special_ones_pass():
    """Q-MT-2, Q-MT-3: normal monsters pass corridors and doors only; a 'special' one passes
    locked doors."""
    s = quiet(2)
    s, (r0, r1) = line(s, 2, face=(TO_E, STAY), kinds=(LOCKED,), y=5)
    s = add_monster(s, NORMAL, r0, 0)
    s = add_monster(s, LOCKPICK, r0, 0)
    n, lp = (m.uid for m in s.monsters)
    s2, _ = _monster_turn(s)
    assert _rooms_of(s2) == {n: r0, lp: r1}


def test_movement_types_fast_slow_lurking_backwards():
    """Q-MT-3: fast takes one more step the same way; slow at most one step; lurking never moves;
    backwards first steps against its room's arrow."""
    s = quiet(2)
    s, rooms = line(s, 5, face=(STAY, TO_E, TO_E, STAY, STAY), y=5)
    r0, r1, r2, r3, r4 = rooms
    for card in (NORMAL, FAST, SLOW, LURKER, BACKWARDS):
        s = add_monster(s, card, r1, 0)
    normal, fast, slow, lurker, back = (m.uid for m in s.monsters)
    s2, _ = _monster_turn(s)
    assert _rooms_of(s2) == {normal: r3, fast: r4, slow: r2, lurker: r1, back: r0}


def test_no_backtracking():
    """Q-MT-4: a monster never re-enters a room it was in this monster turn."""
    s = quiet(2)
    s, (r0, r1) = line(s, 2, face=(TO_E, TO_W), y=5)
    s = add_monster(s, NORMAL, r0, 0)
    s2, _ = _monster_turn(s)
    assert _rooms_of(s2) == {s.monsters[0].uid: r1}


def test_monsters_pass_straight_through_the_entrance():
    """Q-MT-5, Q-LAW-4: a monster walking into the Entrance leaves by the opposite side and never
    stops there; with no explored room beyond, it cannot enter the Entrance at all."""
    s = quiet(2)
    s = add_room(s, -1, 0, (WALL, CORRIDOR, WALL, WALL), face=TO_E)
    west = len(s.rooms) - 1
    s = add_monster(s, NORMAL, west, 0)
    uid = s.monsters[0].uid
    s2, _ = _monster_turn(s)
    assert _rooms_of(s2) == {uid: west}  # nothing east of the Entrance yet
    s = add_room(s, 1, 0, (WALL, WALL, WALL, CORRIDOR), face=STAY)
    east = len(s.rooms) - 1
    s3, ev = _monster_turn(s)
    assert _rooms_of(s3) == {uid: east}
    assert ("monster_moves", uid, west, east) in ev
    assert s3.rooms[0].sides == (CORRIDOR,) * 4


def test_smashed_doors_open_for_every_monster_on_both_sides():
    """Q-MT-6: a door smasher turns the locked door it crosses into a corridor on both rooms'
    sides, and that applies to every monster this monster turn (a normal one follows through)."""
    s = quiet(2)
    s, (r0, r1, r2) = line(s, 3, face=(TO_E, TO_E, STAY), kinds=(LOCKED, DOOR), y=5)
    s = add_monster(s, NORMAL, r0, 0)
    s = add_monster(s, SMASHER, r0, 0)
    n, sm = (m.uid for m in s.monsters)
    s2, ev = _monster_turn(s)
    assert _rooms_of(s2) == {n: r2, sm: r2}
    assert s2.rooms[r0].sides[E] == CORRIDOR and s2.rooms[r1].sides[W] == CORRIDOR
    assert s2.rooms[r1].sides[E] == CORRIDOR and s2.rooms[r2].sides[W] == CORRIDOR
    assert sorted((e.room, e.side) for e in kinds_of(ev, "door_smashed")) == [(r0, E), (r1, E)]
    assert ev.index(kinds_of(ev, "door_smashed")[0]) < ev.index(kinds_of(ev, "monster_moves")[0])


def test_gotcha_a_monster_stops_in_its_targets_room():
    """Q-MT-7, Q-MON-3: a monster entering the room of its base colour's player stops there (and
    that player's turn starts with the fight, Q-COMBAT-1); another colour's monster walks on."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, (r0, r1, r2) = line(s, 3, face=(TO_E, TO_E, STAY), y=5)
    s = set_player(s, b, room=r1)
    s = add_monster(s, NORMAL, r0, b)
    s = add_monster(s, NORMAL, r0, a)
    mine, theirs = (m.uid for m in s.monsters)
    s2, ev = _monster_turn(s)
    assert _rooms_of(s2) == {mine: r1, theirs: r2}
    assert s2.turn.seat == b and s2.combat.fighter == b and s2.combat.monsters == (mine,)


def test_monsters_cross_gaps_and_wrap_around_the_dungeon():
    """Q-MT-8: walking into darkness, a monster reappears in the next room along the same line
    beyond the gap (and Q-EXPLORE-6: monsters still use exits munchkins cannot)."""
    s = quiet(2)
    s = add_room(s, 1, 5, (WALL, CORRIDOR, WALL, WALL), face=TO_E)
    left = len(s.rooms) - 1
    s = add_room(s, 3, 5, (WALL, WALL, WALL, WALL), face=STAY)
    right = len(s.rooms) - 1
    s = add_monster(s, NORMAL, left, 0)
    s2, _ = _monster_turn(s)
    assert _rooms_of(s2) == {s.monsters[0].uid: right}
    # wrapping: from the east end it comes back in at the west end of the row
    s = quiet(2)
    s = add_room(s, 1, 5, (WALL, WALL, WALL, WALL), face=STAY)
    west = len(s.rooms) - 1
    s = add_room(s, 3, 5, (WALL, CORRIDOR, WALL, WALL), face=TO_E)
    east = len(s.rooms) - 1
    s = add_monster(s, NORMAL, east, 0)
    s2, _ = _monster_turn(s)
    assert _rooms_of(s2) == {s.monsters[0].uid: west}


def test_monster_groups_split():
    """Q-MT-9: monsters sharing a room move on their own (different speeds)."""
    s = quiet(2)
    s, (r0, r1, r2) = line(s, 3, face=(TO_E, TO_E, STAY), y=5)
    s = add_monster(s, NORMAL, r0, 0)
    s = add_monster(s, SLOW, r0, 0)
    s = add_monster(s, LURKER, r0, 0)
    n, sl, lu = (m.uid for m in s.monsters)
    s2, _ = _monster_turn(s)
    assert _rooms_of(s2) == {n: r2, sl: r1, lu: r0}


def test_the_monster_turn_is_one_action():
    """Q-MT-6: nothing can interrupt it: end_turn moves every monster and starts the next turn in
    the same step; nobody is asked anything in between."""
    s = quiet(3)
    a = s.turn.seat
    s, (r0, r1) = line(s, 2, face=(TO_E, STAY), y=5)
    s = add_monster(s, NORMAL, r0, 0)
    s2, ev = _monster_turn(s)
    assert [e.kind for e in ev][:3] == ["monster_turn", "draw", "monster_moves"]
    assert s2.turn.seat == nxt(s, a) and s2.pending is None
    assert Action(nxt(s, a), "end_turn") in legal(s2, nxt(s, a))


def test_a_door_smasher_crossing_the_entrance_leaves_it_intact():
    """Q-LAW-3 with Q-MT-5, Q-MT-6: a smasher walking through the Entrance smashes the locked door
    it meets beyond, never the Entrance's own connectors."""
    s = quiet(2)
    s = add_room(s, -1, 0, (WALL, CORRIDOR, WALL, WALL), face=TO_E)
    west = len(s.rooms) - 1
    s = add_room(s, 1, 0, (WALL, LOCKED, WALL, CORRIDOR), face=TO_E)
    east = len(s.rooms) - 1
    s = add_room(s, 2, 0, (WALL, WALL, WALL, LOCKED), face=STAY)
    far = len(s.rooms) - 1
    s = add_monster(s, SMASHER, west, 0)
    s2, ev = _monster_turn(s)
    assert _rooms_of(s2) == {s.monsters[0].uid: far}
    assert [(e.room, e.side) for e in kinds_of(ev, "door_smashed")] == [(east, E)]
    assert s2.rooms[0].sides == (CORRIDOR,) * 4
    assert s2.rooms[east].sides[E] == CORRIDOR and s2.rooms[far].sides[W] == CORRIDOR


def test_a_new_monster_stands_on_a_standee_of_its_size_or_the_nearest_free_one():
    """Q-COMP-4: a monster card is matched to a free standee of its size (the card set counts
    them, mq/data/monsters.toml); with none of that size free, any free one: our rule, the nearest
    size, the larger first.  A standee is free again when its monster leaves (Q-MON-5)."""
    import dataclasses

    from mq.rules import Action, step
    huge = monster_card(lambda d: d.size == "huge" and d.movement == "lurking")
    cards = dataclasses.replace(CARDS, standees=(("tiny", 8), ("small", 8), ("human", 14), ("huge", 1)))
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, (r1,) = line(s, 1, y=5, x=3)
    s = add_monster(s, huge, r1, b)
    s = s.replace(monsters=(s.monsters[0].replace(standee="huge"),))
    s = stack(s, "monster", [monster_card(lambda d: d.size == "huge" and d.id != huge)])
    s = rig(s, None, None, None, None, colour(b))
    s2, ev = step(s, Action(a, "move", (E,)), cards)
    new = s2.monsters[-1]
    assert CARDS.card(new.card).size == "huge" and new.standee == "human"
    s3, _ = step(s, Action(a, "move", (E,)))  # the box's 8 huge standees: one of its own size
    assert s3.monsters[-1].standee == "huge"
