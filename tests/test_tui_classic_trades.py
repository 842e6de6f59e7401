"""The Classic client's trades of items in play (C-ITEM-6, mq.classic.trades): offered from the menu
(Tab to the item, Enter), answered from the prompt's numbers, told in the log, worded plainly and
fitting at 120x40 and 80x24."""
from __future__ import annotations

from classic_table import CARDS, Action, act, in_play, on_top, playing

from mq.classic.state import Phase
from mq.narrate_classic import ClassicNarrator
from mq.table import Applied
from mq.tui import render
from mq.tui.classic_model import ClassicModel

HELM, SOCKS = "CT02", "CT14"


def _models(s):
    models = tuple(ClassicModel(seat, s) for seat in range(3))
    for m in models:
        m.clock = lambda: 0.0
        m.refresh(s)
    return models


def _feed(models, s, seat, kind, *args):
    s2, events = act(s, seat, kind, *args)
    for m in models:
        m.seq += 1
        m.update(Applied(m.seq, Action(seat, kind, tuple(args)), events, s2))
    return s2, events


def test_a_trade_is_offered_answered_and_told_in_plain_words_at_both_sizes_C_ITEM_6():
    s = in_play(in_play(on_top(playing(3), "CD01"), 0, HELM), 1, SOCKS)
    s = s.replace(turn=s.turn.replace(phase=Phase.END))
    red, green, blue = models = _models(s)
    helm, socks = CARDS.card(HELM).name, CARDS.card(SOCKS).name
    offer = f"Offer Green a trade: your {helm} for their {socks}"
    entry = next(e for e in red.menu() if e.label == offer)
    assert entry.number is None  # on the menu, not on a number: possible all turn long
    assert red.card_of(entry.action) == HELM  # Tab to the helm, Enter: its trades are listed
    s, events = _feed(models, s, 0, "trade", 1, 1, HELM, SOCKS)
    assert green.prompt() == (f"A trade: Red offers you {helm} for your {socks}. Both arrive not in use. "
                             "Accept or decline it (1-9, a: menu).")
    labels = {e.label: e.number for e in green.menu()}
    accept, decline = f"Accept Red's trade: their {helm} for your {socks}", f"Decline Red's trade: their {helm} for your {socks}"
    assert labels[accept] is not None and labels[decline] is not None  # numbered, first on the pane
    for width, height in ((120, 40), (80, 24)):
        text = render.render_screen(green, width, height, now=0.0)
        assert all(len(line) <= width for line in text.split("\n"))
        assert "A trade: Red offers you" in text and "Accept Red's trade" in text, (width, text)
    assert any(ln.text == f"Red offers Green {helm} for their {socks}." for ln in blue.log)
    assert any(ln.text == f"You offer Green {helm} for their {socks}." for ln in red.log)
    s, events = _feed(models, s, 1, "accept", "trade", 0)
    assert any(ln.text == f"Trade: Red gets {socks}, you get {helm} (into play, not in use)." for ln in green.log)
    assert ClassicNarrator(CARDS).lines(s, events) == [f"Trade: Red gets {socks}, Green gets {helm}."]


def test_a_declined_or_lapsed_trade_is_told_C_ITEM_6():
    s = in_play(in_play(on_top(playing(3), "CD01"), 0, HELM), 1, SOCKS)
    red, green, blue = models = _models(s)
    s, _ = _feed(models, s, 0, "trade", 1, 1, HELM, SOCKS)
    declined, events = _feed(models, s, 1, "decline", "trade", 0)
    assert any(ln.text == "Green declines Red's trade." for ln in blue.log)
    assert ClassicNarrator(CARDS).lines(declined, events) == ["Green declines Red's trade."]
    lapsed, events = act(s, 0, "kick")  # the Door's monster: a fight begins
    assert "Red's offer of a trade to Green lapses: a fight began." in ClassicNarrator(CARDS).lines(lapsed, events)
