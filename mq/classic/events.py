"""Classic events: what an action caused (``step`` returns them), one small named type per kind.

As Quest's (mq.rules.events), whose types it shares where a kind has the same fields and meaning
(turn, respawn, draw, reshuffle, charity): each is a tuple whose first field is its ``kind``;
events are never hashed, logged or sent.  ``Draw.card`` of a face-down draw and ``Charity.card`` name cards only some
seats may see; mq.classic.view.view_events masks them.
"""
from __future__ import annotations

from typing import NamedTuple

# The kinds with the same fields and meaning in both modes are Quest's own types.
from mq.rules.events import Charity, Draw, Reshuffle, Respawn, Turn


class Kick(NamedTuple):
    """C-TURN-2: the Door card kicked open, face-up."""
    kind: str
    seat: int
    card: str


class MonsterIn(NamedTuple):
    """C-COMBAT-5: a monster enters the combat of ``fighter``: ``how`` kick, trouble, wander, mate,
    sent (by a card at someone off their turn, C-COMBAT-12), pet."""
    kind: str
    fighter: int
    card: str
    how: str
    by: int


class Friendly(NamedTuple):
    """C-TURN-3: a monster friendly to ``seat`` does not fight them."""
    kind: str
    seat: int
    card: str


class Played(NamedTuple):
    """A card played (``what``: race, class, item, level, special, oneshot, enhancer, cheat...) with
    its ``target`` (a side, a monster index, a seat, an item; "" when none)."""
    kind: str
    seat: int
    card: str
    what: str
    target: str


class Discard(NamedTuple):
    """A card of ``seat``'s leaves play or hand for the discard pile (``why``)."""
    kind: str
    seat: int
    card: str
    why: str


class Equip(NamedTuple):
    """C-ITEM-2: an item put in use or set aside."""
    kind: str
    seat: int
    card: str
    in_use: bool


class Level(NamedTuple):
    """A level change (C-CHAR-1), with its cause."""
    kind: str
    seat: int
    old: int
    new: int
    why: str


class Sell(NamedTuple):
    """C-ITEM-7: items sold for levels."""
    kind: str
    seat: int
    cards: tuple
    gold: int
    levels: int


class Power(NamedTuple):
    """A race or class power used (C-CHAR-4/5), with its target."""
    kind: str
    seat: int
    power: str
    target: str


class Theft(NamedTuple):
    """C-CHAR-5: a thief's theft roll."""
    kind: str
    seat: int
    victim: int
    card: str
    roll: int
    stolen: bool


class AskHelp(NamedTuple):
    """C-HELP-1: the main fighter ``seat`` asks ``to`` for help."""
    kind: str
    seat: int
    to: int


class Offer(NamedTuple):
    """C-HELP-1, 3: ``seat`` offers the main fighter help for ``share`` Treasure cards picked in
    ``order`` (Picks) and the fighter's ``item`` ("": none)."""
    kind: str
    seat: int
    share: int
    order: str
    item: str


class DealOffer(NamedTuple):
    """C-DIGI-3: ``by`` offers ``to`` a deal (mq.classic.deals: ``what``; the ``item`` promised,
    "" for none; ``share`` Treasure cards picked in ``order``)."""
    kind: str
    by: int
    to: int
    what: str
    item: str
    won_only: bool
    share: int
    order: str


class DealMade(NamedTuple):
    """C-HELP-3: ``to`` accepts ``by``'s deal: it binds."""
    kind: str
    by: int
    to: int
    what: str
    item: str
    share: int
    order: str


class DealDeclined(NamedTuple):
    kind: str
    by: int
    to: int


class DealDone(NamedTuple):
    """C-HELP-3: after the combat, the promised ``item`` passes from ``giver`` to ``receiver``
    (``passed`` False: void, the giver no longer has it)."""
    kind: str
    giver: int
    receiver: int
    item: str
    passed: bool


class Helps(NamedTuple):
    """C-HELP-1, 3: the deal accepted: ``helper`` joins for ``share`` Treasure cards picked in
    ``order`` and ``item`` ("": none; whoever gives it)."""
    kind: str
    fighter: int
    helper: int
    share: int
    order: str
    item: str


