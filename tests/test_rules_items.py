"""Giving items and gold (Q-ITEM-7), throwing items into fights (Q-ITEM-9), and one-shots: onto the
belt and outside combat (Q-ITEM-1, Q-CARD-3, Q-CARD-4)."""
from __future__ import annotations

from builders import (
    CARDS,
    act,
    colour,
    hand,
    kinds_of,
    legal,
    line,
    nxt,
    put,
    quiet,
    refused,
    rig,
    set_player,
    take,
)
from test_rules_combat import LURKER2, arena, resolve, result

from mq.rules import Action, make_params, new_game
from mq.rules.state import BELT, CARRIED, WORN

HAT = next(d.id for d in CARDS.treasures if d.kind == "item" and d.slot == "head" and not d.effects)
THROWN = next(d.id for d in CARDS.treasures if d.kind == "item" and d.throwable and d.bonus > 0)
BEES = next(d.id for d in CARDS.treasures if d.kind == "oneshot" and d.throwable and d.bonus > 0)


def test_items_and_gold_go_to_neighbours_and_stay_in_play():
    """Q-ITEM-7: outside combat, to a munchkin in the same or an adjacent room; a given item stays
    in play for the receiver; any amount of gold."""
    s = quiet(2)
    a = s.turn.seat
    b = nxt(s, a)
    s = put(s, a, (HAT, WORN))
    s, ev = act(s, a, "give", HAT, b)
    assert ev == (("gift", a, b, HAT),)
    assert s.players[a].items == () and [(it.card, it.place) for it in s.players[b].items] == [(HAT, WORN)]
    s, _ = act(s, a, "give", 120, b)
    assert s.players[a].gold == 180 and s.players[b].gold == 420


def test_no_gifts_far_away_or_during_a_fight():
    """Q-ITEM-7 (Q-COMBAT-11): not two rooms away, not in combat."""
    s = quiet(2)
    a = s.turn.seat
    b = nxt(s, a)
    s, (r1, r2) = line(s, 2)
    s = put(set_player(s, b, room=r2), a, (HAT, WORN))
    assert refused(s, a, "give", HAT, b) != "" and refused(s, a, "give", 10, b) != ""
    s2, a2, _, _ = arena(monsters=(LURKER2,), setup=lambda st, seat: put(st, seat, (HAT, WORN)))
    assert not any(x.kind == "give" for x in legal(s2, a2))


def test_a_throwable_item_is_thrown_from_next_door_for_either_side():
    """Q-ITEM-9: in a fight in your room or an adjacent one, for either side; then discarded."""
    s, a, r1, _ = arena(players=2, monsters=(LURKER2,))
    b = nxt(s, a)
    s = put(s, b, (THROWN, CARRIED))  # b waits in the Entrance, next to the fight
    s = hand(s, b, BEES)  # and holds a second one-shot, so the window waits for b after the first
    s, _ = act(s, a, "roll")
    assert Action(b, "use", (THROWN, "munchkins")) in legal(s, b)
    s, _ = act(s, b, "use", THROWN, "munchkins")
    assert s.combat.bonus == CARDS.card(THROWN).bonus and s.players[b].items == ()
    s, ev = act(s, b, "pass")
    assert ("answer", a) in ev  # Q-COMBAT-7: the fighter may answer before rolling again
    s, ev = resolve(s, 6, 1)
    assert ("one-shots", CARDS.card(THROWN).bonus) in result(ev)[2] and result(ev)[8] is True
    assert THROWN in s.treasure_deck.discard  # spent with the fight


def test_throwables_need_to_be_near_the_fight_other_one_shots_do_not():
    """Q-ITEM-9 against Q-HELP-3: a throwable from two rooms away is refused."""
    s, a, r1, _ = arena(players=2, monsters=(LURKER2,))
    b = nxt(s, a)
    s, (far,) = line(s, 1, y=7)
    s = hand(set_player(s, b, room=far), b, BEES)
    near = set_player(s, b, room=0)
    s, ev = act(s, a, "roll")
    assert ("auto_pass", b, "window") in ev  # nothing b could use from there: not waited for
    near, ev = act(near, a, "roll")
    assert not kinds_of(ev, "auto_pass") and Action(b, "use", (BEES, "monsters")) in legal(near, b)


# -- one-shots: onto the belt, and outside combat (Q-ITEM-1, Q-CARD-3, Q-CARD-4) ------------------
def _effect(d, name):
    return any(e.name == name for e in d.effects)


BOOST = next(d.id for d in CARDS.treasures if d.kind == "oneshot" and d.bonus > 0 and not d.throwable)
BOOSTS = [d.id for d in CARDS.treasures if d.kind == "oneshot" and d.bonus > 0][:3]
T_HEAL = next(d.id for d in CARDS.treasures if d.kind == "oneshot" and d.bonus == 0 and _effect(d, "heal"))
D_HEAL = next(d.id for d in CARDS.dxm if d.kind == "oneshot" and _effect(d, "heal"))
T_AWAY = next(d.id for d in CARDS.treasures if d.kind == "oneshot" and _effect(d, "teleport"))
D_AWAY = next(d.id for d in CARDS.dxm if d.kind == "oneshot" and _effect(d, "teleport"))


