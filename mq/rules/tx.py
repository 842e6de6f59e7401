"""A transaction: the mutable working copy one ``apply`` call builds a new State from.

Rule functions take a :class:`Tx` and change it; :meth:`Tx.commit` freezes the result into a new
State that shares every untouched node with the old one (so the incremental hash only pays for
what changed).  A Tx never outlives the ``apply`` call that made it, and it draws all randomness
from the counter-based RNG carried in the state (DESIGN "Determinism and hashing").
"""
from __future__ import annotations

from operator import is_
from typing import Any, Callable, Generic, TypeVar

from mq import core
from mq.cards import CardSet
from mq.rules.events import make
from mq.rules.node import Node
from mq.rules.state import Combat, Current, Deck, Monster, Pending, Player, Room, State, Turn


class Draws:
    """The randomness and the deck draws of a transaction: it needs ``seed`` and ``n`` (the
    counter-based RNG's state), ``decks`` (name -> Deck) and ``event``."""

    seed: int
    n: int
    decks: dict[str, Deck]

    def event(self, *fields: Any) -> None:  # (each mode records its own event types: Transaction)
        raise NotImplementedError

    # -- randomness (all of it goes through here) -------------------------------------------
    def d6(self) -> int:
        value, self.n = core.rng_d6(self.seed, self.n)
        return value

    def d10(self) -> int:
        value, self.n = core.rng_d10(self.seed, self.n)
        return value

    def colour_roll(self) -> int:
        value, self.n = core.rng_colour(self.seed, self.n)
        return value

    def below(self, bound: int) -> int:
        value, self.n = core.rng_below(self.seed, self.n, bound)
        return value

    def shuffle(self, items: tuple) -> tuple:
        out, self.n = core.rng_shuffle(self.seed, self.n, tuple(items))
        return out

    # -- decks (Q-SETUP-1, C-SETUP-2) --------------------------------------------------------
    def draw(self, kind: str) -> str | None:
        """Top card of a deck; an empty deck is rebuilt by shuffling its discards first."""
        deck = self.decks[kind]
        if not deck.draw:
            if not deck.discard:
                return None
            deck = Deck(self.shuffle(deck.discard), ())
            self.event("reshuffle", kind)
        card, rest = deck.draw[0], deck.draw[1:]
        self.decks[kind] = Deck(rest, deck.discard)
        return card


_Pl = TypeVar("_Pl", bound=Node)
_T = TypeVar("_T", bound=Node)
_C = TypeVar("_C", bound=Node)
_P = TypeVar("_P", bound=Node)


class Transaction(Draws, Current[_T, _C, _P], Generic[_Pl, _T, _C, _P]):
    """What both modes' transactions share (Quest's Tx below, Classic's mq.classic.tx.Tx), with
    each mode's node types: the randomness and the draws, the players' working list and its
    setters, discarding to the deck a card came from, recording events.  A mode's Tx fills in
    ``make_event`` (its event types), ``deck_of`` and ``commit``."""

    players: list[_Pl]
    events: list[tuple[Any, ...]]
    make_event: Callable[[tuple[Any, ...]], tuple[Any, ...]]

    def event(self, *fields: Any) -> None:
        """Record an event: its kind, then its fields (one named type per kind)."""
        self.events.append(self.make_event(fields))

    def deck_of(self, card: str) -> str:
        raise NotImplementedError

    def discard(self, card: str) -> None:
        kind = self.deck_of(card)
        deck = self.decks[kind]
        self.decks[kind] = Deck(deck.draw, deck.discard + (card,))

    def player(self, seat: int) -> _Pl:
        return self.players[seat]

    def set_player(self, seat: int, **changes: Any) -> _Pl:
        old = self.players[seat]
        p = old.replace(**changes)
        self.players[seat] = p
        if "items" in changes:
            self.items_changed(old, p)
        return p

    def items_changed(self, old: _Pl, new: _Pl) -> None:
        """After a player's items in play changed (a mode with cards that travel with an item
        follows them here)."""

    def set_turn(self, **changes: Any) -> None:
        self.turn = self.current_turn.replace(**changes)

    def set_combat(self, **changes: Any) -> None:
        self.combat = self.fight.replace(**changes)


