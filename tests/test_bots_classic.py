"""mq.bots.classic: the Classic bot's choices where a careless one hands the game to a rival."""
from __future__ import annotations

from classic_table import CARDS, Action, hand, in_play, playing, set_player

from mq.bots import classic as bot
from mq.rules import view

EVERY_CLERIC_UP = "CD89"  # Paperwork Approved by the Gods: every cleric goes up a level
CLERIC = "CD81"


def test_a_card_that_raises_every_cleric_is_kept_while_it_raises_only_a_rival():
    """Red, no cleric, holds the card while Green is one: playing it raised the leader alone; a
    cleric Red plays it, unless it would take another cleric to the winning level."""
    s = hand(in_play(set_player(playing(3), 1, level=5), 1, CLERIC), 0, EVERY_CLERIC_UP)
    play = Action(0, "play", (EVERY_CLERIC_UP,))
    assert bot.choose(view(s, 0), 0, CARDS) != play
    mine = in_play(s, 0, "CD82")
    assert bot.choose(view(mine, 0), 0, CARDS) == play
    near = set_player(mine, 1, level=9)
    assert bot.choose(view(near, 0), 0, CARDS) != play
