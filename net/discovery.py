"""LAN discovery for ``mq join`` without an address: hosts send a small UDP beacon every second;
``scan`` listens for a while and lists the games it heard.

A beacon is one msgpack map ``{"t": "mq-beacon", "v": PROTOCOL, "game": id, "name": host name,
"port": ZeroMQ port, "open": free seats, "seats": N, "phase": "lobby" | "game"}``; the host's address
is the datagram's source address.  Malformed datagrams are dropped and counted (``DROPPED``).  Beacons go to the
broadcast address 255.255.255.255 on UDP port 47401; ``MQ_BEACON_PORT`` and ``MQ_BEACON_ADDR`` change
that (tests send to 127.0.0.1, since loopback has no broadcast).  Discovery is plain UDP, not ZeroMQ:
it carries nothing that is trusted, only where to connect.
"""
from __future__ import annotations

import asyncio
import os
import socket
import time
from dataclasses import dataclass

from net import wire

DROPPED = wire.Counters()
BEACON_PORT = 47401
PERIOD_S = 1.0


def beacon_port() -> int:
    return int(os.environ.get("MQ_BEACON_PORT", BEACON_PORT))


def beacon_addr() -> str:
    return os.environ.get("MQ_BEACON_ADDR", "255.255.255.255")


@dataclass(frozen=True)
class Game:
    host: str
    port: int
    game: str
    name: str
    open: int
    seats: int
    phase: str

    def __str__(self) -> str:
        return (f"{self.host}:{self.port}  {self.name}'s game {self.game[:8]}  "
                f"{self.seats - self.open}/{self.seats} seated  ({self.phase})")


async def beacon(info, stop: asyncio.Event) -> None:
    """Send ``info()`` (a dict) as a beacon every PERIOD_S until ``stop`` is set."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
    sock.setblocking(False)
    target = (beacon_addr(), beacon_port())
    try:
        while not stop.is_set():
            try:
                sock.sendto(wire.pack(dict(info(), t="mq-beacon", v=wire.PROTOCOL)), target)
            except OSError:
                pass  # no route (e.g. no network): discovery is best effort
            try:
                await asyncio.wait_for(stop.wait(), PERIOD_S)
            except asyncio.TimeoutError:
                pass
    finally:
        sock.close()


def parse(data: bytes, host: str) -> Game | None:
    try:
        d = wire.unpack_any(data)
    except wire.Malformed:
        return None
    if (type(d) is not dict or d.get("t") != "mq-beacon" or d.get("v") != wire.PROTOCOL
            or type(d.get("game")) is not str or type(d.get("name")) is not str
            or not all(type(d.get(k)) is int for k in ("port", "open", "seats"))
            or type(d.get("phase")) is not str):
        return None
    return Game(host, d["port"], d["game"][:16], d["name"][:wire.MAX_NAME], d["open"], d["seats"], d["phase"][:8])


def scan(seconds: float = 2.5) -> list[Game]:
    """Listen for beacons for ``seconds``; games sorted by address."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if hasattr(socket, "SO_REUSEPORT"):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(("", beacon_port()))
    found: dict[tuple[str, int], Game] = {}
    end = time.monotonic() + seconds
    try:
        while (left := end - time.monotonic()) > 0:
            sock.settimeout(left)
            try:
                data, (host, _) = sock.recvfrom(2048)
            except (socket.timeout, OSError):
                break
            g = parse(data, host)
            if g is not None:
                found[(g.host, g.port)] = g
            else:
                DROPPED.drop("beacon", "malformed datagram", host)
    finally:
        sock.close()
    return sorted(found.values(), key=lambda g: (g.host, g.port))