class Tx(Transaction[Player, Turn, Combat, Pending]):
    make_event = staticmethod(make)

    def __init__(self, state: State, cards: CardSet) -> None:
        self.cards = cards
        self.base = state
        self.params = state.params
        self.seed = state.rng_seed
        self.n = state.rng_n
        self.order = state.order
        self.players: list[Player] = list(state.players)
        self.rooms: list[Room] = list(state.rooms)
        self.room_deck = state.room_deck
        self.connector_deck = state.connector_deck
        self.decks: dict[str, Deck] = {
            "monster": state.monster_deck,
            "treasure": state.treasure_deck,
            "dxm": state.dxm_deck,
        }
        self.monsters: list[Monster] = list(state.monsters)
        self.next_uid = state.next_uid
        self.phase = state.phase
        self.turn: Turn | None = state.turn
        self.combat: Combat | None = state.combat
        self.pending: Pending | None = state.pending
        self.winners = state.winners
        self.last_colour = state.last_colour
        self.events: list[tuple[Any, ...]] = []
        self._last: State | None = None  # what commit returned last (see commit)

    def deck_of(self, card: str) -> str:
        defn = self.cards.card(card)
        name = type(defn).__name__
        return {"MonsterDef": "monster", "TreasureDef": "treasure", "DxmDef": "dxm"}[name]

    # -- small accessors -----------------------------------------------------------------------
    def items_changed(self, old: Player, new: Player) -> None:
        """A Cheat! card travels with its item (Q-ITEM-4): when the item leaves play for good (it
        is in nobody's play area any more) the Cheat! card is discarded with it."""
        kept = {it.card for it in new.items}
        for it in old.items:
            if it.cheat and it.card not in kept and not any(
                    x.card == it.card for q in self.players for x in q.items):
                self.discard(it.cheat)

    def set_room(self, index: int, **changes: Any) -> None:
        self.rooms[index] = self.rooms[index].replace(**changes)

    def monster(self, uid: int) -> Monster:
        for m in self.monsters:
            if m.uid == uid:
                return m
        raise KeyError(uid)

    def set_monster(self, uid: int, **changes: Any) -> None:
        self.monsters = [m.replace(**changes) if m.uid == uid else m for m in self.monsters]

    def remove_monster(self, uid: int) -> None:
        """Q-MON-5: discard the card (and its enhancers, Q-COMBAT-13), free the standee and the base.
        A Mate discards its Mate card: the monster card it copied belongs to the original."""
        m = self.monster(uid)
        self.monsters = [x for x in self.monsters if x.uid != uid]
        for card in (m.mate or m.card,) + m.enhancers:
            self.discard(card)
        if self.combat is not None and uid in self.combat.monsters:  # it leaves the fight too
            self.set_combat(monsters=tuple(u for u in self.combat.monsters if u != uid))

    def monsters_in(self, room: int) -> list[Monster]:
        return [m for m in self.monsters if m.room == room]

    def seats_in(self, room: int) -> list[int]:
        return [p.seat for p in self.players if p.room == room and p.alive]

    def commit(self) -> State:
        """The working copy as a State.  Committing again with nothing changed in between returns
        the very same State object (the values are compared by identity: every field is assigned
        from here), so a snapshot taken by the rules and the final state are one object."""
        base, last = self.base, self._last
        prev = last or base
        decks = self.decks
        values = (
            self.params, self.seed, self.n, self.order,
            keep(self.players, prev.players, base.players),
            keep(self.rooms, prev.rooms, base.rooms),
            self.room_deck, self.connector_deck, decks["monster"], decks["treasure"], decks["dxm"],
            keep(self.monsters, prev.monsters, base.monsters),
            self.next_uid, self.phase, self.turn, self.combat, self.pending, self.winners,
            self.last_colour,
        )
        if last is not None and all(map(is_, map(last.__dict__.__getitem__, _COMMITTED), values)):
            return last
        state = object.__new__(State)  # as Node.replace: no frozen __init__, no caches carried over
        fields = state.__dict__
        old = base.__dict__
        for name in State._hash_fields:
            fields[name] = old[name]  # (a field the Tx does not carry stays as it was)
        fields.update(zip(_COMMITTED, values))
        rooms = fields["rooms"]
        board = prev.__dict__.get("_board") or old.get("_board")
        if board is not None and board[0] is rooms:  # the dungeon did not change: keep its encoding
            object.__setattr__(state, "_board", board)
        self._last = state
        return state


# The State fields a Tx carries, in the order of the values commit builds.
_COMMITTED = ("params", "rng_seed", "rng_n", "order", "players", "rooms", "room_deck", "connector_deck",
              "monster_deck", "treasure_deck", "dxm_deck", "monsters", "next_uid", "phase", "turn",
              "combat", "pending", "winners", "last_colour")


def keep(items: list, last: tuple, base: tuple) -> tuple:
    """The tuple for a working list: the last committed one or the base one when it holds exactly
    the same nodes (so unchanged parts keep their identity and caches), else a new one."""
    if _same(items, last):
        return last
    if base is not last and _same(items, base):
        return base
    return tuple(items)


def _same(items: list, old: tuple) -> bool:
    """Whether a working list still holds exactly the old nodes (then the old tuple is reused, so
    unchanged parts of the state keep their identity and caches)."""
    return len(items) == len(old) and all(map(is_, items, old))
