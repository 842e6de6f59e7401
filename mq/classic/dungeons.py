"""Dungeons and portals (CLASSIC.md C-PACK-7): the dungeon deck, the active dungeons, portals, and
what an active dungeon's rule changes for the whole table, monsters included.

- **Setup**: with the dungeons pack the dungeon cards are a deck of their own, shuffled last (so a
  game without the pack draws exactly what it drew before), and its top card is turned face-up:
  the first active dungeon.
- **Portals** are Door cards: kicked open, a portal acts at once; in the hand, it is played on
  your own turn outside combat (``play CARD``).  Either way it is discarded and turns up the next
  dungeon: with none active it simply becomes active; with one, the portal's player chooses to
  let it join (``choose join``) or to replace the active one (``choose CARD``); with two, which
  one it replaces (a pending decision, C-DIGI-5).  A replaced dungeon goes to the dungeon discards.
- **Rules**: each dungeon's effects (vocabulary context ``dungeon``) add a modifier to a number the
  rules already compute: monster levels and Treasure counts, munchkin strength, run-away rolls, the
  hand limit, levels for kills, levels lost to Bad Stuff, gold for selling.  Precedence (card > dungeon > document):
  a card's own text still acts in full; where a card sets the number itself (a race's hand limit,
  an epic gnome's ignoring of run-away penalties) the card's stands.

Invariants: at most two dungeons are active; a dungeon card is in exactly one place (the dungeon
deck, its discards, the active ones, or a portal's pending choice).  The read-only questions take
anything with ``players``, ``combat`` and ``active`` (a state, a view or a Tx), as mq.classic.combat.
"""
from __future__ import annotations

from mq.cards.classic_defs import ClassicSet
from mq.cards.classic_vocab import K
from mq.cards.defs import Effect
from mq.classic import character as ch
from mq.classic.state import Pending, PendingKind
from mq.classic.tx import DUNGEON, Tx
from mq.rules.actions import Action
from mq.rules.state import Deck

MAX_ACTIVE = 2  # C-PACK-7: two dungeons may be active at once
JOIN = "join"  # the portal choice that keeps the active dungeon and adds the new one as the second


# -- what the active dungeons say ---------------------------------------------------------------

def rules(s, cards: ClassicSet, name: str) -> tuple[Effect, ...]:
    """The effects called ``name`` of the active dungeons, in the order they were turned up."""
    return tuple(e for card in s.active for e in cards.dungeon_card(card).effects if e.name == name)


def _sum(s, cards: ClassicSet, name: str, key: str = "amount") -> int:
    return sum(e.number(key) for e in rules(s, cards, name))


def monster_bonus(s, cards: ClassicSet, card: str) -> int:
    """Monster ``card``'s level change from the dungeons (monsters_stronger, keyword_stronger)."""
    keywords = cards.monster_card(card).keywords
    return _sum(s, cards, "monsters_stronger") + sum(
        e.number("amount") for e in rules(s, cards, "keyword_stronger") if e.text("keyword") in keywords)


def seat_bonus(s, cards: ClassicSet, seat: int) -> int:
    """Munchkin ``seat``'s strength change in the combat from the dungeons: who they are, fighting
    alone or helping, the items they use in a slot."""
    if not s.active:
        return 0
    c = s.combat
    p = s.players[seat]
    words = ch.who(p, cards)
    n = sum(e.number("amount") for e in rules(s, cards, "who_strength") if e.text("who") in words)
    if seat == c.fighter and c.helper < 0:
        n += _sum(s, cards, "alone_strength")
    if seat == c.helper:
        n += _sum(s, cards, "helper_strength")
    for e in rules(s, cards, "slot_strength"):
        n += e.number("amount") * sum(1 for d in ch.working(p, cards) if d.slot == e.text("slot"))
    return n


def treasure_bonus(s, cards: ClassicSet) -> int:
    """The change to every monster's Treasure count (treasure_change; the count never below 0)."""
    return _sum(s, cards, "treasure_change")


def runaway_bonus(s, cards: ClassicSet) -> int:
    """The change to every run-away roll (table_runaway)."""
    return _sum(s, cards, "table_runaway")


def hand_limit(s, cards: ClassicSet, seat: int) -> int:
    """C-TURN-9 with the dungeons: the limit of 5 changed by hand_limit_change (never below 0); a
    card's own limit (a dwarf's, an epic dwarf's none) stands: card > dungeon."""
    p = s.players[seat]
    limit = ch.hand_limit(p, cards, s.params)
    if limit != ch.HAND_LIMIT or ch.power(p, cards, "hand_limit") is not None:
        return limit
    return max(0, limit + _sum(s, cards, "hand_limit_change"))


def kill_levels(s, cards: ClassicSet) -> int:
    """Levels more for each monster killed in a won combat (kill_levels)."""
    return _sum(s, cards, "kill_levels", "n")


def bad_stuff(s, cards: ClassicSet) -> tuple[Effect, ...]:
    """What a monster's catch costs more than its Bad Stuff (bad_stuff_levels), as effects."""
    n = _sum(s, cards, "bad_stuff_levels", "n")
    return (Effect("lose_levels", (("n", n),)),) if n else ()


def sale_value(s, cards: ClassicSet, value: int) -> int:
    """An item's gold when sold (sale_gold): its value changed, never below nothing; an item of no
    value stays unsellable (C-ITEM-7)."""
    return max(0, value + _sum(s, cards, "sale_gold")) if value else 0


# -- setup and portals --------------------------------------------------------------------------

def setup(tx: Tx) -> None:
    """C-PACK-7: the dungeon deck shuffled and its top card turned face-up (nothing without the pack)."""
    if tx.cards.dungeon:
        tx.decks[DUNGEON] = Deck(tx.shuffle(tuple(d.id for d in tx.cards.dungeon)))
        turn_up(tx, -1)


def portal_actions(s, p, cards: ClassicSet, add) -> None:
    """C-PACK-7: on your own turn outside combat, a portal from the hand (the caller checks when)."""
    for card in dict.fromkeys(p.hand):
        if cards.card(card).kind == K.PORTAL:
            add(Action(p.seat, "play", (card,)))


def open_portal(tx: Tx, seat: int, card: str, how: str) -> None:
    """C-PACK-7: a portal kicked open (``how`` kick) or played from the hand (play): discarded, it
    turns up the next dungeon."""
    tx.event("portal", seat, card, how)
    tx.discard(card)
    turn_up(tx, seat)


def turn_up(tx: Tx, seat: int) -> None:
    """The next dungeon: active at once when none is (setup, or every one replaced), else the
    portal's player chooses what it does (a pending decision).  An empty deck is rebuilt from its
    discards; with neither, the portal does nothing more."""
    card = tx.draw(DUNGEON)
    if card is None:
        return
    if not tx.active:
        tx.active = (card,)
        tx.event("dungeon", seat, card, "")
    else:
        tx.pending = Pending(PendingKind.PORTAL, seat, 1, card)


def options(s) -> tuple[str, ...]:
    """The portal choice: join (with one dungeon active), or the active dungeon it replaces."""
    return ((JOIN,) if len(s.active) < MAX_ACTIVE else ()) + s.active


def choose(tx: Tx, choice: str) -> None:
    """The portal's player's choice for the dungeon turned up (``Pending.arg``)."""
    pend = tx.decision
    card = pend.arg
    tx.pending = None
    if choice == JOIN:
        tx.active = tx.active + (card,)
        tx.event("dungeon", pend.seat, card, "")
        return
    tx.active = tuple(card if d == choice else d for d in tx.active)
    tx.discard(choice)
    tx.event("dungeon", pend.seat, card, choice)


