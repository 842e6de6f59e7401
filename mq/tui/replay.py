"""Replays: a finished or saved game's log opened in the client and stepped through as one seat
saw it (``mq replay LOGFILE --as SEAT|table``, net/cli.py).

- :class:`ReplayTable` is the Table the client reads.  Loading re-applies the log with the engine
  through ``net.replay.reapply`` (the checks of ``mq replay --verify``: each author may act for
  its seat, each action is legal, each state hash is the one recorded), so what is shown is the
  game the log holds.  A log that stops checking out is shown up to its last good entry, and the
  client says why in a banner.  ``submit`` always raises IllegalAction("replay/read-only").
- :class:`ReplayModel` is the client's Model placed at one entry: the seat's view of the state
  after it (``view(state, seat)``; the table's view, seat -1, holds no hand at all), the log as that
  seat's own client would have written it up to there, and a status line saying where it is.  The
  stepping lives in :class:`Replaying`, mixed into the mode's own model: Quest's Model or
  mq.tui.classic_model's ClassicModel (:func:`model_for` picks it), so a Classic game is replayed
  with the Classic client's table panel, scribe and combat panel.

Positions are entry numbers: 0 is the new game (before the first entry), ``n`` the last good entry.
Every state is kept, so a step back is a list lookup: states share all unchanged structure, and a
1,146-entry 4-player game keeps about 1.5 MB of them (measured with tracemalloc), while re-applying
from sparse checkpoints would make each step back cost engine steps.

The model never holds a full state (Q-DIGI-4): it asks the table for the state at an entry and
keeps only the view.  Its log lines come from the same :class:`mq.tui.model.Scribe` a live client
uses, fed every entry once and in order up to the furthest one shown (then cached per entry), so
stepping back shows exactly the lines the seat had read at that point.
"""
from __future__ import annotations

import asyncio
import time
from collections import deque
from itertools import chain
from typing import AsyncIterator, Callable

from mq.cards import CardSet
from mq.classic import is_classic
from mq.rules import Action, IllegalAction, State, cards_for, new_game, view, view_events
from mq.rules.state import COLOURS, OVER, SETUP
from mq.table import Applied, Notice, Table
from mq.tui import model as quest_model
from mq.tui.model import GOTO, LOG_LINES, NORMAL, Banner, LogLine, Model, who
from net import gamelog
from net.replay import BadEntry, reapply

READ_ONLY = "replay/read-only"  # the IllegalAction reason of every submit to a replay


def parse_seat(spec: str, players: int) -> int | None:
    """``--as``: a seat number (from 0, as ``mq replay`` lists the seats), a colour name, or
    ``table`` (None: public information only).  Raises ValueError in words."""
    word = spec.strip().lower()
    if word == "table":
        return None
    if word.isdigit():
        seat = int(word)
    elif word in COLOURS:
        seat = COLOURS.index(word)
    else:
        raise ValueError(f"--as {spec!r}: give a seat number, a colour or 'table'")
    if not 0 <= seat < players:
        seats = ", ".join(f"{i} {c}" for i, c in enumerate(COLOURS[:players]))
        raise ValueError(f"--as {spec}: this game has {players} seats ({seats})")
    return seat


