"""The deterministic engine, Quest mode (RULES.md).  The whole public contract:

- ``new_game(params, seed) -> State``: a fresh game (Q-SETUP); ``make_params(players, ...)``.
- ``legal_actions(state, seat) -> tuple[Action, ...]``: everything ``seat`` may do now, stable order;
  ``is_legal(state, action)`` also accepts the open-ended ``buy`` and ``drop`` amounts.
- ``apply(state, action) -> State`` / ``step(state, action) -> (State, events)``: the new state, or
  IllegalAction(reason) with the old state untouched.
- ``view(state, seat) -> State``: what that seat may see (Q-DIGI-4); ``view_events(events, seat)``
  the same for the events ``step`` returned (one named type per kind, mq.rules.events).
- ``actors(state) -> tuple[int, ...]``: the seats the game is waiting for.
- ``is_over(state)``, ``winners(state)``, ``state_hash(state)``.
- ``decode_params(data)`` and ``check_params(params)``: parameters read from a log or the wire; ``cards_for(state, cards)``:
  the card set a game of that mode plays with.

The mode is part of the parameters (``make_params(..., mode="classic")``, so of the hash): every
function here dispatches on it, to this package for Quest or to mq.classic for Classic
(CLASSIC.md), so callers need no mode switch of their own.

The engine is the map keeper, the banker and the referee (Q-DIGI-1): every rule is enforced.
No I/O, no clock, no globals, no ``random``: every outcome comes from the RNG inside the state.
"""
from __future__ import annotations

from typing import TypeAlias, TypeVar, overload

from mq import classic as _classic
from mq.cards import CardSet, load_default
from mq.rules import codec as _codec
from mq.rules import legal as _legal
from mq.rules import reducer as _reducer
from mq.rules import windows
from mq.rules.actions import Action
from mq.rules.errors import REASONS, IllegalAction
from mq.rules.hashing import diff_path, full_hash, state_hash
from mq.rules.newgame import make_params as _make_params
from mq.rules.newgame import new_game as _new_game
from mq.rules.state import OVER, SETUP, Params, Stage, State
from mq.rules.view import view as _view
from mq.rules.view import view_events as _view_events

QUEST, CLASSIC = "quest", "classic"  # (a literal: mq.classic may still be importing this package)
MODES = (QUEST, CLASSIC)

# A game of either mode: every function below takes one and gives back the same mode's.  (Named
# in a string, and _classic.X in the functions: mq.classic may still be importing this package.)
AnyState = TypeVar("AnyState", State, "_classic.ClassicState")
AnyCards: TypeAlias = "CardSet | _classic.ClassicSet | None"  # either mode's card set, or None: the default


def make_params(players: int, genders: tuple[str, ...] | None = None, start_cards: int | None = None,
                window_ms: int = 10_000, away: str = "wait", away_s: int = 60, mode: str = QUEST,
                epic: bool = False, packs=()):
    """Validated parameters of a game of ``mode`` (Q-OPT, C-OPT); ``start_cards`` defaults to the
    mode's own (3 each in Quest, Q-OPT-3; 4 each in Classic, C-OPT-2); ``packs`` are Classic's
    (C-OPT-4)."""
    if mode == CLASSIC:
        return _classic.make_params(players, genders, 4 if start_cards is None else start_cards, epic,
                                    window_ms, away, away_s, packs)
    if mode != QUEST:
        raise IllegalAction("action/malformed", f"no mode {mode!r}: quest or classic")
    if epic:  # Q-OPT-5: Epic is played in the Classic mode
        raise IllegalAction("action/malformed", "Epic is a table option of the Classic mode (C-OPT-3)")
    if packs:  # C-OPT-4: the packs are the Classic card game's
        raise IllegalAction("action/malformed", "packs are a table option of the Classic mode (C-OPT-4)")
    return _make_params(players, genders, 3 if start_cards is None else start_cards, window_ms, away, away_s)


def check_params(params):
    """``params`` if a host could have made them, in either mode: exactly what ``make_params``
    makes from their own values, field by field of the same type (a log's header, a sequencer's
    request); IllegalAction in words otherwise."""
    try:
        made = make_params(params.players, params.genders, params.start_treasure, params.window_ms, params.away,
                           params.away_s, params.mode, getattr(params, "epic", False), getattr(params, "packs", ()))
    except (AttributeError, TypeError):
        raise IllegalAction("action/malformed", "not game parameters") from None
    if type(made) is not type(params) or made != params or any(
            type(getattr(params, f)) is not type(getattr(made, f)) for f in made._hash_fields):
        raise IllegalAction("action/malformed", "parameters no table could have chosen")
    return params


