"""The working copy one Classic ``apply`` builds a new state from (as Quest's mq.rules.tx).

Rule functions take a :class:`Tx` and change it; :meth:`Tx.commit` freezes it into a new
ClassicState sharing every untouched node with the old one.  All randomness comes from the
counter-based RNG of mq.core, whose (seed, n) the state carries (DESIGN "Determinism and hashing").
"""
from __future__ import annotations

from typing import Any

from mq.cards.classic_defs import ClassicSet
from mq.classic.events import make
from mq.classic.state import ClassicState, CPlayer
from mq.rules.state import Deck
from mq.rules.tx import Draws

DOOR, TREASURE = "door", "treasure"


class Tx(Draws):
    def __init__(self, state: ClassicState, cards: ClassicSet) -> None:
        self.cards = cards
        self.base = state
        self.params = state.params
        self.seed = state.rng_seed
        self.n = state.rng_n
        self.order = state.order
        self.players: list[CPlayer] = list(state.players)
        self.decks: dict[str, Deck] = {DOOR: state.door, TREASURE: state.treasure}
        self.phase = state.phase
        self.turn = state.turn
        self.combat = state.combat
        self.curse = state.curse
        self.queue = state.queue
        self.bodies = state.bodies
        self.pending = state.pending
        self.winners = state.winners
        self.events: list[tuple] = []

    # (the RNG and the draws, C-SETUP-2: mq.rules.tx.Draws)

    def deck_of(self, card: str) -> str:
        return DOOR if card.startswith("CD") else TREASURE

    def discard(self, card: str) -> None:
        deck = self.deck_of(card)
        d = self.decks[deck]
        self.decks[deck] = Deck(d.draw, d.discard + (card,))

    # -- small accessors -----------------------------------------------------------------------
    def event(self, *fields: Any) -> None:
        self.events.append(make(fields))

    def player(self, seat: int) -> CPlayer:
        return self.players[seat]

    def set_player(self, seat: int, **changes: Any) -> CPlayer:
        p = self.players[seat].replace(**changes)
        self.players[seat] = p  # type: ignore[assignment]
        return p  # type: ignore[return-value]

    def set_turn(self, **changes: Any) -> None:
        self.turn = self.turn.replace(**changes)  # type: ignore[union-attr,assignment]

    def set_combat(self, **changes: Any) -> None:
        self.combat = self.combat.replace(**changes)  # type: ignore[union-attr,assignment]

    def commit(self) -> ClassicState:
        base = self.base
        players = tuple(self.players)
        if len(players) == len(base.players) and all(a is b for a, b in zip(players, base.players)):
            players = base.players
        return base.replace(  # type: ignore[return-value]
            rng_n=self.n, order=self.order, players=players, door=self.decks[DOOR],
            treasure=self.decks[TREASURE], phase=self.phase, turn=self.turn, combat=self.combat,
            curse=self.curse, queue=self.queue, bodies=self.bodies, pending=self.pending,
            winners=self.winners)
