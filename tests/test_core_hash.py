"""The state hash of the core: ``digest`` (incremental, node caches) and ``digest_full``.

DESIGN "Determinism and hashing": a Merkle hash over the immutable state tree; each node caches
its digest, a new state pays only for its new nodes, and a full recompute must equal it.
"""
from __future__ import annotations

import enum
import itertools
from dataclasses import dataclass, field, replace
from typing import ClassVar

import pytest
from nodes import node_class

M64 = (1 << 64) - 1


@dataclass(frozen=True)
class Room:
    """A test node without a declared cache field (the cache lands in __dict__)."""
    _hash_tag: ClassVar[str] = "Room"
    _hash_fields: ClassVar[tuple[str, ...]] = ("name", "items")
    name: str
    items: tuple


@dataclass(frozen=True)
class Hall:
    """Same fields as Room, another tag."""
    _hash_tag: ClassVar[str] = "Hall"
    _hash_fields: ClassVar[tuple[str, ...]] = ("name", "items")
    name: str
    items: tuple


@dataclass(frozen=True)
class Node:
    """Like the engine's node base: the cache is a declared, non-compared field."""
    _hash_tag: ClassVar[str] = "Node"
    _hash_fields: ClassVar[tuple[str, ...]] = ("label", "children")
    label: str
    children: tuple
    _digest: int | None = field(default=None, init=False, repr=False, compare=False)


@dataclass(frozen=True)
class Hidden:
    """A node that hashes only some of its fields (``note`` is presentation, not state)."""
    _hash_tag: ClassVar[str] = "Hidden"
    _hash_fields: ClassVar[tuple[str, ...]] = ("value",)
    value: int
    note: str = ""


class Colour(enum.IntEnum):
    RED = 0
    GREEN = 1


KNOWN = [
    (None, 12035550249420947055),
    (True, 6728581669027343264),
    (False, 5095610196844313600),
    (0, 17160774760686499100),
    (1, 8875350024871729752),
    (-1, 6454868128580515864),
    (M64, 10256358679748619766),
    (-(1 << 63), 11398930067091787805),
    ("", 5085904676777434204),
    ("abc", 2447858071731575959),
    ("héllo wörld, 8+ bytes", 6815813733679840357),
    (b"", 1428740210282922284),
    (b"12345678", 5190320813294969594),
    (b"123456789", 17438720801820626659),
    ((), 7679224513536973917),
    ((1, 2), 6022782033899944432),
    (((1, 2), 3), 13725268658398770671),
    (Room("Hall", (1, "axe", None)), 3525263644816231779),
]


@pytest.mark.parametrize("value, expected", KNOWN, ids=[repr(v)[:30] for v, _ in KNOWN])
def test_known_answers(core_impl, value, expected):
    assert core_impl.digest_full(value) == expected
    assert core_impl.digest(value) == expected


def build_tree(width=6, depth=3, tag="n"):
    """A full tree of Node with Room leaves: width**depth leaves."""
    if depth == 0:
        return Room(f"{tag}", (len(tag), tag.encode(), None, True))
    return Node(tag, tuple(build_tree(width, depth - 1, f"{tag}.{i}") for i in range(width)))


def replace_leaf(tree, path, leaf):
    """A new tree sharing every node off ``path`` with ``tree``."""
    if not path:
        return leaf
    i, rest = path[0], path[1:]
    kids = list(tree.children)
    kids[i] = replace_leaf(kids[i], rest, leaf)
    return replace(tree, children=tuple(kids))


def test_incremental_equals_full(core_impl):
    tree = build_tree()
    assert core_impl.digest(tree) == core_impl.digest_full(tree)
    new = replace_leaf(tree, (2, 5, 1), Room("changed", (1, 2, 3)))
    assert new.children[0] is tree.children[0]            # shared, still cached
    assert new.children[2]._digest is None                # on the path: fresh
    h = core_impl.digest(new)
    assert h == core_impl.digest_full(new) != core_impl.digest(tree)
    # Changing the leaf back gives the old digest again.
    back = replace_leaf(new, (2, 5, 1), tree.children[2].children[5].children[1])
    assert core_impl.digest(back) == core_impl.digest(tree)


