"""DxM cards that change fights and players: monster enhancers (Q-CARD-6, Q-COMBAT-13), Wandering
Monsters (Q-CARD-6) and curses (Q-CARD-8)."""
from __future__ import annotations

from builders import (
    CARDS,
    act,
    census,
    dxm_card,
    hand,
    kinds_of,
    legal,
    nxt,
    put,
    quiet,
    refused,
    rig,
    set_player,
    treasure_card,
)
from test_rules_combat import LURKER, LURKER2, arena, resolve, result

from mq.rules import Action, actors
from mq.rules.character import hands_used
from mq.rules.legal import LEVEL_PRICE
from mq.rules.state import BACKPACK, CARRIED, WORN

UP = dxm_card(lambda d: d.kind == "enhancer" and d.bonus == 10)
DOWN = dxm_card(lambda d: d.kind == "enhancer" and d.bonus < 0)
WANDER = dxm_card(lambda d: d.kind == "wandering")
LEVEL_CURSE = dxm_card(lambda d: d.kind == "curse" and d.effects[0].name == "lose_levels")
ITEM_CURSE = dxm_card(lambda d: d.kind == "curse" and d.effects[0].name == "lose_item")
NEXT_CURSE = dxm_card(lambda d: d.kind == "curse" and d.effects[0].name == "next_combat")
HAT_CURSE = dxm_card(lambda d: d.kind == "curse" and d.effects[0].name == "lose_slot"
                     and d.effects[0].get("slot") == "head")
HAT = treasure_card(lambda d: d.kind == "item" and d.slot == "head" and not d.effects)
BOOTS = treasure_card(lambda d: d.kind == "item" and d.slot == "feet" and not d.effects)


POORER = dxm_card(lambda d: d.kind == "enhancer" and any(e.name == "fewer_treasure" for e in d.effects))
RICHER = dxm_card(lambda d: d.kind == "enhancer" and any(e.name == "extra_treasure" for e in d.effects)
                  and d.bonus <= 5)


def test_an_enhancer_that_makes_a_monster_poorer_never_takes_its_treasure_below_zero():
    """Q-COMBAT-13 (seeds/000: some enhancers make a monster weaker and take Treasure away, the
    rulebook's 2 +2 +1 -1 = 4): Treasure drawn for a kill is the card's count plus and minus its
    enhancers' Treasures, never below zero."""
    poorer = CARDS.card(POORER)
    assert poorer.bonus < 0 and POORER in [d.id for d in CARDS.dxm]  # the default set has one
    less = next(e.get("n") for e in poorer.effects if e.name == "fewer_treasure")
    more = next(e.get("n") for e in CARDS.card(RICHER).effects if e.name == "extra_treasure")
    s, a, r1, _ = arena(players=2, monsters=(LURKER,))
    uid = s.monsters[0].uid
    base = CARDS.card(LURKER).treasure
    both = s.replace(monsters=(s.monsters[0].replace(enhancers=(RICHER, POORER)),))
    both = both.replace(combat=both.combat.replace(bonus=30))
    before = len(both.players[a].hand)
    both, ev = resolve(both, 1)
    assert result(ev).won is True and len(both.players[a].hand) == before + base + more - less
    broke = s.replace(monsters=(s.monsters[0].replace(enhancers=(POORER,) * (base + 1)),))
    broke = broke.replace(combat=broke.combat.replace(bonus=60))
    broke, ev = resolve(broke, 1)
    assert result(ev).won is True and not [e for e in kinds_of(ev, "draw") if e.deck == "treasure"]
    assert ("monster_killed", a, uid, LURKER) in ev


def test_an_enhancer_counts_for_its_monster_and_stays_while_it_survives():
    """Q-CARD-6, Q-COMBAT-13: anyone may play an enhancer on a monster of the fight in the window;
    it adds to that monster's strength and stays on it if it survives; its extra Treasure comes
    with the kill."""
    s, a, r1, _ = arena(players=2, monsters=(LURKER2,))
    b = nxt(s, a)
    s = hand(s, b, UP)
    uid = s.monsters[0].uid
    s, _ = act(s, a, "roll")
    assert Action(b, "enhance", (UP, uid)) in legal(s, b)
    s = hand(s, b, DOWN)  # a second card: b may still act after the first one (Q-DIGI-2)
    s, ev = act(s, b, "enhance", UP, uid)
    assert ev == (("enhance", b, UP, uid), ("auto_pass", a, "window")) and s.monsters[0].enhancers == (UP,)
    assert s.combat.waiting == (b,)  # the fighter could answer, but holds nothing; b may follow up
    s, ev = act(s, b, "pass")
    assert ("answer", a) in ev  # Q-COMBAT-7: the fighter may answer before rolling again
    s, ev = resolve(s, 6, 1)
    r = result(ev)
    assert ("enhancers", 10) in r.monster_terms[0] and r.monster_total == 2 + 10 + 1 and r.won is False
    s, _ = act(s, a, "run", 0)
    s, _ = act(rig(s, 6), a, "escape", uid)
    assert s.monsters[0].enhancers == (UP,)  # it survived: the enhancer stays


