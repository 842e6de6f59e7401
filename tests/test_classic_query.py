"""mq.classic.query: the read-only questions the client and bots ask about a Classic state, checked
against the engine itself (the breakdowns add up to the strengths the rules use; a what-if gives
what applying the action gives) on built positions and on every combat of real bot games."""
from __future__ import annotations

from fractions import Fraction

import pytest
from classic_table import CARDS, Action, act, hand, in_play, on_top, playing, set_player

from mq.bots import classic as bot
from mq.classic import cards_or_default
from mq.classic import combat as cb
from mq.classic import query as q
from mq.rules import actors, make_params, new_game, step, view


def kick(s, seat: int = 0):
    return act(s, seat, "kick")


@pytest.mark.parametrize("packs", [(), ("all",)], ids=["base", "epic-packs"])
def test_breakdowns_add_up_to_the_engines_strengths_in_real_games_C_COMBAT_2_3(packs):
    """C-COMBAT-2, 3: on every combat state of whole bot games, each munchkin's terms add up to
    combat.seat_strength and each monster's to combat.monster_level; odds agree with strengths.
    With every pack and Epic too: steeds, hirelings and an orc alone (C-PACK-2, 5, 6) count."""
    combats = 0
    params = make_params(4, mode="classic", epic=bool(packs), packs=packs)
    cards = cards_or_default(None, params)
    for seed in (1, 2):
        s = new_game(params, seed)
        for _ in range(3000):
            if s.phase == "over":
                break
            if s.combat is not None:
                combats += 1
                c = s.combat
                for seat in cb.side(c):
                    assert sum(v for _, v in q.munchkin_terms(s, cards, seat)) == cb.seat_strength(s, cards, seat)
                for i in cb.fought(c):
                    assert sum(v for _, v in q.monster_terms(s, cards, i)) == cb.monster_level(s, cards, i)
                o = q.odds(s, cards)
                assert (o.mine, o.theirs) == cb.strengths(s, cards) and o.wins == cb.munchkin_wins(s, cards)
                assert (o.short == 0) == o.wins
            seat = actors(s)[0]
            s, _ = step(s, bot.choose(view(s, seat), seat, cards))
    assert combats > 20


def test_monster_terms_name_modifiers_enhancers_and_the_floor_C_COMBAT_3_6_C_LAW_1():
    s = in_play(on_top(playing(), "CD23"), 0, "CD63")  # level 9, +3 against elves; an elf fighter
    s = hand(s, 1, "CD38")  # an enhancer, +5
    s, _ = kick(s)
    assert q.monster_terms(s, CARDS, 0) == (("level", 9), ("vs elf", 3))
    s, _ = act(s, 0, "roll")  # the last-chance window: Blue enhances
    s, _ = act(s, 1, "enhance", "CD38", 0)
    assert q.monster_terms(s, CARDS, 0) == (("level", 9), ("Had a Double Espresso", 5), ("vs elf", 3))
    low = set_player(on_top(playing(), "CD08"), 0, gender="female")  # level 3, -2 against females
    low, _ = kick(low)
    assert q.monster_terms(low, CARDS, 0) == (("level", 3), ("vs female", -2))
    ench = hand(low, 0, "CD42")  # -5: the floor of 1 holds (C-LAW-1)
    ench, _ = act(ench, 0, "enhance", "CD42", 0)
    terms = q.monster_terms(ench, CARDS, 0)
    assert terms[-1] == ("floor 1 (C-LAW-1)", 5) and sum(v for _, v in terms) == 1


def test_munchkin_terms_items_curses_and_odds_C_COMBAT_2_4_C_ITEM_1_3():
    s = set_player(on_top(playing(), "CD22"), 0, level=3)  # level 9
    s = in_play(s, 0, "CT05")  # +3 head
    s = in_play(s, 0, "CT09")  # +2 armour, wizards only: gives nothing to a human
    s = in_play(s, 0, "CT07", in_use=False)  # set aside
    s, _ = kick(s)
    assert q.munchkin_terms(s, CARDS, 0) == (("level", 3), ("Brain-Warming Beanie", 3))
    o = q.odds(s, CARDS)
    assert o == q.Odds(6, 9, False, 4) and q.win_chance(s, CARDS) == 0
    warrior = in_play(set_player(s, 0, level=6), 0, "CD72")
    assert q.odds(warrior, CARDS) == q.Odds(9, 9, True, 0) and q.win_chance(warrior, CARDS) == 1
    assert q.ties_win(warrior, CARDS) and not q.ties_win(s, CARDS)
    assert q.rewards(s, CARDS) == (1, 3) and q.treasure_at_stake(s, CARDS) == 3


