"""Conformance harness (OpenSpiel style): random and bot games checking the engine contract.

For every step: the actor has a legal action and it applies; actions that are not legal are
rejected with a reason and change nothing; the incremental state hash equals the full recompute;
state and actions survive msgpack; and replaying the action list reproduces the final hash."""
from __future__ import annotations

import random

import msgpack
import pytest

from mq.bots import choose
from mq.rules import (
    IllegalAction,
    actors,
    apply,
    codec,
    full_hash,
    is_legal,
    is_over,
    legal_actions,
    make_params,
    new_game,
    state_hash,
    view,
)
from mq.rules.actions import KINDS, Action, decode, encode

PROBE_ARGS = ((), (0,), (1,), (3,), (99,), ("nope",), ("worn",), (0, 1))


def roundtrip_state(s):
    back = codec.decode(msgpack.unpackb(msgpack.packb(codec.encode(s)), use_list=True))
    assert back == s
    assert full_hash(back) == full_hash(s)


def probe_illegal(s, rnd):
    """A few actions not in the legal list must raise IllegalAction and leave s as it was."""
    before = full_hash(s)
    for _ in range(3):
        seat = rnd.randrange(len(s.players))
        a = Action(seat, rnd.choice(KINDS), rnd.choice(PROBE_ARGS))
        if is_legal(s, a):
            continue
        with pytest.raises(IllegalAction) as err:
            apply(s, a)
        assert err.value.reason
    assert full_hash(s) == before


def check_laws(s):
    """Q-LAW-1, 4, 5 hold after every action."""
    for p in s.players:
        assert 1 <= p.level <= 10 and 0 <= p.hp
    for m in s.monsters:
        in_boss_fight = s.combat is not None and s.combat.boss and m.uid in s.combat.monsters
        assert m.room != 0 or m.boss or in_boss_fight, "only the Boss's fight has monsters in the Entrance (Q-LAW-4)"
        assert not m.boss or m.room == 0, "the Boss never leaves the Entrance (Q-LAW-5)"
    if s.combat is not None:
        assert s.combat.boss == any(m.boss for m in s.monsters if m.uid in s.combat.monsters)


def play(seed, players, pick, limit):
    rnd = random.Random(seed)
    s = new_game(make_params(players), seed)
    start = s
    taken = []
    for i in range(limit):
        if is_over(s):
            break
        seat = rnd.choice(actors(s))
        options = legal_actions(s, seat)
        assert options, f"seat {seat} is waited for but has no legal action"
        a = pick(s, seat, options, rnd)
        assert a in options
        assert decode(msgpack.unpackb(msgpack.packb(encode(a)))) == a
        if i % 7 == 0:
            probe_illegal(s, rnd)
        s = apply(s, a)
        taken.append(a)
        check_laws(s)
        assert state_hash(s) == full_hash(s)
        if i % 25 == 0:
            roundtrip_state(s)
    replay = start
    for a in taken:
        replay = apply(replay, a)
    assert state_hash(replay) == state_hash(s)
    roundtrip_state(s)
    return s, taken


def random_pick(s, seat, options, rnd):
    # Suicide and heal make random games degenerate; keep them rare rather than absent.
    calm = [a for a in options if a.kind not in ("suicide", "heal")] or list(options)
    return rnd.choice(options if rnd.random() < 0.02 else calm)


def bot_pick(s, seat, options, rnd):
    return choose(view(s, seat), seat)


@pytest.mark.parametrize("seed", range(12))
def test_random_games_keep_the_contract(seed):
    play(seed, 2 + seed % 5, random_pick, limit=300)


@pytest.mark.parametrize("seed", range(3))
def test_bot_games_keep_the_contract_to_the_end(seed):
    s, taken = play(100 + seed, 3 + seed, bot_pick, limit=20_000)
    assert is_over(s), "bot games end with a winner"
    assert s.winners


def test_views_hide_other_hands_and_decks():
    s = new_game(make_params(3), 5)
    v = view(s, 1)
    assert v.players[1].hand == s.players[1].hand
    for seat in (0, 2):
        assert set(v.players[seat].hand) == {"?"}
        assert len(v.players[seat].hand) == len(s.players[seat].hand)
    assert set(v.treasure_deck.draw) == {"?"} and v.rng_seed == 0
