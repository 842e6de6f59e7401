"""Combat (Q-COMBAT-1..13) and its interrupt window (Q-DIGI-2)."""
from __future__ import annotations

import pytest
from builders import (
    CARDS,
    PLAIN,
    RED,
    E,
    act,
    add_monster,
    arrow_face,
    colour,
    dxm_card,
    face,
    hand,
    icons_miss,
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
    take,
    texts,
    treasure_card,
)

from mq.rules import Action, actors
from mq.rules.windows import can_act

LURKER = monster_card(lambda d: d.movement == "lurking" and d.level == 1 and d.dice == 0 and not d.rewards)
LURKER2 = monster_card(lambda d: d.movement == "lurking" and d.level == 2 and d.dice == 1 and not d.rewards)
HALFLING = dxm_card(lambda d: d.key == "halfling")
IGNORES_HALFLINGS = monster_card(lambda d: "halfling" in d.ignores)
SWORD = treasure_card(lambda d: d.kind == "item" and d.slot == "hands" and d.hands == 1 and d.bonus == 2
                      and not d.only and not d.not_for and not d.effects)
BOOST = treasure_card(lambda d: d.kind == "oneshot" and d.bonus >= 3 and not d.effects)
BOOST2 = dxm_card(lambda d: d.kind == "oneshot" and d.bonus >= 2 and not d.effects)
BOOST3 = treasure_card(lambda d: d.kind == "oneshot" and d.bonus >= 2 and not d.effects and d.id != BOOST)
SIX = next(d.id for d in CARDS.treasures + CARDS.dxm if d.kind == "oneshot"
           and any(e.name == "change_die" and e.get("to") == 6 for e in d.effects))
TELEPORT = dxm_card(lambda d: any(e.name == "teleport" for e in d.effects))


def arena(players=2, monsters=(LURKER,), owner=None, room_face=PLAIN, setup=None):
    """The first player walks east from the Entrance into a room holding ``monsters``."""
    s = quiet(players)
    a = s.turn.seat
    s, (r1,) = line(s, 1, face=room_face)
    for card in monsters:
        s = add_monster(s, card, r1, nxt(s) if owner is None else owner)
    if setup:
        s = setup(s, a)
    s, ev = act(s, a, "move", E)
    return s, a, r1, ev


def resolve(s, *dice):
    """Declare rolling, let everyone pass, with the dice rigged; returns (state, events)."""
    a = s.combat.fighter
    s = rig(s, *dice)
    s, events = act(s, a, "roll")
    events = list(events)
    while s.combat is not None and s.combat.stage == "window":
        s, ev = act(s, s.combat.waiting[0], "pass")
        events.extend(ev)
    return s, events


def result(events):
    (r,) = kinds_of(events, "combat_result")
    return r


def test_entering_a_monsters_room_starts_the_fight():
    """Q-COMBAT-1: the fight starts as soon as the active munchkin shares a room with a monster."""
    s, a, r1, ev = arena()
    assert ev[-1] == ("combat_starts", a, r1, (s.monsters[0].uid,))
    assert (s.combat.fighter, s.combat.room, s.combat.stage) == (a, r1, "prepare")
    assert actors(s) == (a,)
    assert legal_kinds(s, a) == {"roll", "suicide", "ask", "drop"}  # the other munchkin is next door (Q-HELP-1)


def test_a_monster_walking_in_on_another_turn_waits_for_its_victims_turn():
    """Q-COMBAT-1: a monster moving into your room on someone else's turn does nothing until your
    turn starts with it still there."""
    s = quiet(3)
    a, b = s.turn.seat, nxt(s)
    c = nxt(s, b)
    s, (r0, r1) = line(s, 2, face=(arrow_face(RED, E), arrow_face(RED, -1)), y=5)
    s = set_player(s, c, room=r1)
    s = add_monster(s, monster_card(lambda d: d.movement == "normal" and not d.passes and not d.ignores), r0, a)
    s, ev = act(rig(s, colour(RED)), a, "end_turn")
    assert s.monsters[0].room == r1 and s.turn.seat == b and s.combat is None
    s, ev = act(rig(s, colour(RED)), b, "end_turn")  # no red arrow in r1: it stays
    assert s.turn.seat == c and s.combat.fighter == c and s.combat.room == r1


