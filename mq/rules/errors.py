"""Errors the engine raises.  Every illegal action raises :class:`IllegalAction` with a reason
code (a namespaced string such as ``"move/wall"``) and leaves the state unchanged, identically on
every peer (DESIGN "The engine contract")."""
from __future__ import annotations


class IllegalAction(ValueError):
    """An action that the rules forbid in this state."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


REASONS: dict[str, str] = {
    "action/unknown": "there is no such action",
    "action/malformed": "the action's arguments are malformed",
    "game/over": "the game is over",
    "seat/not-your-turn": "it is not your turn to act",
    "seat/unknown": "there is no such seat",
    "phase/wrong": "that cannot be done at this point of the turn",
    "combat/in-combat": "that cannot be done during combat",
    "combat/none": "there is no combat",
    "help/abstains": "you agreed not to help in this combat",
    "move/wall": "a wall is in the way",
    "move/not-enough": "not enough move left",
    "move/dash-used": "you already spent all your move to cross a connector this turn",
    "move/dungeon-complete": "the dungeon is complete: that way is a wall",
    "search/monster": "you cannot search with a monster here",
    "search/done": "this room was already searched this turn",
    "search/forbidden": "this room cannot be searched",
    "search/not-enough": "searching costs 1 move",
    "pickup/nothing": "there is nothing to pick up here",
    "card/not-in-hand": "you do not hold that card",
    "card/not-in-play": "you do not have that card in play",
    "card/wrong-kind": "that card cannot be played like that",
    "card/no-effect": "that card would do nothing now",
    "card/no-room": "there is no free slot or backpack space for that item",
    "level/tenth": "the 10th level can only be gained by killing a monster",
    "level/too-low": "you are already at level 1",
    "buy/not-enough": "that is not worth 1000 gold",
    "trade/invalid": "that trade cannot be offered: items in play of you both, at most one offer between two players a turn, and both must be allowed to hold what they get",
    "choice/invalid": "that is not one of the options",
    "dead": "dead munchkins cannot do that",
}
