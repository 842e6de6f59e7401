"""Wire format of the peer protocol: one msgpack map per ZeroMQ frame, checked before use.

Every message is a map with a type field ``"t"`` and the fields listed in :data:`SCHEMAS` (docs/net.md
describes each).  :func:`unpack` is the only way inbound bytes become a message: it bounds every
length (so a hostile frame cannot make us allocate much), refuses msgpack extension types, and
checks the message type and the type of each required field.  Anything that fails raises
:class:`Malformed`; callers drop the message with a log line and count it (:class:`Counters`), so
malformed input never crashes a peer and never changes a state.

Invariants:
- No floats and no maps inside records that are hashed or logged: those are lists in a fixed order,
  so every peer produces the same bytes (msgpack map order would otherwise leak into hashes).
- ``PROTOCOL`` is sent in every ``hello`` and ``welcome``; a mismatch is refused, never guessed at.
"""
from __future__ import annotations

import logging
from collections import Counter
from typing import Any, Callable

import msgpack

PROTOCOL = 1
MAX_MESSAGE = 1 << 20  # bytes; also the sockets' MAXMSGSIZE (net.transport)
MAX_TEXT = 200  # chat lines and names are cut to this
MAX_NAME = 24
MAX_SEATS = 6
TABLE_AUTHOR = -1  # entries the sequencer makes for the table: bots in away seats, window timers

log = logging.getLogger("mq.net")


class Malformed(ValueError):
    """An inbound message that does not follow the protocol."""


def _no_ext(code: int, data: bytes) -> Any:
    raise Malformed(f"msgpack extension type {code} is not allowed")


def pack(msg: dict) -> bytes:
    return msgpack.packb(msg, use_bin_type=True)


def unpack_any(data: bytes) -> Any:
    """Bounded msgpack decoding of one frame (no schema check)."""
    if len(data) > MAX_MESSAGE:
        raise Malformed(f"frame of {len(data)} bytes")
    try:
        return msgpack.unpackb(
            data, raw=False, strict_map_key=True, ext_hook=_no_ext, use_list=True,
            max_str_len=MAX_MESSAGE, max_bin_len=MAX_MESSAGE, max_array_len=100_000, max_map_len=64,
        )
    except Malformed:
        raise
    except (ValueError, TypeError, msgpack.UnpackException) as e:  # ValueError covers ExtraData etc.
        raise Malformed(f"not msgpack: {type(e).__name__}") from None


# -- field checks ---------------------------------------------------------------------------------
def _int(lo: int | None = None, hi: int | None = None) -> Callable[[Any], bool]:
    return lambda v: type(v) is int and (lo is None or v >= lo) and (hi is None or v <= hi)


def _opt(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda v: v is None or check(v)


def _bytes(n: int | None = None, most: int = 64) -> Callable[[Any], bool]:
    return lambda v: type(v) is bytes and (len(v) == n if n is not None else len(v) <= most)


def _str(most: int) -> Callable[[Any], bool]:
    return lambda v: type(v) is str and len(v) <= most


def _list(most: int) -> Callable[[Any], bool]:
    return lambda v: type(v) is list and len(v) <= most


def _map(most: int) -> Callable[[Any], bool]:
    return lambda v: type(v) is dict and len(v) <= most


U64 = _int(0, 2**64 - 1)
SEQ = _int(0, 2**40)
SEAT = _int(0, MAX_SEATS - 1)
AUTHOR = _int(TABLE_AUTHOR, MAX_SEATS - 1)
ID16 = _bytes(16)
NONCE = _bytes(32)
PATH = _list(32)

# Message type -> required fields and their checks.  Optional fields are checked where used.
SCHEMAS: dict[str, dict[str, Callable[[Any], bool]]] = {
    # peer -> sequencer
    "hello": {"v": _int(), "id": _str(64), "name": _str(MAX_NAME), "role": _str(8), "inc": _bytes(8),
              "port": _int(0, 65535), "last": SEQ, "tail": _list(64), "game": _opt(_bytes(8))},
    "commit": {"h": _bytes(32)},
    "reveal": {"nonce": NONCE},
    "propose": {"pid": _int(1, 2**62), "x": _list(3)},
    "fetch": {"from": SEQ},
    "report": {"hs": _list(4096)},
    "ping": {"seq": SEQ},
    "say": {"text": _str(MAX_TEXT)},
    "kids": {"seq": SEQ, "path": PATH, "ok": _str(16), "d": _list(4096)},
    "bye": {},
    # sequencer -> peer
    "welcome": {"v": _int(), "seat": _opt(SEAT), "game": _bytes(8), "leader": SEAT, "rewind": _int(-1, 2**40)},
    "refuse": {"reason": _str(64), "text": _str(MAX_TEXT)},
    "retry": {"leader": _opt(SEAT)},
    "lobby": {"seats": _list(MAX_SEATS), "opts": _map(8), "leader": SEAT},
    "commit_req": {"params": _map(4), "roster": _list(MAX_SEATS)},
    "commits": {"hs": _list(MAX_SEATS)},
    "header": {"rec": _bytes(most=MAX_MESSAGE)},
    "entries": {"recs": _list(100_000)},
    "reject": {"pid": _int(1, 2**62), "reason": _str(64), "detail": _str(MAX_TEXT)},
    "tick": {"head": SEQ},
    "notice": {"kind": _str(16), "seat": _opt(AUTHOR), "text": _str(MAX_TEXT)},
    "pause": {"seq": SEQ, "reason": _str(64)},
    "kids_req": {"seq": SEQ, "path": PATH},
    "desync": {"seq": SEQ, "hashes": _list(MAX_SEATS + 8), "path": _str(400), "entry": _list(8)},
    "fetch_req": {"from": SEQ},
    "end": {"seq": SEQ, "h": U64},
    "who": {},
}


def unpack(data: bytes) -> dict:
    """Decode and check one protocol message; raises :class:`Malformed`."""
    msg = unpack_any(data)
    if type(msg) is not dict:
        raise Malformed("not a map")
    t = msg.get("t")
    schema = SCHEMAS.get(t) if type(t) is str else None
    if schema is None:
        raise Malformed(f"unknown message type {str(t)[:20]!r}")
    for field, check in schema.items():
        if field not in msg or not check(msg[field]):
            raise Malformed(f"{t}: bad or missing field {field!r}")
    return msg


class Counters(Counter):
    """Per-peer counters of dropped input, by reason; reported in logs and at exit."""

    def drop(self, what: str, why: str, peer: str = "?") -> None:
        self[what] += 1
        log.warning("dropped %s from %s: %s (%d so far)", what, peer, why, self[what])
