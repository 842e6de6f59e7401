"""Helpers that build game positions for rule tests from a real new game, replacing only the
parts a test is about.  Cards are picked from the default set by their properties, so the tests
do not depend on particular card ids."""
from __future__ import annotations

from mq.cards import load_default
from mq.rules import Action, apply, make_params, new_game
from mq.rules.state import Deck, Monster, Room, Turn

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
