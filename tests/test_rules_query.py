"""The read-only query module (mq.rules.query): its numbers are the engine's own — checked against
what the engine then does in bot games — and its chances are exact."""
from __future__ import annotations

from fractions import Fraction

import pytest

from mq.bots import choose
from mq.cards import load_default
from mq.rules import actors, make_params, new_game, query, step, view

CARDS = load_default()


def test_win_chance_counts_a_tie_as_a_loss_unless_the_side_wins_ties():
    """Q-COMBAT-8: strictly greater wins; a warrior's side wins ties (Q-CHAR-4)."""
    assert query.win_chance(10, 0, 3, 1) == 1
    assert query.win_chance(1, 0, 9, 1) == 0
    assert query.win_chance(5, 1, 5, 0) == 1  # 5 + die (1..6) > 5 always
    assert query.win_chance(5, 1, 6, 0) == Fraction(5, 6)  # a 1 ties, and a tie loses
    assert query.win_chance(5, 1, 6, 0, ties=True) == 1
    assert query.win_chance(0, 1, 0, 1) == Fraction(15, 36)
    assert query.dice_distribution(0) == (1,) and sum(query.dice_distribution(3)) == 6 ** 3


@pytest.mark.parametrize("players,seed", [(3, 4), (4, 2), (5, 9)])
def test_the_answers_are_what_the_engine_then_rolls(players, seed):
    """Asked of a seat's view just before the engine acts: the escape modifier is the one the
    escape roll adds (Q-RUN-2), the dice are the ones the fight rolls (Q-COMBAT-5)."""
    s = new_game(make_params(players), seed, CARDS)
    escapes = rolls = 0
    for _ in range(3000):
        if not actors(s):
            break
        seat = actors(s)[0]
        v = view(s, seat)
        a = choose(v, seat, CARDS)
        asked = {}
        if a.kind == "escape" and s.combat.run_to >= 0:
            asked["mod"] = query.escape_modifier(v, CARDS, a.args[0])
            asked["chance"] = query.escape_chance(v, CARDS, a.args[0])
        if s.combat is not None and a.kind in ("roll", "pass"):
            asked["dice"] = query.munchkin_dice(v, CARDS)
        s, events = step(s, a, CARDS)
        for e in events:
            if e.kind == "escape_roll" and "mod" in asked:
                assert e.mod == asked["mod"]
                assert asked["chance"] == Fraction(sum(1 for d in range(1, 7) if d + e.mod >= 5), 6)
                escapes += 1
            if e.kind == "combat_result" and "dice" in asked and not any(x.kind == "die_changed" for x in events):
                assert len(e.dice) == asked["dice"]
                rolls += 1
    assert escapes and rolls


def test_the_chance_of_a_fight_is_certain_when_no_roll_can_change_it():
    """Before the roll: strength the dice cannot overcome gives a chance of exactly 1 or 0."""
    s = new_game(make_params(4), 2, CARDS)
    for _ in range(3000):
        if s.combat is not None and s.combat.stage == "prepare":
            break
        seat = actors(s)[0]
        s, _ = step(s, choose(view(s, seat), seat, CARDS), CARDS)
    assert s.combat is not None
    c = s.combat
    fighter = s.players[c.fighter]
    strong = s.replace(players=tuple(p.replace(level=60) if p.seat == c.fighter else p for p in s.players))
    assert query.fight_chance(strong, CARDS) == 1
    weak = s.replace(combat=c.replace(bonus=-60))
    assert query.fight_chance(weak, CARDS) == 0
    assert 0 <= query.fight_chance(s, CARDS) <= 1 and fighter.level < 60


def test_berserk_and_backstab_are_terms_of_their_own_that_add_up_to_the_engines_total():
    """Q-CHAR-5: a warrior's Berserk (+1 a card) and a thief's Backstab (−2) are shown as their
    own terms, not folded into one-shots; the terms add up to what the fight then counts."""
    from builders import act, dxm_card, hand, nxt, rig, set_player
    from test_rules_combat import LURKER2, arena, result

    from mq.rules import combat

    warrior, thief = dxm_card(lambda d: d.key == "warrior"), dxm_card(lambda d: d.key == "thief")
    junk = [d.id for d in CARDS.dxm if d.kind == "race"][:3]
    s, a, _, _ = arena(monsters=(LURKER2,), setup=lambda s, a: hand(set_player(s, a, classes=(warrior,)), a, junk[0]))
    b = nxt(s, a)
    s = hand(set_player(s, b, classes=(thief,)), b, *junk[1:])
    assert dict(query.munchkin_terms(s, CARDS)).keys() == {"level", "items", "one-shots", "room"}
    s, _ = act(s, a, "power", "berserk", junk[0])
    s, _ = act(rig(s, 1), a, "roll")  # the die rolls when the window closes
    s, _ = act(s, b, "power", "backstab", a, junk[1])
    terms = dict(query.munchkin_terms(s, CARDS))
    assert terms["berserk"] == 1 and terms["backstab"] == -2 and terms["one-shots"] == 0
    assert combat.total(query.munchkin_terms(s, CARDS)) == combat.outcome(s, CARDS, (), ())[3]
    assert query.power_dice(s) == ()  # no battle cry tried
    fixed = combat.total(query.munchkin_terms(s, CARDS))
    events: list = []
    for _ in range(10):  # everyone passes; the fighter may answer the backstab, and rolls again
        if any(e.kind == "combat_result" for e in events):
            break
        c = s.combat
        s, ev = act(s, c.waiting[0], "pass") if c.stage == "window" else act(s, c.fighter, "roll")
        events += ev
    r = result(events)
    assert r.total == fixed + sum(r.dice)


@pytest.mark.parametrize("players,seed", [(3, 4), (4, 3)])
def test_a_battle_cry_shows_as_its_own_die_in_real_games(players, seed):
    """Q-CHAR-5: a battle cry's extra die (or none, when its d10 failed) is a term of the dice the
    fight rolls: in bot games, every fight state with a battle cry says so, and the dice the
    engine then rolls include it."""
    s = new_game(make_params(players), seed, CARDS)
    cries = {0: 0, 1: 0}
    for _ in range(3000):
        if not actors(s):
            break
        seat = actors(s)[0]
        a = choose(view(s, seat), seat, CARDS)
        v = view(s, seat)
        shown = query.power_dice(v) if v.combat is not None else ()
        dice = query.munchkin_dice(v, CARDS) if v.combat is not None else 0
        s, events = step(s, a, CARDS)
        if shown:
            ((name, extra),) = shown
            assert name == "battle cry" and extra == v.combat.extra_dice
            for e in events:
                if e.kind == "combat_result" and a.kind in ("pass", "roll") and not any(x.kind == "die_changed" for x in events):
                    assert len(e.dice) == dice
                    cries[extra] += 1
        for e in events:
            if e.kind == "d10" and e.power == "battle_cry":
                assert query.power_dice(s) == (("battle cry", 1 if e.ok else 0),)
    assert cries[0] + cries[1] >= 1
