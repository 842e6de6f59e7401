"""A munchkin's derived numbers and the changes to them: who they are (race, class, gender),
items and their places, combat bonus, move, HP, levels, gold (Q-CHAR, Q-ITEM)."""
from __future__ import annotations

from mq.cards import CardKind, CardSet, TreasureDef
from mq.rules.state import BACKPACK, BELT, CARRIED, WORN, Item, Player

BASE_MOVE = 3  # Q-CHAR-7
MAX_LEVEL = 10
BACKPACK_SIZE = 2  # Q-ITEM-1
SINGLE_SLOTS = ("head", "armour", "feet")  # one worn item each (Q-ITEM-1)


def name_of(cards: CardSet, card: str) -> str:
    """The race or class a race or class card in play names (the loader gives each one its key)."""
    key = cards.dxm_card(card).key
    if key is None:
        raise KeyError(f"{card!r} is not a race or class card")
    return key


def identity(p: Player, cards: CardSet) -> tuple[str, ...]:
    """Race, class and gender names the munchkin counts as (Q-CHAR-4: human unless a race card)."""
    races = tuple(name_of(cards, c) for c in p.races) or ("human",)
    classes = tuple(name_of(cards, c) for c in p.classes)
    return races + classes + (p.gender,)


def _hybrid(p: Player, cards: CardSet, kind: str) -> bool:
    return any(cards.playable_card(c).kind == kind for c in p.hybrids)


def card_limit(p: Player, cards: CardSet, kind: str) -> int:
    """Q-CHAR-4, Q-CARD-5: one race (class) card, two with Half-Breed (Super Munchkin)."""
    return 2 if _hybrid(p, cards, CardKind.HALFBREED if kind == CardKind.RACE else CardKind.SUPERMUNCHKIN) else 1


def flawless(p: Player, cards: CardSet) -> tuple[str, ...]:
    """Q-CARD-5: names whose drawbacks do not count: the only race with Half-Breed, the only class
    with Super Munchkin (with two of them, both count fully)."""
    out = []
    if len(p.races) == 1 and _hybrid(p, cards, CardKind.HALFBREED):
        out.append(name_of(cards, p.races[0]))
    if len(p.classes) == 1 and _hybrid(p, cards, CardKind.SUPERMUNCHKIN):
        out.append(name_of(cards, p.classes[0]))
    return tuple(out)


def exposed(p: Player, cards: CardSet) -> tuple[str, ...]:
    """The identity that drawbacks see: monsters' bonuses against it, red icons, items' "not
    usable by", rooms that hurt (Q-CARD-5)."""
    return _without_flawless(p, cards, identity(p, cards))


def _without_flawless(p: Player, cards: CardSet, ident: tuple[str, ...]) -> tuple[str, ...]:
    if not p.hybrids:
        return ident  # (the usual case: nothing to take out)
    free = flawless(p, cards)
    return tuple(w for w in ident if w not in free)


def usable(defn: TreasureDef, ident: tuple[str, ...], hurt: tuple[str, ...] | None = None) -> bool:
    """Q-ITEM-4: restrictions by race, class or gender switch an item's bonus and powers off.
    ``hurt``: the identity drawbacks see (``exposed``): "not usable by elves" does not bind a
    Half-Breed elf (Q-CARD-5); default ``ident``."""
    if defn.only and not any(w in ident for w in defn.only):
        return False
    return not any(w in (ident if hurt is None else hurt) for w in defn.not_for)


def active_items(p: Player, cards: CardSet, ident: tuple[str, ...] | None = None) -> list[TreasureDef]:
    """Worn, carried and belt items that work for this munchkin (Q-ITEM-2); one-shots on the belt
    give nothing until used.  ``ident``: the munchkin's ``identity``, when the caller has it."""
    if ident is None:
        ident = identity(p, cards)
    hurt = _without_flawless(p, cards, ident)
    out = []
    for it in p.items:
        if it.place in (WORN, CARRIED, BELT):
            defn = cards.card(it.card)
            if isinstance(defn, TreasureDef) and defn.kind == CardKind.ITEM and (it.cheat or usable(defn, ident, hurt)):  # Q-ITEM-4, Q-CARD-5
                out.append(defn)
    return out


def effect_total(p: Player, cards: CardSet, name: str, key: str = "amount",
                 ident: tuple[str, ...] | None = None) -> int:
    return sum(e.number(key, 0) for d in active_items(p, cards, ident) for e in d.effects if e.name == name)


