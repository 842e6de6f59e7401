"""Crafted logs of signed history for tests (net.signing): the players' signing keys as their peers
derive them from their identities (``Config.sign_key`` empty), the header's signers, and entries
signed by the sequencer of their epoch and, for a seat's entry, by that seat, and reigns'
certificates (a quorum's signed promises)."""
from __future__ import annotations

from net import gamelog, signing
from net.signing import Signer


class Players:
    """The signing keys of a crafted game's player seats (seat -> CURVE identity, hex)."""

    def __init__(self, keys: dict[int, str]) -> None:
        self.signers = {seat: Signer(signing.seed_for(k)) for seat, k in keys.items()}

    def row(self, seats: int) -> list[bytes]:
        """The header's signers: each player seat's public key, b"" for the table's seats."""
        return [self.signers[s].public if s in self.signers else b"" for s in range(seats)]

    def certificate(self, game: bytes, epoch: int, seats) -> gamelog.Cert:
        """A reign's certificate: the promises of ``epoch`` signed by ``seats``."""
        return [(s, self.signers[s].sign_promise(game, epoch)) for s in sorted(seats)]

    def entry(self, game: bytes, n: int, author: int, action: list, h: int, prev: bytes, epoch: int,
              sequencer: int | None = None, cert: gamelog.Cert | None = None) -> bytes:
        """Entry ``n`` as the sequencer of ``epoch`` (or of seat ``sequencer``) records it: a seat's
        action signed by that seat under proposal id ``(b"crafted!", n)``, the table's with none
        (so the same entry written twice is the same record); ``cert``: the reign's certificate
        (its first entry's)."""
        seq = self.signers[epoch & 7 if sequencer is None else sequencer]
        pid = asig = None
        if author >= 0:
            pid = (b"crafted!", n)
            asig = self.signers[author].sign_action(game, author, pid, action)
        return gamelog.signed_entry(seq, game, n, author, pid, action, h, prev, epoch, asig, cert)