class Pass(NamedTuple):
    """A seat passes in a window or a call for help; ``auto``: it could do nothing there."""
    kind: str
    seat: int
    stage: str
    auto: bool


class Window(NamedTuple):
    """C-COMBAT-8: the last-chance window ``number`` opens (``final``: no answer after it)."""
    kind: str
    fighter: int
    number: int
    final: bool


class Answer(NamedTuple):
    """C-COMBAT-8: a card was played in the window; the fighter answers."""
    kind: str
    fighter: int


class MonsterOut(NamedTuple):
    """C-COMBAT-7: monster ``index`` leaves the combat early (``how``: killed, defeated, away)."""
    kind: str
    index: int  # type: ignore[assignment]  # C-COMBAT-7's word; tuple.index is never asked of an event
    card: str
    how: str


class Result(NamedTuple):
    """C-COMBAT-4: the strengths of the final moment and whether the munchkin side won."""
    kind: str
    fighter: int
    strength: int
    monster_strength: int
    won: bool


class CombatEnds(NamedTuple):
    """C-COMBAT-9, 13, C-RUN-6: the combat is over: ``how`` won, fled or no_result."""
    kind: str
    fighter: int
    how: str


class Escape(NamedTuple):
    """C-RUN-1..3: a run-away roll against monster ``card`` (roll 0: escaped without rolling)."""
    kind: str
    seat: int
    card: str
    roll: int
    needed: int
    escaped: bool


class Rolled(NamedTuple):
    """C-RUN-1, C-DIGI-2 c: ``seat`` rolls ``roll`` to escape ``card``; a die window follows."""
    kind: str
    seat: int
    card: str
    roll: int


class DieChanged(NamedTuple):
    """C-RUN-3, C-DIGI-2 c: ``seat``'s card turns the die just rolled to ``roll``."""
    kind: str
    seat: int
    card: str
    roll: int


class Reveal(NamedTuple):
    """C-ITEM-10: ``seat`` shows ``to`` the hand, ``cards`` (masked for everyone else)."""
    kind: str
    seat: int
    to: int
    cards: tuple


class Gift(NamedTuple):
    """C-ITEM-6: an item in play given to another player (into their play, not in use)."""
    kind: str
    seat: int
    to: int
    card: str


class TradeOffer(NamedTuple):
    """C-ITEM-6: ``by`` offers the items ``gives`` of its play for the items ``takes`` of ``to``'s."""
    kind: str
    by: int
    to: int
    gives: tuple
    takes: tuple


class TradeDone(NamedTuple):
    """C-ITEM-6: ``to`` accepted: the items changed hands (into play, not in use)."""
    kind: str
    by: int
    to: int
    gives: tuple
    takes: tuple


class TradeClosed(NamedTuple):
    """C-ITEM-6: an offer of ``by`` to ``to`` closed unaccepted: ``why`` declined, gone (an item
    left play), combat (a combat started) or turn (the turn ended)."""
    kind: str
    by: int
    to: int
    why: str


class BadStuff(NamedTuple):
    """C-RUN-4: ``seat`` is caught by ``card`` (or hit by its escape text, ``escaped``)."""
    kind: str
    seat: int
    card: str
    escaped: bool


class Lost(NamedTuple):
    """C-ITEM-8, C-COMP-7: a card lost to Bad Stuff or a curse (``what``: item, hand, race, class)."""
    kind: str
    seat: int
    card: str
    what: str


class Gender(NamedTuple):
    """C-CHAR-6: a curse changes ``seat``'s gender."""
    kind: str
    seat: int
    gender: str


class Death(NamedTuple):
    """C-DEATH-1: ``seat`` dies; ``cards`` are laid out to be looted."""
    kind: str
    seat: int
    cards: tuple


class Loot(NamedTuple):
    """C-DEATH-2: ``seat`` takes ``card`` from the body of ``dead``."""
    kind: str
    seat: int
    dead: int
    card: str


class CurseCast(NamedTuple):
    """C-CARD-8: curse ``card`` on its way to ``victim`` (``by`` -1: kicked open)."""
    kind: str
    card: str
    by: int
    victim: int


