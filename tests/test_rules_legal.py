"""``legal_actions(state, seat, cards, kind)`` lists exactly the full list's actions of that kind,
in the same order, on every state of random and bot games: ``is_legal`` relies on it to check an
action without enumerating every other kind, so apply must accept exactly what is listed.

``has_action`` (the enumeration cut short at the first action it looks for) answers exactly
``bool`` of the filtered full list on the same states: the auto-pass check (``windows.can_act``)
and ``is_legal`` rely on it."""
from __future__ import annotations

import random

import pytest

from mq.bots import choose
from mq.cards import load_default
from mq.rules import actors, apply, combat, is_legal, legal, legal_actions, make_params, new_game, view, windows
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
        check_has_action(s, seat, full)
    return listed


def counts(fighting: bool):
    """What counts as acting in a reaction window (windows._NOT_ACTING and the bystander's discard)."""
    return lambda a: a.kind not in ("pass", "suicide") and (fighting or a.kind != "discard")


def check_has_action(s, seat: int, full) -> None:
    for fighting in (False, True):
        test = counts(fighting)
        assert legal.has_action(s, seat, CARDS, test) == any(test(a) for a in full), (seat, fighting)
    for kind in KINDS + ("no-such-kind",):
        assert legal.has_action(s, seat, CARDS, lambda a: True, kind) == any(a.kind == kind for a in full), \
            (seat, kind)
    assert not legal.has_action(s, seat, CARDS, lambda a: False)
    for a in full[:: max(1, len(full) // 5)]:  # a listed action is found, with or without its kind
        assert legal.has_action(s, seat, CARDS, a.__eq__)
        assert legal.has_action(s, seat, CARDS, a.__eq__, a.kind)
    if s.combat is not None and s.combat.stage in ("window", "outcome", "help") and seat in s.combat.waiting:
        WINDOWS.append(s.combat.stage)
        fighting = seat in combat.fighters(s.combat)
        assert windows.can_act(s, seat, CARDS) == any(counts(fighting)(a) for a in full), seat


WINDOWS: list[str] = []  # the reaction-window stages can_act was checked in (the tests need some)


def walk(seed: int, players: int, steps: int, bots: bool) -> int:
    rnd = random.Random(seed)
    s = new_game(make_params(players), seed, CARDS)
    listed = 0
    for i in range(steps):
        if s.phase == "over":  # (the monsters may win early, Q-DEATH-5): walk on in a new game
            s = new_game(make_params(players), seed + 1000 * (i + 1), CARDS)
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
def test_kind_filter_and_has_action_agree_with_the_full_list_in_random_games(seed):
    WINDOWS.clear()
    assert walk(seed, 2 + seed % 5, 250, bots=False) > 1000


@pytest.mark.parametrize("seed", range(2))
def test_kind_filter_and_has_action_agree_with_the_full_list_in_bot_games(seed):
    WINDOWS.clear()
    assert walk(1000 + seed, 3 + seed, 400, bots=True) > 1000
    assert "window" in WINDOWS  # bot games fight: the auto-pass check was compared there


def test_has_action_in_every_reaction_window_of_bot_games():
    """Reaction windows are where can_act runs: play bot games through many of them, comparing
    at every state (before auto-pass acts, a window's seats are the ones it asks about)."""
    WINDOWS.clear()
    for seed in range(3):
        walk(2000 + seed, 4, 300, bots=True)
    assert {"window", "outcome"} <= set(WINDOWS) and len(WINDOWS) > 50


def test_an_action_of_another_seat_or_kind_is_not_legal():
    s = new_game(make_params(3), 4, CARDS)
    assert Action(0, "ready") in legal.legal_actions(s, 0, CARDS, "ready")
    assert legal.legal_actions(s, 0, CARDS, "end_turn") == ()
    assert not is_legal(s, Action(0, "end_turn"), CARDS)
