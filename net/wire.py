"""Wire format of the peer protocol: one msgpack map per ZeroMQ frame, checked before use.

Every message is a map with a type field ``"t"`` and the fields listed in :data:`SCHEMAS` (docs/net.md
describes each).  :func:`unpack` is the only way inbound bytes become a message: it bounds every
length (so a hostile frame cannot make us allocate much), refuses msgpack extension types, and
checks the message type, the type and range of every field down to the elements of its lists, and
that the message has no field its schema does not list.  Anything that fails raises
:class:`Malformed`; callers drop the message with a log line and count it (:class:`Counters`), so
malformed input never crashes a peer and never changes a state.

Decoding limits (:func:`unpack_any`, also used for log records and beacons): a frame is at most
``MAX_MESSAGE`` bytes; maps have at most 64 entries; no msgpack extension type (the timestamp type
-1, which msgpack decodes itself, included: ``max_ext_len=0``); no floats anywhere (nothing in the
protocol is a float, and a NaN is not even equal to itself); containers nest at most ``MAX_DEPTH``
deep (msgpack's own parser stops at 1024).

Invariants:
- No floats and no maps inside records that are hashed or logged: those are lists in a fixed order,
  so every peer produces the same bytes (msgpack map order would otherwise leak into hashes).
- ``PROTOCOL`` is sent in every ``hello`` and ``welcome``; a mismatch is refused, never guessed at,
  and the refusal says so in words (:func:`other_version`).  Any change to a message's fields (a
  new optional one too: an older decoder drops a message with a field it does not know) is a new
  version; docs/net.md lists what each one added.
"""
from __future__ import annotations

import logging
from collections import Counter, OrderedDict
from typing import Any, Callable

import msgpack

PROTOCOL = 7  # 7: certified reigns (hello.psig, ping.psig; docs/net.md "Promise certificates") and
# the incarnation's proof (hello.proof: "One seat, one live process")
MAX_MESSAGE = 1 << 20  # bytes; also the sockets' MAXMSGSIZE (net.transport)
MAX_TEXT = 200  # chat lines and names are cut to this
MAX_NAME = 24
MAX_SEATS = 6
MAX_DEPTH = 8  # nesting of lists/maps in one frame or record; the protocol needs 4
TABLE_AUTHOR = -1  # entries the sequencer makes for the table: bots in away seats, window timers

log = logging.getLogger("mq.net")


class Malformed(ValueError):
    """An inbound message that does not follow the protocol."""


def _no_ext(code: int, data: bytes) -> Any:
    raise Malformed(f"msgpack extension type {code} is not allowed")


def pack(msg: dict) -> bytes:
    return msgpack.packb(msg, use_bin_type=True)


_LEAVES = frozenset((type(None), bool, int, str, bytes))


def _plain(obj: Any) -> bool:
    """Only nil, bools, ints, strs, bytes, lists and maps, nested at most MAX_DEPTH deep."""
    stack = [(obj, 0)]
    while stack:
        o, depth = stack.pop()
        t = type(o)
        if t is list or t is dict:
            if depth >= MAX_DEPTH:
                return False
            for x in (o if t is list else o.values()):
                tx = type(x)
                if tx is list or tx is dict:
                    stack.append((x, depth + 1))
                elif tx not in _LEAVES:
                    return False
        elif t not in _LEAVES:
            return False
    return True


