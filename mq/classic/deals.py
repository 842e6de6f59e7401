"""Help and deals in a Classic combat (C-HELP-1, 3, 7, C-DIGI-3): whom the main fighter may ask,
the terms a deal may name, offers and their acceptance, and carrying out what was promised.

A deal (state.Deal) is offered by one seat to another and binds once the other accepts it; the
engine carries it out (C-HELP-3).  Its terms: a share of the monsters' Treasure (how many cards
the helper takes, ``share``, and who picks first, ``order``: mq.classic.picks) and a card in
play (``item``: an item, a steed or a hireling, which trade like items, C-PACK-5), either or
both:
- HELPER: ``by`` offers to help the main fighter (asked or not, C-HELP-1) for those terms, the
  item being the fighter's (passing won or lost); the fighter accepting it takes ``by`` as the
  helper.  Several players may bid: the fighter takes one, and the other offers lapse.
- HELP: the main fighter offers ``to`` those terms for helping, the item the fighter's own;
  ``to`` joins the munchkin side on accepting.  Our rule: the item passes only on a win.
- ABSTAIN: ``by`` promises an item of theirs to ``to`` for not helping in this combat; once it is
  accepted the engine refuses ``to``'s help (C-HELP-7).
Promised items pass when the combat is over (nothing is traded in a combat, C-TURN-8), won or lost
unless the deal is conditional on a win; an item its giver no longer has in play is void; a share
exists only after a win (mq.classic.combat.win).  Items received arrive not in use and are not sold
before the receiver's next turn (C-ITEM-6).

Invariants: at most one open offer from one seat to another in a combat; open offers exist only
while the combat is before its outcome (stages prepare, help, window); a helper chosen closes
every open help offer; each seat is asked at most once between two windows, and offers unasked at
most once a combat (``Combat.dealt``), so help and deals end."""
from __future__ import annotations

from collections.abc import Iterator

from mq.cards.classic_vocab import K
from mq.classic import effects as fx
from mq.classic import pack_effects as pfx
from mq.classic.state import CPlayer, Deal, DealKind, Picks, Stage
from mq.classic.tx import Tx

OPEN_STAGES = (Stage.PREPARE, Stage.HELP, Stage.WINDOW)  # deals are made before the outcome
ORDERS = (Picks.HELPER, Picks.FIGHTER, Picks.TURNS)


def giver(d: Deal) -> int:
    """The seat whose item the deal promises."""
    return d.to if d.what == DealKind.HELPER else d.by


def receiver(d: Deal) -> int:
    return d.by if d.what == DealKind.HELPER else d.to


def helper(d: Deal) -> int:
    """The seat that helps under the deal (-1: an abstention)."""
    return {DealKind.HELP: d.to, DealKind.HELPER: d.by}.get(d.what, -1)


def tradeable(p: CPlayer) -> tuple[str, ...]:
    """The cards in play ``p`` may promise: items (not one given up over the limit, C-ITEM-4), and
    a steed or hireling card (C-PACK-5: they trade like items; a tamed monster stays with its
    ranger, C-PACK-6)."""
    return tuple(it.card for it in p.items if not it.over) + tuple(
        c for c in (p.steed, p.hireling) if c.startswith("CT"))


def holds(p: CPlayer, item: str) -> bool:
    return item in tradeable(p)


def terms(total: int, items: tuple[str, ...]) -> Iterator[tuple[int, str, str]]:
    """Every (share, order, item) a help deal may name, for ``total`` Treasure at stake: no item
    or one of ``items``, 0 to ``total`` cards, and an order only where there is something to
    pick (some of the cards, not all: else Picks.HELPER, the one listed form)."""
    for item in ("",) + items:
        for share in range(total + 1):
            for order in ORDERS if 0 < share < total else (Picks.HELPER,):
                yield share, order, item


def help_terms(combat) -> tuple[int, str]:
    """The helper's (share, order) under the accepted deal that made them the helper ((0, helper
    first) with none, C-HELP-4)."""
    d = next((d for d in combat.deals if combat.helper >= 0 and helper(d) == combat.helper), None)
    return (d.share, d.order) if d is not None else (0, Picks.HELPER)


def open_to(combat, seat: int) -> tuple[Deal, ...]:
    """The open offers addressed to ``seat`` (``valid`` says which may still be accepted)."""
    return tuple(d for d in combat.proposed if d.to == seat)


def abstains(combat, seat: int) -> bool:
    """C-HELP-7: ``seat`` sold its abstention in this combat."""
    return any(d.what == DealKind.ABSTAIN and d.to == seat for d in combat.deals)


