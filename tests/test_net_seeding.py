"""The seed commit-reveal's two sides (net.seeding; docs/net.md, "Seed").  The whole exchange over
real sockets is in tests/test_net_lobby.py and every game test."""
from __future__ import annotations

import pytest

from mq.rules import make_params
from net import gamelog, wire
from net.seeding import Exchange, Pledge, commitment, new_nonce

ROSTER = [["a", "x" * 40, "peer"], ["bot-green", "", "bot"], ["c", "y" * 40, "peer"]]
SIGNERS = [bytes([7]) * 32, b"", bytes([8]) * 32]  # the players' signing keys; none for the bot seat
MINE, THEIRS = bytes([1]) * 32, bytes([2]) * 32


def _exchange() -> Exchange:
    return Exchange.open(make_params(3), ROSTER, [0, 2], deadline=10.0, seat=0, nonce=MINE, signers=SIGNERS)


def test_the_exchange_takes_commitments_then_nonces_that_match_them_and_makes_the_header():
    ex = _exchange()
    assert ex.missing() == [2] and ex.to_reveal() is None and ex.header(b"G" * 8) is None
    assert ex.reveal(2, THEIRS) == "not expected now"  # nobody reveals before every seat committed
    assert ex.commit(1, commitment(THEIRS)) == "not expected now"  # a bot seat has no nonce
    assert ex.commit(2, commitment(THEIRS)) is None
    assert ex.to_reveal() == [commitment(MINE), commitment(THEIRS)]
    assert ex.to_reveal() is None  # shown once
    assert ex.commit(2, commitment(MINE)) == "not expected now"  # too late to change one's mind
    assert ex.missing() == [2]
    assert ex.reveal(2, bytes([3]) * 32) == "nonce does not match its commitment"
    assert ex.header(b"G" * 8) is None
    assert ex.reveal(2, THEIRS) is None and ex.missing() == []
    header = gamelog.decode_header(ex.header(b"G" * 8))
    assert header.nonces == (MINE, THEIRS) and header.seed == gamelog.seed_from([MINE, THEIRS])
    assert header.roster == tuple(tuple(r) for r in ROSTER)
    assert header.signed and header.signers == tuple(SIGNERS)  # the header binds each player's key to its seat


def test_a_follower_takes_only_a_header_whose_nonces_it_saw_committed_its_own_among_them():
    mine = Pledge(THEIRS)
    with pytest.raises(wire.Malformed, match="ours is missing"):
        mine.shown([commitment(MINE)])
    with pytest.raises(wire.Malformed, match="bad"):
        mine.shown([b"short"])
    mine.shown([commitment(MINE), commitment(THEIRS)])
    good = gamelog.decode_header(gamelog.encode_header(b"G" * 8, gamelog.seed_from([MINE, THEIRS]),
                                                       make_params(3), [MINE, THEIRS], ROSTER, SIGNERS))
    mine.check(good)
    swapped = gamelog.decode_header(gamelog.encode_header(b"G" * 8, gamelog.seed_from([THEIRS, MINE]),
                                                          make_params(3), [THEIRS, MINE], ROSTER, SIGNERS))
    with pytest.raises(wire.Malformed, match="do not match"):
        mine.check(swapped)
    other = Pledge(bytes([9]) * 32)  # a nonce it never committed to is not in the header
    other.commits = [commitment(MINE), commitment(THEIRS)]
    with pytest.raises(wire.Malformed, match="do not match"):
        other.check(good)


def test_a_local_seed_makes_the_nonce_a_function_of_it_and_the_seat():
    assert new_nonce(lambda n: bytes(n), None, 0) == bytes(32)
    assert new_nonce(lambda n: bytes(n), 7, 1) == new_nonce(lambda n: b"", 7, 1) != new_nonce(bytes, 7, 2)