def unpack_any(data: bytes) -> Any:
    """Bounded msgpack decoding of one frame (no schema check); raises :class:`Malformed`."""
    if type(data) is not bytes:
        raise Malformed(f"not bytes: {type(data).__name__}")
    if len(data) > MAX_MESSAGE:
        raise Malformed(f"frame of {len(data)} bytes")
    try:
        obj = msgpack.unpackb(
            data, raw=False, strict_map_key=True, ext_hook=_no_ext, use_list=True,
            max_str_len=MAX_MESSAGE, max_bin_len=MAX_MESSAGE, max_array_len=100_000, max_map_len=64,
            max_ext_len=0,  # also refuses the timestamp type (-1), which never reaches ext_hook
        )
    except Malformed:
        raise
    except (ValueError, TypeError, msgpack.UnpackException) as e:  # ValueError covers ExtraData etc.
        raise Malformed(f"not msgpack: {type(e).__name__}") from None
    if not _plain(obj):
        raise Malformed(f"nested deeper than {MAX_DEPTH} or holds a float or an extension type")
    return obj


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


def _one_of(*values: str) -> Callable[[Any], bool]:
    return lambda v: type(v) is str and v in values


def _list_of(check: Callable[[Any], bool], most: int) -> Callable[[Any], bool]:
    return lambda v: type(v) is list and len(v) <= most and all(check(x) for x in v)


def _row(*checks: Callable[[Any], bool]) -> Callable[[Any], bool]:
    """A list of exactly these fields (a tuple on the wire)."""
    return lambda v: type(v) is list and len(v) == len(checks) and all(c(x) for c, x in zip(checks, v))