def test_ignored_munchkins_do_not_fight_and_ignoring_is_not_remembered():
    """Q-COMBAT-2: a monster that ignores you does not fight you; but once you stop being what it
    ignores (discarding the race), the fight starts."""
    s, a, r1, ev = arena(monsters=(IGNORES_HALFLINGS,),
                         setup=lambda s, a: set_player(s, a, races=(HALFLING,)))
    assert s.combat is None and s.players[a].room == r1
    assert "search" not in legal_kinds(s, a) and "pickup" not in legal_kinds(s, a)
    s, ev = act(s, a, "discard", HALFLING)
    assert ev[-1] == ("combat_starts", a, r1, (s.monsters[0].uid,))


def test_all_non_ignoring_monsters_fight_together():
    """Q-COMBAT-3: every monster of the room that does not ignore you is in the one fight; an
    ignoring one stays out."""
    s, a, r1, ev = arena(monsters=(LURKER, LURKER2, IGNORES_HALFLINGS),
                         setup=lambda s, a: set_player(s, a, races=(HALFLING,)))
    ids = tuple(m.uid for m in s.monsters)
    assert s.combat.monsters == ids[:2]


def test_fights_cost_no_move_and_several_can_happen_in_a_turn():
    """Q-COMBAT-3: combat costs no move; after a win the turn goes on into the next fight."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, (r1, r2) = line(s, 2)
    s = add_monster(s, LURKER, r1, b)
    s = add_monster(s, LURKER, r2, b)
    s, _ = act(s, a, "move", E)
    s, ev = resolve(s, 6)
    assert result(ev).won and s.combat is None and s.turn.spent == 1
    s, ev = act(s, a, "move", E)
    assert s.combat is not None and s.turn.spent == 2
    s, ev = resolve(s, 6)
    assert result(ev).won and s.players[a].level == 3 and s.turn.spent == 2


def test_munchkin_strength_terms():
    """Q-COMBAT-4: level + worn/carried item bonuses + one-shots + room bonus (+ the die); items in
    the backpack give nothing."""
    helm = treasure_card(lambda d: d.kind == "item" and d.slot == "head" and d.bonus == 1 and not d.only
                         and not any(e.name == "bonus_vs" for e in d.effects))
    spare = treasure_card(lambda d: d.kind == "item" and d.slot == "armour" and d.bonus >= 1 and not d.only
                          and not d.not_for and not d.effects)
    room = face(lambda f: any(e.name == "munchkin_bonus" and str(e.get("who")) == "any" and e.get("amount") == 1
                              for e in f.effects) and icons_miss(f.green + f.red, "human", "male")
                and len(f.effects) == 1)

    def setup(s, a):
        s = set_player(s, a, level=3, gender="male")
        s = put(s, a, (helm, "worn"), (SWORD, "carried"), (spare, "backpack"))
        return hand(s, a, BOOST)

    s, a, r1, _ = arena(monsters=(LURKER,), room_face=room, setup=setup)
    s, _ = act(s, a, "use", BOOST)
    bonus = CARDS.card(BOOST).bonus
    s, ev = resolve(s, 2)
    r = result(ev)
    assert r.terms == (("level", 3), ("items", 3), ("one-shots", bonus), ("room", 1))
    assert r.dice == (2,) and r.total == 3 + 3 + bonus + 1 + 2


def test_monster_strength_terms():
    """Q-COMBAT-4: monster level + its bonus against the fighter's race/class + room bonus for its
    keywords (+ its dice)."""
    vs_thief = monster_card(lambda d: ("thief", 2) in d.bonuses and d.dice == 1)
    thief = dxm_card(lambda d: d.key == "thief")
    kw = CARDS.card(vs_thief).keywords[0]
    room = face(lambda f: any(e.name == "monster_bonus" and e.get("keyword") == kw for e in f.effects)
                and icons_miss(f.green + f.red, "human", "male", "female", "thief")
                and not any(e.name == "munchkin_bonus" for e in f.effects))
    amount = sum(e.get("amount") for e in CARDS.face(room).effects
                 if e.name == "monster_bonus" and e.get("keyword") in CARDS.card(vs_thief).keywords + ("any",))
    s, a, r1, _ = arena(monsters=(vs_thief,), room_face=room,
                        setup=lambda s, a: set_player(s, a, classes=(thief,)))
    s, ev = resolve(s, 3, 4)
    r = result(ev)
    level = CARDS.card(vs_thief).level
    assert r.monster_terms == ((("level", level), ("vs", 2), ("room", amount)),)
    assert r.monster_dice == ((4,),) and r.monster_total == level + 2 + amount + 4


def test_item_bonus_against_a_monster_keyword():
    """Q-COMBAT-4: an item's bonus against a keyword counts only against such monsters."""
    anti = treasure_card(lambda d: d.kind == "item" and not d.only and not d.not_for
                         and any(e.name == "bonus_vs" for e in d.effects))
    e = next(e for e in CARDS.card(anti).effects if e.name == "bonus_vs")
    foe = monster_card(lambda d: e.get("who") in d.keywords)
    other = monster_card(lambda d: e.get("who") not in d.keywords and d.movement == "lurking")
    base = CARDS.card(anti).bonus
    for card, expected in ((foe, base + e.get("amount")), (other, base)):
        s, a, r1, _ = arena(monsters=(card,), setup=lambda s, a: put(s, a, (anti, "worn" if CARDS.card(anti).slot != "hands" else "carried")))
        s, ev = resolve(s, 1, 1, 1, 1)
        assert dict(result(ev).terms)["items"] == expected


