"""Trades of items in play between two players (CLASSIC.md C-ITEM-6, C-PACK-5): an offer, then the
other's answer.

- ``trade (to, n, gives..., takes...)``: ``seat`` offers the ``n`` items ``gives`` of its play for
  the items ``takes`` of ``to``'s play (at least one each side).  Items in play are the items not
  given up (C-ITEM-4), and the steed and hireling cards (C-PACK-5: they trade like items; a tamed
  monster stays with its ranger).  Hand cards, races, classes and curses never trade.
- ``accept ("trade", by)`` carries the offer out; ``decline ("trade", by)`` drops it.
- When: on any turn, never in combat (C-ITEM-6), the turn-end window included (C-DIGI-2 f): an
  offer there keeps the window open for its answer (the receiver is waited for).
- Items received go into the receiver's play not in use and are not sold before the start of the
  receiver's next turn (C-ITEM-6, as gifts); a steed or hireling takes its role.  After the trade
  each side must hold what it may: one steed and one hireling at most, big items within its limit
  (C-ITEM-4, C-EPIC-15); a trade that would break that is refused, not half done.

Bounded (our rule): at most one open offer between two players; each player offers each other at
most once a turn; an open offer lapses when one of its items leaves its holder's play, when a
combat starts, or when the turn ends (a new turn begins: the turn-end window is part of the turn).
The open offers live in ``Turn.trades`` (so a new turn starts with none), the offers made in
``Turn.offered``."""
from __future__ import annotations

from mq.cards.classic_defs import ClassicSet
from mq.cards.classic_vocab import K
from mq.classic import character as ch
from mq.classic.deals import tradeable  # the cards in play that trade: as those a deal may promise
from mq.classic.state import ClassicState, CPlayer, Phase, Trade
from mq.classic.tx import Tx
from mq.rules.actions import Action

TRADE = "trade"  # the first argument of accept and decline that answer a trade
ROLES = (K.STEED, K.HIRELING)  # the CPlayer fields of the followers (C-PACK-5)


def parse(action: Action) -> Trade | None:
    """The offer a ``trade`` action makes, or None when its arguments are not (to, n, n cards,
    at least one card)."""
    args = action.args
    if len(args) < 4 or type(args[0]) is not int or type(args[1]) is not int:
        return None
    n = args[1]
    cards = args[2:]
    if not 1 <= n < len(cards) or any(type(c) is not str for c in cards):
        return None
    return Trade(action.seat, args[0], tuple(str(c) for c in cards[:n]), tuple(str(c) for c in cards[n:]))


def action(t: Trade) -> Action:
    return Action(t.by, TRADE, (t.to, len(t.gives)) + t.gives + t.takes)


def may_trade_now(s: ClassicState) -> bool:
    """C-ITEM-6: on any turn (after setup), never in combat, nor while a choice, a curse or a
    claim waits."""
    return (s.phase == Phase.PLAY and s.turn is not None and s.combat is None and s.pending is None
            and s.curse is None and not (s.claim is not None and s.claim.open))


def between(s: ClassicState, a: int, b: int) -> Trade | None:
    """The open offer between ``a`` and ``b``, either way, if any."""
    return next((t for t in s.current_turn.trades if {t.by, t.to} == {a, b}), None)


def may_offer(s: ClassicState, t: Trade, cards: ClassicSet) -> bool:
    n = len(s.players)
    if not may_trade_now(s) or not (0 <= t.by < n and 0 <= t.to < n) or t.by == t.to:
        return False
    if between(s, t.by, t.to) is not None or (t.by, t.to) in s.current_turn.offered:
        return False
    return holds(s, t) and fits(s, t, cards)


def may_accept(s: ClassicState, t: Trade, cards: ClassicSet) -> bool:
    return may_trade_now(s) and holds(s, t) and fits(s, t, cards)


def holds(s: ClassicState, t: Trade) -> bool:
    """Every item of the offer is distinct and still in its holder's play."""
    for seat, named in ((t.by, t.gives), (t.to, t.takes)):
        if len(set(named)) != len(named) or not set(named) <= set(tradeable(s.players[seat])):
            return False
    return True