def test_a_weakening_enhancer_and_the_kill_discards_it():
    """Q-COMBAT-13: the fighter plays a down-enhancer before rolling; the monster's death takes its
    enhancers to the discards.  Its level stays at least 1 (Q-LAW-1)."""
    s, a, r1, _ = arena(players=2, monsters=(LURKER2,), setup=lambda s, a: hand(s, a, DOWN))
    uid = s.monsters[0].uid
    s, _ = act(s, a, "enhance", DOWN, uid)
    s, ev = resolve(s, 2, 1)
    r = result(ev)
    assert 2 + CARDS.card(DOWN).bonus < 1 and r.monster_total == 1 + 1 and r.total == 1 + 2 and r.won is True
    assert DOWN in s.dxm_deck.discard and s.monsters == ()


def test_a_wandering_monster_joins_the_fight():
    """Q-CARD-6: the top Monster card joins the fight, on a rolled base; all fight together."""
    s, a, r1, _ = arena(players=2, monsters=(LURKER,))
    b = nxt(s, a)
    s = hand(s, b, WANDER)
    top = s.monster_deck.draw[0]
    s, _ = act(s, a, "roll")
    s, ev = act(rig(s, ("colour", b)), b, "wander", WANDER)
    assert ("wander", b, WANDER) in ev and len(s.combat.monsters) == 2
    assert s.monsters[-1].card == top and s.monsters[-1].room == r1 and WANDER in s.dxm_deck.discard


def test_a_curse_takes_effect_at_once_on_anyone():
    """Q-CARD-8, Q-TURN-2: a curse may be played anytime, on any player; it acts and is discarded."""
    s = quiet(3)
    a = s.turn.seat
    b, c = nxt(s, a), nxt(s, nxt(s, a))
    s = set_player(s, c, level=4)
    s = hand(s, b, LEVEL_CURSE)  # b plays it on a's turn
    assert Action(b, "curse", (LEVEL_CURSE, c)) in legal(s, b)
    s, ev = act(s, b, "curse", LEVEL_CURSE, c)
    assert ev[0] == ("curse", b, c, LEVEL_CURSE) and s.players[c].level == 3
    assert LEVEL_CURSE in s.dxm_deck.discard and LEVEL_CURSE not in s.players[b].hand


def test_the_victim_chooses_the_item_a_curse_takes():
    """Q-CARD-8, Q-ITEM-6: the victim picks which item is lost."""
    s = quiet(2)
    a = s.turn.seat
    b = nxt(s, a)
    s = put(s, b, (HAT, WORN), (BOOTS, WORN))
    s = hand(s, a, ITEM_CURSE)
    s, _ = act(s, a, "curse", ITEM_CURSE, b)
    assert s.pending.kind == "lose_item" and actors(s) == (b,)
    assert set(s.pending.options) == {HAT, BOOTS}
    s, _ = act(s, b, "choose", BOOTS)
    assert [it.card for it in s.players[b].items] == [HAT] and s.pending is None


def test_a_curse_with_nothing_to_hit_does_nothing():
    """Q-CARD-8: no headgear, no effect (unlike Bad Stuff, no hit instead)."""
    s = quiet(2)
    a = s.turn.seat
    b = nxt(s, a)
    s = hand(s, a, HAT_CURSE)
    s2, ev = act(s, a, "curse", HAT_CURSE, b)
    assert s2.players[b].hp == s.players[b].hp and s2.players[b].items == () and not kinds_of(ev, "hit")


