"""The Classic engine (mq.classic, CLASSIC.md) rule by rule, on positions built from a real game
(tests/classic_table.py); every step is also checked against mq.classic.invariants.

Card ids of the default set used here: monsters CD01 (level 1, Bad Stuff: lose your footgear),
CD03 (level 1, friendly to elves), CD04 (level 2 undead, a cleric kills it), CD10 (level 4
undead, a cleric defeats it), CD33 (level 16, gives 2 levels), CD34 (level 17, Bad Stuff: death,
does not pursue level 4 or lower); enhancer CD40 (+10, 2 more Treasure); curses CD48 (lose a
level), CD58 (-3 in the next combat), CD60 (-1 until removed); races CD63 elf, CD66 dwarf, CD69
halfling; classes CD72 warrior, CD75 wizard, CD78 thief, CD81 cleric; Half-Breed CD84;
items CT05 (headgear +3, 600), CT02 (headgear +1, 200), CT07 (armour +2, 400), CT45 (big, +3, 500),
CT46 (big, +5, 1000); one-shots CT49 (+3), CT55 (escape), CT58 (cancel a curse), CT61 (kill up to
level 6); go up a level CT64."""
from __future__ import annotations

import pytest
from classic_table import CARDS, act, fresh, hand, in_play, kinds, on_top, playing, set_player

import mq.rules as R
from mq.classic import character as ch
from mq.classic import combat as cb
from mq.classic import windows
from mq.classic.state import ClassicParams, Phase, Stage
from mq.rules import Action, IllegalAction, legal_actions


def kick(s, seat=0):
    return act(s, seat, "kick")


def resolve(s, fighter=0):
    """The fighter resolves; every other seat passes the last-chance window (C-COMBAT-8)."""
    s, ev = act(s, fighter, "roll")
    events = list(ev)
    while s.combat is not None and s.combat.stage == Stage.WINDOW:
        s, ev = act(s, s.combat.waiting[0], "pass")
        events += ev
    return s, events


# -- C-OPT, C-SETUP -------------------------------------------------------------------------------

def test_mode_is_in_the_parameters_and_the_hash_C_OPT_1_2_7():
    """C-OPT-1, 2, 5, 6, 7, C-SRC: 2-6 players, 4 + 4 (the English rulesheet) or 2 + 2, the window
    timer and 5 answered windows, a gender each; the mode is the parameters' type, so a Classic game
    and a Quest game never share a hash."""
    p = R.make_params(3, mode="classic")
    assert isinstance(p, ClassicParams) and p.mode == "classic" and R.make_params(3).mode == "quest"
    assert p.windows == 5 and p.start_door == p.start_treasure == 4 and p.window_ms == 10_000
    for bad in (dict(players=1), dict(players=7), dict(players=3, start_cards=3)):
        with pytest.raises(IllegalAction):
            R.make_params(mode="classic", **bad)
    with pytest.raises(IllegalAction):
        R.make_params(3, mode="chess")
    assert R.state_hash(R.new_game(p, 1)) != R.state_hash(R.new_game(R.make_params(3), 1))
    assert R.state_hash(R.new_game(p, 1)) != R.state_hash(R.new_game(R.make_params(3, mode="classic", start_cards=2), 1))


def test_setup_deals_and_rolls_C_SETUP_1_2_3_4_6():
    """C-SETUP-1..4, 6: both decks shuffled, 4 Door + 4 Treasure each (2 + 2 as an option), level 1,
    human, the gender of the parameters; the first player rolled."""
    s = fresh(4)
    assert all(len(p.hand) == 8 and sum(c.startswith("CD") for c in p.hand) == 4 for p in s.players)
    assert all(p.level == 1 and not p.races and not p.classes for p in s.players)
    assert tuple(p.gender for p in s.players) == ("male", "female", "male", "female")
    assert len(s.door.draw) == 96 - 16 and len(s.treasure.draw) == 73 - 16
    assert sorted(s.order) == [0, 1, 2, 3] and s.phase == Phase.SETUP
    small = fresh(4, start_cards=2)
    assert all(len(p.hand) == 4 for p in small.players)
    assert {fresh(4, seed=k).order[0] for k in range(12)} == {0, 1, 2, 3}


def test_each_player_chooses_a_gender_or_leaves_it_to_the_seed_C_SETUP_4_C_OPT_7():
    """C-SETUP-4, C-OPT-7: each player's gender is a table option: male, female, or rolled from the
    game's seed (bots, players who leave it to chance) once everything else is set up, so the deal
    and the turn order are those of the same game with the genders chosen."""
    chosen = fresh(3, genders=("female", "male", "female"))
    rolled = fresh(3, genders=("female", "rolled", "rolled"))
    assert rolled.players[0].gender == "female" and all(p.gender in ("male", "female") for p in rolled.players)
    assert [p.hand for p in rolled.players] == [p.hand for p in chosen.players] and rolled.order == chosen.order
    assert len({tuple(p.gender for p in fresh(3, seed=k, genders=("rolled",) * 3).players) for k in range(12)}) > 1
    with pytest.raises(IllegalAction, match="male, female or rolled"):
        R.make_params(3, ("female", "robot", "male"), mode="classic")


def test_setup_plays_race_class_and_items_then_ready_C_SETUP_5():
    """C-SETUP-5: before the first turn, a race, a class and items into play; the first turn starts
    when all are ready."""
    s = fresh(2)
    s = hand(s, 0, "CD63", "CD72", "CT05")
    for c in ("CD63", "CD72", "CT05"):
        s, _ = act(s, 0, "play", c)
    p = s.players[0]
    assert p.races == ("CD63",) and p.classes == ("CD72",) and p.items[0].in_use
    s, _ = act(s, 0, "ready")
    assert R.actors(s) == (1,)
    s, ev = act(s, 1, "ready")
    assert s.phase == Phase.PLAY and "turn" in kinds(ev) and R.actors(s) == (s.order[0],)


# -- C-TURN ---------------------------------------------------------------------------------------

def test_kick_open_a_monster_is_a_combat_C_TURN_1_2_C_COMBAT_5():
    """C-TURN-1, 2, C-COMBAT-5: kicked open face-up, a monster is fought at once."""
    s = on_top(playing(), "CD01")
    s, ev = kick(s)
    assert kinds(ev) == ["kick", "monster_in"] and s.combat.fighter == 0 and R.actors(s) == (0,)