class CurseActs(NamedTuple):
    """C-CARD-8: the curse acts (``how``: immediate, next_combat, lasting, nothing)."""
    kind: str
    card: str
    victim: int
    how: str


class CurseCancelled(NamedTuple):
    """C-CARD-8: ``seat`` cancels the curse with ``card``."""
    kind: str
    curse: str
    seat: int
    card: str


class LaidOut(NamedTuple):
    """C-HELP-3: a helped win's Treasure ``cards``, face-up, to share: ``share`` of them the
    ``helper``'s, picked in ``order`` (mq.classic.picks)."""
    kind: str
    fighter: int
    helper: int
    cards: tuple
    share: int
    order: str


class Pick(NamedTuple):
    """C-HELP-3: ``seat`` takes ``card`` of the Treasure laid out (picked, or the rest given)."""
    kind: str
    seat: int
    card: str


class Steed(NamedTuple):
    """C-PACK-6, C-EPIC-14: ``card`` becomes ``seat``'s steed (``how``: tame, claim, play)."""
    kind: str
    seat: int
    card: str
    how: str


class Hireling(NamedTuple):
    """C-PACK-5: ``card`` becomes ``seat``'s hireling (``how``: play)."""
    kind: str
    seat: int
    card: str
    how: str


class Portal(NamedTuple):
    """C-PACK-7: ``seat`` opens a portal ``card`` (``how``: kick, play)."""
    kind: str
    seat: int
    card: str
    how: str


class Dungeon(NamedTuple):
    """C-PACK-7: dungeon ``card`` becomes active (``seat`` -1: at setup), replacing ``replaced``
    ("" when it joins the active one or none was active)."""
    kind: str
    seat: int
    card: str
    replaced: str


class TurnEnds(NamedTuple):
    """C-DIGI-2 f: ``seat``'s turn is over (after charity): the turn-end window opens for the others."""
    kind: str
    seat: int


class GameWon(NamedTuple):
    """C-WIN: the winners."""
    kind: str
    seats: tuple


TYPES = {
    "turn": Turn, "respawn": Respawn, "draw": Draw, "kick": Kick, "reshuffle": Reshuffle,
    "monster_in": MonsterIn, "friendly": Friendly, "played": Played, "discard": Discard, "equip": Equip,
    "level": Level, "sell": Sell, "power": Power, "theft": Theft, "asks_help": AskHelp, "offer": Offer,
    "helps": Helps, "deal": DealOffer, "deal_made": DealMade,
    "deal_declined": DealDeclined, "deal_done": DealDone, "pass": Pass, "window": Window, "answer": Answer, "monster_out": MonsterOut,
    "result": Result, "combat_ends": CombatEnds, "escape": Escape, "rolled": Rolled,
    "die_changed": DieChanged, "gift": Gift, "trade": TradeOffer, "trade_done": TradeDone,
    "trade_closed": TradeClosed, "reveal": Reveal, "bad_stuff": BadStuff, "lost": Lost,
    "gender": Gender, "death": Death, "loot": Loot, "curse": CurseCast, "curse_acts": CurseActs,
    "curse_cancelled": CurseCancelled, "charity": Charity, "turn_ends": TurnEnds, "game_won": GameWon, "laid_out": LaidOut, "pick": Pick,
    "steed": Steed, "hireling": Hireling, "portal": Portal, "dungeon": Dungeon,
}

_new = tuple.__new__


# The field count of each kind (every value of TYPES is a NamedTuple class, which a type checker
# sees as a plain type).
_COUNTS: dict[str, int] = {kind: len(cls._fields) for kind, cls in TYPES.items()}  # type: ignore[attr-defined]


def make(fields: tuple) -> tuple:
    """The event of kind ``fields[0]`` with these fields (unknown kind: KeyError)."""
    cls = TYPES[fields[0]]
    if len(fields) != _COUNTS[fields[0]]:
        raise TypeError(f"event {fields[0]}: {len(fields)} fields, expected {_COUNTS[fields[0]]}")
    return _new(cls, fields)
