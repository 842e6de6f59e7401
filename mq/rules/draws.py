"""Cards drawn into a hand, and the cleric's Resurrection (Q-CHAR-5), which may replace a face-down
draw: such a draw is put off until the action is done, then the cleric decides.

Invariant: every card that enters a hand from a deck goes through ``draw_to_hand`` (so the
Resurrection is never missed); the put-off draws live in the transaction only, never in the state.
"""
from __future__ import annotations

from mq.rules.state import TURN, Deck, Pending, PendingKind
from mq.rules.tx import Tx

DRAW = "draw"  # a cleric's answer to Resurrection: draw as usual


def is_cleric(p, cards) -> bool:
    return p.alive and any(cards.card(c).key == "cleric" for c in p.classes)


def may_resurrect(tx: Tx, seat: int, kind: str) -> bool:
    """The cleric's Resurrection (Q-CHAR-5, the cleric card's text in mq/data/dxm.toml): "when
    you would draw a card face-down, you may take the top card of that deck's discard pile
    instead, discarding one card from your hand for it" — a live cleric with a card in hand, a
    Treasure or DxM draw, a discard pile to take from, during the game."""
    p = tx.player(seat)
    return (tx.phase == TURN and kind in ("treasure", "dxm") and bool(tx.decks[kind].discard)
            and bool(p.hand) and is_cleric(p, tx.cards))


def _owed(tx: Tx) -> list:
    """Face-down draws of clerics put off until the action is done (a per-transaction list, never
    part of the state): each becomes a ``resurrect`` decision in turn (mq.rules.flow.settle)."""
    return tx.__dict__.setdefault("owed_draws", [])


def draw_to_hand(tx: Tx, seat: int, kind: str, public: bool = False, ask: bool = True) -> str | None:
    """Draw the top card of ``kind`` into ``seat``'s hand.  A face-down draw of a cleric who could
    use Resurrection instead is put off (returns None) until the action is done, when the cleric
    decides (``offer_resurrections``); the order of draws is otherwise unchanged."""
    if ask and not public and may_resurrect(tx, seat, kind):
        _owed(tx).append((seat, kind))
        return None
    card = tx.draw(kind)
    if card is not None:
        to_hand(tx, seat, kind, card)
        tx.event("draw", seat, kind, card, public)
    return card


def to_hand(tx: Tx, seat: int, kind: str, card: str) -> None:
    """A drawn card joins the hand; newly gained Treasure is marked (``Player.fresh``: it may go into
    play on anyone's turn, outside combat, Q-CARD-3, Q-TURN-3)."""
    p = tx.player(seat)
    if kind == "treasure":
        tx.set_player(seat, hand=p.hand + (card,), fresh=p.fresh + (card,))
    else:
        tx.set_player(seat, hand=p.hand + (card,))


def offer_resurrections(tx: Tx) -> bool:
    """Turn the put-off draws into decisions, in order: the first one a cleric may still take from
    the discard pile becomes a ``resurrect`` pending decision (options: "draw", or a card of the
    hand to discard for the pile's top card; data: the deck, the top card, the draws still owed);
    the others are drawn as usual.  Our rule: while another decision is pending (a base colour,
    an item to lose, charity), the owed draws are made as usual.  True when a decision is pending."""
    owed = _owed(tx)
    while owed:
        seat, kind = owed.pop(0)
        if tx.pending is None and may_resurrect(tx, seat, kind):
            hand = tx.player(seat).hand
            tx.pending = Pending(seat=seat, kind=PendingKind.RESURRECT, options=(DRAW,) + tuple(sorted(set(hand))),
                                 data=(kind, tx.decks[kind].discard[-1], tuple(owed)))
            owed.clear()
            return True
        draw_to_hand(tx, seat, kind, ask=False)
    return False


def resurrect_chosen(tx: Tx, option: str) -> None:
    """The cleric's answer: draw as usual, or discard that card from hand and take the top card of
    the deck's discard pile; the draws still owed are offered next (by flow.settle)."""
    pend = tx.decision
    seat = pend.seat
    kind, top, rest = pend.data
    tx.pending = None
    if option == DRAW:
        draw_to_hand(tx, seat, kind, ask=False)
    else:
        deck = tx.decks[kind]
        tx.decks[kind] = Deck(deck.draw, deck.discard[:-1])
        p = tx.player(seat)
        tx.set_player(seat, hand=tuple(c for c in p.hand if c != option))
        to_hand(tx, seat, kind, top)
        tx.discard(option)
        tx.event("resurrect", seat, kind, top, option)
    _owed(tx).extend(rest)
