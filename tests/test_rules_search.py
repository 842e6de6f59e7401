"""Searching rooms and picking up dropped items (Q-SEARCH-1..4)."""
from __future__ import annotations

import pytest
from builders import (
    CARDS,
    act,
    add_monster,
    add_room,
    colour,
    dxm_card,
    face,
    fresh_turn,
    hand,
    icons_miss,
    kinds_of,
    legal,
    monster_card,
    nxt,
    put,
    quiet,
    refused,
    rig,
    set_player,
    stack,
    texts,
    treasure_card,
)

from mq.rules import Action
from mq.rules.state import LOOTED, SEARCHED, UNMARKED

HUMAN = ("human", "male", "female")


def _room(s, seat, search=0, mark=UNMARKED, f=None, spent=0):
    """Put ``seat`` alone in a fresh, walled, monster-free room with that search modifier (and no
    icon for a human of either gender, so one die)."""
    f = f or face(lambda x: x.search == search and not x.no_search and icons_miss(x.green + x.red, *HUMAN))
    s = add_room(s, 7, 7, (4, 4, 4, 4), face=f)
    j = len(s.rooms) - 1
    s = s.replace(rooms=s.rooms[:j] + (s.rooms[j].replace(mark=mark),))
    s = set_player(s, seat, room=j)
    return fresh_turn(s, seat, spent=spent), j


def _search(s, seat, *dice):
    s = rig(s, *dice)
    return act(s, seat, "search")


@pytest.mark.parametrize("die,gold,treasures,mark", [
    (2, 300, 0, UNMARKED), (3, 400, 0, UNMARKED), (4, 500, 0, UNMARKED),
    (5, 100, 1, SEARCHED), (6, 300, 1, SEARCHED),
])
def test_search_table_with_one_die(die, gold, treasures, mark):
    """Q-SEARCH-1: one die, results 2..6 of the table."""
    s = quiet(2)
    a = s.turn.seat
    s, j = _room(s, a)
    top = s.treasure_deck.draw[:treasures]
    s2, ev = _search(s, a, die)
    p = s2.players[a]
    assert ("search", a, j, (die,), die) in ev
    assert p.gold == 300 + gold and p.hand == top
    assert s2.rooms[j].mark == mark and s2.turn.spent == 1 and s2.turn.searched == (j,)
    assert ("search_found", a, gold, treasures, mark) in ev


@pytest.mark.parametrize("dice,gold,treasures", [((3, 4), 0, 2), ((4, 4), 500, 2), ((4, 5), 0, 3), ((6, 6), 0, 3)])
def test_high_results_loot_the_room(dice, gold, treasures):
    """Q-SEARCH-1: 9, 10 and 11+ (capped at 11) with two dice (a green icon for the searcher's
    class, Q-COMBAT-6) and a +2 room: they mark the room Looted!"""
    f = face(lambda x: x.search == 2 and len(x.green) == 1 and not x.red and icons_miss(x.green, *HUMAN)
             and all(e.name.startswith("deal_") for e in x.effects))  # deals change no roll
    card = dxm_card(lambda d: d.kind in ("race", "class") and d.key == CARDS.face(f).green[0].word)
    s = quiet(2)
    a = s.turn.seat
    kind = "races" if CARDS.card(card).kind == "race" else "classes"
    s = set_player(s, a, **{kind: (card,)})
    s, j = _room(s, a, f=f)
    s2, ev = _search(s, a, *dice)
    assert ("search", a, j, dice, sum(dice) + 2) in ev
    assert s2.players[a].gold == 300 + gold and len(s2.players[a].hand) == treasures
    assert s2.rooms[j].mark == LOOTED


@pytest.mark.parametrize("search,die", [(0, 1), (2, 5), (-2, 3)])
def test_one_or_less_and_seven_bring_a_monster(search, die):
    """Q-SEARCH-1: a result of 1 or less, or exactly 7, makes a monster appear: fight it."""
    s = quiet(2)
    a = s.turn.seat
    s, j = _room(s, a, search=search)
    s = stack(s, "monster", [monster_card()])
    s2, ev = _search(s, a, die, colour(a))
    assert kinds_of(ev, "search")[0][-1] in (1, 7)
    assert s2.players[a].gold == 300 and not [e for e in kinds_of(ev, "draw") if e.deck == "treasure"]
    assert kinds_of(ev, "monster_appears")[0][2:4] == (monster_card(), j)
    assert s2.combat is not None and s2.combat.fighter == a and s2.combat.room == j


def test_zero_dice_roll_zero_before_modifiers():
    """Q-SEARCH-1: a red icon against the searcher leaves no die: the result is the modifier."""
    f = face(lambda x: "human" in texts(x.red) and not x.no_search)
    s = quiet(2)
    a = s.turn.seat
    s, j = _room(s, a, f=f)
    s2, ev = _search(s, a, colour(a))
    assert kinds_of(ev, "search")[0][3:] == ((), CARDS.face(f).search)


