"""The native core and its pure-Python twin agree on everything (docs/core.md).

Hypothesis draws random boards (random cells, consistent or deliberately inconsistent sides,
random arrows), random monsters, random RNG arguments and random value trees, and compares every
output of ``mq._core`` with ``mq._core_py`` — values, and exception types for invalid input.
A few semantic properties of pathing and the monster turn are checked on the way.

With ``MQ_PUREPYTHON=1`` the native core is not under test and conftest.py does not collect this
module; otherwise a missing ``mq._core`` is an import error, i.e. a failure.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nodes import node_class

import mq._core as native  # noqa: E402  (a missing extension must fail, not skip)
import mq._core_py as twin

CORRIDOR, DOOR, LOCKED, SECRET, WALL = 0, 1, 2, 3, 4
MOVE_COST = (1, 1, 2, 3, -1)
DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)
M64 = (1 << 64) - 1

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def outcome(fn, *args):
    """The result of ``fn(*args)``, or the type of the exception it raised."""
    try:
        return ("ok", fn(*args))
    except Exception as exc:  # noqa: BLE001 - comparing the twins' failures is the point
        return ("raised", type(exc))


def same(name, *args):
    a = outcome(getattr(twin, name), *args)
    b = outcome(getattr(native, name), *args)
    assert a == b, (name, args)
    return a[1] if a[0] == "ok" else None


# ---------------------------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------------------------

kinds = st.sampled_from([CORRIDOR, CORRIDOR, CORRIDOR, DOOR, DOOR, LOCKED, SECRET, WALL])


@st.composite
def boards(draw, max_rooms=24):
    """A board with the Entrance at (0,0); cells clustered (so rooms touch) or, sometimes,
    spread over the whole coordinate range; sides consistent between neighbours unless the
    draw asks for the (engine-impossible) inconsistent case."""
    wide = draw(st.booleans()) and draw(st.booleans())
    coord = (st.integers(-(1 << 31), (1 << 31) - 1) if wide else st.integers(-3, 3))
    size = draw(st.integers(0, max_rooms - 1))
    extra = draw(st.lists(st.tuples(coord, coord), min_size=size, max_size=size, unique=True))
    cells = [(0, 0)] + [c for c in extra if c != (0, 0)]
    index = {c: i for i, c in enumerate(cells)}
    consistent = draw(st.integers(0, 9)) > 0
    sides = []
    for i, (x, y) in enumerate(cells):
        for d in range(4):
            j = index.get((x + DX[d], y + DY[d]))
            if consistent and j is not None and j < i:
                sides.append(sides[4 * j + (d + 2) % 4])
            else:
                sides.append(draw(kinds))
    arrows = []
    for _ in range(len(cells)):
        for _colour in range(6):
            arrows.append(draw(st.sampled_from([-1, 0, 1, 2, 3])))
    board = (tuple(x for x, _ in cells), tuple(y for _, y in cells), tuple(sides), tuple(arrows))
    return board


@st.composite
def monster_lists(draw, n):
    masks = st.one_of(st.just(3), st.just(3 | 4), st.just(3 | 4 | 8), st.just(3 | 16),
                      st.integers(0, 31))
    return tuple(draw(st.lists(st.tuples(
        st.integers(0, n - 1), st.integers(0, 4), masks, st.integers(0, 1),
        st.integers(-1, n - 1)), max_size=18)))


@dataclass(frozen=True)
class Leaf:
    _hash_tag: ClassVar[str] = "Leaf"
    _hash_fields: ClassVar[tuple[str, ...]] = ("name", "value")
    name: str
    value: object


@dataclass(frozen=True)
class Branch:
    _hash_tag: ClassVar[str] = "Branch"
    _hash_fields: ClassVar[tuple[str, ...]] = ("kids",)
    kids: tuple


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(1 << 63), M64), st.integers(-5, 300),
    st.text(max_size=20), st.binary(max_size=20))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5).map(tuple), st.lists(inner, max_size=5),
        st.builds(Leaf, st.text(max_size=5), inner),
        st.lists(inner, max_size=4).map(lambda k: Branch(tuple(k)))),
    max_leaves=40)


# ---------------------------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------------------------

@SETTINGS
@given(seed=st.integers(0, M64), n=st.integers(0, (1 << 63) - 64),
       bound=st.one_of(st.integers(1, 100), st.integers(1, M64)),
       items=st.lists(st.integers(), max_size=40))
def test_rng_twins(seed, n, bound, items):
    for name in ("rng_d6", "rng_d10", "rng_colour"):
        same(name, seed, n)
    assert same("rng_u64", seed, n) is not None
    assert same("rng_below", seed, n, bound) is not None
    assert same("rng_shuffle", seed, n, items) is not None
    assert same("rng_shuffle", seed, n, tuple(items)) is not None


@settings(max_examples=60, deadline=None)
@given(args=st.tuples(
    st.one_of(st.integers(-3, 3), st.integers(M64 - 2, M64 + 2), st.floats(), st.text(max_size=1),
              st.booleans()),
    st.one_of(st.integers(-3, 3), st.integers((1 << 63) - 2, (1 << 63) + 2), st.none()),
    st.one_of(st.integers(-3, 3), st.integers(M64 - 2, M64 + 2), st.just(2.0))))
def test_rng_twins_on_bad_arguments(args):
    seed, n, bound = args
    same("rng_u64", seed, n)
    same("rng_below", seed, n, bound)
    same("rng_d6", seed, n)
    same("rng_shuffle", seed, n, (1, 2, 3))


def path_cost(board, start, route):
    xs, ys, sides, _ = board
    index = {(x, y): i for i, (x, y) in enumerate(zip(xs, ys))}
    cost, room = 0, start
    for d in route:
        assert sides[4 * room + d] != WALL
        cost += MOVE_COST[sides[4 * room + d]]
        room = index[(xs[room] + DX[d], ys[room] + DY[d])]
    return cost, room


@SETTINGS
@given(data=st.data(), board=boards())
def test_pathing_twins(data, board):
    n = len(board[0])
    start = data.draw(st.integers(0, n - 1))
    budget = data.draw(st.integers(0, 8))
    dash = data.draw(st.booleans())
    got = same("reachable", board, start, budget, dash)
    assert got is not None and (start, 0) in got
    full = dict(same("reachable", board, start, 3 * n, False))
    for goal in range(n):
        route = same("path_to", board, start, goal)
        if route is None:
            assert goal not in full
        else:
            # path_to's route is a cheapest one: it costs what reachable says.
            assert path_cost(board, start, route) == (full[goal], goal)
    for room in range(n):
        nbrs = same("neighbours", board, room)
        assert all(board[2][4 * room + d] != WALL for d, _ in nbrs)


@SETTINGS
@given(data=st.data(), board=boards())
def test_monster_turn_twins(data, board):
    n = len(board[0])
    xs, ys, sides, _arrows = board
    index = {(x, y): i for i, (x, y) in enumerate(zip(xs, ys))}
    monsters = data.draw(monster_lists(n))
    for colour in range(6):
        got = same("monster_turn", board, monsters, colour)
        assert got is not None
        dests, smashed = got
        assert len(dests) == len(monsters)
        for (room, move, _mask, smashes, _target), dest in zip(monsters, dests):
            if move == 3:                      # LURKING
                assert dest == room
            if dest == 0:                      # Q-LAW-4: only a monster that never left
                assert room == 0
        assert list(smashed) == sorted(set(smashed))
        for room, d in smashed:
            # A smashed connector was a door or locked door on the side crossed (either side,
            # on a deliberately inconsistent board), is reported from its lower room, and is
            # never one of the Entrance's (Q-LAW-3).
            assert any(m[3] for m in monsters)
            j = index.get((xs[room] + DX[d], ys[room] + DY[d]), -1)
            kinds = {sides[4 * room + d]} | ({sides[4 * j + (d + 2) % 4]} if j >= 0 else set())
            assert kinds & {DOOR, LOCKED}
            assert room != 0 and j != 0 and (j < 0 or room < j)


@settings(max_examples=80, deadline=None)
@given(data=st.data(), board=boards(max_rooms=6))
def test_twins_agree_on_broken_boards(data, board):
    # Replace one entry of one part by junk: both twins give the same result or exception type.
    part = data.draw(st.integers(0, 3))
    seq = list(board[part])
    pos = data.draw(st.integers(0, len(seq)))
    junk = data.draw(st.sampled_from([-2, -1, 4, 5, 7, 1 << 31, -(1 << 31) - 1, 1 << 70, "x",
                                      None, 1.0, True, (0,)]))
    if pos == len(seq):
        seq.append(junk)
    else:
        seq[pos] = junk
    broken = list(board)
    broken[part] = tuple(seq) if data.draw(st.booleans()) else seq
    broken = tuple(broken)
    same("reachable", broken, 0, 3, True)
    same("path_to", broken, 0, len(board[0]) - 1)
    same("neighbours", broken, 0)
    same("monster_turn", broken, ((0, 0, 3, 1, -1),), 0)


@SETTINGS
@given(value=values)
def test_digest_twins(value):
    full = same("digest_full", value)
    assert full is not None
    assert same("digest", value) == full
    assert same("digest", value) == full       # now from the caches both twins wrote


@settings(max_examples=60, deadline=None)
@given(value=st.one_of(values, st.floats(), st.sets(st.integers(), max_size=2),
                       st.dictionaries(st.integers(), st.integers(), max_size=2),
                       st.integers(-(1 << 70), 1 << 70)))
def test_digest_twins_including_errors(value):
    same("digest_full", (value, [value]))
    same("digest", Leaf("v", value))


def test_same_names():
    assert twin.__all__ == native.__all__
    for name in twin.__all__:
        if not callable(getattr(twin, name)):
            assert getattr(twin, name) == getattr(native, name), name
    assert (twin.IMPLEMENTATION, native.IMPLEMENTATION) == ("python", "native")


def test_twins_read_node_fields_alike_whatever_the_class_does():
    """The native core reads a plain node class's fields from the instance dict; a class with a
    data descriptor named like a field, or changed after use, must still be read as getattr
    reads it (as the twin does)."""
    Pair = node_class("Pair", "ab")

    @dataclass(frozen=True)
    class Shadowed:
        _hash_tag: ClassVar[str] = "Pair"
        _hash_fields: ClassVar[tuple] = ("a", "b")
        a: int

        @property
        def b(self):
            return self.a * 2

    x = Shadowed(3)
    x.__dict__["b"] = 99  # a dict read would see this; getattr sees the property (6)
    assert same("digest_full", x) == same("digest", x) == twin.digest_full(Pair(3, 6))

    Later = node_class("Pair", "ab", name="Later")
    assert same("digest", Later(1, 2)) == twin.digest_full(Pair(1, 2))  # checked (plain) now
    Later.b = property(lambda self: 7)                                   # ... then changed
    y = Later.__new__(Later)
    y.__dict__.update(a=1, b=2)
    assert same("digest_full", y) == same("digest", y) == twin.digest_full(Pair(1, 7))


# ---------------------------------------------------------------------------------------------
# Where a node keeps its attributes (the native core reads plain managed-dict nodes through the
# class's shared keys; every other place must read as getattr does, like the twin)
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Trio:
    _hash_tag: ClassVar[str] = "Trio"
    _hash_fields: ClassVar[tuple] = ("a", "b", "c")
    a: object
    b: object
    c: object = 5


class LooseDict(dict):
    pass


def _agree(make, expected):
    """Fresh objects from ``make()``: digest_full in both twins, then digest (natively twice:
    the second from the cache the first stored) all equal ``expected``."""
    assert twin.digest_full(make()) == native.digest_full(make()) == expected
    assert twin.digest(make()) == expected
    node = make()
    assert native.digest(node) == native.digest(node) == expected


def test_twins_read_a_node_wherever_it_keeps_its_values():
    expected = twin.digest_full(Trio(1, "x", 5))

    def materialised():
        n = Trio(1, "x")
        n.__dict__  # noqa: B018 - builds the split __dict__ sharing the class's keys
        return n

    def combined():
        n = Trio(1, "x")
        n.__dict__[7] = "not a str key"  # the dict stops sharing the keys
        return n

    def replaced(cls):
        def make():
            n = Trio(0, "y")
            object.__setattr__(n, "__dict__", cls(a=1, b="x", c=5))
            return n
        return make

    def default_from_class():
        n = Trio(1, "x", 9)
        object.__delattr__(n, "c")  # getattr finds the class default, 5
        return n

    def cache_none():
        n = Trio(1, "x")
        object.__setattr__(n, "_digest", None)
        return n

    for make in (lambda: Trio(1, "x"), materialised, combined, replaced(dict),
                 replaced(LooseDict), default_from_class, cache_none):
        _agree(make, expected)


def test_twins_agree_on_a_node_changed_while_it_is_read():
    """A field that is a non-plain node whose property changes its parent (the next field, its
    __dict__, the keys it shares): the parent's later fields are read as they are then."""
    class Meddler:
        _hash_tag = "Meddler"
        _hash_fields = ("v",)

        def __init__(self, parent_box):
            self.box = parent_box

        @property
        def v(self):
            p = self.box[0]
            for k in range(40):
                p.__dict__[f"x{k}"] = k  # more keys than a shared dict holds: combined now
            object.__setattr__(p, "b", 2)
            return 1

    def make():
        box = []
        n = Trio(Meddler(box), 1, 3)
        box.append(n)
        return n

    def plain():
        box = [Trio(0, 0)]
        return Trio(Meddler(box), 2, 3)

    _agree(make, twin.digest_full(plain()))