@pytest.mark.parametrize("dice", [0, 1, 2, 3])
def test_each_fighter_rolls_one_die_each_monster_its_listed_dice(dice):
    """Q-COMBAT-5: the munchkin rolls 1 die; the monster's owner rolls its listed number of dice."""
    card = monster_card(lambda d: d.dice == dice)
    s, a, r1, _ = arena(monsters=(card,))
    s, ev = resolve(s, *([1] * (1 + dice)))
    r = result(ev)
    assert r.dice == (1,) and r.monster_dice == ((1,) * dice,)


def test_green_icon_adds_a_die_red_icon_removes_one():
    """Q-COMBAT-6: a green icon matching the fighter gives +1 die; a red one -1 die; no dice roll 0
    but bonuses still add."""
    elf = dxm_card(lambda d: d.key == "elf")
    green = face(lambda f: texts(f.green) == ("elf",) and icons_miss(f.red, "human", "male", "female") and not f.effects)
    red = face(lambda f: "elf" in texts(f.red) and icons_miss(f.green + f.red, "human", "male", "female")
               and not f.effects)
    s, a, r1, _ = arena(room_face=green, setup=lambda s, a: set_player(s, a, races=(elf,)))
    s, ev = resolve(s, 2, 5)
    assert result(ev).dice == (2, 5) and result(ev).total == 1 + 7
    s, a, r1, _ = arena(room_face=red, setup=lambda s, a: put(set_player(s, a, races=(elf,)), a, (SWORD, "carried")))
    s, ev = resolve(s)
    assert result(ev).dice == () and result(ev).total == 1 + 2
    s, a, r1, _ = arena(room_face=red)  # a human is not an elf: the icon does nothing
    s, ev = resolve(s, 4)
    assert result(ev).dice == (4,)


def test_interrupt_window_every_other_seat_must_pass_before_the_dice():
    """Q-COMBAT-7, Q-DIGI-2: declaring 'rolling' opens the interrupt window; each other seat may
    act or pass; the dice are rolled only when all have passed."""
    s, a, r1, _ = arena(players=3, setup=lambda s, a: hand(s, a, BOOST))
    b = nxt(s, a)
    c = nxt(s, b)
    s = hand(hand(s, b, BOOST2), c, BOOST3)  # each of them could play a one-shot for either side
    assert Action(a, "use", (BOOST,)) in legal(s, a)
    n0 = s.rng_n
    s, ev = act(s, a, "roll")
    assert (s.combat.stage, s.combat.waiting) == ("window", (b, c)) and ev == ()
    assert set(actors(s)) == {b, c}
    assert set(legal(s, a)) == {Action(a, "suicide"), Action(a, "drop", (300,))}  # no more one-shots after declaring
    assert Action(b, "pass") in legal(s, b) and Action(c, "use", (BOOST3, "monsters")) in legal(s, c)
    s, ev = act(s, c, "pass")
    assert s.combat.waiting == (b,) and ev == () and s.rng_n == n0
    assert refused(s, c, "pass") == "phase/wrong"
    s, ev = act(rig(s, 6), b, "pass")
    assert ev[0] == ("window_closed", a) and ev[1].kind == "combat_result"


