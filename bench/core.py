"""Benchmark of the native core ``mq._core`` against its pure-Python twin ``mq._core_py``.

Both are measured in the same run on the same inputs: every case is repeated (>= 5 times, 3 with
``--quick``) and the table shows the median time of one operation for each, and the ratio
twin / native. Inputs are built deterministically with the core's own RNG, so runs compare.

Cases:
* rng: 1e5 ``rng_below`` calls from Python (dominated by call overhead), and one
  ``rng_shuffle`` of 1e5 items (1e5 draws inside the core).
* digest, full: a freshly built game-state-like node tree (48 rooms with connectors, arrows,
  items and monsters; 6 players with hands and gear) — every node is computed and cached.
* digest, incremental: the same tree after replacing one leaf (new nodes on the path only).
* reachable (budget 3 with dash, and unbounded), path_to (corner to corner), monster_turn
  (18 monsters, each of the 6 colours) on a 48-room board; the native core reuses its decoding
  of the last board object, so one more row shows monster_turn with a new board object each call.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass, field, replace
from typing import ClassVar

import mq._core_py as twin

try:
    import mq._core as native
except ImportError:  # pragma: no cover - reported, not hidden
    native = None

DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)


# ---------------------------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------------------------

class Draws:
    """A deterministic stream of small numbers from the twin's RNG (inputs only)."""

    def __init__(self, seed: int):
        self.seed, self.n = seed, 0

    def below(self, bound: int) -> int:
        v, self.n = twin.rng_below(self.seed, self.n, bound)
        return v


def make_board(rooms: int = 49, seed: int = 42):
    """A random-walk dungeon of ``rooms`` rooms (Entrance + 48) with consistent connectors."""
    rnd = Draws(seed)
    cells = [(0, 0)]
    index = {(0, 0): 0}
    while len(cells) < rooms:
        x, y = cells[rnd.below(len(cells))]
        d = rnd.below(4)
        c = (x + DX[d], y + DY[d])
        if c not in index:
            index[c] = len(cells)
            cells.append(c)
    weights = (0, 0, 0, 0, 1, 1, 1, 2, 3, 4)  # mostly corridors and doors
    sides = []
    for i, (x, y) in enumerate(cells):
        for d in range(4):
            j = index.get((x + DX[d], y + DY[d]))
            if i == 0:
                sides.append(0)  # the Entrance has corridors (Q-SETUP-2)
            elif j is not None and j < i:
                sides.append(sides[4 * j + (d + 2) % 4])
            else:
                sides.append(weights[rnd.below(len(weights))])
    arrows = []
    for i in range(rooms):
        for _c in range(6):
            arrows.append(-1 if i == 0 or rnd.below(3) == 0 else rnd.below(4))
    return (tuple(c[0] for c in cells), tuple(c[1] for c in cells), tuple(sides), tuple(arrows))


def make_monsters(n_rooms: int, count: int = 18, seed: int = 7):
    rnd = Draws(seed)
    kinds = (0, 0, 0, 0, 1, 1, 2, 3, 4)
    out = []
    for k in range(count):
        mask = twin.PASS_NORMAL | (4 if k % 5 == 0 else 0) | (16 if k % 7 == 0 else 0)
        out.append((1 + rnd.below(n_rooms - 1), kinds[rnd.below(len(kinds))], mask,
                    1 if k % 6 == 0 else 0, rnd.below(n_rooms + 1) - 1))
    return tuple(out)


@dataclass(frozen=True)
class Item:
    _hash_tag: ClassVar[str] = "Item"
    _hash_fields: ClassVar[tuple[str, ...]] = ("card", "bonus", "slot", "flags")
    card: str
    bonus: int
    slot: str
    flags: tuple
    _digest: int | None = field(default=None, init=False, repr=False, compare=False)


@dataclass(frozen=True)
class Monster:
    _hash_tag: ClassVar[str] = "Monster"
    _hash_fields: ClassVar[tuple[str, ...]] = ("card", "level", "colour", "enhancers")
    card: str
    level: int
    colour: int
    enhancers: tuple
    _digest: int | None = field(default=None, init=False, repr=False, compare=False)


