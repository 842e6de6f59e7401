"""The packs' races and classes in play (CLASSIC.md C-PACK-2, 3, 4, 6, C-EPIC-7, 8, 10, 14): the orc,
the gnome, the bard and the ranger, with their default and epic powers, in positions built from a
real new game with every pack (tests/classic_table.py's helpers, with the packs' card set).

Pack cards used: CD201 orc, CD301 gnome, CD304 bard, CD601 ranger (mq/data/classic/packs); CD204
Snack-Sized Goblin (level 1, 1 Treasure), CD604 Saddle-Shaped Boar (level 3, 2 Treasure, -1 to
run away), CD606 Armoured Dust Bunny (level 2, 1 Treasure), CD808 Pebble in the Boot (lasting -1
to run away). Default cards: CD01 Grumpy Doormat (level 1, 1 Treasure), CD20 Sulking Hydra (level
8, 3 Treasure), CT55 (a one-shot escape), CT49..CT52 one-shots as filler cards."""
from __future__ import annotations

import pytest
from classic_table import act, hand, on_top, playing, set_player
from test_classic_rules import resolve

import mq.rules as R
from mq.cards.classic_packs import NAMES, load_classic_packs
from mq.classic import character as ch
from mq.classic import combat as cb
from mq.classic import invariants
from mq.classic.state import CItem, PendingKind, Stage
from mq.rules import Action, IllegalAction, is_over, legal_actions, step, winners
from mq.sim import game_seed, play_game

PC = load_classic_packs(NAMES)
FILLER = ("CT49", "CT50", "CT51", "CT52")


def table(players=3, seat=0, seed=5, epic=False):
    return playing(players, seat, seed, epic=epic, packs=NAMES)


def ride(s, seat, *cids):
    """Race, class and other cards into ``seat``'s play (as classic_table.in_play, pack cards too)."""
    s = hand(s, seat, *cids)
    p = s.players[seat]
    races = tuple(c for c in cids if PC.card(c).kind == "race")
    classes = tuple(c for c in cids if PC.card(c).kind == "class")
    items = tuple(CItem(c, True) for c in cids if PC.card(c).kind == "item")
    curses = tuple(c for c in cids if PC.card(c).kind == "curse")
    return set_player(s, seat, hand=tuple(c for c in p.hand if c not in cids), races=p.races + races,
                      classes=p.classes + classes, items=p.items + items, curses=p.curses + curses)


def powers(s, seat, name):
    return [a for a in legal_actions(s, seat) if a.kind == "power" and a.args[0] == name]


# -- the orc (C-PACK-2, C-EPIC-8) -----------------------------------------------------------------

def test_an_orc_is_stronger_fighting_alone_C_PACK_2():
    """C-PACK-2: the orc's default power: +1 as main fighter without a helper; none once helped, and
    none as the helper."""
    s = ride(on_top(table(), "CD20"), 0, "CD201")
    s, _ = act(s, 0, "kick")
    assert cb.seat_strength(s, PC, 0) == 1 + 1
    helped = s.replace(combat=s.combat.replace(helper=1))
    assert cb.seat_strength(helped, PC, 0) == 1
    orc_helper = ride(table(), 1, "CD202")
    orc_helper, _ = act(on_top(orc_helper, "CD20"), 0, "kick")
    orc_helper = orc_helper.replace(combat=orc_helper.combat.replace(helper=1))
    assert cb.seat_strength(orc_helper, PC, 1) == 1


def test_an_epic_orc_eats_a_level_1_monster_at_once_for_a_level_C_EPIC_8():
    """C-EPIC-8: kicked open (or looked for), a monster of printed level 1 may be eaten at once:
    discarded with no Treasure, and the orc goes up a level as for a kill; not once a card is
    played, nor a stronger monster, nor below level 10."""
    s = set_player(ride(on_top(table(epic=True), "CD204"), 0, "CD201"), 0, level=10)
    s, _ = act(s, 0, "kick")
    assert powers(s, 0, "eat") == [Action(0, "power", ("eat", 0))]
    treasure = len(s.treasure.draw)
    after, ev = act(s, 0, "power", "eat", 0)
    assert after.players[0].level == 11 and after.combat is None and "CD204" in after.door.discard
    assert len(after.treasure.draw) == treasure and [e.how for e in ev if e.kind == "combat_ends"] == ["won"]
    assert not after.players[0].hand  # no Treasure
    enhanced = hand(s, 1, "CD806")
    enhanced = enhanced.replace(combat=enhanced.combat.replace(monsters=(enhanced.combat.monsters[0].replace(
        enhancers=("CD806",)),)))
    enhanced = enhanced.replace(players=tuple(p.replace(hand=()) if p.seat == 1 else p for p in enhanced.players))
    assert not powers(enhanced, 0, "eat")  # a card was played on it: too late
    low = set_player(s, 0, level=9)
    assert not powers(low, 0, "eat")  # not epic
    strong = set_player(ride(on_top(table(epic=True), "CD606"), 0, "CD201"), 0, level=10)
    strong, _ = act(strong, 0, "kick")
    assert not powers(strong, 0, "eat")  # level 2


