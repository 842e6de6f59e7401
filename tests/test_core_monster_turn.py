"""The monster turn in the core (Q-MT-2..8, Q-LAW-4), including the rulebook's worked examples.

Boards use the shared encoding of docs/core.md: ``(xs, ys, sides, arrows)``; a monster is
``(room, move_type, passes_mask, smashes, target_room)``.
"""
from __future__ import annotations

import pytest

N, E, S, W = 0, 1, 2, 3
CORRIDOR, DOOR, LOCKED, SECRET, WALL = 0, 1, 2, 3, 4
NORMAL, FAST, SLOW, LURKING, BACKWARDS = 0, 1, 2, 3, 4
RED, GREEN, BLUE, YELLOW, PURPLE, ORANGE = range(6)
PASS_NORMAL = (1 << CORRIDOR) | (1 << DOOR)
PASS_WALLS = PASS_NORMAL | (1 << WALL)
PASS_ALL_DOORS = PASS_NORMAL | (1 << LOCKED) | (1 << SECRET)
DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)


def make_board(cells, links=(), arrows=(), shared=CORRIDOR, dark=WALL):
    """A consistent board: ``cells[i]`` is room i's cell; sides between rooms default to
    ``shared``, sides facing empty cells to ``dark``; ``links`` = ``((room, dir, kind), ...)`` set
    both sides of a connector; ``arrows`` = ``((room, colour, dir), ...)``."""
    index = {c: i for i, c in enumerate(cells)}
    sides = []
    for x, y in cells:
        for d in range(4):
            sides.append(shared if (x + DX[d], y + DY[d]) in index else dark)
    for room, d, kind in links:
        x, y = cells[room]
        sides[4 * room + d] = kind
        j = index.get((x + DX[d], y + DY[d]))
        if j is not None:
            sides[4 * j + (d + 2) % 4] = kind
    arr = [-1] * (6 * len(cells))
    for room, colour, d in arrows:
        arr[6 * room + colour] = d
    return tuple(c[0] for c in cells), tuple(c[1] for c in cells), tuple(sides), tuple(arr)


def monster(room, move=NORMAL, passes=PASS_NORMAL, smashes=0, target=-1):
    return (room, move, passes, smashes, target)


# ---------------------------------------------------------------------------------------------
# The rulebook's "monster movement examples" (seeds/000, "怪物移动示例"), all on one map.
#
# The map's rooms 1..12 in a 4x3 block; room 10 is not in its block cell, which is the gap the
# wall-walker crosses; we put it N of room 2, beside the Entrance (room 0, cell (0,0)):
#
#        x=0   x=1   x=2   x=3
#   y=0   0    10
#   y=1   1     2     3     4
#   y=2   5     6     7     8
#   y=3   9   (gap)  11    12
# ---------------------------------------------------------------------------------------------

RULEBOOK_CELLS = [
    (0, 0),                                  # 0 the Entrance
    (0, 1), (1, 1), (2, 1), (3, 1),          # 1 2 3 4
    (0, 2), (1, 2), (2, 2), (3, 2),          # 5 6 7 8
    (0, 3), (1, 0), (2, 3), (3, 3),          # 9, 10 (beside the Entrance), 11, 12
]
RULEBOOK_LINKS = (
    (4, E, DOOR),        # off the east edge from 4 (the goblin's last, refused, step)
    (8, E, DOOR),        # off the east edge from 8 (the goblin wraps to 5)
    (3, S, DOOR),        # 3-7 (the squirrel)
    (2, S, LOCKED),      # 2-6 (the shadow-nose passes any door)
    (12, W, WALL),       # 12-11 (the horror walks through walls)
    (11, W, DOOR),       # 11 into the gap (the horror reaches 9 across it)
    (9, W, SECRET),      # 9 off the west edge (the horror stops before this secret door)
)
RULEBOOK_ARROWS = (
    (1, YELLOW, E),
    (12, BLUE, W), (11, BLUE, W), (9, BLUE, W),
    (4, PURPLE, W), (3, PURPLE, S), (11, PURPLE, W),
    (2, ORANGE, S), (6, ORANGE, E),
    (8, GREEN, E), (5, GREEN, N), (1, GREEN, E), (2, GREEN, E), (3, GREEN, E), (4, GREEN, E),
    (9, RED, S), (5, RED, E),
)
RULEBOOK = make_board(RULEBOOK_CELLS, RULEBOOK_LINKS, RULEBOOK_ARROWS)


