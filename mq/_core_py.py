"""Pure-Python reference implementation ("the twin") of the native core ``mq._core``.

This module is the executable specification of the core; ``mq/_core.pyx`` must return the very
same values (and raise the same exception types) for every input. ``mq.core`` picks one of the two
(``MQ_PUREPYTHON=1`` selects this one). docs/core.md describes the contract; this docstring and
the function docstrings give the exact semantics.

Invariants (DESIGN.md "Determinism and hashing"):

* Pure functions of their arguments: no clock, no ``random``, no floats, no ``hash()`` of str, no
  iteration over sets or dicts whose order could change a result. Every int is exact.
* Inputs are validated identically in both twins: a wrong type raises ``TypeError``, a wrong
  value (out of range, wrong length, two rooms in one cell) raises ``ValueError``.

Board encoding (docs/core.md): ``board = (xs, ys, sides, arrows)``, four tuples (or lists) of
ints for ``n >= 1`` placed rooms indexed ``0..n-1``; room 0 is the Entrance (Q-SETUP-2).

* ``xs[i], ys[i]``: the grid cell of room ``i``, ints in ``[-2**31, 2**31)``, all cells distinct.
  ``N`` is ``y-1``, ``E`` is ``x+1``, ``S`` is ``y+1``, ``W`` is ``x-1``.
* ``sides[4*i+d]`` in ``0..4``: the connector kind on side ``d`` of room ``i`` (Q-COMP-3). A step
  out of room ``i`` through side ``d`` always reads ``sides[4*i+d]``, the mover's own side; the
  engine keeps the two sides of a shared connector equal.
* ``arrows[6*i+c]`` in ``-1..3``: the direction of room ``i``'s monster arrow of colour ``c``
  (Q-COMP-5 colour order), or -1.

Two kinds of adjacency are derived from the cells:

* *neighbour*: the room in the adjacent cell ``(x+dx, y+dy)``, if any (munchkins, Q-MOVE-1).
* *line room* (monsters, Q-MT-8): walking from room ``i`` in direction ``d`` along its row or
  column, wrapping from one edge of the bounding box of all placed rooms to the opposite edge, the
  first room met. Equivalently: in the rooms of that row (column) sorted by x (y), the next one
  after ``i`` in direction ``d``, cyclically. If the row (column) holds only ``i``, there is none.
  When the adjacent cell holds a room, the line room is that neighbour.
"""
from __future__ import annotations

import heapq
import operator

__all__ = [
    "N", "E", "S", "W",
    "CORRIDOR", "DOOR", "LOCKED", "SECRET", "WALL", "MOVE_COST",
    "NORMAL", "FAST", "SLOW", "LURKING", "BACKWARDS", "PASS_NORMAL",
    "rng_u64", "rng_below", "rng_d6", "rng_d10", "rng_colour", "rng_shuffle",
    "reachable", "path_to", "neighbours",
    "monster_turn",
    "digest", "digest_full",
]

IMPLEMENTATION = "python"

# Directions (absolute: rooms are never rotated, Q-EXPLORE-1); opposite is (d + 2) % 4.
N, E, S, W = 0, 1, 2, 3
# Connector kinds (Q-COMP-3) and their move cost for munchkins; a wall is impassable (-1).
CORRIDOR, DOOR, LOCKED, SECRET, WALL = 0, 1, 2, 3, 4
MOVE_COST = (1, 1, 2, 3, -1)
# Monster movement types (Q-MT-3).
NORMAL, FAST, SLOW, LURKING, BACKWARDS = 0, 1, 2, 3, 4
# What a normal monster may cross (Q-MT-2): corridors and doors.
PASS_NORMAL = (1 << CORRIDOR) | (1 << DOOR)

_M64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_DX = (0, 1, 0, -1)
_DY = (-1, 0, 1, 0)
_COORD_MIN = -(1 << 31)
_COORD_LIM = 1 << 31
_COUNTER_LIM = 1 << 63
_BUDGET_LIM = 1 << 31
_SMASHABLE = (1 << DOOR) | (1 << LOCKED)