def test_a_next_fight_curse_waits_or_hits_the_fight_going_on():
    """Q-CARD-8: a "next combat" curse waits for the victim's next fight, or applies now if they
    are fighting."""
    s = quiet(2)
    a = s.turn.seat
    b = nxt(s, a)
    s = hand(s, b, NEXT_CURSE)
    s, _ = act(s, b, "curse", NEXT_CURSE, a)
    assert s.players[a].cursed == -4
    s2, a2, r1, _ = arena(players=2, monsters=(LURKER,), setup=lambda st, seat: set_player(st, seat, cursed=-4))
    s2, ev = resolve(s2, 6)
    assert ("curse", -4) in result(ev).terms and s2.players[a2].cursed == 0  # spent
    s3, a3, _, _ = arena(players=2, monsters=(LURKER,))
    b3 = nxt(s3, a3)
    s3 = hand(s3, b3, NEXT_CURSE, DOWN)  # DOWN keeps b3 in the window after the curse
    s3, _ = act(s3, a3, "roll")
    s3, _ = act(s3, b3, "curse", NEXT_CURSE, a3)
    assert s3.combat.bonus == -4 and s3.players[a3].cursed == 0


def test_curses_only_on_the_living():
    """Q-CARD-8 (Q-DEATH-2): no curse on a dead munchkin."""
    s = quiet(2)
    a = s.turn.seat
    b = nxt(s, a)
    s = hand(set_player(s, b, alive=False), a, LEVEL_CURSE)
    assert refused(s, a, "curse", LEVEL_CURSE, b) != ""


# -- after the roll, curse cancelling, Cheat! ----------------------------------------------------
SIX = treasure_card(lambda d: any(e.name == "change_die" and e.get("to") == 6 for e in d.effects))
SHIELD = treasure_card(lambda d: any(e.name == "cancel_curse" for e in d.effects))
CHEAT = dxm_card(lambda d: d.kind == "cheat")
CHEAT_2 = dxm_card(lambda d: d.kind == "cheat" and d.id != CHEAT)
ELF_ONLY = treasure_card(lambda d: d.kind == "item" and d.only == ("warrior",) and d.bonus > 0 and not d.effects)


def test_a_die_changed_after_the_roll_changes_the_result():
    """Q-COMBAT-7, Q-DIGI-2: after the dice only cards that say so may be played; the seats that
    hold one get an after-roll window (the others pass by themselves), then the result applies."""
    s, a, r1, _ = arena(players=2, monsters=(LURKER2,), setup=lambda s, a: hand(s, a, SIX))
    b = nxt(s, a)
    s, ev = act(rig(s, 1, 6), a, "roll")  # 1 + 1 vs 2 + 6: a loss as rolled; b holds nothing:
    assert ("auto_pass", b, "window") in ev  # b passes by itself (Q-DIGI-2)
    assert s.combat.stage == "outcome" and s.combat.waiting == (a,) and not kinds_of(ev, "combat_result")
    assert Action(a, "set_die", (SIX, "munchkins", 0)) in legal(s, a)
    s, ev = act(s, a, "set_die", SIX, "munchkins", 0)
    assert ("die_changed", a, SIX, "munchkins", 0, 6) in ev
    r = result(ev)
    assert r.dice == (6,) and r.total == 1 + 6 and r.monster_total == 2 + 6 and r.won is False  # a tie still loses
    assert SIX in s.treasure_deck.discard


def test_a_curse_can_be_cancelled_as_it_is_played():
    """Q-CARD-8: the victim holding a Wishing-Ring-like card decides first: cancel or accept."""
    s = quiet(2)
    a = s.turn.seat
    b = nxt(s, a)
    s = set_player(s, b, level=3)
    s = hand(hand(s, a, LEVEL_CURSE), b, SHIELD)
    s, ev = act(s, a, "curse", LEVEL_CURSE, b)
    assert s.pending.kind == "curse" and set(s.pending.options) == {SHIELD, "accept"}
    s2, ev = act(s, b, "choose", SHIELD)
    assert s2.players[b].level == 3 and SHIELD in s2.treasure_deck.discard and LEVEL_CURSE in s2.dxm_deck.discard
    s3, _ = act(s, b, "choose", "accept")
    assert s3.players[b].level == 2 and SHIELD in s3.players[b].hand