@dataclass(frozen=True)
class RoomNode:
    _hash_tag: ClassVar[str] = "Room"
    _hash_fields: ClassVar[tuple[str, ...]] = (
        "card", "cell", "sides", "arrows", "monsters", "pile", "searched")
    card: str
    cell: tuple
    sides: tuple
    arrows: tuple
    monsters: tuple
    pile: tuple
    searched: bool
    _digest: int | None = field(default=None, init=False, repr=False, compare=False)


@dataclass(frozen=True)
class Player:
    _hash_tag: ClassVar[str] = "Player"
    _hash_fields: ClassVar[tuple[str, ...]] = (
        "name", "level", "hp", "gold", "room", "hand", "gear", "flags")
    name: str
    level: int
    hp: int
    gold: int
    room: int
    hand: tuple
    gear: tuple
    flags: tuple
    _digest: int | None = field(default=None, init=False, repr=False, compare=False)


@dataclass(frozen=True)
class State:
    _hash_tag: ClassVar[str] = "State"
    _hash_fields: ClassVar[tuple[str, ...]] = ("rooms", "players", "decks", "rng", "turn")
    rooms: tuple
    players: tuple
    decks: tuple
    rng: tuple
    turn: int
    _digest: int | None = field(default=None, init=False, repr=False, compare=False)


def make_state(board, salt: str = "") -> State:
    """A fresh (uncached) state tree of realistic shape: about 1,100 nodes and 5,000 values."""
    xs, ys, sides, arrows = board
    rnd = Draws(99)
    rooms = []
    for i in range(len(xs)):
        items = tuple(Item(f"item-{i}-{k}{salt}", rnd.below(5), "hand", (True, False))
                      for k in range(rnd.below(4)))
        monsters = tuple(Monster(f"mon-{i}-{k}", 1 + rnd.below(20), rnd.below(6), ("+5",))
                         for k in range(rnd.below(2)))
        rooms.append(RoomNode(f"room-{i}", (xs[i], ys[i]), sides[4 * i:4 * i + 4],
                              arrows[6 * i:6 * i + 6], monsters, items, rnd.below(2) == 1))
    players = tuple(
        Player(f"player-{p}", 1 + p, 4, 300 * p, p, tuple(f"card-{p}-{k}" for k in range(5)),
               tuple(Item(f"gear-{p}-{k}", k, "head", ()) for k in range(4)), (p, None, False))
        for p in range(6))
    decks = tuple(tuple(f"deck-{d}-{k}" for k in range(70)) for d in range(3))
    return State(tuple(rooms), players, decks, (2 ** 63 + 5, 1234), 17)


def change_leaf(state: State, k: int) -> State:
    """A new state sharing everything but the path to one item of one room."""
    i = k % len(state.rooms)
    room = state.rooms[i]
    new_room = replace(room, pile=room.pile + (Item(f"dropped-{k}", 1, "belt", ()),))
    rooms = state.rooms[:i] + (new_room,) + state.rooms[i + 1:]
    return replace(state, rooms=rooms, turn=state.turn + 1)


# ---------------------------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------------------------

def _time(fn, repeat: int, prepare=None) -> float:
    """Median over ``repeat`` runs of ``fn(arg)`` in seconds, ``arg = prepare()`` untimed."""
    times = []
    for _ in range(repeat):
        arg = prepare() if prepare is not None else None
        t0 = time.perf_counter_ns()
        fn(arg)
        times.append(time.perf_counter_ns() - t0)
    return statistics.median(times) / 1e9


