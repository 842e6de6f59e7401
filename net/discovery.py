"""LAN discovery for ``mq join`` without an address: hosts send a small UDP beacon every second;
``scan`` listens for a while and lists the games it heard.

A beacon is one msgpack map ``{"t": "mq-beacon", "v": PROTOCOL, "game": id, "name": host name,
"port": ZeroMQ port, "open": free seats, "seats": N, "phase": "lobby" | "game"}``; the host's address
is the datagram's source address.  Malformed datagrams are dropped and counted (``DROPPED``).

Beacons go only out of the interfaces the game listens on (:func:`targets`): a game bound to one
address beacons to that interface's broadcast address from that address; a game bound to all
(0.0.0.0) to the broadcast address of every IPv4 interface that is up and not loopback; a game bound
to loopback (``--bind 127.0.0.1``, ``mq play``) sends none.  UDP port 47401; ``MQ_BEACON_PORT``
changes it, and ``MQ_BEACON_ADDR`` sends every beacon to that one address instead (tests use
127.0.0.1, since loopback has no broadcast; a loopback game still beacons only to a loopback
address).  Interfaces are read again for every beacon (a laptop's network comes and goes), on Linux
with the SIOCGIFCONF/SIOCGIFFLAGS/SIOCGIFBRDADDR ioctls; elsewhere a game bound to all
addresses falls back to 255.255.255.255.  Discovery is plain UDP, not ZeroMQ: it carries nothing
that is trusted, only where to connect.
"""
from __future__ import annotations

import asyncio
import os
import socket
import sys
import time
from dataclasses import dataclass

from net import wire

DROPPED = wire.Counters()
BEACON_PORT = 47401
PERIOD_S = 1.0


def beacon_port() -> int:
    return int(os.environ.get("MQ_BEACON_PORT", BEACON_PORT))


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


@dataclass(frozen=True)
class Interface:
    """An IPv4 address of this machine's: its interface, and that network's broadcast address
    ("" when the interface has none, e.g. a point-to-point link)."""

    name: str
    address: str
    broadcast: str
    loopback: bool
    up: bool


WILDCARD = ("", "0.0.0.0", "*", "::")  # a game bound to these listens on every interface


def targets(bind: str, interfaces: list[Interface] | None = None) -> list[tuple[str, str]]:
    """Where the beacons of a game listening on ``bind`` go: (source address, destination)
    pairs, one per interface the game listens on; none for a loopback game.  ``interfaces``
    defaults to this machine's (:func:`local_interfaces`)."""
    from net.transport import is_loopback

    override = os.environ.get("MQ_BEACON_ADDR")
    if override:
        if is_loopback(bind) and not is_loopback(override):
            return []  # a loopback game never beacons onto the LAN
        return [("", override)]
    if is_loopback(bind):
        return []
    if interfaces is None:
        interfaces = local_interfaces()
        if interfaces is None:  # not Linux: the limited broadcast, from the bound address
            return [("" if bind in WILDCARD else bind, "255.255.255.255")]
    return [(i.address, i.broadcast) for i in interfaces
            if i.up and not i.loopback and i.broadcast and (bind in WILDCARD or i.address == bind)]


# Linux ioctls and interface flags (linux/sockios.h, linux/if.h)
SIOCGIFCONF, SIOCGIFFLAGS, SIOCGIFBRDADDR = 0x8912, 0x8913, 0x8919
IFF_UP, IFF_BROADCAST, IFF_LOOPBACK = 0x1, 0x2, 0x8
IFREQ = 40  # sizeof(struct ifreq) on 64-bit Linux: a 16-byte name, then a 24-byte union
MAX_INTERFACES = 128


def local_interfaces() -> list[Interface] | None:
    """This machine's IPv4 addresses (Linux); None where they cannot be read this way."""
    if not sys.platform.startswith("linux"):
        return None
    import array
    import fcntl
    import struct

    out: list[Interface] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        buf = array.array("B", b"\0" * (IFREQ * MAX_INTERFACES))
        addr, _ = buf.buffer_info()
        try:
            got = struct.unpack("iL", fcntl.ioctl(s.fileno(), SIOCGIFCONF,
                                                  struct.pack("iL", len(buf), addr)))[0]
        except OSError:
            return None
        raw = buf.tobytes()[:got]
        for k in range(0, len(raw) - IFREQ + 1, IFREQ):
            name = raw[k:k + 16].split(b"\0", 1)[0]
            address = socket.inet_ntoa(raw[k + 20:k + 24])
            req = struct.pack("16s24x", name)
            try:
                flags = struct.unpack("16sH22x", fcntl.ioctl(s.fileno(), SIOCGIFFLAGS, req))[1]
                brd = socket.inet_ntoa(fcntl.ioctl(s.fileno(), SIOCGIFBRDADDR, req)[20:24]) \
                    if flags & IFF_BROADCAST else ""
            except OSError:
                continue  # gone meanwhile
            out.append(Interface(name.decode("ascii", "replace"), address, brd,
                                 bool(flags & IFF_LOOPBACK), bool(flags & IFF_UP)))
    return out


def _send(source: str, target: tuple[str, int], data: bytes) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        if source:
            sock.bind((source, 0))  # the interface's own address: the datagram leaves by it
        sock.sendto(data, target)


async def beacon(info, stop: asyncio.Event, bind: str = "0.0.0.0") -> None:
    """Send ``info()`` (a dict) as a beacon every PERIOD_S until ``stop`` is set, out of the
    interfaces a game bound to ``bind`` listens on (:func:`targets`; none on loopback)."""
    while not stop.is_set():
        data = wire.pack(dict(info(), t="mq-beacon", v=wire.PROTOCOL))
        for source, dest in targets(bind):
            try:
                _send(source, (dest, beacon_port()), data)
            except OSError:
                pass  # no route (e.g. no network): discovery is best effort
        try:
            await asyncio.wait_for(stop.wait(), PERIOD_S)
        except asyncio.TimeoutError:
            pass


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
