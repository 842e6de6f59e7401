"""Helpers that build Classic positions for rule tests from a real new game, moving only the cards
a test is about (so every card is still exactly once somewhere: the invariants hold)."""
from __future__ import annotations

from mq.cards.classic_loader import load_classic_default
from mq.classic import cards_or_default, invariants
from mq.classic.state import CItem, Phase, Turn
from mq.rules import Action, apply, make_params, new_game, step
from mq.rules.state import Deck

CARDS = load_classic_default()


def card(name: str) -> str:
    """The id of the default card with this name."""
    return next(c.id for c in CARDS.door + CARDS.treasure if c.name == name)


def fresh(players: int = 3, seed: int = 5, **options):
    return new_game(make_params(players, mode="classic", **options), seed)


def _without(s, cid: str):
    """The state with ``cid`` taken out of wherever it is (decks or hands)."""
    door = Deck(tuple(c for c in s.door.draw if c != cid), tuple(c for c in s.door.discard if c != cid))
    treasure = Deck(tuple(c for c in s.treasure.draw if c != cid), tuple(c for c in s.treasure.discard if c != cid))
    players = tuple(p.replace(hand=tuple(c for c in p.hand if c != cid)) for p in s.players)
    return s.replace(door=door, treasure=treasure, players=players)


def empty_hands(s):
    """Every hand back on the bottom of its deck."""
    door, treasure = s.door.draw, s.treasure.draw
    for p in s.players:
        door += tuple(c for c in p.hand if c.startswith("CD"))
        treasure += tuple(c for c in p.hand if c.startswith("CT"))
    players = tuple(p.replace(hand=()) for p in s.players)
    return s.replace(players=players, door=Deck(door, s.door.discard), treasure=Deck(treasure, s.treasure.discard))


def playing(players: int = 3, seat: int = 0, seed: int = 5, **options):
    """Past setup with empty hands: ``seat``'s turn 1, about to kick open the door."""
    s = empty_hands(fresh(players, seed, **options))
    s = s.replace(players=tuple(p.replace(ready=True) for p in s.players), phase=Phase.PLAY,
                  turn=Turn(seat=seat, number=1), order=tuple((seat + i) % players for i in range(players)))
    return s


def hand(s, seat: int, *cids: str):
    for cid in cids:
        s = _without(s, cid)
        p = s.players[seat]
        s = set_player(s, seat, hand=p.hand + (cid,))
    return s


def in_play(s, seat: int, *cids: str, in_use: bool = True):
    for cid in cids:
        s = _without(s, cid)
        p = s.players[seat]
        d = CARDS.card(cid)
        if d.kind == "race":
            s = set_player(s, seat, races=p.races + (cid,))
        elif d.kind == "class":
            s = set_player(s, seat, classes=p.classes + (cid,))
        else:
            s = set_player(s, seat, items=p.items + (CItem(cid, in_use),))
    return s


def on_top(s, *cids: str):
    """These cards on top of their decks, in this order."""
    for cid in reversed(cids):
        s = _without(s, cid)
        if cid.startswith("CD"):
            s = s.replace(door=Deck((cid,) + s.door.draw, s.door.discard))
        else:
            s = s.replace(treasure=Deck((cid,) + s.treasure.draw, s.treasure.discard))
    return s


def set_player(s, seat, **changes):
    players = list(s.players)
    players[seat] = players[seat].replace(**changes)
    return s.replace(players=tuple(players))


def act(s, seat: int, kind: str, *args):
    """Apply one action, checking the invariants after it (with the game's cards: its packs too,
    C-OPT-4); returns (state, events)."""
    s2, events = step(s, Action(seat, kind, tuple(args)))
    cards = cards_or_default(None, s2)
    problems = invariants.check(s2, cards) + invariants.check_step(s, s2, events, cards)
    assert problems == []
    return s2, events


def kinds(events) -> list[str]:
    return [e.kind for e in events]


__all__ = ["CARDS", "Action", "act", "apply", "card", "fresh", "hand", "in_play", "kinds", "on_top", "playing",
           "set_player"]
