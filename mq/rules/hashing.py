"""State hashes (DESIGN "Determinism and hashing"): the incremental Merkle digest of the state
tree from mq.core, its full recompute, and the first differing field between two states, found
top-down through subtree digests (for desync reports)."""
from __future__ import annotations

import os

from mq import core
from mq.rules.node import Node

CHECK = os.environ.get("MQ_CHECK_HASH") == "1"  # debug switch: verify every incremental hash


def state_hash(state: Node) -> int:
    h = core.digest(state)
    if CHECK and h != core.digest_full(state):
        raise AssertionError("incremental state hash differs from the full recompute")
    return h


def full_hash(state: Node) -> int:
    return core.digest_full(state)


def diff_path(a, b, path: str = "state") -> str | None:
    """The path of the first field where ``a`` and ``b`` differ (None when equal), descending only
    into subtrees whose digests differ."""
    if core.digest(a) == core.digest(b):
        return None
    if isinstance(a, Node) and type(a) is type(b):
        for name in a._hash_fields:
            sub = diff_path(getattr(a, name), getattr(b, name), f"{path}.{name}")
            if sub is not None:
                return sub
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            sub = diff_path(x, y, f"{path}[{i}]")
            if sub is not None:
                return sub
    return path