def test_nothing_met_look_for_trouble_or_loot_C_TURN_3_4():
    """C-TURN-3, 4: no monster met: play one from the hand, or loot a Door card face-down."""
    s = on_top(playing(), "CT64")  # (a Treasure card on top does not matter: the Door deck is kicked)
    s = on_top(s, "CD63")
    s = hand(s, 0, "CD01")
    s, ev = kick(s)
    assert "CD63" in s.players[0].hand and s.turn.phase == Phase.TROUBLE
    assert Action(0, "fight", ("CD01",)) in legal_actions(s, 0) and Action(0, "loot") in legal_actions(s, 0)
    looted, ev = act(s, 0, "loot")
    assert [e.public for e in ev if e.kind == "draw"] == [False] and looted.turn.phase == Phase.END
    assert Action(0, "loot") not in legal_actions(looted, 0)
    fought, _ = act(s, 0, "fight", "CD01")
    assert fought.combat is not None and fought.combat.monsters[0].card == "CD01"


def test_a_friendly_monster_counts_as_none_met_C_TURN_3():
    """C-TURN-3: a monster friendly to you does not fight you."""
    s = in_play(on_top(playing(), "CD03"), 0, "CD63")  # an elf kicks open the elf-friendly monster
    s, ev = kick(s)
    assert "friendly" in kinds(ev) and s.combat is None and "CD03" in s.players[0].hand
    assert not any(a.kind == "fight" for a in legal_actions(s, 0))


def test_only_the_active_player_acts_on_their_turn_C_TURN_7_8():
    """C-TURN-7, 8, C-COMBAT-11, C-DIGI-1: kicking, selling and items into play are the active
    player's, outside combat; anything else is refused and changes nothing."""
    s = hand(playing(), 1, "CT05")
    assert Action(1, "play", ("CT05",)) not in legal_actions(s, 1)
    with pytest.raises(IllegalAction):
        R.step(s, Action(1, "kick"))
    s = hand(on_top(s, "CD01"), 0, "CT05")
    s, _ = kick(s)
    assert Action(0, "play", ("CT05",)) not in legal_actions(s, 0)  # C-COMBAT-11: not in combat


def test_hand_limit_and_charity_to_the_lowest_C_TURN_9_C_CHARITY_1_2_3():
    """C-TURN-5, 9, C-CHARITY-1..3: over 5 cards at the end of the turn, the excess goes to the lowest-level
    other player(s), split evenly, face-down; the lowest-level giver discards instead."""
    s = playing(3)
    s = s.replace(turn=s.turn.replace(phase=Phase.END))
    s = set_player(set_player(s, 0, level=3), 2, level=2)
    cards = ("CT02", "CT07", "CT49", "CT55", "CT58", "CT61", "CT64")
    s = hand(s, 0, *cards)
    s, _ = act(s, 0, "end_turn")
    assert s.pending.kind == "charity" and s.pending.n == 2
    assert {a.args[1] for a in legal_actions(s, 0)} == {1}  # seat 1 is at level 1, the lowest
    s, ev = act(s, 0, "give", "CT02", 1)
    assert ev[0].kind == "charity"
    assert R.view_events(ev, 2)[0].card == "?" and R.view_events(ev, 1)[0].card == "CT02"  # C-CHARITY-3
    s, ev = act(s, 0, "give", "CT07", 1)
    assert s.pending is None and s.turn.seat == 1 and len(s.players[0].hand) == 5
    low = set_player(playing(3), 0, level=1).replace(turn=s.turn.replace(seat=0, phase=Phase.END))
    low = hand(low, 0, *cards)
    low, _ = act(low, 0, "end_turn")
    assert all(a.kind == "discard" for a in legal_actions(low, 0))  # C-CHARITY-2


def test_the_turn_end_window_lets_the_others_play_before_the_next_turn_C_DIGI_2():
    """C-DIGI-2 f: after charity a turn-end window opens: the others who hold a card of the moment
    (a curse here) may play it or pass; seats with nothing to play (or only gifts to make) are
    passed by the engine; the ended turn's player does nothing more of their turn; the next turn
    begins when the window closes."""
    from mq.classic import windows

    s = playing(3)
    s = s.replace(turn=s.turn.replace(phase=Phase.END))
    s = hand(s, 1, "CD48", "CD58")  # Green holds two curses; Blue holds nothing
    s, ev = act(s, 0, "end_turn")
    assert s.turn.seat == 0 and s.turn.phase == Phase.CLOSING and s.turn.waiting == (1,)
    assert "turn_ends" in kinds(ev) and windows.window(s) == (windows.TURN_END, (1,)) and R.actors(s) == (1,)
    assert [e.seat for e in ev if e.kind == "pass" and e.auto] == [2]
    assert {a.kind for a in legal_actions(s, 0)} <= {"curse", "play", "give", "discard", "power"}  # no kick, no end_turn
    assert Action(1, "pass") in legal_actions(s, 1) and Action(1, "curse", ("CD48", 0)) in legal_actions(s, 1)
    with pytest.raises(IllegalAction):
        R.apply(s, Action(0, "kick"))
    s, ev = act(s, 1, "curse", "CD48", 0)  # the curse window comes first, then the turn-end window again
    while s.curse is not None:
        s, ev = act(s, s.curse.waiting[0], "pass")
    assert s.turn.phase == Phase.CLOSING and s.turn.waiting == (1,)  # one more curse to play: still asked
    s, ev = act(s, 1, "pass")
    assert s.turn.seat == 1 and s.turn.number == 2 and s.turn.phase == Phase.KICK and windows.window(s) is None
    # an item in play to give away is no reason to wait for anyone
    gifts = s.replace(turn=s.turn.replace(phase=Phase.END))
    gifts = in_play(gifts, 0, "CT02")
    gifts, _ = act(gifts, 1, "end_turn")
    assert gifts.turn.seat == 2 and gifts.turn.phase == Phase.KICK


def test_a_dwarf_holds_six_C_TURN_9_C_CHAR_4():
    """C-TURN-9, C-CHAR-4: a dwarf's hand limit is 6."""
    s = in_play(playing(3), 0, "CD66")
    s = hand(s.replace(turn=s.turn.replace(phase=Phase.END)), 0, "CT02", "CT07", "CT49", "CT55", "CT58", "CT61")
    s, ev = act(s, 0, "end_turn")
    assert s.pending is None and s.turn.seat == 1


# -- C-COMBAT, C-LAW, C-WIN -----------------------------------------------------------------------

def test_strength_ties_and_warriors_C_COMBAT_2_3_4():
    """C-COMBAT-1..4, C-ITEM-1: level + items in use against the monsters' levels; items set aside
    give nothing; a tie loses, unless a warrior is on the munchkin side."""
    s = on_top(playing(), "CD04")  # level 2
    s = set_player(s, 0, level=2)
    s, _ = kick(s)
    assert cb.strengths(s, CARDS) == (2, 2) and not cb.munchkin_wins(s, CARDS)
    warrior = in_play(s, 0, "CD72")
    assert cb.munchkin_wins(warrior, CARDS)
    helmet = in_play(s, 0, "CT05")
    assert cb.strengths(helmet, CARDS) == (5, 2)
    aside = in_play(s, 0, "CT05", in_use=False)
    assert cb.strengths(aside, CARDS) == (2, 2)  # C-ITEM-1: only items in use count


