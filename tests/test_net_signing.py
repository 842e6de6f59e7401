"""Signed history (net.signing, issue 13): an action signed by its author, an entry by its
sequencer, with the players' own Ed25519 keys kept under MQ_HOME (net.identity); forged, altered
and replayed ones are refused in words."""
from __future__ import annotations

import os
import stat

import pytest

from net import identity, signing
from net.signing import Proposals, Refused, Signer, verify_action, verify_entry

GAME = bytes.fromhex("c12f8a847e7a3f4d")
PREV = bytes(range(32))
MOVE = [1, "move", [2]]
INC = bytes.fromhex("0102030405060708")  # a proposer's incarnation (net.peer)


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("MQ_HOME", str(tmp_path / "mq"))
    return tmp_path / "mq"


def _other_signer(tmp_path, monkeypatch, name: str) -> Signer:
    monkeypatch.setenv("MQ_HOME", str(tmp_path / name))
    return Signer(identity.signing_seed())


def test_the_signing_key_is_made_once_kept_private_and_apart_from_the_curve_key(home):
    seed = identity.signing_seed()
    assert identity.signing_seed() == seed and identity.valid_secret(seed)
    path = home / "signing"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert identity.identity() != seed  # the transport's CURVE key is another key
    os.chmod(path, 0o644)
    assert identity.signing_seed() == seed and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    path.write_text("not a key\n")
    with pytest.raises(ValueError, match="is not an mq signing key; move it away"):
        identity.signing_seed()


def test_an_entry_signed_by_its_sequencer_verifies(home):
    seq = Signer(identity.signing_seed())
    sig = seq.sign_entry(GAME, 12, 3, PREV, MOVE, 1)
    assert len(seq.public) == 32 and len(sig) == 64
    verify_entry(seq.public, GAME, 12, 3, PREV, MOVE, 1, sig)


def test_a_forged_entry_is_refused(home, tmp_path, monkeypatch):
    """Q-DIGI-1 (the engine is the referee): an entry signed by another player's key than the
    sequencer's of that epoch is refused, naming the entry and the epoch."""
    seq = Signer(identity.signing_seed())
    cheat = _other_signer(tmp_path, monkeypatch, "cheat")
    sig = cheat.sign_entry(GAME, 12, 3, PREV, MOVE, 1)
    with pytest.raises(Refused, match=r"^entry 12: the signature is not the sequencer's of epoch 3"):
        verify_entry(seq.public, GAME, 12, 3, PREV, MOVE, 1, sig)


@pytest.mark.parametrize("field, changed", [
    ("game", (bytes(8), 12, 3, PREV, MOVE, 1)),
    ("seq", (GAME, 13, 3, PREV, MOVE, 1)),  # the same entry replayed at the next position
    ("epoch", (GAME, 12, 4, PREV, MOVE, 1)),  # ... or under a later epoch
    ("prev", (GAME, 12, 3, bytes(32), MOVE, 1)),  # ... or after another history
    ("action", (GAME, 12, 3, PREV, [1, "move", [3]], 1)),
    ("author", (GAME, 12, 3, PREV, MOVE, 0)),  # a move put under another seat's name
])
def test_an_altered_or_replayed_entry_is_refused(home, field, changed):
    seq = Signer(identity.signing_seed())
    sig = seq.sign_entry(GAME, 12, 3, PREV, MOVE, 1)
    game, n, epoch, prev, action, author = changed
    with pytest.raises(Refused, match=rf"^entry {n}: .*or the entry was altered"):
        verify_entry(seq.public, game, n, epoch, prev, action, author, sig)


def test_an_action_is_signed_by_its_author_and_a_forged_one_is_refused(home, tmp_path, monkeypatch):
    ann = Signer(identity.signing_seed())
    sig = ann.sign_action(GAME, 1, (INC, 7), MOVE)
    verify_action(ann.public, GAME, 1, (INC, 7), MOVE, sig)
    bob = _other_signer(tmp_path, monkeypatch, "bob")
    forged = bob.sign_action(GAME, 1, (INC, 7), MOVE)  # Bob acting for Ann's seat
    with pytest.raises(Refused, match=r"^action 7 of seat 1: the signature is not seat 1's"):
        verify_action(ann.public, GAME, 1, (INC, 7), MOVE, forged)
    with pytest.raises(Refused, match=r"^action 7 of seat 1: .*or the action was altered"):
        verify_action(ann.public, GAME, 1, (INC, 7), [1, "heal", []], sig)
    with pytest.raises(Refused, match=r"or the action was altered"):  # another process's proposal 7
        verify_action(ann.public, GAME, 1, (bytes(8), 7), MOVE, sig)


def test_a_replayed_action_is_refused_by_its_proposal_id(home):
    ann = Signer(identity.signing_seed())
    taken = Proposals()
    for n in (1, 2, 5):
        verify_action(ann.public, GAME, 1, (INC, n), MOVE, ann.sign_action(GAME, 1, (INC, n), MOVE))
        assert taken.refuses(1, (INC, n)) is None
        taken = taken.taken(1, (INC, n))
    assert taken.refuses(0, (INC, 1)) is None  # each author counts on their own
    assert taken.refuses(1, (INC, 5)) == "action 5 of seat 1: a replay (that process's last action for seat 1 was 5)"
    assert "a replay" in taken.refuses(1, (INC, 3))
    # A restarted process (a new incarnation) counts from 1 again.
    later = bytes(8)
    assert taken.refuses(1, (later, 1)) is None
    taken = taken.taken(1, (later, 1))
    assert taken.refuses(1, (later, 2)) is None
    # The first process, back in its seat (it proved it played it first: net.incarnation), goes on
    # above its own last counter; its old actions are still replays.
    assert "a replay" in taken.refuses(1, (INC, 5)) and "a replay" in taken.refuses(1, (INC, 1))
    assert taken.refuses(1, (INC, 6)) is None
    taken = taken.taken(1, (INC, 6)).taken(0, (later, 1))
    assert taken.incarnations(1) == (INC, later) and taken.incarnations(0) == (later,)
    assert "a replay" in taken.refuses(1, (later, 1))


@pytest.mark.parametrize("public, sig, said", [
    (b"short", bytes(64), "key is not an Ed25519 public key"),
    (None, bytes(64), "key is not an Ed25519 public key"),
    (bytes(32), b"x" * 10, "the signature is malformed"),
    (bytes(32), "not bytes", "the signature is malformed"),
])
def test_malformed_keys_and_signatures_are_refused_in_words(public, sig, said):
    with pytest.raises(Refused, match=said):
        verify_entry(public, GAME, 1, 0, PREV, MOVE, 0, sig)


def test_what_is_signed_names_its_purpose():
    """An action's signature is never an entry's: the signed bytes start with different domains."""
    assert signing.action_bytes(GAME, 1, (INC, 1), MOVE) != signing.entry_bytes(GAME, 1, 1, PREV, MOVE, 1)
    assert signing.ACTION_DOMAIN.encode() in signing.action_bytes(GAME, 1, (INC, 1), MOVE)
    assert signing.ENTRY_DOMAIN.encode() in signing.entry_bytes(GAME, 1, 1, PREV, MOVE, 1)
