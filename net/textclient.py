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


async def run(table: NetTable, host: bool, out=sys.stdout) -> None:  # noqa: C901
    peer = table.peer
    lines = _lines_from_stdin()
    narrator = Narrator(peer.cards)
    if host and peer.phase == "lobby":
        print("mq: waiting for players; press Enter to start (empty seats get bots)", file=out, flush=True)
    options: list = []
    prompted_at = -1

    async def stdin_loop() -> None:
        nonlocal options
        while True:
            line = await lines.get()
            if line is None:
                return
            if peer.phase == "lobby" and host:
                table.start()
                continue
            if line.startswith("/say "):
                await table.say(line[5:])
                continue
            if not line.isdigit() or not options:
                print("mq: type the number of an action, or /say TEXT", file=out, flush=True)
                continue
            i = int(line)
            if not 0 <= i < len(options):
                print("mq: no such option", file=out, flush=True)
                continue
            try:
                await table.submit(options[i])
            except IllegalAction as e:
                print(f"mq: not now ({e.reason})", file=out, flush=True)
            options = []

    reader = asyncio.get_running_loop().create_task(stdin_loop())
    try:
        async for item in table.updates():
            if isinstance(item, Applied):
                for text in narrator.lines(item.state, item.events):
                    print(text, file=out)
            elif isinstance(item, Notice):
                who = "" if item.seat is None or item.seat < 0 else f"{COLOURS[item.seat]}: "
                print(f"-- {who}{item.text}", file=out)
            seat = peer.seat
            if seat is not None and peer.my_turn() and not peer.outstanding and prompted_at != peer.seq:
                prompted_at = peer.seq
                options = list(legal_actions(peer.state, seat, peer.cards))
                print(f"== your move ({COLOURS[seat]}):", file=out)
                for i, a in enumerate(options):
                    print(f"  {i:2}  {a.kind} {' '.join(str(x) for x in a.args)}", file=out)
            out.flush()
    finally:
        reader.cancel()
        try:
            asyncio.get_running_loop().remove_reader(sys.stdin.fileno())
        except (ValueError, OSError):
            pass