def may_help(combat, seat: int) -> bool:
    """Whether ``seat`` may still join this combat as the helper (C-HELP-1, 7)."""
    return combat.helper < 0 and seat != combat.fighter and not abstains(combat, seat)


def may_offer(combat, seat: int) -> bool:
    """C-HELP-1: ``seat`` may offer its help now: asked (the call waits on it), or unasked once a
    combat, with no offer of its own open."""
    if not may_help(combat, seat) or any(d.by == seat and d.what == DealKind.HELPER for d in combat.proposed):
        return False
    return (combat.stage == Stage.HELP and seat in combat.waiting) or (seat, combat.fighter) not in combat.dealt


def askable(s) -> tuple[int, ...]:
    """C-HELP-1: the seats the main fighter may ask for help now, in seat order from the next
    one: while nobody helps, each once until the next window, none with a deal open with the
    fighter, none who sold their abstention (C-HELP-7).  A dead munchkin may help."""
    c = s.combat
    n = len(s.players)
    busy = {x for d in c.proposed for x in (d.by, d.to)}
    return tuple(q for q in ((c.fighter + k) % n for k in range(1, n))
                 if may_help(c, q) and q not in c.asked and q not in busy) if c.helper < 0 else ()


def valid(s, d: Deal) -> bool:
    """Whether an open offer may still be accepted: the combat is before its outcome, the item
    (if any) is still in its giver's play, and a help deal's helper may still join."""
    c = s.combat
    if c is None or c.stage not in OPEN_STAGES or (d.item and not holds(s.players[giver(d)], d.item)):
        return False
    h = helper(d)
    return h < 0 or may_help(c, h)


def propose(tx: Tx, d: Deal) -> None:
    """An offer made: it replaces the same pair's open one; an offer of help answers a call for
    help waiting on its seat, and a window waits for the answer of the seat offered it."""
    c = tx.fight
    tx.set_combat(proposed=tuple(x for x in c.proposed if (x.by, x.to) != (d.by, d.to)) + (d,))
    if d.what == DealKind.HELPER and c.stage == Stage.HELP and d.by in c.waiting:  # the seat asked answers
        tx.set_combat(waiting=tuple(x for x in c.waiting if x != d.by))
    elif c.stage == Stage.WINDOW and d.to not in c.waiting:  # the window waits for the answer
        tx.set_combat(waiting=c.waiting + (d.to,))
    if d.what == DealKind.HELPER:
        tx.event("offer", d.by, d.share, d.order, d.item)
    else:
        tx.event("deal", d.by, d.to, d.what, d.item, d.won_only, d.share, d.order)


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
    tx.event("deal_made", d.by, d.to, d.what, d.item, d.share, d.order)
    if d.what == DealKind.ABSTAIN:
        c = tx.fight
        tx.set_combat(proposed=tuple(x for x in c.proposed if helper(x) != d.to),
                      waiting=c.waiting if c.stage != Stage.HELP else tuple(x for x in c.waiting if x != d.to))
    return d


def close_help_offers(tx: Tx) -> None:
    """A helper is chosen: the other help offers lapse (C-HELP-1: at most one helper)."""
    c = tx.fight
    tx.set_combat(proposed=tuple(x for x in c.proposed if helper(x) < 0))


def carry_out(tx: Tx, won: bool) -> None:
    """C-HELP-3: after the combat, every accepted deal's item passes from its giver's play into
    the receiver's (an item not in use, not to be sold before their next turn, C-ITEM-6; a steed
    or hireling into that role, replacing the receiver's, C-PACK-5), unless the deal was
    conditional on a win that did not come; an item the giver no longer has is void."""
    for d in tx.fight.deals:
        if not d.item or (d.won_only and not won):
            continue
        g, r = giver(d), receiver(d)
        passed = holds(tx.player(g), d.item)
        tx.event("deal_done", g, r, d.item, passed)
        if not passed:
            continue
        p = tx.player(g)
        if d.item in (p.steed, p.hireling):
            role = K.STEED if d.item == p.steed else K.HIRELING
            tx.set_player(g, **{role: ""})
            fx.fit_big_items(tx, g)  # C-EPIC-15: the giver's extra big item goes with the steed
            if role == K.STEED:
                pfx.set_steed(tx, r, d.item, "deal")
            else:
                pfx.set_hireling(tx, r, d.item)
            continue
        item = fx.remove_item(tx, g, d.item)
        tx.set_player(r, items=tx.player(r).items + (item.replace(in_use=False, fresh=True),))
        fx.fit_big_items(tx, r)
