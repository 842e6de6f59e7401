"""Membership: the connections a sequencer has, the seat each one holds, the seats that are away
and since when, and the quorum questions asked of them (docs/net.md, "Heartbeats, away seats,
rejoining" and "Quorum").

Invariants: a seat is bound to at most one connection (``seat_rid``), a member's seat is the one
its CURVE key holds (net.peer binds it in ``hello``); ``last_seen`` is the sequencer's clock when
the member was last heard; a quorum of the game's peer seats is more than half of them, or exactly
half including the lowest, so that of two equal halves only one can sequence.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Member:
    """A connection at the sequencer."""

    rid: bytes
    pub: str
    name: str
    seat: int | None
    inc: bytes
    host: str
    port: int
    last_seen: float
    acked: int = 0
    last: int = 0  # the length of its log when it said hello (or after the rewind we told it)...
    common: int = 0  # ...and the last entry it shares with ours
    lep: int = 0  # the epoch of its last entry when it said hello
    promised: int = 0  # the highest epoch it told us it promised (hello, ping), signed by its seat...
    psig: bytes | None = None  # ...with this signature of that promise (net.signing; a reign's certificate)


def quorum(peer_seats: list[int], seats: set[int]) -> bool:
    """Whether ``seats`` hold a quorum of the game's ``peer_seats`` (ascending): more than half of
    them, or exactly half including the lowest (a 2-peer game goes on without seat 1)."""
    have = sum(1 for s in peer_seats if s in seats)
    return 2 * have > len(peer_seats) or (2 * have == len(peer_seats) and bool(peer_seats)
                                          and peer_seats[0] in seats)


class Membership:
    """The sequencer's members (routing id -> Member), which connection holds each seat, and the
    seats away since when (the table's bot may take them: mq.steward.takes_over)."""

    def __init__(self) -> None:
        self.members: dict[bytes, Member] = {}
        self.seat_rid: dict[int, bytes] = {}
        self.away_since: dict[int, float] = {}

    def clear(self) -> None:
        """No connections (a sequencer starting a reign, or stepping down); away seats stay."""
        self.members.clear()
        self.seat_rid.clear()

    def silent(self, now: float, dead_s: float) -> list[bytes]:
        """The members not heard for more than ``dead_s``: gone."""
        return [rid for rid, m in self.members.items() if now - m.last_seen > dead_s]

    def reach(self, own: int, now: float, lease: float) -> set[int]:
        """The seats heard within ``lease`` (``own`` included): a follower gives up on a silent
        sequencer only after ``dead_s``, so with ``lease`` = dead_s / 2 these still follow it."""
        return {own} | {m.seat for m in self.members.values()
                        if m.seat is not None and now - m.last_seen <= lease}

    def ready(self, own: int, now: float, lease: float, epoch: int, fetching: set[bytes]) -> set[int]:
        """The seats a new sequencer may go live with: reached, promised ``epoch``, and holding
        nothing more up to date than its log (Raft's election restriction, reached by adopting the
        better logs: a member whose log is still being adopted is in ``fetching``)."""
        return {own} | {m.seat for m in self.members.values()
                        if m.seat is not None and now - m.last_seen <= lease
                        and m.promised >= epoch and m.rid not in fetching}
