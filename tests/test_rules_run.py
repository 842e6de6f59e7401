"""Running away (Q-RUN-1..5) and Bad Stuff."""
from __future__ import annotations

from builders import (
    CARDS,
    CORRIDOR,
    DOOR,
    PLAIN,
    WALL,
    E,
    act,
    add_monster,
    add_room,
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

from mq.rules import Action


def _card(**want):
    """The first monster with exactly these Bad Stuff effect names (and no runaway modifier unless
    asked), able to beat a level-1 munchkin who rolls a 1."""
    names = want.pop("bad")
    runaway = want.pop("runaway", 0)
    return monster_card(lambda d: tuple(e.name for e in d.bad_stuff) == names and d.runaway == runaway
                        and not d.ignores and not d.bonuses and (d.level >= 2 or d.dice >= 1))


HITS2 = monster_card(lambda d: [(e.name, e.get("n")) for e in d.bad_stuff] == [("hits", 2)]
                     and not d.bonuses and d.runaway == 0 and not d.ignores)
LEVELS = _card(bad=("lose_levels",))
GOLD = _card(bad=("lose_gold",))
FEET = monster_card(lambda d: [(e.name, e.get("slot")) for e in d.bad_stuff] == [("lose_slot", "feet")]
                    and not d.ignores and not d.bonuses and d.runaway == 0 and (d.level >= 2 or d.dice >= 1))
ITEM = monster_card(lambda d: [(e.name, e.get("n")) for e in d.bad_stuff] == [("lose_item", 1)]
                    and d.runaway == 0 and not d.ignores)
DEATH = _card(bad=("death",))


def lost(monsters, setup=None, players=2):
    """The first player walks into a room (west: the Entrance; south: an explored room through a
    door; north: darkness; east: a wall then another room) and loses the fight there."""
    s = quiet(players)
    a = s.turn.seat
    s, (r1,) = line(s, 1)
    s = s.replace(rooms=s.rooms[:r1] + (s.rooms[r1].replace(sides=(CORRIDOR, WALL, DOOR, CORRIDOR)),))
    s = add_room(s, 1, 1, (DOOR, WALL, WALL, WALL))  # south, explored, through a door
    south = len(s.rooms) - 1
    s = add_room(s, 2, 0, (WALL, WALL, WALL, WALL))  # east, behind a wall
    for card in monsters:
        s = add_monster(s, card, r1, nxt(s))
    if setup:
        s = setup(s, a)
    s, _ = act(s, a, "move", E)
    s = rig(s, 1, *([6] * sum(CARDS.card(c).dice for c in monsters)))
    s, ev = act(s, a, "roll")
    while s.combat.stage == "window":
        s, ev = act(s, s.combat.waiting[0], "pass")
    assert kinds_of(ev, "combat_result")[0][-1] is False
    return s, a, r1, south


def escape(s, uid, roll):
    return act(rig(s, roll), s.combat.fighter, "escape", uid)


def test_run_only_to_adjacent_explored_rooms_through_non_walls():
    """Q-RUN-1: the choices are the explored neighbours not behind a wall, chosen before rolling."""
    s, a, r1, south = lost([HITS2])
    assert s.combat.stage == "run"
    assert {x.args[0] for x in legal(s, a) if x.kind == "run"} == {0, south}
    assert refused(s, a, "run", south + 1) == "phase/wrong"  # the walled-off room
    assert refused(s, a, "escape", s.monsters[0].uid) == "phase/wrong"  # direction first
    n0 = s.rng_n
    s, ev = act(s, a, "run", south)
    assert ev == (("runs", a, south),) and s.rng_n == n0
    assert s.combat.stage == "escape" and s.combat.run_to == south


def test_five_or_more_escapes_a_failed_roll_brings_bad_stuff():
    """Q-RUN-2: one die per monster; 5+ escapes it, less applies its Bad Stuff; Q-RUN-3: alive
    after all rolls, you are in the chosen room whatever the rolls."""
    s, a, r1, south = lost([HITS2, HITS2])
    assert s.players[a].hp == 2
    s, _ = act(s, a, "run", south)
    m1, m2 = (m.uid for m in s.monsters)
    s, ev = escape(s, m2, 5)  # in the order the runner chooses
    assert ev == (("escape_roll", a, m2, 5, 0, True),) and s.combat.to_escape == (m1,)
    s, ev = escape(s, m1, 4)
    assert ("escape_roll", a, m1, 4, 0, False) in ev and ("bad_stuff", a, m1) in ev
    assert ("hit", a, 2, 0) in ev and not s.players[a].alive
    # Q-RUN-3: killed, the munchkin dies in the fight room
    assert ("death", a, r1, "hits") in ev


def test_alive_after_a_failed_roll_you_still_reach_the_chosen_room():
    """Q-RUN-3: the runner reaches the chosen room even after failing."""
    s, a, r1, south = lost([LEVELS], setup=lambda s, a: set_player(s, a, level=3))
    s, _ = act(s, a, "run", south)
    s, ev = escape(s, s.monsters[0].uid, 1)
    assert s.players[a].level == 2 and s.players[a].room == south and s.combat is None
    assert ("arrives", a, south) in ev


def test_runaway_modifiers_from_monster_item_and_room():
    """Q-RUN-2: race, item and card modifiers apply to the 5+ roll."""
    boots = treasure_card(lambda d: d.kind == "item" and not d.only and not d.not_for
                          and any(e.name == "runaway" and e.get("amount") == 2 for e in d.effects))
    s, a, r1, south = lost([HITS2], setup=lambda s, a: put(s, a, (boots, "worn")))
    s, _ = act(s, a, "run", south)
    s, ev = escape(s, s.monsters[0].uid, 3)
    assert ev[0].kind == "escape_roll" and (ev[0].roll, ev[0].mod, ev[0].escaped) == (3, 2, True)
    assert s.players[a].room == south and s.players[a].hp == 3
    slow_to_flee = monster_card(lambda d: d.runaway == 1 and not d.ignores and (d.level >= 2 or d.dice))
    s, a, r1, south = lost([slow_to_flee])
    s, _ = act(s, a, "run", south)
    s, ev = escape(s, s.monsters[0].uid, 4)
    assert (ev[0].roll, ev[0].mod, ev[0].escaped) == (4, 1, True)


def test_bad_stuff_that_cannot_touch_you_is_one_hit():
    """Q-RUN-2: Bad Stuff that cannot affect you (no gold to lose) is replaced by one hit."""
    s, a, r1, south = lost([GOLD], setup=lambda s, a: set_player(s, a, gold=0))
    s, _ = act(s, a, "run", south)
    s, ev = escape(s, s.monsters[0].uid, 1)
    assert s.players[a].hp == 2 and ("hit", a, 1, 2) in ev and not kinds_of(ev, "gold_lost")
    amount = CARDS.card(GOLD).bad_stuff[0].get("amount")
    s, a, r1, south = lost([GOLD], setup=lambda s, a: set_player(s, a, gold=1000))
    s, _ = act(s, a, "run", south)
    s, ev = escape(s, s.monsters[0].uid, 1)
    assert s.players[a].gold == 1000 - (amount or 1000) and s.players[a].hp == 3


def test_lose_your_footgear_means_the_worn_one():
    """Q-RUN-2 with Q-ITEM-6: 'lose your footgear' takes the worn pair, never one in the backpack
    (then it cannot affect you: one hit instead)."""
    shoes = [d.id for d in CARDS.treasures if d.slot == "feet" and not d.only][:2]
    s, a, r1, south = lost([FEET], setup=lambda s, a: put(s, a, (shoes[0], "worn"), (shoes[1], "backpack")))
    s, _ = act(s, a, "run", south)
    s, ev = escape(s, s.monsters[0].uid, 1)
    assert [it.card for it in s.players[a].items] == [shoes[1]] and ("item_lost", a, shoes[0]) in ev
    assert s.players[a].hp == 3
    s, a, r1, south = lost([FEET], setup=lambda s, a: put(s, a, (shoes[1], "backpack")))
    s, _ = act(s, a, "run", south)
    s, ev = escape(s, s.monsters[0].uid, 1)
    assert [it.card for it in s.players[a].items] == [shoes[1]] and s.players[a].hp == 2


def test_lose_an_item_the_victim_chooses_among_items_in_play():
    """Q-RUN-2 with Q-ITEM-6: 'lose an item' lets the victim pick any item in play, belt and
    backpack included, never from hand."""
    helm = treasure_card(lambda d: d.slot == "head")
    potion = treasure_card(lambda d: d.kind == "oneshot")
    spare = treasure_card(lambda d: d.slot == "armour")
    kept = treasure_card(lambda d: d.slot == "feet")

    def setup(s, a):
        return hand(put(s, a, (helm, "worn"), (potion, "belt"), (spare, "backpack")), a, kept)

    s, a, r1, south = lost([ITEM], setup=setup)
    s, _ = act(s, a, "run", south)
    s, ev = escape(s, s.monsters[0].uid, 1)
    assert s.pending is not None and s.pending.seat == a and s.pending.kind == "lose_item"
    assert set(s.pending.options) == {helm, potion, spare}
    assert {x.args[0] for x in legal(s, a)} == {helm, potion, spare}
    s, ev = act(s, a, "choose", spare)
    assert ("item_lost", a, spare) in ev and spare in s.treasure_deck.discard
    assert s.players[a].hand == (kept,) and s.players[a].room == south and s.combat is None


def test_death_bad_stuff_kills_in_the_fight_room():
    """Q-RUN-3: killed by Bad Stuff, the munchkin dies in the fight room; no further rolls."""
    s, a, r1, south = lost([DEATH, HITS2])
    s, _ = act(s, a, "run", south)
    death_uid = s.monsters[0].uid
    s, ev = escape(s, death_uid, 1)
    assert ("death", a, r1, "bad stuff") in ev and not s.players[a].alive
    assert not kinds_of(ev[ev.index(("death", a, r1, "bad stuff")):], "escape_roll")
    assert s.turn.seat == nxt(s, a) and s.combat is None


def test_escape_card_instead_of_rolling():
    """Q-RUN-4: a card that says you escape is used after choosing where to run, before any roll;
    no dice, no Bad Stuff, you reach the chosen room."""
    card = dxm_card(lambda d: any(e.name == "escape" for e in d.effects))
    s, a, r1, south = lost([HITS2, HITS2], setup=lambda s, a: hand(s, a, card))
    assert Action(a, "use", (card,)) not in legal(s, a)  # the direction comes first
    s, _ = act(s, a, "run", south)
    assert Action(a, "use", (card,)) in legal(s, a)
    n0 = s.rng_n
    s, ev = act(s, a, "use", card)
    assert s.combat is None and s.players[a].room == south and s.players[a].hp == 2
    assert not kinds_of(ev, "escape_roll") and not kinds_of(ev, "bad_stuff") and s.rng_n == n0
    assert card in s.dxm_deck.discard


def test_escape_card_not_after_the_first_roll():
    """Q-RUN-4: 'decided before rolling'."""
    card = dxm_card(lambda d: any(e.name == "escape" for e in d.effects))
    s, a, r1, south = lost([HITS2, HITS2], setup=lambda s, a: hand(s, a, card))
    s, _ = act(s, a, "run", south)
    s, _ = escape(s, s.monsters[0].uid, 6)
    assert Action(a, "use", (card,)) not in legal(s, a)


def test_teleport_instead_of_running():
    """Q-RUN-4: a card that moves you magically replaces the run: off to the Entrance, no rolls."""
    card = dxm_card(lambda d: any(e.name == "teleport" for e in d.effects))
    s, a, r1, south = lost([HITS2], setup=lambda s, a: hand(s, a, card))
    assert Action(a, "use", (card,)) in legal(s, a)
    s, ev = act(s, a, "use", card)
    assert s.combat is None and s.players[a].room == 0 and not kinds_of(ev, "escape_roll")
    assert ("combat_ends", a, True) in ev


def test_runaway_one_shot_helps_every_roll_of_that_run():
    """Q-RUN-2, Q-RUN-4: a run-away one-shot played before rolling adds to the rolls."""
    shot = treasure_card(lambda d: d.kind == "oneshot" and any(e.name == "runaway" for e in d.effects))
    amount = next(e.get("amount") for e in CARDS.card(shot).effects if e.name == "runaway")
    s, a, r1, south = lost([HITS2, HITS2], setup=lambda s, a: hand(s, a, shot))
    s, _ = act(s, a, "run", south)
    s, _ = act(s, a, "use", shot)
    m1, m2 = s.combat.to_escape
    s, ev = escape(s, m1, 5 - amount)
    assert ev[0] == ("escape_roll", a, m1, 5 - amount, amount, True)
    s, ev = escape(s, m2, 5 - amount)
    assert ev[0].escaped is True and s.players[a].room == south and s.players[a].hp == 2


def test_cornered_suffers_every_bad_stuff_and_the_turn_ends():
    """Q-RUN-5: no adjacent explored room: every monster's Bad Stuff applies without a roll and
    the turn ends (monster turn, next player)."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s = add_room(s, 5, 5, (WALL, WALL, WALL, WALL), face=PLAIN)
    cell = len(s.rooms) - 1
    s = set_player(s, b, room=cell, level=4, gold=1000)
    s = add_monster(s, LEVELS, cell, a)
    s = add_monster(s, GOLD, cell, a)
    s, ev = act(rig(s, colour(5)), a, "end_turn")
    assert s.combat.fighter == b
    s = rig(s, 1, *([6] * (CARDS.card(LEVELS).dice + CARDS.card(GOLD).dice)))
    s, ev = act(s, b, "roll")
    assert ("cornered", b) in ev and s.combat.stage == "escape" and s.combat.run_to == -1
    assert s.players[b].hp == 2
    assert {x.kind for x in legal(s, b)} == {"escape", "suicide", "drop"}
    uids = s.combat.to_escape
    n0 = s.rng_n
    s, ev = act(s, b, "escape", uids[0])
    assert not kinds_of(ev, "escape_roll") and s.rng_n == n0 and s.players[b].level == 3
    assert s.turn.seat == b
    s, ev = act(rig(s, colour(5)), b, "escape", uids[1])
    assert not kinds_of(ev, "escape_roll") and s.players[b].gold < 1000
    assert s.players[b].alive and s.players[b].room == cell and s.combat is None
    names = [e.kind for e in ev]
    assert names.index("gold_lost") < names.index("monster_turn") < names.index("turn")
    assert s.turn.seat == a
