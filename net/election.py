"""Election: epochs (Raft's terms) and who sequences after a failover (docs/net.md, "Epochs",
"Failover").

Invariants: no two seats' reigns share an epoch (an epoch is counter * 8 + seat); a peer follows
no sequencer of an epoch older than its promise.
"""
from __future__ import annotations


def next_epoch(above: int, seat: int) -> int:
    """An epoch for a reign of ``seat`` higher than ``above``: counter * 8 + seat, so no two
    seats' reigns ever share an epoch (wire.MAX_SEATS <= 8)."""
    return ((above >> 3) + 1) << 3 | seat
