"""Narration (mq.narrate): sentences for people, without the engine's repetitions."""
from builders import CARDS, act, colour, hand, nxt, quiet, rig, set_player

from mq.cards import load_default
from mq.narrate import Narrator, things
from mq.rules import view_events
from mq.rules.events import make
from mq.rules.view import TABLE

ONE_SHOTS = tuple(d.id for d in CARDS.dxm if d.kind == "oneshot")


def narrator():
    return Narrator(load_default())


def made(*fields):
    """Events of these kinds and fields, as the engine builds them (mq.rules.events)."""
    return [make(f) for f in fields]


def test_a_seat_passed_by_the_engine_is_told_once_per_fight_and_stage():
    n = narrator()
    first = n.lines(None, made(("auto_pass", 1, "window"), ("auto_pass", 1, "outcome")))
    assert first == ["  Green has nothing to play: passes.", "  Green has no card to change a die: passes."]
    assert n.lines(None, made(("auto_pass", 1, "window"), ("auto_pass", 2, "window"))) == [
        "  Blue has nothing to play: passes."]
    n.lines(None, made(("combat_starts", 0, 0, ())))  # a new fight: told again
    assert n.lines(None, made(("auto_pass", 1, "window"))) == ["  Green has nothing to play: passes."]


def test_cards_given_for_charity_are_one_sentence_per_receiver_once_the_charity_is_over():
    """Q-CHARITY on the engine's own events: each card given is one action, so the narrator tells
    the charity after the last gift, before that action's monster turn, one sentence per
    receiver (the split is even, the giver choosing who gets the larger part)."""
    s = quiet(3)
    a, b = s.turn.seat, nxt(s)
    c = nxt(s, b)
    s = set_player(set_player(s, b, level=1), c, level=1)
    s = hand(set_player(s, a, level=3), a, *ONE_SHOTS[:8])
    n = narrator()
    s, events = act(rig(s, colour(5)), a, "end_turn")
    assert n.lines(s, view_events(events, TABLE)) == []
    told = []
    for to in (b, c, b):
        assert s.pending is not None and s.pending.kind == "charity"
        s, events = act(rig(s, colour(5)), a, "give", s.players[a].hand[0], to)
        told.append(n.lines(s, view_events(events, TABLE)))
    assert told[0] == told[1] == []
    w = n.who
    assert told[2][:3] == [f"{w(a)} gives 2 cards to {w(b)} (charity).", f"{w(a)} gives 1 card to {w(c)} (charity).",
                           f"Monster turn: {w(a)} rolls orange."]
    assert not any("charity" in line for line in n.lines(s, ()))  # told once


def test_counts_of_cards_and_gold_read_as_english():
    assert things(2, 300, "item") == "2 items and 300 gold"
    assert things(1, 0, "item") == "1 item"
    assert things(0, 300) == "300 gold"
    assert things(0, 0) == "nothing"


def test_one_winner_defeats_the_boss_several_defeat_it():
    n = narrator()
    assert n.lines(None, made(("game_won", (1,)))) == ["*** Green defeats the Boss and wins the game! ***"]
    assert n.lines(None, made(("game_won", (0, 2)))) == ["*** Red and Blue defeat the Boss and win the game! ***"]


def test_the_monsters_win_is_told():
    """Q-DEATH-5: the game's end with no winner is said in words."""
    assert narrator().lines(None, made(("monsters_win",))) == ["*** Every munchkin is dead: the monsters win the game! ***"]
