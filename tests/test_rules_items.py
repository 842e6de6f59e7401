"""Giving items and gold (Q-ITEM-7) and throwing items into fights (Q-ITEM-9)."""
from __future__ import annotations

from builders import CARDS, act, hand, kinds_of, legal, line, nxt, put, quiet, refused, set_player
from mq.rules import Action
from mq.rules.state import CARRIED, WORN
from test_rules_combat import LURKER2, arena, resolve, result

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