def test_a_seat_that_cannot_act_is_passed_by_itself_in_every_window():
    """Q-COMBAT-7, Q-DIGI-2: "a seat with no playable card is auto-passed", before the roll as
    after it, computed from the legal actions (windows.can_act): a seat holding only cards it cannot
    use here is not waited for; one holding a usable card is; when nobody is left, the dice roll."""
    s, a, r1, _ = arena(players=3)
    b = nxt(s, a)
    c = nxt(s, b)
    level = dxm_card(lambda d: d.kind == "level")
    level2 = dxm_card(lambda d: d.kind == "level" and d.id != level)
    item = treasure_card(lambda d: d.kind == "item" and not d.effects)
    s = hand(hand(s, b, item), c, level, level2)  # b: an item (none in combat, Q-COMBAT-11); c: levels
    s, ev = act(s, a, "roll")
    assert not can_act(s, b, CARDS) and can_act(s, c, CARDS)
    assert ev == (("auto_pass", b, "window"),) and s.combat.waiting == (c,) and actors(s) == (c,)
    assert refused(s, b, "pass") == "phase/wrong"
    s, ev = act(s, c, "play", level)  # a level card does not touch the fight: c may go on
    assert not kinds_of(ev, "auto_pass") and s.combat.waiting == (c,)
    s, ev = act(rig(s, 6), c, "pass")
    assert ev[0] == ("window_closed", a) and ev[1].kind == "combat_result"


def test_the_after_roll_window_skips_a_die_changer_that_changes_nothing():
    """Q-COMBAT-7: after the roll a seat is waited for only if its die changer can change a die
    (the same legal actions: a loaded die on a table of sixes does nothing)."""
    six = SIX
    s, a, r1, _ = arena(players=2, monsters=(LURKER2,))
    b = nxt(s, a)
    s = hand(s, b, six)
    s, ev = act(rig(s, 6, 6), a, "roll")  # every die shows a 6 already
    assert ("auto_pass", b, "outcome") in ev and kinds_of(ev, "combat_result")
    s, a, r1, _ = arena(players=2, monsters=(LURKER2,))
    s = hand(s, b, six)
    s, ev = act(rig(s, 1, 6), a, "roll")
    assert s.combat.stage == "outcome" and s.combat.waiting == (b,) and not kinds_of(ev, "combat_result")


def test_others_play_one_shots_for_either_side_and_the_window_reopens():
    """Q-COMBAT-7, Q-HELP-3, Q-DIGI-2: in the window another player may play a one-shot for the
    monsters (or the munchkin); everyone else, the fighter included, may then answer it, and the
    monsters' one-shots count in the result."""
    s, a, r1, _ = arena(players=3, monsters=(LURKER2,), setup=lambda s, a: hand(s, a, BOOST2))
    b = nxt(s, a)
    c = nxt(s, b)
    s = hand(s, b, BOOST)
    s, _ = act(s, a, "roll")
    assert {Action(b, "use", (BOOST, "monsters")), Action(b, "use", (BOOST, "munchkins"))} <= set(legal(s, b))
    s = hand(s, c, BOOST3)
    s, ev = act(s, b, "use", BOOST, "monsters")
    assert ev == (("use", b, BOOST, "monsters"), ("auto_pass", b, "window"))  # b holds nothing more
    assert s.combat.monster_bonus == CARDS.card(BOOST).bonus and s.combat.waiting == (c, a)
    assert Action(a, "use", (BOOST2,)) in legal(s, a)  # the fighter may answer
    s, _ = act(s, c, "pass")
    s, ev = act(s, a, "pass")
    assert ("answer", a) in ev and s.combat.stage == "prepare"  # Q-COMBAT-7: the fighter may answer b's card
    s, ev = resolve(s, 1, 1)
    r = result(ev)
    assert r.monster_terms[-1] == (("one-shots", CARDS.card(BOOST).bonus),)
    assert r.monster_total == 2 + 1 + CARDS.card(BOOST).bonus and r.won is False


