"""Room conditions beyond race and class (Q-COMBAT-6): "good for"/"bad for" a gender, odd or even
level, a level range or carrying an item keyword, in fights (the fighter's and the helper's own
dice) and searches, with a Half-Breed's benefits kept (Q-CARD-5)."""
from __future__ import annotations

import pytest
from builders import (
    CARDS,
    E,
    act,
    add_monster,
    add_room,
    dxm_card,
    face,
    fresh_turn,
    kinds_of,
    line,
    monster_card,
    nxt,
    put,
    quiet,
    rig,
    set_player,
    texts,
    treasure_card,
)

from mq.cards import ConditionKind
from mq.cards.conditions import parse
from mq.rules import conditions, query
from mq.rules.combat import dice_count

LURKER = monster_card(lambda d: d.movement == "lurking" and d.level == 1 and d.dice == 0 and not d.rewards)
ELF = dxm_card(lambda d: d.key == "elf")
HALFBREED = dxm_card(lambda d: d.kind == "halfbreed")
# A one-handed fire item for wizards only (Q-ITEM-4): its keyword counts only while it works.
FIRE = treasure_card(lambda d: d.kind == "item" and "fire" in d.keywords and d.slot == "hands" and d.hands == 1
                     and d.only == ("wizard",))
WIZARD = dxm_card(lambda d: d.key == "wizard")


def _face_with(colour: str, text: str) -> str:
    """The default face with exactly this one icon (``colour`` "green"/"red") and no other."""
    def only(f):
        mine, other = (f.green, f.red) if colour == "green" else (f.red, f.green)
        return texts(mine) == (text,) and not other
    return face(only)


ODD = _face_with("green", "odd level")
EVEN = _face_with("green", "even level")
LOW = _face_with("green", "level 1-3")
HIGH = _face_with("red", "level 8-10")
FEMALE = _face_with("green", "female")
MALE = _face_with("red", "male")
NO_FIRE = _face_with("red", "carrying fire")


def _player(**changes):
    s = quiet(2)
    a = s.turn.seat
    return set_player(s, a, **changes), a


def test_holds_for_each_kind_of_condition():
    """Q-COMBAT-6: each condition of the closed vocabulary, tested on a munchkin."""
    s, a = _player(level=3, gender="female")
    p = s.players[a]
    assert conditions.holds(parse("odd level"), p, CARDS) and not conditions.holds(parse("even level"), p, CARDS)
    assert conditions.holds(parse("level 1-3"), p, CARDS) and conditions.holds(parse("level 3"), p, CARDS)
    assert not conditions.holds(parse("level 4-6"), p, CARDS)
    assert conditions.holds(parse("female"), p, CARDS) and conditions.holds(parse("human"), p, CARDS)
    assert not conditions.holds(parse("male"), p, CARDS) and not conditions.holds(parse("elf"), p, CARDS)
    assert conditions.holds(parse("any", allow_any=True), p, CARDS)
    p = p.replace(level=4)
    assert conditions.holds(parse("even level"), p, CARDS) and not conditions.holds(parse("odd level"), p, CARDS)


def test_carrying_counts_only_items_that_work():
    """Q-COMBAT-6 "carrying a keyword": an item in play that works (worn or carried, Q-ITEM-2);
    not one in the backpack, in the hand, or switched off by its restriction (Q-ITEM-4)."""
    fire = parse("carrying fire")
    s, a = _player(classes=(WIZARD,))
    assert not conditions.holds(fire, s.players[a], CARDS)
    assert conditions.holds(fire, put(s, a, (FIRE, "carried")).players[a], CARDS)
    assert not conditions.holds(fire, put(s, a, (FIRE, "backpack")).players[a], CARDS)
    assert not conditions.holds(fire, set_player(s, a, hand=(FIRE,)).players[a], CARDS)
    s, a = _player()  # not a wizard: the item is switched off
    assert not conditions.holds(fire, put(s, a, (FIRE, "carried")).players[a], CARDS)


def test_a_half_breed_keeps_the_benefit_and_not_the_drawback():
    """Q-CARD-5: a Half-Breed elf meets "elf" for a green icon but not for a red one; with two races
    both count fully."""
    elf = parse("elf")
    s, a = _player(races=(ELF,), hybrids=(HALFBREED,))
    p = s.players[a]
    assert conditions.holds(elf, p, CARDS) and not conditions.holds(elf, p, CARDS, drawback=True)
    s, a = _player(races=(ELF,))
    assert conditions.holds(elf, s.players[a], CARDS, drawback=True)


def _fight(room_face, **changes):
    """The first player, with ``changes``, walks into ``room_face`` with a level-1 monster."""
    s = quiet(2)
    a = s.turn.seat
    s = set_player(s, a, **changes)
    s, (r1,) = line(s, 1, face=room_face)
    s = add_monster(s, LURKER, r1, nxt(s))
    s, _ = act(s, a, "move", E)
    assert s.combat is not None and s.combat.fighter == a
    return s, a


