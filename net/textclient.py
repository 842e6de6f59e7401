"""A plain line-mode front end for ``mq host`` / ``mq join`` without ``--headless``, until the
full-screen client (mq/tui) switches to NetTable: it narrates what happens (public information
only) and, when the game waits for your seat, lists your legal actions by number and reads one.

It talks to the game only through the mq.table contract (NetTable), like any front end."""
from __future__ import annotations

import asyncio
import sys

from mq.narrate import Narrator
from mq.rules import IllegalAction, legal_actions
from mq.rules.state import COLOURS
from mq.table import Applied, Notice
from net.client import NetTable


def _lines_from_stdin() -> asyncio.Queue:
    q: asyncio.Queue = asyncio.Queue()
    loop = asyncio.get_running_loop()

    def readable() -> None:
        line = sys.stdin.readline()
        if not line:
            loop.remove_reader(sys.stdin.fileno())
            q.put_nowait(None)
        else:
            q.put_nowait(line.strip())

    loop.add_reader(sys.stdin.fileno(), readable)
    return q


class _Session:
    """What the front end holds between lines: the numbered actions it offered last, and the
    entry it offered them after."""

    def __init__(self, table: NetTable, host: bool, out) -> None:
        self.table, self.peer, self.host, self.out = table, table.peer, host, out
        self.narrator = Narrator(self.peer.cards)
        self.options: list = []
        self.prompted_at = -1

    def _tell(self, text: str) -> None:
        print(f"mq: {text}", file=self.out, flush=True)

    async def answer(self, line: str) -> None:
        """A line typed: Enter starts the game (the host, in the lobby), ``/say TEXT`` chats, a
        number plays the action offered under it."""
        if self.peer.phase == "lobby" and self.host:
            self.table.start()
            return
        if line.startswith("/say "):
            await self.table.say(line[5:])
            return
        if not line.isdigit() or not self.options:
            return self._tell("type the number of an action, or /say TEXT")
        i = int(line)
        if not 0 <= i < len(self.options):
            return self._tell("no such option")
        try:
            await self.table.submit(self.options[i])
        except IllegalAction as e:
            self._tell(f"not now ({e.reason})")
        self.options = []

    def show(self, item) -> None:
        """An update: narrate it (public information only); offer our legal actions by number
        when the game waits for our seat and we have not offered them since the last entry."""
        out, peer = self.out, self.peer
        if isinstance(item, Applied):
            for text in self.narrator.lines(item.state, item.events):
                print(text, file=out)
        elif isinstance(item, Notice):
            who = "" if item.seat is None or item.seat < 0 else f"{COLOURS[item.seat]}: "
            print(f"-- {who}{item.text}", file=out)
        seat = peer.seat
        if seat is not None and peer.my_turn() and not peer.outstanding and self.prompted_at != peer.seq:
            self.prompted_at = peer.seq
            self.options = list(legal_actions(peer.state, seat, peer.cards))
            print(f"== your move ({COLOURS[seat]}):", file=out)
            for i, a in enumerate(self.options):
                print(f"  {i:2}  {a.kind} {' '.join(str(x) for x in a.args)}", file=out)
        out.flush()


async def run(table: NetTable, host: bool, out=sys.stdout) -> None:
    session = _Session(table, host, out)
    lines = _lines_from_stdin()
    if host and table.peer.phase == "lobby":
        print("mq: waiting for players; press Enter to start (empty seats get bots)", file=out, flush=True)

    async def stdin_loop() -> None:
        while (line := await lines.get()) is not None:
            await session.answer(line)

    reader = asyncio.get_running_loop().create_task(stdin_loop())
    try:
        async for item in table.updates():
            session.show(item)
    finally:
        reader.cancel()
        try:
            asyncio.get_running_loop().remove_reader(sys.stdin.fileno())
        except (ValueError, OSError):
            pass
