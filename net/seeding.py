"""The seed commit-reveal (docs/net.md, "Seed"): how the peers of a game agree on its seed so that
nobody chooses it.

When the host starts the game, every peer seat commits to a secret 32-byte nonce (sends SHA-256 of
it); once every commitment is in, each reveals its nonce.  The seed is the hash of all nonces in
seat order (net.gamelog.seed_from), and the log's header carries the nonces, so every log reader
can check it.  The last to reveal is already committed: nobody can choose the seed.

- :class:`Exchange` is the sequencer's side: it collects the commitments, then the nonces (each
  checked against its seat's commitment), and makes the header.
- :class:`Pledge` is a follower's side: its nonce, and the commitments it was shown, against which
  it checks the header.

Invariants: a nonce is taken only if it matches the commitment its seat made before anyone
revealed; a follower takes a header only if its nonces match the commitments it was shown, in
order, and its own nonce is among them.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Callable

from mq.rules import Params
from net import gamelog, wire


def commitment(nonce: bytes) -> bytes:
    return hashlib.sha256(nonce).digest()


def new_nonce(random: Callable[[int], bytes], local_seed: int | None, seat: int | None) -> bytes:
    """A peer's nonce: 32 random bytes, or with ``local_seed`` (local play, where every peer is
    ours: ``mq play --seed``) derived from it and the seat, so that the game's seed is a function of
    it.  Never with other people: a predictable nonce would let them choose the seed."""
    if local_seed is None:
        return random(32)
    return commitment(f"mq-local-seed:{local_seed}:{seat}".encode())


@dataclass
class Exchange:
    """The sequencer's side of one commit-reveal among the peer ``seats`` (seat order); it gives up
    at ``deadline`` (the runtime's clock)."""

    params: Params
    roster: list
    seats: list[int]
    deadline: float
    commits: dict[int, bytes] = field(default_factory=dict)
    nonces: dict[int, bytes] = field(default_factory=dict)
    revealing: bool = False
    signers: list[bytes] = field(default_factory=list)  # per seat: the key the header binds to it


    @classmethod
    def open(cls, params: Params, roster: list, seats: list[int], deadline: float, seat: int,
             nonce: bytes, signers: list[bytes]) -> "Exchange":
        """An exchange in which the sequencer's own ``seat`` has committed to ``nonce``; the
        header will bind each seat to its signing key in ``signers`` (b"" for the table's seats)."""
        return cls(params, roster, seats, deadline, {seat: commitment(nonce)}, {seat: nonce}, signers=list(signers))

    def commit(self, seat: int, h: bytes) -> str | None:
        """Take ``seat``'s commitment; or say why not."""
        if seat not in self.seats or self.revealing:
            return "not expected now"
        self.commits[seat] = h
        return None

    def reveal(self, seat: int, nonce: bytes) -> str | None:
        """Take ``seat``'s nonce; or say why not."""
        if not self.revealing or seat not in self.seats:
            return "not expected now"
        if commitment(nonce) != self.commits[seat]:
            return "nonce does not match its commitment"
        self.nonces[seat] = nonce
        return None

    def to_reveal(self) -> list[bytes] | None:
        """Once, when every commitment is in: all of them in seat order (what the seats are shown
        before they reveal).  None otherwise."""
        if self.revealing or len(self.commits) < len(self.seats):
            return None
        self.revealing = True
        return [self.commits[s] for s in self.seats]

    def header(self, game: bytes) -> bytes | None:
        """The log header's record, once every nonce is revealed; None before."""
        if not self.revealing or len(self.nonces) < len(self.seats):
            return None
        nonces = [self.nonces[s] for s in self.seats]
        return gamelog.encode_header(game, gamelog.seed_from(nonces), self.params, nonces, self.roster, self.signers)

    def missing(self) -> list[int]:
        """The seats that have not committed yet (or, while revealing, not revealed)."""
        got = self.nonces if self.revealing else self.commits
        return [s for s in self.seats if s not in got]


@dataclass
class Pledge:
    """A follower's side: its ``nonce`` and, once shown, every seat's commitment."""

    nonce: bytes
    commits: list[bytes] | None = None

    def shown(self, hs: list) -> None:
        """The sequencer shows every commitment (``commits``); wire.Malformed if ours is missing."""
        if not all(type(h) is bytes and len(h) == 32 for h in hs):
            raise wire.Malformed("commits: bad")
        if commitment(self.nonce) not in hs:
            raise wire.Malformed("commits: ours is missing")
        self.commits = list(hs)

    def check(self, header: gamelog.Header) -> None:
        """wire.Malformed unless ``header``'s nonces are the ones committed to, ours among them."""
        if self.commits is not None and ([commitment(n) for n in header.nonces] != self.commits
                                         or self.nonce not in header.nonces):
            raise wire.Malformed("header: nonces do not match the commitments")