def test_digest_reuses_and_fills_caches(core_impl):
    tree = build_tree(width=3, depth=2)
    h = core_impl.digest(tree)
    assert tree._digest == h
    assert tree.children[1]._digest == core_impl.digest_full(tree.children[1])
    assert tree.children[1].children[0].__dict__["_digest"] == \
        core_impl.digest_full(tree.children[1].children[0])
    # A planted (wrong) cache value is trusted by digest: proof that shared subtrees are not
    # walked again. digest_full ignores it.
    # (The children tuple is a new object: the tuple table knows the old one, see below.)
    new = replace(tree, label="root2", children=tree.children[:1] + tree.children[1:])
    object.__setattr__(tree.children[1], "_digest", 12345)
    honest = core_impl.digest_full(new)
    assert core_impl.digest(new) != honest
    assert core_impl.digest_full(new) == honest


def test_shared_tuples_are_not_walked_again(core_impl):
    """A tuple of 4+ immutable items seen by digest is remembered by identity (the tuple table):
    a state sharing it does not walk it again, so a cache planted below it afterwards is not
    even read; digest_full still walks everything."""
    tree = build_tree(width=5, depth=2)
    h = core_impl.digest(tree)
    new = replace(tree, label="root2")          # shares tree.children (5 nodes)
    object.__setattr__(tree.children[1], "_digest", 12345)
    assert core_impl.digest(new) == core_impl.digest_full(new) != h  # the planted value is unseen
    fresh = replace(tree, label="root2", children=tree.children[:2] + tree.children[2:])
    assert core_impl.digest(fresh) != core_impl.digest_full(fresh)    # ... unless the tuple is new


def test_tuples_holding_mutable_values_are_never_remembered(core_impl):
    """A list (or a builtin subclass) outside any node keeps a tuple out of the table, so
    changing the list changes the digest; strings are immutable and always remembered."""
    inner = [1, 2]
    t = (inner, "a", "b", "c", "d")
    nested = ((inner,), "a", "b", "c")
    first, first_nested = core_impl.digest(t), core_impl.digest(nested)
    inner.append(3)
    assert core_impl.digest(t) == core_impl.digest_full(t) != first
    assert core_impl.digest(nested) == core_impl.digest_full(nested) != first_nested
    e = (Colour.GREEN, 1, 2, 3)
    assert core_impl.digest(e) == core_impl.digest((1, 1, 2, 3))
    words = tuple(f"card-{i}" for i in range(50))
    assert core_impl.digest(words) == core_impl.digest_full(words) == core_impl.digest(tuple(list(words)))


def test_many_tuples_and_strings_cycle_through_the_tables(core_impl):
    """More live tuples and strings than table slots: every digest still equals a recompute."""
    rows = [tuple(f"s{i}-{k}" for k in range(6)) for i in range(5000)]
    for _ in range(2):
        for r in rows[::7] + rows:
            assert core_impl.digest(r) == core_impl.digest_full(r)


def test_digest_full_neither_reads_nor_writes_the_cache(core_impl):
    tree = build_tree(width=2, depth=2)
    core_impl.digest_full(tree)
    assert tree._digest is None
    assert "_digest" not in tree.children[0].children[0].__dict__


def test_only_listed_fields_count(core_impl):
    assert core_impl.digest(Hidden(3, "a")) == core_impl.digest(Hidden(3, "b"))
    assert core_impl.digest(Hidden(3)) != core_impl.digest(Hidden(4))


DISTINCT = [
    None, 0, 1, -1, M64, True, False, "", "0", "1", "None", b"", b"1", b"ab", b"ab\x00",
    (), (0,), (None,), ((),), (1, 2), (2, 1), ((1, 2), 3), (1, (2, 3)), (1, 2, 3),
    ("a", "b"), ("ab",), ("a", "b", ""), Room("x", ()), Hall("x", ()), ("x", ()),
    Room("x", (1,)), Room("", ()), Node("x", ()), (Room("x", ()),),
]