def test_a_tie_is_a_loss():
    """Q-COMBAT-8: strictly greater wins; a tie loses."""
    s, a, r1, _ = arena(monsters=(LURKER2,))
    s2, ev = resolve(s, 3, 2)  # 1 + 3 vs 2 + 2
    r = result(ev)
    assert (r.total, r.monster_total, r.won) == (4, 4, False)
    assert s2.players[a].hp == 3 and s2.combat.stage == "run"
    s3, ev = resolve(s, 4, 2)
    assert result(ev).won is True and s3.combat is None


def test_win_rewards_level_treasure_and_discards_the_monster():
    """Q-COMBAT-9: +1 level per monster; its Treasure drawn; the card discarded, the base freed."""
    s, a, r1, _ = arena(monsters=(LURKER,))
    top = s.treasure_deck.draw[:CARDS.card(LURKER).treasure]
    s, ev = resolve(s, 6)
    p = s.players[a]
    assert p.level == 2 and p.hand == top and s.monsters == ()
    assert LURKER in s.monster_deck.discard
    assert ("monster_killed", a, 1, LURKER) in ev and ("level", a, 2, "kill") in ev
    assert ev[-1] == ("combat_ends", a, True)


def test_killing_a_monster_of_your_own_colour_draws_a_dxm():
    """Q-COMBAT-9 (Q-CARD-1): when the monster belonged to the fighter they also draw a DxM."""
    a = quiet(2).turn.seat
    s, _, r1, _ = arena(owner=a)
    dxm_top = s.dxm_deck.draw[0]
    s, ev = resolve(s, 6)
    assert ("draw", a, "dxm", dxm_top, False) in ev and dxm_top in s.players[a].hand
    s, _, r1, _ = arena(owner=1 - a)
    s, ev = resolve(s, 6)
    assert [e.deck for e in kinds_of(ev, "draw")] == ["treasure"] * CARDS.card(LURKER).treasure


def test_mighty_monsters_give_two_levels():
    """Q-COMBAT-9: a Mighty monster killed without help gives 2 levels."""
    mighty = monster_card(lambda d: d.mighty)
    d = CARDS.card(mighty)
    s, a, r1, _ = arena(monsters=(mighty,), setup=lambda s, a: set_player(s, a, level=5))
    s = s.replace(combat=s.combat.replace(bonus=30))  # as if strong one-shots had been used
    s, ev = resolve(s, 6, *([1] * d.dice))
    assert result(ev).won and s.players[a].level == 7 and ("level", a, 7, "kill") in ev
    assert len(s.players[a].hand) == d.treasure


def test_special_rewards_gold_heal_and_extra_treasure():
    """Q-COMBAT-9: the monsters' special rewards apply."""
    rich = monster_card(lambda d: any(e.name == "gold" for e in d.rewards) and len(d.rewards) == 1)
    healer = monster_card(lambda d: any(e.name == "heal" for e in d.rewards) and len(d.rewards) == 1)
    extra = monster_card(lambda d: any(e.name == "extra_treasure" for e in d.rewards) and len(d.rewards) == 1)
    gold = CARDS.card(rich).rewards[0].get("amount")
    s, a, r1, _ = arena(monsters=(rich,))
    s = s.replace(combat=s.combat.replace(bonus=40))
    s, ev = resolve(s, *([1] * (1 + CARDS.card(rich).dice)))
    assert s.players[a].gold == 300 + gold
    s, a, r1, _ = arena(monsters=(healer,), setup=lambda s, a: set_player(s, a, hp=1))
    s = s.replace(combat=s.combat.replace(bonus=40))
    s, ev = resolve(s, *([1] * (1 + CARDS.card(healer).dice)))
    assert s.players[a].hp == 1 + CARDS.card(healer).rewards[0].get("amount")
    s, a, r1, _ = arena(monsters=(extra,))
    s = s.replace(combat=s.combat.replace(bonus=40))
    s, ev = resolve(s, *([1] * (1 + CARDS.card(extra).dice)))
    n = CARDS.card(extra).treasure + CARDS.card(extra).rewards[0].get("n")
    assert len([e for e in kinds_of(ev, "draw") if e.deck == "treasure"]) == n


