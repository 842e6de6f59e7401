"""Signed history (issue 13): every action signed by its author, every entry by its sequencer.

A player's Ed25519 signing key (net.identity.signing_seed; libsodium through PyNaCl) is separate
from the CURVE key of the transport.  What is signed is a canonical msgpack list that starts with
a domain word and the game id, so a signature made for one purpose or one game is worth nothing
for another:

- an **action**: ``("mq-action-v1", game, author seat, [incarnation, counter], action)``: the
  proposal's id (net.peer: a process's random incarnation and its count of proposals), so that a
  replayed action repeats an id, and :class:`Proposals` refuses it.
- an **entry**: ``("mq-entry-v1", game, seq, epoch, prev, action, author)``: the position in the
  log (``seq``, and ``prev``, the hash chaining it to the entry before), the sequencer's ``epoch``,
  the action and its author's seat.  An entry copied to another position, another epoch or after
  another history fails, as does any changed field.
- a **promise** (protocol 7): ``("mq-promise-v1", game, epoch)``: a peer's word that it follows no
  sequencer of an older epoch (docs/net.md, "Epochs").  A quorum of them, from distinct seats, in
  the first entry of a reign is its certificate (net.replica.check_certificate): a reign exists only
  if a quorum promised it, so a player alone cannot make one up.

Every check that fails raises :class:`Refused`, whose message says in words what was wrong and
where ("entry 12: the signature is not the sequencer's of epoch 3").  net.replica's entry check,
which every path that adopts an entry goes through, calls :func:`verify_entry`,
:func:`verify_action` and :meth:`Proposals.check`; the sequencer checks a proposal's signature
before it numbers it.

A peer without a signing key of its own (tests, ``mq play``'s local peers) signs with one derived
from its CURVE secret (:func:`seed_for`: a keyed hash under its own domain, so neither key tells
anything about the other's use); the ``mq`` commands use the one kept under MQ_HOME.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import msgpack
from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

ACTION_DOMAIN = "mq-action-v1"
ENTRY_DOMAIN = "mq-entry-v1"
PROMISE_DOMAIN = "mq-promise-v1"
PUBLIC_LEN = 32  # an Ed25519 public key
SIGNATURE_LEN = 64  # an Ed25519 signature


class Refused(ValueError):
    """A signature that does not hold, said in words."""


def _canonical(fields: tuple[Any, ...]) -> bytes:
    """The bytes a signature covers: one msgpack list (ints, str, bytes, lists: one encoding each)."""
    return msgpack.packb(list(fields), use_bin_type=True)


Pid = tuple[bytes, int]  # a proposal's id: (incarnation, counter)


def action_bytes(game: bytes, author: int, pid: Pid, action: list[Any]) -> bytes:
    return _canonical((ACTION_DOMAIN, game, author, list(pid), action))


def entry_bytes(game: bytes, seq: int, epoch: int, prev: bytes, action: list[Any], author: int) -> bytes:
    return _canonical((ENTRY_DOMAIN, game, seq, epoch, prev, action, author))


def promise_bytes(game: bytes, epoch: int) -> bytes:
    return _canonical((PROMISE_DOMAIN, game, epoch))


def seed_for(curve_secret_hex: str) -> str:
    """A signing seed derived from a CURVE secret (hex), for a peer given no signing key."""
    return hashlib.blake2b(bytes.fromhex(curve_secret_hex), digest_size=32, person=b"mq-signing-v1").hexdigest()


class Signer:
    """One player's signing key: signs that player's actions and, as sequencer, entries."""

    def __init__(self, seed_hex: str) -> None:
        self._key = SigningKey(bytes.fromhex(seed_hex))
        self.public: bytes = bytes(self._key.verify_key)

    def sign_action(self, game: bytes, author: int, pid: Pid, action: list[Any]) -> bytes:
        return self._key.sign(action_bytes(game, author, pid, action)).signature

    def sign_entry(self, game: bytes, seq: int, epoch: int, prev: bytes, action: list[Any], author: int) -> bytes:
        return self._key.sign(entry_bytes(game, seq, epoch, prev, action, author)).signature

    def sign_promise(self, game: bytes, epoch: int) -> bytes:
        return self._key.sign(promise_bytes(game, epoch)).signature


def _verify(public: bytes, message: bytes, signature: bytes, what: str, whose: str) -> None:
    if type(public) is not bytes or len(public) != PUBLIC_LEN:
        raise Refused(f"{what}: {whose} key is not an Ed25519 public key")
    if type(signature) is not bytes or len(signature) != SIGNATURE_LEN:
        raise Refused(f"{what}: the signature is malformed ({SIGNATURE_LEN} bytes expected)")
    try:
        VerifyKey(public).verify(message, signature)
    except BadSignatureError:
        raise Refused(f"{what}: the signature is not {whose}, or the {what.split()[0]} was altered") from None


def verify_action(public: bytes, game: bytes, author: int, pid: Pid, action: list[Any], signature: bytes) -> None:
    """That seat ``author``, whose key is ``public``, signed this action as its proposal ``pid``."""
    _verify(public, action_bytes(game, author, pid, action), signature,
            f"action {pid[1]} of seat {author}", f"seat {author}'s")


def verify_entry(public: bytes, game: bytes, seq: int, epoch: int, prev: bytes, action: list[Any], author: int,
                 signature: bytes) -> None:
    """That the sequencer of ``epoch``, whose key is ``public``, numbered this entry ``seq`` after
    ``prev``, with this action by seat ``author``."""
    _verify(public, entry_bytes(game, seq, epoch, prev, action, author), signature,
            f"entry {seq}", f"the sequencer's of epoch {epoch}")


def verify_promise(public: bytes, game: bytes, epoch: int, seat: int, signature: bytes) -> None:
    """That seat ``seat``, whose key is ``public``, promised ``epoch`` in this game."""
    _verify(public, promise_bytes(game, epoch), signature, f"promise of seat {seat} for epoch {epoch}",
            f"seat {seat}'s")


@dataclass(frozen=True)
class Proposals:
    """The proposal ids a log has taken so far: per author, each incarnation's last counter, in
    the order the log first took each incarnation.  A proposal id that is not new — a counter not
    above the last of its incarnation — is a replay (or reordered), and :meth:`refuses` says so;
    the sequencer makes the same check before it numbers a proposal, so an honest log never fails
    it.  An incarnation may come back after another with a counter above its own last: the process
    that proved to the sequencer that it played the seat first (net.incarnation; docs/net.md, "One
    seat, one live process").  (What no check can tell: a sequencer that holds a signed proposal
    back and numbers it later, before that process's next proposal.)"""

    counters: tuple[tuple[int, bytes, int], ...] = ()  # (author, incarnation, its last counter)

    def incarnations(self, author: int) -> tuple[bytes, ...]:
        """``author``'s incarnations, in the order the log first took a proposal of each."""
        return tuple(inc for a, inc, _ in self.counters if a == author)

    def refuses(self, author: int, pid: Pid) -> str | None:
        """Why ``pid`` of ``author`` is not new (None: it is)."""
        last = next((n for a, inc, n in self.counters if a == author and inc == pid[0]), None)
        if last is not None and pid[1] <= last:
            return (f"action {pid[1]} of seat {author}: a replay (that process's last action for seat "
                    f"{author} was {last})")
        return None

    def taken(self, author: int, pid: Pid) -> "Proposals":
        """The ids once ``pid`` of ``author`` is taken (unchecked: see :meth:`refuses`)."""
        rows = list(self.counters)
        at = next((i for i, (a, inc, _) in enumerate(rows) if a == author and inc == pid[0]), None)
        if at is None:
            rows.append((author, pid[0], pid[1]))
        else:
            rows[at] = (author, pid[0], pid[1])
        return Proposals(tuple(rows))
