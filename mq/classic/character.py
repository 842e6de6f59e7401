"""Pure arithmetic of one munchkin (C-CHAR, C-ITEM): who they are, their powers, what their items
in use give, hand limit, big items and slots.  Reads a CPlayer and the card set, changes nothing."""
from __future__ import annotations

from mq.cards.classic_defs import ClassicSet, ClassicTreasureDef
from mq.cards.classic_vocab import K
from mq.cards.defs import Effect
from mq.classic.state import CItem, CPlayer
from mq.rules.errors import IllegalAction

HAND_LIMIT = 5  # C-TURN-9
UNLIMITED = 1000  # "any number" (C-EPIC-4): more cards than the game has
EPIC_LEVEL = 10  # C-EPIC-2: epic from level 10, with the Epic option
SLOT_CAPACITY = (("head", 1), ("armour", 1), ("feet", 1), ("hands", 2))  # C-ITEM-2; "none": any


def name_of(cards: ClassicSet, card: str) -> str:
    """The race or class a race or class card names (the loader gives each one its key)."""
    key = cards.door_card(card).key
    if key is None:
        raise KeyError(f"{card!r} is not a race or class card")
    return key


def race_keys(p: CPlayer, cards: ClassicSet) -> tuple[str, ...]:
    return tuple(name_of(cards, c) for c in p.races)


def class_keys(p: CPlayer, cards: ClassicSet) -> tuple[str, ...]:
    return tuple(name_of(cards, c) for c in p.classes)


def who(p: CPlayer, cards: ClassicSet) -> tuple[str, ...]:
    """The race, class and gender words a munchkin answers to (C-CHAR-2, 6): human with no race
    card, and also half human with a Half-Breed and one race (C-CHAR-7)."""
    races = race_keys(p, cards)
    human = ("human",) if not races or (p.halfbreed and len(races) == 1) else ()
    return races + human + class_keys(p, cards) + (p.gender,)


def powers(p: CPlayer, cards: ClassicSet) -> tuple[Effect, ...]:
    """The race and class effects that act for this munchkin (C-CHAR-4/5): benefits, and the
    drawbacks unless a Half-Breed (Super Munchkin) with one race (class) drops them (C-CHAR-7/8)."""
    out: list[Effect] = []
    for group, extra in ((p.races, p.halfbreed), (p.classes, p.supermunchkin)):
        for c in group:
            d = cards.door_card(c)
            out += d.powers
            if not (extra and len(group) == 1):
                out += d.drawbacks
    return tuple(out)


def epic_powers(p: CPlayer, cards: ClassicSet, params=None) -> tuple[Effect, ...]:
    """C-EPIC-2: with Epic, a munchkin of level 10 or more has the epic power of each race and class
    card they have, and the human's when human or half human; below 10, none."""
    if params is None or not params.epic or p.level < EPIC_LEVEL:
        return ()
    out = [e for c in p.races for e in cards.door_card(c).epic]
    if "human" in who(p, cards):
        out += cards.human.epic
    out += [e for c in p.classes for e in cards.door_card(c).epic]
    return tuple(out)


def own_power(p: CPlayer, cards: ClassicSet, name: str, params=None) -> Effect:
    """The power ``name`` of a munchkin who has it (``power``): a power legal_actions listed."""
    e = power(p, cards, name, params)
    if e is None:
        raise IllegalAction("action/malformed", f"no power {name!r} here")
    return e


def power(p: CPlayer, cards: ClassicSet, name: str, params=None) -> Effect | None:
    """The first race or class effect called ``name`` acting for this munchkin; epic powers too
    when ``params`` (the game's) say Epic is on (C-EPIC-2)."""
    for e in powers(p, cards) + epic_powers(p, cards, params):
        if e.name == name:
            return e
    return None