def test_monster_modifiers_and_the_level_floor_C_COMBAT_3_C_LAW_1():
    """C-COMBAT-3, C-LAW-1: a monster's modifier against a fighter counts once; its level never falls
    below 1, while a side's strength may."""
    s = on_top(playing(), "CD08")  # level 3, -2 against females
    s = set_player(s, 0, gender="female")
    s, _ = kick(s)
    assert cb.monster_level(s, CARDS, 0) == 1
    s = s.replace(combat=s.combat.replace(monster_bonus=0, extra=((0, -5),)))
    assert cb.strengths(s, CARDS)[0] == -4


def test_a_win_gives_levels_and_treasure_face_down_C_COMBAT_9_C_TURN_4():
    """C-COMBAT-9 (a, c, d), C-TURN-4, C-CARD-2, C-LAW-4: the monster's levels, its Treasure drawn
    face-down when alone once the combat is over, the cards discarded, no loot the room after it."""
    s = set_player(on_top(playing(), "CD01"), 0, level=3)
    s, _ = kick(s)
    s, ev = resolve(s)
    assert s.players[0].level == 4 and s.combat is None
    draws = [e for e in ev if e.kind == "draw"]
    assert len(draws) == 1 and not draws[0].public and "CD01" in s.door.discard
    assert s.turn.phase == Phase.END and Action(0, "loot") not in legal_actions(s, 0)


def test_the_winning_level_only_by_a_kill_C_LAW_2_C_WIN_1_C_CARD_3():
    """C-LAW-2, C-WIN-1, C-CARD-3: a go-up-a-level card stops at 9; a kill gives the 10th and wins."""
    s = hand(set_player(on_top(playing(), "CD01"), 0, level=9), 0, "CT64")
    assert Action(0, "play", ("CT64",)) not in legal_actions(s, 0)
    s, _ = kick(s)
    s, ev = resolve(s)
    assert s.players[0].level == 10 and R.is_over(s) and R.winners(s) == (0,) and "game_won" in kinds(ev)
    assert R.actors(s) == ()


def test_go_up_a_level_at_any_time_C_CARD_3_C_CHAR_1():
    """C-CARD-3, C-CHAR-1, C-TURN-6: on yourself, at any time, also in another's combat."""
    s = hand(on_top(playing(), "CD33"), 1, "CT64")
    s, _ = kick(s)
    s, _ = act(s, 0, "roll")
    assert Action(1, "play", ("CT64",)) in legal_actions(s, 1)
    s, ev = act(s, 1, "play", "CT64")
    assert s.players[1].level == 2 and "CT64" in s.treasure.discard


def test_last_chance_windows_and_answers_C_COMBAT_8_C_DIGI_2():
    """C-COMBAT-8, C-DIGI-2: the fighter resolves; the others play or pass; after a card the fighter
    answers and resolves again; after the 5th window no answer."""
    s = on_top(set_player(playing(3), 0, level=5), "CD01")
    s = hand(s, 1, "CT49", "CT50", "CT51", "CT52", "CT53", "CT54")
    s, _ = kick(s)
    s, ev = act(s, 0, "roll")
    assert s.combat.stage == Stage.WINDOW and s.combat.waiting == (1,)  # seat 2 holds nothing: auto-passed
    assert [e.kind for e in ev].count("pass") == 1 and ev[-1].auto
    for number, c in enumerate(("CT49", "CT50", "CT51", "CT52", "CT53"), 1):
        s, _ = act(s, 1, "use", c, "monsters")
        s, ev = act(s, 1, "pass")
        assert "answer" in kinds(ev) and s.combat.stage == Stage.PREPARE
        s, ev = act(s, 0, "roll")
        assert ev[0].number == number + 1
    assert ev[0].final
    s, ev = act(s, 1, "use", "CT54", "monsters")  # the last card: nothing left, seat 1 is auto-passed
    assert "answer" not in kinds(ev) and "result" in kinds(ev)  # the 6th window closed: final


def test_one_shots_and_enhancers_either_side_C_CARD_4_5_C_COMBAT_6():
    """C-CARD-4, 5, C-COMBAT-6, C-HELP-6: interference: a one-shot for either side; an enhancer changes
    the monster's level and its Treasure (a Mate shares it)."""
    s = set_player(on_top(playing(3), "CD01"), 0, level=4)
    s = hand(s, 1, "CD40", "CD47")
    s, _ = kick(s)
    s, _ = act(s, 0, "roll")
    s, _ = act(s, 1, "enhance", "CD40", 0)
    assert cb.monster_level(s, CARDS, 0) == 11 and cb.monster_treasure(s, CARDS, 0) == 3
    s, _ = act(s, 1, "mate", "CD47", 0)
    assert cb.monster_level(s, CARDS, 1) == 11 and cb.strengths(s, CARDS)[1] == 22  # C-COMBAT-5, 7


def test_a_card_takes_a_monster_out_C_COMBAT_7():
    """C-COMBAT-7, C-LAW-3: a kill card: levels and Treasure; a cleric defeats undead by their text:
    Treasure and no level (only kills give levels)."""
    s = set_player(on_top(playing(), "CD01"), 0, level=1)
    s = hand(s, 0, "CT61")
    s, _ = kick(s)
    s, ev = act(s, 0, "use", "CT61", 0)
    assert "monster_out" in kinds(ev) and s.combat is None and s.players[0].level == 2  # all out: won
    cleric = in_play(on_top(playing(), "CD10"), 0, "CD81")
    cleric, ev = kick(cleric)
    assert [e.how for e in ev if e.kind == "monster_out"] == ["defeated"]
    assert cleric.players[0].level == 1 and len(cleric.players[0].hand) == 2  # Treasure, no level


