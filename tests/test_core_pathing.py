"""Munchkin pathing in the core: reachable (Q-MOVE-1..2), path_to, neighbours (Q-HELP-1, Q-RUN-1).

Boards use the shared encoding of docs/core.md: ``(xs, ys, sides, arrows)``.
"""
from __future__ import annotations

import pytest

N, E, S, W = 0, 1, 2, 3
CORRIDOR, DOOR, LOCKED, SECRET, WALL = 0, 1, 2, 3, 4
DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)


def make_board(cells, links=(), shared=CORRIDOR, dark=WALL):
    """A consistent board: ``cells[i]`` is room i's cell; sides between rooms default to
    ``shared``, sides facing empty cells to ``dark``; ``links`` = ``((room, dir, kind), ...)``
    set both sides of a connector."""
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
    xs = tuple(c[0] for c in cells)
    ys = tuple(c[1] for c in cells)
    return xs, ys, tuple(sides), (-1,) * (6 * len(cells))


# A 3x3 block around the Entrance:
#   1 2 3        y = -1
#   4 0 5        y =  0
#   6 7 8        y = +1
GRID = [(0, 0), (-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]


def test_reachable_costs_follow_connector_kinds(core_impl):
    # Q-MOVE-1 / Q-COMP-3: corridor 1, door 1, locked 2, secret 3, wall impassable.
    board = make_board(GRID, links=((0, N, LOCKED), (0, E, SECRET), (0, S, WALL), (0, W, DOOR)))
    assert core_impl.reachable(board, 0, 1, False) == ((0, 0), (4, 1))
    assert core_impl.reachable(board, 0, 2, False) == ((0, 0), (1, 2), (2, 2), (4, 1), (6, 2))
    got = dict(core_impl.reachable(board, 0, 3, False))
    assert got == {0: 0, 1: 2, 2: 2, 3: 3, 4: 1, 5: 3, 6: 2, 7: 3}
    # Room 8 is 4 away (via 5 or 7); the wall S of the Entrance never counts.
    assert dict(core_impl.reachable(board, 0, 10, False))[8] == 4


def test_reachable_budget_zero_is_just_the_start(core_impl):
    board = make_board(GRID)
    assert core_impl.reachable(board, 4, 0, False) == ((4, 0),)


def test_empty_cells_are_not_listed(core_impl):
    # Exploring (Q-MOVE-5) is the engine's business: only placed rooms are listed.
    board = make_board([(0, 0), (1, 0)], shared=CORRIDOR, dark=DOOR)
    assert core_impl.reachable(board, 0, 3, True) == ((0, 0), (1, 1))


def test_dash_crosses_one_connector_whatever_its_cost(core_impl):
    # Q-MOVE-2: spend ALL remaining move (even 0) to cross one non-wall connector.
    board = make_board([(0, 0), (1, 0), (2, 0), (0, 1)],
                       links=((0, E, SECRET), (1, E, LOCKED), (0, S, WALL)))
    assert core_impl.reachable(board, 0, 0, False) == ((0, 0),)
    assert core_impl.reachable(board, 0, 0, True) == ((0, 0), (1, 0))
    # Budget 2: the secret door costs 3, so only the dash gets through, at cost 2 (all move).
    assert core_impl.reachable(board, 0, 2, True) == ((0, 0), (1, 2))
    # Budget 3: room 1 at 3 normally; then a dash over the locked door into 2 also costs 3.
    assert core_impl.reachable(board, 0, 3, True) == ((0, 0), (1, 3), (2, 3))
    assert core_impl.reachable(board, 0, 3, False) == ((0, 0), (1, 3))
    # Never through a wall, not even with a dash.
    assert 3 not in dict(core_impl.reachable(board, 0, 5, True))


def test_dash_keeps_cheaper_normal_costs(core_impl):
    board = make_board([(0, 0), (1, 0), (2, 0), (3, 0)])
    assert core_impl.reachable(board, 0, 2, True) == ((0, 0), (1, 1), (2, 2), (3, 2))


def test_path_to_prefers_cost_then_steps_then_directions(core_impl):
    # Entrance -> room 8 (SE corner) in the open 3x3 grid: cost 2 by E,S or by S,E; E < S.
    board = make_board(GRID)
    assert core_impl.path_to(board, 0, 8) == (E, S)
    assert core_impl.path_to(board, 8, 0) == (N, W)
    # Cheapest first: a locked door E of the Entrance (2) beats the way round (3)...
    board = make_board(GRID, links=((0, E, LOCKED),))
    assert core_impl.path_to(board, 0, 5) == (E,)
    # ...a wall never counts: round by N or by S (3 corridors each), N < S...
    board = make_board(GRID, links=((0, E, WALL),))
    assert core_impl.path_to(board, 0, 5) == (N, E, S)
    # ...unless the N way is walled too.
    board = make_board(GRID, links=((0, E, WALL), (5, N, WALL)))
    assert core_impl.path_to(board, 0, 5) == (S, E, N)
    # Equal cost 3: one secret-door step beats three corridor steps (fewest steps), even though
    # N, W, S would be the lexicographically smaller sequence.
    board = make_board(GRID, links=((0, W, SECRET),))
    assert core_impl.path_to(board, 0, 4) == (W,)


def test_path_to_trivial_and_unreachable(core_impl):
    board = make_board(GRID, links=((8, N, WALL), (8, W, WALL)))
    assert core_impl.path_to(board, 3, 3) == ()
    assert core_impl.path_to(board, 0, 8) is None
    assert core_impl.path_to(board, 8, 0) is None


def test_path_to_ignores_budget_and_uses_cheapest(core_impl):
    # A long corridor line: 7 steps is fine, there is no budget.
    cells = [(x, 0) for x in range(8)]
    board = make_board(cells)
    assert core_impl.path_to(board, 0, 7) == (E,) * 7
    assert core_impl.path_to(board, 7, 0) == (W,) * 7


def test_neighbours_in_direction_order(core_impl):
    board = make_board(GRID, links=((0, S, WALL), (0, N, SECRET)))
    assert core_impl.neighbours(board, 0) == ((N, 2), (E, 5), (W, 4))
    assert core_impl.neighbours(board, 1) == ((E, 2), (S, 4))
    # A lone room has nowhere to run (Q-RUN-5).
    assert core_impl.neighbours(make_board([(0, 0), (5, 5)], dark=DOOR), 1) == ()


def test_neighbours_are_direct_not_across_darkness(core_impl):
    # Munchkins do not wrap (Q-MT-8 is for monsters); a gap separates rooms.
    board = make_board([(0, 0), (2, 0)], dark=CORRIDOR)
    assert core_impl.neighbours(board, 0) == ()
    assert core_impl.reachable(board, 0, 9, True) == ((0, 0),)


@pytest.mark.parametrize("call, exc", [
    (lambda c, b: c.reachable(b, 9, 3, False), ValueError),
    (lambda c, b: c.reachable(b, -1, 3, False), ValueError),
    (lambda c, b: c.reachable(b, 0, -1, False), ValueError),
    (lambda c, b: c.reachable(b, 0, 1 << 31, False), ValueError),
    (lambda c, b: c.path_to(b, 0, 9), ValueError),
    (lambda c, b: c.neighbours(b, "0"), TypeError),
    (lambda c, b: c.neighbours(b[:3], 0), ValueError),
    (lambda c, b: c.neighbours(((0, 0), (0, 0), (0,) * 8, (-1,) * 12), 0), ValueError),
    (lambda c, b: c.neighbours(((0,), (0,), (5, 0, 0, 0), (-1,) * 6), 0), ValueError),
    (lambda c, b: c.neighbours(((0,), (0,), (0, 0, 0, 0), (4,) + (-1,) * 5), 0), ValueError),
    (lambda c, b: c.neighbours(((0,), (0,), (0, 0, 0), (-1,) * 6), 0), ValueError),
    (lambda c, b: c.neighbours(((0,), (0,), (0, 0, 0, 0), None), 0), TypeError),
    (lambda c, b: c.neighbours(((), (), (), ()), 0), ValueError),
])
def test_bad_arguments(core_impl, call, exc):
    with pytest.raises(exc):
        call(core_impl, make_board(GRID))
