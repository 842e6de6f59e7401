"""Narration (mq.narrate): sentences for people, without the engine's repetitions."""
from mq.cards import load_default
from mq.narrate import Narrator, things


def narrator():
    return Narrator(load_default())


def test_a_seat_passed_by_the_engine_is_told_once_per_fight_and_stage():
    n = narrator()
    first = n.lines(None, [("auto_pass", 1, "window"), ("auto_pass", 1, "outcome")])
    assert first == ["  Green has nothing to play: passes.", "  Green has no card to change a die: passes."]
    assert n.lines(None, [("auto_pass", 1, "window"), ("auto_pass", 2, "window")]) == [
        "  Blue has nothing to play: passes."]
    n.lines(None, [("combat_starts", 0, 0, ())])  # a new fight: told again
    assert n.lines(None, [("auto_pass", 1, "window")]) == ["  Green has nothing to play: passes."]


def test_cards_given_for_charity_are_one_sentence_per_giver_and_receiver():
    n = narrator()
    events = [("charity", 0, 1)] * 3 + [("charity", 0, 2), ("charity", 0, 1)]
    assert n.lines(None, events) == ["Red gives 3 cards to Green (charity).",
                                     "Red gives 1 card to Blue (charity).",
                                     "Red gives 1 card to Green (charity)."]


def test_counts_of_cards_and_gold_read_as_english():
    assert things(2, 300, "item") == "2 items and 300 gold"
    assert things(1, 0, "item") == "1 item"
    assert things(0, 300) == "300 gold"
    assert things(0, 0) == "nothing"


def test_one_winner_defeats_the_boss_several_defeat_it():
    n = narrator()
    assert n.lines(None, [("game_won", (1,))]) == ["*** Green defeats the Boss and wins the game! ***"]
    assert n.lines(None, [("game_won", (0, 2))]) == ["*** Red and Blue defeat the Boss and win the game! ***"]
