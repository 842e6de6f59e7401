"""The Epic option of the Classic mode (C-EPIC, C-OPT-3): to level 20, with the epic powers of
races, classes and the human from level 10.  Card ids as in test_classic_rules.py; the epic powers
are those of the default race and class cards (mq/data/classic/door.toml)."""
from __future__ import annotations

import pytest
from classic_table import CARDS, act, hand, in_play, kinds, on_top, playing, set_player
from test_classic_rules import resolve

import mq.rules as R
from mq.classic import character as ch
from mq.classic import combat as cb
from mq.classic.state import Phase
from mq.cli import main
from mq.rules import Action, IllegalAction, legal_actions


def epic(players=3, seat=0, seed=5):
    return playing(players, seat, seed, epic=True)


def test_epic_plays_to_level_20_and_protects_only_it_C_EPIC_1_C_WIN_3_C_OPT_3():
    """C-EPIC-1, C-WIN-3, C-OPT-3, Q-OPT-5: Epic is a Classic table option (refused for Quest); the
    winning level is 20; levels 10-19 by any normal means."""
    with pytest.raises(IllegalAction):
        R.make_params(3, epic=True)
    s = hand(set_player(epic(), 0, level=9), 0, "CT64", "CT65")
    assert s.params.win_level == 20 and R.make_params(3, mode="classic").win_level == 10
    s, _ = act(s, 0, "play", "CT64")
    assert s.players[0].level == 10 and not R.is_over(s)
    s = set_player(s, 0, level=19)
    assert Action(0, "play", ("CT65",)) not in legal_actions(s, 0)
    s = on_top(s, "CD01")
    s, _ = act(s, 0, "kick")
    s, ev = resolve(s)
    assert R.winners(s) == (0,) and s.players[0].level == 20


def test_epic_powers_from_level_10_only_C_EPIC_2_C_EPIC_4():
    """C-EPIC-2, 4: an epic dwarf has no hand limit; below 10 the power is gone."""
    s = in_play(set_player(epic(), 0, level=10), 0, "CD66")
    assert ch.hand_limit(s.players[0], CARDS, s.params) > 100
    assert ch.hand_limit(s.players[0].replace(level=9), CARDS, s.params) == 6
    base = in_play(set_player(playing(), 0, level=10), 0, "CD66")
    assert ch.hand_limit(base.players[0], CARDS, base.params) == 6  # without Epic, none
    assert [e.name for e in ch.epic_powers(s.players[0].replace(races=()), CARDS, s.params)] == ["pet"]


def test_epic_halfling_doubles_two_items_C_EPIC_5():
    """C-EPIC-5: an epic halfling doubles two items a turn."""
    s = in_play(set_player(epic(), 0, level=10), 0, "CD69")
    s = hand(s.replace(turn=s.turn.replace(phase=Phase.END)), 0, "CT05", "CT07")
    s, ev = act(s, 0, "buy", "CT05", "CT07")
    assert ev[-2].gold == 2000 and s.players[0].level == 12


def test_epic_warrior_grip_and_two_big_items_C_EPIC_13_C_EPIC_15():
    """C-EPIC-13, 15, C-ITEM-4: a two-hander takes one hand; two big items; below 10 one is given
    up, the player's choice (sold at once on their turn outside a combat)."""
    s = in_play(set_player(epic(), 0, level=10), 0, "CD72")
    s = hand(s, 0, "CT31", "CT33", "CT48")  # two big two-handers, a big item without slot
    s, _ = act(s, 0, "play", "CT31")
    s, _ = act(s, 0, "play", "CT33")
    assert all(it.in_use for it in s.players[0].items)
    assert Action(0, "play", ("CT48",)) not in legal_actions(s, 0)
    s = hand(s, 1, "CD48")
    s, _ = act(s, 1, "curse", "CD48", 0)
    assert s.players[0].level == 9 and s.pending.kind == "big" and s.pending.seat == 0
    s, ev = act(s, 0, "choose", "CT33")
    assert [it.card for it in s.players[0].items] == ["CT31"] and "sell" in kinds(ev)


def test_losing_the_grip_frees_the_hands_C_EPIC_13_C_ITEM_2():
    """C-EPIC-13, C-ITEM-2: an epic warrior with a big two-hander and a one-hander in use, both in one
    hand each, loses the grip below level 10: the two-hander needs both hands again, so the weaker
    item goes out of use (three hands in use before this rule)."""
    s = in_play(set_player(epic(), 0, level=10), 0, "CD72")
    s = hand(s, 0, "CT31", "CT16")  # a big two-hander (+4), a one-hander (+2)
    s, _ = act(s, 0, "play", "CT31")
    s, _ = act(s, 0, "play", "CT16")
    assert all(it.in_use for it in s.players[0].items)
    s = hand(s, 1, "CD48")
    s, ev = act(s, 1, "curse", "CD48", 0)
    assert s.players[0].level == 9
    assert [(it.card, it.in_use) for it in s.players[0].items] == [("CT31", True), ("CT16", False)]
    assert ("equip", 0, "CT16", False) in [tuple(e) for e in ev if e.kind == "equip"]


