"""Death and coming back (Q-DEATH-1..4)."""
from __future__ import annotations

from builders import (
    CARDS,
    E,
    act,
    add_monster,
    colour,
    dxm_card,
    hand,
    kinds_of,
    legal,
    line,
    monster_card,
    nxt,
    put,
    quiet,
    refused,
    rig,
    set_player,
    treasure_card,
)

from mq.rules import Action, actors, is_over, winners
from mq.rules.state import OVER

BIG = monster_card(lambda d: d.movement == "lurking" and d.level >= 10 and d.dice == 0)
HELM = treasure_card(lambda d: d.kind == "item" and d.slot == "head")
SWORD = treasure_card(lambda d: d.kind == "item" and d.slot == "hands" and d.hands == 1)
LEVEL = treasure_card(lambda d: d.kind == "level")
ELF = dxm_card(lambda d: d.key == "elf")
WARRIOR = dxm_card(lambda d: d.key == "warrior")
SHOT = dxm_card(lambda d: d.kind == "oneshot")


def _doomed(s, a):
    s = set_player(s, a, hp=1, level=3, gold=450, races=(ELF,), classes=(WARRIOR,))
    s = put(s, a, (HELM, "worn"), (SWORD, "carried"))
    return hand(s, a, LEVEL, SHOT)


def _die_in_a_fight():
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, (r1,) = line(s, 1)
    s = add_monster(s, BIG, r1, b)
    s = _doomed(s, a)
    s, _ = act(s, a, "move", E)
    s = rig(s, 1, colour(5))  # lose; then the monster die shows orange (nobody)
    s, ev = act(s, a, "roll")  # b holds nothing to play: passes by itself
    return s, ev, a, b, r1


def test_dying_discards_the_hand_drops_everything_and_costs_a_level():
    """Q-DEATH-1: all HP black: the munchkin lies in the room; hand discarded; one level lost;
    gold and items dropped as a pile there; race and class stay."""
    s, ev, a, b, r1 = _die_in_a_fight()
    p = s.players[a]
    assert ("death", a, r1, "hits") in ev
    assert (p.alive, p.hp, p.level, p.gold, p.room) == (False, 0, 2, 0, r1)
    assert p.hand == () and p.items == ()
    assert p.races == (ELF,) and p.classes == (WARRIOR,)
    assert LEVEL in s.treasure_deck.discard and SHOT in s.dxm_deck.discard
    assert s.rooms[r1].pile == (HELM, SWORD) and s.rooms[r1].pile_gold == 450


def test_death_on_your_turn_goes_straight_to_the_monster_turn():
    """Q-DEATH-1: no run-away after dying; if it was your turn, the monster turn follows."""
    s, ev, a, b, r1 = _die_in_a_fight()
    names = [e.kind for e in ev]
    assert "runs" not in names and "escape_roll" not in names
    assert names.index("death") < names.index("monster_turn") < names.index("turn")
    assert s.turn.seat == b and s.combat is None


def test_the_dead_play_no_cards_but_receive_charity():
    """Q-DEATH-2: a dead munchkin may not act on themself (no cards, no healing) but still gets
    charity as a low-level munchkin."""
    s, ev, a, b, r1 = _die_in_a_fight()
    s = hand(s, a, LEVEL)
    assert legal(s, a) == ()
    assert refused(s, a, "play", LEVEL) == "dead"
    s = set_player(s, b, level=4, hand=tuple(d.id for d in CARDS.dxm[:7]))
    s, _ = act(s, b, "end_turn")
    assert s.pending.kind == "charity" and s.pending.options == (a,)
    s, ev = act(s, b, "give", s.players[b].hand[0], a)
    assert ("charity", b, a, CARDS.dxm[0].id) in ev and CARDS.dxm[0].id in s.players[a].hand


