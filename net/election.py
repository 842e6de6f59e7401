"""Election: epochs (Raft's terms) and who sequences after a failover (docs/net.md, "Epochs",
"Failover").

There is no vote: every peer computes the same candidate, the lowest live peer seat, and a new
sequencer becomes live only once a quorum has promised its epoch (net.sequencer).  ``Election``
is a peer's state while it looks for the sequencer: the seats it found dead, the candidate it
connects to, whether it stepped down itself, and where (and under which key) it reached each
sequencer it followed.

Invariants: no two seats' reigns share an epoch (an epoch is counter * 8 + seat); a peer follows
no sequencer of an epoch older than its promise; a seat found dead is not a candidate until it
is heard from again (welcomed by it, or told it still sequences); a peer promises, follows and
raises to no epoch out of reach of its log (``within_reach``) (so that the epochs never run out).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from net import wire
from net.seats import SeatInfo

FIRST_EPOCH = 8  # the host's reign at the start (seat 0, counter 1): live from the lobby on, certified by no one
# How far above the epoch of its log's last entry a sequencer raises its epoch for a member's promise
# (a promise names an epoch; it is one player's word, signed by that player alone): 2**17 reigns.
# Honest reigns take the next epoch above what they have seen, at most 15 higher, so an honest
# promise is that far ahead only after 2**16 reigns in a row that numbered nothing: far more
# failovers than any game sees (one that steps down for want of a quorum lasts 2 x dead_s, 3 s).  A
# made-up promise that jumped further would spend the epochs (wire.MAX_PROMISE) in a few steps,
# after which no failover could take a new one; with the bound each jump needs an entry of a reign
# a quorum promised first.  A follower takes a welcome up to two jumps ahead of its own log's last
# entry (it may lack the first entry of the sequencer's last reign), so using the epochs up takes
# 2**19 such entries in one game.
MAX_JUMP = 1 << 20


def next_epoch(above: int, seat: int) -> int:
    """An epoch for a reign of ``seat`` higher than ``above``: counter * 8 + seat, so no two
    seats' reigns ever share an epoch (wire.MAX_SEATS <= 8)."""
    return ((above >> 3) + 1) << 3 | seat


def within_reach(epoch: int, last_epoch: int, jumps: int = 1) -> bool:
    """Whether a peer whose log's last entry is of epoch ``last_epoch`` may take a reign of
    ``epoch`` that another peer names (a sequencer: the epoch above a member's promise; a
    follower, with ``jumps`` 2: a welcome's): at most ``jumps`` x MAX_JUMP above that entry's,
    and low enough that the reign after it can still be promised on the wire (every follower
    tells its promise in each ping)."""
    return (epoch <= max(last_epoch, FIRST_EPOCH) + jumps * MAX_JUMP
            and next_epoch(epoch, wire.MAX_SEATS - 1) <= wire.MAX_PROMISE)


@dataclass
class Election:
    """A peer's failover state (see the module's invariants)."""

    dead: set[int] = field(default_factory=set)
    candidate: int | None = None  # the seat last connected to as a candidate (None: an address given)
    stepped_down: bool = False  # looking for the sequencer after giving up sequencing
    retry_hint: int | None = None  # a dead seat a peer still follows: going back to it at the deadline
    addrs: dict[int, tuple[str, int]] = field(default_factory=dict)  # where we reached each sequencer
    seat_keys: dict[int, str] = field(default_factory=dict)  # and its public key

    def candidates(self, seats: list[SeatInfo], me: int | None, player: bool) -> list[int]:
        """The peer seats that may sequence next, the first to try first: the lowest live one
        (deterministic: everyone computes the same; ours among them).  After stepping down (no
        quorum) every other peer seat counts, away or not, the seats we had lost first: the likeliest
        to be where the game went on.  A player that stepped down and reached nobody is its own
        candidate again (live once a quorum is back); empty: nobody is left."""
        cands = [s for s, i in enumerate(seats)
                 if i.kind == "peer" and s not in self.dead
                 and (s == me or ((self.stepped_down or not i.away) and i.port))]
        if self.stepped_down:
            cands.sort(key=lambda s: (not seats[s].away, s))
        if not cands and me is not None and me in self.dead and player:
            self.dead.clear()
            self.stepped_down = False
            cands = [me]
        return cands
