"""The Boss and winning (Q-BOSS-1..5, Q-LAW-5)."""
from __future__ import annotations

from builders import (
    CARDS,
    W,
    act,
    add_monster,
    colour,
    dxm_card,
    face,
    hand,
    kinds_of,
    legal,
    line,
    monster_card,
    nxt,
    quiet,
    refused,
    rig,
    set_player,
    stack,
)

from mq.rules import actors, is_over, legal_actions, winners
from mq.rules.combat import others
from mq.rules.state import OVER

CARD = monster_card(lambda d: d.dice == 0 and d.level == 1 and not d.ignores and not d.rewards)
HALFLING = dxm_card(lambda d: d.key == "halfling")
IGNORER = monster_card(lambda d: "halfling" in d.ignores)
TELEPORT = dxm_card(lambda d: any(e.name == "teleport" for e in d.effects))
ESCAPE = dxm_card(lambda d: any(e.name == "escape" for e in d.effects))


def boss_fight(card=CARD, players=2, setup=None):
    """A level-10 munchkin walks back into the Entrance from the room east of it."""
    s = quiet(players)
    a = s.turn.seat
    s, (r1,) = line(s, 1)
    s = set_player(s, a, level=10, room=r1)
    if setup:
        s = setup(s, a)
    s = stack(s, "monster", [card])
    s = rig(s, colour(a))
    s, ev = act(s, a, "move", W)
    return s, a, r1, ev


def resolve(s, *dice):
    a = s.combat.fighter
    s, events = act(rig(s, *dice), a, "roll")
    events = list(events)
    while s.combat is not None and s.combat.stage == "window":
        s, ev = act(s, s.combat.waiting[0], "pass")
        events.extend(ev)
    return s, events


def test_a_level_ten_munchkin_in_the_entrance_meets_the_boss():
    """Q-BOSS-1: on their own turn a level-10 munchkin in the Entrance draws a Monster as the Boss;
    its base colour is rolled normally; it fights at level 20 whatever the card says."""
    s, a, r1, ev = boss_fight()
    (boss,) = s.monsters
    assert ("boss_arrives", a) in ev and ("monster_appears", boss.uid, CARD, 0, a, True) in ev
    assert (boss.card, boss.room, boss.boss, boss.colour) == (CARD, 0, True, a)
    assert s.combat.boss and s.combat.monsters == (boss.uid,) and s.combat.room == 0
    s, ev = resolve(s, 6)
    (r,) = kinds_of(ev, "combat_result")
    assert r.monster_terms == ((("level", 20), ("vs", 0), ("room", 0)),)


def test_no_boss_on_someone_elses_turn_or_below_level_ten():
    """Q-BOSS-1: only the active munchkin, only at level 10."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s = set_player(s, b, level=10)
    s, (r1,) = line(s, 1)
    s = set_player(s, a, level=9, room=r1)
    s, ev = act(s, a, "move", W)
    assert not kinds_of(ev, "boss_arrives") and s.monsters == () and s.combat is None
    s, ev = act(rig(s, colour(5), colour(b)), a, "end_turn")  # b's turn starts in the Entrance
    assert ("boss_arrives", b) in ev and s.combat.fighter == b and s.combat.boss


def test_nothing_escapes_the_boss_fight():
    """Q-BOSS-2, Q-LAW-5: no magic exit before the roll, no escape or teleport after losing, no
    suicide; the Boss never ignores a level-10 munchkin."""
    s, a, r1, ev = boss_fight(card=IGNORER, setup=lambda s, a: hand(set_player(s, a, races=(HALFLING,)),
                                                                    a, TELEPORT, ESCAPE))
    assert s.combat is not None and s.combat.boss  # it would ignore a halfling, not as the Boss
    s = set_player(s, a, hand=(TELEPORT, ESCAPE))  # not whatever DxM the Boss's colour drew
    assert {x.kind for x in legal(s, a)} == {"roll", "discard", "drop"}  # discarding the race is allowed; dropping gold too (Q-SEARCH-4)
    assert refused(s, a, "use", TELEPORT) == "phase/wrong"
    assert refused(s, a, "suicide") == "combat/in-combat"
    s, ev = resolve(s, *([1] * (1 + CARDS.card(IGNORER).dice)))
    assert s.combat.stage == "run"
    assert {x.kind for x in legal(s, a)} - {"discard", "drop"} == {"run"}  # (race and gold: anytime)


def test_the_boss_never_leaves_the_entrance():
    """Q-LAW-5: the monster turn does not move the Boss."""
    s = quiet(2)
    a = s.turn.seat
    s, (r1,) = line(s, 1)
    s = add_monster(s, monster_card(lambda d: d.movement == "fast"), 0, a, boss=True)
    for c in range(6):
        s2, ev = act(rig(s, colour(c)), a, "end_turn")
        assert s2.monsters[0].room == 0 and not kinds_of(ev, "monster_moves")


def test_only_level_ten_munchkins_could_help_others_just_pass():
    """Q-BOSS-3: nobody below level 10 can join the Boss fight: the other seats only get the
    interrupt window's pass."""
    s, a, r1, ev = boss_fight(players=3)
    n = s.rng_n
    s, ev = act(s, a, "roll")
    assert [(e.seat, e.stage) for e in kinds_of(ev, "auto_pass")] == [(seat, "window") for seat in others(s.order, a)]
    assert ("window_closed", a) in ev and s.rng_n > n  # nobody could act: straight to the dice


