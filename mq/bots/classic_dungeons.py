"""How the Classic bot weighs dungeons (CLASSIC.md C-PACK-7): a rough worth of each active dungeon's
rule to one seat (positive: it helps that seat more than it hurts), for the portal's choice (keep
the set of active dungeons worth most) and for when to open a portal from the hand (when the
dungeons in play are worth less than nothing to it).  Reads only the bot's view; deterministic."""
from __future__ import annotations

from mq.cards.classic_defs import ClassicSet
from mq.cards.classic_vocab import K
from mq.cards.defs import Effect
from mq.classic import character as ch
from mq.classic import dungeons as dg
from mq.rules.actions import Action


def _effect_worth(v, cards: ClassicSet, seat: int, e: Effect) -> int:
    p = v.players[seat]
    name = e.name
    if name in ("monsters_stronger", "keyword_stronger"):
        return -2 * e.number("amount")  # (the bot fights more than it is fought against)
    if name == "who_strength":
        return 3 * e.number("amount") if e.text("who") in ch.who(p, cards) else -e.number("amount")
    if name in ("alone_strength", "table_runaway", "hand_limit_change"):
        return e.number("amount")
    if name == "slot_strength":
        return e.number("amount") * sum(1 for d in ch.working(p, cards) if d.slot == e.text("slot"))
    if name == "kill_levels":
        return 3 * e.number("n")
    if name == "bad_stuff_levels":
        return -2 * e.number("n")
    if name == "sale_gold":
        return e.number("amount") // 100
    if name == "treasure_change":
        return 2 * e.number("amount")
    return 0  # helper_strength: as good for others as for itself


def worth(v, cards: ClassicSet, seat: int, active: tuple[str, ...]) -> int:
    """What these active dungeons are worth to ``seat``, roughly."""
    return sum(_effect_worth(v, cards, seat, e) for card in active for e in cards.dungeon_card(card).effects)


def choose_portal(v, seat: int, cards: ClassicSet, acts) -> Action:
    """The portal's choice: the active set worth most to ``seat`` (join keeps both)."""
    new = v.pending.arg

    def after(a: Action) -> int:
        choice = a.args[0]
        active = v.active + (new,) if choice == dg.JOIN else tuple(new if d == choice else d for d in v.active)
        return worth(v, cards, seat, active)

    return max(acts, key=after)


def portal_to_open(v, seat: int, cards: ClassicSet, acts) -> Action | None:
    """A portal from the hand, when the dungeons in play are worth less than nothing to ``seat``."""
    if worth(v, cards, seat, v.active) >= 0:
        return None
    for a in acts:
        if a.kind == "play" and cards.card(a.args[0]).kind == K.PORTAL:
            return a
    return None
