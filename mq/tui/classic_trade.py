"""Composing a trade in the Classic client (CLASSIC.md C-ITEM-6, C-PACK-5): the person marks
items of their own play and of one other player's play, any number each side, and offers them as
one trade, which the other accepts or declines.

A :class:`Draft` is a small immutable value: the partner, the cards marked each side, the row
under the cursor.  Which cards trade, with whom and when comes from the engine
(mq.classic.trades, mq.classic.deals.tradeable), and whether a draft may be sent is the engine's
own ``is_legal``: the client checks no rule of its own.  Invariants: a draft marks only cards
that are in their holder's play now (``settle`` drops the others after every update), and its
partner is one the seat may offer a trade to now (else ``settle`` ends the draft)."""
from __future__ import annotations

from dataclasses import dataclass, replace

from mq.classic import is_legal, trades
from mq.classic.deals import tradeable
from mq.classic.state import ClassicState, Trade
from mq.rules.actions import Action


@dataclass(frozen=True)
class Draft:
    to: int  # the partner's seat
    gives: tuple[str, ...] = ()  # marked cards of the seat's own play
    takes: tuple[str, ...] = ()  # marked cards of the partner's play
    cursor: int = 0  # the row (see ``rows``) Space marks


def partners(v: ClassicState, seat: int) -> tuple[int, ...]:
    """The players ``seat`` may offer a trade now, in turn order: outside a fight, with no choice
    or curse waiting (C-ITEM-6), both with something in play that trades, no open offer between
    the two and none from ``seat`` to them this turn (mq.classic.trades: bounded)."""
    if not trades.may_trade_now(v) or not tradeable(v.players[seat]):
        return ()
    offered = v.current_turn.offered
    order = v.order or tuple(range(len(v.players)))
    start = order.index(seat) if seat in order else 0
    return tuple(q for q in order[start + 1:] + order[:start]
                 if q != seat and tradeable(v.players[q]) and trades.between(v, seat, q) is None
                 and (seat, q) not in offered)


def why_not(v: ClassicState, seat: int) -> str:
    """Why ``seat`` has nobody to offer a trade now, in words (when ``partners`` is empty)."""
    if not trades.may_trade_now(v):
        return "No trade now: items trade outside a fight, when no choice or curse waits."
    if not tradeable(v.players[seat]):
        return "You have no items in play to trade (cards in your hand, races and classes never trade)."
    return ("Nobody to offer a trade now: each player may offer each other one trade a turn, and the other "
            "needs items in play.")


def start(v: ClassicState, seat: int, card: str | None = None) -> Draft | None:
    """A new draft with the first partner, ``card`` (the selected card, if it trades) marked."""
    who = partners(v, seat)
    if not who:
        return None
    mine = tradeable(v.players[seat])
    return Draft(who[0], gives=(card,) if card in mine else ())


def rows(v: ClassicState, seat: int, d: Draft) -> tuple[tuple[int, str], ...]:
    """(holder, card) for every card the draft may mark: the seat's own, then the partner's."""
    return tuple((seat, c) for c in tradeable(v.players[seat])) + tuple((d.to, c) for c in tradeable(v.players[d.to]))


def toggle(v: ClassicState, seat: int, d: Draft, row: int) -> Draft:
    """The draft with the card of ``row`` marked, or unmarked if it was; the cursor on it."""
    holder, card = rows(v, seat, d)[row]
    side = "gives" if holder == seat else "takes"
    marked = getattr(d, side)
    marked = tuple(c for c in marked if c != card) if card in marked else marked + (card,)
    return replace(d, cursor=row, **{side: marked})


def move(v: ClassicState, seat: int, d: Draft, step: int) -> Draft:
    n = len(rows(v, seat, d))
    return replace(d, cursor=max(0, min(n - 1, d.cursor + step)))


def switch(v: ClassicState, seat: int, d: Draft, step: int) -> Draft:
    """The next (or previous) partner; what was marked of one's own stays, the other's goes."""
    who = partners(v, seat)
    if not who:
        return d
    k = who.index(d.to) if d.to in who else -1
    return Draft(who[(k + step) % len(who)], gives=d.gives)


def settle(v: ClassicState, seat: int, d: Draft) -> Draft | None:
    """The draft after the game moved on: cards no longer in their holder's play unmarked;
    None when the partner may no longer be offered a trade."""
    if d.to not in partners(v, seat):
        return None
    mine, theirs = tradeable(v.players[seat]), tradeable(v.players[d.to])
    d = replace(d, gives=tuple(c for c in d.gives if c in mine), takes=tuple(c for c in d.takes if c in theirs))
    return move(v, seat, d, 0)


def action(seat: int, d: Draft) -> Action:
    return trades.action(Trade(seat, d.to, d.gives, d.takes))


def problem(v: ClassicState, seat: int, d: Draft, cards) -> str:
    """Why the draft cannot be sent as it is, in words; "" when the engine takes it."""
    if not d.gives or not d.takes:
        return "Mark at least one of your items and one of theirs."
    if is_legal(v, action(seat, d), cards):
        return ""
    if not trades.fits(v, Trade(seat, d.to, d.gives, d.takes), cards):
        return ("After this trade someone would hold two steeds, two hirelings or more big items than they may: "
                "change what is marked.")
    return "That trade cannot be offered now."