def test_epic_elf_arrows_in_others_combats_C_EPIC_3():
    """C-EPIC-3: two arrows a combat, a card each, -2 to the monsters or a munchkin."""
    s = in_play(set_player(on_top(epic(), "CD20"), 1, level=10), 1, "CD63")
    s = hand(s, 1, "CT49", "CT50", "CT51")
    s, _ = act(s, 0, "kick")
    s, _ = act(s, 0, "roll")
    before = cb.strengths(s, CARDS)
    s, _ = act(s, 1, "power", "arrows", "CT50", "monsters")  # any card of the hand may pay
    s, _ = act(s, 1, "power", "arrows", "CT49", 0)
    assert cb.strengths(s, CARDS) == (before[0] - 2, before[1] - 2)
    assert not any(a.kind == "power" and a.args[0] == "arrows" for a in legal_actions(s, 1))  # two a combat


def test_epic_cleric_prayer_and_thief_pickpocket_C_EPIC_11_C_EPIC_12():
    """C-EPIC-11, 12: two cards for a Treasure; once a turn a random card of another's hand."""
    s = in_play(set_player(epic(), 0, level=10), 0, "CD81")
    s = hand(s, 0, "CT49", "CT50", "CT51")
    assert {a.args[1:] for a in legal_actions(s, 0) if a.args[:1] == ("prayer",)} == {
        ("CT49", "CT50"), ("CT49", "CT51"), ("CT50", "CT51"), ("CT49", "CD81"), ("CT50", "CD81"),
        ("CT51", "CD81")}  # two cards of the player's choice, hand and/or play (C-CHAR-3, C-EPIC-11)
    s, _ = act(s, 0, "power", "prayer", "CT49", "CT51")
    assert s.pending.kind == "salvage"  # a face-down draw: the cleric may salvage instead (C-CHAR-5)
    s, ev = act(s, 0, "choose", "draw")
    assert len(s.players[0].hand) == 2 and "CT50" in s.players[0].hand and [e.kind for e in ev].count("draw") == 1
    t = in_play(set_player(epic(), 0, level=10), 0, "CD78")
    t = hand(hand(t, 0, "CT49"), 1, "CT50", "CT51")
    t, ev = act(t, 0, "power", "pickpocket", "CT49", 1)
    assert len(t.players[0].hand) == 1 and len(t.players[1].hand) == 1 and t.turn.picked
    assert not any(a.args[:1] == ("pickpocket",) for a in legal_actions(t, 0))  # once a turn


def test_epic_wizard_dodges_curses_C_EPIC_9():
    """C-EPIC-9: a card and a run-away roll of 5+ cancel a curse on an epic wizard."""
    outcomes = set()
    for seed in range(16):
        s = in_play(set_player(epic(seed=seed), 1, level=10), 1, "CD75")
        s = hand(hand(s.replace(rng_seed=seed), 0, "CD48"), 1, "CT49")
        s, _ = act(s, 0, "curse", "CD48", 1)
        assert R.actors(s) == (1,)
        s, ev = act(s, 1, "power", "dodge", "CT49")
        dodged = "curse_cancelled" in kinds(ev)
        assert s.players[1].level == (10 if dodged else 9)
        outcomes.add(dodged)
    assert outcomes == {True, False}


def test_epic_sim_finishes_with_a_winner_at_level_20(capsys):
    """C-EPIC-1: bot games with Epic end with a winner at level 20."""
    assert main(["sim", "--mode", "classic", "--epic", "--players", "3", "--games", "2", "--seed", "4"]) == 0
    assert "total: 2 games, 2 with a winner" in capsys.readouterr().out


def test_epic_human_pet_C_EPIC_6():
    """C-EPIC-6: an epic human takes a monster of level 5 or less entering their combat as a pet
    (alone, the combat ends without result); sacrificed later for its level as a bonus; discarded
    below level 10."""
    s = set_player(on_top(epic(), "CD07", "CD20"), 0, level=10)  # level 3; then level 8
    s, _ = act(s, 0, "kick")
    assert Action(0, "power", ("pet", 0)) in legal_actions(s, 0)
    s, ev = act(s, 0, "power", "pet", 0)
    assert s.players[0].pet == "CD07" and s.combat is None and "CD07" not in s.door.discard
    s = s.replace(turn=s.turn.replace(phase=Phase.KICK))
    s, _ = act(s, 0, "kick")
    before = cb.seat_strength(s, CARDS, 0)
    s, _ = act(s, 0, "power", "sacrifice", 0)
    assert cb.seat_strength(s, CARDS, 0) == before + 3 and s.players[0].pet == "" and "CD07" in s.door.discard
    again = set_player(on_top(epic(), "CD07"), 0, level=10)
    again, _ = act(again, 0, "kick")
    again, _ = act(again, 0, "power", "pet", 0)
    again = hand(again, 1, "CD48")
    again, _ = act(again, 1, "curse", "CD48", 0)
    assert again.players[0].level == 9 and again.players[0].pet == ""


def test_a_pet_leaves_with_no_treasure_when_the_combat_is_won_C_EPIC_6():
    """C-EPIC-6: a monster taken as a pet leaves with no level, Treasure or Bad Stuff, even when
    another monster of the combat is beaten: only that one's Treasure is drawn."""
    s = hand(set_player(on_top(epic(), "CD20"), 0, level=10), 0, "CD44", "CD07")
    s, _ = act(s, 0, "kick")  # level 8
    s, _ = act(s, 0, "wander", "CD44", "CD07")  # level 3: joins the fight
    s, _ = act(s, 0, "power", "pet", 1)
    treasure = len(s.treasure.draw)
    s, ev = resolve(s)
    drawn = [e for e in ev if e.kind == "draw" and e.deck == "treasure"]
    assert s.players[0].pet == "CD07" and s.players[0].level == 10 + CARDS.card("CD20").levels
    assert len(drawn) == CARDS.card("CD20").treasure == treasure - len(s.treasure.draw)
