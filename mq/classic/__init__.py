"""The deterministic engine of the Classic mode (CLASSIC.md): the card game without a board.

The same contract as Quest's mq.rules, which dispatches to it on the mode of the parameters
(``make_params(..., mode="classic")``), so callers need no mode switch of their own:

- ``new_game(params, seed)``; ``legal_actions(state, seat)``; ``is_legal``; ``step``/``apply``;
  ``view``/``view_events``; ``actors``; ``is_over``; ``winners``.

Module layers, bottom to top: ``state``, ``events``; ``tx``, ``character``; ``effects``;
``combat``; ``legal``; ``flow``; ``reducer``, ``setup``, ``view``; ``invariants``.  Shared with
Quest ("as Q-x"): the node base and its hash (mq.rules.node, mq.core), the RNG (mq.core), the
Action value and its wire form, the reason codes, the deck node, the turn-order roll.
No I/O, no clock, no ``random``: every outcome comes from the RNG inside the state.  The engine
is dealer, die roller and referee (C-DIGI-1); where the seeds disagree it follows the decisions
collected in C-SRC.
"""
from __future__ import annotations

from mq.cards.classic_defs import ClassicSet
from mq.cards.classic_packs import load_classic_packs
from mq.classic import legal as _legal
from mq.classic import reducer as _reducer
from mq.classic.setup import make_params
from mq.classic.setup import new_game as _new_game
from mq.classic.state import CLASSIC, ClassicParams, ClassicState, Phase, Stage
from mq.classic.view import view, view_events
from mq.rules.actions import Action


def new_game(params: ClassicParams, seed: int, cards: ClassicSet | None = None) -> ClassicState:
    return _new_game(params, seed, cards_or_default(cards, params))


def legal_actions(state: ClassicState, seat: int, cards: ClassicSet | None = None) -> tuple[Action, ...]:
    return _legal.legal_actions(state, seat, cards_or_default(cards, state))


def is_legal(state: ClassicState, action: Action, cards: ClassicSet | None = None) -> bool:
    return _reducer.is_legal(state, action, cards_or_default(cards, state))


def step(state: ClassicState, action: Action, cards: ClassicSet | None = None) -> tuple[ClassicState, tuple]:
    return _reducer.step(state, action, cards_or_default(cards, state))


def apply(state: ClassicState, action: Action, cards: ClassicSet | None = None) -> ClassicState:
    return step(state, action, cards)[0]


def actors(state: ClassicState) -> tuple[int, ...]:
    """The seats the game waits for: a pending decision's seat, a curse window's, the setup
    stragglers, the seats offered a deal (first), a call for help's or a last-chance window's, a
    run-away or die window's, the runner, the main fighter, or the seats offered a trade (first)
    and the turn-end window's or the active player."""
    if state.phase == Phase.OVER:
        return ()
    if state.pending is not None:
        return (state.pending.seat,)
    if state.curse is not None:
        return state.curse.waiting
    if state.claim is not None and state.claim.open:  # C-EPIC-14
        return state.claim.waiting
    if state.phase == Phase.SETUP:
        return tuple(p.seat for p in state.players if not p.ready)
    c = state.combat
    if c is not None:
        if c.stage in (Stage.HELP, Stage.WINDOW):
            return c.waiting
        if c.stage == Stage.PREPARE and c.proposed:  # the seats offered a deal answer first
            return tuple(dict.fromkeys(d.to for d in c.proposed if d.to != c.fighter)) + (c.fighter,)
        if c.stage == Stage.RUN:
            return c.waiting or c.runners[:1]  # the die or run-away window (C-RUN-3), else the runner
        return (c.fighter,)
    turn = state.current_turn
    asked = tuple(dict.fromkeys(t.to for t in turn.trades))  # C-ITEM-6: the seats offered a trade answer first
    if turn.phase == Phase.CLOSING:  # C-DIGI-2 f: the turn-end window
        return asked + tuple(x for x in turn.waiting if x not in asked)
    return asked + ((turn.seat,) if turn.seat not in asked else ())


def is_over(state: ClassicState) -> bool:
    return state.phase == Phase.OVER


def winners(state: ClassicState) -> tuple[int, ...]:
    return state.winners


def cards_or_default(cards=None, state_or_params=None) -> ClassicSet:
    """``cards`` when it is a Classic set (a house pack), else the default Classic set with the
    game's packs (C-OPT-4; a caller holding another mode's set: mq.rules.cards_for)."""
    if isinstance(cards, ClassicSet):
        return cards
    params = getattr(state_or_params, "params", state_or_params)
    return load_classic_packs(getattr(params, "packs", ()))


def is_classic(state_or_params) -> bool:
    params = getattr(state_or_params, "params", state_or_params)
    return getattr(params, "mode", "") == CLASSIC


__all__ = ["CLASSIC", "ClassicParams", "ClassicState", "actors", "apply", "cards_or_default", "is_classic",
           "is_legal", "is_over", "legal_actions", "make_params", "new_game", "step", "view", "view_events", "winners"]
