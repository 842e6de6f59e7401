"""What the table itself plays (Q-DIGI-2, Q-OPT-1, Q-OPT-2; in Classic C-DIGI-2, C-DIGI-6,
C-OPT-5): the window timer's passes, the bots of bot seats and of away seats handed to a bot
(the mode's bot), and which moves the table may make at all.

In a LAN game the sequencer makes these moves as entries of the table (author -1); it decides none
of them.  It asks a :class:`Steward`, given the state and its clock, what the table authors now
(net.port), and every peer checks a table entry with :func:`table_may_act` at the state it applies
to: a pass only for a seat the window waits for, a bot's move only if it is the bot's.  Net knows only what
is not a rule: which seats the table plays (its lobby) and since when a seat is away (heartbeats).

Invariants: nothing here changes a state; the time always comes from the caller (seconds on any
monotonic clock: a real one, or the simulation's virtual time); a reaction window is timed anew
whenever the seats it waits for change (the client's countdown does the same), and when its time
runs out the table passes, in order, for every seat still waiting then, as long as the fight stays
in that stage.
"""
from __future__ import annotations

from mq.bots import choose
from mq.cards import CardSet
from mq.classic import is_classic
from mq.classic import windows as classic_windows
from mq.rules import Action, Params, State, view
from mq.rules.windows import STAGES

PASS = "pass"  # what the table does for a seat still waiting when a window's timer runs out


def window_of(state: State) -> tuple | None:
    """The reaction window the game waits on (Q-DIGI-2, C-DIGI-2): its stage and the seats it
    waits for; None outside one.  In Classic also what is at stake (the combat or the curse), so
    that a card played in a last-chance window, which asks everyone again, is a new window with
    its full time."""
    if is_classic(state):
        w = classic_windows.window(state)
        stake = {classic_windows.CURSE: state.curse, classic_windows.CLAIM: state.claim,
                 classic_windows.TURN_END: state.turn}.get(w[0], state.combat) \
            if w is not None else None
        return None if w is None else (*w, stake)
    c = state.combat
    return (c.stage, c.waiting) if c is not None and c.stage in STAGES and c.waiting else None


def _waiting_in(state: State, stage: str) -> tuple[int, ...] | None:
    """The seats a window named ``stage`` still waits for, while the game is in it (Quest: while
    the fight stays in that stage, whoever it waits for); None once it has closed."""
    if is_classic(state):
        w = classic_windows.window(state)
        return w[1] if w is not None and w[0] == stage else None
    c = state.combat
    return c.waiting if c is not None and c.stage == stage else None


def table_may_act(state: State, kinds: list[str], action: Action, cards: CardSet) -> bool:
    """Whether the table may make ``action`` in ``state`` (every peer asks at that entry): pass for
    a seat the open reaction window waits for (Q-DIGI-2, Q-OPT-1, C-OPT-5: when its timer ran
    out), or the bot's own move (:func:`bot_move`) for a bot seat (``kinds``: the roster's seat
    kinds, "bot" for one) or, in a game that hands away seats to a bot, for any seat (Q-OPT-2,
    C-DIGI-6).  Nothing else.  (When the timer ran out, and whether a seat was away long enough,
    are the sequencer's clock's: not in the state.)"""
    if action.kind == PASS:
        window = window_of(state)
        if window is not None and action.seat in window[1]:
            return True
    seat = action.seat
    if not 0 <= seat < len(kinds) or (kinds[seat] != "bot" and state.params.away != "bot"):
        return False
    return bot_move(state, seat, cards) == action


def takes_over(params: Params, away_since: float, now: float) -> bool:
    """Q-OPT-2: whether the table's bot plays a seat away since ``away_since`` (it hands the seat
    back when the player returns)."""
    return params.away == "bot" and now - away_since >= params.away_s


def bot_move(state: State, seat: int, cards: CardSet) -> Action:
    """The bot's move for ``seat``, decided from what that seat may see (mq.bots: the mode's bot)."""
    return choose(view(state, seat), seat, cards)


class Steward:
    """The window timer of one table (Q-OPT-1): told of every state the table's log reaches
    (:meth:`saw`, or :meth:`rearm` when a sequencer takes over), it says which pass the table makes
    now (:meth:`due`)."""

    def __init__(self) -> None:
        self._key: tuple | None = None  # the window being timed (window_of)...
        self._since: float | None = None  # ...since then; None: not timed (no window, or its time ran out)
        self._closing: tuple | None = None  # (stage, seats left to pass for) once the time ran out

    def saw(self, state: State, now: float) -> None:
        """The log reached ``state`` at ``now``: time its window anew if it is another one."""
        key = window_of(state)
        if key != self._key:
            self._key = key
            self._since = now if key is not None else None

    def rearm(self, state: State, now: float) -> None:
        """A sequencer takes the table over at ``now`` (a failover, a resumed game): whatever it
        timed before, the window open in ``state`` (the logged state) gets its full time from now,
        so no window stays open untimed because the sequencer that timed it is gone."""
        self._key = window_of(state)
        self._since = now if self._key is not None else None
        self._closing = None

    def due(self, state: State, now: float) -> Action | None:
        """The next pass the timer makes at ``now`` in ``state``, or None.  Once the time ran out,
        ask again after applying each pass, until None: a pass for every seat that was waiting,
        as long as the fight stays in that stage."""
        if self._closing is not None:
            stage, seats = self._closing
            waiting = _waiting_in(state, stage)
            if is_classic(state) and waiting is not None:  # a seat passed meanwhile (or was auto-passed)
                seats = tuple(x for x in seats if x in waiting)
            if seats and waiting is not None:
                self._closing = (stage, seats[1:])
                return Action(seats[0], PASS)
            self._closing = None
            return None
        if self._since is None or now - self._since < state.params.window_ms / 1000:
            return None
        self._since = None
        key = window_of(state)
        self._closing = (key[0], tuple(key[1])) if key is not None else (None, ())
        return self.due(state, now)