def test_different_values_give_different_digests(core_impl):
    digests = [core_impl.digest_full(v) for v in DISTINCT]
    for (a, da), (b, db) in itertools.combinations(zip(DISTINCT, digests), 2):
        assert da != db, (a, b)


def test_equal_values_give_equal_digests(core_impl):
    # Tuple and list share the sequence tag; subclasses of builtins hash as the builtin value.
    assert core_impl.digest([1, [2, "x"]]) == core_impl.digest((1, (2, "x")))
    assert core_impl.digest(Colour.GREEN) == core_impl.digest(1) != core_impl.digest(True)
    assert core_impl.digest(Room("x", (1,))) == core_impl.digest(Room("x", (1,)))


def test_long_strings_and_bytes(core_impl):
    s = "mq" * 1000
    assert core_impl.digest(s) != core_impl.digest(s + "m")
    assert core_impl.digest(s.encode()) != core_impl.digest(s)
    blobs = [bytes(range(k)) for k in range(20)]
    assert len({core_impl.digest(b) for b in blobs}) == 20


@pytest.mark.parametrize("value", [{}, {1: 2}, set(), frozenset({1}), 1.5, object(), (1, {}),
                                   Room("x", ({"a": 1},)), bytearray(b"x"), 1j])
def test_unsupported_types_raise_type_error(core_impl, value):
    with pytest.raises(TypeError):
        core_impl.digest(value)
    with pytest.raises(TypeError):
        core_impl.digest_full(value)


@pytest.mark.parametrize("value", [1 << 64, -(1 << 63) - 1, (1, 1 << 70)])
def test_ints_out_of_range_raise_value_error(core_impl, value):
    with pytest.raises(ValueError):
        core_impl.digest(value)


def test_ints_at_the_range_ends(core_impl):
    assert core_impl.digest(M64) != core_impl.digest(-1)
    assert core_impl.digest(-(1 << 63)) != core_impl.digest(1 << 63)


def test_bad_node_declarations(core_impl):
    @dataclass(frozen=True)
    class BadFields:
        _hash_tag: ClassVar[str] = "Bad"
        _hash_fields: ClassVar[list] = ["a"]
        a: int

    @dataclass(frozen=True)
    class BadTag:
        _hash_tag: ClassVar[int] = 3
        _hash_fields: ClassVar[tuple] = ("a",)
        a: int

    @dataclass(frozen=True)
    class Missing:
        _hash_tag: ClassVar[str] = "Missing"
        _hash_fields: ClassVar[tuple] = ("nope",)
        a: int

    for bad in (BadFields(1), BadTag(1)):
        with pytest.raises(TypeError):
            core_impl.digest(bad)
    with pytest.raises(AttributeError):
        core_impl.digest(Missing(1))


def test_bad_cached_digest(core_impl):
    node = Node("x", ())
    object.__setattr__(node, "_digest", "not a digest")
    with pytest.raises(TypeError):
        core_impl.digest(node)
    assert core_impl.digest_full(node) == core_impl.digest_full(Node("x", ()))


def test_nesting_limit(core_impl):
    deep = ()
    for _ in range(199):
        deep = (deep,)
    core_impl.digest(deep)                   # 200 levels: fine
    with pytest.raises(ValueError):
        core_impl.digest((deep,))            # 201 levels: refused, identically in both twins


def test_a_node_class_changed_after_use_is_read_again(core_impl):
    """The native core remembers node classes it checked; changing a class's tag or fields
    afterwards must be seen exactly as the twin sees it (it reads them every time)."""
    Changing = node_class("Changing", "ab")
    first = core_impl.digest(Changing(1, 2))
    assert first == core_impl.digest_full(Changing(1, 2))
    Changing._hash_fields = ("a",)
    second = core_impl.digest(Changing(1, 2))
    assert second == core_impl.digest_full(Changing(1, 2)) != first
    Changing._hash_tag = "Other"
    third = core_impl.digest(Changing(1, 2))
    assert third == core_impl.digest_full(Changing(1, 2)) not in (first, second)
    Changing._hash_fields = ["a"]
    with pytest.raises(TypeError):
        core_impl.digest(Changing(1, 2))