def test_coming_back_at_the_start_of_the_next_turn():
    """Q-DEATH-3: next turn: back in the Entrance with all HP, 300 gold, 2 Treasure and 2 DxM
    (then the usual turn-start DxM), and the turn goes on normally."""
    s, ev, a, b, r1 = _die_in_a_fight()
    t_top = s.treasure_deck.draw[:2]
    d_top = s.dxm_deck.draw[:3]
    s, ev = act(rig(s, colour(5)), b, "end_turn")
    p = s.players[a]
    assert s.turn.seat == a and ("respawn", a) in ev
    assert (p.alive, p.room, p.hp, p.gold, p.level) == (True, 0, 4, 300, 2)
    assert p.hand == t_top + d_top[:2] + d_top[2:]
    assert p.races == (ELF,) and p.classes == (WARRIOR,)
    names = [e.kind for e in ev]
    assert names.index("turn") < names.index("respawn")
    assert {"move", "end_turn", "suicide"} <= {x.kind for x in legal(s, a)}


def test_suicide_on_your_own_turn():
    """Q-DEATH-4: on your own turn you may blacken all HP and die (and the turn ends)."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s = _doomed(s, a)
    s = set_player(s, a, hp=4)
    assert Action(a, "suicide") in legal(s, a)
    assert refused(s, b, "suicide") == "seat/not-your-turn"
    s, ev = act(rig(s, colour(5)), a, "suicide")
    assert ("death", a, 0, "suicide") in ev
    assert not s.players[a].alive and s.players[a].hp == 0 and s.players[a].level == 2
    assert s.rooms[0].pile_gold == 450 and s.turn.seat == b


def test_suicide_anytime_even_in_combat():
    """Q-DEATH-4 / Q-TURN-4: 'at any time' on your own turn, also during a fight (not the Boss
    fight, Q-BOSS-2): the fight ends with the death, no result."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, (r1,) = line(s, 1)
    s = add_monster(s, BIG, r1, b)
    s, _ = act(s, a, "move", E)
    assert Action(a, "suicide") in legal(s, a)
    s, ev = act(rig(s, colour(5)), a, "suicide")
    assert ("death", a, r1, "suicide") in ev and not kinds_of(ev, "combat_result")
    assert s.combat is None and s.turn.seat == b and [m.room for m in s.monsters] == [r1]


def _dead(s, seat):
    """``seat`` lies dead where they stand (Q-DEATH-1: no HP, no gold, nothing in play)."""
    return set_player(s, seat, alive=False, hp=0, gold=0, items=())


def test_the_monsters_win_when_the_last_munchkin_dies():
    """Q-DEATH-5: every munchkin dead at once: the game ends there, with no winner — no monster
    turn, nobody comes back, nobody may act."""
    s = quiet(3)
    a = s.turn.seat
    b, c = nxt(s, a), nxt(s, nxt(s, a))
    s = _dead(_dead(s, b), c)
    s, ev = act(s, a, "suicide")
    assert ("monsters_win",) in ev and ev[-1] == ("monsters_win",)
    assert is_over(s) and s.phase == OVER and winners(s) == () and actors(s) == ()
    assert s.combat is None and s.pending is None
    assert not kinds_of(ev, "monster_turn") and not kinds_of(ev, "respawn")
    assert all(legal(s, seat) == () for seat in range(3))
    assert refused(s, a, "end_turn") == "game/over"


