"""net.election: epochs of reigns, and the candidate a peer looking for the sequencer tries first
(docs/net.md, "Epochs", "Failover")."""
from __future__ import annotations

from net.election import Election, next_epoch
from net.seats import SeatInfo


def _seats(*specs: str) -> list[SeatInfo]:
    """'p' a reachable peer seat, 'a' an away one, 'b' a bot seat, 'x' a peer seat with no address."""
    kinds = {"p": ("peer", False, 7000), "a": ("peer", True, 7000), "b": ("bot", False, 0), "x": ("peer", False, 0)}
    return [SeatInfo(f"s{i}", kinds[c][0], host="127.0.0.1", port=kinds[c][2] and kinds[c][2] + i, away=kinds[c][1])
            for i, c in enumerate(specs)]


def test_no_two_seats_reigns_share_an_epoch_and_each_is_above_what_it_follows():
    seen = {next_epoch(above, seat) for above in range(0, 64) for seat in range(8)}
    assert len(seen) == len({(e >> 3, e & 7) for e in seen})
    for above in (0, 7, 8, 17, 1000):
        for seat in range(8):
            e = next_epoch(above, seat)
            assert e > above and e & 7 == seat


def test_the_lowest_live_reachable_peer_seat_comes_first_and_ours_counts_without_an_address():
    seats = _seats("a", "b", "p", "x", "p")
    assert Election(dead={0}).candidates(seats, 4, True) == [2, 4]
    assert Election().candidates(seats, 3, True) == [2, 3, 4]  # away seat 0 left out; 3 is ours
    assert Election(dead={2}).candidates(seats, 4, True) == [4]


def test_after_stepping_down_every_other_peer_seat_counts_the_lost_ones_first():
    seats = _seats("p", "a", "p", "a")
    el = Election(dead={0}, stepped_down=True)
    assert el.candidates(seats, 0, True) == [1, 3, 2]


def test_a_player_that_stepped_down_and_reached_nobody_is_its_own_candidate_again():
    seats = _seats("p", "a")
    el = Election(dead={0, 1}, stepped_down=True)
    assert el.candidates(seats, 0, True) == [0]
    assert el.dead == set() and not el.stepped_down
    # A spectator (no seat) or a peer that is not a player has nobody: the game is closed for it.
    assert Election(dead={0, 1}).candidates(seats, None, False) == []
    assert Election(dead={0, 1}, stepped_down=True).candidates(seats, 0, False) == []
