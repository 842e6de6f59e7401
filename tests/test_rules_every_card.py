"""Every card of the default set is played at least once where it matters (issue "every card
interaction"): each Treasure and DxM card is put in a hand in a few typical positions — your own
turn, your fight before the roll, another player's fight window, after the roll, a curse played on
you — and one legal action that uses it must apply and change the state; each Monster card is
met by exploring and must start a fight or be ignorable."""
from __future__ import annotations

import pytest
from builders import CARDS, act, hand, nxt, put, quiet, rig, set_player, stack
from test_rules_combat import LURKER2, arena

from mq.rules import full_hash, legal_actions, step


def _positions(card):
    """Positions where ``card`` sits in a hand, paired with the seat holding it."""
    s = hand(set_player(quiet(2), quiet(2).turn.seat, level=5), quiet(2).turn.seat, card)
    yield s, s.turn.seat                                   # own turn, outside combat
    f, a, _, _ = arena(monsters=(LURKER2,), setup=lambda st, seat: hand(set_player(st, seat, level=5), seat, card))
    yield f, a                                             # own fight, before the roll
    w, a2, _, _ = arena(monsters=(LURKER2,))
    b = nxt(w, a2)
    w = hand(w, b, card)
    w, _ = act(w, a2, "roll")
    yield w, b                                             # someone else's interrupt window
    o, a3, _, _ = arena(monsters=(LURKER2,), setup=lambda st, seat: hand(st, seat, card))
    o, _ = act(rig(o, 1, 1), a3, "roll")
    yield o, a3                                            # after the roll (die changers)
    c = quiet(2)
    victim = nxt(c, c.turn.seat)
    curse = next(d.id for d in CARDS.dxm if d.kind == "curse" and d.effects[0].name == "lose_levels")
    c = hand(hand(set_player(c, victim, level=3), c.turn.seat, curse), victim, card)
    c, _ = act(c, c.turn.seat, "curse", curse, victim)
    yield c, victim                                        # a curse being played on you
    g = quiet(2)
    me = g.turn.seat
    race = next(d.id for d in CARDS.dxm if d.kind == "race" and d.key == "dwarf")
    klass = next(d.id for d in CARDS.dxm if d.kind == "class" and d.key == "cleric")
    hat = next(d.id for d in CARDS.treasures if d.kind == "item" and d.slot == "head" and not d.only)
    g = hand(put(set_player(g, me, races=(race,), classes=(klass,)), me, (hat, "worn")), me, card)
    yield g, me                                            # a race, a class and an item in play
    r, a4, _, _ = arena(monsters=(LURKER2,), setup=lambda st, seat: hand(st, seat, card))
    r, _ = act(rig(r, 1, 6), a4, "roll")
    if r.combat is not None and r.combat.stage == "run":
        r, _ = act(r, a4, "run", 0)
    yield r, a4                                            # running away, before the rolls


def _uses(action, card) -> bool:
    return card in action.args


PLAYABLE = [d.id for d in CARDS.treasures + CARDS.dxm]


@pytest.mark.parametrize("card", PLAYABLE)
def test_every_treasure_and_dxm_card_can_be_played_somewhere(card):
    for s, seat in _positions(card):
        if card not in s.players[seat].hand:
            continue
        uses = [a for a in legal_actions(s, seat) if _uses(a, card)]
        if uses:
            before = full_hash(s)
            s2, _ = step(s, uses[0])
            assert full_hash(s2) != before
            return
    pytest.fail(f"{card} ({CARDS.card(card).kind}) could not be played in any typical position")


@pytest.mark.parametrize("monster", [d.id for d in CARDS.monsters])
def test_every_monster_can_be_met_and_fought(monster):
    s = quiet(2)
    a = s.turn.seat
    s = stack(s, "monster", (monster,))
    s, ev = act(rig(s, None, None, None, None, ("colour", nxt(s, a))), a, "move", 1)
    assert any(e.kind == "monster_appears" and e.card == monster for e in ev)
    if s.combat is None:  # it ignores this munchkin: they may still choose to fight (Q-COMBAT-2)
        s, ev = act(s, a, "fight")
    assert s.combat is not None and s.combat.monsters
    s, ev = act(s, a, "roll")
    while s.combat is not None and s.combat.stage == "window":
        s, ev = act(s, s.combat.waiting[0], "pass")
    assert any(e.kind == "combat_result" for e in ev)

