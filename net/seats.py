"""The seats of a table as the lobby shows them (``lobby`` message): who holds each seat, how to
reach it, whether it is away and whether the sequencer's bot plays it meanwhile.

Invariant: a seat of kind "peer" is bound to the CURVE public key ``pub`` (docs/net.md, "Seats,
identity, authorship"); the wire form is a list of exactly seven fields, checked on the way in.
"""
from __future__ import annotations

from dataclasses import dataclass

from net import wire


@dataclass
class SeatInfo:
    name: str = ""
    kind: str = "open"  # "peer" (a person's or a headless bot's process), "bot" (leader-run), "open"
    pub: str = ""  # the CURVE public key (Z85) bound to the seat: also how others reach its ROUTER
    host: str = ""
    port: int = 0
    away: bool = False
    botted: bool = False  # an away seat played by the leader's bot (Q-OPT-2)
    sign: bytes = b""  # the player's Ed25519 public key (its hello's), for the header; not on the wire

    def wire(self) -> list:
        return [self.name, self.kind, self.pub, self.host, self.port, self.away, self.botted]

    @classmethod
    def from_wire(cls, d) -> "SeatInfo":
        if not (type(d) is list and len(d) == 7 and all(type(x) is str for x in d[:4])
                and type(d[4]) is int and type(d[5]) is bool and type(d[6]) is bool):
            raise wire.Malformed("lobby: bad seat")
        return cls(d[0][:wire.MAX_NAME], d[1], d[2], d[3], d[4], d[5], d[6])