def qualifies(p: CPlayer, cards: ClassicSet, item: CItem) -> bool:
    """C-ITEM-3, 5: a restricted item works only while its holder qualifies; a Cheat! frees it."""
    if item.cheat:
        return True
    d = cards.treasure_card(item.card)
    words = who(p, cards)
    if d.only and not any(w in words for w in d.only):
        return False
    return not any(w in words for w in d.not_for)


def working(p: CPlayer, cards: ClassicSet) -> tuple[ClassicTreasureDef, ...]:
    """The items in use that work for their holder (C-ITEM-1..3); cards in hand do nothing (C-CARD-1)."""
    return tuple(cards.treasure_card(it.card) for it in p.items if it.in_use and qualifies(p, cards, it))


def item_strength(p: CPlayer, cards: ClassicSet, monster_keywords: tuple[str, ...]) -> int:
    """C-COMBAT-2: bonuses of the items in use, with their bonus_vs against the monsters fought."""
    total = 0
    for d in working(p, cards):
        total += d.bonus
        for e in d.effects:
            if e.name == "bonus_vs" and e.get("who") in monster_keywords:
                total += e.number("amount")
    return total


def curse_strength(p: CPlayer, cards: ClassicSet) -> int:
    """C-CARD-8: the lasting curses' strength changes."""
    return sum(e.number("amount") for c in p.curses for e in cards.card(c).effects if e.name == "lasting_strength")


def runaway(p: CPlayer, cards: ClassicSet) -> int:
    """C-RUN-2: this munchkin's change to every run-away roll: race (elf +1, halfling -1) and class
    effects, items in use, lasting curses."""
    return sum(runaway_terms(p, cards))


def runaway_terms(p: CPlayer, cards: ClassicSet) -> tuple[int, ...]:
    """The modifiers :func:`runaway` adds up, one by one (an epic gnome ignores the negative ones,
    C-EPIC-7)."""
    terms = [e.number("amount") for e in powers(p, cards) if e.name == "runaway"]
    terms += [e.number("amount") for d in working(p, cards) + followers(p, cards) for e in d.effects
              if e.name == "runaway"]
    terms += [e.number("amount") for c in p.curses for e in cards.card(c).effects if e.name == "lasting_runaway"]
    return tuple(terms)


# -- the packs' powers (C-PACK-2, 3, 4, 6) --------------------------------------------------------------

def alone_bonus(p: CPlayer, cards: ClassicSet) -> int:
    """C-PACK-2: an orc's strength as main fighter without a helper."""
    return sum(e.number("amount") for e in powers(p, cards) if e.name == "alone_bonus")


def luck(p: CPlayer, cards: ClassicSet, params=None) -> int:
    """C-PACK-4, C-EPIC-10: the extra Treasure of a bard's luck (1; an epic bard 2), else 0."""
    return max((e.number("extra") for e in powers(p, cards) + epic_powers(p, cards, params) if e.name == "luck"),
               default=0)


def steed_bonus(p: CPlayer, cards: ClassicSet) -> int:
    """C-PACK-5: a steed card's printed bonus counts as an item in use; C-PACK-6, C-EPIC-14: a tamed
    monster as steed gives its printed Treasure count."""
    if not p.steed:
        return 0
    if cards.card(p.steed).kind == K.MONSTER:
        return cards.monster_card(p.steed).treasure
    return cards.treasure_card(p.steed).bonus


def followers(p: CPlayer, cards: ClassicSet) -> tuple[ClassicTreasureDef, ...]:
    """C-PACK-5: the steed and hireling cards in play (a tamed monster is no Treasure card)."""
    return tuple(cards.treasure_card(c) for c in (p.steed, p.hireling) if c and c.startswith("CT"))


def hireling_bonus(p: CPlayer, cards: ClassicSet) -> int:
    """C-PACK-5: a hireling's printed bonus counts in combat, as an item in use."""
    return cards.treasure_card(p.hireling).bonus if p.hireling else 0