def test_the_tenth_level_comes_from_a_kill():
    """Q-COMBAT-9, Q-LAW-2: killing a monster at level 9 gives the 10th level; a Mighty one too
    (never beyond 10)."""
    s, a, r1, _ = arena(setup=lambda s, a: set_player(s, a, level=9))
    s, ev = resolve(s, 1)
    assert s.players[a].level == 10 and ("level", a, 10, "kill") in ev
    mighty = monster_card(lambda d: d.mighty)
    s, a, r1, _ = arena(monsters=(mighty,), setup=lambda s, a: set_player(s, a, level=9))
    s = s.replace(combat=s.combat.replace(bonus=30))
    s, ev = resolve(s, *([1] * (1 + CARDS.card(mighty).dice)))
    assert result(ev).won and s.players[a].level == 10


def test_a_loss_costs_one_hit_per_monster_then_running():
    """Q-COMBAT-10: every fighter takes one hit per monster in the fight, then runs away."""
    big = monster_card(lambda d: d.level >= 10 and d.dice == 0)
    s, a, r1, _ = arena(monsters=(big, LURKER))
    s, ev = resolve(s, 1)
    assert ("hit", a, 2, 2) in ev and s.players[a].hp == 2
    assert s.combat.stage == "run" and set(legal(s, a)) == {Action(a, "run", (0,)), Action(a, "suicide"),
                                                            Action(a, "drop", (300,))}


def test_no_items_from_hand_or_backpack_during_combat():
    """Q-COMBAT-11: items cannot be played from hand or moved out of the backpack in combat;
    one-shots can be used from hand or belt."""
    belt_shot = treasure_card(lambda d: d.kind == "oneshot" and d.bonus > 0 and d.id != BOOST)

    def setup(s, a):
        s = hand(s, a, SWORD, BOOST)
        s = put(s, a, (belt_shot, "belt"), (treasure_card(lambda d: d.slot == "head"), "backpack"))
        return set_player(s, a, gold=5000)

    s, a, r1, _ = arena(setup=setup)
    drops = {Action(a, "drop", (x,)) for x in (belt_shot, treasure_card(lambda d: d.slot == "head"), 5000)}  # Q-SEARCH-4
    assert set(legal(s, a)) == {Action(a, "use", (BOOST,)), Action(a, "use", (belt_shot,)),
                                Action(a, "roll"), Action(a, "suicide"), Action(a, "ask")} | drops
    assert refused(s, a, "play", SWORD) == "combat/in-combat"
    assert refused(s, a, "buy") == "combat/in-combat"
    s, _ = act(s, a, "use", belt_shot)
    assert s.players[a].items[0].place == "backpack" and len(s.players[a].items) == 1
    assert s.combat.bonus == CARDS.card(belt_shot).bonus and s.combat.used == (belt_shot,)


def test_leaving_by_magic_ends_the_fight_without_result():
    """Q-COMBAT-12: when the fighter leaves by magic before the roll, the fight ends with no result;
    one-shots played in it go back to their owner's hand; the monster stays."""
    s, a, r1, _ = arena(setup=lambda s, a: hand(s, a, BOOST, TELEPORT))
    s, _ = act(s, a, "use", BOOST)
    assert BOOST not in s.players[a].hand
    s, ev = act(s, a, "use", TELEPORT)
    assert s.combat is None and ("combat_ends", a, False) in ev and not kinds_of(ev, "combat_result")
    p = s.players[a]
    assert p.room == 0 and p.hand == (BOOST,) and p.hp == 4 and p.level == 1
    assert TELEPORT in s.dxm_deck.discard and BOOST not in s.treasure_deck.discard
    assert [m.room for m in s.monsters] == [r1]