@pytest.mark.parametrize("room_face,changes,dice", [
    (ODD, {"level": 3}, 2), (ODD, {"level": 4}, 1),  # the rulebook's own example (seed 000 p.9)
    (EVEN, {"level": 4}, 2), (EVEN, {"level": 3}, 1),
    (LOW, {"level": 3}, 2), (LOW, {"level": 4}, 1),
    (HIGH, {"level": 8}, 0), (HIGH, {"level": 7}, 1),
    (FEMALE, {"gender": "female"}, 2), (FEMALE, {"gender": "male"}, 1),
    (MALE, {"gender": "male"}, 0), (MALE, {"gender": "female"}, 1),
])
def test_the_rooms_conditions_change_the_fighters_dice(room_face, changes, dice):
    """Q-COMBAT-6: +1 die per green icon that holds, −1 per red one, in the default rooms; the
    dice rolled are the ones the fight result shows (zero dice roll nothing)."""
    s, a = _fight(room_face, **changes)
    assert query.munchkin_dice(s, CARDS) == dice
    s = rig(s, *(3,) * dice)
    s, ev = act(s, a, "roll")
    while s.combat is not None and s.combat.stage == "window":
        s, more = act(s, s.combat.waiting[0], "pass")
        ev += more
    (r,) = kinds_of(ev, "combat_result")
    assert r.dice == (3,) * dice


def test_a_fire_item_in_play_takes_a_die():
    """Q-COMBAT-6: "bad for munchkins with a fire item" takes the die of a munchkin carrying one."""
    s, a = _fight(NO_FIRE, classes=(WIZARD,))
    assert query.munchkin_dice(s, CARDS) == 1
    s = put(s, a, (FIRE, "carried"))
    assert query.munchkin_dice(s, CARDS) == 0


def test_the_helpers_own_conditions_give_the_helper_dice():
    """Q-COMBAT-6, Q-HELP: the room is good or bad for each fighter by their own condition (seed 000
    p.10: a room good for the helper gives the helper an extra die)."""
    s, a = _fight(ODD, level=2)
    b = nxt(s)
    s = set_player(s, b, level=5, room=s.combat.room)
    s = s.replace(combat=s.combat.replace(helper=b))
    assert dice_count(s.players[a], s.rooms, CARDS, s.combat.room) == 1
    assert dice_count(s.players[b], s.rooms, CARDS, s.combat.room) == 2
    assert query.munchkin_dice(s, CARDS) == 3


def test_a_search_rolls_the_rooms_dice_too():
    """Q-SEARCH-1, Q-COMBAT-6: a searchable room good for odd levels gives a level-1 searcher two dice."""
    assert not CARDS.face(ODD).no_search
    s = quiet(2)
    a = s.turn.seat
    s = add_room(s, 7, 7, (4, 4, 4, 4), face=ODD)
    j = len(s.rooms) - 1
    s = fresh_turn(set_player(s, a, room=j, level=1), a)
    s, ev = act(rig(s, 2, 3), a, "search")
    assert ("search", a, j, (2, 3), 2 + 3 + CARDS.face(ODD).search) in ev


def test_icons_lists_what_counts_for_the_munchkin():
    """Q-COMBAT-6: ``icons`` is each icon that holds with its die, green first — what the client shows."""
    s, a = _player(level=8, gender="male")
    p = s.players[a]
    got = conditions.icons(p, CARDS.face(HIGH), CARDS)
    assert [(c.kind, c.text, die) for c, die in got] == [(ConditionKind.LEVELS, "level 8-10", -1)]
    assert conditions.icons(p.replace(level=7), CARDS.face(HIGH), CARDS) == ()


FLIER = treasure_card(lambda d: d.kind == "item" and "flying" in d.keywords and not d.only and not d.not_for)
HURTS_FLYERS = face(lambda f: any(e.name == "hurt_on_enter" and str(e.get("who")) == "carrying flying"
                                  for e in f.effects))


@pytest.mark.parametrize("place,hits", [("worn", 1), ("backpack", 0), (None, 0)])
def test_a_room_hurts_a_munchkin_whose_item_lets_them_fly(place, hits):
    """Q-DATA-1, Q-COMBAT-6: the default set's flying item makes its wearer a flyer, and the room
    that hurts flyers hits them on entering; in the backpack the item does nothing."""
    s = quiet(2)
    a = s.turn.seat
    if place is not None:
        s = put(s, a, (FLIER, place if CARDS.card(FLIER).slot != "hands" else "carried"))
    s, (r1,) = line(s, 1, face=HURTS_FLYERS)
    hp = s.players[a].hp
    s, ev = act(s, a, "move", E)
    assert s.players[a].room == r1 and s.players[a].hp == hp - hits
    assert (("room_hurts", a, r1) in ev) == (hits > 0)