def test_an_epic_orc_may_eat_its_way_to_the_winning_level_C_EPIC_8_C_LAW_2():
    """C-EPIC-8, C-LAW-2: eating counts as a won combat and a kill, so it may give level 20."""
    s = set_player(ride(on_top(table(epic=True), "CD01"), 0, "CD201"), 0, level=19)
    s, _ = act(s, 0, "kick")
    s, ev = act(s, 0, "power", "eat", 0)
    assert is_over(s) and winners(s) == (0,) and s.players[0].level == 20
    assert [e.kind for e in ev if e.kind == "game_won"] == ["game_won"]


# -- the gnome (C-PACK-3, C-EPIC-7) ---------------------------------------------------------------

def _running(s, seat=0):
    s, _ = act(s, seat, "kick")
    s, _ = resolve(s, seat)
    assert s.combat is not None and s.combat.stage == Stage.RUN
    return s


def test_a_gnome_runs_away_better_C_PACK_3_C_RUN_2():
    """C-PACK-3: the gnome's default power, +1 to run away (a human needs 5, a gnome 4)."""
    human = _running(on_top(table(), "CD20"))
    gnome = _running(ride(on_top(table(), "CD20"), 0, "CD301"))
    assert cb.needed(human, PC, 0, 0) == 5 and cb.needed(gnome, PC, 0, 0) == 4


def test_an_epic_gnome_ignores_run_away_penalties_and_draws_two_treasure_escaping_C_EPIC_7():
    """C-EPIC-7: every negative modifier is ignored (the boar's -1, a lasting curse's -1); escaping
    every monster of the combat draws 2 Treasure face-down, once per combat."""
    plain = set_player(ride(on_top(table(), "CD604"), 0, "CD301", "CD808"), 0, level=1)
    plain = hand(plain, 1, "CT51", "CT52")  # the boar made stronger: the gnome loses
    plain, _ = act(plain, 0, "kick")
    assert cb.needed(plain, PC, 0, 0) == 5 - (1 - 1 - 1)
    s = set_player(ride(on_top(table(epic=True), "CD20"), 0, "CD301", "CD808"), 0, level=10)
    s = hand(s, 1, "CT51", "CT52")
    s, _ = act(s, 0, "kick")
    s, _ = act(s, 0, "roll")
    s, _ = act(s, 1, "use", "CT51", "monsters")
    s, _ = act(s, 1, "use", "CT52", "monsters")
    while s.combat.stage != Stage.RUN:
        s, _ = act(s, *([0, "roll"] if s.combat.stage == Stage.PREPARE else [s.combat.waiting[0], "pass"]))
    assert cb.needed(s, PC, 0, 0) == 5 - 1  # only the gnome's +1 counts
    s = hand(s, 0, "CT55")
    before = len(s.players[0].hand) - 1
    s, ev = act(s, 0, "use", "CT55")
    assert s.combat is None and [e.power for e in ev if e.kind == "power"] == ["clean_escape"]
    assert len(s.players[0].hand) == before + 2
    assert sum(1 for e in ev if e.kind == "draw" and e.seat == 0 and not e.public) == 2


# -- the bard (C-PACK-4, C-EPIC-10) ---------------------------------------------------------------

