"""A player's turn (Q-TURN): its phases, what anyone may do anytime, what only the active player
may do, and a turn that starts in a monster's room."""
from __future__ import annotations

from builders import (
    CARDS,
    PLAIN,
    E,
    W,
    act,
    add_monster,
    colour,
    dxm_card,
    hand,
    kinds_of,
    legal,
    legal_kinds,
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

from mq.rules import Action

LEVEL = treasure_card(lambda d: d.kind == "level")
RACE = dxm_card(lambda d: d.kind == "race")
HELM = treasure_card(lambda d: d.kind == "item" and d.slot == "head" and not d.only and not d.not_for)
TELEPORT = dxm_card(lambda d: any(e.name == "teleport" for e in d.effects))
LURKER = monster_card(lambda d: d.movement == "lurking" and d.level == 1 and not d.ignores)


def test_turn_phases_charity_then_monster_turn_then_next_draw():
    """Q-TURN-1: the turn ends with charity, then the monster turn, then the next player's turn
    begins by drawing one DxM."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s = rig(s, colour(5))  # orange: nobody draws for the monster die
    s2, ev = act(s, a, "end_turn")
    names = [e.kind for e in ev]
    assert names == ["monster_turn", "turn", "draw"]
    assert ev[1] == ("turn", b, s.turn.number + 1)
    assert (ev[2].seat, ev[2].deck) == (b, "dxm") and s2.players[b].hand == (ev[2].card,)
    assert s2.turn.seat == b and s2.turn.spent == 0


def test_charity_comes_before_the_monster_turn():
    """Q-TURN-1 phase 3: with too many cards, the charity decision comes first."""
    s = quiet(2)
    a = s.turn.seat
    s = set_player(s, a, hand=tuple(d.id for d in CARDS.dxm[:7]))
    s2, ev = act(s, a, "end_turn")
    assert s2.pending is not None and s2.pending.kind == "charity"
    assert not kinds_of(ev, "monster_turn") and s2.turn.seat == a


def test_movement_phase_mixes_moves_and_searches_within_the_budget():
    """Q-TURN-1 phase 2: moves and searches in any order, until the 3 move are spent."""
    s = quiet(2)
    a = s.turn.seat
    s, (r1, r2, r3) = line(s, 3)
    s = rig(s, 4 - CARDS.face(PLAIN).search)  # the search result is 4: 500 gold, no monster
    s, _ = act(s, a, "move", E)
    s, ev = act(s, a, "search")
    assert s.turn.spent == 2 and kinds_of(ev, "search_found") and s.combat is None
    s, _ = act(s, a, "move", E)
    assert s.players[a].room == r2 and s.turn.spent == 3
    assert "move" not in legal_kinds(s, a) and "search" not in legal_kinds(s, a)
    assert Action(a, "dash", (E,)) in legal(s, a) and Action(a, "end_turn") in legal(s, a)


def test_anyone_plays_level_cards_and_races_anytime():
    """Q-TURN-2: on someone else's turn a player may go up a level and add or discard a race."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s = hand(s, b, LEVEL, RACE)
    assert {Action(b, "play", (LEVEL,)), Action(b, "play", (RACE,))} <= set(legal(s, b))
    s, ev = act(s, b, "play", LEVEL)
    assert s.players[b].level == 2 and ("level", b, 2, "card") in ev
    s, _ = act(s, b, "play", RACE)
    assert s.players[b].races == (RACE,)
    s, _ = act(s, b, "discard", RACE)
    assert s.players[b].races == () and RACE in s.dxm_deck.discard
    assert s.turn.seat == a


def test_level_cards_even_in_combat_by_any_player():
    """Q-TURN-2: go-up-a-level cards may be played in combat, by the fighter and by others (in the
    interrupt window too)."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, (r1,) = line(s, 1)
    s = hand(s, a, LEVEL)
    s = hand(s, b, dxm_card(lambda d: d.kind == "level"))
    s = add_monster(s, LURKER, r1, b)
    s, _ = act(s, a, "move", E)
    assert s.combat is not None and s.combat.fighter == a
    assert Action(a, "play", (LEVEL,)) in legal(s, a)
    b_level = s.players[b].hand[0]
    assert Action(b, "play", (b_level,)) in legal(s, b)
    s, _ = act(s, a, "play", LEVEL)
    assert s.players[a].level == 2 and s.combat is not None
    s, _ = act(s, a, "roll")
    assert s.combat.stage == "window"
    assert set(legal(s, b)) == {Action(b, "pass"), Action(b, "play", (b_level,)), Action(b, "drop", (300,))}
    s, ev = act(rig(s, 6), b, "play", b_level)
    assert s.players[b].level == 2 and ("auto_pass", b, "window") in ev  # nothing left: b passes


def test_races_and_classes_come_and_go_even_in_combat():
    """Q-TURN-2 (and Q-CHAR-4): any player may add or discard a race or class card during a fight."""
    klass = dxm_card(lambda d: d.kind == "class")
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, (r1,) = line(s, 1)
    s = set_player(s, a, classes=(klass,))
    s = hand(s, b, RACE)
    s = add_monster(s, LURKER, r1, b)
    s, _ = act(s, a, "move", E)
    assert Action(a, "discard", (klass,)) in legal(s, a) and Action(b, "play", (RACE,)) in legal(s, b)
    s, _ = act(s, a, "discard", klass)
    s, _ = act(s, b, "play", RACE)
    assert s.players[a].classes == () and s.players[b].races == (RACE,) and s.combat.stage == "prepare"


def test_anyone_heals_equips_and_drops_outside_combat():
    """Q-TURN-3: on another's turn a player may lose a level to heal 3, move items between the
    backpack and worn, and drop items."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s = set_player(s, b, level=3, hp=1)
    s = put(s, b, (HELM, "backpack"))
    s, ev = act(s, b, "heal")
    assert (s.players[b].level, s.players[b].hp) == (2, 4)
    s, _ = act(s, b, "equip", HELM, "worn")
    assert s.players[b].items[0].place == "worn"
    s, _ = act(s, b, "drop", HELM)
    assert s.players[b].items == () and s.rooms[0].pile == (HELM,)
    assert s.turn.seat == a


def test_no_healing_or_equipping_in_combat():
    """Q-TURN-3: those are 'anytime outside combat' actions."""
    from mq.rules.state import Combat
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, (r1,) = line(s, 1)
    s = set_player(s, a, room=r1, level=3, hp=2)
    s = set_player(s, b, level=3, hp=2)
    s = put(s, a, (HELM, "backpack"))
    s = add_monster(s, LURKER, r1, b)
    s = s.replace(combat=Combat(fighter=a, room=r1, monsters=(s.monsters[0].uid,)))
    assert refused(s, a, "heal") == "combat/in-combat"
    assert refused(s, b, "heal") == "combat/in-combat"
    assert refused(s, a, "equip", HELM, "worn") == "combat/in-combat"


def test_only_the_active_player_plays_items_buys_and_commits_suicide():
    """Q-TURN-4: items from hand, buying levels and suicide are for your own turn only."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s = hand(s, a, HELM)
    s = hand(s, b, HELM)
    s = set_player(s, b, gold=2000)
    s = set_player(s, a, gold=2000)
    assert {Action(a, "play", (HELM,)), Action(a, "buy", ()), Action(a, "suicide")} <= set(legal(s, a))
    # b holds only an item and may not play it now; dropping gold (Q-SEARCH-4) or giving it to a
    # neighbour (Q-ITEM-7) is all b can do
    assert legal(s, b) == (Action(b, "drop", (2000,)), Action(b, "give", (2000, a)))
    assert refused(s, b, "buy") == "seat/not-your-turn"
    assert refused(s, b, "suicide") == "seat/not-your-turn"
    assert refused(s, b, "play", HELM) == "seat/not-your-turn"


def test_a_turn_starting_beside_a_monster_starts_with_that_fight():
    """Q-TURN-5 (and Q-COMBAT-1): the next player's turn begins with the fight in their room."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, (r1,) = line(s, 1)
    s = set_player(s, b, room=r1)
    s = add_monster(s, LURKER, r1, a)
    s = rig(s, colour(5))
    s, ev = act(s, a, "end_turn")
    assert ev[-1] == ("combat_starts", b, r1, (s.monsters[0].uid,))
    assert s.combat.fighter == b and s.combat.stage == "prepare"


def test_a_turn_starting_beside_a_monster_may_leave_by_magic_first():
    """Q-TURN-5: a card that moves the player magically leaves before the fight: no result, the
    monster stays, the player is in the Entrance and the card is spent."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, (r1,) = line(s, 1)
    s = set_player(s, b, room=r1)
    s = hand(s, b, TELEPORT)
    s = add_monster(s, LURKER, r1, a)
    s = rig(s, colour(5))
    s, _ = act(s, a, "end_turn")
    assert Action(b, "use", (TELEPORT,)) in legal(s, b)
    s, ev = act(s, b, "use", TELEPORT)
    assert s.combat is None and s.players[b].room == 0
    assert ("combat_ends", b, False) in ev and not kinds_of(ev, "combat_result")
    assert [m.room for m in s.monsters] == [r1]
    assert TELEPORT in s.dxm_deck.discard and TELEPORT not in s.players[b].hand
    assert s.turn.seat == b and s.turn.spent == 0
    s, _ = act(s, b, "move", E)  # the turn goes on from the Entrance
    assert s.combat is not None and s.players[b].room == r1


def test_turn_does_not_start_a_fight_with_a_monster_that_ignores_you():
    """Q-TURN-5 says non-ignoring monster: an ignoring one lets the turn start normally."""
    ignorer = monster_card(lambda d: "halfling" in d.ignores)
    halfling = dxm_card(lambda d: d.kind == "race" and d.key == "halfling")
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, (r1,) = line(s, 1)
    s = set_player(s, b, room=r1, races=(halfling,))
    s = add_monster(s, ignorer, r1, a)
    s = rig(s, colour(5))
    s, ev = act(s, a, "end_turn")
    assert s.combat is None and not kinds_of(ev, "combat_starts") and s.turn.seat == b
    assert "search" not in legal_kinds(s, b)  # Q-COMBAT-2: no searching beside it
    assert Action(b, "move", (W,)) in legal(s, b)
