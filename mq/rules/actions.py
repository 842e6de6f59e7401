"""Actions: what a seat asks the engine to do.  One small value type for every kind so that
actions are trivially msgpack-able (``encode``/``decode``) and ordered (legal_actions returns
them in a stable order).

Kinds and arguments (rule ids in mq.rules.reducer):
  ready                       end the setup phase for this seat (Q-SETUP-3)
  play (card)                 put a race/class/item card from hand into play, or use a go-up-a-level
  play (card, replaced)       a race/class card in place of one in play, keeping a Half-Breed /
                              Super Munchkin (Q-CARD-5)
  equip (card, place)         move an item between backpack and worn/carried/belt (Q-TURN-3)
  drop (card) / drop (gold)   drop an item in play, or that much gold, into the room's pile (Q-SEARCH-4)
  fight                       fight monsters that ignore you (Q-COMBAT-2)
  move (dir) / dash (dir)     cross a connector / spend all move to cross it (Q-MOVE-1, 2)
  search / pickup             Q-SEARCH-1, 4
  summon                      fight a fresh monster in a complete dungeon (Q-EXPLORE-7)
  buy (card, ...)             sell these items in play plus gold for a level, any valid choice (Q-CHAR-3)
  heal                        lose a level to heal 3 (Q-CHAR-6)
  suicide                     Q-DEATH-4
  end_turn                    Q-TURN-1
  use (card) / use (card, side)   a one-shot in combat, from hand or belt (Q-COMBAT-11), or outside one
                              where it means something (Q-CARD-3, 4); others
                              in the interrupt window name the side: munchkins or monsters (Q-HELP-3)
  ask                         ask for help before rolling (Q-HELP-1)
  offer (gold, treasures[, item[, first]])   offer to help for gold, Treasure picks (the helper
                              picking first, or "fighter" as ``first``), or one of the fighter's
                              items in play (Q-HELP-2); negative gold: the helper pays; a bid on the
                              table may be changed so until one is accepted
  accept (seat) / decline     take one offer (the deal is carried out at once) or none; a bidder
                              accepts the fighter's counter-offer with the fighter's seat
  counter (seat, gold, treasures[, "", first])   the fighter's counter-offer to one bidder (Q-DIGI-3)
  enhance (card, monster uid) a monster enhancer on a monster in the fight, or on any monster
                              outside a fight (Q-CARD-6, Q-COMBAT-13)
  wander (card)               a Wandering Monster: the top Monster card joins the fight (Q-CARD-6)
  mate (card, monster uid)    that monster's Mate, a copy of it, joins the fight (Q-CARD-6)
  curse (card, seat)          a curse on a living munchkin, yourself included, anytime (Q-CARD-8)
  power (name, ...)           a race or class power (Q-CHAR-5; names and arguments in mq.rules.powers)
  roll                        declare rolling (Q-COMBAT-7)
  set_die (card, side, index) after the roll, turn one die of that side to the card's value
  cheat (card, item)          Cheat! on an item you have in play (Q-ITEM-4)
  deal ("buy") / deal ("sell", card)   a deal printed on the room (Q-SEARCH-5)
  uncurse (card, curse)       remove a lasting curse with a card that cancels curses (Q-CARD-8)
  pass                        close your part of the interrupt window, or do not offer help (Q-DIGI-2)
  run (room)                  choose where to run (Q-RUN-1); the fighter runs first, then the helper
  escape (monster uid)        roll to escape that monster next (Q-RUN-2)
  choose (option)             answer the pending decision
  give (card, seat) / discard (card)   charity (Q-CHARITY); outside it, give an item in play or
                              gold to a neighbour (Q-ITEM-7)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mq.rules.errors import IllegalAction

KINDS = (
    "ready", "play", "equip", "drop", "move", "dash", "search", "pickup", "summon", "buy",
    "heal", "suicide", "end_turn", "use", "roll", "pass", "run", "escape", "choose", "give",
    "discard", "fight", "ask", "offer", "accept", "decline", "enhance", "wander", "curse",
    "power", "set_die", "cheat", "deal", "uncurse", "mate", "counter",
)
# The kinds only the Classic mode has (mq.classic): kick open the door, loot the room (C-TURN-2, 4),
# show the hand to a player (C-ITEM-10), offer a trade of items in play (C-ITEM-6, mq.classic.trades).
# Every other Classic action reuses a Quest kind of the same meaning.
CLASSIC_KINDS = ("kick", "loot", "reveal", "trade")
ALL_KINDS = KINDS + CLASSIC_KINDS


@dataclass(frozen=True, order=True, init=False)
class Action:
    seat: int
    kind: str
    args: tuple[int | str, ...] = ()

    def __init__(self, seat: int, kind: str, args: tuple[int | str, ...] = ()) -> None:
        # The frozen dataclass __init__ would call object.__setattr__ once per field; filling
        # __dict__ directly is the same result at a third of the cost, and legal action lists
        # make many of these for every action applied.
        d = self.__dict__
        d["seat"] = seat
        d["kind"] = kind
        d["args"] = args

    def __str__(self) -> str:
        return f"{self.seat}:{self.kind}" + "".join(f" {a}" for a in self.args)

    # The typed reads of an argument.  A rule reads an action only once it is legal, so the kind
    # fixes each argument's type; a read of the wrong type is a bug in the caller, said in words.
    def text(self, i: int = 0, default: str | None = None) -> str:
        """Argument ``i`` as a str (a card id, a side, a power's name, an option); ``default``
        for an optional argument left out."""
        if default is not None and i >= len(self.args):
            return default
        v = self.args[i]
        if type(v) is not str:
            raise IllegalAction("action/malformed", f"argument {i} of {self.kind} is not a word")
        return v

    def number(self, i: int = 0) -> int:
        """Argument ``i`` as an int (a direction, a seat, a monster uid, an amount of gold)."""
        v = self.args[i]
        if type(v) is not int:
            raise IllegalAction("action/malformed", f"argument {i} of {self.kind} is not a number")
        return v

    def texts(self, start: int = 0) -> tuple[str, ...]:
        """The arguments from ``start`` on, each a str (the items sold for a level, Q-CHAR-3)."""
        return tuple(self.text(i) for i in range(start, len(self.args)))


def encode(action: Action) -> list[Any]:
    """Plain msgpack-able form: ``[seat, kind, [args...]]``."""
    return [action.seat, action.kind, list(action.args)]


def decode(data: Any) -> Action:
    """Inverse of :func:`encode`; anything malformed raises IllegalAction('action/malformed')."""
    if not isinstance(data, (list, tuple)) or len(data) != 3:
        raise IllegalAction("action/malformed", "expected [seat, kind, args]")
    seat, kind, args = data
    if type(seat) is not int or not isinstance(kind, str) or not isinstance(args, (list, tuple)):
        raise IllegalAction("action/malformed", "bad field types")
    if kind not in ALL_KINDS:
        raise IllegalAction("action/unknown", repr(kind)[:40])
    if len(args) > 16 or any(type(a) not in (int, str) or (type(a) is str and len(a) > 64) for a in args):
        raise IllegalAction("action/malformed", "bad arguments")
    return Action(seat, kind, tuple(args))
