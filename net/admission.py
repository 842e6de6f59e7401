"""Admission: which keys a sequencer lets in (the gate of membership; docs/net.md, "Security").

A key the table knows (a player's, in the lobby or the log's roster) comes in without more; so does
a spectator's key once admitted.  Any other key needs the join code's secret (``hello.code``,
inside the encrypted channel), or a loopback-only host opened without one (``admit="open"``).
Wrong codes are limited: after MAX_WRONG_CODES from one address, that address and key are denied
at ZAP (no handshake) and refused; and no more than WRONG_CODES_PER_WINDOW wrong codes are checked
per WRONG_CODE_WINDOW_S overall (the rest are refused as "busy", unchecked), so even many
addresses guess at most ~20 codes a minute against a 40-bit secret.

Invariants: the secret is compared in constant time; a joiner resending its hello with the same
code counts once; every count is bounded (addresses, connections, codes per connection).
"""
from __future__ import annotations

import hmac
import logging
from collections import Counter, deque
from typing import Callable

from net import identity, transport

log = logging.getLogger("mq.net")

MAX_WRONG_CODES = 5
WRONG_CODES_PER_WINDOW = 20
WRONG_CODE_WINDOW_S = 60.0


class AdmissionError(Exception):
    """A host that cannot admit this way (unknown mode, or no code on a non-loopback address)."""


class Admission:
    """The sequencer's admission of keys it does not know.  ``code``: the join code this peer was
    given (a new sequencer after a failover admits with it).  ``counts``: the wrong codes counted
    (``wrong_codes``) and the hellos refused for too many of them lately (``busy``)."""

    def __init__(self, gate: transport.Gate, code: str | None) -> None:
        self.gate = gate  # denied addresses and keys (ZAP)
        self.counts = {"wrong_codes": 0, "busy": 0}
        self.join_code: str | None = None  # the code the host shows (admit="code")
        self.secret = identity.code_secret(code) if code else None  # the code's secret part
        self._open = False  # admit unknown keys without a code (loopback-only hosts)
        self._admitted: set[str] = set()  # spectators' keys let in (a reconnect needs no code)
        self._wrong_by_addr: Counter[str] = Counter()
        self._wrong_recent: deque[float] = deque()
        self._wrong_seen: dict[bytes, set] = {}

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

    def denied(self, addr: str, pub: str) -> bool:
        return addr in self.gate.denied_addresses or pub in self.gate.denied_keys

    def admitted(self, pub: str) -> bool:
        """A spectator's key let in before (a player's key is known from the seats)."""
        return pub in self._admitted

    def admit(self, rid: bytes, code, addr: str, pub: str, now: float,
              on_deny: Callable[[str, int], None]) -> tuple[str, str] | None:
        """Admission of a key the table does not know: None (let in, and remembered), or (reason,
        text) to refuse.  ``on_deny(addr, n)``: called when an address is denied for n wrong codes."""
        why = self._check(rid, code, addr, pub, now, on_deny)
        if why is None:
            self._admitted.add(pub)
        return why

    def _check(self, rid, code, addr, pub, now, on_deny) -> tuple[str, str] | None:
        if self._open:
            return None
        if self.secret is None:
            return "closed", "this sequencer admits only the game's players"
        while self._wrong_recent and now - self._wrong_recent[0] > WRONG_CODE_WINDOW_S:
            self._wrong_recent.popleft()
        if len(self._wrong_recent) >= WRONG_CODES_PER_WINDOW:
            self.counts["busy"] += 1
            return "busy", "too many wrong join codes lately: try again in a minute"
        if type(code) is str and hmac.compare_digest(code.encode("utf-8", "replace"), self.secret.encode()):
            return None
        # One count per (connection, code): a joiner resends its hello until it hears back.
        seen = self._wrong_seen.setdefault(rid, set())
        key = code if type(code) is str and len(code) <= 64 else repr(type(code))
        if key not in seen and len(seen) < 64:
            seen.add(key)
            self.counts["wrong_codes"] += 1
            self._wrong_by_addr[addr] += 1
            self._wrong_recent.append(now)
            n = self._wrong_by_addr[addr]
            log.warning("%s join code from %s (%d from there)", "no" if code is None else "a wrong", addr, n)
            if n >= MAX_WRONG_CODES:
                self.gate.deny_address(addr)
                self.gate.deny_key(pub)
                on_deny(addr, n)
        if len(self._wrong_seen) > 4096:
            self._wrong_seen.clear()
        return "code", "a wrong or missing join code: ask the host for it (mq join HOST --code XXXX-XXXX-XXXX)"
