"""Setting up a game (Q-SETUP), the starting character (Q-SETUP-3) and views (Q-DIGI-4)."""
from __future__ import annotations

from collections import Counter

from builders import (
    CARDS,
    RED,
    act,
    colour,
    dxm_card,
    legal,
    monster_card,
    nxt,
    quiet,
    refused,
    rig,
    set_player,
    treasure_card,
)

from mq import core
from mq.rules import Action, apply, make_params, new_game, view
from mq.rules.newgame import roll_order
from mq.rules.state import SETUP, TURN, Deck, Room


def test_decks_hold_every_card_once_and_discards_start_empty():
    """Q-SETUP-1: three separate decks, all cards present (in a deck or a starting hand)."""
    s = new_game(make_params(3), 11)
    held = Counter(c for p in s.players for c in p.hand)
    treasure_ids = {d.id for d in CARDS.treasures}
    assert Counter(s.monster_deck.draw) == Counter(d.id for d in CARDS.monsters)
    assert Counter(s.treasure_deck.draw) + Counter(c for c in held.elements() if c in treasure_ids) \
        == Counter(d.id for d in CARDS.treasures)
    assert Counter(s.dxm_deck.draw) + Counter(c for c in held.elements() if c not in treasure_ids) \
        == Counter(d.id for d in CARDS.dxm)
    assert sorted(s.room_deck.draw) == sorted(t.id for t in CARDS.rooms)
    assert sorted(s.connector_deck.draw) == sorted(c.id for c in CARDS.connectors)
    for deck in (s.monster_deck, s.treasure_deck, s.dxm_deck):
        assert deck.discard == ()


def test_decks_are_shuffled_by_the_seed():
    """Q-SETUP-1: each deck is shuffled; another seed gives another order, the same seed the same."""
    a, b, again = new_game(make_params(2), 1), new_game(make_params(2), 2), new_game(make_params(2), 1)
    assert a.monster_deck.draw != tuple(d.id for d in CARDS.monsters)
    assert a.monster_deck.draw != b.monster_deck.draw
    assert a.room_deck.draw != b.room_deck.draw
    assert a == again


def test_an_empty_deck_is_rebuilt_from_its_discards():
    """Q-SETUP-1: the turn-start DxM comes from the shuffled discards when the deck is empty."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    d1, d2 = dxm_card(lambda d: d.kind == "race"), dxm_card(lambda d: d.kind == "class")
    s = s.replace(dxm_deck=Deck((), (d1, d2)))
    s = rig(s, colour(5))  # nobody plays orange: the monster turn draws nothing
    s2, ev = act(s, a, "end_turn")
    assert ("reshuffle", "dxm") in ev
    drawn = s2.players[b].hand
    assert len(drawn) == 1 and drawn[0] in (d1, d2)
    assert s2.dxm_deck.discard == ()
    assert s2.dxm_deck.draw == tuple({d1, d2} - set(drawn))


def test_nobody_draws_when_deck_and_discards_are_empty():
    """Q-SETUP-1: with both piles empty, nobody can draw that kind of card."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s = s.replace(dxm_deck=Deck((), ()))
    s = rig(s, colour(b))  # the monster die would make b draw too
    s2, ev = act(s, a, "end_turn")
    assert s2.players[b].hand == ()
    assert not [e for e in ev if e.kind == "draw"]
    assert ("turn", b, s.turn.number + 1) in ev


def test_entrance_alone_at_the_origin_with_four_corridors():
    """Q-SETUP-2: the Entrance at (0,0) with a corridor on each side; nothing else placed."""
    s = new_game(make_params(4), 3)
    assert s.rooms == (Room(face="ENTRANCE", x=0, y=0, sides=(0, 0, 0, 0)),)
    assert s.monsters == ()


def test_every_munchkin_starts_the_same():
    """Q-SETUP-3, Q-COMP-7: level 1 human, no class, 4 HP, 3 move, 300 gold, 3 Treasure + 3 DxM, in
    the Entrance."""
    s = new_game(make_params(5), 9)
    treasure_ids = {d.id for d in CARDS.treasures}
    for p in s.players:
        assert (p.level, p.hp, p.max_hp, p.gold, p.room, p.alive) == (1, 4, 4, 300, 0, True)
        assert p.races == () and p.classes == () and p.items == ()
        assert sum(c in treasure_ids for c in p.hand) == 3
        assert sum(c not in treasure_ids for c in p.hand) == 3
        assert not p.ready
    assert s.phase == SETUP and s.turn is None


def test_starting_move_is_three():
    """Q-SETUP-3: every munchkin starts with 3 move (Q-CHAR-7 base move)."""
    from mq.rules.character import move_total
    s = new_game(make_params(2), 9)
    assert all(move_total(p, CARDS) == 3 for p in s.players)


def test_four_plus_four_starting_hands_option():
    """Q-SETUP-3 (Q-OPT-3): the table may deal 4 Treasure + 4 DxM instead."""
    s = new_game(make_params(2, start_cards=4), 9)
    assert all(len(p.hand) == 8 for p in s.players)


def test_before_the_first_turn_only_race_class_and_items_go_into_play():
    """Q-SETUP-3: in setup a munchkin may play race, class and item cards (a one-shot onto the
    belt, Q-ITEM-1), then gets ready."""
    race = dxm_card(lambda d: d.kind == "race")
    klass = dxm_card(lambda d: d.kind == "class")
    item = treasure_card(lambda d: d.kind == "item" and d.slot == "head")
    shot = treasure_card(lambda d: d.kind == "oneshot")
    level = treasure_card(lambda d: d.kind == "level")
    s = set_player(new_game(make_params(2), 5), 0, hand=(race, klass, item, shot, level))
    offered = set(legal(s, 0))
    assert offered == {Action(0, "play", (race,)), Action(0, "play", (klass,)),
                       Action(0, "play", (item,)), Action(0, "play", (shot,)), Action(0, "ready")}
    s = apply(s, Action(0, "play", (race,)))
    s = apply(s, Action(0, "play", (item,)))
    p = s.players[0]
    assert p.races == (race,) and [it.card for it in p.items] == [item] and p.hand == (klass, shot, level)
    assert Action(0, "play", (dxm_card(lambda d: d.kind == "race" and d.id != race),)) not in legal(s, 0)
    assert refused(s, 0, "move", 0) == "phase/wrong"


