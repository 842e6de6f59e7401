"""``legal_actions(state, seat, cards, kind)`` lists exactly the full list's actions of that kind,
in the same order, on every state of random and bot games: ``is_legal`` relies on it to check an
action without enumerating every other kind, so apply must accept exactly what is listed."""
from __future__ import annotations

import random

import pytest

from mq.bots import choose
from mq.cards import load_default
from mq.rules import actors, apply, is_legal, legal_actions, make_params, new_game, view
from mq.rules import legal
from mq.rules.actions import KINDS, Action

CARDS = load_default()


def check_every_kind(s) -> int:
    """Compare the filtered lists with the full one for every seat and kind; returns how many
    actions were listed (so a test can see it looked at something)."""
    listed = 0
    for seat in range(len(s.players)):
        full = legal.legal_actions(s, seat, CARDS)
        listed += len(full)
        for kind in KINDS + ("no-such-kind",):
            assert legal.legal_actions(s, seat, CARDS, kind) == tuple(a for a in full if a.kind == kind), \
                (seat, kind)
        for a in full:
            assert is_legal(s, a, CARDS)
    return listed


def walk(seed: int, players: int, steps: int, bots: bool) -> int:
    rnd = random.Random(seed)
    s = new_game(make_params(players), seed, CARDS)
    listed = 0
    for _ in range(steps):
        if s.phase == "over":
            break
        listed += check_every_kind(s)
        seat = rnd.choice(actors(s))
        if bots:
            a = choose(view(s, seat), seat, CARDS)
        else:
            options = legal_actions(s, seat, CARDS)
            calm = [a for a in options if a.kind not in ("suicide", "heal")] or list(options)
            a = rnd.choice(options if rnd.random() < 0.02 else calm)
        s = apply(s, a, CARDS)
    return listed


@pytest.mark.parametrize("seed", range(6))
def test_kind_filter_equals_the_filtered_full_list_in_random_games(seed):
    assert walk(seed, 2 + seed % 5, 250, bots=False) > 1000


@pytest.mark.parametrize("seed", range(2))
def test_kind_filter_equals_the_filtered_full_list_in_bot_games(seed):
    assert walk(1000 + seed, 3 + seed, 400, bots=True) > 1000


def test_an_action_of_another_seat_or_kind_is_not_legal():
    s = new_game(make_params(3), 4, CARDS)
    assert Action(0, "ready") in legal.legal_actions(s, 0, CARDS, "ready")
    assert legal.legal_actions(s, 0, CARDS, "end_turn") == ()
    assert not is_legal(s, Action(0, "end_turn"), CARDS)
