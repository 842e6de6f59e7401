"""Invariants every step of every game must keep, checked from the outside of the rules.

Each check looks at one step — the state before, the state after and the events in between — and
returns what it found wrong, in words (an empty list when the invariant holds).  They re-derive
what they check from the state and the card data instead of asking the rules' own helpers, so a
defect in a helper cannot hide itself.  Used by the conformance tests (tests/test_rules_invariants.py)
over many bot games in both core modes, and by the larger run ``python -m mq.soak``.

- ``cards``: every card of the set is in exactly one zone — a deck, a discard pile, a hand, in
  play (race, class, Half-Breed/Super Munchkin, lasting curse, item, the Cheat! on an item), a
  room's pile, a monster (its card or its Mate card, its enhancers), the one-shots of the fight,
  a curse waiting for its answer — and every room tile is in the room deck or placed once
  (Q-SETUP-1, Q-ITEM-4, Q-MON-5, Q-COMBAT-12, Q-COMBAT-13).
- ``hands``: the carried items of a munchkin need at most 2 hands, a Cheat!-ed one none (Q-ITEM-1, 4).
- ``slots``: every item sits in a place its slot allows, head, armour and feet hold one worn item
  each, the backpack at most 2 (Q-ITEM-1, 3).
- ``monster_level``: in a fight every monster's level — card level, its own modifiers against the
  fighters, enhancers — is at least 1 (Q-LAW-1); room bonuses, one-shots and dice come on top.
- ``tenth_level``: a munchkin reaches level 10 only by a kill (Q-LAW-2); levels stay in 1..10.
- ``monsters_win``: when at any moment every munchkin is dead the game is over with no winner
  (Q-DEATH-5).
"""
from __future__ import annotations

from collections.abc import Callable

from mq.cards import CardSet
from mq.rules import combat
from mq.rules.state import BACKPACK, BELT, CARRIED, OVER, SETUP, WORN, PendingKind, State

Check = Callable[[State, State, tuple, CardSet], list[str]]

SINGLE_SLOTS = ("head", "armour", "feet")  # one worn item each (Q-ITEM-1)
WORN_SLOTS = SINGLE_SLOTS + ("accessory", "clothing")
HANDS = 2
BACKPACK_SIZE = 2
TOP_LEVEL = 10
# Strength terms a monster's fight level does not include: they come on top of it (Q-LAW-1).
ON_TOP = ("room", "one-shots")


def zones(s: State):
    """(zone, its cards) for every zone of the state that may hold cards, in a fixed order."""
    for kind, deck in (("monster", s.monster_deck), ("treasure", s.treasure_deck), ("dxm", s.dxm_deck)):
        yield f"the {kind} deck", deck.draw
        yield f"the {kind} discards", deck.discard
    for p in s.players:
        yield f"seat {p.seat}'s hand", p.hand
        yield f"seat {p.seat}'s race, class and curse cards", p.races + p.classes + p.hybrids + p.curses
        if p.items:
            yield f"seat {p.seat}'s items", tuple(it.card for it in p.items)
            yield f"the Cheat! cards on seat {p.seat}'s items", tuple(it.cheat for it in p.items if it.cheat)
    for i, r in enumerate(s.rooms):
        if r.pile:
            yield f"room {i}'s pile", r.pile
    for m in s.monsters:  # a Mate holds its Mate card, not the card it copies (Q-CARD-6)
        yield f"monster {m.uid}", (m.mate or m.card,) + m.enhancers
    if s.combat is not None:
        yield "the fight's one-shots", s.combat.used
    if s.pending is not None and s.pending.kind == PendingKind.CURSE:
        yield "the curse being answered", s.pending.data[:1]
    if s.pending is not None and s.pending.kind == PendingKind.PICK:
        yield "the Treasures laid out to be picked", s.pending.options


def card_ids(cards: CardSet) -> tuple[str, ...]:
    return tuple(c.id for deck in (cards.monsters, cards.treasures, cards.dxm) for c in deck)


_SORTED: dict[int, tuple[CardSet, list[str], list[str]]] = {}  # id(cards) -> (cards, card ids, tile ids), sorted


def _sorted_ids(cards: CardSet) -> tuple[list[str], list[str]]:
    got = _SORTED.get(id(cards))
    if got is None or got[0] is not cards:
        got = _SORTED[id(cards)] = (cards, sorted(card_ids(cards)), sorted(t.id for t in cards.rooms))
    return got[1], got[2]


