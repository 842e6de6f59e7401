"""Finding and reporting a desync: subtree digests by path, and the report file.

Two peers whose state hashes differ after entry n find the first differing field without shipping
states: one asks the other for "the digests of the children of path P" (:func:`kids`), compares them
with its own, and descends into the first child that differs, until the children agree, the shapes
differ, or a leaf is reached.  A path is a list of child indices (a node's field index, or a tuple
index); :func:`path_text` spells it like ``mq.rules.diff_path`` does (``state.players[1].gold``).

Also here, because it is the only other code that reaches into a state by path: the test-only
perturbation (``MQ_TEST_PERTURB``) used to prove that desyncs are caught.
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field

from mq import core
from mq.rules.node import Node


@dataclass
class Walk:
    """The sequencer's search for the first differing field with one peer: its connection and
    seat, the entry, the path walked so far and when the search started."""

    rid: bytes
    seat: int | None
    seq: int
    path: list[int] = field(default_factory=list)
    started: float = 0.0


def _child(value, i: int):
    if isinstance(value, Node):
        fields = value._hash_fields
        if 0 <= i < len(fields):
            return getattr(value, fields[i])
    elif isinstance(value, tuple) and 0 <= i < len(value):
        return value[i]
    raise KeyError(i)


def resolve(state, path: list[int]):
    value = state
    for i in path:
        value = _child(value, i)
    return value


def kids(state, path: list[int]) -> tuple[str, list[int]]:
    """The shape of the value at ``path`` ("node:<Tag>", "tuple", "leaf" or "missing") and the
    digests of its children."""
    try:
        value = resolve(state, path)
    except (KeyError, TypeError):
        return "missing", []
    if isinstance(value, Node):
        return "node:" + value._hash_tag[:10], [core.digest(getattr(value, f)) for f in value._hash_fields]
    if isinstance(value, tuple):
        return "tuple", [core.digest(x) for x in value]
    return "leaf", []


def first_difference(mine: tuple[str, list[int]], theirs: tuple[str, list[int]]) -> int | None:
    """Index of the first child whose digest differs, or None when the walk stops here."""
    if mine[0] != theirs[0] or len(mine[1]) != len(theirs[1]) or mine[0] in ("leaf", "missing"):
        return None
    for i, (a, b) in enumerate(zip(mine[1], theirs[1], strict=True)):
        if a != b:
            return i
    return None


def path_text(state, path: list[int]) -> str:
    out = "state"
    value = state
    for i in path:
        if isinstance(value, Node):
            out += "." + value._hash_fields[i]
        else:
            out += f"[{i}]"
        value = _child(value, i)
    return out


def parse_steps(state, text: str) -> list[int]:
    """``"players.1.gold"`` -> child indices (for the test-only perturbation)."""
    path, value = [], state
    for step in text.split("."):
        if isinstance(value, Node):
            i = value._hash_fields.index(step)
        else:
            i = int(step)
        path.append(i)
        value = _child(value, i)
    return path


def perturbed(state, text: str):
    """A copy of ``state`` whose integer field at ``text`` is one higher.  Test-only: it exists to
    make a peer disagree on purpose (MQ_TEST_PERTURB); no game path calls it."""
    path = parse_steps(state, text)

    def rebuild(value, rest):
        if not rest:
            if type(value) is not int:
                raise ValueError(f"{text} is not an integer field")
            return value + 1
        i = rest[0]
        new = rebuild(_child(value, i), rest[1:])
        if isinstance(value, Node):
            return value.replace(**{value._hash_fields[i]: new})
        return value[:i] + (new,) + value[i + 1:]

    return rebuild(state, path)


def write_report(path: str, report: dict) -> str:
    """Write a desync report (JSON) next to the log; returns the file name."""
    report = dict(report, written=time.strftime("%Y-%m-%dT%H:%M:%S"))
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)
    return path