def cards_for(state_or_params, cards=None):
    """The card set a game of that mode plays with: ``cards`` when it is a set of the mode's
    (a house pack), else the mode's default set.  A caller that holds one set whatever the mode
    (a LAN peer loads Quest's default before it knows the game) gets the mode's own this way."""
    if _classic.is_classic(state_or_params):
        return _classic.cards_or_default(cards, state_or_params)
    return cards if isinstance(cards, CardSet) else load_default()


def decode_params(data):
    """Game parameters of either mode from their wire form (``codec.encode(params)``: a log
    header, a sequencer's request); IllegalAction when they are not parameters (check them with
    check_params)."""
    return _codec.decode(data, {"Params": Params, "ClassicParams": _classic.ClassicParams})


@overload
def new_game(params: Params, seed: int, cards: AnyCards = None) -> State: ...
@overload
def new_game(params: _classic.ClassicParams, seed: int, cards: AnyCards = None) -> _classic.ClassicState: ...
def new_game(params: Params | _classic.ClassicParams, seed: int, cards: AnyCards = None) -> State | _classic.ClassicState:
    if isinstance(params, _classic.ClassicParams):
        return _classic.new_game(params, seed, cards_for(params, cards))
    return _new_game(params, seed, cards_for(params, cards))


def legal_actions(state: AnyState, seat: int, cards: AnyCards = None) -> tuple[Action, ...]:
    if isinstance(state, _classic.ClassicState):
        return _classic.legal_actions(state, seat, cards_for(state, cards))
    return _legal.legal_actions(state, seat, cards_for(state, cards))


def is_legal(state: AnyState, action: Action, cards: AnyCards = None) -> bool:
    """Whether ``apply`` accepts ``action``: a listed legal action, or an open-ended one (any valid
    ``buy`` combination, any amount of gold to ``drop``)."""
    if isinstance(state, _classic.ClassicState):
        return _classic.is_legal(state, action, cards_for(state, cards))
    return _reducer.is_legal(state, action, cards_for(state, cards))


def step(state: AnyState, action: Action, cards: AnyCards = None) -> tuple[AnyState, tuple]:
    if isinstance(state, _classic.ClassicState):
        return _classic.step(state, action, cards_for(state, cards))
    return _reducer.step(state, action, cards_for(state, cards))


def apply(state: AnyState, action: Action, cards: AnyCards = None) -> AnyState:
    return step(state, action, cards)[0]


def actors(state: State | _classic.ClassicState) -> tuple[int, ...]:
    """Seats the game waits for: the pending decision's seat, the seats of an interrupt window or
    of a call for help, the setup stragglers, a munchkin running away, or the active munchkin."""
    if isinstance(state, _classic.ClassicState):
        return _classic.actors(state)
    if state.phase == OVER:
        return ()
    if state.pending is not None:
        return (state.pending.seat,)
    if state.phase == SETUP:
        return tuple(p.seat for p in state.players if not p.ready)
    if state.combat is not None:
        c = state.combat
        if c.stage in windows.STAGES and c.waiting:
            return c.waiting
        if c.stage in (Stage.RUN, Stage.ESCAPE, Stage.REROLL):
            return (c.runner,)
        return (c.fighter,)
    return (state.current_turn.seat,)


def view(state: AnyState, seat: int) -> AnyState:
    if isinstance(state, _classic.ClassicState):
        return _classic.view(state, seat)
    return _view(state, seat)


def view_events(events, seat: int) -> tuple:
    """The events as ``seat`` may see them; Classic and Quest mask the same kinds with the same
    fields (a face-down draw, a charity gift between others), so one function serves both."""
    return _view_events(events, seat)


def is_over(state: State | _classic.ClassicState) -> bool:
    return state.phase in (OVER, _classic.Phase.OVER)


def winners(state: State | _classic.ClassicState) -> tuple[int, ...]:
    return state.winners


__all__ = [
    "CLASSIC", "MODES", "QUEST", "Action", "IllegalAction", "REASONS", "Params", "State", "actors", "apply",
    "cards_for", "check_params", "decode_params", "diff_path", "full_hash", "is_legal", "is_over", "legal_actions", "make_params", "new_game",
    "state_hash", "step", "view", "view_events", "winners",
]
