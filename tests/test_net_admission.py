"""net.admission: the sequencer's gate for keys it does not know — the join code, its limits per
address and overall, spectators remembered, and loopback-only open games."""
from __future__ import annotations

import pytest

from net import identity
from net.admission import MAX_WRONG_CODES, WRONG_CODE_WINDOW_S, WRONG_CODES_PER_WINDOW, Admission, AdmissionError
from net.sim import Gate

HOST = identity.public_id("11" * 32)
GUEST = identity.public_id("22" * 32)


def _host(code_mode="code"):
    a = Admission(Gate(), None)
    a.open_as(code_mode, "127.0.0.1", HOST)
    return a, a.counts


def test_the_right_code_admits_and_the_key_is_remembered():
    a, stats = _host()
    assert identity.code_matches_key(a.join_code, HOST) and identity.code_secret(a.join_code) == a.secret
    assert not a.admitted(GUEST)
    assert a.admit(b"r1", a.secret, "10.0.0.2", GUEST, 0.0, pytest.fail) is None
    assert a.admitted(GUEST) and stats == {"wrong_codes": 0, "busy": 0}


def test_wrong_codes_count_once_per_connection_and_then_the_address_is_denied():
    a, stats = _host()
    denied = []
    assert a.admit(b"r1", "WRONGWRONG", "10.0.0.2", GUEST, 0.0, lambda *x: denied.append(x))[0] == "code"
    assert a.admit(b"r1", "WRONGWRONG", "10.0.0.2", GUEST, 0.1, lambda *x: denied.append(x))[0] == "code"
    assert stats["wrong_codes"] == 1  # a joiner resending its hello is one guess
    for i in range(1, MAX_WRONG_CODES):
        a.admit(b"r1", f"GUESS{i}", "10.0.0.2", GUEST, 0.2, lambda *x: denied.append(x))
    assert denied == [("10.0.0.2", MAX_WRONG_CODES)] and a.denied("10.0.0.2", "other key") and a.denied("x", GUEST)
    assert not a.admitted(GUEST) and a.admit(b"r2", None, "10.0.0.3", GUEST, 0.3, pytest.fail)[0] == "code"


def test_past_the_overall_limit_codes_are_not_checked_until_the_window_passes():
    a, stats = _host()
    for i in range(WRONG_CODES_PER_WINDOW):
        a.admit(bytes([i]), "WRONG", f"10.0.1.{i}", GUEST, 1.0, pytest.fail)
    assert a.admit(b"late", a.secret, "10.0.2.1", GUEST, 2.0, pytest.fail)[0] == "busy"
    assert stats == {"wrong_codes": WRONG_CODES_PER_WINDOW, "busy": 1}
    assert a.admit(b"late", a.secret, "10.0.2.1", GUEST, 1.0 + WRONG_CODE_WINDOW_S + 0.1, pytest.fail) is None


def test_an_open_game_admits_anyone_but_only_on_loopback():
    a, _ = _host("open")
    assert a.join_code is None and a.admit(b"r", None, "127.0.0.1", GUEST, 0.0, pytest.fail) is None
    with pytest.raises(AdmissionError, match="loopback only"):
        Admission(Gate(), None).open_as("open", "0.0.0.0", HOST)
    with pytest.raises(AdmissionError, match="unknown admission"):
        Admission(Gate(), None).open_as("maybe", "127.0.0.1", HOST)


def test_a_sequencer_after_a_failover_admits_with_the_code_it_joined_with():
    code = identity.make_code(HOST, identity.new_secret())
    joined = Admission(Gate(), code)
    assert joined.secret == identity.code_secret(code)
    assert joined.admit(b"r", joined.secret, "10.0.0.9", GUEST, 0.0, pytest.fail) is None
    nocode = Admission(Gate(), None)
    assert nocode.admit(b"r", "ANY", "10.0.0.9", GUEST, 0.0, pytest.fail)[0] == "closed"