def test_killing_the_boss_wins_the_game():
    """Q-BOSS-4: the munchkin who killed the Boss wins; the game is over."""
    s, a, r1, ev = boss_fight()
    s = s.replace(combat=s.combat.replace(bonus=15))  # as if strong one-shots were played
    s, ev = resolve(s, 6)
    assert ("game_won", (a,)) in ev and winners(s) == (a,) and is_over(s) and s.phase == OVER
    assert actors(s) == () and legal_actions(s, a) == ()
    assert refused(s, a, "end_turn") == "game/over"


def test_losing_to_the_boss_costs_a_hit_and_a_level_then_a_run_without_bad_stuff():
    """Q-BOSS-5: lose or tie: 1 hit and 1 level; run away ignoring other Bad Stuff; the Boss is
    discarded; a new Boss comes next time."""
    s, a, r1, ev = boss_fight()
    s, ev = resolve(s, 1)
    assert ("level", a, 9, "boss") in ev and ("hit", a, 1, 3) in ev
    assert s.combat.stage == "run"
    s, ev = act(s, a, "run", r1)
    assert not kinds_of(ev, "escape_roll") and not kinds_of(ev, "bad_stuff")
    assert s.combat is None and s.monsters == () and s.players[a].room == r1
    assert CARD in s.monster_deck.discard
    # next time at level 10 in the Entrance, a new Boss
    s = set_player(s, a, level=10)
    nxt_card = s.monster_deck.draw[0]
    s, ev = act(rig(s, colour(a)), a, "move", W)
    assert ("boss_arrives", a) in ev and s.monsters[0].card == nxt_card and s.monsters[0].boss


def test_the_boss_is_discarded_even_when_the_hit_kills():
    """Q-BOSS-5: the Boss leaves after the lost fight even when the fighter dies of the hit; the
    next munchkin in the Entrance does not inherit it."""
    s, a, r1, ev = boss_fight(setup=lambda s, a: set_player(s, a, hp=1))
    b = nxt(s, a)
    s, ev = resolve(s, 1, colour(5))
    assert ("death", a, 0, "hits") in ev and s.players[a].level == 8
    assert s.monsters == () and s.combat is None and s.turn.seat == b
    assert s.players[b].room == 0


def test_nowhere_to_run_from_the_boss():
    """Q-BOSS-5 with Q-RUN-5: with no explored neighbour the loser stays in the Entrance; the Boss
    is still discarded, and at level 9 no new one comes."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s = set_player(s, b, level=10)  # b waits in the Entrance; nothing is explored around it
    s = stack(s, "monster", [CARD])
    s, ev = act(rig(s, colour(5), colour(b)), a, "end_turn")
    assert s.combat.boss and s.combat.fighter == b
    s, ev = resolve(s, 1)
    assert s.combat is None and s.monsters == () and s.players[b].room == 0
    assert s.players[b].level == 9 and s.players[b].hp == 3 and not kinds_of(ev, "runs")
    assert s.turn.seat == b and "end_turn" in {x.kind for x in legal(s, b)}


def test_running_from_the_boss_arrives_like_any_run():
    """Q-BOSS-5 with Q-RUN-3: the loser arrives in the chosen room and its rule on entry applies
    (here a room that hurts whoever enters)."""
    hurts = face(lambda f: any(e.name == "hurt_on_enter" and str(e.get("who")) == "any" for e in f.effects))
    s = quiet(2)
    a = s.turn.seat
    s, (r1,) = line(s, 1, face=hurts)
    s = set_player(s, a, level=10, room=r1)
    s = stack(s, "monster", [CARD])
    s, _ = act(rig(s, colour(a)), a, "move", W)
    s, ev = resolve(s, 1)
    assert s.players[a].hp == 3
    s, ev = act(s, a, "run", r1)
    assert ("arrives", a, r1) in ev and ("room_hurts", a, r1) in ev
    assert s.players[a].hp == 2 and s.players[a].room == r1 and s.combat is None
