"""Finding and reporting a desync: subtree digests by path, the sequencer's search, the report file.

Two peers whose state hashes differ after entry n find the first differing field without shipping
states: one asks the other for "the digests of the children of path P" (:func:`kids`), compares them
with its own, and descends into the first child that differs, until the children agree, the shapes
differ, or a leaf is reached.  A path is a list of child indices (a node's field index, or a tuple
index); :func:`path_text` spells it like ``mq.rules.diff_path`` does (``state.players[1].gold``).
The sequencer runs that search with one member (:class:`Search`: the hashes its members reported,
the walk, the finding it publishes once every connected seat has reported); the search does no
I/O: the sequencer sends the questions and the finding it returns.

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


# The finding is published once every connected seat reported its hash for the entry, or after
# this long (so that the report lists all peers); a member that leaves a question of the search
# unanswered for ANSWER_S ends it.
PUBLISH_WAIT_S = 0.5
ANSWER_S = 3.0
MAX_DEPTH = 32  # a walk stops this deep (a state is far shallower: a bound, not a limit in use)


class Search:
    """The sequencer's desync search (see the module docstring).  ``keep``: how many entries back
    the members' reported hashes are kept (the replica keeps the states of as many)."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.reports: dict[int, dict[int, int]] = {}  # entry -> seat -> the hash it reported
        self.seq: int | None = None  # the entry after which hashes differ (None: no desync)
        self.walk: Walk | None = None  # the search with one member, while it runs
        self.found: tuple[int, str, float] | None = None  # (entry, first difference, publish by)

    def reported(self, n: int, seat: int, h: int) -> None:
        """Seat ``seat`` reported hash ``h`` after entry ``n``."""
        self.reports.setdefault(n, {})[seat] = h
        self.reports.pop(n - self.keep, None)

    def begin(self, rid: bytes, seat: int | None, n: int, state, now: float) -> list[int] | None:
        """Search with the member on ``rid``, whose hash after entry ``n`` differs from ours;
        ``state``: ours after ``n`` (None: no longer kept).  Returns the first path to ask it about
        (a ``kids_req``), or None: there is nothing to walk, the finding waits to be published."""
        self.seq = n
        if state is None:
            self.walk = Walk(rid, seat, n, started=now)
            self.finish(None, "the state of that entry is no longer kept", now)
            return None
        self.walk = Walk(rid, seat, n, [], now)
        return self.walk.path

    def answer(self, state, theirs: tuple[str, list[int]], now: float) -> list[int] | None:
        """The member's shape and digests at the path asked; ``state``: ours after the entry.
        Returns the next path to ask about, or None: the search is over (the finding waits)."""
        w = self.walk
        assert w is not None  # a search runs
        i = first_difference(kids(state, w.path), theirs)
        if i is None or len(w.path) >= MAX_DEPTH:
            self.finish(state, None, now)
            return None
        w.path.append(i)
        return w.path

    def unanswered(self, now: float) -> bool:
        """The member has left the search's question unanswered too long."""
        return self.walk is not None and now - self.walk.started > ANSWER_S

    def finish(self, state, problem: str | None, now: float) -> None:
        """The walk ends (``problem``: why it stopped early); ``state``: ours after the entry
        (None: no longer kept).  Its finding waits for the members' reports (:meth:`due`)."""
        w, self.walk = self.walk, None
        assert w is not None  # a search runs
        text = path_text(state, w.path) if state is not None else "state"
        if problem:
            text += f" (search stopped: {problem})"
        self.found = (w.seq, text, now + PUBLISH_WAIT_S)

    def due(self, now: float, seats) -> tuple[int, str] | None:
        """The finding (entry, first difference) to publish now: once each of ``seats`` (the
        connected ones) reported its hash for the entry, or the wait is over; None: not yet."""
        if self.found is None:
            return None
        n, text, until = self.found
        if now < until and any(s not in self.reports.get(n, {}) for s in seats):
            return None
        self.found = None
        return n, text

    def hashes(self, n: int, seat: int | None, h: int) -> list[list]:
        """[seat, hash] after entry ``n``: ours (``seat``, ``h``) first, then each member's."""
        return [[seat, h]] + [[s, x] for s, x in sorted(self.reports.get(n, {}).items()) if s != seat]


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
