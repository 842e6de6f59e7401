"""The Classic bot's trades of items in play (C-ITEM-6, mq.classic.trades), from its own view (items
in play are public, so it judges the other side's gain as well as its own).

A trade's worth to a munchkin is what it changes in (strength, gold): the strength its best choice
of items in use would give (slots and hands filled with the best items it qualifies for, C-ITEM-2,
3; items without slot, Cheat!-freed items, steed and hireling all count), then the gold value of
everything it holds in play.  The bot accepts a trade worth something to it, unless it helps a
leader's strength; it offers, on its own turn, the one-for-one trade that gains it the most
strength and gains the other something too (so a bot would accept it), never to a leader."""
from __future__ import annotations

from mq.cards.classic_defs import ClassicSet
from mq.classic import character as ch
from mq.classic import trades
from mq.classic.state import ClassicState, CPlayer, Phase
from mq.rules.actions import Action


def potential(p: CPlayer, cards: ClassicSet, params=None) -> int:
    """The strength ``p``'s items in play would give in their best use (C-ITEM-2, 3, 5, C-PACK-5)."""
    total = ch.steed_bonus(p, cards) + (ch.hireling_bonus(p, cards) if p.hireling.startswith("CT") else 0)
    slotted: dict[str, list[tuple[int, int]]] = {}
    for it in p.items:
        if it.over or not ch.qualifies(p, cards, it):
            continue
        d = cards.treasure_card(it.card)
        if it.cheat or d.slot == "none":
            total += d.bonus
        else:
            need = ch.hands_needed(p, cards, it.card, params) if d.slot == "hands" else 1
            slotted.setdefault(d.slot, []).append((d.bonus, need))
    for slot, room in ch.SLOT_CAPACITY:
        for bonus, need in sorted(slotted.get(slot, ()), reverse=True):
            if bonus > 0 and need <= room:
                total += bonus
                room -= need
    return total


def gold(p: CPlayer, cards: ClassicSet) -> int:
    return sum(cards.treasure_card(c).value for c in trades.tradeable(p))


def gain(v: ClassicState, cards: ClassicSet, seat: int, t) -> tuple[int, int]:
    """What the trade ``t`` changes in (strength, gold) for ``seat``, one of its two sides."""
    other = t.to if seat == t.by else t.by
    out, into = (t.gives, t.takes) if seat == t.by else (t.takes, t.gives)
    p = v.players[seat]
    after = trades.exchanged(p, v.players[other], out, into)
    if after is None:
        return (0, 0)
    return (potential(after, cards, v.params) - potential(p, cards, v.params), gold(after, cards) - gold(p, cards))


def leads(v: ClassicState, seat: int, other: int) -> bool:
    """Whether ``other`` is a leader as ``seat`` sees it: at the table's top level, above ``seat``'s."""
    level = v.players[other].level
    return level > v.players[seat].level and level == max(q.level for q in v.players)


def answer(v: ClassicState, seat: int, cards: ClassicSet, acts) -> Action | None:
    """Accept the first trade offered to me that is worth something to me and does not add to a
    leader's strength; decline the others (None: no trade offered to me)."""
    for a in acts:
        if a.kind != "decline" or a.args[0] != trades.TRADE:
            continue
        t = trades.open_offer(v, a.number(1), seat)
        take = Action(seat, "accept", (trades.TRADE, t.by))
        if take in acts and gain(v, cards, seat, t) > (0, 0) and not (leads(v, seat, t.by) and gain(v, cards, t.by, t)[0] > 0):
            return take
        return a
    return None


def offer(v: ClassicState, seat: int, cards: ClassicSet, acts) -> Action | None:
    """On my own turn after the door (C-TURN-1), the listed trade that gains me the most strength
    and the other something, to anyone but the leader."""
    if v.turn is None or v.turn.seat != seat or v.turn.phase != Phase.END:
        return None
    best, key = None, None
    for a in acts:
        if a.kind != trades.TRADE or leads(v, seat, a.number(0)):
            continue
        t = trades.parse(a)
        assert t is not None  # (a listed trade)
        mine, theirs = gain(v, cards, seat, t), gain(v, cards, t.to, t)
        if mine[0] > 0 and theirs > (0, 0) and (key is None or (mine, theirs) > key):
            best, key = a, (mine, theirs)
    return best
