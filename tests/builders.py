"""Helpers that build game positions for rule tests from a real new game, replacing only the
parts a test is about.  Cards are picked from the default set by their properties, so the tests
do not depend on particular card ids."""
from __future__ import annotations

import pytest

from mq import core
from mq.cards import ConditionKind, load_default
from mq.rules import Action, IllegalAction, apply, full_hash, legal_actions, make_params, new_game, step
from mq.rules.state import Deck, Item, Monster, Room, Turn

CARDS = load_default()


def started(players: int = 2, seed: int = 7):
    """A game past setup: everyone ready, the first player's turn has begun."""
    s = new_game(make_params(players), seed)
    for seat in range(players):
        s = apply(s, Action(seat, "ready"))
    return s


def active(s):
    return s.turn.seat


def set_player(s, seat, **changes):
    players = list(s.players)
    players[seat] = players[seat].replace(**changes)
    return s.replace(players=tuple(players))


def add_room(s, x, y, sides=(0, 0, 0, 0), face=None):
    face = face or CARDS.rooms[0].faces[0].id
    return s.replace(rooms=s.rooms + (Room(face=face, x=x, y=y, sides=tuple(sides)),))


def add_monster(s, card, room, colour, boss=False):
    m = Monster(uid=s.next_uid, card=card, room=room, colour=colour, boss=boss)
    return s.replace(monsters=s.monsters + (m,), next_uid=s.next_uid + 1)


def fresh_turn(s, seat, **changes):
    return s.replace(turn=Turn(seat=seat, number=s.turn.number, **changes), combat=None, pending=None)


def stack(s, deck, cards):
    """Put ``cards`` on top of a deck (``monster``, ``treasure``, ``dxm``)."""
    d = getattr(s, f"{deck}_deck")
    rest = tuple(c for c in d.draw if c not in cards)
    return s.replace(**{f"{deck}_deck": Deck(tuple(cards) + rest, tuple(c for c in d.discard if c not in cards))})


def monster_card(pred=lambda d: True):
    return next(d.id for d in CARDS.monsters if pred(d))


def treasure_card(pred=lambda d: True):
    return next(d.id for d in CARDS.treasures if pred(d))


def dxm_card(pred=lambda d: True):
    return next(d.id for d in CARDS.dxm if pred(d))


def face(pred=lambda f: True):
    return next(f.id for t in CARDS.rooms for f in t.faces if pred(f))


# -- more helpers for the rule tests (tests/test_rules_*.py) ------------------------------------
N, E, S, W = 0, 1, 2, 3
CORRIDOR, DOOR, LOCKED, SECRET, WALL = 0, 1, 2, 3, 4
RED, GREEN, BLUE, YELLOW, PURPLE, ORANGE = range(6)


def plain(f) -> bool:
    """A room face with no rule that could touch a fight or a search: no effects, no icons,
    searchable."""
    return not f.effects and not f.green and not f.red and not f.no_search


PLAIN = face(plain)


def texts(conditions) -> tuple[str, ...]:
    """Room icons (or any conditions) as their data texts: ("elf", "odd level")."""
    return tuple(c.text for c in conditions)


def icons_miss(conditions, *names: str) -> bool:
    """Q-COMBAT-6: every one of these icons is a race, class or gender name outside ``names``, so
    none holds for a munchkin who is only ``names`` (whatever their level or items)."""
    return all(c.kind == ConditionKind.IS and c.word not in names for c in conditions)


def quiet(players: int = 2, seed: int = 7):
    """A started game with every hand empty and a fresh turn for the first player in order."""
    s = started(players, seed)
    for seat in range(players):
        s = set_player(s, seat, hand=())
    return fresh_turn(s, s.order[0])


def nxt(s, seat=None):
    """The seat after ``seat`` (default: the active one) in turn order."""
    seat = s.turn.seat if seat is None else seat
    return s.order[(s.order.index(seat) + 1) % len(s.order)]


def line(s, n, face=PLAIN, kinds=CORRIDOR, y=0, x=1):
    """``n`` rooms in a row at (x, y)..(x+n-1, y), connected by corridors (or ``kinds[i]``
    between room i and i+1); every other side a wall, except that a row starting at (1, 0) is
    joined to the Entrance by its corridor.  ``face`` is one face id or one per room.
    Returns the state and the new rooms' indices."""
    kinds = (kinds,) * n if isinstance(kinds, int) else tuple(kinds)
    faces = (face,) * n if isinstance(face, str) else tuple(face)
    first = len(s.rooms)
    for i in range(n):
        west = (CORRIDOR if (x, y) == (1, 0) else WALL) if i == 0 else kinds[i - 1]
        east = kinds[i] if i < n - 1 else WALL
        s = add_room(s, x + i, y, (WALL, east, WALL, west), face=faces[i])
    return s, tuple(range(first, first + n))