def test_twins_agree_after_a_node_changes_class_and_on_class_level_caches():
    @dataclass(frozen=True)
    class Swapped:
        _hash_tag: ClassVar[str] = "Swapped"
        _hash_fields: ClassVar[tuple] = ("c", "a")
        a: object
        b: object
        c: object = 5

    def make():
        n = Trio(1, "x")
        native.digest(Trio(1, "x"))
        object.__setattr__(n, "__class__", Swapped)
        return n

    _agree(make, twin.digest_full(Swapped(1, "x", 5)))

    @dataclass(frozen=True)
    class ClassCache:
        _hash_tag: ClassVar[str] = "ClassCache"
        _hash_fields: ClassVar[tuple] = ("a",)
        _digest: ClassVar[int] = 7  # every instance without its own reads 7 (getattr)
        a: int

    assert twin.digest(ClassCache(1)) == native.digest(ClassCache(1)) == 7
    assert native.digest_full(ClassCache(1)) == twin.digest_full(ClassCache(1)) != 7


def test_twins_agree_on_many_fields_and_on_caches_written_later():
    from dataclasses import make_dataclass

    names = tuple(f"f{k}" for k in range(60))  # more fields than the native core indexes
    Wide = make_dataclass("Wide", names, frozen=True)
    Wide._hash_tag, Wide._hash_fields = "Wide", names
    _agree(lambda: Wide(*range(60)), twin.digest_full(Wide(*range(60))))

    # A class without a declared cache field: _digest joins its shared keys on the first store;
    # a cache written afterwards is the one read, in both twins.
    @dataclass(frozen=True)
    class Bare:
        _hash_tag: ClassVar[str] = "Bare"
        _hash_fields: ClassVar[tuple] = ("a",)
        a: int

    for core in (twin, native):
        first, second = Bare(1), Bare(1)
        assert core.digest(first) == core.digest(second) == twin.digest_full(Bare(1))
        object.__setattr__(second, "_digest", 12345)
        assert core.digest(second) == 12345
        object.__setattr__(second, "_digest", 1 << 64)
        assert outcome(core.digest, second) == ("raised", TypeError)
        object.__setattr__(second, "_digest", -1)
        assert outcome(core.digest, second) == ("raised", TypeError)
        object.__setattr__(second, "_digest", True)
        assert outcome(core.digest, second) == ("raised", TypeError)


