"""Election: epochs (Raft's terms) and who sequences after a failover (docs/net.md, "Epochs",
"Failover").

There is no vote: every peer computes the same candidate, the lowest live peer seat, and a new
sequencer becomes live only once a quorum has promised its epoch (net.sequencer).  ``Election``
is a peer's state while it looks for the sequencer: the seats it found dead, the candidate it
connects to, whether it stepped down itself, and where (and under which key) it reached each
sequencer it followed.

Invariants: no two seats' reigns share an epoch (an epoch is counter * 8 + seat); a peer follows
no sequencer of an epoch older than its promise; a seat found dead is not a candidate until it
is heard from again (welcomed by it, or told it still sequences).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from net.seats import SeatInfo

FIRST_EPOCH = 8  # the host's reign at the start (seat 0, counter 1): live from the lobby on, certified by no one


def next_epoch(above: int, seat: int) -> int:
    """An epoch for a reign of ``seat`` higher than ``above``: counter * 8 + seat, so no two
    seats' reigns ever share an epoch (wire.MAX_SEATS <= 8)."""
    return ((above >> 3) + 1) << 3 | seat


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