def _either(*checks: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda v: any(c(v) for c in checks)


def _scalar(most: int) -> Callable[[Any], bool]:
    """An int or a short str (a table option's value, a game parameter)."""
    return lambda v: type(v) is int or (type(v) is str and len(v) <= most)


U64 = _int(0, 2**64 - 1)
SEQ = _int(0, 2**40)
SEAT = _int(0, MAX_SEATS - 1)
AUTHOR = _int(TABLE_AUTHOR, MAX_SEATS - 1)
PORT = _int(0, 65535)
PID = _int(1, 2**62 - 1)  # a proposal's counter; log entries hold it (net.gamelog: below 2**62)
ID16 = _bytes(16)
EPOCH = _int(0, 2**41)  # a sequencer's reign: counter * 8 + its seat (net.election.next_epoch)
# A peer's promise as it tells it: lower than any entry may carry, so that a sequencer taking the next
# epoch above the highest promise it hears still numbers entries every peer accepts.  (No sequencer
# takes an epoch its followers could not promise here: net.election.within_reach.)
MAX_PROMISE = 2**40
PROMISE = _int(0, MAX_PROMISE)
NONCE = _bytes(32)
SIGNATURE = _bytes(64)  # Ed25519 (net.signing)
SIGN_KEY = _bytes(32)  # an Ed25519 public key
NAME = _str(64)  # names are cut to MAX_NAME where they are made; a little slack here
PATH = _list_of(_int(0, 2**31), 32)
# An action as mq.rules.actions.encode writes it and mq.rules.actions.decode accepts it:
# [seat, kind, [arg, ...]] with at most 16 int or short str arguments.
ARG = _either(_int(), _str(64))
ACTION = _row(_int(), _str(64), _list_of(ARG, 16))
# Table options (Peer.opts): a few named ints and strs.
OPTS = lambda v: type(v) is dict and len(v) <= 10 and all(  # noqa: E731
    type(k) is str and len(k) <= 16 and _scalar(16)(x) for k, x in v.items())
# A lobby seat (net.seats.SeatInfo.wire): name, kind, public id, host, port, away, botted.
SEAT_INFO = _row(NAME, _one_of("peer", "bot", "open"), _str(64), _str(64), PORT,
                 lambda v: type(v) is bool, lambda v: type(v) is bool)
ROSTER = _list_of(_row(NAME, _str(64), _one_of("peer", "bot")), MAX_SEATS)
# Game parameters as mq.rules.codec.encode(Params) writes them: {"@": "Params", "f": [...]}, the
# fields ints, strs or a list of strs (genders); a Classic game's {"@": "ClassicParams", ...} has a
# bool too (Epic).  net.peer checks them with check_params.
_PARAM_FIELD = _either(_scalar(16), _list_of(_str(16), MAX_SEATS))
PARAMS = lambda v: (type(v) is dict and len(v) == 2 and (  # noqa: E731
    (v.get("@") == "Params" and _list_of(_PARAM_FIELD, 16)(v.get("f")))
    or (v.get("@") == "ClassicParams" and _list_of(_either(_PARAM_FIELD, lambda x: type(x) is bool), 16)(v.get("f")))))

# Message type -> required fields and their checks.
SCHEMAS: dict[str, dict[str, Callable[[Any], bool]]] = {
    # peer -> sequencer
    "hello": {"v": _int(), "id": _str(64), "name": _str(MAX_NAME), "role": _one_of("play", "watch"),
              "inc": _bytes(8), "port": PORT, "last": SEQ, "tail": _list_of(_row(SEQ, ID16), 64),
              "game": _opt(_bytes(8)), "epoch": PROMISE, "lep": EPOCH,
              "sign": SIGN_KEY,  # the player's signing key: the header binds it to the seat
              "psig": _opt(SIGNATURE),  # its signature of the promise ``epoch`` (nil: no game, or 0)
              "proof": _bytes(16)},  # the secret whose hash is inc (net.incarnation), inside the CURVE channel
    "commit": {"h": _bytes(32)},
    "reveal": {"nonce": NONCE},
    "propose": {"pid": PID, "x": ACTION, "sig": SIGNATURE},  # sig: the author's, of (game, seat, pid, x)
    "fetch": {"from": SEQ},
    "report": {"hs": _list_of(_row(SEQ, U64, ID16), 4096)},
    "ping": {"seq": SEQ, "epoch": PROMISE, "psig": _opt(SIGNATURE)},  # psig: as hello's
    "say": {"text": _str(MAX_TEXT)},
    "gender": {"gender": _one_of("male", "female", "rolled")},  # a player's choice in the lobby (Q-SETUP-3)
    "kids": {"seq": SEQ, "path": PATH, "ok": _str(16), "d": _list_of(U64, 4096)},
    "bye": {},
    # sequencer -> peer
    "welcome": {"v": _int(), "seat": _opt(SEAT), "game": _bytes(8), "leader": SEAT, "rewind": _int(-1, 2**40),
                "epoch": EPOCH},
    "refuse": {"reason": _str(64), "text": _str(MAX_TEXT)},
    "retry": {"leader": _opt(SEAT)},
    "lobby": {"seats": _list_of(SEAT_INFO, MAX_SEATS), "opts": OPTS, "leader": SEAT},
    "commit_req": {"params": PARAMS, "roster": ROSTER},
    "commits": {"hs": _list_of(_bytes(32), MAX_SEATS)},
    "header": {"rec": _bytes(most=MAX_MESSAGE)},
    "entries": {"recs": _list_of(_bytes(most=MAX_MESSAGE), 100_000)},  # both ways
    "reject": {"pid": PID, "reason": _str(64), "detail": _str(MAX_TEXT)},
    "tick": {"head": SEQ},
    "notice": {"kind": _one_of("away", "back", "bot", "chat", "info"), "seat": _opt(AUTHOR), "text": _str(MAX_TEXT)},
    "pause": {"seq": SEQ, "reason": _str(64)},
    "kids_req": {"seq": SEQ, "path": PATH},
    "desync": {"seq": SEQ, "hashes": _list_of(_row(AUTHOR, U64), MAX_SEATS + 8), "path": _str(400),
               "entry": _either(_row(), _row(SEQ, AUTHOR, ACTION, U64))},
    "fetch_req": {"from": SEQ},
    "end": {"seq": SEQ, "h": U64},
    "who": {},
}
# Fields a message may carry but need not; any field in neither table is refused.
OPTIONAL: dict[str, dict[str, Callable[[Any], bool]]] = {
    "hello": {"code": _str(64),  # the join code's secret part (net.identity), inside the CURVE channel
              "gender": _one_of("male", "female", "rolled")},  # the player's munchkin (Q-SETUP-3)
    "welcome": {"opts": OPTS},
    "retry": {"addr": _opt(_row(_str(64), _int(1, 65535))), "key": _opt(_str(64)),
              "from": SEAT},  # the answering seat, when it follows nobody either (net.peer.rendezvous)
    "lobby": {"phase": _str(16)},
    "notice": {"past": lambda v: type(v) is bool},  # a chat line from before the peer (re)joined
}
_VERSIONED = ("hello", "welcome")  # carry PROTOCOL; another version's fields are not checked


def unpack(data: bytes) -> dict:
    """Decode and check one protocol message; raises :class:`Malformed`.

    A ``hello`` or ``welcome`` of another protocol version comes back as just ``{"t", "v"}``: its
    other fields follow that version's schema, not ours, and the handler refuses it by ``v``."""
    msg = unpack_any(data)
    if type(msg) is not dict:
        raise Malformed("not a map")
    t = msg.get("t")
    if type(t) is not str or t not in SCHEMAS:
        raise Malformed(f"unknown message type {str(t)[:20]!r}")
    schema = SCHEMAS[t]
    if t in _VERSIONED and type(msg.get("v")) is int and msg["v"] != PROTOCOL:
        return {"t": t, "v": msg["v"]}
    for field, check in schema.items():
        if field not in msg or not check(msg[field]):
            raise Malformed(f"{t}: bad or missing field {field!r}")
    optional = OPTIONAL.get(t, {})
    for field, value in msg.items():
        if field != "t" and field not in schema:
            extra = optional.get(field)
            if extra is None:
                raise Malformed(f"{t}: unknown field {str(field)[:20]!r}")
            if not extra(value):
                raise Malformed(f"{t}: bad field {field!r}")
    return msg


REPORT_S = 60.0  # at most one log line and one notice per sender this often, however much it sends
MAX_SENDERS = 4096  # senders whose drops are tallied between reports (the least recent forgotten)


def other_version(game: object, yours: object) -> str:
    """Why a peer of protocol ``yours`` cannot play a game of protocol ``game``, in a player's words."""
    return (f"the game speaks mq protocol {str(game)[:8]} and your mq speaks {str(yours)[:8]}: "
            "everyone at the table needs the same version of mq")


class Counters(Counter):
    """Per-peer counters of dropped input, by reason, and what is said about them.

    Nothing a sender sends reaches a terminal line by line (issue 13: junk must not flood a
    player's screen or disk): a sender's first drop is logged, then at most one line per REPORT_S
    with how many were dropped since; ``report(text)`` (the peer's notice to its client) hears the
    same, as "N malformed messages dropped from ADDRESS".  ``clock``: the peer's clock (seconds);
    without one every drop is reported.  Totals are in the counts, reported at exit."""

    def __init__(self, *args, clock: Callable[[], float] | None = None,
                 report: Callable[[str], None] | None = None) -> None:
        super().__init__(*args)
        self._clock = clock
        self._report = report
        self._senders: OrderedDict[str, list] = OrderedDict()  # sender: [drops unreported, last report]

    def drop(self, what: str, why: str, peer: str = "?") -> None:
        self[what] += 1
        now = self._clock() if self._clock is not None else None
        tally = self._senders.pop(peer, None) or [0, None]
        self._senders[peer] = tally  # now the most recent
        while len(self._senders) > MAX_SENDERS:
            self._senders.popitem(last=False)
        tally[0] += 1
        if now is not None and tally[1] is not None and now - tally[1] < REPORT_S:
            return
        n = tally[0]
        tally[0], tally[1] = 0, now
        log.warning("dropped %s from %s: %s (%d dropped from there since the last report)", what, peer, why, n)
        if self._report is not None:
            self._report(f"{n} malformed message{'s' if n != 1 else ''} dropped from {peer}")