class ReplayTable(Table):
    """A game log, re-applied and checked, positioned at entry ``pos`` (see the module docstring).

    ``seat`` is the seat whose client is replayed, None for the table's (public) view."""

    def __init__(self, scan: gamelog.Scan, seat: int | None, cards: CardSet | None = None) -> None:
        if scan.header is None:
            raise gamelog.LogCorrupt("the log has no header record")
        h = scan.header
        if seat is not None and not 0 <= seat < h.params.players:
            raise ValueError(f"seat {seat}: this game has {h.params.players} seats")
        self.header = h
        self.seat = seat
        self.cards = cards_for(h.params, cards)  # the mode's own set unless a house set of it is given
        self.torn = scan.torn  # bytes of a torn last record, ignored (as gamelog.read reports them)
        self.logged = len(scan.entries)  # entries in the file; ``n`` of them check out
        self.problem: str | None = None  # why entry n + 1 was not shown, when it was not
        self._states: list[State] = [new_game(h.params, h.seed, self.cards)]
        self._actions: list[Action | None] = [None]
        self._events: list[tuple] = [()]
        try:
            for _, action, state, events in reapply(self._states[0], scan.entries, self.cards, h):
                self._states.append(state)
                self._actions.append(action)
                self._events.append(events)
        except BadEntry as err:
            self.problem = str(err)
        self._turns = [s.turn.number if s.turn is not None else 0 for s in self._states]
        self.pos = 0
        self._closed = asyncio.Event()

    @classmethod
    def read(cls, path: str, seat: int | str | None, cards: CardSet | None = None) -> "ReplayTable":
        """Open the log at ``path`` (gamelog.LogCorrupt / OSError when it cannot be read) as
        ``seat``: a number, None, or an ``--as`` word (parse_seat; ValueError)."""
        scan = gamelog.read(path)
        if scan.header is None:
            raise gamelog.LogCorrupt(f"{path}: no header record")
        if isinstance(seat, str):
            seat = parse_seat(seat, scan.header.params.players)
        return cls(scan, seat, cards)

    # -- what the client reads ---------------------------------------------------------------
    @property
    def n(self) -> int:
        """The last entry that can be shown."""
        return len(self._states) - 1

    @property
    def state(self) -> State:  # type: ignore[override]
        return self._states[self.pos]

    def state_at(self, i: int) -> State:
        return self._states[i]

    def action_at(self, i: int) -> Action | None:
        """Entry ``i``'s action (None for 0, the new game)."""
        return self._actions[i]

    def events_at(self, i: int) -> tuple:
        return self._events[i]

    def applied(self, i: int) -> Applied:
        """Entry ``i`` (1..n) as the live table would have delivered it."""
        return Applied(i, self._actions[i], self._events[i], self._states[i])

    def turn_at(self, i: int) -> int:
        """The turn number after entry ``i`` (0 during setup)."""
        return self._turns[i]

    @property
    def last_turn(self) -> int:
        return self._turns[-1]

    # -- stepping ---------------------------------------------------------------------------------
    def seek(self, i: int) -> int:
        """Go to entry ``i`` (clamped to 0..n); returns where it went."""
        self.pos = max(0, min(self.n, i))
        return self.pos

    def turn_start(self, t: int) -> int | None:
        """The entry that begins turn ``t`` (the first whose state is in that turn or later; 0 for
        turn 0, setup), or None when the log ends before it."""
        return next((i for i, turn in enumerate(self._turns) if turn >= t), None)

    def next_turn(self, i: int) -> int:
        """The entry that begins the turn after entry ``i``'s, or the last entry."""
        now = self._turns[i]
        return next((j for j in range(i + 1, self.n + 1) if self._turns[j] > now), self.n)

    def previous_turn(self, i: int) -> int:
        """The start of entry ``i``'s turn, or of the turn before when ``i`` is that start."""
        start = self.turn_start(self._turns[i]) or 0
        if start < i or i == 0:
            return start
        return self.turn_start(self._turns[i - 1]) or 0

    # -- the Table contract ---------------------------------------------------------------------
    async def submit(self, action: Action) -> None:
        raise IllegalAction(READ_ONLY, "a replay shows a game already played")

    async def updates(self) -> AsyncIterator[Applied | Notice]:
        # Nothing arrives by itself: the person steps (ReplayModel).  Only the end is announced.
        await self._closed.wait()
        yield Notice("closed", None, "the replay was closed")

    async def close(self) -> None:
        self._closed.set()


