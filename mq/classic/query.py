"""Read-only questions about a Classic state, for bots and the client (as mq.rules.query is for
Quest): each side's strength term by term, whether the munchkins win now, what they lack, what
running away needs and its chance, what a helper or a card would change, a sale's levels, where
charity goes, and the Epic powers that act.

Nothing here changes a state.  Every number comes from the functions the rules apply
(mq.classic.combat, character, legal, reducer), and a what-if runs the engine itself on a
throwaway copy, so a client never shows a number the engine would not use.  Every function takes
a ClassicState or a seat's view of it (a view has the same shape, mq.classic.view).  Chances are
exact fractions: no floating point.  There are no dice in a Classic combat (C-COMBAT-1): the fight
is won or lost by strength alone; only running away rolls (C-RUN-1).
"""
from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from mq.cards.classic_defs import ClassicSet
from mq.classic import character as ch
from mq.classic import combat as cb
from mq.classic import dungeons, legal
from mq.classic.reducer import step
from mq.classic.state import CItem, ClassicState, Out, PendingKind
from mq.classic.tx import Tx
from mq.rules.actions import Action
from mq.rules.errors import IllegalAction

Terms = tuple[tuple[str, int], ...]


class Odds(NamedTuple):
    """The fight as it stands: both sides' strengths, whether the munchkins win now (C-COMBAT-4),
    and how much strength they lack (0 when they win)."""
    mine: int
    theirs: int
    wins: bool
    short: int


def munchkin_terms(s, cards: ClassicSet, seat: int) -> Terms:
    """C-COMBAT-2: ``seat``'s strength term by term: the level, each item in use that works for
    them (its bonus plus any bonus against the monsters fought, C-ITEM-3), lasting curses, and
    what cards and powers gave this munchkin in the combat (backstabs, berserk, next-combat curses,
    arrows).  The terms add up to combat.seat_strength."""
    p = s.players[seat]
    keywords = cb.monster_keywords(s, cards) if s.combat is not None else ()
    terms: list[tuple[str, int]] = [("level", p.level)]
    for it in p.items:
        if it.in_use and ch.qualifies(p, cards, it):
            d = cards.treasure_card(it.card)
            bonus = d.bonus + sum(e.number("amount") for e in d.effects
                                  if e.name == "bonus_vs" and e.get("who") in keywords)
            if bonus:
                terms.append((d.name, bonus))
    for card, bonus in ((p.steed, ch.steed_bonus(p, cards)), (p.hireling, ch.hireling_bonus(p, cards))):
        if bonus:  # C-PACK-5, 6: as an item in use
            terms.append((cards.card(card).name, bonus))
    curses = ch.curse_strength(p, cards)
    if curses:
        terms.append(("curses", curses))
    if s.combat is not None:
        extra = sum(a for who, a in s.combat.extra if who == seat)
        if extra:
            terms.append(("cards & powers", extra))  # (short: the fight panel is narrow at 80x24)
        alone = cb.alone_bonus(s, cards, seat)
        if alone:  # C-PACK-2: an orc fighting without a helper
            terms.append(("fighting alone", alone))
        dungeon = dungeons.seat_bonus(s, cards, seat)
        if dungeon:  # C-PACK-7
            terms.append(("dungeons", dungeon))
    return tuple(terms)


def monster_terms(s, cards: ClassicSet, i: int) -> Terms:
    """C-COMBAT-3, 6: monster ``i``'s level term by term: printed, each enhancer (a Mate's shared
    ones too), its modifiers against the munchkin side (once each), and the floor of 1 (C-LAW-1).
    The terms add up to combat.monster_level."""
    c = s.combat
    d = cards.monster_card(c.monsters[i].card)
    terms: list[tuple[str, int]] = [("level", d.level)]
    terms += [(cards.card(e).name, cards.door_card(e).bonus) for e in cb.enhancers(c, i)]
    words = {w for seat in cb.side(c) for w in ch.who(s.players[seat], cards)}
    terms += [(f"vs {w}", amount) for w, amount in d.bonuses if w in words]
    for e in d.effects:
        if e.name == "bonus_vs_item" and any(e.get("keyword") in item.keywords for seat in cb.side(c)
                                             for item in ch.working(s.players[seat], cards)):
            terms.append((f"vs {e.get('keyword')} items", e.number("amount")))
    dungeon = dungeons.monster_bonus(s, cards, c.monsters[i].card) if s.active else 0
    if dungeon:  # C-PACK-7
        terms.append(("dungeons", dungeon))
    total = sum(v for _, v in terms)
    if total < 1:
        terms.append(("floor 1 (C-LAW-1)", 1 - total))
    return tuple(terms)