# ---------------------------------------------------------------------------------------------
# Argument checking (shared wording with the native twin)
# ---------------------------------------------------------------------------------------------

def _int_arg(v, what):
    """``operator.index(v)``: an int (bool and int subclasses included) or a TypeError."""
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(f"{what} must be an int") from None


def _seed_arg(seed):
    seed = _int_arg(seed, "seed")
    if not 0 <= seed <= _M64:
        raise ValueError("seed must be in [0, 2**64)")
    return seed


def _counter_arg(n):
    n = _int_arg(n, "n")
    if not 0 <= n < _COUNTER_LIM:
        raise ValueError("n must be in [0, 2**63)")
    return n


# ---------------------------------------------------------------------------------------------
# RNG (Q-SETUP, DESIGN "RNG"): counter-based SplitMix64
# ---------------------------------------------------------------------------------------------

def _mix(z):
    """SplitMix64 finalizer (a bijection of [0, 2**64)); note _mix(0) == 0."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def rng_u64(seed, n):
    """Draw number ``n`` of stream ``seed``: ``mix(seed + (n+1) * 0x9E3779B97F4A7C15 mod 2**64)``.

    ``seed`` in ``[0, 2**64)``, counter ``n`` in ``[0, 2**63)``. The value is a pure function of
    ``(seed, n)``; the caller carries the counter (it lives in the game State).
    """
    seed = _seed_arg(seed)
    n = _counter_arg(n)
    return _mix((seed + (n + 1) * _GOLDEN) & _M64)


def _below(seed, n, bound):
    # Rejection sampling: accept u < lim, lim = 2**64 - (2**64 % bound) is a multiple of bound,
    # so u % bound is exactly uniform. At most one draw in two is rejected, whatever the bound.
    lim = (1 << 64) - ((1 << 64) % bound)
    while True:
        u = _mix((seed + (n + 1) * _GOLDEN) & _M64)
        n += 1
        if u < lim:
            return u % bound, n


def rng_below(seed, n, bound):
    """Uniform ``v`` in ``[0, bound)`` and the next counter: ``(v, n2)``; ``1 <= bound < 2**64``.

    Draws ``u = rng_u64(seed, n)``, ``n += 1``, until ``u < 2**64 - (2**64 % bound)``; then
    ``v = u % bound``.
    """
    seed = _seed_arg(seed)
    n = _counter_arg(n)
    bound = _int_arg(bound, "bound")
    if not 1 <= bound <= _M64:
        raise ValueError("bound must be in [1, 2**64)")
    return _below(seed, n, bound)


def rng_d6(seed, n):
    """A six-sided die (Q-COMP-6): ``(1..6, n2)``."""
    v, n = rng_below(seed, n, 6)
    return v + 1, n


def rng_d10(seed, n):
    """The d10 of class powers (Q-COMP-6, Q-CHAR-5): ``(1..10, n2)``."""
    v, n = rng_below(seed, n, 10)
    return v + 1, n


def rng_colour(seed, n):
    """The monster die (Q-COMP-5, Q-MT-1): ``(colour 0..5, n2)``."""
    return rng_below(seed, n, 6)


def rng_shuffle(seed, n, items):
    """Fisher–Yates shuffle of the iterable ``items``: ``(shuffled tuple, n2)``.

    For ``i`` from ``len-1`` down to 1: ``j, n = rng_below(seed, n, i+1)``; swap items ``i``
    and ``j``. Draws exactly ``len-1`` numbers plus rejections.
    """
    seed = _seed_arg(seed)
    n = _counter_arg(n)
    lst = list(items)
    for i in range(len(lst) - 1, 0, -1):
        j, n = _below(seed, n, i + 1)
        lst[i], lst[j] = lst[j], lst[i]
    return tuple(lst), n


# ---------------------------------------------------------------------------------------------
# Board decoding
# ---------------------------------------------------------------------------------------------

def _int_seq(seq, what, lo, hi):
    """Validate a tuple/list of ints in [lo, hi) and return it as a list of exact ints."""
    out = []
    for v in seq:
        v = _int_arg(v, what)
        if not lo <= v < hi:
            raise ValueError(f"{what} out of range")
        out.append(v)
    return out


def _board(board):
    """Validate ``board`` and derive adjacency.

    Returns ``(n, sides, arrows, nb, line)``: ``nb[4*i+d]`` is the neighbour through side d
    (-1: empty cell), ``line[4*i+d]`` the line room (-1: none) — see the module docstring.
    """
    if not isinstance(board, (tuple, list)):
        raise TypeError("board must be a tuple (xs, ys, sides, arrows)")
    if len(board) != 4:
        raise ValueError("board must have 4 parts (xs, ys, sides, arrows)")
    for part in board:
        if not isinstance(part, (tuple, list)):
            raise TypeError("board parts must be tuples of ints")
    xs_in, ys_in, sides_in, arrows_in = board
    n = len(xs_in)
    if n < 1:
        raise ValueError("board needs at least one room")
    if len(ys_in) != n or len(sides_in) != 4 * n or len(arrows_in) != 6 * n:
        raise ValueError("board part lengths must be n, n, 4n, 6n")
    xs = _int_seq(xs_in, "xs", _COORD_MIN, _COORD_LIM)
    ys = _int_seq(ys_in, "ys", _COORD_MIN, _COORD_LIM)
    sides = _int_seq(sides_in, "sides", 0, 5)
    arrows = _int_seq(arrows_in, "arrows", -1, 4)

    nb = [-1] * (4 * n)
    line = [-1] * (4 * n)
    # Rows sorted by (y, x) give E/W line rooms; columns sorted by (x, y) give S/N ones.
    # (fwd, back) = the directions of increasing / decreasing position along the sort.
    for order, fwd, back in (
        (sorted(range(n), key=lambda i: (ys[i], xs[i])), E, W),
        (sorted(range(n), key=lambda i: (xs[i], ys[i])), S, N),
    ):
        along = xs if fwd == E else ys
        across = ys if fwd == E else xs
        start = 0
        while start < n:
            end = start
            while end + 1 < n and across[order[end + 1]] == across[order[start]]:
                end += 1
            for p in range(start, end + 1):
                i = order[p]
                if p < end and along[order[p + 1]] == along[i]:
                    raise ValueError("two rooms share a cell")
                if start == end:
                    continue  # alone in its line: no line room either way
                nxt = order[p + 1] if p < end else order[start]
                prv = order[p - 1] if p > start else order[end]
                line[4 * i + fwd] = nxt
                line[4 * i + back] = prv
                if along[nxt] == along[i] + 1:
                    nb[4 * i + fwd] = nxt
                if along[prv] == along[i] - 1:
                    nb[4 * i + back] = prv
            start = end + 1
    return n, sides, arrows, nb, line


def _room_arg(v, n, what):
    v = _int_arg(v, what)
    if not 0 <= v < n:
        raise ValueError(f"{what} is not a room of the board")
    return v


# ---------------------------------------------------------------------------------------------
# Pathing for munchkins (Q-MOVE, Q-HELP-1, Q-RUN-1)
# ---------------------------------------------------------------------------------------------

def reachable(board, start, budget, dash):
    """Rooms a munchkin in ``start`` can reach this turn: ``((room, cost), ...)`` by room index.

    Moves go between neighbouring placed rooms through non-wall connectors at their MOVE_COST
    (Q-MOVE-1); entering an empty cell is exploring (Q-MOVE-5), the engine's business, and not
    listed. A room is listed with its cheapest cost if that is ``<= budget`` (``start`` at 0).
    ``budget`` is an int in ``[0, 2**31)``.

    With a true ``dash`` (Q-MOVE-2, once per turn: spend ALL remaining move, even 0, to cross one
    non-wall connector whatever its cost) every neighbour, through a non-wall connector, of a room
    listed above is listed too at cost ``budget`` unless it is already listed (with a cost
    ``<= budget``, so the smaller cost wins).
    """
    n, sides, _arrows, nb, _line = _board(board)
    start = _room_arg(start, n, "start")
    budget = _int_arg(budget, "budget")
    if not 0 <= budget < _BUDGET_LIM:
        raise ValueError("budget must be in [0, 2**31)")
    dist = [-1] * n
    dist[start] = 0
    heap = [(0, start)]
    while heap:
        c, u = heapq.heappop(heap)
        if c != dist[u]:
            continue  # stale entry: u was reached cheaper after this push
        for d in range(4):
            k = sides[4 * u + d]
            v = nb[4 * u + d]
            if k == WALL or v < 0:
                continue
            nc = c + MOVE_COST[k]
            if nc <= budget and (dist[v] < 0 or nc < dist[v]):
                dist[v] = nc
                heapq.heappush(heap, (nc, v))
    if dash:
        # Dash targets are read from the within-budget distances only, then merged.
        extra = []
        for u in range(n):
            if dist[u] < 0:
                continue
            for d in range(4):
                v = nb[4 * u + d]
                if v >= 0 and sides[4 * u + d] != WALL and dist[v] < 0:
                    extra.append(v)
        for v in extra:
            dist[v] = budget
    return tuple((r, dist[r]) for r in range(n) if dist[r] >= 0)


def path_to(board, start, goal):
    """A cheapest route for a munchkin from ``start`` to ``goal`` as a tuple of directions.

    ``()`` when ``start == goal``; ``None`` when ``goal`` cannot be reached through placed rooms
    and non-wall connectors. No budget applies. Tie-break (deterministic and documented): among
    the routes of least total MOVE_COST, those with the fewest steps; among those, the
    lexicographically smallest direction sequence (N < E < S < W).

    Method: Dijkstra *towards* ``goal`` on the key ``(cost, steps)`` (each edge read as the mover's
    side ``sides[4*i+d]``), then walk from ``start`` always taking the smallest direction whose
    neighbour lies on an optimal route. All optimal routes have the same length, so the greedy
    first choice yields the lexicographically smallest sequence.
    """
    n, sides, _arrows, nb, _line = _board(board)
    start = _room_arg(start, n, "start")
    goal = _room_arg(goal, n, "goal")
    if start == goal:
        return ()
    INF = None
    best = [INF] * n  # (cost, steps) from room to goal
    best[goal] = (0, 0)
    heap = [(0, 0, goal)]
    while heap:
        c, s, u = heapq.heappop(heap)
        if best[u] != (c, s):
            continue
        for e in range(4):
            i = nb[4 * u + e]  # i steps into u through its side opposite to e
            if i < 0:
                continue
            k = sides[4 * i + ((e + 2) & 3)]
            if k == WALL:
                continue
            cand = (c + MOVE_COST[k], s + 1)
            if best[i] is INF or cand < best[i]:
                best[i] = cand
                heapq.heappush(heap, (cand[0], cand[1], i))
    if best[start] is INF:
        return None
    route = []
    u = start
    while u != goal:
        c, s = best[u]
        for d in range(4):
            v = nb[4 * u + d]
            k = sides[4 * u + d]
            if v >= 0 and k != WALL and best[v] is not INF \
                    and best[v][0] + MOVE_COST[k] == c and best[v][1] + 1 == s:
                route.append(d)
                u = v
                break
    return tuple(route)


def neighbours(board, room):
    """Explored rooms adjacent to ``room`` through a non-wall connector: ``((dir, room), ...)``
    in direction order N, E, S, W. Used for choosing a helper (Q-HELP-1) and a room to run away
    to (Q-RUN-1, Q-RUN-5 when empty)."""
    n, sides, _arrows, nb, _line = _board(board)
    room = _room_arg(room, n, "room")
    return tuple((d, nb[4 * room + d]) for d in range(4)
                 if nb[4 * room + d] >= 0 and sides[4 * room + d] != WALL)


# ---------------------------------------------------------------------------------------------
# The monster turn (Q-MT-2..8, Q-LAW-4)
# ---------------------------------------------------------------------------------------------

def _monsters(monsters, n):
    if not isinstance(monsters, (tuple, list)):
        raise TypeError("monsters must be a tuple of (room, move_type, passes, smashes, target)")
    out = []
    for m in monsters:
        if not isinstance(m, (tuple, list)):
            raise TypeError("a monster must be a tuple (room, move_type, passes, smashes, target)")
        if len(m) != 5:
            raise ValueError("a monster must have 5 fields")
        room = _room_arg(m[0], n, "monster room")
        mt = _int_arg(m[1], "move_type")
        mask = _int_arg(m[2], "passes_mask")
        smash = _int_arg(m[3], "smashes")
        target = _int_arg(m[4], "target_room")
        if not 0 <= mt <= BACKWARDS:
            raise ValueError("move_type out of range")
        if not 0 <= mask < 32:
            raise ValueError("passes_mask out of range")
        if smash not in (0, 1):
            raise ValueError("smashes must be 0 or 1")
        if not -1 <= target < n:
            raise ValueError("target_room out of range")
        out.append((room, mt, mask, smash, target))
    return out


def _step(pos, d, terrain, nb, line, mask, smash, visited, crossed):
    """One monster step from ``pos`` in direction ``d``; returns the new room or -1 (it stops).

    On success marks the rooms entered in ``visited`` and appends to ``crossed`` the sides
    ``(room, dir)`` of smashable connectors this smasher crossed. On failure changes nothing.
    """
    k = terrain[4 * pos + d]
    if not ((mask >> k) & 1 or (smash and (_SMASHABLE >> k) & 1)):
        return -1
    dest = line[4 * pos + d]
    if dest < 0:
        return -1  # the line leads back to pos itself (Q-MT-8)
    if dest == 0:
        # Q-LAW-4 / Q-MT-5: straight through the Entrance into the room directly beyond it
        # (no wrap); if there is none, or it cannot be entered, the Entrance cannot be entered.
        if visited[0]:
            return -1
        far = nb[d]
        if far < 0 or visited[far]:
            return -1
        k0 = terrain[d]
        if not ((mask >> k0) & 1 or (smash and (_SMASHABLE >> k0) & 1)):
            return -1
        visited[0] = True
    elif visited[dest]:
        return -1  # Q-MT-4: no backtracking
    else:
        far = dest
    # Q-LAW-3: the Entrance's connectors are never flipped, so a smasher crosses them intact.
    if smash and (_SMASHABLE >> k) & 1 and pos != 0 and nb[4 * pos + d] != 0:
        crossed.append((pos, d))
    visited[far] = True
    return far


def _walk(m, colour, terrain, nb, line, arrows, n, crossed):
    """Where one monster ends this monster turn on the given terrain."""
    pos, mt, mask, smash, target = m
    if mt == LURKING:
        return pos
    visited = [False] * n
    visited[pos] = True
    moved = False
    last = -1
    if mt == BACKWARDS:
        a = arrows[6 * pos + colour]
        if a < 0:
            return pos
        last = (a + 2) & 3
        nxt = _step(pos, last, terrain, nb, line, mask, smash, visited, crossed)
        if nxt < 0:
            return pos
        pos = nxt
        moved = True
        if pos == target:
            return pos  # Q-MT-7 gotcha
    while True:
        if mt == SLOW and moved:
            break
        a = arrows[6 * pos + colour]
        if a < 0:
            break
        nxt = _step(pos, a, terrain, nb, line, mask, smash, visited, crossed)
        if nxt < 0:
            break
        pos = nxt
        moved = True
        last = a
        if pos == target:
            return pos  # Q-MT-7 gotcha: stays for the rest of the monster turn
    if mt == FAST and moved:
        nxt = _step(pos, last, terrain, nb, line, mask, smash, visited, crossed)
        if nxt >= 0:
            pos = nxt
    return pos


def monster_turn(board, monsters, colour):
    """Move every monster for the movement colour ``colour`` (Q-MT-1): ``(dests, smashed)``.

    ``monsters``: a tuple of ``(room, move_type, passes_mask, smashes, target_room)``;
    ``passes_mask`` is a bit set over connector kinds the monster may cross (``PASS_NORMAL`` for
    normal monsters, Q-MT-2; special ones add LOCKED, SECRET, WALL bits, Q-MT-3); ``smashes`` 0/1:
    it may also cross DOOR and LOCKED connectors and turns each one it crosses into a CORRIDOR;
    ``target_room`` is its target's room or -1 (Q-MON-3).

    A *step* from room ``p`` in direction ``d``: the connector ``terrain[4p+d]`` must be in the
    mask or (for a smasher) DOOR/LOCKED. The step enters the line room of ``(p, d)`` (the adjacent
    room, or across darkness with wrap, Q-MT-8; whatever connector it enters through does not
    matter); none (the line returns to ``p``): impossible. If that room is the Entrance (room 0,
    Q-LAW-4, Q-MT-5) the monster passes straight through, leaving by the Entrance's side ``d``
    (which must be passable too) into the room in the cell directly beyond (no wrap); if that cell
    is empty or that room was already visited, the step is impossible. The pass-through is one
    step; the Entrance and the far room both count as visited. A smasher does not smash the
    Entrance's connectors (Q-LAW-3), it crosses them intact.

    Per monster, with ``visited = {start}``: a step whose destination is visited stops it (Q-MT-4).

    * NORMAL: repeat: the arrow of ``colour`` in its room (none: stop), one step that way
      (impossible: stop).
    * SLOW: the same, at most one step. LURKING: never moves.
    * BACKWARDS: first one step opposite to the start room's arrow (no arrow, or impossible: it
      does not move at all), then as NORMAL.
    * FAST: as NORMAL; then, if it moved at least once and gotcha did not stop it, one more step
      in the direction of its last step, ignoring arrows.
    * Gotcha (Q-MT-7): entering ``target_room`` ends its movement at once (not for a monster
      that merely starts there).

    Simultaneity (Q-MT-6): all monsters are walked from their start rooms on the current terrain;
    every DOOR/LOCKED connector a smasher crossed becomes a CORRIDOR on both of its sides (the
    side of the room crossed from and, if the cell beyond holds a room, that room's opposite side);
    if that opened anything, all monsters are walked again from their start rooms on the new
    terrain, until nothing new opens (terrain only opens, so this ends). ``dests[k]`` is monster
    ``k``'s room after the last walk; ``smashed`` is the sorted tuple of every connector opened,
    each once as ``(room, dir)`` of the lower-indexed room beside it (the only room when it faces
    darkness). For smashers whose mask includes CORRIDOR (every real one) a later walk follows the
    very same path, so ``smashed`` is exactly what they cross in the last walk.
    """
    n, sides, arrows, nb, line = _board(board)
    ms = _monsters(monsters, n)
    colour = _int_arg(colour, "colour")
    if not 0 <= colour < 6:
        raise ValueError("colour must be in 0..5")
    terrain = list(sides)
    smashed = []
    while True:
        crossed = []
        dests = tuple(_walk(m, colour, terrain, nb, line, arrows, n, crossed) for m in ms)
        opened = False
        for pos, d in crossed:
            if terrain[4 * pos + d] == CORRIDOR:
                continue  # already opened by an earlier smash in this walk
            terrain[4 * pos + d] = CORRIDOR
            j = nb[4 * pos + d]
            od = (d + 2) & 3
            if j >= 0:
                terrain[4 * j + od] = CORRIDOR
            smashed.append((j, od) if 0 <= j < pos else (pos, d))
            opened = True
        if not opened:
            return dests, tuple(sorted(smashed))


# ---------------------------------------------------------------------------------------------
# State hash (DESIGN "Determinism and hashing")
# ---------------------------------------------------------------------------------------------
#
# Scheme (both twins, bit for bit):
#   mix      = the SplitMix64 finalizer above.
#   absorb(h, w) = mix(((h ^ w) + GOLDEN) mod 2**64)  -- order-sensitive chaining of 64-bit words.
#   Type tags T_k = mix(k * GOLDEN mod 2**64) for k = 1 NONE, 2 BOOL, 3 INT (>= 0), 4 NEG (< 0),
#   5 STR, 6 BYTES, 7 SEQ, 8 NODE.
#   None          -> absorb(T_NONE, 0)
#   bool b        -> absorb(T_BOOL, int(b))            (checked before int: True != 1)
#   int v >= 0    -> absorb(T_INT, v)                  (v < 2**64)
#   int v < 0     -> absorb(T_NEG, v + 2**64)          (v >= -2**63); else ValueError
#   bytes b       -> h = T_BYTES; absorb each 8-byte little-endian word; absorb the zero-padded
#                    tail word if len % 8; then absorb(h, len(b))
#   str s         -> the same over s's UTF-8 bytes with T_STR        ("1" != 1 != b"1")
#   tuple / list  -> h = T_SEQ; absorb each item's digest in order; absorb(h, len)
#                    (tuple and list share the tag: equal contents, equal digest)
#   node          -> h = absorb(T_NODE, digest(tag string)); absorb each field's digest in
#                    _hash_fields order; absorb(h, number of fields)
#   dict, set, frozenset -> TypeError (iteration order hazards); anything else -> TypeError.
# Dispatch order: None, bool, int, str, bytes, tuple/list, dict/set/frozenset, node. Subclasses of
# the builtins hash as their builtin value (their overrides are not called).
# Nesting: traversal deeper than _MAX_DEPTH containers/nodes raises ValueError (a cached node or
# tuple is not traversed, so digest() can accept a tree that digest_full() refuses; game states
# are shallow).
#
# Caches (both twins, same tables): besides the nodes' ``_digest``, two direct-mapped identity
# tables from an object's address (``id``) to its digest, each entry holding a reference to its
# object, so that the address cannot be reused while the entry stands:
#   strings: 4096 slots, every exact str (immutable: an entry is never stale); both digest and
#            digest_full use it;
#   tuples:  1024 slots, digest only: an exact tuple of 4 or more items whose items are all
#            exact None/bool/int/str/bytes, nodes (trusted like their ``_digest``) or such tuples;
#            a list or a builtin subclass anywhere outside a node keeps the tuple out.
# Slot of an object at address a: bits 40.. of a * 0x9E3779B97F4A7C15 mod 2**64, mod the table
# size (a multiplicative hash: addresses of small objects differ in few low bits, and shifting and
# xoring them left many strings of a game in the same slots); a new entry replaces the old one.  A tuple shared by successive states (the rooms, the turn order, the players when
# none changed) is thus walked once, not at every action.

_MAX_DEPTH = 200
_STR_SLOTS, _TUPLE_SLOTS, _MIN_CACHED_TUPLE = 4096, 1024, 4
_str_keys: list = [None] * _STR_SLOTS
_str_vals: list = [0] * _STR_SLOTS
_tuple_keys: list = [None] * _TUPLE_SLOTS
_tuple_vals: list = [0] * _TUPLE_SLOTS
_PURE_TYPES = (type(None), bool, int, str, bytes)
_BUILTINS = (int, str, bytes, tuple, list)


def _slot(o, slots):
    return (((id(o) * _GOLDEN) & _M64) >> 40) & (slots - 1)


def _pure(o):
    """Whether a tuple item may sit in a cached tuple (see "Caches")."""
    t = type(o)
    if t is tuple:
        return all(map(_pure, o))
    return t in _PURE_TYPES or not issubclass(t, _BUILTINS)


def _str_digest(s):
    """An exact str's digest through the string table."""
    i = _slot(s, _STR_SLOTS)
    if _str_keys[i] is s:
        return _str_vals[i]
    h = _bytes_digest(_T_STR, str.encode(s, "utf-8"))
    _str_keys[i], _str_vals[i] = s, h
    return h


def _absorb(h, w):
    z = ((h ^ w) + _GOLDEN) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


_T_NONE, _T_BOOL, _T_INT, _T_NEG, _T_STR, _T_BYTES, _T_SEQ, _T_NODE = (
    _mix((k * _GOLDEN) & _M64) for k in range(1, 9))
_H_NONE = _absorb(_T_NONE, 0)


def _bytes_digest(h, b):
    size = len(b)
    full = size - (size & 7)
    from_bytes = int.from_bytes
    for i in range(0, full, 8):
        h = _absorb(h, from_bytes(b[i:i + 8], "little"))
    if full != size:
        h = _absorb(h, from_bytes(b[full:], "little"))
    return _absorb(h, size)


def _dg(o, cache, depth):  # noqa: C901
    # Dispatch on type(o), never on o.__class__ (which an object may fake), like the C checks.
    t = type(o)
    if o is None:
        return _H_NONE
    if issubclass(t, bool):
        return _absorb(_T_BOOL, 1 if o else 0)
    if issubclass(t, int):
        if t is not int:
            o = int.__index__(o)
        if o >= 0:
            if o > _M64:
                raise ValueError("int out of the hashable range [-2**63, 2**64)")
            return _absorb(_T_INT, o)
        if o < -(1 << 63):
            raise ValueError("int out of the hashable range [-2**63, 2**64)")
        return _absorb(_T_NEG, o + (1 << 64))
    if issubclass(t, str):
        if t is str:
            return _str_digest(o)
        return _bytes_digest(_T_STR, str.encode(o, "utf-8"))
    if issubclass(t, bytes):
        return _bytes_digest(_T_BYTES, o if t is bytes else bytes.__bytes__(o))
    if issubclass(t, (tuple, list)):
        slot = -1
        if t is tuple and cache and len(o) >= _MIN_CACHED_TUPLE:
            slot = _slot(o, _TUPLE_SLOTS)
            if _tuple_keys[slot] is o:
                return _tuple_vals[slot]
        if depth >= _MAX_DEPTH:
            raise ValueError(f"structure nested deeper than {_MAX_DEPTH} levels")
        if t is not tuple and t is not list:
            o = tuple(tuple.__iter__(o)) if issubclass(t, tuple) else tuple(list.__iter__(o))
        h = _T_SEQ
        for x in o:
            h = _absorb(h, _dg(x, cache, depth + 1))
        h = _absorb(h, len(o))
        if slot >= 0 and all(map(_pure, o)):
            _tuple_keys[slot], _tuple_vals[slot] = o, h
        return h
    if issubclass(t, (dict, set, frozenset)):
        raise TypeError(f"cannot digest a {t.__name__}: its order is not canonical")
    tag = getattr(t, "_hash_tag", None)
    fields = getattr(t, "_hash_fields", None)
    if tag is None or fields is None:
        raise TypeError(f"cannot digest a {t.__name__}")
    if not issubclass(type(tag), str) or type(fields) is not tuple:
        raise TypeError(f"{t.__name__}: _hash_tag must be a str, _hash_fields a tuple of str")
    if cache:
        c = getattr(o, "_digest", None)
        if c is not None:
            if type(c) is not int or not 0 <= c <= _M64:
                raise TypeError(f"{t.__name__}._digest is not a 64-bit digest")
            return c
    if depth >= _MAX_DEPTH:
        raise ValueError(f"structure nested deeper than {_MAX_DEPTH} levels")
    h = _absorb(_T_NODE, _str_digest(tag) if type(tag) is str else _bytes_digest(_T_STR, str.encode(tag, "utf-8")))
    for f in fields:
        if not issubclass(type(f), str):
            raise TypeError(f"{t.__name__}: _hash_fields must be a tuple of str")
        h = _absorb(h, _dg(getattr(o, f), cache, depth + 1))
    h = _absorb(h, len(fields))
    if cache:
        # Nodes are frozen dataclasses: bypass their __setattr__ (the cache is not state).
        object.__setattr__(o, "_digest", h)
    return h


def digest(obj):
    """64-bit structural digest of ``obj`` (scheme above), reusing and filling node caches.

    A node (class attributes ``_hash_tag: str`` and ``_hash_fields: tuple[str, ...]``) whose
    ``_digest`` attribute is an int is not traversed: that value is used. Otherwise its digest is
    computed and stored in ``_digest``. A tuple found in the tuple table is not traversed either
    (see "Caches" above). Because game states are immutable and share unchanged subtrees,
    digesting a new state costs only its new nodes (DESIGN: incremental Merkle hash).
    """
    return _dg(obj, True, 0)


def digest_full(obj):
    """The same value as :func:`digest`, recomputed from scratch: never reads nor writes
    ``_digest`` nor the tuple table (the desync/debug check that incremental hashing is sound);
    only immutable strings come from their table."""
    return _dg(obj, False, 0)
