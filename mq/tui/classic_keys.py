"""The keys of a Classic game (CLASSIC.md): the Quest client's (mq.tui.keys) without the map's,
their help worded for the card game, and three of its own: ``d`` kicks open the door, ``l``
loots the room, ``h`` asks one player for help in your fight.  Bindings only ask the model (mq.tui.classic_model) what a key means and hand it to the
client's ``act``, as every binding does."""
from __future__ import annotations

# Bindings of mq.tui.keys that need a map (moving, searching a room, scrolling the map...).
SKIP = frozenset(("direction", "dash", "search", "pickup", "reach", "scroll", "recentre"))
# What the shared bindings do in a Classic game, for the help screen (``?``).
DOCS = {
    "summon": "Look for trouble: fight a monster from your hand (the selected one, if several).",
    "roll": "Ready to fight: the others get a last chance; after a lost fight, roll to run away.",
    "pass_": "Pass: play nothing in a last-chance, curse or die window; refuse to help.",
    "auto_pass": "Pass every last-chance, curse and die window by yourself (on/off).",
    "end_turn": "End your turn (in setup: you are ready to start).",
    "show_table": "The table in full: every card in play with its text, the fight, the decks.",
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