def cases(core, quick: bool):  # noqa: C901
    """(name, ops per run, fn, prepare) for one core module."""
    loops = 200 if quick else 1000
    board = make_board()
    n = len(board[0])
    monsters = make_monsters(n)
    far = max(twin.reachable(board, 0, 10_000, False), key=lambda rc: (rc[1], rc[0]))[0]
    base = make_state(board)
    core.digest(base)

    def rng_calls(_):
        below = core.rng_below
        c = 0
        for _ in range(100_000):
            _v, c = below(12345, c, 6)

    deck = tuple(range(100_000))

    def shuffle(_):
        core.rng_shuffle(12345, 0, deck)

    def reach_small(_):
        f = core.reachable
        for k in range(loops):
            f(board, k % n, 3, True)

    def reach_all(_):
        f = core.reachable
        for k in range(loops):
            f(board, k % n, 10_000, False)

    def path(_):
        f = core.path_to
        for _k in range(loops):
            f(board, 0, far)
            f(board, far, 0)

    def mturn(_):
        f = core.monster_turn
        for k in range(loops):
            f(board, monsters, k % 6)

    # Two equal boards that are different objects: the native board cache misses every call,
    # so this row includes decoding and validating the board each time (as the twin always does).
    boards = (board, tuple(tuple(list(part)) for part in board))

    def mturn_uncached(_):
        f = core.monster_turn
        for k in range(loops):
            f(boards[k & 1], monsters, k % 6)

    def digest_fresh(tree):
        core.digest(tree)

    def digest_incremental(trees):
        d = core.digest
        for t in trees:
            d(t)

    variants = 100 if quick else 500
    return [
        ("rng_below x1e5 calls", 1, rng_calls, None),
        ("rng_shuffle 1e5 items", 1, shuffle, None),
        ("digest fresh state tree", 1, digest_fresh, lambda: make_state(board)),
        ("digest after one change", variants, digest_incremental,
         lambda: [change_leaf(base, k) for k in range(variants)]),
        ("reachable budget 3+dash", loops, reach_small, None),
        ("reachable unbounded", loops, reach_all, None),
        ("path_to corner<->corner", 2 * loops, path, None),
        ("monster_turn 18 monsters", loops, mturn, None),
        ("  same, board not cached", loops, mturn_uncached, None),
    ]


def _count(obj) -> tuple[int, int]:
    """(nodes, leaf values) of a state tree."""
    if hasattr(type(obj), "_hash_fields"):
        parts = [_count(getattr(obj, f)) for f in type(obj)._hash_fields]
        return 1 + sum(p[0] for p in parts), sum(p[1] for p in parts)
    if isinstance(obj, tuple):
        parts = [_count(x) for x in obj]
        return sum(p[0] for p in parts), sum(p[1] for p in parts)
    return 0, 1


def _fmt(seconds: float) -> str:
    if seconds >= 1e-3:
        return f"{seconds * 1e3:9.2f} ms"
    return f"{seconds * 1e6:9.2f} us"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions and loops")
    parser.add_argument("--repeat", type=int, default=None, help="repetitions per case (>= 1)")
    args = parser.parse_args(argv)
    if native is None:
        print("mq._core is not built: run `make build` first", file=sys.stderr)
        return 2
    repeat = args.repeat or (3 if args.quick else 7)
    board = make_board()
    nodes, leaves = _count(make_state(board))
    far = max(twin.reachable(board, 0, 10_000, False), key=lambda rc: (rc[1], rc[0]))
    print(f"board: {len(board[0])} rooms, {len(make_monsters(len(board[0])))} monsters, "
          f"path_to 0 <-> {far[0]} (cost {far[1]}); state tree: {nodes} nodes, {leaves} leaves; "
          f"median of {repeat} runs, time per operation")
    print(f"{'case':<28}{'native':>13}{'twin':>13}{'twin/native':>13}")
    for (name, ops, fn_n, prep_n), (_n, _o, fn_t, prep_t) in zip(
            cases(native, args.quick), cases(twin, args.quick)):
        t_native = _time(fn_n, repeat, prep_n) / ops
        t_twin = _time(fn_t, repeat, prep_t) / ops
        print(f"{name:<28}{_fmt(t_native):>13}{_fmt(t_twin):>13}{t_twin / t_native:>12.1f}x")
    return 0