@pytest.mark.parametrize("colour", range(6))
def test_rulebook_lurking_kiosk_never_moves(core_impl, colour):
    # "Yellow: the kiosk monster in room 1 is lurking (a slash on its foot icon). Whatever the
    # colour, it only moves when a card moves it."
    assert core_impl.monster_turn(RULEBOOK, (monster(1, LURKING),), colour) == ((1,), ())


def test_rulebook_unspeakable_horror_walks_through_a_wall_and_a_gap(core_impl):
    # "Blue: the Unspeakable Horror starts in room 12 and follows the blue arrows. Its card lets
    # it pass walls, so it goes left through the wall into room 11. It goes on along the blue
    # arrow across the gap in the dungeon into room 9. There is another blue arrow, but it stops:
    # the arrow points at a secret door, which it cannot pass unless its card says so."
    got = core_impl.monster_turn(RULEBOOK, (monster(12, passes=PASS_WALLS),), BLUE)
    assert got == ((9,), ())
    # A normal monster is stopped by the wall at once.
    assert core_impl.monster_turn(RULEBOOK, (monster(12),), BLUE) == ((12,), ())


def test_rulebook_fast_squirrel_takes_one_extra_step(core_impl):
    # "Purple: the Nervous Squirrel starts in room 4, follows the purple arrow into room 3, then
    # into room 7. Room 7 has no purple arrow, but the squirrel is fast: it moves one more room in
    # the direction it was going, down into room 11. Room 11 has a purple arrow, but it stops:
    # fast only allows one extra step."
    assert core_impl.monster_turn(RULEBOOK, (monster(4, FAST),), PURPLE) == ((11,), ())
    # The same walk by a normal monster ends in 7.
    assert core_impl.monster_turn(RULEBOOK, (monster(4),), PURPLE) == ((7,), ())


def test_rulebook_slow_shadow_nose_moves_one_step(core_impl):
    # "Orange: the Shadow-Nose starts in room 2 and follows the arrow into room 6. Its card lets
    # it pass any kind of door, but it is slow and moves one step at a time, so it stops in 6."
    got = core_impl.monster_turn(RULEBOOK, (monster(2, SLOW, PASS_ALL_DOORS),), ORANGE)
    assert got == ((6,), ())
    # Not slow, it would go on along room 6's orange arrow into 7.
    got = core_impl.monster_turn(RULEBOOK, (monster(2, NORMAL, PASS_ALL_DOORS),), ORANGE)
    assert got == ((7,), ())


def test_rulebook_lame_goblin_wraps_and_refuses_to_backtrack(core_impl):
    # "Green: the Lame Goblin starts in room 8 and follows the green arrow off the board. It comes
    # back from the other end of the dungeon into room 5, follows the green arrows through rooms
    # 1, 2, 3 and 4. In room 4 the arrow would lead back into room 1, so it stops in room 4 (no
    # backtracking)."
    assert core_impl.monster_turn(RULEBOOK, (monster(8),), GREEN) == ((4,), ())


def test_rulebook_backwards_mushroom(core_impl):
    # "Red: the Mushroom starts in room 9, but its first step does not follow the red arrow: it
    # likes going backwards, so it goes the opposite way into room 5. Then it follows the red
    # arrow as usual into room 6. Room 6 has no red arrow, so it stops there."
    assert core_impl.monster_turn(RULEBOOK, (monster(9, BACKWARDS),), RED) == ((6,), ())