class Replaying:
    """The replay's part of a client model (mixed in before the mode's Model): its view and log are
    those of entry ``seq``.  Stepping methods are what the replay's key bindings call (mq.tui.keys).

    ``latest_result`` is the mode's own rule for the combat panel's last fight (Quest's or
    Classic's), given by the concrete class."""

    replaying = True
    latest_result: Callable[[tuple | None, tuple], tuple | None]

    def __init__(self, table: ReplayTable, clock: Callable[[], float] = time.monotonic) -> None:
        self.table = table
        self.goto = ""  # the turn number being typed after g
        self._lines: list[tuple[LogLine, ...]] = [()]  # per entry, worded once, in order
        self._results: list[tuple | None] = [None]  # the combat panel's last result after each entry
        super().__init__(table.seat, table.state_at(0), table.cards, clock=clock)  # type: ignore[call-arg]
        self._opening = tuple(self.log)  # the greeting, before entry 1's lines
        if table.problem:
            self.banners.append(Banner("desync", None, f"the log stops checking out after entry "
                                                      f"{table.n} of {table.logged} ({table.problem})"))
        if table.torn:
            self.banners.append(Banner("info", None, f"{table.torn} bytes of a torn last record ignored"))
        self.seek_entry(table.pos)

    def _greeting(self) -> str:
        h = self.table.header
        whose = f"as {who(self.seat)} saw it" if self.seat is not None else "public information only"
        return (f"Replay of game {h.game.hex()}, {h.params.players} players, {self.table.n} entries: "
                f"{whose}. → steps; ? lists the keys.")

    def window_left(self, now: float | None) -> float | None:
        return None  # a replay has no clock: the game's windows closed long ago

    def explain(self, err: IllegalAction) -> None:
        if err.reason == READ_ONLY:
            self.say("This is a replay: nothing can be done in it.", "error")
        else:
            super().explain(err)

    # -- where it is ----------------------------------------------------------------------------------
    def seek_entry(self, i: int) -> None:
        """Show entry ``i`` (clamped): the seat's view after it and the log up to it."""
        i = self.table.seek(i)
        self._word_up_to(i)
        self.seq = i
        self.view = view(self.table.state, self.viewer)  # the full state goes no further
        self.last_result = self._results[i]
        self.log = deque(chain(self._opening, *self._lines[1:i + 1]), maxlen=LOG_LINES)
        self.log_back = 0
        self.message = ""
        self._over_banner()
        self._recompute()

    def _word_up_to(self, i: int) -> None:
        # The scribe remembers monsters as it goes, so it sees every entry once, in order.
        for k in range(len(self._lines), i + 1):
            item = self.table.applied(k)
            v = view(item.state, self.viewer)
            self._lines.append(tuple(self.scribe.lines(v, item.action, view_events(item.events, self.viewer))))
            self._results.append(type(self).latest_result(self._results[-1], item.events))

    def step_entry(self, k: int) -> None:
        """``k`` entries on (negative: back)."""
        target = self.seq + k
        if target < 0:
            self.say("This is the start of the game.")
        elif target > self.table.n:
            self.say(self._end_words())
        else:
            self.seek_entry(target)

    def step_turn(self, k: int) -> None:
        """The next turn's first entry (k > 0), or back to this turn's start or the previous one's."""
        target = self.table.next_turn(self.seq) if k > 0 else self.table.previous_turn(self.seq)
        if target == self.seq:
            self.say(self._end_words() if k > 0 else "This is the start of the game.")
        else:
            self.seek_entry(target)

    def _end_words(self) -> str:
        more = f"; the rest does not check out ({self.table.problem})" if self.table.problem else ""
        return f"This is the last entry ({self.table.n}){more}."

    # -- g: jump to a turn -------------------------------------------------------------------------
    def start_goto(self) -> None:
        self.goto = ""
        self.message = ""
        self.mode = GOTO

    def goto_type(self, digit: str) -> None:
        """A digit of the turn number ("" erases the last one)."""
        if not digit:
            self.goto = self.goto[:-1]
        elif len(self.goto) < 5:
            self.goto += digit

    def goto_jump(self) -> None:
        typed, self.goto, self.mode = self.goto, "", NORMAL
        if not typed:
            return
        turn = int(typed)
        target = self.table.turn_start(turn)
        if target is None:
            self.say(f"There is no turn {turn}: the log ends in turn {self.table.last_turn}.", "error")
        else:
            self.seek_entry(target)

    def goto_cancel(self) -> None:
        self.goto, self.mode = "", NORMAL

    def prompt(self) -> str:
        if self.mode == GOTO:
            return f"Go to turn: {self.goto}▏ (Enter jumps, Esc stays)"
        phase = " (setup)" if self.view.phase == SETUP else " · game over" if self.view.phase == OVER else ""
        return (f"Replay · entry {self.seq}/{self.table.n} · turn {self.table.turn_at(self.seq)}{phase}"
                " · ←→ step · [ ] turns · g jump · ? keys")


class ReplayModel(Replaying, Model):
    """A Quest game's replay."""

    latest_result = staticmethod(quest_model.latest_result)


def model_for(table: ReplayTable) -> Model:
    """The replay model of ``table``'s mode: Quest's, or the Classic client's with replaying mixed in."""
    if not is_classic(table.header.params):
        return ReplayModel(table)
    from mq.tui import classic_model

    class ClassicReplayModel(Replaying, classic_model.ClassicModel):
        """A Classic game's replay."""

        latest_result = staticmethod(classic_model.latest_result)

    return ClassicReplayModel(table)


def connect(table: ReplayTable, input=None, output=None):
    """The client on ``table`` (not yet running): mq.tui.app's, with the mode's replay model."""
    from mq.tui.app import connect as connect_client

    return connect_client(table, input=input, output=output, model=model_for(table))


async def run(table: ReplayTable, input=None, output=None) -> int:
    """Show the replay until the person quits; returns the exit code (0)."""
    return await connect(table, input=input, output=output).run()