def odds(s, cards: ClassicSet) -> Odds:
    """The fight's strengths now and whether the munchkin side wins (C-COMBAT-4)."""
    mine, theirs = cb.strengths(s, cards)
    wins = cb.munchkin_wins(s, cards)
    return Odds(mine, theirs, wins, 0 if wins else theirs - mine + (0 if ties_win(s, cards) else 1))


def ties_win(s, cards: ClassicSet) -> bool:
    """C-COMBAT-4: a warrior on the munchkin side, as fighter or helper, wins ties."""
    return any(ch.wins_ties(s.players[x], cards) for x in cb.side(s.combat))


def win_chance(s, cards: ClassicSet) -> Fraction:
    """The chance that the munchkins win if the combat resolved now: no dice in a Classic combat
    (C-COMBAT-1), so 1 or 0; cards played in the last-chance windows may still change it."""
    return Fraction(1 if cb.munchkin_wins(s, cards) else 0)


def rewards(s, cards: ClassicSet) -> tuple[int, int]:
    """(levels, Treasure cards) a win would bring now (C-COMBAT-9, C-COMBAT-7): the printed levels
    of the monsters killed, the Treasure of the killed and defeated ones with their enhancers."""
    c = s.combat
    treasure = sum(cb.monster_treasure(s, cards, i) for i, m in enumerate(c.monsters) if m.out != Out.AWAY)
    return cb.levels_won(s, cards), treasure


def treasure_at_stake(s, cards: ClassicSet) -> int:
    """The Treasure of the monsters still fought: what a helper may ask a share of (C-HELP-3)."""
    c = s.combat
    return sum(cb.monster_treasure(s, cards, i) for i in cb.fought(c))


def pursued(s, cards: ClassicSet, seat: int, i: int) -> bool:
    """C-RUN-3: whether monster ``i`` pursues ``seat`` (a monster's text may spare low levels)."""
    m = s.combat.monsters[i]
    limit = max((e.number("max_level") for e in cards.card(m.card).effects if e.name == "no_pursuit"), default=0)
    return s.players[seat].level > limit


def escape_need(s, cards: ClassicSet, seat: int, i: int) -> int:
    """The lowest d6 face with which ``seat`` escapes monster ``i`` (C-RUN-1, 2: 5 or more with every
    run-away modifier); 1 when any face does, 7 when none can; 1 when it does not pursue them."""
    if not pursued(s, cards, seat, i):
        return 1
    return min(7, max(1, cb.needed(s, cards, seat, i)))


def escape_chance(s, cards: ClassicSet, seat: int, i: int) -> Fraction:
    """The chance that ``seat``'s run-away roll against monster ``i`` escapes it."""
    return Fraction(7 - escape_need(s, cards, seat, i), 6)


def escape_all_chance(s, cards: ClassicSet, seat: int) -> Fraction:
    """The chance that ``seat`` escapes every monster still to roll against (one d6 each, C-RUN-1)."""
    c = s.combat
    todo = cb.to_escape(c) if c.runners and c.runners[0] == seat else cb.fought(c)
    out = Fraction(1)
    for i in todo:
        out *= escape_chance(s, cards, seat, i)
    return out


def with_helper(s, cards: ClassicSet, seat: int) -> Odds:
    """What-if: the fight if ``seat`` joined as helper now (C-HELP-2: their strength, the monsters'
    modifiers against them, the monsters a helper's class beats outright, their waiting curses),
    worked out by the engine's own join on a throwaway copy."""
    tx = Tx(s, cards)
    cb.join(tx, seat)
    if not cb.fought(tx.fight):
        return Odds(*cb.strengths(tx, cards), True, 0)
    return odds(tx, cards)