def test_rulebook_all_at_once(core_impl):
    # One call moves every monster; the order of dests is the order of the monsters. The fast
    # one from 4 wraps to 1 and walks 2, 3; 4 (its start) is visited, so neither the arrow nor
    # the extra step takes it on: it stops in 3.
    ms = (monster(12, passes=PASS_WALLS), monster(4, FAST), monster(8), monster(1, LURKING))
    assert core_impl.monster_turn(RULEBOOK, ms, GREEN) == ((12, 3, 4, 1), ())


# ---------------------------------------------------------------------------------------------
# Gotcha (Q-MT-7)
# ---------------------------------------------------------------------------------------------

def test_gotcha_stops_in_the_targets_room(core_impl):
    # The goblin's walk 8 -> 5 -> 1 -> 2 ... stops in 2 where its target stands.
    assert core_impl.monster_turn(RULEBOOK, (monster(8, target=2),), GREEN) == ((2,), ())


def test_gotcha_cancels_the_fast_extra_step(core_impl):
    got = core_impl.monster_turn(RULEBOOK, (monster(4, FAST, target=7),), PURPLE)
    assert got == ((7,), ())
    # The extra step itself may enter the target's room.
    got = core_impl.monster_turn(RULEBOOK, (monster(4, FAST, target=11),), PURPLE)
    assert got == ((11,), ())


def test_gotcha_needs_entering_not_starting(core_impl):
    assert core_impl.monster_turn(RULEBOOK, (monster(8, target=8),), GREEN) == ((4,), ())


def test_gotcha_on_the_backwards_first_step(core_impl):
    got = core_impl.monster_turn(RULEBOOK, (monster(9, BACKWARDS, target=5),), RED)
    assert got == ((5,), ())


# ---------------------------------------------------------------------------------------------
# The Entrance (Q-LAW-4, Q-MT-5)
# ---------------------------------------------------------------------------------------------

#   1 0 2 3      (y = 0)
ROW = [(0, 0), (-1, 0), (1, 0), (2, 0)]


def test_entrance_pass_through_and_continue(core_impl):
    board = make_board(ROW, arrows=((1, RED, E), (2, RED, E)))
    assert core_impl.monster_turn(board, (monster(1),), RED) == ((3,), ())
    # Passing through is one step: a slow monster ends in the far room, never in the Entrance.
    assert core_impl.monster_turn(board, (monster(1, SLOW),), RED) == ((2,), ())


def test_entrance_fast_extra_step_through_it(core_impl):
    # Fast: 3 -> 2 by arrow, then the extra step W passes through the Entrance into 1.
    board = make_board(ROW, arrows=((3, RED, W),))
    assert core_impl.monster_turn(board, (monster(3, FAST),), RED) == ((1,), ())


def test_entrance_blocked_when_nothing_is_beyond(core_impl):
    # Nothing in the cell beyond the Entrance: the monster cannot enter it at all.
    board = make_board([(0, 0), (-1, 0)], arrows=((1, RED, E),))
    assert core_impl.monster_turn(board, (monster(1),), RED) == ((1,), ())
    # A room further along that row does not help: there is no wrap beyond the Entrance.
    board = make_board([(0, 0), (-1, 0), (2, 0)], arrows=((1, RED, E),))
    assert core_impl.monster_turn(board, (monster(1),), RED) == ((1,), ())


def test_entrance_blocked_when_the_far_room_was_visited(core_impl):
    #   1 0 2
    #   3 4 5      walk 1 -> 3 -> 4 -> 5 -> 2, then W would pass the Entrance into 1: visited.
    cells = [(0, 0), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]
    arrows = ((1, RED, S), (3, RED, E), (4, RED, E), (5, RED, N), (2, RED, W))
    board = make_board(cells, arrows=arrows)
    assert core_impl.monster_turn(board, (monster(1),), RED) == ((2,), ())


def test_entrance_reached_by_wrapping(core_impl):
    # 0 2 . 1 (y = 0): from 1 going E it wraps to the Entrance, then passes into 2.
    board = make_board([(0, 0), (3, 0), (1, 0)], arrows=((1, RED, E),), dark=DOOR)
    assert core_impl.monster_turn(board, (monster(1),), RED) == ((2,), ())