def arrow_face(colour_, d):
    """A room face whose arrow of ``colour_`` points ``d`` (-1: no arrow of that colour)."""
    return face(lambda f: f.arrows[colour_] == d)


def take(s, cards):
    """``s`` with ``cards`` taken out of every deck and discard pile (so a card a test hands out
    is never also drawn)."""
    gone = set(cards)
    for name in ("monster_deck", "treasure_deck", "dxm_deck"):
        d = getattr(s, name)
        s = s.replace(**{name: Deck(tuple(c for c in d.draw if c not in gone),
                                    tuple(c for c in d.discard if c not in gone))})
    return s


def put(s, seat, *cards_and_places):
    """Give ``seat`` items in play: ``put(s, 0, ("T01", "worn"), ...)``."""
    p = s.players[seat]
    items = p.items + tuple(Item(c, place) for c, place in cards_and_places)
    return take(set_player(s, seat, items=items), [c for c, _ in cards_and_places])


def hand(s, seat, *cards):
    """Add ``cards`` to ``seat``'s hand (taken out of the decks)."""
    return take(set_player(s, seat, hand=s.players[seat].hand + tuple(cards)), cards)


def draws_for(seed, n, spec):
    """Whether the draws of stream ``seed`` from counter ``n`` match ``spec``; returns the counter
    after them or -1.  Spec entries: an int (a d6 showing it), None (any one draw),
    ("colour", c), ("d10", v) or ("below", bound, v)."""
    for want in spec:
        if want is None:
            _, n = core.rng_below(seed, n, 6)
            continue
        if isinstance(want, int):
            v, n = core.rng_d6(seed, n)
            want = (want,)
        elif want[0] == "colour":
            v, n = core.rng_colour(seed, n)
        elif want[0] == "d10":
            v, n = core.rng_d10(seed, n)
        else:
            v, n = core.rng_below(seed, n, want[1])
        if v != want[-1]:
            return -1
    return n


def rig(s, *spec, limit=400_000):
    """``s`` with its RNG counter moved to the first point from which the next draws are
    ``spec`` (see draws_for).  Bounded search; fails loudly if none is found."""
    for n in range(s.rng_n, s.rng_n + limit):
        if draws_for(s.rng_seed, n, spec) >= 0:
            return s.replace(rng_n=n)
    raise AssertionError(f"no counter gives {spec!r}")


def colour(c):
    return ("colour", c)


def coin(v):
    return ("below", 2, v)


def act(s, seat, kind, *args):
    """Apply one action; returns (state, events)."""
    return step(s, Action(seat, kind, tuple(args)))


def run(s, *actions):
    """Apply (seat, kind, *args) tuples in order; returns the final state and all events."""
    events = []
    for a in actions:
        s, ev = act(s, *a)
        events.extend(ev)
    return s, events


def refused(s, seat, kind, *args):
    """The reason code of an illegal action; asserts the action was not legal and changed nothing."""
    a = Action(seat, kind, tuple(args))
    assert a not in legal_actions(s, seat)
    before = full_hash(s)
    with pytest.raises(IllegalAction) as err:
        step(s, a)
    assert full_hash(s) == before
    return err.value.reason


def kinds_of(events, kind):
    return [e for e in events if e.kind == kind]


def legal(s, seat):
    return legal_actions(s, seat)


def legal_kinds(s, seat):
    return {a.kind for a in legal_actions(s, seat)}


def census(s) -> list[str]:
    """Every card of the state, wherever it is, sorted: decks and discard piles, hands, cards in
    play (races, classes, Half-Breeds, lasting curses, items and the Cheat! cards on them), room
    piles, monsters (a Mate counts its Mate card) and their enhancers, one-shots spent in the fight
    going on, a curse waiting for its answer, Treasures laid out to be picked.  Cards are never created or lost, so this is always
    every card id of the set exactly once."""
    out: list[str] = []
    for d in (s.monster_deck, s.treasure_deck, s.dxm_deck):
        out += d.draw + d.discard
    for p in s.players:
        out += p.hand + p.races + p.classes + p.hybrids + p.curses
        for it in p.items:
            out += (it.card, it.cheat) if it.cheat else (it.card,)
    for r in s.rooms:
        out += r.pile
    for m in s.monsters:
        out += (m.mate or m.card,) + m.enhancers
    if s.combat is not None:
        out += s.combat.used
    if s.pending is not None and s.pending.kind == "curse":
        out.append(s.pending.data[0])
    if s.pending is not None and s.pending.kind == "pick":
        out += s.pending.options
    return sorted(out)


ALL_CARDS = sorted(d.id for deck in (CARDS.monsters, CARDS.treasures, CARDS.dxm) for d in deck)
