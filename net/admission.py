"""Admission: which keys a sequencer lets in (the gate of membership; docs/net.md, "Security").

A key the table knows (a player's, in the lobby or the log's roster) comes in without more; so does
a spectator's key once admitted.  Any other key needs the join code's secret (``hello.code``,
inside the encrypted channel), or a loopback-only host opened without one (``admit="open"``).

Wrong codes slow down the address they come from, and only that address: its first FREE_WRONG_CODES
cost nothing (typos), then each further wrong code makes it wait before its next code is checked,
BACKOFF_S doubling up to MAX_BACKOFF_S.  A code sent while an address waits is refused unchecked
("wait"), so guessing from one address runs at about two codes a minute, while the right code from
any address is never kept out longer than MAX_BACKOFF_S.  Nothing a stranger sends blocks anyone
else: there is no overall limit to trip.  The secret has 40 bits (8 base-32 symbols): from a whole
/24 of addresses (254 at two codes a minute) finding it takes about 2,000 years on average; an
attacker with more addresses than the MAX_ADDRESSES tracked gets FREE_WRONG_CODES codes per fresh
address, about 10^11 fresh addresses on average.

Invariants: the secret is compared in constant time; a joiner resending its hello with the same
code counts once; every count is bounded (addresses tracked, codes per connection); the time is
the caller's (the peer's clock).
"""
from __future__ import annotations

import hmac
import logging
import math
from collections import OrderedDict

from net import identity, transport

log = logging.getLogger("mq.net")

FREE_WRONG_CODES = 5  # wrong codes an address may send before it waits (a friend's typos)
BACKOFF_S = 1.0  # the first wait; it doubles with every further wrong code
MAX_BACKOFF_S = 30.0  # the longest wait: the right code is never kept out longer
MAX_ADDRESSES = 4096  # addresses whose wrong codes are remembered (the least recent are forgotten)
MAX_CONNECTIONS_SEEN = 4096  # connections whose codes are remembered (a resent hello counts once)


class AdmissionError(Exception):
    """A host that cannot admit this way (unknown mode, or no code on a non-loopback address)."""


class _Address:
    """One address's wrong codes and until when it waits."""

    __slots__ = ("wrong", "until")

    def __init__(self) -> None:
        self.wrong = 0
        self.until = 0.0


class Admission:
    """The sequencer's admission of keys it does not know.  ``code``: the join code this peer was
    given (a new sequencer after a failover admits with it).  ``counts``: the wrong codes counted
    (``wrong_codes``) and the codes refused unchecked because their address was waiting (``waits``)."""

    def __init__(self, code: str | None) -> None:
        self.counts = {"wrong_codes": 0, "waits": 0}
        self.join_code: str | None = None  # the code the host shows (admit="code")
        self.secret = identity.code_secret(code) if code else None  # the code's secret part
        self._open = False  # admit unknown keys without a code (loopback-only hosts)
        self._admitted: set[str] = set()  # spectators' keys let in (a reconnect needs no code)
        self._addresses: OrderedDict[str, _Address] = OrderedDict()  # least recently wrong first
        self._seen: OrderedDict[bytes, set] = OrderedDict()  # codes counted per connection

    def open_as(self, admit: str, bind: str, pub: str) -> None:
        """How this host admits keys it does not know: a fresh join code for ``pub``, or (``open``,
        on loopback only) none.  AdmissionError otherwise."""
        if admit == "code":
            self.secret = identity.new_secret()
            self.join_code = identity.make_code(pub, self.secret)
            self._open = False
        elif admit == "open":
            if not transport.is_loopback(bind):
                raise AdmissionError("a game without a join code must listen on loopback only (bind 127.0.0.1)")
            self._open = True
        else:
            raise AdmissionError(f"unknown admission {admit!r}")

    def admitted(self, pub: str) -> bool:
        """A spectator's key let in before (a player's key is known from the seats)."""
        return pub in self._admitted

    def admit(self, rid: bytes, code, addr: str, pub: str, now: float) -> tuple[str, str] | None:
        """Admission of a key the table does not know: None (let in, and remembered), or (reason,
        text) to refuse."""
        why = self._check(rid, code, addr, now)
        if why is None:
            self._admitted.add(pub)
        return why

    def _check(self, rid: bytes, code, addr: str, now: float) -> tuple[str, str] | None:
        if self._open:
            return None
        if self.secret is None:
            return "closed", "this sequencer admits only the game's players"
        record = self._addresses.get(addr)
        if record is not None and now < record.until:
            self.counts["waits"] += 1
            wait = math.ceil(record.until - now)
            return "wait", f"too many wrong join codes from your address: try again in {wait} s"
        if type(code) is str and hmac.compare_digest(code.encode("utf-8", "replace"), self.secret.encode()):
            self._addresses.pop(addr, None)  # a friend who mistyped starts afresh
            return None
        if self._first_time(rid, code):
            self._count_wrong(addr, code, now)
        return "code", "a wrong or missing join code: ask the host for it (mq join HOST --code XXXX-XXXX-XXXX)"

    def _first_time(self, rid: bytes, code) -> bool:
        """Whether this connection sends this code for the first time (a joiner resends its hello
        until it hears back: that is one guess)."""
        seen = self._seen.get(rid)
        if seen is None:
            seen = self._seen[rid] = set()
            while len(self._seen) > MAX_CONNECTIONS_SEEN:
                self._seen.popitem(last=False)
        key = code if type(code) is str and len(code) <= 64 else repr(type(code))
        if key in seen or len(seen) >= 64:
            return False
        seen.add(key)
        return True

    def _count_wrong(self, addr: str, code, now: float) -> None:
        record = self._addresses.pop(addr, None) or _Address()
        self._addresses[addr] = record  # now the most recent
        while len(self._addresses) > MAX_ADDRESSES:
            self._addresses.popitem(last=False)
        record.wrong += 1
        self.counts["wrong_codes"] += 1
        beyond = record.wrong - FREE_WRONG_CODES
        if beyond >= 0:
            record.until = now + min(BACKOFF_S * 2 ** min(beyond, 16), MAX_BACKOFF_S)
        if record.wrong in (1, FREE_WRONG_CODES):  # the first, and when the waits begin: not every one
            log.warning("%s join code from %s (%d from there%s)", "no" if code is None else "a wrong", addr,
                        record.wrong, ", which now waits before each try" if beyond == 0 else "")
