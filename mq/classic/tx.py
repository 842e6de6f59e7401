"""The working copy one Classic ``apply`` builds a new state from (as Quest's mq.rules.tx).

Rule functions take a :class:`Tx` and change it; :meth:`Tx.commit` freezes it into a new
ClassicState sharing every untouched node with the old one.  All randomness comes from the
counter-based RNG of mq.core, whose (seed, n) the state carries (DESIGN "Determinism and hashing").
"""
from __future__ import annotations

from typing import Any

from mq.cards.classic_defs import ClassicSet
from mq.classic.events import make
from mq.classic.state import ClassicState, Combat, CPlayer, CurseCast, Pending, Turn
from mq.rules.errors import IllegalAction
from mq.rules.state import Current, Deck
from mq.rules.tx import Draws

DOOR, TREASURE = "door", "treasure"


class Tx(Draws, Current[Turn, Combat, Pending]):
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
        self.turn: Turn | None = state.turn
        self.combat: Combat | None = state.combat
        self.curse: CurseCast | None = state.curse
        self.queue = state.queue
        self.bodies = state.bodies
        self.pending: Pending | None = state.pending
        self.winners = state.winners
        self.events: list[tuple] = []

    # (the RNG and the draws, C-SETUP-2: mq.rules.tx.Draws)

    @property
    def casting(self) -> CurseCast:
        """The curse on its way (C-CARD-8), read by the rules of its window."""
        c = self.curse
        if c is None:
            raise IllegalAction("phase/wrong", "no curse is on its way")
        return c

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
        self.players[seat] = p
        return p

    def set_turn(self, **changes: Any) -> None:
        self.turn = self.current_turn.replace(**changes)

    def set_combat(self, **changes: Any) -> None:
        self.combat = self.fight.replace(**changes)

    def commit(self) -> ClassicState:
        base = self.base
        players = tuple(self.players)
        if len(players) == len(base.players) and all(a is b for a, b in zip(players, base.players)):
            players = base.players
        return base.replace(
            rng_n=self.n, order=self.order, players=players, door=self.decks[DOOR],
            treasure=self.decks[TREASURE], phase=self.phase, turn=self.turn, combat=self.combat,
            curse=self.curse, queue=self.queue, bodies=self.bodies, pending=self.pending,
            winners=self.winners)