def test_what_if_a_helper_joins_is_the_engines_join_and_changes_nothing_C_HELP_2():
    """C-HELP-2, C-COMBAT-3: a dwarf helper against a monster with +3 against dwarves adds their
    strength and the monster's bonus once; the state asked about is untouched."""
    s = set_player(on_top(playing(3), "CD14"), 0, level=4)  # level 5, +3 against dwarves
    s = in_play(set_player(s, 1, level=3), 1, "CD66")
    s, _ = kick(s)
    before = s
    o = q.with_helper(s, CARDS, 1)
    assert o == q.Odds(7, 8, False, 2)
    assert s is before and s.combat.helper == -1
    s, _ = act(s, 0, "ask", 1)
    s, _ = act(s, 1, "offer", 0, "helper", "")
    s, _ = act(s, 0, "accept", "deal", 1)
    assert q.odds(s, CARDS) == o


def test_what_if_a_card_is_played_matches_applying_it_C_CARD_4():
    s = set_player(on_top(playing(), "CD22"), 0, level=3)
    s = hand(s, 0, "CT49")  # +3 one-shot
    s, _ = kick(s)
    use = Action(0, "use", ("CT49", "munchkins"))
    o = q.after(s, CARDS, use)
    applied, _ = act(s, 0, "use", "CT49", "munchkins")
    assert o == q.odds(applied, CARDS) and o.mine == 6
    assert q.after(s, CARDS, Action(0, "use", ("CT50", "munchkins"))) is None  # not held: not legal
    assert q.after(view(s, 0), CARDS, use) == o  # a seat's view answers the same


def test_escape_need_modifiers_no_pursuit_and_chances_C_RUN_1_2_3():
    s = in_play(on_top(playing(), "CD22"), 0, "CD63")  # an elf: +1 to run away
    s, _ = kick(s)
    assert q.escape_need(s, CARDS, 0, 0) == 4 and q.escape_chance(s, CARDS, 0, 0) == Fraction(1, 2)
    assert q.escape_all_chance(s, CARDS, 0) == Fraction(1, 2)
    t = set_player(on_top(playing(), "CD26"), 0, level=1)  # does not pursue low levels
    t, _ = kick(t)
    assert not q.pursued(t, CARDS, 0, 0) and q.escape_chance(t, CARDS, 0, 0) == 1


def test_sale_charity_hand_limit_C_ITEM_7_C_CHARITY_1_C_TURN_9():
    s = in_play(playing(3), 0, "CD69")  # a halfling doubles one item a turn
    s = hand(s, 0, "CT05", "CT10")  # 600 + 100
    assert q.sale(s, CARDS, 0, ("CT05", "CT10")) == (1300, 1)
    assert set(q.sellable(s, CARDS, 0)) == {"CT05", "CT10"}
    assert q.hand_limit(s, CARDS, 0) == 5 and not q.unlimited_hand(s, CARDS, 0)
    full = hand(set_player(playing(3), 0, level=3), 0, *("CD%02d" % n for n in range(48, 55)))
    full = full.replace(turn=full.turn.replace(phase="end"))
    full = set_player(full, 2, level=2)
    assert q.charity_after_end(full, CARDS, 0) == (2, (1,))  # Blue is level 1, the lowest
    assert q.charity_after_end(playing(3), CARDS, 0) is None  # not yet the end of the turn


def test_epic_powers_from_level_ten_C_EPIC_1_2():
    s = in_play(playing(3, epic=True), 0, "CD66")  # a dwarf
    assert not q.is_epic(s, 0) and q.epic_powers(s, CARDS, 0) == ()
    s = set_player(s, 0, level=10)
    assert q.is_epic(s, 0) and "no_hand_limit" in q.epic_powers(s, CARDS, 0)
    assert q.unlimited_hand(s, CARDS, 0)
    plain = set_player(in_play(playing(3), 0, "CD66"), 0, level=10)  # no Epic option: no epic power
    assert not q.is_epic(plain, 0) and q.hand_limit(plain, CARDS, 0) == 6
    assert q.big_items(s, CARDS, 0)[1] > 1


def test_an_item_put_into_play_in_use_and_working_C_ITEM_2_3():
    s = in_play(playing(), 0, "CT05")  # a head item in use
    assert q.item_in_play(s, CARDS, 0, "CT13") == (True, True)  # feet: free
    assert q.item_in_play(s, CARDS, 0, "CT02") == (False, True)  # a second head item: set aside
    assert q.item_in_play(s, CARDS, 0, "CT03") == (False, False)  # head, and only for females
    assert q.item_works(s, CARDS, 0, "CT05") and not q.item_works(in_play(s, 0, "CT09"), CARDS, 0, "CT09")
    s, _ = act(hand(s, 0, "CT02"), 0, "play", "CT02")
    assert [(it.card, it.in_use) for it in s.players[0].items] == [("CT05", True), ("CT02", False)]
