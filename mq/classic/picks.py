"""The Treasure of a won, helped combat shared as the accepted deal says (C-HELP-3, C-DIGI-3, 5):
how many cards the helper takes and who picks first (``Picks``).

With a real choice (the helper due some of the cards but not all), the cards are laid out face
up (a helped combat draws face-up, C-COMBAT-9) and picked one at a time as explicit pending
decisions: the first picker of the order takes all theirs, or the two take turns, the helper
first; once one side is done, the rest go to the other in the order they were drawn.  Without a
choice every card goes where the deal says, face-up.

Invariants: the cards laid out are in no deck and no hand until picked (the ``pick`` decision's
``arg`` lists them, SEP-joined); the decision's ``gifts`` are the (seat, cards still due) of
the helper and the fighter, both above 0 while it is pending, and its ``order`` the deal's."""
from __future__ import annotations

from mq.classic.state import Pending, PendingKind, Picks
from mq.classic.tx import TREASURE, Tx

SEP = ","  # card ids never hold one


def draw(tx: Tx, fighter: int, helper: int, share: int, order: str, total: int) -> None:
    """C-COMBAT-9 (c), C-HELP-3: ``total`` Treasure cards drawn face-up for a helped win (fewer
    if the deck runs out), ``share`` of them the helper's, shared out in ``order``."""
    pool = tuple(card for card in (tx.draw(TREASURE) for _ in range(total)) if card is not None)
    share_out(tx, fighter, helper, share, order, pool)


def share_out(tx: Tx, fighter: int, helper: int, share: int, order: str, pool: tuple[str, ...]) -> None:
    """``pool`` (face-up, in no hand) shared between ``helper`` (``share`` cards) and ``fighter``."""
    due = min(share, len(pool))
    tx.event("laid_out", fighter, helper, pool, due, order)
    dues = ((helper, due), (fighter, len(pool) - due))
    first = fighter if order == Picks.FIGHTER else helper
    _next(tx, first, pool, dues, order)


def _next(tx: Tx, seat: int, pool: tuple[str, ...], dues: tuple[tuple[int, int], ...], order: str) -> None:
    """The next pick: ``seat``'s, while both sides are still due a card; else the rest to the
    side still due them, in the order drawn."""
    if all(n > 0 for _, n in dues):
        tx.pending = Pending(PendingKind.PICK, seat, 1, SEP.join(pool), gifts=dues, order=order)
        return
    for to, n in dues:
        for card in pool if n > 0 else ():
            _take(tx, to, card)


def _take(tx: Tx, seat: int, card: str) -> None:
    tx.set_player(seat, hand=tx.player(seat).hand + (card,))
    tx.event("pick", seat, card)


def choose(tx: Tx, card: str) -> None:
    """The picker takes ``card``; then the other side picks when taking turns, else the same
    side again (until one side is done: the rest is given out)."""
    pend = tx.decision
    tx.pending = None
    _take(tx, pend.seat, card)
    pool = list(pend.arg.split(SEP))
    pool.remove(card)
    dues = tuple((s, n - 1 if s == pend.seat else n) for s, n in pend.gifts)
    other = next(s for s, _ in dues if s != pend.seat)
    _next(tx, other if pend.order == Picks.TURNS else pend.seat, tuple(pool), dues, pend.order)


def options(pend: Pending) -> tuple[str, ...]:
    """The cards still laid out (C-DIGI-5)."""
    return tuple(pend.arg.split(SEP))