def fits(s: ClassicState, t: Trade, cards: ClassicSet) -> bool:
    """After the trade, each side holds one steed and one hireling at most and its big items
    within its limit (C-ITEM-4, C-EPIC-15)."""
    by, to = s.players[t.by], s.players[t.to]
    for p, q, out, into in ((by, to, t.gives, t.takes), (to, by, t.takes, t.gives)):
        after = exchanged(p, q, out, into)
        if after is None or ch.big_count(after, cards) > ch.big_limit(after, cards, s.params):
            return False
    return True


def exchanged(p: CPlayer, q: CPlayer, out: tuple[str, ...], into: tuple[str, ...]) -> CPlayer | None:
    """``p`` after giving ``out`` and receiving ``into`` from ``q`` (None: two of a follower role)."""
    changes: dict = {}
    for role in ROLES:
        mine, theirs = getattr(p, role), getattr(q, role)
        keep = mine if mine and mine not in out else ""
        got = theirs if theirs and theirs in into else ""
        if keep and got:
            return None
        changes[role] = keep or got
    received = tuple(it.replace(in_use=False, fresh=True) for it in q.items if it.card in into)
    return p.replace(items=tuple(it for it in p.items if it.card not in out) + received, **changes)


def actions(s: ClassicState, p: CPlayer, cards: ClassicSet, add) -> None:
    """The answers to the offers made to ``p`` (accepting only while they still hold), then the
    one-for-one offers ``p`` may make (``is_legal`` accepts any number of items each side)."""
    if not may_trade_now(s):
        return
    seat = p.seat
    for t in s.current_turn.trades:
        if t.to == seat:
            if may_accept(s, t, cards):
                add(Action(seat, "accept", (TRADE, t.by)))
            add(Action(seat, "decline", (TRADE, t.by)))
    mine = tradeable(p)
    if not mine:
        return
    for q in s.players:
        if q.seat == seat or between(s, seat, q.seat) is not None or (seat, q.seat) in s.current_turn.offered:
            continue
        for theirs in tradeable(q):
            for card in mine:
                t = Trade(seat, q.seat, (card,), (theirs,))
                if fits(s, t, cards):
                    add(action(t))


def open_offer(s: ClassicState, by: int, to: int) -> Trade:
    return next(t for t in s.current_turn.trades if (t.by, t.to) == (by, to))


# -- what the actions do ---------------------------------------------------------------------------

def offer(tx: Tx, a: Action) -> None:
    t = parse(a)
    assert t is not None  # (step checked it)
    turn = tx.current_turn
    tx.set_turn(trades=turn.trades + (t,), offered=turn.offered + ((t.by, t.to),))
    if turn.phase == Phase.CLOSING and t.to not in turn.waiting:  # the turn-end window waits for the answer
        tx.set_turn(waiting=turn.waiting + (t.to,))
    tx.event("trade", t.by, t.to, t.gives, t.takes)


def _close(tx: Tx, t: Trade) -> None:
    tx.set_turn(trades=tuple(x for x in tx.current_turn.trades if x != t))


def accept(tx: Tx, by: int, to: int) -> None:
    """The trade is carried out: each side's items into the other's play, not in use, not to be
    sold before the receiver's next turn (C-ITEM-6); followers into their role (C-PACK-5)."""
    t = open_offer(tx.commit(), by, to)
    _close(tx, t)
    p, q = tx.player(by), tx.player(to)
    after_p, after_q = exchanged(p, q, t.gives, t.takes), exchanged(q, p, t.takes, t.gives)
    assert after_p is not None and after_q is not None  # (step checked that it fits)
    tx.set_player(by, items=after_p.items, steed=after_p.steed, hireling=after_p.hireling)
    tx.set_player(to, items=after_q.items, steed=after_q.steed, hireling=after_q.hireling)
    tx.event("trade_done", by, to, t.gives, t.takes)


def decline(tx: Tx, by: int, to: int) -> None:
    t = open_offer(tx.commit(), by, to)
    _close(tx, t)
    tx.event("trade_closed", by, to, "declined")


def lapse(tx: Tx, turn_over: bool = False) -> None:
    """The open offers that no longer hold lapse: all of them when the turn is over or a combat
    has started, else those whose items left their holder's play."""
    if tx.turn is None or not tx.turn.trades:
        return
    s = tx.commit()
    why = "turn" if turn_over else "combat" if tx.combat is not None else ""
    for t in s.current_turn.trades:
        if why or not holds(s, t):
            _close(tx, t)
            tx.event("trade_closed", t.by, t.to, why or "gone")