def test_the_game_starts_when_everyone_is_ready():
    """Q-SETUP-3, 4: the first turn begins once all are ready, with the first player in order."""
    s = new_game(make_params(3), 4)
    s = apply(s, Action(s.order[2], "ready"))
    s = apply(s, Action(s.order[0], "ready"))
    assert s.phase == SETUP and legal(s, s.order[2]) == ()
    s, ev = act(s, s.order[1], "ready")
    assert s.phase == TURN and s.turn.seat == s.order[0] and s.turn.number == 1
    assert ev[0] == ("turn", s.order[0], 1)


class _Dice:
    def __init__(self, rolls):
        self.rolls = list(rolls)

    def d6(self):
        return self.rolls.pop(0)


def test_turn_order_highest_roll_first_ties_reroll():
    """Q-SETUP-4: everyone rolls, the tied highest re-roll, then seat order from the winner."""
    dice = _Dice([3, 5, 5, 2, 4, 6])  # seats 1 and 2 tie on 5; seat 2 wins the re-roll
    assert roll_order(dice, 4) == (2, 3, 0, 1)
    assert dice.rolls == []
    assert roll_order(_Dice([1, 6, 2]), 3) == (1, 2, 0)


def test_new_game_order_follows_the_rolls():
    """Q-SETUP-4 through new_game: replaying the RNG stream (shuffles, then the rolls) gives the
    same first player."""
    for seed in range(6):
        players = 2 + seed % 5
        s = new_game(make_params(players), seed)
        n = 0
        for deck in (CARDS.rooms, CARDS.connectors, CARDS.monsters, CARDS.treasures, CARDS.dxm):
            _, n = core.rng_shuffle(seed, n, tuple(range(len(deck))))
        contenders = list(range(players))
        while len(contenders) > 1:
            rolls = []
            for c in contenders:
                v, n = core.rng_d6(seed, n)
                rolls.append((v, c))
            top = max(v for v, _ in rolls)
            contenders = [c for v, c in rolls if v == top]
        assert s.order == tuple((contenders[0] + i) % players for i in range(players))
        assert s.rng_n == n


def test_views_hide_hands_deck_order_and_the_seed():
    """Q-DIGI-4: a seat sees its own hand; others' hands, every deck's order and the RNG seed are
    hidden (same sizes); discard piles stay face up."""
    s = quiet(3)
    s = set_player(s, 0, hand=("T01", "D01"))
    s = set_player(s, 1, hand=("T02",))
    s = s.replace(monster_deck=s.monster_deck.replace(discard=(monster_card(),)))
    v = view(s, 0)
    assert v.players[0].hand == ("T01", "D01")
    assert v.players[1].hand == ("?",)
    assert v.players[2].hand == ()
    for name in ("monster_deck", "treasure_deck", "dxm_deck", "room_deck", "connector_deck"):
        assert getattr(v, name).draw == ("?",) * len(getattr(s, name).draw)
    assert v.monster_deck.discard == s.monster_deck.discard
    assert v.rng_seed == 0 and v.rng_n == 0
    assert v.players[1].level == s.players[1].level and v.monsters == s.monsters
    # a spectator (seat -1) sees no hand at all
    assert all(set(p.hand) <= {"?"} for p in view(s, -1).players)


def test_monster_die_colours_follow_seat_order():
    """Q-SETUP-3 / Q-COMP-5: seat i plays colour i; the monster die's red is seat 0."""
    s = quiet(2)
    a = s.turn.seat
    s = rig(s, colour(RED))
    s2, ev = act(s, a, "end_turn")
    assert ("monster_turn", a, RED) in ev
    assert [e for e in ev if e.kind == "draw"][0].seat == 0


def test_each_player_chooses_their_gender():
    """Q-SETUP-3: each seat's munchkin has the gender its player chose (part of the parameters,
    so of the hash); a seat left to chance gets one rolled from the game's seed, the same every time,
    and the rest of the set-up is the same as if it had been chosen."""
    from mq.rules import IllegalAction, state_hash

    chosen = new_game(make_params(3, ("female", "female", "male")), 21)
    assert [p.gender for p in chosen.players] == ["female", "female", "male"]
    assert state_hash(chosen) != state_hash(new_game(make_params(3, ("male", "female", "male")), 21))
    rolled = [new_game(make_params(3, ("female", "rolled", "rolled")), seed) for seed in range(40)]
    assert all(s.players[0].gender == "female" for s in rolled)
    assert {s.players[1].gender for s in rolled} == {"male", "female"}  # the seed decides, both happen
    again = new_game(make_params(3, ("female", "rolled", "rolled")), 7)
    assert [p.gender for p in again.players] == [p.gender for p in rolled[7].players]
    fixed = new_game(make_params(3, ("female", *(p.gender for p in again.players[1:]))), 7)
    assert [p.hand for p in fixed.players] == [p.hand for p in again.players] and fixed.order == again.order
    try:
        make_params(2, ("female", "robot"))
    except IllegalAction as err:
        assert "male, female or rolled" in err.detail
    else:
        raise AssertionError("an unknown gender was taken")
