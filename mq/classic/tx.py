"""The working copy one Classic ``apply`` builds a new state from (as Quest's mq.rules.tx).

Rule functions take a :class:`Tx` and change it; :meth:`Tx.commit` freezes it into a new
ClassicState sharing every untouched node with the old one.  All randomness comes from the
counter-based RNG of mq.core, whose (seed, n) the state carries (DESIGN "Determinism and hashing").
"""
from __future__ import annotations

from mq.cards.classic_defs import ClassicSet
from mq.classic import character as ch
from mq.classic.events import make
from mq.classic.state import Claim, ClassicState, Combat, CPlayer, CurseCast, DungeonState, Pending, Turn
from mq.rules.errors import IllegalAction
from mq.rules.state import Deck
from mq.rules.tx import Transaction, keep

DOOR, TREASURE, DUNGEON = "door", "treasure", "dungeon"


class Tx(Transaction[CPlayer, Turn, Combat, Pending]):
    make_event = staticmethod(make)

    def __init__(self, state: ClassicState, cards: ClassicSet) -> None:
        self.cards = cards
        self.base = state
        self.params = state.params
        self.seed = state.rng_seed
        self.n = state.rng_n
        self.order = state.order
        self.players: list[CPlayer] = list(state.players)
        self.decks: dict[str, Deck] = {DOOR: state.door, TREASURE: state.treasure, DUNGEON: state.dungeons}
        self.active = state.active  # C-PACK-7
        self.phase = state.phase
        self.turn: Turn | None = state.turn
        self.combat: Combat | None = state.combat
        self.curse: CurseCast | None = state.curse
        self.queue = state.queue
        self.bodies = state.bodies
        self.pending: Pending | None = state.pending
        self.winners = state.winners
        self.claim = state.claim
        self.events: list[tuple] = []

    # (the RNG, the draws and the setters, C-SETUP-2: mq.rules.tx.Transaction)

    @property
    def casting(self) -> CurseCast:
        """The curse on its way (C-CARD-8), read by the rules of its window."""
        c = self.curse
        if c is None:
            raise IllegalAction("phase/wrong", "no curse is on its way")
        return c

    def discard(self, card: str) -> None:
        """To its discard pile; a monster card discarded while an epic ranger is at the table may
        be claimed (C-EPIC-14, C-DIGI-2 e: mq.classic.flow opens the claim window)."""
        super().discard(card)
        if card.startswith("CD") and self.cards.card(card).kind == "monster" and any(
                ch.power(p, self.cards, "claim", self.params) is not None for p in self.players):
            self.claim = Claim(cards=(self.claim.cards if self.claim is not None else ()) + (card,))

    def deck_of(self, card: str) -> str:
        return DOOR if card.startswith("CD") else DUNGEON if card.startswith("CG") else TREASURE

    def commit(self) -> ClassicState:
        base = self.base
        return base.replace(
            rng_n=self.n, order=self.order, players=keep(self.players, base.players, base.players),
            door=self.decks[DOOR], treasure=self.decks[TREASURE], phase=self.phase, turn=self.turn,
            combat=self.combat, curse=self.curse, queue=self.queue, bodies=self.bodies, pending=self.pending,
            winners=self.winners, claim=self.claim, **self._dungeons())

    def _dungeons(self) -> dict:
        """C-PACK-7: the dungeon deck and the active dungeons, in a game that has them."""
        if isinstance(self.base, DungeonState):
            return {"dungeons": self.decks[DUNGEON], "active": self.active}
        assert not self.active and self.decks[DUNGEON] == self.base.dungeons  # (no dungeons without the pack)
        return {}
