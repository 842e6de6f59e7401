"""Chances of fights for the bots, in per mille (integers: the bots keep to the engine's rule of no
floating point), from the engine's read-only questions (mq.rules.query.fight_chance) on the fight
as it stands or on a what-if fight the bot builds: another helper, an item that changed hands in a
deal, a monster not yet drawn, one-shots not yet played.  Nothing here applies an action or draws
from the RNG, and the what-if states are never fed to ``apply``."""
from __future__ import annotations

from mq.rules import query
from mq.rules.character import place_for
from mq.rules.state import BACKPACK, Combat, Item, Monster, State

PER = 1000  # chances are per mille


def what_if(view: State, c: Combat, players=None, monsters=None) -> State:
    """``view`` with fight ``c`` in progress (and other players or monsters, when given)."""
    changes = {"combat": c}
    if players is not None:
        changes["players"] = players
    if monsters is not None:
        changes["monsters"] = monsters
    return view.replace(**changes)


def chance(s: State, cards, extra: int = 0) -> int:
    """Per mille (rounded down) that the munchkins win the fight of ``s`` (a view or a ``what_if``)
    before any die is rolled, with ``extra`` more strength (one-shots the bot may still use)."""
    if extra:
        s = s.replace(combat=s.combat.replace(bonus=s.combat.bonus + extra))
    p = query.fight_chance(s, cards)
    return p.numerator * PER // p.denominator


def with_helper(view: State, c: Combat, helper: int, item: str = "", cards=None) -> State:
    """The fight with ``helper`` at the fighter's side; with ``item``, after that item of the
    fighter's changed hands as a deal gives it (Q-HELP-2: it goes into play for the helper where
    there is room, mq.rules.character.place_for)."""
    players = None
    if item:
        f, h = view.players[c.fighter], view.players[helper]
        given = next(it for it in f.items if it.card == item)
        place = place_for(h, cards.card(item), cards, bool(given.cheat))
        players = list(view.players)
        players[c.fighter] = f.replace(items=tuple(it for it in f.items if it.card != item))
        players[helper] = h.replace(items=h.items + (Item(item, place or BACKPACK, given.cheat),))
        players = tuple(players)
    return what_if(view, c.replace(helper=helper), players)


def unseen_monsters(view: State, cards) -> tuple[str, ...]:
    """Monster cards that may be the next one drawn: every card of the set that is neither in the
    discard pile nor on the board (their order in the deck is hidden, Q-DIGI-4)."""
    seen = set(view.monster_deck.discard) | {m.card for m in view.monsters}
    return tuple(d.id for d in cards.monsters if d.id not in seen)


def summon_chance(view: State, seat: int, cards, extra: int = 0) -> int:
    """Per mille, averaged over the monster cards that may come, that ``seat`` beats a monster
    summoned in their room now (Q-EXPLORE-7), with ``extra`` strength from one-shots."""
    room = view.players[seat].room
    options = unseen_monsters(view, cards)
    if not options:
        return 0
    uid = -1  # a uid no monster has
    total = 0
    for card in options:
        m = Monster(uid=uid, card=card, room=room, colour=seat)
        s = what_if(view, Combat(fighter=seat, room=room, monsters=(uid,)), monsters=view.monsters + (m,))
        total += chance(s, cards, extra)
    return total // len(options)