def test_entrance_exit_connector_must_be_passable(core_impl):
    # A (non-standard) wall on the Entrance's far side stops a normal monster.
    board = make_board(ROW, links=((0, E, WALL),), arrows=((1, RED, E),))
    assert core_impl.monster_turn(board, (monster(1),), RED) == ((1,), ())
    assert core_impl.monster_turn(board, (monster(1, passes=PASS_WALLS),), RED) == ((2,), ())


# ---------------------------------------------------------------------------------------------
# Smashing doors and simultaneity (Q-MT-6)
# ---------------------------------------------------------------------------------------------

#   0
#   1 2 3        (y = 1); 2-3 is a locked door
SMASH_CELLS = [(0, 0), (0, 1), (1, 1), (2, 1)]
SMASH_BOARD = make_board(SMASH_CELLS, links=((2, E, LOCKED),),
                         arrows=((1, RED, E), (2, RED, E)))


def test_smash_fixpoint_opens_the_door_for_a_normal_monster(core_impl):
    normal = monster(1)
    smasher = monster(2, smashes=1)
    # Alone, the normal monster stops before the locked door.
    assert core_impl.monster_turn(SMASH_BOARD, (normal,), RED) == ((2,), ())
    # With the smasher, the door is a corridor for everyone this turn, whatever the order.
    assert core_impl.monster_turn(SMASH_BOARD, (normal, smasher), RED) == ((3, 3), ((2, E),))
    assert core_impl.monster_turn(SMASH_BOARD, (smasher, normal), RED) == ((3, 3), ((2, E),))


def test_smash_reported_on_the_lower_rooms_side(core_impl):
    board = make_board(SMASH_CELLS, links=((2, E, LOCKED),), arrows=((3, RED, W),))
    assert core_impl.monster_turn(board, (monster(3, SLOW, smashes=1),), RED) == ((2,), ((2, E),))


def test_smash_plain_doors_too(core_impl):
    # A smasher turns every door it crosses into a corridor, even one it could pass anyway.
    board = make_board(SMASH_CELLS, links=((1, E, DOOR), (2, E, LOCKED)),
                       arrows=((1, RED, E), (2, RED, E)))
    got = core_impl.monster_turn(board, (monster(1, smashes=1),), RED)
    assert got == ((3,), ((1, E), (2, E)))


def test_smash_into_darkness_reports_the_only_room(core_impl):
    # 3 going E off the edge through a locked door wraps to 1; the door faces darkness.
    board = make_board(SMASH_CELLS, links=((3, E, LOCKED),), arrows=((3, RED, E),))
    got = core_impl.monster_turn(board, (monster(3, SLOW, smashes=1),), RED)
    assert got == ((1,), ((3, E),))


def test_smash_never_flips_the_entrance_connectors(core_impl):
    # Q-LAW-3: the Entrance's connectors cannot be flipped; a smasher crosses them intact.
    board = make_board(ROW, links=((0, W, DOOR), (0, E, LOCKED)), arrows=((1, RED, E),))
    assert core_impl.monster_turn(board, (monster(1),), RED) == ((1,), ())
    assert core_impl.monster_turn(board, (monster(1, smashes=1),), RED) == ((2,), ())


def test_smash_opens_only_what_the_smasher_crossed(core_impl):
    # Smasher A (slow) opens 3-4 only; normal B then walks 1 -> 2 -> 3 -> 4 and stops before the
    # still locked 4-5.
    cells = [(0, 0), (0, 1), (1, 1), (2, 1), (3, 1), (4, 1)]
    board = make_board(cells, links=((3, E, LOCKED), (4, E, LOCKED)),
                       arrows=((1, RED, E), (2, RED, E), (3, RED, E), (4, RED, E)))
    a = monster(3, SLOW, smashes=1)     # 3 -> 4, opening 3-4
    b = monster(1)                      # 1 -> 2 -> 3 -> 4 once 3-4 is open; 4-5 stays locked
    got = core_impl.monster_turn(board, (b, a), RED)
    assert got == ((4, 4), ((3, E),))


# ---------------------------------------------------------------------------------------------
# Movement types and edge cases
# ---------------------------------------------------------------------------------------------

