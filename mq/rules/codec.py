"""State to and from plain msgpack-able data: a node becomes ``[tag, field, ...]``, a tuple a list;
``decode(encode(s)) == s``."""
from __future__ import annotations

from typing import Any

from mq.rules import state as S
from mq.rules.errors import IllegalAction
from mq.rules.node import Node

NODE_TYPES: dict[str, type[Node]] = {cls.__name__: cls for cls in (S.Params, S.Item, S.Player, S.Room, S.Monster, S.Deck,
                                            S.Turn, S.Combat, S.Pending, S.State)}


def encode(obj: Any) -> Any:
    if isinstance(obj, Node):
        return {"@": obj._hash_tag, "f": [encode(getattr(obj, f)) for f in obj._hash_fields]}
    if isinstance(obj, tuple):
        return [encode(x) for x in obj]
    return obj


def decode(data: Any, types: dict[str, type[Node]] | None = None) -> Any:
    """Inverse of :func:`encode` for the node types ``types`` (default: Quest's; the Classic mode
    passes its own, mq.classic.codec)."""
    table: dict[str, type[Node]] = NODE_TYPES if types is None else types
    if isinstance(data, dict):
        tag = data.get("@")
        cls = table.get(tag) if isinstance(tag, str) else None
        fields = data.get("f")
        if cls is None or not isinstance(fields, list) or len(fields) != len(cls._hash_fields):
            raise IllegalAction("action/malformed", "not an mq state")
        return cls(*[decode(x, table) for x in fields])
    if isinstance(data, list):
        return tuple(decode(x, table) for x in data)
    return data
