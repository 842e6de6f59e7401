"""Charity at the end of a turn (Q-CHARITY)."""
from __future__ import annotations

from builders import (
    CARDS,
    act,
    colour,
    dxm_card,
    hand,
    kinds_of,
    legal,
    nxt,
    quiet,
    refused,
    rig,
    set_player,
)

CARDS7 = tuple(d.id for d in CARDS.dxm if d.kind == "oneshot")[:8]
DWARF = dxm_card(lambda d: d.key == "dwarf")


def _end(s, n_cards, level=3, **others):
    a = s.turn.seat
    s = hand(set_player(s, a, level=level), a, *CARDS7[:n_cards])
    for seat, lvl in others.items():
        s = set_player(s, int(seat[1:]), level=lvl)
    return act(rig(s, colour(5)), a, "end_turn")


def test_five_cards_or_fewer_keep_everything():
    """Q-CHARITY: the limit is 5 cards."""
    s = quiet(2)
    a = s.turn.seat
    s2, ev = _end(s, 5)
    assert s2.pending is None and s2.players[a].hand == CARDS7[:5] and kinds_of(ev, "monster_turn")


def test_excess_goes_to_the_lowest_level_munchkins_split_evenly():
    """Q-CHARITY: the excess is given to the lowest-level munchkins, as evenly as possible, the
    giver choosing who gets the larger part; then the monster turn."""
    s = quiet(3)
    a, b = s.turn.seat, nxt(s)
    c = nxt(s, b)
    s = set_player(s, b, level=1)
    s = set_player(s, c, level=1)
    s, ev = _end(s, 8, level=3)
    assert s.pending.kind == "charity" and s.pending.seat == a and set(s.pending.options) == {b, c}
    assert not kinds_of(ev, "monster_turn")
    assert refused(s, b, "end_turn") == "seat/not-your-turn"
    first = s.players[a].hand[0]
    assert {x.args[1] for x in legal(s, a) if x.args[0] == first} == {b, c}
    s, ev = act(s, a, "give", first, b)
    assert ev == (("charity", a, b, first),) and s.players[b].hand == (first,)
    second = s.players[a].hand[0]
    assert {x.args[1] for x in legal(s, a)} == {c}  # b already got one more than c
    assert refused(s, a, "give", second, b) == "choice/invalid"
    s, ev = act(s, a, "give", second, c)
    third = s.players[a].hand[0]
    assert {x.args[1] for x in legal(s, a)} == {b, c}
    s, ev = act(s, a, "give", third, c)  # the giver picks who gets the larger part
    assert s.pending is None and len(s.players[a].hand) == 5
    assert s.players[c].hand == (second, third)
    assert kinds_of(ev, "monster_turn") and s.turn.seat == b
    assert s.players[b].hand[0] == first and len(s.players[b].hand) == 2  # + b's turn-start DxM


def test_only_higher_level_munchkins_give_the_lowest_one_gets_all():
    """Q-CHARITY: with one lowest munchkin, all the excess goes there."""
    s = quiet(3)
    a, b = s.turn.seat, nxt(s)
    c = nxt(s, b)
    s = set_player(set_player(s, b, level=2), c, level=4)
    s, _ = _end(s, 7, level=3)
    assert s.pending.options == (b,)
    while s.pending is not None:
        s, _ = act(s, a, "give", s.players[a].hand[0], b)
    assert s.players[b].hand[:2] == CARDS7[:2] and s.players[c].hand == ()
    assert s.turn.seat == b and len(s.players[b].hand) == 3  # + b's turn-start DxM


