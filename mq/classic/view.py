"""What one Classic seat may see (C-DIGI-4): the one place that strips secrets from states;
events are masked by Quest's view_events (the same kinds, the same fields: a face-down draw, a
charity gift between two others; and a hand shown to another player, C-ITEM-10).  Other hands and the decks' order become placeholders of the same length, the RNG seed 0;
a pending decision among a hand's cards lists them from that (masked) hand.  A view must never be
fed to ``apply``."""
from __future__ import annotations

from mq.classic.state import ClassicState, DungeonState
from mq.rules.state import Deck
from mq.rules.view import HIDDEN, TABLE, view_events

__all__ = ["HIDDEN", "TABLE", "view", "view_events"]


def _mask(cards: tuple[str, ...]) -> tuple[str, ...]:
    return (HIDDEN,) * len(cards)


def view(state: ClassicState, seat: int) -> ClassicState:
    # C-ITEM-10: a hand shown to ``seat`` stays open to it until the turn ends
    players = tuple(p if p.seat == seat or seat in p.shown else p.replace(hand=_mask(p.hand)) for p in state.players)
    return state.replace(rng_seed=0, rng_n=0, players=players,
                         door=Deck(_mask(state.door.draw), state.door.discard),
                         treasure=Deck(_mask(state.treasure.draw), state.treasure.discard),
                         **({"dungeons": Deck(_mask(state.dungeons.draw), state.dungeons.discard)}
                            if isinstance(state, DungeonState) else {}))
