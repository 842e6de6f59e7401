"""The Classic client's trades of items in play (C-ITEM-6, C-PACK-5, mq.classic.trades): composed
with x, any number of items each side (mq.tui.classic_trade), or one for one from an item's menu
(Tab to the item, Enter); answered from the prompt's numbers, shown whole on the table, told in the
log, worded plainly and fitting at 120x40 and 80x24; and driven by keys through a pipe against a
Classic bot."""
from __future__ import annotations

import asyncio

import drive
from classic_table import CARDS, Action, act, in_play, on_top, playing, set_player
from drive import until

from mq.classic import cards_or_default
from mq.classic.state import Phase
from mq.narrate_classic import ClassicNarrator
from mq.table import Applied, LocalTable
from mq.tui import keys as keymod
from mq.tui import render
from mq.tui.app import connect
from mq.tui.classic_model import ClassicModel
from mq.tui.model import NORMAL, TRADE

HELM, SOCKS, ARMOUR, CLOGS, BEANIE = "CT02", "CT14", "CT06", "CT13", "CT05"
PONY, LLAMA, TORCH = "CT501", "CT502", "CT505"  # the steeds pack: two steeds and a hireling (C-PACK-5)
SIZES = ((120, 40), (80, 24))


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
    assert not any(e.action.kind == "trade" for e in red.menu())  # one per pair of items would bury the rest
    red.open_menu(HELM)  # Tab to the helm, Enter: its trades one for one are listed
    entry = next(e for e in red.menu() if e.label == offer)
    assert entry.number is None  # not on a number: possible all turn long
    red.close_menu()
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


def _followers_table():
    """Red (0): helm and armour, the pony as steed; Green (1): socks and clogs, the torchbearer as
    hireling; Blue (2): a beanie.  Red's turn, after the door (the steeds pack, C-PACK-5)."""
    s = on_top(playing(3, packs=("steeds",)), "CD01")
    s = in_play(in_play(s, 0, HELM, ARMOUR), 1, SOCKS)
    s = in_play(in_play(s, 1, CLOGS, in_use=False), 2, BEANIE)
    s = set_player(set_player(_out(s, PONY, TORCH), 0, steed=PONY), 1, hireling=TORCH)
    return s.replace(turn=s.turn.replace(phase=Phase.END))


def _out(s, *cards):
    """The state with ``cards`` taken out of the Treasure deck (to be put into play as followers)."""
    draw = tuple(c for c in s.treasure.draw if c not in cards)
    return s.replace(treasure=s.treasure.replace(draw=draw))


def _name(s, card: str) -> str:
    return cards_or_default(None, s).card(card).name


def _screens(m):
    for width, height in SIZES:
        text = render.render_screen(m, width, height, now=0.0)
        lines = text.split("\n")
        assert all(len(line) <= width for line in lines), text
        yield width, height, text


def test_x_composes_a_trade_of_several_items_each_side_shown_whole_before_it_is_sent_C_ITEM_6_C_PACK_5():
    s = _followers_table()
    red, green, blue = models = _models(s)
    n = {c: _name(s, c) for c in (HELM, ARMOUR, PONY, SOCKS, CLOGS, TORCH)}
    assert "x trades items" in red.prompt() and "x trade" in blue.prompt()  # the key, where a newcomer looks
    red.selected = HELM  # (Tab to the helm) x marks it at once
    assert red.start_trade() is None and red.mode == TRADE
    assert (red.draft.to, red.draft.gives, red.draft.takes) == (1, (HELM,), ())  # Green: the next in turn order
    assert [card for _, card in red.trade_rows()] == [HELM, ARMOUR, PONY, SOCKS, CLOGS, TORCH]
    red.trade_mark(3)  # the pony, Red's steed (C-PACK-5: it trades like an item)
    red.trade_move(+1)
    red.trade_mark()  # Space: the row under the cursor, Green's socks
    red.trade_mark(6)  # and Green's torchbearer
    summary = f"You offer Green your {n[HELM]} and {n[PONY]} for their {n[SOCKS]} and {n[TORCH]}."
    assert red.trade_summary() == summary
    for width, height, text in _screens(red):
        overlay = "\n".join(text.split("\n")[-height:])
        assert "Trade items in play with Green (Tab: Blue)" in overlay
        assert "You give (your items in play):" in overlay and "You ask for (Green's items in play):" in overlay
        assert f"1 [x] {n[HELM]}" in overlay and f"2 [ ] {n[ARMOUR]}" in overlay and f"6 [x] {n[TORCH]}" in overlay
        assert " ".join(summary.split()) in " ".join(overlay.split()), overlay  # (wrapped at 80 columns)
        assert "Enter: send the offer" in overlay and "Esc: cancel" in overlay, (width, overlay)
    sent = red.trade_offer()
    assert sent == Action(0, "trade", (1, 2, HELM, PONY, SOCKS, TORCH)) and red.mode == NORMAL and red.draft is None
    s, _ = _feed(models, s, 0, "trade", 1, 2, HELM, PONY, SOCKS, TORCH)
    offer = f"Red offers you {n[HELM]} and {n[PONY]} for your {n[SOCKS]} and {n[TORCH]}"
    assert green.prompt() == f"A trade: {offer}. They arrive not in use. Accept or decline it (1-9, a: menu)."
    for width, _, text in _screens(green):
        assert " ".join(f"Trade offered (1-9 answers): {offer}.".split()) in " ".join(text.split()), text
    assert any(ln.text == f"You offer Green {n[HELM]} and {n[PONY]} for their {n[SOCKS]} and {n[TORCH]}."
               for ln in red.log)
    accept = next(e for e in green.menu() if e.action == Action(1, "accept", ("trade", 0)))
    assert accept.number is not None and green.entry(accept.number) == accept.action
    s, events = _feed(models, s, 1, "accept", "trade", 0)
    assert (s.players[0].hireling, s.players[0].steed, s.players[1].steed) == (TORCH, "", PONY)
    assert ClassicNarrator(cards_or_default(None, s)).lines(s, events) == [
        f"Trade: Red gets {n[SOCKS]} and {n[TORCH]}, Green gets {n[HELM]} and {n[PONY]}."]


