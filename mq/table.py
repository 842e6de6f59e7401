"""The client contract: what a terminal client (or any front end) talks to, and an in-process
implementation of it.

A *table* is one player's window onto a running game.  It holds the latest applied state,
accepts proposed actions for its seat, and streams what happened.  The LAN implementation lives in
``net/`` (same interface); :class:`LocalTable` runs the engine in this process with bots in every
other seat, for local games and for testing clients.  Front ends never change a state themselves:
they read ``table.state`` (through ``mq.rules.view`` for their seat) and call ``submit``.

Events delivered by :meth:`Table.updates`:
- :class:`Applied` — log entry ``seq`` was applied: the action, the engine events it caused, and
  the new state;
- :class:`Notice` — something about the table rather than the game: a peer went away or came
  back, a bot took a seat, a desync was detected, a chat line, the game closed.
"""
from __future__ import annotations

import abc
import asyncio
from dataclasses import dataclass
from typing import AsyncIterator

from mq.bots import choose
from mq.bots import classic as classic_bot
from mq.cards import load_default
from mq.classic import is_classic
from mq.rules import Action, IllegalAction, State, actors, legal_actions, step, view


@dataclass(frozen=True)
class Applied:
    seq: int
    action: Action
    events: tuple
    state: State


@dataclass(frozen=True)
class Notice:
    kind: str  # "away" | "back" | "bot" | "desync" | "chat" | "closed" | "info" | "lobby" (who sits where)
    seat: int | None
    text: str


class Table(abc.ABC):
    """One seat's (or a spectator's, ``seat is None``) connection to a game."""

    seat: int | None
    state: State

    @abc.abstractmethod
    async def submit(self, action: Action) -> None:
        """Propose an action for this seat.  Raises IllegalAction at once when the current state
        does not allow it; otherwise it is sent and shows up later as an :class:`Applied`."""

    _queues: list[asyncio.Queue]  # one per subscriber; implementations create the list

    def _publish(self, item: Applied | Notice) -> None:
        """Hand an update to every subscriber of :meth:`updates`."""
        for q in self._queues:
            q.put_nowait(item)

    async def updates(self) -> AsyncIterator[Applied | Notice]:
        """Everything that happens from now on, in order, until the table closes."""
        q: asyncio.Queue = asyncio.Queue()
        self._queues.append(q)
        try:
            while True:
                item = await q.get()
                yield item
                if isinstance(item, Notice) and item.kind == "closed":
                    return
        finally:
            self._queues.remove(q)

    async def say(self, text: str) -> None:
        """Send a chat line (tables without chat ignore it)."""

    def history(self) -> list[Applied | Notice]:
        """What happened at this table before now, in order: every entry so far (as ``updates``
        would have brought it) and then the chat lines heard; empty for a table that keeps none.
        A client that reads it and then ``updates`` without awaiting in between misses nothing and
        sees nothing twice (a player who rejoins, a host resumed from its log)."""
        return []

    def seats(self) -> tuple[tuple[str, bool], ...]:
        """Who sits in each seat: (name, played by a bot); empty when the table does not know."""
        return ()

    @abc.abstractmethod
    async def close(self) -> None:
        """Leave the table."""


class LocalTable(Table):
    """The engine in this process; bots play every seat except ``seat`` (all of them when None).

    ``bot_delay`` seconds pass before each bot action so a person can follow the game."""

    def __init__(self, state: State, seat: int | None, bot_delay: float = 0.0) -> None:
        self.state = state
        self.seat = seat
        self.seq = 0
        self.bot_delay = bot_delay
        classic = is_classic(state)
        self.cards = None if classic else load_default()  # (None: the Classic engine's default set)
        self._choose = classic_bot.choose if classic else choose
        self._queues: list[asyncio.Queue] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._closed = False

    def start(self) -> None:
        """Begin driving the bots (needs a running event loop)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._drive())

    async def submit(self, action: Action) -> None:
        if action.seat != self.seat:
            raise IllegalAction("seat/not-your-turn", "a table acts only for its own seat")
        self._apply(action)

    def _apply(self, action: Action) -> None:
        state, events = step(self.state, action, self.cards)
        self.state = state
        self.seq += 1
        self._publish(Applied(self.seq, action, events, state))
        self._wake.set()

    async def say(self, text: str) -> None:
        self._publish(Notice("chat", self.seat, text[:200]))

    def seats(self) -> tuple[tuple[str, bool], ...]:
        return tuple(("you", False) if s == self.seat else ("bot", True) for s in range(len(self.state.players)))

    def bot_seats_to_act(self) -> list[int]:
        return [s for s in actors(self.state) if s != self.seat]

    async def _drive(self) -> None:
        """Let bots act whenever the game waits for one of their seats."""
        while not self._closed:
            seats = self.bot_seats_to_act()
            if not seats or self.state.phase == "over":
                self._wake.clear()
                await self._wake.wait()
                continue
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            seats = self.bot_seats_to_act()  # the human may have acted meanwhile
            if seats and legal_actions(self.state, seats[0], self.cards):
                self._apply(self._choose(view(self.state, seats[0]), seats[0], self.cards))
            else:
                await asyncio.sleep(0)

    async def close(self) -> None:
        self._closed = True
        self._wake.set()
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        self._publish(Notice("closed", None, "the table was closed"))