def test_a_bard_draws_one_treasure_more_and_discards_one_of_them_C_PACK_4():
    """C-PACK-4: winning as main fighter, the bard draws the monsters' Treasure + 1, then discards
    one of the cards drawn for the combat (a choice among those only)."""
    s = set_player(hand(ride(on_top(table(), "CD01"), 0, "CD304"), 0, "CT49"), 0, level=2)
    s, _ = act(s, 0, "kick")
    s, ev = resolve(s)
    drawn = [e.card for e in ev if e.kind == "draw"]
    assert len(drawn) == 2 and s.pending.kind == PendingKind.LUCK and s.pending.seat == 0
    assert {a.args[0] for a in legal_actions(s, 0)} == set(drawn)  # not CT49, held before
    s, ev = act(s, 0, "choose", drawn[1])
    assert s.pending is None and drawn[1] in s.treasure.discard
    assert set(s.players[0].hand) == {"CT49", drawn[0]}
    with pytest.raises(IllegalAction):
        step(s, Action(0, "choose", (drawn[0],)))


def test_a_helped_bard_discards_before_the_helper_s_share_C_PACK_4_C_HELP_3():
    """C-PACK-4, C-HELP-3: face-up when helped; the discard comes first, then the helper takes the
    share of the deal from what is left."""
    s = ride(on_top(table(), "CD20"), 0, "CD304")
    s = set_player(s, 0, level=5)
    s = set_player(s, 1, level=5)
    s, _ = act(s, 0, "kick")
    s, _ = act(s, 0, "ask", 1)
    s, _ = act(s, 1, "offer", 1, "helper", "")
    s, _ = act(s, 0, "accept", "deal", 1)
    s, ev = resolve(s)
    drawn = [e.card for e in ev if e.kind == "draw"]
    assert len(drawn) == 3 + 1 and all(e.public for e in ev if e.kind == "draw")
    assert s.pending.kind == PendingKind.LUCK and not s.players[1].hand
    s, ev = act(s, 0, "choose", drawn[0])
    laid = next(e for e in ev if e.kind == "laid_out")  # what is left, face-up, for the deal's picks
    assert laid.cards == tuple(drawn[1:]) and (s.pending.kind, s.pending.seat) == (PendingKind.PICK, 1)
    s, _ = act(s, 1, "choose", drawn[2])
    assert s.players[1].hand == (drawn[2],) and set(s.players[0].hand) == {drawn[1], drawn[3]}


def test_a_cleric_bard_may_salvage_each_luck_draw_then_discards_among_what_they_brought_C_PACK_4_C_CHAR_5():
    """C-PACK-4 with C-CHAR-5 (our reading): a cleric who is also a bard wins alone: each of the
    luck's face-down draws offers the salvage choice, as any face-down draw; then the luck's
    discard is among the cards those draws brought (a salvaged one too), never a card held before."""
    s = ride(on_top(table(), "CD01"), 0, "CD81", "CD304")  # a cleric and a bard (with a Super Munchkin)
    s = hand(s, 0, "CD86", "CT49", "CT05")
    s = set_player(s, 0, hand=("CT49",), supermunchkin="CD86", level=2)
    s = s.replace(treasure=s.treasure.replace(discard=s.treasure.discard + ("CT05",)))
    s, _ = act(s, 0, "kick")
    s, _ = resolve(s)
    assert s.combat is None and s.pending.kind == PendingKind.SALVAGE and s.pending.arg == "treasure"
    s, _ = act(s, 0, "choose", "CT49")  # the beanie on the discards for the card held before
    assert s.pending.kind == PendingKind.SALVAGE and s.players[0].hand == ("CT05",)
    s, ev = act(s, 0, "choose", "draw")
    drawn = next(e.card for e in ev if e.kind == "draw")
    assert s.pending.kind == PendingKind.LUCK and s.pending.n == 1
    assert {a.args[0] for a in legal_actions(s, 0)} == {"CT05", drawn}
    s, _ = act(s, 0, "choose", drawn)
    assert s.pending is None and s.players[0].hand == ("CT05",) and s.players[0].level == 3


def test_an_epic_bard_draws_two_more_and_discards_two_C_EPIC_10():
    """C-EPIC-10: the epic bard's greater luck: two extra Treasure drawn, two of them discarded."""
    s = set_player(ride(on_top(table(epic=True), "CD01"), 0, "CD304"), 0, level=10)
    s, _ = act(s, 0, "kick")
    s, ev = resolve(s)
    drawn = [e.card for e in ev if e.kind == "draw"]
    assert len(drawn) == 3 and s.pending.n == 2
    s, _ = act(s, 0, "choose", drawn[0])
    assert s.pending.n == 1
    s, _ = act(s, 0, "choose", drawn[2])
    assert s.pending is None and s.players[0].hand == (drawn[1],)


# -- the ranger (C-PACK-6) ------------------------------------------------------------------------

