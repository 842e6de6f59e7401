"""The keys of a Classic game (CLASSIC.md): the Quest client's (mq.tui.keys) without the map's,
their help worded for the card game, and four of its own: ``d`` kicks open the door, ``l``
loots the room, ``h`` asks one player for help in your fight, ``x`` composes a trade of items in
play (C-ITEM-6), with the keys of its own mode (TRADE: mark, another player, send, cancel).
Bindings only ask the model (mq.tui.classic_model) what a key means and hand it to the client's
``act``, as every binding does."""
from __future__ import annotations

from mq.tui.model import TRADE

# Bindings of mq.tui.keys that need a map (moving, searching a room, scrolling the map...).
SKIP = frozenset(("direction", "dash", "search", "pickup", "reach", "scroll", "recentre"))
# What the shared bindings do in a Classic game, for the help screen (``?``).
DOCS = {
    "summon": "Look for trouble: fight a monster from your hand (the selected one, if several).",
    "roll": "Ready to fight: the others get a last chance; after a lost fight, roll to run away.",
    "pass_": "Pass: play nothing in a last-chance, curse or die window; refuse to help.",
    "auto_pass": "Pass every last-chance, curse and die window by yourself (on/off); a curse on you that a card "
                 "of yours can cancel still asks.",
    "end_turn": "End your turn (in setup: you are ready to start).",
    "show_table": "The table in full: every card in play with its text, your hand's texts, the fight, the decks.",
}


def bind(keys, ui) -> None:
    add = keys.add
    m = ui.model

    @add("d", playing=True)
    def kick(event) -> None:
        """Kick open the door: the first step of your turn."""
        m.clear_message()
        ui.act(m.simple("kick"))

    @add("l", playing=True)
    def loot(event) -> None:
        """Loot the room: no monster met, draw a Door card face down."""
        m.clear_message()
        ui.act(m.simple("loot"))

    @add("h", playing=True)
    def ask(event) -> None:
        """Ask one player for help in your fight (they may offer, for a share of the Treasure)."""
        m.clear_message()
        intent = m.ask_help()
        if intent is not None:  # (None: the message asks whom, by number)
            ui.act(intent)
    _bind_trade(keys, ui)


def _bind_trade(keys, ui) -> None:
    """``x`` and the keys of composing a trade (mq.tui.classic_trade, C-ITEM-6)."""
    add = keys.add
    m = ui.model

    @add("x", playing=True)
    def trade(event) -> None:
        """Trade items in play with another player: mark yours and theirs (any number), then offer."""
        m.clear_message()
        why = m.start_trade()
        if why is not None:
            ui.act(why)

    @add(*"1234567890", mode=TRADE, label="1-9 0", playing=True)
    def trade_number(event) -> None:
        """Mark or unmark the item with that number."""
        m.clear_message()
        m.trade_mark(int(event.key_sequence[0].key))

    @add(" ", mode=TRADE, playing=True)
    def trade_mark(event) -> None:
        """Mark or unmark the item under the cursor."""
        m.clear_message()
        m.trade_mark()

    @add("down", "j", mode=TRADE, playing=True)
    def trade_down(event) -> None:
        """Next item."""
        m.trade_move(+1)

    @add("up", "k", mode=TRADE, playing=True)
    def trade_up(event) -> None:
        """Previous item."""
        m.trade_move(-1)

    @add("tab", mode=TRADE, playing=True)
    def trade_partner(event) -> None:
        """Trade with the next player instead (what you marked of yours stays marked)."""
        m.clear_message()
        m.trade_switch(+1)

    @add("s-tab", mode=TRADE, playing=True)
    def trade_partner_back(event) -> None:
        """Trade with the previous player instead."""
        m.clear_message()
        m.trade_switch(-1)

    @add("enter", mode=TRADE, playing=True)
    def trade_send(event) -> None:
        """Send the offer: they see it whole and accept or decline."""
        m.clear_message()
        action = m.trade_offer()
        if action is not None:
            ui.act(action)

    @add("escape", "x", "q", mode=TRADE, eager=True, playing=True)
    def trade_cancel(event) -> None:
        """Cancel: nothing is sent."""
        m.close_trade("Trade cancelled: nothing was sent.")
