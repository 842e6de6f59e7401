"""Deals in a Classic combat beyond a Treasure share (C-DIGI-3, C-HELP-3, C-HELP-7): help bought
with an item in play, help sold for one, abstention from helping bought with one.

A deal (state.Deal) is offered by one seat to another and binds once the other accepts it; the
engine carries it out (C-HELP-3):
- HELP: the main fighter promises an item of theirs to ``to`` if ``to`` helps; ``to`` joins the
  munchkin side on accepting.  Our rule: the promise is conditional on a win (``won_only``).
- HELPER: ``by`` offers to help the main fighter for an item of the fighter's (won or lost); the
  fighter accepting it takes ``by`` as the helper.
- ABSTAIN: ``by`` promises an item of theirs to ``to`` for not helping in this combat; once it is
  accepted the engine refuses ``to``'s help (C-HELP-7).
A share of the Treasure stays the call for help's offer (Combat.offers, Combat.share).  Promised
items pass when the combat is over (nothing is traded in a combat, C-TURN-8), won or lost unless
the deal is conditional on a win; an item its giver no longer has in play is void.  Items
received arrive not in use and are not sold before the receiver's next turn (C-ITEM-6).

Invariants: at most one open offer from one seat to another in a combat; open offers exist only
while the combat is before its outcome (stages prepare, help, window); a helper chosen closes
every open help offer."""
from __future__ import annotations

from mq.classic import effects as fx
from mq.classic.state import CPlayer, Deal, DealKind, Stage
from mq.classic.tx import Tx

OPEN_STAGES = (Stage.PREPARE, Stage.HELP, Stage.WINDOW)  # deals are made before the outcome


def giver(d: Deal) -> int:
    """The seat whose item the deal promises."""
    return d.to if d.what == DealKind.HELPER else d.by


def receiver(d: Deal) -> int:
    return d.by if d.what == DealKind.HELPER else d.to


def helper(d: Deal) -> int:
    """The seat that helps under the deal (-1: an abstention)."""
    return {DealKind.HELP: d.to, DealKind.HELPER: d.by}.get(d.what, -1)


def holds(p: CPlayer, item: str) -> bool:
    return any(it.card == item for it in p.items)


def open_to(combat, seat: int) -> tuple[Deal, ...]:
    """The open offers addressed to ``seat`` (``valid`` says which may still be accepted)."""
    return tuple(d for d in combat.proposed if d.to == seat)


def abstains(combat, seat: int) -> bool:
    """C-HELP-7: ``seat`` sold its abstention in this combat."""
    return any(d.what == DealKind.ABSTAIN and d.to == seat for d in combat.deals)


def may_help(combat, seat: int) -> bool:
    """Whether ``seat`` may still join this combat as the helper (C-HELP-1, 7)."""
    return combat.helper < 0 and seat != combat.fighter and not abstains(combat, seat)


def askable(s) -> tuple[int, ...]:
    """C-HELP-1: the seats the main fighter may ask for help now, in seat order from the next
    one: while nobody helps, each once until the next window, none who offered or was offered a
    deal already open, none who sold their abstention (C-HELP-7).  A dead munchkin may help."""
    c = s.combat
    n = len(s.players)
    busy = {x for d in c.proposed for x in (d.by, d.to)} | {seat for seat, _ in c.offers}
    return tuple(q for q in ((c.fighter + k) % n for k in range(1, n))
                 if may_help(c, q) and q not in c.asked and q not in busy) if c.helper < 0 else ()


def valid(s, d: Deal) -> bool:
    """Whether an open offer may still be accepted: the combat is before its outcome, the item
    is still in its giver's play, and a help deal's helper may still join."""
    c = s.combat
    if c is None or c.stage not in OPEN_STAGES or not holds(s.players[giver(d)], d.item):
        return False
    h = helper(d)
    return h < 0 or may_help(c, h)


def propose(tx: Tx, d: Deal) -> None:
    c = tx.fight
    tx.set_combat(proposed=tuple(x for x in c.proposed if (x.by, x.to) != (d.by, d.to)) + (d,))
    if d.what == DealKind.HELPER and d.by in c.waiting:  # an answer to the call for help
        tx.set_combat(waiting=tuple(x for x in c.waiting if x != d.by))
    tx.event("deal", d.by, d.to, d.what, d.item, d.won_only)


def take_back(tx: Tx, by: int, to: int) -> Deal:
    c = tx.fight
    d = next(x for x in c.proposed if (x.by, x.to) == (by, to))
    tx.set_combat(proposed=tuple(x for x in c.proposed if x is not d))
    return d


def accept(tx: Tx, by: int, to: int) -> Deal:
    """The offer binds: a helper joins (every other help offer closes), an abstainer's help
    offers go (C-HELP-7); the items wait for the end of the combat (``carry_out``)."""
    d = take_back(tx, by, to)
    tx.set_combat(deals=tx.fight.deals + (d,))
    tx.event("deal_made", d.by, d.to, d.what, d.item)
    if d.what == DealKind.ABSTAIN:
        c = tx.fight
        tx.set_combat(offers=tuple(o for o in c.offers if o[0] != d.to),
                      proposed=tuple(x for x in c.proposed if helper(x) != d.to),
                      waiting=c.waiting if c.stage != Stage.HELP else tuple(x for x in c.waiting if x != d.to))
    return d


def close_help_offers(tx: Tx) -> None:
    """A helper is chosen: the other help offers lapse (C-HELP-1: at most one helper)."""
    c = tx.fight
    tx.set_combat(proposed=tuple(x for x in c.proposed if helper(x) < 0))


def carry_out(tx: Tx, won: bool) -> None:
    """C-HELP-3: after the combat, every accepted deal's item passes from its giver's play into
    the receiver's (not in use, not to be sold before their next turn, C-ITEM-6), unless the deal
    was conditional on a win that did not come; an item the giver no longer has is void."""
    for d in tx.fight.deals:
        if d.won_only and not won:
            continue
        g, r = giver(d), receiver(d)
        passed = holds(tx.player(g), d.item)
        tx.event("deal_done", g, r, d.item, passed)
        if passed:
            item = fx.remove_item(tx, g, d.item)
            tx.set_player(r, items=tx.player(r).items + (item.replace(in_use=False, fresh=True),))
            fx.fit_big_items(tx, r)