def test_help_for_a_share_C_HELP_1_2_3_5():
    """C-HELP-1..3, 5, C-DIGI-3: the fighter asks one player after another: Blue refuses, Green
    offers; an offer names the Treasure share; the accepted helper's strength counts; the Treasure
    is drawn face-up, the helper's share first; an elf helper goes up a level per monster killed,
    the helper otherwise none."""
    s = set_player(on_top(playing(3), "CD14"), 0, level=4)  # level 5, 2 Treasure, +3 against dwarves
    s = in_play(set_player(s, 1, level=3), 1, "CD63")
    s, _ = kick(s)
    assert not cb.munchkin_wins(s, CARDS)
    assert [a.args for a in legal_actions(s, 0) if a.kind == "ask"] == [(1,), (2,)]
    s, ev = act(s, 0, "ask", 2)
    assert s.combat.stage == Stage.HELP and s.combat.waiting == (2,) and R.actors(s) == (2,)
    assert [(e.seat, e.to) for e in ev if e.kind == "asks_help"] == [(0, 2)]
    assert Action(1, "offer", (1, "helper", "")) in legal_actions(s, 1)  # Green may still offer unasked
    s, _ = act(s, 2, "pass")  # Blue refuses
    assert s.combat.stage == Stage.PREPARE and [a.args for a in legal_actions(s, 0) if a.kind == "ask"] == [(1,)]
    s, _ = act(s, 0, "ask", 1)
    s, _ = act(s, 1, "offer", 1, "helper", "")
    assert s.combat.stage == Stage.PREPARE and not any(a.kind == "ask" for a in legal_actions(s, 0))
    assert Action(0, "accept", ("deal", 1)) in legal_actions(s, 0)
    s, ev = act(s, 0, "accept", "deal", 1)
    assert cb.munchkin_wins(s, CARDS)
    s, ev = resolve(s)
    laid = next(e for e in ev if e.kind == "laid_out")
    assert len(laid.cards) == 2 and (laid.helper, laid.share) == (1, 1) and not [e for e in ev if e.kind == "draw"]
    assert (s.pending.kind, s.pending.seat) == ("pick", 1)  # C-HELP-3: the helper picks first, face-up
    s, ev = act(s, 1, "choose", laid.cards[1])
    assert [(e.seat, e.card) for e in ev if e.kind == "pick"] == [(1, laid.cards[1]), (0, laid.cards[0])]
    assert s.pending is None and s.players[1].hand == (laid.cards[1],) and s.players[0].hand[-1] == laid.cards[0]
    assert s.players[0].level == 5 and s.players[1].level == 4


def test_a_dwarf_helper_adds_the_monster_bonus_once_C_COMBAT_3_C_HELP_2():
    """C-COMBAT-3, C-HELP-2: monster abilities act on the helper too."""
    s = set_player(on_top(playing(3), "CD14"), 0, level=4)
    s = in_play(s, 1, "CD66")
    s, _ = kick(s)
    before = cb.monster_level(s, CARDS, 0)
    helped = s.replace(combat=s.combat.replace(helper=1))
    assert cb.monster_level(helped, CARDS, 0) == before + 3


# -- C-RUN, C-DEATH -------------------------------------------------------------------------------

def test_running_away_and_bad_stuff_C_RUN_1_2_4_6_C_ITEM_8():
    """C-RUN-1, 2, 4, 6, C-COMBAT-10: a loss: a d6 per monster, 5+ escapes, the elf's +1; caught, its
    Bad Stuff (the item in use in that slot); then everything is discarded, with no Treasure."""
    outcomes = set()
    for seed in range(12):
        s = set_player(on_top(playing(seed=seed), "CD01"), 0, level=1)
        s = in_play(s, 0, "CT13", "CD63")  # footgear, and an elf
        s = s.replace(rng_seed=seed)
        s, _ = kick(s)
        s = s.replace(combat=s.combat.replace(monster_bonus=5))
        s, ev = resolve(s)
        assert s.combat.stage == Stage.RUN and R.actors(s) == (0,)
        s, ev = act(s, 0, "escape", 0)
        roll = next(e for e in ev if e.kind == "escape")
        assert roll.needed == 4 and roll.escaped == (roll.roll >= 4)
        assert (not any(it.card == "CT13" for it in s.players[0].items)) == (not roll.escaped)
        assert s.combat is None and "CD01" in s.door.discard
        outcomes.add(roll.escaped)
    assert outcomes == {True, False}


def test_no_pursuit_and_automatic_escape_C_RUN_3():
    """C-RUN-3: a monster that does not pursue low levels; an escape one-shot replaces the rolls."""
    s = on_top(playing(), "CD34")  # level 17, does not pursue level 4 or lower
    s, _ = kick(s)
    s, ev = resolve(s)
    assert [e.roll for e in ev if e.kind == "escape"] == [0] and s.combat is None
    s = hand(set_player(on_top(playing(), "CD34"), 0, level=6), 0, "CT55")
    s, _ = kick(s)
    s, _ = resolve(s)
    assert Action(0, "use", ("CT55",)) in legal_actions(s, 0)
    s, ev = act(s, 0, "use", "CT55")
    assert s.combat is None and s.players[0].level == 6 and not s.players[0].dead


def test_the_run_away_window_for_the_others_C_RUN_3_C_DIGI_2():
    """C-RUN-3, C-DIGI-2 (b): before the runner's first roll the other live players may play cards
    that affect running on the runner, or pass; the runner rolls only once the window has closed; a
    card played opens it again for all; seats with no such card pass at once (logged); the window
    is timed as every other (mq.classic.windows)."""
    s = set_player(on_top(playing(3), "CD01"), 0, level=1)
    s = hand(hand(s, 1, "CT57"), 2, "CT55")  # +1 to run away; an automatic escape
    s, _ = kick(s)
    s = s.replace(combat=s.combat.replace(monster_bonus=5))
    s, ev = resolve(s)
    assert s.combat.stage == Stage.RUN and s.combat.waiting == (1, 2) and R.actors(s) == (1, 2)
    assert windows.window(s) == (windows.RUN, (1, 2))
    assert Action(0, "escape", (0,)) not in legal_actions(s, 0)  # not before the window closes
    assert Action(1, "use", ("CT57",)) in legal_actions(s, 1) and Action(1, "pass") in legal_actions(s, 1)
    need = cb.needed(s, CARDS, 0, 0)
    s, ev = act(s, 1, "use", "CT57")
    assert cb.needed(s, CARDS, 0, 0) == need - 1 and s.combat.waiting == (2,)  # seat 1 holds nothing more
    assert ("pass", 1, "run", True) in [tuple(e) for e in ev]
    s, _ = act(s, 2, "pass")
    assert s.combat.waiting == () and Action(0, "escape", (0,)) in legal_actions(s, 0)
    s2 = hand(set_player(on_top(playing(3), "CD01"), 0, level=1), 2, "CT55")
    s2, _ = kick(s2)
    s2, _ = resolve(s2.replace(combat=s2.combat.replace(monster_bonus=5)))
    assert s2.combat.waiting == (2,)  # seat 1 has no card for the run: it passed at once
    s2, ev = act(s2, 2, "use", "CT55")  # an escape on the runner replaces the rolls
    assert s2.combat is None and ("played", 2, "CT55", "oneshot", "run0") in [tuple(e) for e in ev]