def test_a_ranger_tames_a_monster_as_a_steed_C_PACK_6_C_PACK_5():
    """C-PACK-6: once per combat, as main fighter, as many hand cards as the monster's Treasure:
    it leaves the combat with no reward and becomes the steed, its Treasure count its bonus in
    later combats; a new steed replaces the old; any cards of the hand may pay."""
    s = hand(ride(on_top(table(), "CD604"), 0, "CD601"), 0, *FILLER)
    s, _ = act(s, 0, "kick")
    assert powers(s, 0, "tame") == [Action(0, "power", ("tame", "CT49", "CT50", 0))]
    s, ev = act(s, 0, "power", "tame", "CT51", "CT52", 0)  # any two cards of the hand
    assert s.players[0].steed == "CD604" and s.combat is None
    assert [e.how for e in ev if e.kind == "combat_ends"] == ["no_result"]
    assert {"CT51", "CT52"} <= set(s.treasure.discard) and not [e for e in ev if e.kind == "level"]
    assert ch.steed_bonus(s.players[0], PC) == 2
    s = on_top(s.replace(turn=s.turn.replace(phase="kick")), "CD20")
    s, _ = act(s, 0, "kick")
    assert cb.seat_strength(s, PC, 0) == 1 + 2  # the steed rides into the next fight
    assert not powers(s, 0, "tame")  # three Treasure, two cards left
    s = hand(s, 0, "CT51")
    s, ev = act(s, 0, "power", "tame", "CT49", "CT50", "CT51", 0)
    assert s.players[0].steed == "CD20" and "CD604" in s.door.discard  # the old steed goes
    with pytest.raises(IllegalAction):
        step(hand(s, 0, "CT52"), Action(0, "power", ("tame", "CT52", 0)))  # no combat now


def test_taming_is_once_per_combat_and_only_for_the_main_fighter_C_PACK_6():
    s = hand(ride(on_top(table(), "CD01"), 1, "CD601"), 1, *FILLER)
    s, _ = act(s, 0, "kick")
    assert not powers(s, 1, "tame")
    s2 = hand(ride(on_top(table(), "CD01"), 0, "CD601"), 0, *FILLER)
    s2, _ = act(s2, 0, "kick")
    assert powers(s2, 0, "tame")
    s2 = s2.replace(combat=s2.combat.replace(used=((0, "tame"),)))  # tamed once in this combat
    assert not powers(s2, 0, "tame")


def test_a_steed_is_lost_to_the_body_at_death_C_DEATH_1_C_PACK_5():
    """C-DEATH-1, C-PACK-6: a steed is lost at death and laid out with the body."""
    s = set_player(table(), 0, steed="CD604")
    s = s.replace(door=s.door.replace(draw=tuple(c for c in s.door.draw if c != "CD604")))
    assert invariants.check(s, PC) == []
    from mq.classic import effects as fx
    from mq.classic.tx import Tx
    tx = Tx(s, PC)
    fx.die(tx, 0)
    after = tx.commit()
    assert after.players[0].steed == "" and "CD604" in after.bodies[0].cards


def test_an_epic_ranger_claims_a_discarded_monster_in_the_claim_window_C_EPIC_14_C_DIGI_2():
    """C-EPIC-14, C-DIGI-2 (e): when a monster card is discarded (here at the end of another's won
    combat) while an epic ranger is at the table, a claim window opens once the combat is over:
    the ranger may discard the whole hand (at least 3 cards) to take it as the steed (bonus: its
    Treasure), or pass; others may not act meanwhile. With fewer than 3 cards, no window."""
    s = set_player(ride(on_top(table(epic=True), "CD604"), 1, "CD601"), 1, level=10)
    s = set_player(hand(s, 1, "CT49", "CT50", "CT51"), 0, level=5)
    s, _ = act(s, 0, "kick")
    s, _ = resolve(s)
    assert s.combat is None and s.claim is not None and s.claim.open and s.claim.waiting == (1,)
    assert R.actors(s) == (1,) and not legal_actions(s, 0)
    assert Action(1, "power", ("claim", "CD604")) in legal_actions(s, 1)
    passed, _ = act(s, 1, "pass")
    assert passed.claim is None and "CD604" in passed.door.discard and R.actors(passed) == (0,)
    s, ev = act(s, 1, "power", "claim", "CD604")
    assert s.players[1].steed == "CD604" and not s.players[1].hand and s.claim is None
    assert "CD604" not in s.door.discard and [e.how for e in ev if e.kind == "steed"] == ["claim"]
    assert ch.steed_bonus(s.players[1], PC) == 2
    poor = set_player(ride(on_top(table(epic=True), "CD604"), 1, "CD601"), 1, level=10)
    poor = set_player(hand(poor, 1, "CT49", "CT50"), 0, level=5)
    poor, _ = act(poor, 0, "kick")
    poor, _ = resolve(poor)
    assert poor.claim is None and R.actors(poor) == (0,)