def test_the_composer_says_what_is_missing_or_refused_and_stays_open_C_ITEM_6_C_PACK_5():
    s = set_player(_out(_followers_table(), LLAMA), 2, steed=LLAMA)  # Blue rides a llama
    red, green, blue = _models(s)
    assert red.start_trade() is None
    assert red.trade_offer() is None and red.mode == TRADE  # nothing marked: nothing sent
    assert red.message == "Mark at least one of your items and one of theirs."
    red.trade_mark(9)
    assert red.message == "There is no item 9 to mark." and red.draft.gives == ()
    red.trade_mark(3)  # the pony
    red.trade_switch(+1)  # Blue instead: Red's marks stay
    assert red.draft.to == 2 and red.draft.gives == (PONY,)
    red.trade_mark(4)  # Blue's beanie: Blue would ride two steeds (C-PACK-5)
    assert red.trade_offer() is None and red.mode == TRADE
    assert "two steeds" in red.message
    for width, height, text in _screens(red):
        assert "two steeds" in " ".join(text.split("\n")[-height:]), text  # the composer shows why
    red.close_trade("Trade cancelled: nothing was sent.")
    assert red.mode == NORMAL and red.draft is None


def test_a_trade_being_composed_ends_when_the_game_moves_on_C_ITEM_6():
    s = _followers_table().replace(turn=_followers_table().turn.replace(phase=Phase.KICK))
    red, green, blue = models = _models(s)
    assert green.start_trade() is None and green.mode == TRADE  # a trade on another's turn (C-ITEM-6)
    green.trade_mark(1)
    s, _ = _feed(models, s, 0, "kick")  # a monster: a fight begins, and nobody trades in a fight
    assert s.combat is not None and green.mode == NORMAL and green.draft is None
    assert green.message.startswith("The trade was not sent. No trade now: items trade outside a fight")


def test_the_trade_keys_are_in_the_help():
    class UI:
        def __init__(self, model) -> None:
            self.model = model

    sections = dict(keymod.help_sections(keymod.build(UI(_models(_followers_table())[0]))))
    playing_keys = dict(sections["Playing"])
    assert playing_keys["x"].startswith("Trade items in play with another player")
    trade_keys = dict(sections["Composing a trade (x)"])
    assert {"1-9 0", "Space", "Tab", "Enter", "Esc x q"} <= set(trade_keys), trade_keys


def test_keys_compose_a_trade_and_a_bot_answers_it_through_a_pipe_C_ITEM_6():
    """Seat 0 of a LocalTable with Classic bots: x, the numbers, Space and Enter send a trade of
    two items for one; Green's bot accepts it (it gains strength), the log says so."""
    s = on_top(playing(3), "CD01")
    s = in_play(in_play(s, 0, BEANIE), 0, HELM, ARMOUR, in_use=False)
    s = in_play(in_play(s, 1, CLOGS), 1, SOCKS, in_use=False)
    s = s.replace(turn=s.turn.replace(phase=Phase.END))

    async def main():
        table = LocalTable(s, seat=0, bot_delay=0)
        async with drive.running(connect, table) as (send, client):
            m = client.model
            await send("x")
            assert m.mode == TRADE and m.draft.to == 1
            await send("2")  # the helm (set aside: the beanie is worn)
            await send("3")  # the armour
            await send("\r")  # nothing of Green's marked yet: the composer says so and stays
            assert m.mode == TRADE and m.message.startswith("Mark at least one")
            await send("j")
            await send("j")
            await send(" ")  # Green's socks, under the cursor
            await send("\r")
            await until(lambda: any(ln.text.startswith("Trade: you get") or "declines" in ln.text for ln in m.log))
            assert m.mode == NORMAL
            assert any(ln.text == f"Trade: you get {_name(s, SOCKS)}, Green gets {_name(s, HELM)} and "
                       f"{_name(s, ARMOUR)} (into play, not in use)." for ln in m.log), [ln.text for ln in m.log]

    asyncio.run(main())
