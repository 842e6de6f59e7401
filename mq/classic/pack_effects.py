"""Effects of the packs' races, classes and steeds (CLASSIC.md C-PACK-2, 3, 4, 6, C-EPIC-7, 10, 14) that
the combat applies by itself: the bard's luck with the Treasure of a won combat, the epic gnome's
clean escape, and a munchkin's one steed.  The layer of mq.classic.effects (it changes a Tx and
emits events; mq.classic.combat calls it); the actions that use these powers are mq.classic.packs.

Invariants: a munchkin has at most one steed (``CPlayer.steed``), its card out of every deck and
hand while it is theirs; a new steed replaces the old one, which is discarded (C-PACK-6)."""
from __future__ import annotations

from mq.classic import character as ch
from mq.classic import effects as fx
from mq.classic import picks
from mq.classic.state import Claim, Combat, Effect, Pending, PendingKind
from mq.classic.tx import DOOR, TREASURE, Tx

SEP = fx.SEP  # card ids never hold one: the Treasure drawn for a bard's luck, in Pending.arg


def treasure(tx: Tx, c: Combat, total: int, share: int, order: str) -> bool:
    """C-PACK-4, C-EPIC-10: a bard who wins as main fighter draws ``extra`` Treasure more than the
    monsters give (face-down alone, face-up helped, all into the bard's hand), then discards
    ``extra`` of them (a pending choice) before the helper's ``share`` is given (picked in
    ``order``, mq.classic.picks).  A cleric bard drawing face-down may salvage each of these
    draws as any other (C-CHAR-5, our reading): the draws are queued, each the cleric's choice,
    and the discard follows them (``luck`` in the queue: mq.classic.effects), among the cards they
    brought.  False when the main fighter has no luck (the ordinary draw applies)."""
    extra = ch.luck(tx.player(c.fighter), tx.cards, tx.params)
    if not extra:
        return False
    helped = c.helper >= 0
    if not helped and fx.may_salvage(tx, c.fighter, TREASURE):
        before = tx.player(c.fighter).hand
        for _ in range(total + extra):
            fx.draw_to_hand(tx, c.fighter, TREASURE)  # (queued: the cleric's choice, C-CHAR-5)
        tx.queue = tx.queue + (Effect(c.fighter, fx.LUCK, extra, SEP.join(before)),)
        return True
    # (drawn at once otherwise: the luck discards among these very cards)
    drawn = [card for card in (fx.draw_to_hand(tx, c.fighter, TREASURE, public=helped, salvage=False)
                               for _ in range(total + extra)) if card is not None]
    shared = ((c.helper, share),) if helped else ()
    n = min(extra, len(drawn))
    if n:
        tx.pending = Pending(PendingKind.LUCK, c.fighter, n, SEP.join(drawn), gifts=shared, order=order)
    return True


def choose_luck(tx: Tx, card: str) -> None:
    """C-PACK-4: one of the drawn Treasure discarded, face-up; after the last, the share."""
    pend = tx.decision
    fx.discard_from_hand(tx, pend.seat, card, "luck")
    left = list(pend.arg.split(SEP))
    left.remove(card)
    if pend.n > 1:
        tx.pending = pend.replace(n=pend.n - 1, arg=SEP.join(left))
        return
    tx.pending = None
    for helper, share in pend.gifts:  # C-HELP-3: what is left is shared as the deal says
        hand = list(tx.player(pend.seat).hand)
        for card in left:
            hand.remove(card)
        tx.set_player(pend.seat, hand=tuple(hand))
        picks.share_out(tx, pend.seat, helper, share, pend.order, tuple(left))


def mark_caught(tx: Tx, seat: int) -> None:
    """C-EPIC-7: a runner caught by a monster has not escaped every one (the clean escape's Treasure)."""
    tx.set_combat(used=tx.fight.used + ((seat, "caught"),))


def clean_escapes(tx: Tx, c: Combat) -> None:
    """C-EPIC-7: when a combat ends in running away, each runner with the clean escape who is alive
    and was caught by no monster draws its Treasure face-down (once per combat)."""
    for seat in ((c.fighter,) if c.helper < 0 else (c.fighter, c.helper)):
        p = tx.player(seat)
        e = ch.power(p, tx.cards, "clean_escape", tx.params)
        if e is not None and not p.dead and (seat, "caught") not in c.used:
            tx.event("power", seat, "clean_escape", str(e.number("treasure")))
            for _ in range(e.number("treasure")):
                fx.draw_to_hand(tx, seat, TREASURE)


def set_steed(tx: Tx, seat: int, card: str, how: str) -> None:
    """C-PACK-5, 6, C-EPIC-14: ``card`` becomes the one steed of ``seat``; the old one is discarded."""
    _follow(tx, seat, "steed", card, how)


def set_hireling(tx: Tx, seat: int, card: str) -> None:
    """C-PACK-5: ``card`` becomes the one hireling of ``seat``; the old one is discarded."""
    _follow(tx, seat, "hireling", card, "play")


def _follow(tx: Tx, seat: int, field: str, card: str, how: str) -> None:
    old = getattr(tx.player(seat), field)
    if old:
        tx.discard(old)
        tx.event("discard", seat, old, field)
    tx.set_player(seat, **{field: card})
    tx.event(field, seat, card, how)



def claimers(tx_or_state, cards) -> tuple[int, ...]:
    """C-EPIC-14: the seats that may claim a discarded monster now: epic rangers holding at least
    the power's minimum of cards."""
    out = []
    for p in tx_or_state.players:
        e = ch.power(p, cards, "claim", tx_or_state.params)
        if e is not None and len(p.hand) >= e.number("min_cards"):
            out.append(p.seat)
    return tuple(out)


def open_claim(tx: Tx) -> None:
    """C-EPIC-14, C-DIGI-2 (e): with the game at rest, the monster cards discarded meanwhile that
    are still on the Door discard pile may be claimed by the epic rangers able to pay; with none
    to claim or nobody able, there is no window."""
    assert tx.claim is not None  # (settle opens a claim only when there is one)
    cards = tuple(c for c in tx.claim.cards if c in tx.decks[DOOR].discard)
    waiting = claimers(tx, tx.cards)
    tx.claim = Claim(cards, waiting, open=True) if cards and waiting else None


def claim(tx: Tx, seat: int, card: str) -> None:
    """C-EPIC-14: the whole hand discarded, the monster card taken from the Door discards as the
    steed (the first claim in log order wins: the card leaves the window)."""
    for c in tx.player(seat).hand:
        fx.discard_from_hand(tx, seat, c, "power")
    deck = tx.decks[DOOR]
    i = deck.discard.index(card)
    tx.decks[DOOR] = deck.replace(discard=deck.discard[:i] + deck.discard[i + 1:])
    tx.event("power", seat, "claim", card)
    set_steed(tx, seat, card, "claim")
    cl = tx.claim
    assert cl is not None  # (a claim is legal only in the claim window)
    tx.claim = cl.replace(cards=tuple(c for c in cl.cards if c != card), waiting=tuple(x for x in cl.waiting if x != seat))
