"""Pace benchmark: how long a person waits per round of bot turns in ``mq play`` at its default
settings (each bot peer thinks ``DEFAULT_DELAY`` before every action; interrupt windows wait up
to the host's window timer, 10 s), with auto-pass (A: the client passes every window for the
person at once) and without it (a person who does not answer: each window that waits for them
closes by its timer).

The game is ``mq play``'s own: seat 0 hosted in this process on 127.0.0.1 (no beacon), a bot peer
process in every other seat (mq.tui.cli.local_game).  Seat 0 plays instantly with the bot policy
on its own turn (a person's thinking is not the client's to speed up); the clock runs from seat
0's end of turn to the start of its next turn.  Figures: the median wait per round and per bot
action over the rounds, the windows that waited for seat 0, and the ratio without/with auto-pass.
Wall clock on a shared machine: the load average is printed with them.
"""
from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time

from mq.bots import choose
from mq.rules import is_over, view
from mq.rules.state import Stage

SEED = 7
PLAYERS = 4


def _window_waits_for(st, seat: int) -> bool:
    c = st.combat
    return c is not None and c.stage in (Stage.WINDOW, Stage.OUTCOME) and seat in c.waiting


async def _rounds(players: int, rounds: int, auto: bool, delay: float, peers) -> tuple[list[float], list[int], int]:
    """Per round: the seconds seat 0 waited and the bot actions in it; and the windows seat 0 was
    waited for (without auto-pass, each ran out its timer)."""
    from mq.tui.cli import local_game

    waits: list[float] = []
    actions: list[int] = []
    windows = 0
    async with local_game(players, SEED, delay, peers=peers) as game:
        table = game.table
        peer = table.peer
        wake = asyncio.Event()
        peer.subscribe(lambda item: wake.set())
        ended_at, seen, bot_actions, in_window = None, peer.seq, 0, False
        deadline = time.monotonic() + 240 * rounds
        while len(waits) < rounds and peer.phase == "game" and time.monotonic() < deadline:
            wake.clear()
            st = peer.state
            if peer.seq > seen:
                for e in peer.log.entries[seen:]:
                    if e.author != 0:
                        bot_actions += 1
                seen = peer.seq
            turn = st.turn.seat if st.turn is not None else None
            if ended_at is not None and turn == 0:  # our turn again: a round of bot turns is over
                waits.append(time.monotonic() - ended_at)
                actions.append(bot_actions)
                ended_at = None
            waiting = _window_waits_for(st, 0)
            if waiting and not in_window:
                windows += 1
            in_window = waiting
            if peer.my_turn() and not peer.outstanding and not is_over(st) and (auto or not waiting):
                action = choose(view(st, 0), 0, peer.cards)
                if action.kind == "end_turn" and turn == 0:
                    ended_at, bot_actions = time.monotonic(), 0
                await table.submit(action)
                continue
            try:
                await asyncio.wait_for(wake.wait(), 0.5)
            except asyncio.TimeoutError:
                pass
    return waits, actions, windows


def measure(rounds: int, auto: bool, players: int = PLAYERS) -> tuple[list[float], list[int], int]:
    from mq.tui.cli import DEFAULT_DELAY, can_fork, start_bot_peers

    peers = start_bot_peers(players, SEED, DEFAULT_DELAY, fork=can_fork())  # before any event loop
    return asyncio.run(_rounds(players, rounds, auto, DEFAULT_DELAY, peers))


def main(quick: bool = False) -> list[tuple[str, str]]:
    os.environ.setdefault("MQ_BEACON_ADDR", "127.0.0.1")
    rounds = 2 if quick else 4
    rows = [("load average (1 min) at the start", f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")]
    medians = {}
    for auto in (True, False):
        waits, actions, windows = measure(rounds, auto)
        if not waits:
            rows.append((f"auto-pass {'on' if auto else 'off'}", "no round completed"))
            continue
        medians[auto] = statistics.median(waits)
        per = [w / a for w, a in zip(waits, actions) if a]
        rows.append((f"{PLAYERS} players, auto-pass {'on' if auto else 'off'}: wait per round",
                     f"median {medians[auto]:.1f} s (min {min(waits):.1f}, max {max(waits):.1f}, {len(waits)} rounds)"))
        rows.append(("  per bot action", f"median {statistics.median(per):.2f} s" if per else "-"))
        rows.append(("  windows that waited for you", f"{windows}"))
    if len(medians) == 2:
        rows.append(("without / with auto-pass", f"{medians[False] / medians[True]:.2f}x"))
    return rows


if __name__ == "__main__":
    from bench.engine import print_table

    print_table(main("--quick" in sys.argv))
