"""Whether a munchkin meets a room's condition (Q-COMBAT-6), and which of a room's icons count.

Every rule that reads a room's "good for"/"bad for" asks here: the dice of a fight and of a search
(green +1, red −1 per icon that holds), the room's ``munchkin_bonus`` and ``hurt_on_enter``, and
the client's explanation of a fight (through ``mq.rules.query``).  The conditions themselves are
data (``mq.cards.conditions``).

Invariants: pure functions of the munchkin and the card set; a drawback (a red icon, a room that
hurts) sees the identity without a Half-Breed's only race or a Super Munchkin's only class
(Q-CARD-5: they keep every benefit and no drawback); level and carried items are seen as they are.
"""
from __future__ import annotations

from mq.cards import CardSet, Condition, ConditionKind, RoomFace
from mq.rules.character import active_items, exposed, identity
from mq.rules.state import Player


def holds(cond: Condition, p: Player, cards: CardSet, drawback: bool = False) -> bool:
    """Q-COMBAT-6: whether munchkin ``p`` meets ``cond``; ``drawback``: the condition hurts
    (Q-CARD-5)."""
    kind = cond.kind
    if kind == ConditionKind.ANY:
        return True
    if kind == ConditionKind.IS:
        return cond.word in (exposed(p, cards) if drawback else identity(p, cards))
    if kind == ConditionKind.ODD_LEVEL:
        return p.level % 2 == 1
    if kind == ConditionKind.EVEN_LEVEL:
        return p.level % 2 == 0
    if kind == ConditionKind.LEVELS:
        return cond.lo <= p.level <= cond.hi
    if kind == ConditionKind.CARRYING:
        # Q-ITEM-2: only items that work count (an item's ability cannot be left unused either).
        return any(cond.word in d.keywords for d in active_items(p, cards))
    raise ValueError(f"unknown condition kind {kind!r}")


def icons(p: Player, face: RoomFace, cards: CardSet) -> tuple[tuple[Condition, int], ...]:
    """Q-COMBAT-6: the room's icons that count for ``p``, each with its die (+1 green, −1 red),
    green first, in the room's order."""
    return (tuple((c, 1) for c in face.green if holds(c, p, cards))
            + tuple((c, -1) for c in face.red if holds(c, p, cards, drawback=True)))