def item_bonus(p: Player, cards: CardSet, monster_keywords: tuple[str, ...]) -> int:
    """Q-COMBAT-4: bonuses of worn and carried items, with bonus_vs against matching monsters."""
    total = 0
    for d in active_items(p, cards):
        total += d.bonus
        for e in d.effects:
            if e.name == "bonus_vs" and e.get("who") in monster_keywords:
                total += e.number("amount", 0)
    return total


def move_total(p: Player, cards: CardSet) -> int:
    """Q-CHAR-7, Q-ITEM-8: base 3, item effects, −1 for each carried big item after the first
    (dwarves carry any number for free, Q-CHAR-4)."""
    bigs = sum(1 for it in p.items if it.place in (WORN, CARRIED) and cards.treasure_card(it.card).big)
    ident = identity(p, cards)
    penalty = 0 if "dwarf" in ident else max(0, bigs - 1)
    return max(0, BASE_MOVE + effect_total(p, cards, "move", ident=ident) - penalty + lasting(p, cards, "lasting_move"))


def lasting(p: Player, cards: CardSet, name: str) -> int:
    """What the lasting curses on this munchkin change (Q-CARD-8)."""
    return sum(e.number("amount", 0) for c in p.curses for e in cards.playable_card(c).effects if e.name == name)


def max_hp(p: Player, cards: CardSet) -> int:
    """Q-CHAR-6: 4 tokens plus extra tokens from items."""
    return max(1, p.max_hp + effect_total(p, cards, "max_hp"))


def hand_limit(p: Player, cards: CardSet, base: int) -> int:
    """Q-CHARITY: dwarves may keep one card more."""
    return base + 1 if "dwarf" in identity(p, cards) else base


def hands_used(items: tuple[Item, ...], cards: CardSet) -> int:
    """Hands taken by carried items; a Cheat! item needs none (Q-ITEM-4)."""
    return sum(cards.treasure_card(it.card).hands for it in items if it.place == CARRIED and not it.cheat)


def place_for(p: Player, defn: TreasureDef, cards: CardSet, cheat: bool = False) -> str | None:
    """Where a newly played item goes (Q-ITEM-1, 3): a one-shot Treasure onto the belt; an item to
    its slot if free, else the backpack if it has room, else nowhere (None).  A Cheat! item needs no hands (Q-ITEM-4)."""
    return _place(p.items, defn, cards, cheat)


def _place(items: tuple[Item, ...], defn: TreasureDef, cards: CardSet, cheat: bool) -> str | None:
    slot = defn.slot
    if slot == "belt" or defn.kind == CardKind.ONESHOT:  # one-shots ride on the belt, any number (Q-ITEM-1)
        return BELT
    if slot in ("accessory", "clothing"):
        return WORN
    if slot in SINGLE_SLOTS:
        if not any(it.place == WORN and cards.treasure_card(it.card).slot == slot for it in items):
            return WORN
    elif slot == "hands":
        if hands_used(items, cards) + (0 if cheat else defn.hands) <= 2:
            return CARRIED
    if sum(1 for it in items if it.place == BACKPACK) < BACKPACK_SIZE:
        return BACKPACK
    return None


def can_place(p: Player, card: str, place: str, cards: CardSet) -> bool:
    """Whether an item already in play may move to ``place`` (Q-TURN-3; Q-ITEM-1, 3)."""
    rest = tuple(it for it in p.items if it.card != card)
    if place == BACKPACK:
        return sum(1 for it in rest if it.place == BACKPACK) < BACKPACK_SIZE
    cheat = any(it.card == card and it.cheat for it in p.items)
    return _place(rest, cards.treasure_card(card), cards, cheat) == place


def gain_levels(p: Player, n: int, by_kill: bool) -> int:
    """New level after gaining ``n`` (Q-CHAR-1, Q-LAW-2: only a kill gives the 10th level)."""
    cap = MAX_LEVEL if by_kill else MAX_LEVEL - 1
    if p.level >= cap:
        return p.level
    return min(cap, p.level + n)


def lose_levels(p: Player, n: int) -> int:
    """Q-CHAR-2, Q-LAW-1: never below 1."""
    return max(1, p.level - n)


def item_value(card: str, cards: CardSet) -> int:
    defn = cards.card(card)
    return defn.value if isinstance(defn, TreasureDef) else 0