def test_the_monsters_win_when_fighter_and_helper_die_in_one_fight():
    """Q-DEATH-5: the last two munchkins die of the same defeat (the fighter and their helper):
    the monsters win, the fight is over."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, (r1,) = line(s, 1)
    s = add_monster(s, BIG, r1, b)
    s = set_player(set_player(s, a, hp=1), b, hp=1)
    s, _ = act(s, a, "move", E)
    s, _ = act(s, a, "ask")
    s, _ = act(s, b, "offer", 0, 0)
    s, _ = act(s, a, "accept", b)
    s, ev = act(rig(s, 1, 1), a, "roll")
    assert kinds_of(ev, "death") == [("death", a, r1, "hits"), ("death", b, r1, "hits")]
    assert ev[-1] == ("monsters_win",) and s.phase == OVER and s.winners == ()
    assert s.combat is None and not kinds_of(ev, "respawn")


def test_one_munchkin_alive_keeps_the_game_going():
    """Q-DEATH-5 needs every munchkin dead: a dead one among the living changes nothing."""
    s = quiet(3)
    a = s.turn.seat
    b = nxt(s, a)
    s = _dead(s, b)
    s, ev = act(rig(s, colour(5)), a, "suicide")
    assert not kinds_of(ev, "monsters_win") and s.phase != OVER and s.turn.seat == b
    assert ("respawn", b) in ev


UP = dxm_card(lambda d: d.kind == "enhancer" and d.bonus > 0)
CURSE = dxm_card(lambda d: d.kind == "curse" and d.effects[0].name == "lose_levels")
SIX = treasure_card(lambda d: any(e.name == "change_die" for e in d.effects))
PUSH = treasure_card(lambda d: d.kind == "oneshot" and d.bonus > 0 and not d.throwable)
TOUGH = monster_card(lambda d: d.movement == "lurking" and d.level == 2 and d.dice == 1 and not d.ignores
                     and not d.bonuses and not d.rewards)


def _dead_bystander():
    """``a`` fights next to the Entrance, where ``b`` lies dead holding cards for the fight."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, (r1,) = line(s, 1)
    s = add_monster(s, TOUGH, r1, b)
    s = hand(_dead(s, b), b, UP, LEVEL, PUSH, SIX)
    s, _ = act(s, a, "move", E)
    return s, a, b


def test_dead_munchkins_play_cards_in_a_fight_but_none_on_themselves():
    """Q-DEATH-2, Q-CARD-4: a dead munchkin is not passed by itself in the interrupt window: they
    may play an enhancer, a one-shot for either side, a die changer after the roll — but not a
    go-up-a-level card (that would be on themselves)."""
    s, a, b = _dead_bystander()
    s, ev = act(s, a, "roll")
    assert not kinds_of(ev, "auto_pass") and s.combat.stage == "window" and s.combat.waiting == (b,)
    mine = legal(s, b)
    uid = s.monsters[0].uid
    assert Action(b, "enhance", (UP, uid)) in mine
    assert Action(b, "use", (PUSH, "monsters")) in mine and Action(b, "use", (PUSH, "munchkins")) in mine
    assert Action(b, "play", (LEVEL,)) not in mine and not any(x.kind == "discard" for x in mine)
    s, ev = act(s, b, "enhance", UP, uid)
    assert s.monsters[0].enhancers == (UP,) and s.combat.waiting == (b,)  # a has nothing to answer with
    s, _ = act(s, b, "pass")
    assert s.combat.stage == "prepare"  # the fighter may answer the enhancer (Q-COMBAT-7)
    s, _ = act(s, a, "roll")
    assert s.combat.waiting == (b,)  # b is asked again, dead or not
    s, _ = act(rig(s, 1, 6), b, "pass")
    assert s.combat.stage == "outcome" and b in s.combat.waiting  # b holds a die changer
    assert Action(b, "set_die", (SIX, "munchkins", 0)) in legal(s, b)


def test_dead_munchkins_curse_the_living_outside_combat():
    """Q-DEATH-2, Q-CARD-8: a curse is anytime, and a dead munchkin may still play one on a
    living munchkin (never on themselves)."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s = set_player(s, a, level=3)
    s = hand(_dead(s, b), b, CURSE, LEVEL)
    assert [x for x in legal(s, b)] == [Action(b, "curse", (CURSE, a))]
    s, ev = act(s, b, "curse", CURSE, a)
    assert s.players[a].level == 2 and ("curse", b, a, CURSE) in ev