def test_one_shots_are_spent_when_the_fight_has_a_result():
    """Q-COMBAT-12 (the other way round): after a fought fight, used one-shots are discarded."""
    s, a, r1, _ = arena(setup=lambda s, a: hand(s, a, BOOST))
    s, _ = act(s, a, "use", BOOST)
    s, ev = resolve(s, 1)
    assert BOOST in s.treasure_deck.discard and BOOST not in s.players[a].hand


def test_several_monsters_add_up():
    """Q-COMBAT-13 (several monsters in one fight): their strengths are summed against the
    munchkin side, and each one killed counts for the rewards."""
    s, a, r1, _ = arena(monsters=(LURKER, LURKER2))
    l1, l2 = CARDS.card(LURKER).level, CARDS.card(LURKER2).level
    s2, ev = resolve(s, 3, 1)  # 1 + 3 vs 1 + 2 + 1
    r = result(ev)
    assert r.monster_total == l1 + l2 + 1 and r.won is False and ("hit", a, 2, 2) in ev
    s = s.replace(combat=s.combat.replace(bonus=3))
    s3, ev = resolve(s, 3, 1)
    assert result(ev).won is True and s3.players[a].level == 3 and s3.monsters == ()


def test_an_ignored_munchkin_may_choose_to_fight():
    """Q-COMBAT-2: a monster that ignores you starts no fight, but you may start one."""
    s = quiet(2)
    a = s.turn.seat
    ignorer = next(d for d in CARDS.monsters if set(d.ignores) & {"elf", "dwarf", "halfling"})
    race = next(d.id for d in CARDS.dxm if d.kind == "race" and d.key in ignorer.ignores)
    s = set_player(s, a, races=(race,))
    s, (r1,) = line(s, 1)
    s = add_monster(s, ignorer.id, r1, a)
    s, ev = act(s, a, "move", 1)
    assert s.combat is None and Action(a, "fight") in legal(s, a)
    s, ev = act(s, a, "fight")
    assert ev[-1] == ("combat_starts", a, r1, (s.monsters[0].uid,))
    assert s.combat.fighter == a and s.combat.stage == "prepare"


UP = dxm_card(lambda d: d.kind == "enhancer" and d.bonus > 0 and not d.effects)


def test_the_fighter_answers_interference_then_declares_rolling_again():
    """Q-COMBAT-7: when another player played a card in the interrupt window, the fighter may
    answer before the dice — ask for help (not yet helped), take offers, play more cards — and
    then declares "rolling" again, which opens a new window; the dice roll only when a window
    closes with no card from anyone else in it."""
    s, a, r1, _ = arena(players=3, monsters=(LURKER2,), setup=lambda s, a: hand(s, a, BOOST))
    b = nxt(s, a)
    c = nxt(s, b)
    s = set_player(hand(s, b, UP), b, room=0)  # b could help from next door, and spoils instead
    s = hand(s, c, BOOST3)
    n0 = s.rng_n
    s, _ = act(s, a, "roll")
    s, _ = act(s, b, "enhance", UP, s.monsters[0].uid)
    s, _ = act(s, c, "pass")
    s, ev = act(s, a, "pass")  # the window closes: the fighter answers instead of the dice
    assert ev[0] == ("window_closed", a) and ("answer", a) in ev and not kinds_of(ev, "combat_result")
    assert s.combat.stage == "prepare" and actors(s) == (a,) and s.rng_n == n0
    assert {Action(a, "ask"), Action(a, "use", (BOOST,)), Action(a, "roll")} <= set(legal(s, a))
    s, ev = act(s, a, "ask")  # ask for help, take the offer
    s, _ = act(s, b, "offer", 0, 0)
    s, _ = act(s, c, "pass")
    s, _ = act(s, a, "accept", b)
    s, _ = act(s, a, "use", BOOST)  # play more cards
    s, ev = act(s, a, "roll")  # and declare rolling again: a new window
    assert s.combat.stage == "window" and s.combat.waiting == (c,) and s.combat.helper == b
    assert ("auto_pass", b, "window") in ev  # the helper holds nothing more
    s, ev = act(rig(s, 1, 1, 1), c, "pass")  # a quiet window: the dice
    assert ev[0] == ("window_closed", a) and kinds_of(ev, "combat_result") and not kinds_of(ev, "answer")