def hand_limit(p: CPlayer, cards: ClassicSet, params=None) -> int:
    """C-TURN-9: 5, a dwarf 6, an epic dwarf any number (C-EPIC-4)."""
    if power(p, cards, "no_hand_limit", params) is not None:
        return UNLIMITED
    e = power(p, cards, "hand_limit")
    return e.number("n") if e is not None else HAND_LIMIT


def double_sale(p: CPlayer, cards: ClassicSet, params=None) -> int:
    """C-CHAR-4, C-EPIC-5: items a turn a halfling sells at double value (1; an epic halfling 2)."""
    return max((e.number("items") for e in powers(p, cards) + epic_powers(p, cards, params) if e.name == "double_sale"),
               default=0)


def wins_ties(p: CPlayer, cards: ClassicSet) -> bool:
    return power(p, cards, "wins_ties") is not None  # C-COMBAT-4


def big_count(p: CPlayer, cards: ClassicSet) -> int:
    """Big items in play that count against the limit (a Cheat! frees its item, C-ITEM-5; one
    given up, C-ITEM-4, no longer does)."""
    return sum(1 for it in p.items if not it.cheat and not it.over and cards.treasure_card(it.card).big)


def big_limit(p: CPlayer, cards: ClassicSet, params=None) -> int:
    """C-ITEM-4, C-EPIC-13: one big item in play, any number for a dwarf, two for an epic warrior;
    C-EPIC-15: one more while an epic munchkin rides a steed."""
    if power(p, cards, "any_big_items") is not None:
        return UNLIMITED
    e = power(p, cards, "big_items", params)
    extra = 1 if p.steed and params is not None and params.epic and p.level >= EPIC_LEVEL else 0
    return (e.number("n") if e is not None else 1) + extra


def counted_bigs(p: CPlayer, cards: ClassicSet) -> tuple[str, ...]:
    """The big items that count against the limit (``big_count`` of them)."""
    return tuple(it.card for it in p.items if not it.cheat and not it.over and cards.treasure_card(it.card).big)


def may_add_big(p: CPlayer, cards: ClassicSet, params=None) -> bool:
    return big_count(p, cards) < big_limit(p, cards, params)


def hands_needed(p: CPlayer, cards: ClassicSet, card: str, params=None) -> int:
    """Hands an item takes: its printed hands, one for an epic warrior's two-hander (C-EPIC-13)."""
    hands = cards.treasure_card(card).hands
    return 1 if hands == 2 and power(p, cards, "giant_grip", params) is not None else hands


def slot_room(p: CPlayer, cards: ClassicSet, card: str, params=None) -> bool:
    """C-ITEM-2: whether ``card`` fits among the items in use (a Cheat! frees its item, C-ITEM-5)."""
    slot = cards.treasure_card(card).slot
    if slot is None:
        raise KeyError(f"{card!r} is not an item")
    if slot == "none":
        return True
    capacity = dict(SLOT_CAPACITY)[slot]
    used = sum((hands_needed(p, cards, it.card, params) if slot == "hands" else 1) for it in p.items
               if it.in_use and not it.cheat and cards.treasure_card(it.card).slot == slot)
    need = hands_needed(p, cards, card, params) if slot == "hands" else 1
    return used + need <= capacity


def payable(p: CPlayer) -> tuple[str, ...]:
    """C-CHAR-3: the cards a power that costs a discard may take: any of the hand, then any in
    play (items not given up, race and class cards, Half-Breed, Super Munchkin, steed,
    hireling), each once; curses and a pet are not the munchkin's to pay with."""
    extra = tuple(c for c in (p.halfbreed, p.supermunchkin, p.steed, p.hireling) if c)
    return tuple(dict.fromkeys(p.hand)) + tuple(it.card for it in p.items if not it.over) + p.races + p.classes + extra


def is_item(cards: ClassicSet, card: str) -> bool:
    return card.startswith("CT") and cards.card(card).kind == K.ITEM