def test_death_body_looting_and_respawn_C_DEATH_1_2_3_4_C_RUN_5_C_TURN_10():
    """C-DEATH-1..4, C-RUN-5, C-TURN-10: Bad Stuff kills; level, race and class are kept; the hand and
    items are looted, highest level first, one card each; the dead player's turn ends; at their next
    turn they draw 2 + 2."""
    for seed in range(40):
        s = set_player(on_top(playing(3, seed=seed), "CD34"), 0, level=6)
        s = in_play(hand(s.replace(rng_seed=seed), 0, "CT49", "CT50"), 0, "CT07", "CD72")
        s = set_player(set_player(s, 1, level=2), 2, level=5)
        s, _ = kick(s)
        s, _ = resolve(s)
        s, ev = act(s, 0, "escape", 0)
        if "death" in kinds(ev):
            break
    else:
        pytest.fail("no seed of 40 failed a roll of 5 or more")
    p = s.players[0]
    assert p.dead and p.level == 6 and p.classes == ("CD72",) and not p.hand and not p.items
    assert s.pending.kind == "loot" and s.pending.seat == 2  # level 5 before level 2
    s, _ = act(s, 2, "choose", "CT07")
    assert s.pending.seat == 1
    s, ev = act(s, 1, "choose", "CT49")
    assert s.turn.seat == 1 and "CT50" in s.treasure.discard  # the rest discarded; turn 0 skipped
    assert "CT07" in s.players[2].hand
    s = s.replace(turn=s.turn.replace(phase=Phase.END))
    s, _ = act(s, 1, "end_turn")
    s = s.replace(turn=s.turn.replace(phase=Phase.END))
    s, ev = act(s, 2, "end_turn")
    assert "respawn" in kinds(ev) and len(s.players[0].hand) == 4 and not s.players[0].dead


# -- C-CARD-8, C-CHAR, C-ITEM ---------------------------------------------------------------------

def test_curses_immediate_next_combat_lasting_and_cancelled_C_CARD_8():
    """C-CARD-8: a curse on anyone at any time; a curse window lets a card cancel it; immediate acts
    at once, next-combat waits for the victim's next combat, lasting stays in play."""
    s = hand(set_player(playing(3), 1, level=3), 0, "CD48", "CD58", "CD60")
    s, ev = act(s, 0, "curse", "CD48", 1)
    assert s.players[1].level == 2 and "CD48" in s.door.discard
    s, _ = act(s, 0, "curse", "CD58", 1)
    assert s.players[1].next_combat == ("CD58",)
    s, _ = act(s, 0, "curse", "CD60", 1)
    assert s.players[1].curses == ("CD60",)
    cancel = hand(hand(playing(3), 0, "CD48"), 1, "CT58")
    cancel, _ = act(cancel, 0, "curse", "CD48", 1)
    assert cancel.curse is not None and R.actors(cancel) == (1,)
    cancel, ev = act(cancel, 1, "use", "CT58")
    assert "curse_cancelled" in kinds(ev) and cancel.players[1].level == 1 and cancel.curse is None


def test_the_curse_window_asks_every_other_live_player_never_the_caster_C_DIGI_2_C_CARD_8():
    """C-DIGI-2 d: "every other live player": the caster holding a card that cancels curses is not
    asked about its own curse, nor a dead munchkin; a curse kicked open asks its victim too."""
    s = set_player(hand(hand(playing(3), 0, "CD48", "CT58"), 2, "CT59"), 1, level=3)
    cast, _ = act(set_player(s, 2, dead=True), 0, "curse", "CD48", 1)
    assert cast.curse is None and cast.players[1].level == 2 and "CT58" in cast.players[0].hand
    alive, _ = act(s, 0, "curse", "CD48", 1)
    assert alive.curse.waiting == (2,) and R.actors(alive) == (2,)
    kicked = hand(on_top(playing(3), "CD48"), 0, "CT58")
    kicked, _ = kick(kicked)
    assert kicked.curse is not None and kicked.curse.by == -1 and kicked.curse.waiting == (0,)


def test_a_kicked_curse_hits_the_drawer_C_CARD_8_C_TURN_2():
    """C-CARD-8, C-TURN-2: a curse kicked open hits the one who drew it."""
    s = set_player(on_top(playing(), "CD48"), 0, level=2)
    s, ev = kick(s)
    assert s.players[0].level == 1 and s.turn.phase == Phase.TROUBLE


def test_next_combat_curse_acts_in_that_combat_C_CARD_8():
    """C-CARD-8, C-CARD-7: played before, the curse acts when its victim's next combat begins."""
    s = set_player(on_top(playing(), "CD01"), 0, level=3, next_combat=())
    s = hand(s, 1, "CD58")
    s, _ = act(s, 1, "curse", "CD58", 0)
    s, ev = kick(s)
    assert cb.strengths(s, CARDS)[0] == 0 and s.players[0].next_combat == ()


def test_races_classes_and_half_breed_C_CHAR_2_7():
    """C-CHAR-2, 7: one race card; a new one replaces it; with a Half-Breed two, and the halfling's
    drawback is dropped while half human."""
    s = hand(playing(), 0, "CD69", "CD63", "CD84", "CD66")
    s, _ = act(s, 0, "play", "CD69")
    s, _ = act(s, 0, "play", "CD63")
    assert s.players[0].races == ("CD63",) and "CD69" in s.door.discard
    s, _ = act(s, 0, "play", "CD84")
    s, _ = act(s, 0, "play", "CD66")
    assert s.players[0].races == ("CD63", "CD66")
    s, _ = act(s, 0, "discard", "CD63")
    s, _ = act(s, 0, "discard", "CD66")
    assert s.players[0].halfbreed == "" and "CD84" in s.door.discard


def test_slots_big_items_and_in_use_C_ITEM_2_4():
    """C-ITEM-2, 4: one headgear in use (a second stays in play, not in use); one big item, a dwarf
    any number."""
    s = hand(playing(), 0, "CT05", "CT02", "CT45", "CT46")
    s, _ = act(s, 0, "play", "CT05")
    s, _ = act(s, 0, "play", "CT02")
    assert [it.in_use for it in s.players[0].items] == [True, False]
    assert Action(0, "equip", ("CT02",)) not in legal_actions(s, 0)
    s, _ = act(s, 0, "play", "CT45")
    assert Action(0, "play", ("CT46",)) not in legal_actions(s, 0)
    dwarf = in_play(s, 0, "CD66")
    assert Action(0, "play", ("CT46",)) in legal_actions(dwarf, 0)


def test_selling_for_levels_C_ITEM_7_C_CHAR_4():
    """C-ITEM-7, C-CHAR-4: 1000 gold a level, no change, never the winning level; a halfling doubles
    one item a turn."""
    s = hand(playing(), 0, "CT05", "CT07", "CT46")
    s = s.replace(turn=s.turn.replace(phase=Phase.END))
    assert not R.is_legal(s, Action(0, "buy", ("CT05",)))
    s2, ev = act(s, 0, "buy", "CT05", "CT07")
    assert s2.players[0].level == 2 and ev[-1].kind == "level" and "CT05" in s2.treasure.discard
    s3, _ = act(s, 0, "buy", "CT05", "CT07", "CT46")
    assert s3.players[0].level == 3  # 2000 gold: 2 levels
    nine = set_player(s, 0, level=9)
    assert not R.is_legal(nine, Action(0, "buy", ("CT46",)))
    halfling = in_play(s, 0, "CD69")
    h, ev = act(halfling, 0, "buy", "CT05")
    assert h.players[0].level == 2  # 600 doubled