def after(s: ClassicState, cards: ClassicSet, action: Action) -> Odds | None:
    """What-if: the fight right after ``action`` (a card or power played in it), as the engine
    would leave it; None when the action is not legal, ends the combat, or needs cards the seat
    cannot see (a draw from a deck in a view)."""
    try:
        t, _ = step(s, action, cards)
    except (IllegalAction, KeyError, ValueError, IndexError, TypeError):
        return None
    if t.combat is None or not cb.fought(t.combat):
        return None
    return odds(t, cards)


def sale(s, cards: ClassicSet, seat: int, items: tuple[str, ...]) -> tuple[int, int]:
    """(gold, levels) that selling ``items`` brings ``seat`` (C-ITEM-7, a halfling's double, never
    the winning level)."""
    return legal.sale_levels(s, s.players[seat], cards, items)


def sellable(s, cards: ClassicSet, seat: int) -> tuple[str, ...]:
    """The cards ``seat`` may sell (items of value in hand and in play, none just received)."""
    return legal.sellable(s.players[seat], cards)


def hand_limit(s, cards: ClassicSet, seat: int) -> int:
    """C-TURN-9, C-EPIC-4: 5, a dwarf 6, an epic dwarf no limit (a big number)."""
    return dungeons.hand_limit(s, cards, seat)  # C-TURN-9, C-PACK-7


def unlimited_hand(s, cards: ClassicSet, seat: int) -> bool:
    return hand_limit(s, cards, seat) >= ch.UNLIMITED


def charity_receivers(s, cards: ClassicSet) -> tuple[int, ...]:
    """C-CHARITY-1, 2: who may receive the next charity card of the pending charity (none: it is
    discarded)."""
    pend = s.pending
    if pend is None or pend.kind not in (PendingKind.CHARITY, PendingKind.BIG_GIFT):
        return ()
    return legal.charity_receivers(s, cards)


def charity_after_end(s: ClassicState, cards: ClassicSet, seat: int) -> tuple[int, tuple[int, ...]] | None:
    """What-if: ending the turn now: (cards too many, who may receive them first); None when the
    hand is within the limit or the turn cannot end now (C-CHARITY)."""
    try:
        t, _ = step(s, Action(seat, "end_turn"), cards)
    except (IllegalAction, KeyError, ValueError, IndexError, TypeError):
        return None
    if t.pending is None or t.pending.kind != PendingKind.CHARITY:
        return None
    return t.pending.n, legal.charity_receivers(t, cards)


def is_epic(s, seat: int) -> bool:
    """C-EPIC-2: with the Epic option, level 10 or more."""
    return bool(s.params.epic) and s.players[seat].level >= ch.EPIC_LEVEL


def epic_powers(s, cards: ClassicSet, seat: int) -> tuple[str, ...]:
    """The names of the epic powers acting for ``seat`` (C-EPIC-2), in card order."""
    return tuple(dict.fromkeys(e.name for e in ch.epic_powers(s.players[seat], cards, s.params)))


def item_in_play(s, cards: ClassicSet, seat: int, card: str) -> tuple[bool, bool]:
    """What-if: ``seat`` puts item ``card`` into play now: (in use at once, its slot being free,
    C-ITEM-2; it works for them, C-ITEM-3) — as the engine's play of an item decides."""
    p = s.players[seat]
    return ch.slot_room(p, cards, card, s.params), ch.qualifies(p, cards, CItem(card, True))


def item_works(s, cards: ClassicSet, seat: int, card: str) -> bool:
    """Whether ``seat``'s item ``card`` in play works for them (C-ITEM-3, 5: restrictions, a Cheat!)."""
    p = s.players[seat]
    return any(ch.qualifies(p, cards, it) for it in p.items if it.card == card)


def big_items(s, cards: ClassicSet, seat: int) -> tuple[int, int]:
    """(big items in play that count, how many are allowed) (C-ITEM-4, C-EPIC-13, 15)."""
    p = s.players[seat]
    return ch.big_count(p, cards), ch.big_limit(p, cards, s.params)