def test_a_searched_room_has_no_penalty_and_searched_twice_is_looted():
    """Q-SEARCH-1: a "Searched!" room is searched like any other (no -1: the rulebook has none);
    Q-SEARCH-2: Searched! on a Searched! room makes it Looted!"""
    s = quiet(2)
    a = s.turn.seat
    s, j = _room(s, a, mark=SEARCHED)
    s2, ev = _search(s, a, 3)
    assert kinds_of(ev, "search")[0][-1] == 3 and s2.players[a].gold == 700
    assert s2.rooms[j].mark == SEARCHED
    s3, ev = _search(s, a, 5)  # 5: 100 gold, a Treasure, Searched! -> Looted!
    assert kinds_of(ev, "search")[0][-1] == 5
    assert s3.players[a].gold == 400 and len(s3.players[a].hand) == 1
    assert s3.rooms[j].mark == LOOTED


def test_search_limits():
    """Q-SEARCH-1: costs 1 move; once per room per turn; never with a monster present; never in a
    no-search room (the Entrance is one) or a Looted! room."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    assert refused(s, a, "search") == "search/forbidden"  # the Entrance
    s1, j = _room(s, a)
    s2, _ = _search(s1, a, 2)
    assert refused(s2, a, "search") == "search/done"
    s3, _ = _room(s, a, spent=3)
    assert refused(s3, a, "search") == "search/not-enough"
    s4, _ = _room(s, a, mark=LOOTED)
    assert refused(s4, a, "search") == "search/forbidden"
    s5, _ = _room(s, a, f=face(lambda x: x.no_search))
    assert refused(s5, a, "search") == "search/forbidden"
    ignorer = monster_card(lambda d: "halfling" in d.ignores)
    halfling = dxm_card(lambda d: d.key == "halfling")
    s6 = add_monster(set_player(s1, a, races=(halfling,)), ignorer, j, b)
    assert refused(s6, a, "search") == "search/monster"  # even an ignoring one (Q-COMBAT-2)


def test_treasure_is_face_down_alone_and_face_up_with_company():
    """Q-SEARCH-3: drawn face-down when no other munchkin is in the room, face-up otherwise."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, j = _room(s, a)
    _, ev = _search(s, a, 5)
    assert [e.public for e in kinds_of(ev, "draw")] == [False]
    _, ev = _search(set_player(s, b, room=j), a, 5)
    assert [e.public for e in kinds_of(ev, "draw")] == [True]
    _, ev = _search(set_player(s, b, room=j, alive=False), a, 5)
    assert [e.public for e in kinds_of(ev, "draw")] == [False]  # the dead do not watch


def test_dropped_items_form_a_pile_picking_up_costs_one_move():
    """Q-SEARCH-4: a dropped item lies in the room for all to see; picking up every pile costs 1."""
    helm = treasure_card(lambda d: d.kind == "item" and d.slot == "head")
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, j = _room(s, a)
    s = set_player(s, b, room=j)
    s = put(s, b, (helm, "worn"))
    assert refused(s, a, "pickup") == "pickup/nothing"
    s, ev = act(s, b, "drop", helm)  # anyone, at any time
    assert s.rooms[j].pile == (helm,) and ("drop", b, helm, j) in ev
    s = s.replace(rooms=s.rooms[:j] + (s.rooms[j].replace(pile_gold=250),) + s.rooms[j + 1:])
    s, ev = act(s, a, "pickup")
    assert s.players[a].hand == (helm,) and s.players[a].gold == 550
    assert s.rooms[j].pile == () and s.rooms[j].pile_gold == 0 and s.turn.spent == 1
    assert ("pick_up", a, (helm,), 250) in ev


def test_a_search_picks_up_for_free():
    """Q-SEARCH-4: a search takes the piles without the extra move."""
    helm = treasure_card(lambda d: d.kind == "item" and d.slot == "head")
    s = quiet(2)
    a = s.turn.seat
    s, j = _room(s, a)
    s = s.replace(rooms=s.rooms[:j] + (s.rooms[j].replace(pile=(helm,)),) + s.rooms[j + 1:])
    s2, ev = _search(s, a, 2)
    assert s2.players[a].hand == (helm,) and s2.players[a].gold == 600 and s2.turn.spent == 1


def test_a_search_picks_up_after_the_fight_it_caused():
    """Q-SEARCH-4: 'after any fight the search causes': the free pick-up waits for the fight."""
    helm = treasure_card(lambda d: d.kind == "item" and d.slot == "head")
    weak = monster_card(lambda d: d.level == 1 and d.dice == 0 and not d.rewards)
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, j = _room(s, a)
    s = s.replace(rooms=s.rooms[:j] + (s.rooms[j].replace(pile=(helm,)),) + s.rooms[j + 1:])
    s = stack(s, "monster", [weak])
    s, ev = _search(s, a, 1, colour(b))
    assert s.combat is not None and s.rooms[j].pile == (helm,)
    s = rig(s, 6)
    s, ev = act(s, a, "roll")
    assert kinds_of(ev, "pick_up") and helm in s.players[a].hand
    assert s.rooms[j].pile == () and s.turn.spent == 1