def test_thief_theft_and_backstab_C_CHAR_5():
    """C-CHAR-5, C-ITEM-9: a thief's theft (4+ takes a small item, else a level lost) and backstab (-2)."""
    results = set()
    for seed in range(10):
        s = in_play(set_player(playing(seed=seed), 0, level=3), 0, "CD78")
        s = in_play(hand(s.replace(rng_seed=seed), 0, "CT49"), 1, "CT05")
        s, ev = act(s, 0, "power", "theft", "CT49", 1, "CT05")
        t = next(e for e in ev if e.kind == "theft")
        assert (any(it.card == "CT05" for it in s.players[0].items)) == t.stolen
        assert s.players[0].level == (3 if t.stolen else 2)
        results.add(t.stolen)
    assert results == {True, False}
    s = in_play(hand(on_top(playing(3), "CD01"), 1, "CT49"), 1, "CD78")
    s, _ = kick(s)
    s, _ = act(s, 0, "roll")
    s, _ = act(s, 1, "power", "backstab", "CT49", 0)
    assert cb.seat_strength(s, CARDS, 0) == -1


def test_views_hide_hands_and_decks_C_DIGI_4():
    """C-DIGI-4: hands and deck order are hidden; hand sizes and cards in play are public."""
    s = fresh(3)
    v = R.view(s, 1)
    assert v.players[1].hand == s.players[1].hand and set(v.players[0].hand) == {"?"}
    assert len(v.players[0].hand) == len(s.players[0].hand) and set(v.door.draw) == {"?"} and v.rng_seed == 0



def test_help_without_a_deal_gets_no_treasure_and_the_helper_runs_too_C_HELP_4_C_HELP_8():
    """C-HELP-4, 8: a helper for nothing gets no Treasure; a losing side runs, the helper separately."""
    s = set_player(on_top(playing(3), "CD01"), 0, level=2)
    s, _ = act(s, 0, "kick")
    s, _ = act(s, 0, "ask", 1)
    s, _ = act(s, 1, "offer", 0, "helper", "")
    s, _ = act(s, 0, "accept", "deal", 1)
    won, ev = resolve(s)
    assert [e.seat for e in ev if e.kind == "pick"] == [0] and won.pending is None  # (nothing to pick)
    lost = s.replace(combat=s.combat.replace(monster_bonus=20))
    lost, ev = resolve(lost)
    assert lost.combat.runners == (0, 1)
    lost, ev = act(lost, 0, "escape", 0)
    assert R.actors(lost) == (1,) and lost.combat.runners == (1,)


def test_elf_helper_and_fighter_win_together_C_WIN_2_C_HELP_5():
    """C-WIN-2, C-HELP-5: the main fighter and an elf helper reaching level 10 in one kill both win."""
    s = set_player(set_player(on_top(playing(3), "CD01"), 0, level=9), 1, level=9)
    s = in_play(s, 1, "CD63")
    s, _ = act(s, 0, "kick")
    s, _ = act(s, 0, "ask", 1)
    s, _ = act(s, 1, "offer", 0, "helper", "")
    s, _ = act(s, 0, "accept", "deal", 1)
    s, _ = resolve(s)
    assert R.winners(s) == (0, 1)


def test_gender_curse_and_restricted_items_C_CHAR_6_C_ITEM_3():
    """C-CHAR-6, C-ITEM-3: gender matters through cards; a restricted item gives its bonus only while
    its holder qualifies (CT03: headgear +2 for females only)."""
    s = in_play(set_player(on_top(playing(), "CD01"), 0, gender="female"), 0, "CT03")
    s = hand(s, 1, "CD57")
    s, _ = act(s, 0, "kick")
    assert cb.seat_strength(s, CARDS, 0) == 3
    s, ev = act(s, 1, "curse", "CD57", 0)
    assert s.players[0].gender == "male" and cb.seat_strength(s, CARDS, 0) == 1


def test_cheat_frees_an_item_C_ITEM_5():
    """C-ITEM-5: a Cheat! card removes the item's restrictions and its slot limit."""
    s = in_play(playing(), 0, "CT03", "CT05")  # a female-only headgear on a male, and a second headgear
    s = hand(s, 0, "CD88")
    assert [it.in_use for it in s.players[0].items] == [True, True]
    s = s.replace(players=(s.players[0].replace(items=tuple(it.replace(in_use=it.card == "CT05")
                                                                for it in s.players[0].items)),) + s.players[1:])
    s, _ = act(s, 0, "cheat", "CD88", "CT03")
    p = s.players[0]
    assert all(it.in_use for it in p.items) and ch.qualifies(p, CARDS, p.items[0])


def test_losing_an_item_is_the_victim_s_choice_C_ITEM_8_C_DIGI_5():
    """C-ITEM-8, C-DIGI-5: "lose an item" asks the victim which one (any item in play)."""
    s = in_play(hand(playing(3), 1, "CD56"), 0, "CT05", "CT07")
    s, _ = act(s, 1, "curse", "CD56", 0)
    assert s.pending.kind == "lose_item" and R.actors(s) == (0,)
    assert {a.args[0] for a in legal_actions(s, 0)} == {"CT05", "CT07"}
    s, ev = act(s, 0, "choose", "CT07")
    assert [it.card for it in s.players[0].items] == ["CT05"] and s.pending is None


def test_super_munchkin_and_a_class_in_your_own_combat_C_CHAR_8_C_CARD_6():
    """C-CHAR-8, C-CARD-6: a class card in your own combat; with Super Munchkin two classes."""
    s = hand(on_top(playing(), "CD04"), 0, "CD72", "CD86", "CD81")
    s, _ = act(s, 0, "kick")
    s, _ = act(s, 0, "play", "CD72")
    s, _ = act(s, 0, "play", "CD86")
    s, ev = act(s, 0, "play", "CD81")  # a cleric now: the undead is killed by its text
    assert s.players[0].classes == ("CD72", "CD81") and s.players[0].supermunchkin == "CD86"
    assert s.combat is None and s.players[0].level == 2