def test_cheat_lifts_an_items_restrictions_and_travels_with_it():
    """Q-ITEM-4: Cheat! on an item removes its restrictions; the card goes with the item."""
    from mq.rules.character import item_bonus
    s = quiet(2)
    a = s.turn.seat
    b = nxt(s, a)
    s = hand(put(s, a, (ELF_ONLY, "worn")), a, CHEAT)
    assert item_bonus(s.players[a], CARDS, ()) == 0  # not a warrior
    s, ev = act(s, a, "cheat", CHEAT, ELF_ONLY)
    assert s.players[a].items[0].cheat == CHEAT and item_bonus(s.players[a], CARDS, ()) == CARDS.card(ELF_ONLY).bonus
    s, _ = act(s, a, "give", ELF_ONLY, b)
    assert s.players[b].items[0].cheat == CHEAT and CHEAT not in s.dxm_deck.discard
    s, _ = act(s, b, "drop", ELF_ONLY)
    assert CHEAT in s.dxm_deck.discard  # the item left play: its Cheat! is spent


TWO_HANDED = [d.id for d in CARDS.treasures if d.kind == "item" and d.hands == 2 and not d.only and not d.not_for]


def test_a_cheat_stays_on_its_item_between_backpack_and_hands():
    """Q-ITEM-4: a Cheat! travels with its item: moved to the backpack and back, the item keeps
    its Cheat! (and still needs no hands, so two two-handed weapons stay carried); the card never
    leaves the game."""
    sword, axe = TWO_HANDED[:2]
    s = quiet(2)
    a = s.turn.seat
    s = hand(put(s, a, (sword, CARRIED), (axe, BACKPACK)), a, CHEAT)
    before = census(s)
    s, _ = act(s, a, "cheat", CHEAT, sword)
    s, _ = act(s, a, "equip", axe, CARRIED)  # the Cheat! sword needs no hands: room for the axe
    s, _ = act(s, a, "equip", sword, BACKPACK)
    assert [(it.card, it.place, it.cheat) for it in s.players[a].items] == [(sword, BACKPACK, CHEAT), (axe, CARRIED, "")]
    assert census(s) == before
    s, _ = act(s, a, "equip", sword, CARRIED)
    assert [(it.card, it.place, it.cheat) for it in s.players[a].items] == [(sword, CARRIED, CHEAT), (axe, CARRIED, "")]
    assert hands_used(s.players[a].items, CARDS) == 2 and census(s) == before


def test_no_path_loses_a_cheat_card():
    """Q-ITEM-4: wherever a Cheat!-ed item goes — moved, given, used as the price of help, sold,
    lost, dropped when its owner dies — its Cheat! card goes along or to the discard pile, never
    out of the game."""
    sword, axe, club = TWO_HANDED[:3]
    s = quiet(2)
    a = s.turn.seat
    b = nxt(s, a)
    s = set_player(s, a, gold=LEVEL_PRICE - CARDS.card(axe).value - CARDS.card(club).value)
    s = hand(put(s, a, (sword, CARRIED), (axe, BACKPACK), (club, BACKPACK)), a, CHEAT, CHEAT_2, ITEM_CURSE)
    before = census(s)
    steps = [(a, "cheat", CHEAT, sword), (a, "cheat", CHEAT_2, axe), (a, "equip", axe, CARRIED),
             (a, "equip", sword, BACKPACK), (a, "give", sword, b), (b, "equip", sword, BACKPACK),
             (b, "equip", sword, CARRIED),
             (a, "buy", axe, club), (a, "curse", ITEM_CURSE, b)]
    for seat, kind, *args in steps:
        s, _ = act(s, seat, kind, *args)
        assert census(s) == before, (kind, args)
    assert s.pending.kind == "lose_item" and s.pending.options == (sword,)
    s, _ = act(s, b, "choose", sword)
    assert census(s) == before and CHEAT in s.dxm_deck.discard and CHEAT_2 in s.dxm_deck.discard


def test_a_lasting_curse_stays_until_a_cancelling_card_removes_it():
    """Q-CARD-8: curses that change stats stay in play until removed."""
    from mq.rules.character import move_total
    slow = dxm_card(lambda d: d.kind == "curse" and d.effects[0].name == "lasting_move")
    weak = dxm_card(lambda d: d.kind == "curse" and d.effects[0].name == "lasting_strength")
    s = quiet(2)
    a = s.turn.seat
    b = nxt(s, a)
    s = hand(s, a, slow, weak)
    s, _ = act(s, a, "curse", slow, b)
    s, _ = act(s, a, "curse", weak, b)
    assert s.players[b].curses == (slow, weak) and move_total(s.players[b], CARDS) == 2
    assert slow not in s.dxm_deck.discard
    s = hand(s, b, SHIELD)
    assert Action(b, "uncurse", (SHIELD, slow)) in legal(s, b)
    s, ev = act(s, b, "uncurse", SHIELD, slow)
    assert s.players[b].curses == (weak,) and move_total(s.players[b], CARDS) == 3
    assert slow in s.dxm_deck.discard and SHIELD in s.treasure_deck.discard


