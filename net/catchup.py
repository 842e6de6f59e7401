"""Catch-up: how a peer gets the entries it lacks (docs/net.md, "Topology and roles": nothing
depends on a message arriving, only on entries being applied in order).

A follower buffers entries that arrive ahead of its log (:class:`CatchUp`), notes the head the
sequencer announces (``tick``, ``end``, a full batch), and asks with ``fetch`` when it is behind —
at most once per heartbeat, at once when forced (a welcome, a header, an ``end``) or after a full
batch of FETCH_BATCH entries, since more is likely waiting.  Whoever is asked answers with
:func:`records_from` (the sequencer to a ``fetch``, any peer to a new sequencer's ``fetch_req``).

Invariants: the buffer holds only entries past the log's last (a bounded number, BUFFER_MAX), keyed
by their number; nothing here applies an entry (the replica does, in order); ``head`` never goes
down while a log is followed.
"""
from __future__ import annotations

from net.gamelog import Entry, GameLog

FETCH_BATCH = 2000  # entries per catch-up message (~100 bytes each, far below MAX_MESSAGE)
BUFFER_MAX = 50_000  # entries ahead of the log a follower keeps (the rest it fetches again)


def records_from(lg: GameLog, start: int) -> list[bytes]:
    """The entries of ``lg`` from ``start`` on, at most FETCH_BATCH, as their record bytes."""
    return [e.raw for e in lg.entries[max(0, start - 1):start - 1 + FETCH_BATCH]]


class CatchUp:
    """A follower's entries received ahead of its log, the head it knows of, and when it last
    asked for what it lacks."""

    def __init__(self) -> None:
        self.buffer: dict[int, Entry] = {}
        self.head = 0  # the last entry the game is known to have
        self.last_fetch = 0.0

    def heard(self, head: int) -> None:
        """The game has at least ``head`` entries."""
        self.head = max(self.head, head)

    def offer(self, e: Entry, seq: int) -> None:
        """Keep ``e`` if it is past our last entry ``seq`` (and the buffer has room)."""
        if e.n > seq and len(self.buffer) < BUFFER_MAX:
            self.buffer[e.n] = e

    def full_batch(self, last: int) -> None:
        """A full catch-up batch ended at entry ``last``: more is likely waiting, so the next
        fetch goes at once rather than after the sequencer's next tick (10 000 entries: 5
        batches, ~1 s of waiting).  If the log ended exactly there, the hint is gone with the next
        entry that arrives."""
        self.head = max(self.head, last + 1)
        self.last_fetch = float("-inf")

    def next(self, seq: int) -> Entry | None:
        """The buffered entry after ``seq``, taken out of the buffer; None if it has not come."""
        return self.buffer.pop(seq + 1, None)

    def should_fetch(self, seq: int, now: float, period: float, force: bool = False) -> bool:
        """Whether to ask for the entries after ``seq`` now (noted as asked if so): forced, or
        behind and not asked within ``period``."""
        behind = self.head > seq or (self.buffer and min(self.buffer) > seq + 1)
        if force or (behind and now - self.last_fetch > period):
            self.last_fetch = now
            return True
        return False