def test_hand_cards_do_nothing_and_powers_discard_any_card_C_CARD_1_C_CHAR_3():
    """C-CARD-1, C-CHAR-3: an item in hand adds nothing; a power's discard may be any card of the
    hand or in play, the class card included, the player's choice: each is listed."""
    s = hand(in_play(on_top(playing(), "CD20"), 0, "CD72"), 0, "CT46", "CT49")
    s = in_play(s, 0, "CT16")  # a one-hander in use (+2)
    s, _ = act(s, 0, "kick")
    assert cb.seat_strength(s, CARDS, 0) == 3
    assert [a.args for a in legal_actions(s, 0) if a.args[:1] == ("discard_bonus",)] == [
        ("discard_bonus", "CT46"), ("discard_bonus", "CT49"), ("discard_bonus", "CT16"), ("discard_bonus", "CD72")]
    s, _ = act(s, 0, "power", "discard_bonus", "CT49")  # not the first card of the hand
    assert cb.seat_strength(s, CARDS, 0) == 4 and s.players[0].hand == ("CT46",)
    s, ev = act(s, 0, "power", "discard_bonus", "CD72")  # the warrior card itself pays (C-CHAR-3)
    assert s.players[0].classes == () and ("discard", 0, "CD72", "power") in [tuple(e) for e in ev]
    assert not any(a.args[:1] == ("discard_bonus",) for a in legal_actions(s, 0))  # a warrior no more
    assert cb.seat_strength(s, CARDS, 0) == 5 and "CD72" in s.door.discard


def test_the_default_set_has_every_kind_C_COMP_2_C_COMP_3_C_COMP_5():
    """C-COMP-2, 3, 5: Door and Treasure kinds; items with bonus, slot, size, value, restrictions."""
    door = {c.kind for c in CARDS.door}
    assert door == {"monster", "enhancer", "wandering", "mate", "curse", "race", "class", "halfbreed",
                    "supermunchkin", "cheat", "special"}
    assert {c.kind for c in CARDS.treasure} == {"item", "oneshot", "level", "special"}
    items = [c for c in CARDS.treasure if c.kind == "item"]
    assert {c.slot for c in items} == {"head", "armour", "feet", "hands", "none"} and any(c.big for c in items)
    assert any(c.only for c in items) and any(c.not_for for c in items) and any(c.value == 0 for c in items)


def test_the_rules_follow_the_card_text_C_LAW_5():
    """C-LAW-5: card text beats the rules: CD89 may give the winning level, which no other gain may."""
    s = hand(in_play(set_player(playing(), 0, level=9), 0, "CD81"), 0, "CD89")
    s, ev = act(s, 0, "play", "CD89")
    assert R.winners(s) == (0,)


def test_refusals_name_a_reason_in_words_C_DIGI_1():
    """C-DIGI-1: every refused action names a reason code the client has words for; nothing changes."""
    s = hand(on_top(playing(3), "CD01"), 0, "CT05")
    cases = [(Action(1, "kick"), "seat/not-your-turn"), (Action(0, "fight", ("CD02",)), "card/not-in-hand"),
             (Action(0, "buy", ("CT05",)), "buy/not-enough"), (Action(7, "kick"), "seat/unknown"),
             (Action(0, "loot"), "phase/wrong")]
    fought, _ = act(s, 0, "kick")
    cases += [(Action(0, "end_turn"), "combat/in-combat")]
    for state, (action, reason) in [(s, c) for c in cases[:5]] + [(fought, cases[5])]:
        with pytest.raises(IllegalAction) as err:
            R.step(state, action)
        assert err.value.reason == reason and reason in R.REASONS


def test_a_die_window_after_each_run_away_roll_C_DIGI_2_C_RUN_3():
    """C-DIGI-2 c, C-RUN-3: the default set has a die changer (CT60: turn a die to 6), so after each
    run-away roll a die window lets its holder turn the die before it counts."""
    for seed in range(30):
        s = set_player(on_top(playing(3, seed=seed), "CD01"), 0, level=1)
        s = hand(s.replace(rng_seed=seed), 2, "CT60")
        s, _ = kick(s)
        s = s.replace(combat=s.combat.replace(monster_bonus=5))
        s, _ = resolve(s)
        s, ev = act(s, 0, "escape", 0)
        roll = next(e.roll for e in ev if e.kind == "rolled")
        if roll < 5:
            break
    assert R.actors(s) == (2,) and Action(2, "use", ("CT60",)) in legal_actions(s, 2)
    s, ev = act(s, 2, "use", "CT60")
    escape = next(e for e in ev if e.kind == "escape")  # (the others auto-passed: nothing left to use)
    assert ev[0].kind == "die_changed" and escape.escaped and escape.roll == 6 and s.combat is None


def test_giving_items_in_play_C_ITEM_6():
    """C-ITEM-6: an item in play given to another, on any turn but never in combat; it arrives not in
    use and cannot be sold before the receiver's next turn."""
    s = in_play(on_top(playing(3), "CD01"), 1, "CT46")
    assert Action(1, "give", ("CT46", 0)) in legal_actions(s, 1)
    s, ev = act(s, 1, "give", "CT46", 0)
    it = s.players[0].items[0]
    assert ev[0].kind == "gift" and it.card == "CT46" and not it.in_use and it.fresh
    sale = s.replace(turn=s.turn.replace(phase=Phase.END))
    assert not R.is_legal(sale, Action(0, "buy", ("CT46",)))
    fight, _ = kick(s)
    assert not any(a.kind == "give" for a in legal_actions(fight, 0))


def test_showing_the_hand_to_chosen_players_C_ITEM_10_C_DIGI_4():
    """C-ITEM-10, C-DIGI-4: a player shows the hand to one chosen player at a time, on any turn:
    only that player's view shows it (cards drawn later too) until the turn ends; the event names
    the cards only for the two of them; showing it is no play, so a window still auto-passes."""
    s = hand(playing(3), 1, "CT05", "CD48")
    assert Action(1, "reveal", (0,)) in legal_actions(s, 1) and Action(1, "reveal", (1,)) not in legal_actions(s, 1)
    s, ev = act(s, 1, "reveal", 0)
    assert s.players[1].shown == (0,) and Action(1, "reveal", (0,)) not in legal_actions(s, 1)
    assert R.view(s, 0).players[1].hand == ("CT05", "CD48")
    assert R.view(s, 2).players[1].hand == ("?", "?")
    assert R.view_events(ev, 0)[0].cards == ("CT05", "CD48") and R.view_events(ev, 1)[0].cards == ("CT05", "CD48")
    assert R.view_events(ev, 2)[0].cards == ("?", "?")
    s = hand(s, 1, "CT02")
    assert R.view(s, 0).players[1].hand[-1] == "CT02"
    window, _ = act(act(hand(on_top(s, "CD01"), 2, "CT07"), 0, "kick")[0], 0, "roll")
    assert Action(2, "reveal", (0,)) in legal_actions(window, 2) and window.combat.waiting == (1,)
    s, _ = act(s.replace(turn=s.turn.replace(phase=Phase.END)), 0, "end_turn")
    s, _ = act(s, 1, "pass")  # the turn-end window (C-DIGI-2 f): Green holds a curse, so is asked
    assert s.turn.seat == 1 and s.players[1].shown == () and R.view(s, 0).players[1].hand[0] == "?"