def test_the_lowest_level_giver_discards_the_excess():
    """Q-CHARITY: if you are (tied for) lowest, discard the excess instead."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s = set_player(s, b, level=2)
    s, _ = _end(s, 7, level=2)
    assert s.pending.kind == "charity" and s.pending.options == ()
    assert {x.kind for x in legal(s, a)} == {"discard"}
    s, ev = act(s, a, "discard", CARDS7[3])
    assert ev == (("charity_discard", a, CARDS7[3]),) and CARDS7[3] in s.dxm_deck.discard
    s, ev = act(s, a, "discard", CARDS7[0])
    assert s.players[a].hand == CARDS7[1:3] + CARDS7[4:7] and not set(s.players[b].hand) & set(CARDS7)
    assert s.turn.seat == b


def test_dwarves_keep_six():
    """Q-CHARITY: a card may raise the limit (dwarves 6)."""
    s = quiet(2)
    a = s.turn.seat
    s = set_player(s, a, races=(DWARF,))
    s2, _ = _end(s, 6)
    assert s2.pending is None and len(s2.players[a].hand) == 6
    s3, _ = _end(s, 7)
    assert s3.pending is not None
    s3, _ = act(s3, a, "give", CARDS7[0], 1 - a)
    assert s3.pending is None and len(s3.players[a].hand) == 6


def test_dead_munchkins_receive_charity():
    """Q-CHARITY: dead munchkins included."""
    s = quiet(3)
    a, b = s.turn.seat, nxt(s)
    c = nxt(s, b)
    s = set_player(s, b, level=1, alive=False, hp=0)
    s = set_player(s, c, level=2)
    s, _ = _end(s, 6, level=3)
    assert s.pending.options == (b,)
    s, ev = act(s, a, "give", CARDS7[0], b)
    assert ("charity", a, b, CARDS7[0]) in ev
    assert s.turn.seat == b and ("respawn", b) in ev
    assert s.players[b].hand[0] == CARDS7[0]  # kept through the respawn


ITEM = next(d.id for d in CARDS.treasures if d.kind == "item" and d.slot == "head" and not d.effects)
SHOT = next(d.id for d in CARDS.treasures if d.kind == "oneshot" and d.bonus > 0)
RACE = dxm_card(lambda d: d.kind == "race" and d.key != "dwarf")


def test_the_charity_decision_still_lists_the_plays_before_giving():
    """Q-CHARITY: before giving, the giver may still play cards — races, classes, items into play,
    one-shots onto the belt (Q-ITEM-1) — and the charity decision itself lists them; once the hand
    is within the limit the turn goes on to the monster turn."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s = hand(set_player(s, a, level=3), a, ITEM, SHOT, RACE, *CARDS7[:5])
    s, _ = act(rig(s, colour(5), colour(5)), a, "end_turn")
    assert s.pending.kind == "charity" and s.pending.options == (b,)
    plays = {x.args for x in legal(s, a) if x.kind == "play"}
    assert plays == {(ITEM,), (SHOT,), (RACE,)}
    assert not any(x.kind == "play" and x.args[0] in CARDS7 for x in legal(s, a))  # DxM one-shots stay in hand
    s, ev = act(s, a, "play", SHOT)
    assert ev == (("item", a, SHOT, "belt"),) and s.pending.kind == "charity"
    s, ev = act(s, a, "play", RACE)
    assert s.pending.kind == "charity" and RACE in s.players[a].races
    s, ev = act(s, a, "play", ITEM)  # 5 cards left: nothing to give
    assert s.pending is None and kinds_of(ev, "monster_turn") and s.turn.seat == b
    assert s.players[a].hand == CARDS7[:5] and s.players[b].hand[:-1] == ()


def test_a_lowest_giver_may_play_before_discarding_and_a_dwarf_keeps_six():
    """Q-CHARITY: the plays are listed when the giver must discard too; a race card played then
    may raise the limit (dwarves 6)."""
    s = quiet(2)
    a = s.turn.seat
    s = hand(s, a, DWARF, *CARDS7[:6])
    s, _ = act(rig(s, colour(5), colour(5)), a, "end_turn")
    assert s.pending.kind == "charity" and s.pending.options == ()
    assert {x.kind for x in legal(s, a)} == {"discard", "play"}
    s, ev = act(s, a, "play", DWARF)
    assert s.pending is None and kinds_of(ev, "monster_turn") and len(s.players[a].hand) == 6