def test_a_mate_joins_the_fight_as_a_copy_and_leaves_its_own_card():
    """Q-CARD-6: a monster's Mate adds a copy of it to the fight; the fight needs both beaten;
    the copy's death discards the Mate card, not the monster card."""
    mate = dxm_card(lambda d: d.kind == "mate")
    s, a, r1, _ = arena(players=2, monsters=(LURKER2,))
    b = nxt(s, a)
    s = hand(s, b, mate, DOWN)  # DOWN keeps b in the window after the Mate
    uid = s.monsters[0].uid
    s, _ = act(s, a, "roll")
    s, ev = act(rig(s, ("colour", b)), b, "mate", mate, uid)
    assert ("mate", b, mate, uid) in ev and len(s.combat.monsters) == 2
    copy = s.monsters[-1]
    assert copy.card == LURKER2 and copy.mate == mate and copy.room == r1
    s = s.replace(combat=s.combat.replace(bonus=30))
    s, ev = act(s, b, "pass")
    assert ("answer", a) in ev
    s, ev = resolve(s, 1, 1, 1)
    assert result(ev).won is True and s.monsters == ()
    assert mate in s.dxm_deck.discard and s.monster_deck.discard.count(LURKER2) == 1


def test_dxm_cards_are_played_anytime_and_resolve_in_the_order_played():
    """Q-CARD-4: a DxM curse on another player's turn acts at once; Q-CARD-7: cards resolve in the
    order played — here an enhancer, then a weakening one on the same monster, both stay in order."""
    s, a, r1, _ = arena(players=2, monsters=(LURKER2,))
    b = nxt(s, a)
    s = hand(s, b, UP, DOWN)
    uid = s.monsters[0].uid
    s, _ = act(s, a, "roll")
    s, _ = act(s, b, "enhance", UP, uid)
    s, ev = act(s, b, "enhance", DOWN, uid)  # b follows up at once (Q-DIGI-2) ...
    assert s.monsters[0].enhancers == (UP, DOWN)  # ... then nobody holds anything: the window closes
    assert ("answer", a) in ev  # and the fighter may answer (Q-COMBAT-7) before rolling again
    s, ev = resolve(s, 1, 1)
    assert ("enhancers", 10 + CARDS.card(DOWN).bonus) in result(ev).monster_terms[0]


def test_a_player_may_curse_themselves():
    """Q-CARD-8 (seed 000 p.17: "any player"): a curse on yourself, anytime; you played it, so you
    are not asked whether to cancel it."""
    s = quiet(2)
    a = s.turn.seat
    s = hand(set_player(s, a, level=3), a, LEVEL_CURSE, SHIELD)
    assert Action(a, "curse", (LEVEL_CURSE, a)) in legal(s, a)
    s, ev = act(s, a, "curse", LEVEL_CURSE, a)
    assert ev[0] == ("curse", a, a, LEVEL_CURSE) and s.players[a].level == 2 and s.pending is None
    s2, a2, _, _ = arena(players=2, monsters=(LURKER2,), setup=lambda st, seat: hand(st, seat, NEXT_CURSE))
    assert Action(a2, "curse", (NEXT_CURSE, a2)) in legal(s2, a2)  # in your own fight too


def test_enhancers_are_played_anytime_on_any_monster_and_stay_on_it():
    """Q-CARD-6 (seed 000 p.10, p.17: enhancers may be used anytime, not only in combat), Q-COMBAT-13:
    outside any fight anyone may put an enhancer on a monster on the board; it stays on it into
    its next fight."""
    s = quiet(2)
    a = s.turn.seat
    b = nxt(s, a)
    from builders import add_monster, line
    s, (r1,) = line(s, 1)
    s = add_monster(s, LURKER2, r1, b)
    uid = s.monsters[0].uid
    s = hand(s, b, UP)
    assert Action(b, "enhance", (UP, uid)) in legal(s, b)  # on another's turn, outside combat
    s, ev = act(s, b, "enhance", UP, uid)
    assert ev == (("enhance", b, UP, uid),) and s.monsters[0].enhancers == (UP,) and UP not in s.players[b].hand
    s, _ = act(s, a, "move", 1)
    s, ev = resolve(s, 1, 1)
    assert ("enhancers", CARDS.card(UP).bonus) in result(ev).monster_terms[0]