def test_every_classic_action_kind_is_a_known_kind():
    """Every kind the Classic engine handles is one the action vocabulary (and so the scenario
    files and the wire) knows."""
    from mq.classic.reducer import HANDLERS
    from mq.rules.actions import ALL_KINDS
    assert set(HANDLERS) <= set(ALL_KINDS)


def _dwarf_with_two_bigs(seat: int = 0, level: int = 1):
    """``seat``, a dwarf, carries the big CT45 (500 gold) and CT46 (1000 gold) in use."""
    s = in_play(set_player(on_top(playing(3), "CD20"), seat, level=level), seat, "CD66", "CT45", "CT46")
    return s


def test_big_items_over_the_limit_are_sold_on_your_turn_C_ITEM_4():
    """C-ITEM-4: who loses the right to several big items keeps one in use at once, the player's
    choice; the other is given up at once (no bonus) and, on their own turn, sold right after the
    current combat: 1000 gold buys a level (C-ITEM-7)."""
    s = _dwarf_with_two_bigs()
    s, _ = act(s, 0, "kick")  # a fight: the sale waits for its end
    s, _ = act(s, 0, "discard", "CD66")
    assert s.pending.kind == "big" and {a.args for a in legal_actions(s, 0)} == {("CT45",), ("CT46",)}
    strength = cb.seat_strength(s, CARDS, 0)
    s, _ = act(s, 0, "choose", "CT46")
    it = next(it for it in s.players[0].items if it.card == "CT46")
    assert it.over and not it.in_use and cb.seat_strength(s, CARDS, 0) == strength - CARDS.card("CT46").bonus
    assert Action(0, "equip", ("CT46",)) not in legal_actions(s, 0)
    s, ev = resolve(s)
    while s.combat is not None:
        seat = R.actors(s)[0]
        a = next(a for a in legal_actions(s, seat) if a.kind in ("choose", "escape", "pass"))
        s, more = act(s, seat, a.kind, *a.args)
        ev += more
    sale = [e for e in ev if e.kind == "sell"]
    assert sale and sale[0].cards == ("CT46",) and sale[0].levels == 1 and "CT46" in s.treasure.discard
    assert [it.card for it in s.players[0].items] == ["CT45"]


def test_big_items_over_the_limit_off_your_turn_go_to_charity_C_ITEM_4_C_CHARITY_1():
    """C-ITEM-4: off one's own turn the big items given up go to the lowest-level players, as
    charity gives cards: face down into a hand, the giver choosing among the tied."""
    s = _dwarf_with_two_bigs(seat=1, level=3)
    s, _ = act(s, 1, "discard", "CD66")  # on Red's turn, outside a combat: at once
    s, _ = act(s, 1, "choose", "CT45")
    assert s.pending.kind == "big_gift" and s.pending.seat == 1
    assert {a for a in legal_actions(s, 1)} == {Action(1, "give", ("CT45", 0)), Action(1, "give", ("CT45", 2))}
    s, ev = act(s, 1, "give", "CT45", 2)
    assert s.pending is None and "CT45" in s.players[2].hand and "CT45" not in [it.card for it in s.players[1].items]
    assert R.view_events(ev, 0)[0].card == "?"  # a charity gift is seen by giver and receiver only


def test_a_combat_off_your_own_turn_caused_by_a_card_C_COMBAT_12():
    """C-COMBAT-12: Misdelivered Monster (CD96) makes another player fight the top Door card at
    once, on Red's turn: Green is the main fighter but puts no card from hand into play (a race
    card, a Half-Breed); Red's turn goes on where it was (no loot the room follows for Green, who
    has no turn phase); a card that is no monster goes to the hand."""
    s = hand(hand(on_top(playing(3), "CD20"), 2, "CD96"), 1, "CD66", "CD84")
    s = in_play(s, 1, "CD63")
    assert Action(2, "play", ("CD96", 1)) in legal_actions(s, 2) and Action(2, "play", ("CD96", 2)) not in legal_actions(s, 2)
    assert Action(2, "play", ("CD96", 0)) not in legal_actions(s, 2)  # (Red's own turn)
    s, ev = act(s, 2, "play", "CD96", 1)
    c = s.combat
    assert c is not None and c.fighter == 1 and s.turn.seat == 0 and s.turn.phase == Phase.KICK
    assert [e for e in ev if e.kind == "monster_in"][0].by == 2
    green = legal_actions(s, 1)
    assert Action(1, "play", ("CD66",)) not in green and Action(1, "play", ("CD84",)) not in green
    assert Action(1, "roll") in green
    s, _ = resolve(s, fighter=1)
    while s.combat is not None:
        seat = R.actors(s)[0]
        a = next(a for a in legal_actions(s, seat) if a.kind in ("choose", "escape", "pass"))
        s, _ = act(s, seat, a.kind, *a.args)
    assert s.turn.seat == 0 and s.turn.phase == Phase.KICK and Action(0, "kick") in legal_actions(s, 0)
    quiet = hand(on_top(playing(3), "CT05"), 2, "CD96")
    quiet = on_top(quiet, "CD48")  # a curse on top: it goes into Green's hand
    quiet, ev = act(quiet, 2, "play", "CD96", 1)
    assert quiet.combat is None and quiet.curse is None and "CD48" in quiet.players[1].hand


def test_a_cleric_salvages_the_top_discard_instead_of_drawing_face_down_C_CHAR_5():
    """C-CHAR-5 (cleric, salvage): a face-down draw (here looting the room) waits for the cleric's
    choice: draw as usual, or take the top card of that deck's discards for a card of the hand;
    with that deck's discard pile empty, the cleric just draws."""
    s = hand(in_play(playing(3), 0, "CD81"), 0, "CT49")
    s = s.replace(door=s.door.replace(draw=s.door.draw[1:], discard=(s.door.draw[0],)))
    top = s.door.discard[-1]
    trouble = s.turn.replace(phase=Phase.TROUBLE)
    s, _ = act(s.replace(turn=trouble), 0, "loot")
    assert s.pending.kind == "salvage" and {a.args for a in legal_actions(s, 0)} == {("draw",), ("CT49",)}
    took, ev = act(s, 0, "choose", "CT49")
    assert took.players[0].hand == (top,) and "CT49" in took.treasure.discard and top not in took.door.discard
    drew, ev = act(s, 0, "choose", "draw")
    assert len(drew.players[0].hand) == 2 and drew.door.discard == (top,) and not ev[0].public
    plain = hand(in_play(playing(3), 0, "CD81"), 0, "CT49").replace(turn=trouble)  # no Door discards
    plain, _ = act(plain, 0, "loot")
    assert plain.pending is None and len(plain.players[0].hand) == 2
