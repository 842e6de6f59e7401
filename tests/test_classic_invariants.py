"""Invariants of the Classic engine after every step of many games (mq.classic.invariants): card
conservation over every zone, race and class counts, slots and big items, levels within 1..the
winning level, the winning level only by a kill or a card that allows it (C-LAW-2), the hand limit
after charity (C-TURN-9) and the end exactly at a win (C-WIN-1, C-DEATH-5: no end where the
monsters win); both for bots (each from its own view) and for seeded random legal play.  The
suite runs these in both core modes (MQ_PUREPYTHON=1)."""
from __future__ import annotations

import pytest

from mq import core
from mq.bots.classic import choose
from mq.cards.classic_loader import load_classic_default
from mq.cards.classic_packs import NAMES
from mq.classic import cards_or_default, invariants
from mq.classic.codec import decode, encode
from mq.rules import actors, is_legal, is_over, legal_actions, make_params, new_game, state_hash, step, view

CARDS = load_classic_default()


def play(seed: int, players: int, bots: bool, bound: int, epic: bool = False, packs: tuple[str, ...] = ()):
    s = new_game(make_params(players, mode="classic", epic=epic, packs=packs), seed)
    cards = cards_or_default(None, s)  # the game's card set: the default one with its packs (C-OPT-4)
    for i in range(bound):
        if is_over(s):
            break
        seat = actors(s)[0]
        if bots:
            action = choose(view(s, seat), seat, cards)
        else:
            acts = legal_actions(s, seat)
            assert acts, "a seat the game waits for always has an action"
            action = acts[core.rng_below(seed, i, len(acts))[0]]
        assert is_legal(s, action)
        s2, events = step(s, action)
        problems = invariants.check(s2, cards) + invariants.check_step(s, s2, events, cards)
        assert problems == [], (seed, i, action)
        s = s2
    return s


@pytest.mark.parametrize("seed", range(24))
def test_bot_games_keep_every_invariant_and_end_with_a_winner_C_WIN_1_C_DEATH_5(seed):
    """C-WIN-1, C-DEATH-5, C-COMP-1: bot games end with a winner, death is never final."""
    s = play(seed, 2 + seed % 5, bots=True, bound=20_000)
    assert is_over(s) and s.winners
    assert all(p.level >= 10 for p in s.players if p.seat in s.winners)


@pytest.mark.parametrize("seed", range(8))
def test_epic_bot_games_keep_every_invariant_C_EPIC_1_C_EPIC_2(seed):
    """C-EPIC-1, 2: with Epic, bot games end with a winner at level 20, every step keeping the invariants."""
    s = play(100 + seed, 2 + seed % 5, bots=True, bound=30_000, epic=True)
    assert is_over(s) and all(s.players[w].level == 20 for w in s.winners)


@pytest.mark.parametrize("seed", range(6))
def test_random_legal_play_keeps_every_invariant_C_LAW_1_2(seed):
    """C-LAW-1, 2 under any legal play, however odd."""
    play(seed, 3 + seed % 4, bots=False, bound=1500)


@pytest.mark.parametrize("seed", range(3))
def test_random_legal_play_with_every_pack_keeps_every_invariant_C_PACK_1_C_LAW_1_2(seed):
    """C-PACK, C-EPIC, C-LAW-1, 2: the same with every pack (Epic too): steeds, hirelings, the
    packs' races and classes, dungeons and portals under any legal play."""
    play(200 + seed, 3 + seed % 4, bots=False, bound=1500, epic=True, packs=NAMES)


def test_the_same_seed_plays_the_same_game():
    a = play(3, 4, bots=True, bound=20_000)
    b = play(3, 4, bots=True, bound=20_000)
    assert encode(a) == encode(b) and a.winners == b.winners


def test_states_round_trip_through_plain_data():
    """DESIGN "The engine contract": decode(encode(state)) == state, with the same hash, all game long."""
    s = new_game(make_params(3, mode="classic"), 9)
    for _ in range(300):
        if is_over(s):
            break
        assert decode(encode(s)) == s and state_hash(decode(encode(s))) == state_hash(s)
        seat = actors(s)[0]
        s = step(s, choose(view(s, seat), seat, CARDS))[0]