def test_slow_monster_wraps_in_one_step(core_impl):
    # 1 2 3 (y = 1): from 3 going E off the edge it reappears in 1 and stops (slow).
    board = make_board(SMASH_CELLS, arrows=((3, RED, E), (1, RED, E)), dark=DOOR)
    assert core_impl.monster_turn(board, (monster(3, SLOW),), RED) == ((1,), ())
    # A normal one goes on from 1 into 2.
    assert core_impl.monster_turn(board, (monster(3),), RED) == ((2,), ())


def test_fast_extra_step_blocked_by_a_wall(core_impl):
    board = make_board(SMASH_CELLS, links=((2, E, WALL),), arrows=((1, RED, E),))
    assert core_impl.monster_turn(board, (monster(1, FAST),), RED) == ((2,), ())
    # A wall-walker gets through.
    assert core_impl.monster_turn(board, (monster(1, FAST, PASS_WALLS),), RED) == ((3,), ())


def test_fast_without_moving_takes_no_extra_step(core_impl):
    board = make_board(SMASH_CELLS, arrows=((2, RED, E),))
    assert core_impl.monster_turn(board, (monster(1, FAST),), RED) == ((1,), ())


def test_backwards_without_arrow_or_way_does_not_move(core_impl):
    board = make_board(SMASH_CELLS, links=((2, W, WALL),), arrows=((2, RED, E), (3, RED, W)))
    # No red arrow in 1: no move at all.
    assert core_impl.monster_turn(board, (monster(1, BACKWARDS),), RED) == ((1,), ())
    # Room 2's arrow points E; the opposite way (W) is a wall: it does not move.
    assert core_impl.monster_turn(board, (monster(2, BACKWARDS),), RED) == ((2,), ())
    # Room 3's arrow points W; it goes E (off the edge, a wall here): no move either.
    assert core_impl.monster_turn(board, (monster(3, BACKWARDS),), RED) == ((3,), ())


def test_no_backtracking_around_a_loop(core_impl):
    #   0 .
    #   1 2
    #   3 4      arrows run round 1 -> 2 -> 4 -> 3 -> (1: visited, stop in 3)
    cells = [(0, 0), (0, 1), (1, 1), (0, 2), (1, 2)]
    board = make_board(cells, arrows=((1, RED, E), (2, RED, S), (4, RED, W), (3, RED, N)))
    assert core_impl.monster_turn(board, (monster(1),), RED) == ((3,), ())
    assert core_impl.monster_turn(board, (monster(4),), RED) == ((2,), ())


def test_a_line_back_to_itself_is_no_step(core_impl):
    # Room 1 is alone in its row: going E wraps straight back to it, which is impossible.
    board = make_board([(0, 0), (0, 1)], arrows=((1, RED, E),), dark=CORRIDOR)
    assert core_impl.monster_turn(board, (monster(1),), RED) == ((1,), ())


def test_monsters_ignore_each_other(core_impl):
    ms = tuple(monster(8) for _ in range(4))
    assert core_impl.monster_turn(RULEBOOK, ms, GREEN) == ((4, 4, 4, 4), ())


def test_no_monsters(core_impl):
    assert core_impl.monster_turn(RULEBOOK, (), RED) == ((), ())


@pytest.mark.parametrize("ms, colour, exc", [
    ((monster(13),), RED, ValueError),
    ((monster(1, move=5),), RED, ValueError),
    ((monster(1, passes=32),), RED, ValueError),
    ((monster(1, smashes=2),), RED, ValueError),
    ((monster(1, target=13),), RED, ValueError),
    ((monster(1, target=-2),), RED, ValueError),
    (((1, 0, 3, 0),), RED, ValueError),
    ((None,), RED, TypeError),
    (None, RED, TypeError),
    ((monster(1),), 6, ValueError),
    ((monster(1),), "red", TypeError),
])
def test_bad_arguments(core_impl, ms, colour, exc):
    with pytest.raises(exc):
        core_impl.monster_turn(RULEBOOK, ms, colour)
