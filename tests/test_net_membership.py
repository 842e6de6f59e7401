"""net.membership: a sequencer's members, who it reaches within the lease, who is ready for a new
epoch, and the quorum rule (docs/net.md, "Quorum")."""
from __future__ import annotations

from net.membership import Member, Membership, quorum


def test_a_quorum_is_more_than_half_or_half_with_the_lowest_seat():
    assert quorum([0, 1, 2], {0, 2}) and not quorum([0, 1, 2], {2})
    assert quorum([0, 1], {0}) and not quorum([0, 1], {1})  # a 2-peer game goes on without seat 1
    assert quorum([1, 3, 4, 5], {1, 5}) and not quorum([1, 3, 4, 5], {3, 4})  # of two halves, one
    assert not quorum([], set()) and not quorum([0, 1, 2], {7, 8})  # seats outside the game count nothing


def _members(now):
    ms = Membership()
    for rid, seat, heard, promised in ((b"a", 1, now - 0.1, 16), (b"b", 2, now - 0.6, 16), (b"c", None, now, 16),
                                       (b"d", 3, now - 0.2, 8)):
        ms.members[rid] = Member(rid, f"key-{rid}", "n", seat, b"i" * 8, "127.0.0.1", 1, heard, promised=promised)
        if seat is not None:
            ms.seat_rid[seat] = rid
    return ms


def test_reach_ready_and_silence_follow_the_heartbeats():
    now = 100.0
    ms = _members(now)
    assert ms.reach(0, now, 0.5) == {0, 1, 3}  # seat 2 was heard 0.6 s ago; a spectator holds no seat
    assert ms.ready(0, now, 0.5, 16, set()) == {0, 1}  # seat 3 promised an older epoch
    assert ms.ready(0, now, 0.5, 16, {b"a"}) == {0}  # its log is still being adopted
    assert ms.silent(now, 0.5) == [b"b"] and ms.silent(now, 1.0) == []
    ms.away_since[2] = now
    ms.clear()
    assert ms.members == {} and ms.seat_rid == {} and ms.away_since == {2: now}