def test_only_other_players_cards_give_the_fighter_an_answer_and_answers_are_bounded():
    """Q-COMBAT-7: the fighter's own card in the window gives no answer (the others answered it
    already); answers are capped at ANSWER_ROUNDS per fight: the window after the last one rolls
    the dice whatever is played in it, and the engine says so."""
    from mq.rules.windows import ANSWER_ROUNDS
    ups = [d.id for d in CARDS.dxm if d.kind == "enhancer" and d.bonus > 0]
    warrior = dxm_card(lambda d: d.key == "warrior")
    junk = dxm_card(lambda d: d.kind == "race")
    s, a, r1, _ = arena(players=2, monsters=(LURKER2,))
    b = nxt(s, a)
    s2 = hand(set_player(s, a, classes=(warrior,)), a, junk)
    s2, _ = act(hand(s2, b, BOOST3), a, "roll")
    s2, ev = act(s2, a, "power", "berserk", junk)  # only the fighter played: the window closes to the dice
    assert s2.combat.waiting == (b, a)
    s2, _ = act(s2, b, "pass")
    s2, ev = act(rig(s2, 1, 1), a, "pass")
    assert kinds_of(ev, "combat_result") and not kinds_of(ev, "answer")
    assert len(ups) >= ANSWER_ROUNDS + 1
    s = hand(s, b, *ups[:ANSWER_ROUNDS + 1])
    uid = s.monsters[0].uid
    for i in range(ANSWER_ROUNDS):
        s, _ = act(s, a, "roll")
        s, _ = act(s, b, "enhance", ups[i], uid)
        s, ev = act(s, b, "pass")
        if s.combat.stage == "window":
            s, ev = act(s, a, "pass")
        assert ("answer", a) in ev and s.combat.stage == "prepare"
    s, _ = act(s, a, "roll")
    s, ev = act(rig(s, 1, 1), b, "enhance", ups[ANSWER_ROUNDS], uid)  # b's last card: both pass by themselves
    assert ("no_answer", a) in ev and kinds_of(ev, "combat_result")


def test_a_monster_fights_at_level_1_at_least_with_room_bonuses_on_top():
    """Q-LAW-1: card level + its own modifiers ("-2 against clerics") + enhancers is never below 1
    in a fight (a "floor" term lifts it); the room's bonus, one-shots and dice come on top."""
    cleric = dxm_card(lambda d: d.key == "cleric")
    accountant = monster_card(lambda d: d.level == 2 and ("cleric", -2) in d.bonuses and d.dice == 1)
    s, a, r1, _ = arena(monsters=(accountant,), setup=lambda s, a: set_player(s, a, classes=(cleric,)))
    s, ev = resolve(s, 1, 1, 3)  # the cleric rolls 2 dice against undead (Q-CHAR-4), the monster 1
    r = result(ev)
    assert r.monster_terms == ((("level", 2), ("vs", -2), ("floor", 1), ("room", 0)),) and r.monster_total == 1 + 3

    shrink = dxm_card(lambda d: d.kind == "enhancer" and d.bonus <= -5)
    flyer = monster_card(lambda d: "flying" in d.keywords and d.level <= 3 and d.dice == 0 and not d.bonuses)
    belfry = face(lambda f: any(e.name == "monster_bonus" and e.get("keyword") == "flying" and e.get("amount") < 0
                                for e in f.effects) and icons_miss(f.green + f.red, "human", "male", "female"))
    drop = sum(e.get("amount") for e in CARDS.face(belfry).effects if e.name == "monster_bonus")

    def shrunk(s, a):
        return take(s, [shrink]).replace(monsters=tuple(m.replace(enhancers=(shrink,)) for m in s.monsters))

    s, a, r1, _ = arena(monsters=(flyer,), room_face=belfry, setup=shrunk)
    s, ev = resolve(s, 1)
    level, bonus = CARDS.card(flyer).level, CARDS.card(shrink).bonus
    r = result(ev)
    assert r.monster_terms == ((("level", level), ("enhancers", bonus), ("vs", 0), ("floor", 1 - level - bonus),
                     ("room", drop)),)
    assert r.monster_total == 1 + drop < 1  # the room's penalty on top of the floored level
