"""Connection limits: how many TCP connections a peer's ROUTER keeps from one address and in all
(issue 13; docs/net.md, "Connection limits").

libzmq accepts every connection and has no accept filter, so a stranger could open connections
until the host runs out of descriptors.  net.transport watches the ROUTER's connections (a socket
monitor: accepted, disconnected, closed) and asks this policy which one to shut; a connection
counts from its accept until it closes, whether its CURVE handshake completed or not (one that
never completes it is closed by libzmq after ``HANDSHAKE_IVL``).

Invariants:
- No address holds more than ``per_address`` connections: one beyond that is shut at once.
- No more than ``total`` in all (below the descriptor limit: :func:`total_for`): a connection
  beyond that takes the place of the newest connection of the address that holds the most, when
  that address holds more than one; otherwise it is shut.  So an address that holds none yet (a
  player's) always gets in while any address holds several.
- Pure bookkeeping: no I/O, no clock.
"""
from __future__ import annotations

PER_ADDRESS = 16  # a player needs one; spectators on the same machine and reconnects a few more
TOTAL_MAX = 1024
RESERVE = 128  # descriptors left for the log, the event loop, libzmq's own, the key service


def total_for(soft_limit: int) -> int:
    """The cap on all connections for a process whose soft limit on open files is ``soft_limit``
    (-1: the platform has none)."""
    if soft_limit < 0:
        return TOTAL_MAX
    return max(PER_ADDRESS, min(TOTAL_MAX, soft_limit - RESERVE))


class ConnectionLimits:
    """The connections of one ROUTER by descriptor, and the limits (see the module docstring)."""

    def __init__(self, per_address: int = PER_ADDRESS, total: int = TOTAL_MAX) -> None:
        self.per_address, self.total = per_address, total
        self.open: dict[int, str] = {}  # descriptor -> address, in the order accepted
        self.by_address: dict[str, int] = {}
        self.shut = 0  # connections shut by the limits
        self.most = 0  # the most connections open at once

    def accepted(self, fd: int, addr: str) -> int | None:
        """A connection on ``fd`` from ``addr`` was accepted: the descriptor to shut (this one or
        another), or None."""
        self.closed(fd)  # a descriptor number seen again: its old connection is gone
        if self.by_address.get(addr, 0) >= self.per_address:
            self.shut += 1
            return fd
        self._add(fd, addr)
        if len(self.open) <= self.total:
            self.most = max(self.most, len(self.open))
            return None
        busiest = max(sorted(self.by_address), key=lambda a: self.by_address[a])
        victim = fd
        if self.by_address[busiest] > 1:
            victim = next(f for f in reversed(self.open) if self.open[f] == busiest)
        self.closed(victim)
        self.shut += 1
        return victim

    def closed(self, fd: int) -> None:
        """The connection on ``fd`` closed (or was shut)."""
        addr = self.open.pop(fd, None)
        if addr is not None:
            self.by_address[addr] -= 1
            if not self.by_address[addr]:
                del self.by_address[addr]

    def _add(self, fd: int, addr: str) -> None:
        self.open[fd] = addr
        self.by_address[addr] = self.by_address.get(addr, 0) + 1
