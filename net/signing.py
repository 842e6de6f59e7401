"""Signed history (issue 13): every action signed by its author, every entry by its sequencer.

A player's Ed25519 signing key (net.identity.signing_seed; libsodium through PyNaCl) is separate
from the CURVE key of the transport.  What is signed is a canonical msgpack list that starts with
a domain word and the game id, so a signature made for one purpose or one game is worth nothing
for another:

- an **action**: ``("mq-action-v1", game, author seat, nonce, action)``.  ``nonce`` counts the
  author's proposals (1, 2, ...): a replayed action repeats a nonce, and :class:`Nonces` refuses it.
- an **entry**: ``("mq-entry-v1", game, seq, epoch, prev, action, author)``: the position in the
  log (``seq``, and ``prev``, the hash chaining it to the entry before), the sequencer's ``epoch``,
  the action and its author's seat.  An entry copied to another position, another epoch or after
  another history fails, as does any changed field.

Every check that fails raises :class:`Refused`, whose message says in words what was wrong and
where ("entry 12: the signature is not the sequencer's of epoch 3").  Not wired in yet: the
replica's entry check (net.replica), catch-up, resume and failover do not call these functions;
that is the next step of issue 13.
"""
from __future__ import annotations

from typing import Any

import msgpack
from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

ACTION_DOMAIN = "mq-action-v1"
ENTRY_DOMAIN = "mq-entry-v1"
PUBLIC_LEN = 32  # an Ed25519 public key
SIGNATURE_LEN = 64  # an Ed25519 signature


class Refused(ValueError):
    """A signature that does not hold, said in words."""


def _canonical(fields: tuple[Any, ...]) -> bytes:
    """The bytes a signature covers: one msgpack list (ints, str, bytes, lists: one encoding each)."""
    return msgpack.packb(list(fields), use_bin_type=True)


def action_bytes(game: bytes, author: int, nonce: int, action: list[Any]) -> bytes:
    return _canonical((ACTION_DOMAIN, game, author, nonce, action))


def entry_bytes(game: bytes, seq: int, epoch: int, prev: bytes, action: list[Any], author: int) -> bytes:
    return _canonical((ENTRY_DOMAIN, game, seq, epoch, prev, action, author))


class Signer:
    """One player's signing key: signs that player's actions and, as sequencer, entries."""

    def __init__(self, seed_hex: str) -> None:
        self._key = SigningKey(bytes.fromhex(seed_hex))
        self.public: bytes = bytes(self._key.verify_key)

    def sign_action(self, game: bytes, author: int, nonce: int, action: list[Any]) -> bytes:
        return self._key.sign(action_bytes(game, author, nonce, action)).signature

    def sign_entry(self, game: bytes, seq: int, epoch: int, prev: bytes, action: list[Any], author: int) -> bytes:
        return self._key.sign(entry_bytes(game, seq, epoch, prev, action, author)).signature


def _verify(public: bytes, message: bytes, signature: bytes, what: str, whose: str) -> None:
    if type(public) is not bytes or len(public) != PUBLIC_LEN:
        raise Refused(f"{what}: {whose} key is not an Ed25519 public key")
    if type(signature) is not bytes or len(signature) != SIGNATURE_LEN:
        raise Refused(f"{what}: the signature is malformed ({SIGNATURE_LEN} bytes expected)")
    try:
        VerifyKey(public).verify(message, signature)
    except BadSignatureError:
        raise Refused(f"{what}: the signature is not {whose}, or the {what.split()[0]} was altered") from None


def verify_action(public: bytes, game: bytes, author: int, nonce: int, action: list[Any], signature: bytes) -> None:
    """That seat ``author``, whose key is ``public``, signed this action as its proposal ``nonce``."""
    _verify(public, action_bytes(game, author, nonce, action), signature,
            f"action {nonce} of seat {author}", f"seat {author}'s")


def verify_entry(public: bytes, game: bytes, seq: int, epoch: int, prev: bytes, action: list[Any], author: int,
                 signature: bytes) -> None:
    """That the sequencer of ``epoch``, whose key is ``public``, numbered this entry ``seq`` after
    ``prev``, with this action by seat ``author``."""
    _verify(public, entry_bytes(game, seq, epoch, prev, action, author), signature,
            f"entry {seq}", f"the sequencer's of epoch {epoch}")


class Nonces:
    """The last proposal number seen from each author: a replayed (or reordered) action, whose
    nonce is not above the author's last one, is refused."""

    def __init__(self) -> None:
        self._last: dict[int, int] = {}

    def check(self, author: int, nonce: int) -> None:
        last = self._last.get(author, 0)
        if type(nonce) is not int or nonce <= last:
            raise Refused(f"action {nonce} of seat {author}: a replay (seat {author}'s last action was {last})")
        self._last[author] = nonce