def test_a_one_shot_goes_from_hand_onto_the_belt_any_number():
    """Q-ITEM-1 (seed 000 p.16): one-shot Treasure may be put from hand onto the belt whenever items
    may be put into play (Q-CARD-3: your own turn, outside combat); the belt holds any number; from
    there it no longer counts toward the hand limit (Q-CHARITY) and is used as from the hand."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s = hand(hand(s, a, *BOOSTS), b, BOOST)
    for card in BOOSTS:
        s, ev = act(s, a, "play", card)
        assert ev == (("item", a, card, BELT),)
    assert s.players[a].hand == () and [(it.card, it.place) for it in s.players[a].items] == [(c, BELT) for c in BOOSTS]
    assert refused(s, b, "play", BOOST) == "seat/not-your-turn"  # not on another's turn (unless newly gained)
    s = hand(s, a, *[d.id for d in CARDS.dxm if d.kind == "oneshot"][:5])
    s2, _ = act(rig(s, colour(5)), a, "end_turn")
    assert s2.pending is None  # 5 cards in hand: the three on the belt do not count


def test_one_shots_on_the_belt_are_used_in_a_fight_and_not_put_there_during_one():
    """Q-ITEM-1, Q-COMBAT-11: from the belt a one-shot is used as from the hand; no item (nor a
    one-shot onto the belt) goes into play during combat."""
    s, a, r1, _ = arena(monsters=(LURKER2,), setup=lambda st, seat: hand(put(st, seat, (BOOST, BELT)), seat, BOOSTS[1]))
    assert Action(a, "use", (BOOST,)) in legal(s, a)
    assert refused(s, a, "play", BOOSTS[1]) == "combat/in-combat"
    s, _ = act(s, a, "use", BOOST)
    assert s.combat.bonus == CARDS.card(BOOST).bonus and s.players[a].items == ()


def test_a_one_shot_goes_onto_the_belt_before_the_first_turn():
    """Q-SETUP-3, Q-ITEM-1: before the first turn, items — one-shots onto the belt — go into play."""
    s = new_game(make_params(2), 7)
    s = set_player(take(s, [BOOST]), 0, hand=(BOOST,))
    s, ev = act(s, 0, "play", BOOST)
    assert ev == (("item", 0, BOOST, BELT),)


def test_healing_one_shots_work_outside_combat_on_anyone_s_turn():
    """Q-CARD-3, Q-CARD-4: outside combat a one-shot is usable where its effect means something —
    healing a wound — from hand or belt, Treasure or DxM, on anyone's turn; at full HP it means
    nothing (refused), and a fight bonus means nothing outside a fight."""
    s = quiet(2)
    b = nxt(s)  # on the active seat's turn
    s = hand(put(set_player(s, b, hp=1), b, (T_HEAL, BELT)), b, D_HEAL, BOOST)
    assert {x.args[0] for x in legal(s, b) if x.kind == "use"} == {T_HEAL, D_HEAL}
    assert refused(s, b, "use", BOOST) == "combat/none"
    s, ev = act(s, b, "use", D_HEAL)
    assert ev[0] == ("use", b, D_HEAL, "munchkins") and kinds_of(ev, "heal")
    assert D_HEAL in s.dxm_deck.discard and D_HEAL not in s.players[b].hand
    s, _ = act(s, b, "use", T_HEAL)
    assert s.players[b].hp == min(4, 1 + sum(e.get("amount", 1) for c in (D_HEAL, T_HEAL)
                                             for e in CARDS.card(c).effects if e.name == "heal"))
    assert T_HEAL in s.treasure_deck.discard and s.players[b].items == ()
    s = hand(set_player(s, b, hp=4), b, T_HEAL)
    assert refused(s, b, "use", T_HEAL) == "card/no-effect"
    dead = hand(set_player(s, b, hp=0, alive=False), b, D_HEAL)
    assert refused(dead, b, "use", D_HEAL) != ""  # Q-DEATH-2: no card on yourself while dead


def test_magic_movement_works_outside_combat():
    """Q-CARD-3, Q-TURN-5: a one-shot that moves its user by magic to the Entrance works outside
    combat too (not from the Entrance itself, where it would do nothing)."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, (r1,) = line(s, 1)
    s = hand(hand(set_player(s, a, room=r1), a, T_AWAY), b, D_AWAY)
    assert refused(s, b, "use", D_AWAY) == "card/no-effect"  # b stands in the Entrance
    s, ev = act(s, a, "use", T_AWAY)
    assert ("teleport", a, 0) in ev and s.players[a].room == 0 and T_AWAY in s.treasure_deck.discard
