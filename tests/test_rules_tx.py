"""Tx.commit: a State equal to the working copy, sharing untouched nodes with the base; committing
again with nothing changed gives the very same object, and any change gives a new one."""
from __future__ import annotations

import dataclasses

from mq import core
from mq.cards import load_default
from mq.rules import apply, make_params, new_game
from mq.rules.actions import Action
from mq.rules.state import State
from mq.rules.tx import _COMMITTED, Tx

CARDS = load_default()


def started(players=3, seed=8):
    s = new_game(make_params(players), seed, CARDS)
    for seat in s.order:
        s = apply(s, Action(seat, "ready"), CARDS)
    return s


def test_commit_of_an_untouched_tx_equals_the_base_and_shares_its_parts():
    s = started()
    a = Tx(s, CARDS).commit()
    assert a == s and a is not s and core.digest(a) == core.digest(s)
    for name in State._hash_fields:
        assert getattr(a, name) is getattr(s, name), name


def test_committing_again_without_changes_gives_the_same_object():
    s = started()
    tx = Tx(s, CARDS)
    tx.set_player(0, gold=1234)
    first = tx.commit()
    assert tx.commit() is first
    tx.d6()  # the RNG counter moves: a new state
    second = tx.commit()
    assert second is not first and second.rng_n == first.rng_n + 1 and second.players is first.players
    tx.set_room(0, pile_gold=5)
    third = tx.commit()
    assert third.rooms[0].pile_gold == 5 and third.players is second.players
    assert tx.commit() is third
    assert third == dataclasses.replace(s, rng_n=third.rng_n, players=third.players, rooms=third.rooms)
    assert core.digest(third) == core.digest_full(third)


def test_the_tx_carries_every_state_field():
    assert set(_COMMITTED) == set(State._hash_fields)


def test_action_keeps_its_dataclass_behaviour():
    a = Action(1, "use", ("x",))
    assert a == Action(seat=1, kind="use", args=("x",)) and hash(a) == hash(Action(1, "use", ("x",)))
    assert repr(a) == "Action(seat=1, kind='use', args=('x',))" and Action(0, "ready").args == ()
    assert Action(0, "z") < Action(1, "a") and dataclasses.replace(a, seat=2) == Action(2, "use", ("x",))
