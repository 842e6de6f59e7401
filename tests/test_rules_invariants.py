"""The invariants of mq.rules.invariants: each check catches what it is about (on positions built
to break it), and every one holds after every step of many bot games (mq.soak, the same games as
``python -m mq.soak``), in whichever core mode the suite runs.

The games are played once per process and per chunk; the chunks keep to one xdist worker each
(``--dist loadgroup``, pyproject.toml), so the suite plays each game once per pass.  An invariant
that a known defect still breaks is marked ``xfail(strict=True)`` naming the defect: the test
fails as soon as the defect is fixed, and the mark must go."""
from __future__ import annotations

import functools

import pytest
from builders import CARDS, add_monster, dxm_card, put, quiet, set_player, started, take, treasure_card

from mq import soak
from mq.rules import invariants
from mq.rules.events import make
from mq.rules.state import OVER, Combat, Item

CHUNKS = 2
GAMES_PER_CHUNK = 125  # 250 bot games per pass of the suite, 500 over both core modes
SEED = 1


@functools.cache
def report(chunk: int) -> soak.Report:
    return soak.check_games(GAMES_PER_CHUNK, SEED, start=chunk * GAMES_PER_CHUNK)


def chunks():
    return [pytest.param(i, marks=pytest.mark.xdist_group(f"invariants-{i}"), id=f"games{i}") for i in range(CHUNKS)]


def holds(name: str, chunk: int) -> None:
    r = report(chunk)
    assert r.games == GAMES_PER_CHUNK and r.steps > 100 * GAMES_PER_CHUNK
    assert name not in r.broken, f"{name}: broken in {r.broken[name]} of {r.games} games; first: {r.first[name]}"


def found(name: str, before, after, events=()) -> list[str]:
    """What invariant ``name`` finds wrong in one step; ``events`` as plain tuples (kind first)."""
    return dict(invariants.INVARIANTS)[name](before, after, tuple(make(e) for e in events), CARDS)


# -- over bot games -----------------------------------------------------------------------------
@pytest.mark.parametrize("chunk", chunks())
@pytest.mark.parametrize("name", [name for name, _ in invariants.INVARIANTS])
def test_bot_games_keep_each_invariant_after_every_step(name, chunk):
    """Each invariant of mq.rules.invariants after every step of the bot games: card conservation
    (Q-SETUP-1, Q-ITEM-4, Q-MON-5, Q-COMBAT-12, Q-COMBAT-13); carried items need at most 2 hands,
    a Cheat!-ed one none (Q-ITEM-1, Q-ITEM-4); one item per single slot, items only where their slot
    allows, a backpack of 2 (Q-ITEM-3); card level, its own modifiers and enhancers are never below
    1 in a fight (Q-LAW-1); the 10th level only by a kill, levels in 1..10 (Q-LAW-2, Q-CHAR-1); the
    monsters win the moment every munchkin is dead (Q-DEATH-5)."""
    holds(name, chunk)


# -- each check catches what it is about ------------------------------------------------------
def test_card_conservation_catches_a_lost_a_doubled_and_a_foreign_card():
    """Q-SETUP-1: a fresh game holds every card once; a card lost, held twice or unknown is found."""
    s = started(3)
    assert found("cards", s, s) == []
    card = s.players[0].hand[0]
    lost = set_player(s, 0, hand=s.players[0].hand[1:])
    assert found("cards", s, lost) == [f"{card} is in no zone"]
    doubled = set_player(s, 1, hand=s.players[1].hand + (card,))
    assert found("cards", s, doubled) == [f"{card} is in 2 zones: seat 0's hand, seat 1's hand"]
    foreign = set_player(s, 1, hand=s.players[1].hand + ("X99",))
    assert found("cards", s, foreign) == ["X99 is not a card of the set (seat 1's hand)"]
    tile = s.room_deck.draw[0]
    assert found("cards", s, s.replace(room_deck=s.room_deck.replace(draw=s.room_deck.draw[1:]))) == [
        f"room tile {tile} is there 0 times"]


def test_card_conservation_counts_a_cheat_an_enhancer_the_fight_s_one_shots_and_a_mate():
    """Q-ITEM-4, Q-COMBAT-12, Q-COMBAT-13, Q-CARD-6: cards on items, on monsters and in the fight
    are in a zone; a Mate holds its Mate card, not the card it copies."""
    s = started(2)
    weapon = treasure_card(lambda d: d.slot == "hands" and d.hands == 1)
    cheat = dxm_card(lambda d: d.kind == "cheat")
    enhancer = dxm_card(lambda d: d.kind == "enhancer")
    mate = dxm_card(lambda d: d.kind == "mate")
    oneshot = treasure_card(lambda d: d.kind == "oneshot")
    monster = s.monster_deck.draw[0]
    s = take(s, [weapon, cheat, enhancer, oneshot, mate, monster])
    s = set_player(s, 0, items=(Item(weapon, "carried", cheat=cheat),))
    s = add_monster(add_monster(s, monster, 0, 0), monster, 0, 1)
    m, copy = s.monsters
    s = s.replace(monsters=(m.replace(enhancers=(enhancer,)), copy.replace(mate=mate)),
                  combat=Combat(fighter=0, room=0, monsters=(m.uid, copy.uid), used=(oneshot,), used_by=(0,)))
    assert found("cards", s, s) == []
    stripped = set_player(s, 0, items=(Item(weapon, "carried"),))
    assert found("cards", s, stripped) == [f"{cheat} is in no zone"]
    assert found("cards", s, s.replace(combat=s.combat.replace(used=()))) == [f"{oneshot} is in no zone"]


