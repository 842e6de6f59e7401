"""A process's incarnation, and its proof (docs/net.md, "One seat, one live process").

Every peer process draws a random secret at start; its incarnation ``inc``, the first half of
every proposal id and so in every log entry of its seat, is the secret's BLAKE2b hash.  The secret
travels only in the ``hello``, inside CurveZMQ, to the sequencer, which checks it against the
hello's ``inc``.  Two processes with one identity (a copied key) hold the same CURVE and signing
keys and read the same log, but only the process that drew an incarnation can prove it: when both
contend for a seat, the sequencer gives it to the one whose incarnation came first in the seat's
proposals (:func:`earlier`, from the log, so every sequencer decides alike).

Invariants: ``inc`` is :func:`of` the secret; the secret is never logged, written to disk or sent
in anything but a ``hello``; an incarnation with no proposal in the log comes after every one that
has one.
"""
from __future__ import annotations

import hashlib
import hmac

SECRET_LEN = 16
INC_LEN = 8
_PERSON = b"mq-incarnation"  # BLAKE2b's personalisation: this hash is for nothing else


def of(secret: bytes) -> bytes:
    """The incarnation that ``secret`` proves."""
    return hashlib.blake2b(secret, digest_size=INC_LEN, person=_PERSON).digest()


def proves(secret: bytes, inc: bytes) -> bool:
    return hmac.compare_digest(of(secret), inc)


def earlier(order: tuple[bytes, ...], a: bytes, b: bytes) -> bool:
    """Whether incarnation ``a`` of a seat came before ``b`` in ``order`` (the seat's incarnations
    in the order its proposals entered the log: net.signing.Proposals.incarnations)."""
    def rank(inc: bytes) -> int:
        return order.index(inc) if inc in order else len(order)

    return rank(a) < rank(b)