# -- steeds and hirelings (C-PACK-5, C-EPIC-15) -------------------------------------------------------
# CT501 Pony With Opinions (steed +1, +1 to run away), CT502 Battle Llama (steed +3), CT504 Mule Who
# Also Does Odd Jobs (steed or hireling +2), CT505 Torchbearer (hireling +1, sacrificed to escape),
# CT506 Bodyguard (hireling +3); CD501 Horse Thief (Bad Stuff: lose your steed), CD504 Union Rules
# (curse: lose your hireling); CT31, CT33 big two-handers of the default set.

def test_steeds_and_hirelings_go_into_play_one_of_each_and_count_as_items_in_use_C_PACK_5():
    """C-PACK-5: Treasure cards put into play like items, one steed and one hireling at a time (a
    new one replaces the old, which is discarded); their bonuses count in combat, a steed's running
    text in running; a card marked as both may go into either role."""
    s = hand(table(), 0, "CT501", "CT502", "CT504", "CT506")
    own = [a for a in legal_actions(s, 0) if a.kind == "play" and a.args[0] in ("CT501", "CT504", "CT506")]
    assert Action(0, "play", ("CT504", "hireling")) in own and Action(0, "play", ("CT504",)) in own
    s, ev = act(s, 0, "play", "CT501")
    assert s.players[0].steed == "CT501" and [e.how for e in ev if e.kind == "steed"] == ["play"]
    s, _ = act(s, 0, "play", "CT504", "hireling")
    assert (s.players[0].steed, s.players[0].hireling) == ("CT501", "CT504")
    s, _ = act(s, 0, "play", "CT502")
    assert s.players[0].steed == "CT502" and "CT501" in s.treasure.discard
    s, _ = act(s, 0, "play", "CT506")
    assert s.players[0].hireling == "CT506" and "CT504" in s.treasure.discard
    s, _ = act(on_top(s, "CD20"), 0, "kick")
    assert cb.seat_strength(s, PC, 0) == 1 + 3 + 3
    pony = ride(hand(table(), 0, "CT501"), 0)
    pony, _ = act(pony, 0, "play", "CT501")
    pony = _running(on_top(pony, "CD20"))
    assert cb.needed(pony, PC, 0, 0) == 5 - 1  # the pony's +1 to run away


def test_a_hireling_is_sacrificed_to_escape_and_bad_stuff_or_curses_take_them_C_PACK_5():
    """C-PACK-5: the owner sacrifices (discards) a hireling for what its card names (here: escape
    every monster while running); Bad Stuff and curses may kill a hireling or take the steed."""
    s = hand(table(), 0, "CT505", "CT501")
    s, _ = act(s, 0, "play", "CT505")
    s, _ = act(s, 0, "play", "CT501")
    s = _running(on_top(s, "CD20"))
    assert Action(0, "use", ("CT505",)) in legal_actions(s, 0)
    s, ev = act(s, 0, "use", "CT505")
    assert s.combat is None and s.players[0].hireling == "" and "CT505" in s.treasure.discard
    assert [e.how for e in ev if e.kind == "combat_ends"] == ["fled"]
    s = hand(s, 1, "CD504")
    s, _ = act(s, 1, "curse", "CD504", 0)
    assert s.players[0].steed == "CT501"  # no hireling: nothing happens
    from mq.classic import effects as fx
    from mq.classic.tx import Tx

    tx = Tx(s, PC)
    fx.push(tx, 0, PC.monster_card("CD501").bad_stuff)  # caught by the Horse Thief of the Moors
    while tx.queue and tx.pending is None:  # (and the big items checked after it: none over, C-ITEM-4)
        fx.apply_next(tx)
    after = tx.commit()
    assert after.players[0].steed == "" and "CT501" in after.treasure.discard
    assert invariants.check(after, PC) == []