def test_twins_agree_on_short_tuples_at_the_nesting_limit():
    """The native core digests a short tuple of leaves inline, not through the walk that refuses
    a 201st level: the limit must still apply to it, in a tuple and in a node's field."""
    for tail in ((), (1,), (None, "a"), (True, 2, "b")):
        for levels in range(196, 203):
            in_tuples, in_nodes = tail, tail
            for _ in range(levels):
                in_tuples = (in_tuples,)
                in_nodes = Branch(in_nodes) if levels % 2 else Leaf("n", in_nodes)
            for value in (in_tuples, in_nodes):
                full = same("digest_full", value)
                assert same("digest", value) == full


def test_twins_agree_with_more_node_classes_than_the_native_core_records():
    """Past its 64 records the native core evicts classes (and records them again on their next
    node), possibly in the middle of digesting a node of another class."""
    from dataclasses import make_dataclass

    classes = []
    for k in range(150):
        cls = make_dataclass(f"C{k}", [("a", object), ("b", int)], frozen=True)
        cls._hash_tag, cls._hash_fields = f"C{k}", ("a", "b") if k % 3 else ("b", "a")
        classes.append(cls)

    def tree(k):  # a chain through many classes: each node's field holds the next one
        node = None
        for j in range(k, k + 40):
            node = classes[(j * 7) % len(classes)](node, j)
        return node

    for k in range(0, 150, 10):
        expected = twin.digest_full(tree(k))
        _agree(lambda k=k: tree(k), expected)


def test_the_native_core_reads_shared_keys_on_cpython_3_11():
    """The native core checks at import that its mirror of CPython 3.11's dict layouts reads what
    CPython reads, and else falls back to getattr (slow, still correct).  On 3.11 the check must
    pass, or the hash quietly loses most of its speed."""
    import sys

    assert native._SHARED_KEY_READS is (sys.version_info[:2] == (3, 11)
                                        and sys.implementation.name == "cpython")