def test_gold_can_be_dropped_in_any_amount_and_picked_up():
    """Q-SEARCH-4: anyone may drop gold (any amount, outside a fight); it lies in the room's pile
    and picking it up costs 1 move."""
    s = quiet(2)
    a, b = s.turn.seat, 1 - s.turn.seat
    s = set_player(s, b, gold=500)
    s, ev = act(s, b, "drop", 120)
    assert ev == (("drop_gold", b, 120, 0),)
    assert s.players[b].gold == 380 and s.rooms[0].pile_gold == 120
    assert refused(s, b, "drop", 381) != ""
    assert Action(a, "pickup") in legal(s, a)
    s, _ = act(s, a, "pickup")
    assert s.players[a].gold == 300 + 120 and s.rooms[0].pile_gold == 0 and s.turn.spent == 1



def test_room_deals_cost_a_move_and_work_once_per_turn():
    """Q-SEARCH-5: buy Treasure for gold, or sell an item, as the room says: 1 move, once per
    turn, never with a monster present."""
    shop = face(lambda x: any(e.name == "deal_buy" for e in x.effects))
    price, n = next((e.get("price"), e.get("n")) for e in CARDS.face(shop).effects if e.name == "deal_buy")
    s = quiet(2)
    a = s.turn.seat
    s = set_player(s, a, gold=price + 50)
    s, j = _room(s, a, f=shop)
    top = s.treasure_deck.draw[:n]
    s2, ev = act(s, a, "deal", "buy")
    assert s2.players[a].gold == 50 and s2.players[a].hand == top and s2.turn.spent == 1
    assert Action(a, "deal", ("buy",)) not in legal(s2, a)  # once per turn
    busy = add_monster(s, monster_card(lambda d: d.movement == "lurking" and not d.ignores), j, a)
    assert Action(a, "deal", ("buy",)) not in legal(busy, a)
    buyback = face(lambda x: any(e.name == "deal_sell" for e in x.effects))
    pct = next(e.get("percent") for e in CARDS.face(buyback).effects if e.name == "deal_sell")
    item = treasure_card(lambda d: d.kind == "item" and d.value >= 200)
    s = put(quiet(2), a, (item, "worn"))
    s, j = _room(s, a, f=buyback)
    s2, _ = act(s, a, "deal", "sell", item)
    assert s2.players[a].gold == 300 + CARDS.card(item).value * pct // 100 and s2.players[a].items == ()


def test_room_deals_sell_only_items_in_play():
    """Q-SEARCH-5, Q-CARD-9: cards in hand are not in play: a room's buyer takes no card from the
    hand."""
    buyback = face(lambda x: any(e.name == "deal_sell" for e in x.effects))
    item, other = [d.id for d in CARDS.treasures if d.kind == "item" and d.value >= 200 and d.slot == "head"][:2]
    s = quiet(2)
    a = s.turn.seat
    s = hand(put(s, a, (item, "worn")), a, other)
    s, j = _room(s, a, f=buyback)
    deals = [x for x in legal(s, a) if x.kind == "deal"]
    assert deals == [Action(a, "deal", ("sell", item))]
    assert refused(s, a, "deal", "sell", other) != ""


def test_items_and_gold_may_be_dropped_during_a_fight_too():
    """Q-SEARCH-4 ("anyone may drop items or gold at any time"): in a fight as well — the fighter
    before rolling, a bystander in the interrupt window; the item leaves play and its bonus the
    fight.  Dropping cannot change a fight for the one who drops, so a seat whose only other
    choice is to pass is still passed by itself (Q-DIGI-2)."""
    from test_rules_combat import SWORD, arena, result

    from mq.rules import actors
    from mq.rules.windows import can_act
    s, a, r1, _ = arena(players=3, setup=lambda s, a: put(s, a, (SWORD, "carried")))
    b = nxt(s, a)
    c = nxt(s, b)
    s = put(s, b, (treasure_card(lambda d: d.kind == "item" and d.slot == "head"), "worn"))
    helm = s.players[b].items[0].card
    assert {Action(a, "drop", (SWORD,)), Action(a, "drop", (300,))} <= set(legal(s, a))
    s, ev = act(s, a, "drop", SWORD)
    assert ("drop", a, SWORD, r1) in ev and s.rooms[r1].pile == (SWORD,) and s.players[a].items == ()
    s = hand(s, c, treasure_card(lambda d: d.kind == "oneshot" and d.bonus > 0 and not d.effects))
    s, ev = act(s, a, "roll")
    assert ("auto_pass", b, "window") in ev and not can_act(s, b, CARDS) and actors(s) == (c,)
    assert Action(b, "drop", (helm,)) in legal(s, b) and Action(b, "drop", (300,)) in legal(s, b)
    s, ev = act(s, b, "drop", 100)
    assert ev == (("drop_gold", b, 100, 0),) and s.rooms[0].pile_gold == 100
    s, ev = act(rig(s, 6), c, "pass")
    assert ("items", 0) in result(ev).terms