def check_cards(before: State, after: State, events: tuple, cards: CardSet) -> list[str]:
    ids, tile_ids = _sorted_ids(cards)
    held: list[str] = []
    for _, cards_held in zones(after):
        held += cards_held
    held.sort()
    tiles = sorted(after.room_deck.draw + after.room_deck.discard
                   + tuple(cards.face(r.face).tile for r in after.rooms[1:]))
    if held == ids and tiles == tile_ids:
        return []
    where: dict[str, list[str]] = {}
    for zone, held in zones(after):
        for card in held:
            where.setdefault(card, []).append(zone)
    known = set(ids)
    out = [f"{card} is in {len(z)} zones: {', '.join(z)}" for card, z in where.items() if len(z) > 1]
    out += [f"{card} is in no zone" for card in ids if card not in where]
    out += [f"{card} is not a card of the set ({', '.join(z)})" for card, z in where.items() if card not in known]
    out += [f"room tile {t} is there {tiles.count(t)} times" for t in tile_ids if tiles.count(t) != 1]
    out += [f"{t} is not a room tile of the set" for t in tiles if t not in tile_ids]
    return out


def check_hands(before: State, after: State, events: tuple, cards: CardSet) -> list[str]:
    out = []
    for p in after.players:
        carried = [it for it in p.items if it.place == CARRIED]
        used = sum(cards.treasure_card(it.card).hands for it in carried if not it.cheat)  # Cheat!: no hands (Q-ITEM-4)
        if used > HANDS:
            out.append(f"seat {p.seat} uses {used} hands: "
                       + ", ".join(f"{it.card}{' (Cheat!)' if it.cheat else ''}" for it in carried))
    return out


def check_slots(before: State, after: State, events: tuple, cards: CardSet) -> list[str]:
    out = []
    for p in after.players:
        worn: dict[str, list[str]] = {}
        packed = []
        for it in p.items:
            slot = cards.treasure_card(it.card).slot
            if it.place == WORN and slot in WORN_SLOTS:
                worn.setdefault(slot, []).append(it.card)
            elif it.place == BACKPACK:
                packed.append(it.card)
            elif not (it.place == CARRIED and slot == "hands" or it.place == BELT and slot == "belt"):
                out.append(f"seat {p.seat}: {it.card} ({slot}) is {it.place}")
        for slot in SINGLE_SLOTS:
            if len(worn.get(slot, ())) > 1:
                out.append(f"seat {p.seat} wears {len(worn[slot])} {slot} items: {', '.join(worn[slot])}")
        if len(packed) > BACKPACK_SIZE:
            out.append(f"seat {p.seat} has {len(packed)} items in the backpack: {', '.join(packed)}")
    return out


def check_monster_level(before: State, after: State, events: tuple, cards: CardSet) -> list[str]:
    c = after.combat
    if c is None or not c.monsters:
        return []
    _, theirs, *_ = combat.outcome(after, cards)  # the engine's strength terms, read term by term
    out = []
    for uid, terms in zip(c.monsters, theirs):
        level = sum(v for name, v in terms if name not in ON_TOP)
        if level < 1:
            out.append(f"monster {uid} fights at level {level}: {terms}")
    return out


def check_tenth_level(before: State, after: State, events: tuple, cards: CardSet) -> list[str]:
    out = [f"seat {p.seat} is at level {p.level}" for p in after.players if not 1 <= p.level <= TOP_LEVEL]
    for old, new in zip(before.players, after.players):
        if old.level < TOP_LEVEL <= new.level and not any(
                e.kind == "level" and e.seat == new.seat and e.level >= TOP_LEVEL and e.why == "kill" for e in events):
            causes = [e.why for e in events if e.kind == "level" and e.seat == new.seat]
            out.append(f"seat {new.seat} reached level {new.level} without a kill ({causes})")
    return out


def check_monsters_win(before: State, after: State, events: tuple, cards: CardSet) -> list[str]:
    if before.phase == SETUP or before.phase == OVER:
        return []
    alive = {p.seat for p in before.players if p.alive}
    for e in events:
        if e.kind == "death":
            alive.discard(e.seat)
            if not alive:
                if after.phase != OVER or after.winners:
                    return [f"every munchkin was dead (seat {e.seat} died last), yet the game goes on"
                            if after.phase != OVER else f"every munchkin died, yet {after.winners} won"]
                return []
        elif e.kind == "respawn":
            alive.add(e.seat)
    if not any(p.alive for p in after.players) and after.phase != OVER:
        return ["every munchkin is dead, yet the game goes on"]
    return []


INVARIANTS: tuple[tuple[str, Check], ...] = (
    ("cards", check_cards), ("hands", check_hands), ("slots", check_slots),
    ("monster_level", check_monster_level), ("tenth_level", check_tenth_level),
    ("monsters_win", check_monsters_win),
)
NAMES = tuple(name for name, _ in INVARIANTS)


def check(before: State, after: State, events: tuple, cards: CardSet) -> dict[str, list[str]]:
    """Every invariant on one step: name -> what it found wrong (only the broken ones)."""
    out = {}
    for name, fn in INVARIANTS:
        found = fn(before, after, events, cards)
        if found:
            out[name] = found
    return out
