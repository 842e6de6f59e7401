"""What one seat may see (Q-DIGI-4): the one place that strips secrets, from states and events.

A view is a State of the same shape in which other players' hands (and which of their cards are
newly gained, ``Player.fresh``; also where another seat's
pending decision lists cards of its hand), every deck's order and the RNG seed are replaced by
placeholders of the same length, so bots and the client can use the
same helpers (legal_actions, strength terms) on it.  A view must never be fed to ``apply``.
``view_events`` does the same for the events of an action: a card only some seats may see is
``HIDDEN`` for the others."""
from __future__ import annotations

from mq.rules.events import Charity, Draw
from mq.rules.state import Deck, PendingKind, State

HIDDEN = "?"
TABLE = -1  # the seat number of a spectator: sees no hand at all


def _mask(cards: tuple[str, ...]) -> tuple[str, ...]:
    return (HIDDEN,) * len(cards)


def _deck(deck: Deck) -> Deck:
    return Deck(_mask(deck.draw), deck.discard)  # discards are face up (Q-SETUP-1)


# Options of another seat's pending decision that name no card of its hand: a curse's victim may
# hold a cancelling card, a cleric choosing Resurrection lists the hand's cards to discard.
PUBLIC_OPTIONS = ("accept", "sanctuary", "draw")


def _pending(state: State, seat: int):
    pend = state.pending
    if pend is None or pend.seat == seat or pend.kind not in (PendingKind.CURSE, PendingKind.RESURRECT):
        return pend
    return pend.replace(options=tuple(o if o in PUBLIC_OPTIONS else HIDDEN for o in pend.options))


def view(state: State, seat: int) -> State:
    players = tuple(p if p.seat == seat else p.replace(hand=_mask(p.hand), fresh=_mask(p.fresh))
                    for p in state.players)
    seen = state.replace(
        pending=_pending(state, seat),
        rng_seed=0, rng_n=0, players=players,
        room_deck=_deck(state.room_deck), connector_deck=_deck(state.connector_deck),
        monster_deck=_deck(state.monster_deck), treasure_deck=_deck(state.treasure_deck),
        dxm_deck=_deck(state.dxm_deck),
    )
    if "_board" in state.__dict__:  # the same dungeon: keep its cached encoding (mq.rules.board)
        object.__setattr__(seen, "_board", state.__dict__["_board"])
    return seen


def view_events(events, seat: int) -> tuple:
    """The events as ``seat`` may see them (``TABLE``: public information only): another seat's
    face-down draw (Q-SEARCH-3), a card given for charity between two other seats (Q-CHARITY)
    and a Classic hand shown to another player (C-ITEM-10) name no card."""
    return tuple(_event(e, seat) for e in events)


def _event(e, seat: int):
    # (by kind, not by type: a plain tuple of the same fields is masked all the same)
    if e[0] == "draw":
        d = Draw._make(e)
        return d if d.public or d.seat == seat else d._replace(card=HIDDEN)
    if e[0] == "charity":
        c = Charity._make(e)
        return c if seat in (c.seat, c.to) else c._replace(card=HIDDEN)
    if e[0] == "reveal":  # C-ITEM-10: a hand shown to one player (kind, seat, to, cards)
        if seat in (e[1], e[2]):
            return e
        return e._replace(cards=_mask(e[3])) if hasattr(e, "_replace") else e[:3] + (_mask(e[3]),)
    return e