def test_an_epic_rider_may_have_one_more_big_item_and_loses_it_with_the_steed_C_EPIC_15():
    """C-EPIC-15: while its rider is epic, a steed lets them have one more big item; losing the
    steed (or no longer being epic) over the limit gives up a big item, the rider's choice (sold at
    once on their own turn outside a combat, C-ITEM-4)."""
    s = set_player(hand(table(epic=True), 0, "CT502", "CT31", "CT33"), 0, level=10)
    s, _ = act(s, 0, "play", "CT31")
    assert Action(0, "play", ("CT33",)) not in legal_actions(s, 0)
    s, _ = act(s, 0, "play", "CT502")
    assert ch.big_limit(s.players[0], PC, s.params) == 2
    s, _ = act(s, 0, "play", "CT33")
    assert len(s.players[0].items) == 2
    s = hand(s, 1, "CD503")
    s, _ = act(s, 1, "curse", "CD503", 0)
    assert s.players[0].steed == "" and s.pending.kind == "big" and s.pending.seat == 0
    s, _ = act(s, 0, "choose", "CT33")
    assert [it.card for it in s.players[0].items] == ["CT31"]
    plain = set_player(hand(table(), 0, "CT502"), 0, level=9)
    plain, _ = act(plain, 0, "play", "CT502")
    assert ch.big_limit(plain.players[0], PC, plain.params) == 1  # without Epic, no extra load


def test_steeds_and_hirelings_are_lost_at_death_C_DEATH_1_C_PACK_5():
    """C-DEATH-1, C-PACK-5: steeds and hirelings are lost at death and laid out with the body."""
    from mq.classic import effects as fx
    from mq.classic.tx import Tx

    s = hand(table(), 0, "CT502", "CT506")
    s, _ = act(s, 0, "play", "CT502")
    s, _ = act(s, 0, "play", "CT506")
    tx = Tx(s, PC)
    fx.die(tx, 0)
    after = tx.commit()
    assert (after.players[0].steed, after.players[0].hireling) == ("", "")
    assert {"CT502", "CT506"} <= set(after.bodies[0].cards)


def test_steeds_and_hirelings_are_given_like_items_C_PACK_5_C_ITEM_6():
    """C-PACK-5, C-ITEM-6: a steed or hireling card in play is given, outside combat, to a player
    with none in that role; never in combat; a tamed monster is no card to trade."""
    s = hand(table(), 0, "CT502", "CT506")
    s, _ = act(s, 0, "play", "CT502")
    s, _ = act(s, 0, "play", "CT506")
    s = set_player(s, 2, steed="CD604")
    s = s.replace(door=s.door.replace(draw=tuple(c for c in s.door.draw if c != "CD604")))
    gives = [a for a in legal_actions(s, 0) if a.kind == "give"]
    assert Action(0, "give", ("CT502", 1)) in gives and Action(0, "give", ("CT502", 2)) not in gives
    assert Action(0, "give", ("CT506", 2)) in gives
    assert not [a for a in legal_actions(s, 2) if a.kind == "give" and a.args[0] == "CD604"]
    s, ev = act(s, 0, "give", "CT502", 1)
    assert (s.players[0].steed, s.players[1].steed) == ("", "CT502") and [e.kind for e in ev] == ["gift"]
    fight, _ = act(on_top(s, "CD20"), 0, "kick")
    assert not [a for a in legal_actions(fight, 0) if a.kind == "give"]


# -- whole games ----------------------------------------------------------------------------------

@pytest.mark.parametrize("epic", [False, True], ids=["classic", "epic"])
def test_bot_games_with_every_pack_play_the_pack_powers_and_end_with_a_winner(epic):
    """C-PACK-2..6 in real bot games (every step checked by the invariants, one steed and one
    hireling each, every card conserved): the pack races and classes come into play, the bard's
    luck is used, steeds and hirelings are put into play, and every game has a winner."""
    seen = set()
    for i in range(4):
        params = R.make_params(4, mode="classic", epic=epic, packs=NAMES)

        def on_step(state, events):
            assert invariants.check(state, PC) == []
            for p in state.players:
                seen.update(PC.card(c).key for c in p.races + p.classes)
            seen.update(e.why for e in events if e.kind == "discard")
            seen.update(e.kind for e in events if e.kind in ("steed", "hireling"))

        result, _, _ = play_game(4, game_seed(7, i), on_step=on_step, params=params)
        assert result.winners
    assert "luck" in seen and {"orc", "gnome", "bard", "ranger"} & seen and {"steed", "hireling"} <= seen
