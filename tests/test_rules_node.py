"""Node.replace is dataclasses.replace without the frozen __init__: same values, same field order,
no cache carried over, unknown fields refused; a node class may not have a __post_init__."""
from __future__ import annotations

import dataclasses

import pytest

from mq import core
from mq.rules.codec import NODE_TYPES
from mq.rules.newgame import make_params, new_game
from mq.rules.node import Node, node
from mq.rules.state import Item, Player


def test_replace_equals_dataclasses_replace_on_a_real_state():
    s = new_game(make_params(3), 12)
    core.digest(s)
    for field in s._hash_fields:
        value = getattr(s, field)
        a, b = s.replace(**{field: value}), dataclasses.replace(s, **{field: value})
        assert a == b and list(a.__dict__) == list(b.__dict__) == list(s._hash_fields)
        assert "_digest" not in a.__dict__ and "_board" not in a.__dict__
        assert core.digest(a) == core.digest_full(a) == core.digest(s)
    p = s.players[1]
    q = p.replace(level=4, hand=("x",), items=(Item("y", "worn"),))
    assert q == dataclasses.replace(p, level=4, hand=("x",), items=(Item("y", "worn"),))
    assert (p.level, q.level) == (1, 4) and q.seat == p.seat
    assert core.digest(q) == core.digest_full(q) != core.digest(p)


def test_every_node_class_copies_every_field():
    for cls in NODE_TYPES.values():
        assert cls._field_set == frozenset(f.name for f in dataclasses.fields(cls))


def test_unknown_field_is_a_type_error():
    with pytest.raises(TypeError):
        Player(seat=0, gender="f").replace(levle=2)


def test_a_node_with_post_init_is_refused():
    with pytest.raises(TypeError):
        @node
        class Checked(Node):
            x: int

            def __post_init__(self):
                pass
