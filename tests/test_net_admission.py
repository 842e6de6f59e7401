"""net.admission: the sequencer's gate for keys it does not know — the join code, the waits of an
address that guesses, spectators remembered, and loopback-only open games."""
from __future__ import annotations

import pytest

from net import identity
from net.admission import BACKOFF_S, FREE_WRONG_CODES, MAX_ADDRESSES, MAX_BACKOFF_S, Admission, AdmissionError

HOST = identity.public_id("11" * 32)
GUEST = identity.public_id("22" * 32)


def _host(code_mode="code"):
    a = Admission(None)
    a.open_as(code_mode, "127.0.0.1", HOST)
    return a, a.counts


def _guess(a, addr, now, i, rid=b"r"):
    return a.admit(rid, f"GUESS{i:04d}", addr, GUEST, now)


def test_the_right_code_admits_and_the_key_is_remembered():
    a, stats = _host()
    assert identity.code_matches_key(a.join_code, HOST) and identity.code_secret(a.join_code) == a.secret
    assert not a.admitted(GUEST)
    assert a.admit(b"r1", a.secret, "10.0.0.2", GUEST, 0.0) is None
    assert a.admitted(GUEST) and stats == {"wrong_codes": 0, "waits": 0}


def test_a_resent_hello_is_one_guess_and_the_first_wrong_codes_cost_nothing():
    a, stats = _host()
    assert a.admit(b"r1", "WRONGWRONG", "10.0.0.2", GUEST, 0.0)[0] == "code"
    assert a.admit(b"r1", "WRONGWRONG", "10.0.0.2", GUEST, 0.1)[0] == "code"
    assert stats["wrong_codes"] == 1  # a joiner resending its hello is one guess
    for i in range(1, FREE_WRONG_CODES - 1):
        assert _guess(a, "10.0.0.2", 0.2, i)[0] == "code"
    assert a.admit(b"r1", a.secret, "10.0.0.2", GUEST, 0.3) is None  # a friend's typos: no wait at all
    assert stats == {"wrong_codes": FREE_WRONG_CODES - 1, "waits": 0}


def test_a_guessing_address_waits_longer_and_longer_but_never_more_than_the_bound():
    a, stats = _host()
    now = 0.0
    for i in range(FREE_WRONG_CODES):
        assert _guess(a, "10.0.0.2", now, i)[0] == "code"
    waits = []
    for i in range(FREE_WRONG_CODES, FREE_WRONG_CODES + 10):
        refusal = _guess(a, "10.0.0.2", now + 0.01, i)
        assert refusal[0] == "wait" and "try again in" in refusal[1]  # refused unchecked while it waits
        start = now
        while _guess(a, "10.0.0.2", now, i)[0] == "wait":
            now += 0.25
        waits.append(now - start)
        assert _guess(a, "10.0.0.2", now, i)[0] == "wait"  # that wrong code started the next wait
    assert waits[0] <= BACKOFF_S + 0.25 and waits[1] >= 2 * BACKOFF_S - 0.25  # doubling
    assert max(waits) <= MAX_BACKOFF_S + 0.5 and waits[-1] >= MAX_BACKOFF_S - 0.5  # bounded
    assert stats["waits"] > 0
    # The right code from the guesser's own address gets in once its wait is over, and it starts afresh.
    now += MAX_BACKOFF_S
    assert a.admit(b"friend", a.secret, "10.0.0.2", GUEST, now) is None
    assert _guess(a, "10.0.0.2", now, 99)[0] == "code"


def test_a_stranger_guessing_never_keeps_anyone_else_out():
    a, stats = _host()
    for i in range(200):  # far more than any overall limit would allow
        _guess(a, "10.0.0.66", float(i), i, rid=bytes([i % 256]))
        _guess(a, f"10.0.{i // 250}.{i % 250}", float(i), i, rid=b"x" + bytes([i % 256]))
    assert a.admit(b"friend", a.secret, "10.0.9.9", GUEST, 200.0) is None
    assert a.admit(b"friend2", None, "10.0.9.8", GUEST, 200.0)[0] == "code"  # a typo from a friend: no wait


def test_the_addresses_remembered_are_bounded_the_least_recent_forgotten_first():
    a, _ = _host()
    for i in range(FREE_WRONG_CODES):
        _guess(a, "first", 0.0, i)
    assert _guess(a, "first", 0.1, 99)[0] == "wait"
    for i in range(MAX_ADDRESSES - 1):
        _guess(a, f"addr{i}", 0.1, 0, rid=i.to_bytes(4, "big"))
    assert _guess(a, "first", 0.2, 98)[0] == "wait"  # still remembered: MAX_ADDRESSES in all
    _guess(a, "one more", 0.2, 0, rid=b"last")
    assert _guess(a, "first", 0.3, 97)[0] == "code"  # forgotten: the documented price of the bound


def test_an_open_game_admits_anyone_but_only_on_loopback():
    a, _ = _host("open")
    assert a.join_code is None and a.admit(b"r", None, "127.0.0.1", GUEST, 0.0) is None
    with pytest.raises(AdmissionError, match="loopback only"):
        Admission(None).open_as("open", "0.0.0.0", HOST)
    with pytest.raises(AdmissionError, match="unknown admission"):
        Admission(None).open_as("maybe", "127.0.0.1", HOST)


def test_a_sequencer_after_a_failover_admits_with_the_code_it_joined_with():
    code = identity.make_code(HOST, identity.new_secret())
    joined = Admission(code)
    assert joined.secret == identity.code_secret(code)
    assert joined.admit(b"r", joined.secret, "10.0.0.9", GUEST, 0.0) is None
    nocode = Admission(None)
    assert nocode.admit(b"r", "ANY", "10.0.0.9", GUEST, 0.0)[0] == "closed"