def test_hands_count_a_cheat_as_needing_none():
    """Q-ITEM-1, Q-ITEM-4: two hands' worth and a Cheat!-ed one is fine; three hands without it is not."""
    two = treasure_card(lambda d: d.slot == "hands" and d.hands == 2)
    one = treasure_card(lambda d: d.slot == "hands" and d.hands == 1)
    cheat = dxm_card(lambda d: d.kind == "cheat")
    s = quiet(2)
    ok = set_player(s, 0, items=(Item(two, "carried"), Item(one, "carried", cheat=cheat)))
    assert found("hands", s, ok) == []
    bad = set_player(s, 0, items=(Item(two, "carried"), Item(one, "carried")))
    assert found("hands", s, bad) == [f"seat 0 uses 3 hands: {two}, {one}"]


def test_slots_catch_two_helmets_a_worn_weapon_and_a_full_backpack():
    """Q-ITEM-1, Q-ITEM-3."""
    heads = [d.id for d in CARDS.treasures if d.slot == "head"][:3]
    weapon = treasure_card(lambda d: d.slot == "hands")
    s = quiet(2)
    assert found("slots", s, put(s, 0, (heads[0], "worn"), (heads[1], "backpack"), (heads[2], "backpack"))) == []
    assert found("slots", s, put(s, 0, (heads[0], "worn"), (heads[1], "worn"))) == [
        f"seat 0 wears 2 head items: {heads[0]}, {heads[1]}"]
    assert found("slots", s, put(s, 0, (weapon, "worn"))) == [f"seat 0: {weapon} (hands) is worn"]
    packed = put(s, 0, (heads[0], "backpack"), (heads[1], "backpack"), (heads[2], "backpack"))
    assert found("slots", s, packed) == [f"seat 0 has 3 items in the backpack: {', '.join(heads)}"]


def test_monster_level_check_leaves_room_bonuses_and_one_shots_on_top(monkeypatch):
    """Q-LAW-1: the check sums a monster's fight terms except the room's and the one-shots'."""
    from mq.rules import combat

    s = add_monster(quiet(2), CARDS.monsters[0].id, 0, 0)
    fight = s.replace(combat=Combat(fighter=0, room=0, monsters=(s.monsters[-1].uid,)))
    assert found("monster_level", s, s) == []  # no fight, nothing to check
    for terms, level in (((("level", 1), ("enhancers", -2), ("vs", 0), ("room", 5)), -1),
                         ((("level", 1), ("enhancers", 0), ("vs", 0), ("room", -5)), 1)):
        monkeypatch.setattr(combat, "outcome", lambda state, cards, t=terms: ((), (t,), (), 0, 0, True))
        want = [] if level >= 1 else [f"monster {fight.combat.monsters[0]} fights at level {level}: {terms}"]
        assert found("monster_level", s, fight) == want


def test_tenth_level_only_by_a_kill():
    """Q-LAW-2: level 9 to 10 needs a ("level", seat, 10, "kill") event in the same step."""
    s = set_player(quiet(2), 0, level=9)
    ten = set_player(s, 0, level=10)
    assert found("tenth_level", s, ten, [("level", 0, 10, "kill")]) == []
    assert found("tenth_level", s, ten, [("level", 0, 10, "card")]) == [
        "seat 0 reached level 10 without a kill (['card'])"]
    assert found("tenth_level", s, set_player(s, 0, level=11), [("level", 0, 11, "kill")]) == ["seat 0 is at level 11"]


def test_monsters_win_is_checked_along_the_step_s_events():
    """Q-DEATH-5: every munchkin dead at any moment of a step (even if one respawns later in it) ends
    the game with no winner."""
    s = quiet(2)
    dead = set_player(set_player(s, 0, alive=False), 1, alive=False)
    deaths = [("death", 0, 0, "hits"), ("death", 1, 0, "hits")]
    assert found("monsters_win", s, dead, deaths) == ["every munchkin was dead (seat 1 died last), yet the game goes on"]
    respawned = set_player(dead, 0, alive=True)
    assert found("monsters_win", s, respawned, deaths + [("respawn", 0)]) != []
    over = dead.replace(phase=OVER)
    assert found("monsters_win", s, over, deaths) == []
    assert found("monsters_win", s, over.replace(winners=(0,)), deaths) == ["every munchkin died, yet (0,) won"]
    assert found("monsters_win", s, set_player(s, 0, alive=False), deaths[:1]) == []
