"""The running client driven by keys through a pipe (prompt_toolkit's create_pipe_input and
DummyOutput): keys become the right submitted actions, illegal ones are explained without
changing the game, the help lists every binding, chat and quitting work."""
from __future__ import annotations

import asyncio
import math

import drive
from builders import WALL, N, fresh_turn, hand, set_player, started, treasure_card
from drive import until

from mq.rules import Action, actors, make_params, new_game
from mq.table import LocalTable, Notice, Table
from mq.tui import keys as keymod
from mq.tui import render
from mq.tui.app import connect
from mq.tui.model import CHAT, HELP, MENU, NORMAL, QUIT

UP, DOWN, ESC, CTRL_C = "\x1b[A", "\x1b[B", "\x1b", "\x03"
LEVEL_CARD = treasure_card(lambda d: d.kind == "level")


class FakeTable(Table):
    """Records what the client submits and says; updates are whatever the test puts in."""

    def __init__(self, state, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.submitted: list[Action] = []
        self.said: list[str] = []
        self.closed = False
        self.queue: asyncio.Queue = asyncio.Queue()

    async def submit(self, action):
        self.submitted.append(action)

    async def updates(self):
        while True:
            item = await self.queue.get()
            yield item

    async def say(self, text):
        self.said.append(text)

    async def close(self):
        self.closed = True


def running(table):
    return drive.running(connect, table)


def my_turn(seat: int = 0, players: int = 4):
    s = fresh_turn(started(players, 7), seat)
    return hand(s.replace(players=tuple(p.replace(hand=()) for p in s.players)), seat, LEVEL_CARD)


def test_keys_submit_the_matching_actions():
    async def main():
        table = FakeTable(my_turn(), 0)
        async with running(table) as (send, client):
            m = client.model
            for keys, want in [("s", Action(0, "search")), ("p", Action(0, "pickup")),
                               ("e", Action(0, "end_turn")), (UP, Action(0, "move", (N,))),
                               ("l", Action(0, "move", (1,))), ("j", Action(0, "move", (2,))),
                               ("h", Action(0, "move", (3,))), ("K", Action(0, "dash", (N,))),
                               ("r", Action(0, "roll")), (" ", Action(0, "pass")),
                               (".", Action(0, "pass")), ("f", Action(0, "summon")),
                               ("1", m.menu()[0].action), ("3", m.menu()[2].action),
                               ("\t\r", Action(0, "play", (LEVEL_CARD,)))]:
                await send(keys)
                assert table.submitted[-1] == want, keys
            assert len(table.submitted) == 15
            # the menu: a opens it, j moves down, Enter does the entry under the cursor
            await send("aj")
            assert m.mode == MENU and m.menu_cursor == 1
            await send("\r")
            assert table.submitted[-1] == m.menu()[1].action and m.mode == NORMAL
            await send("a" + ESC)
            assert m.mode == NORMAL and len(table.submitted) == 16
        assert table.closed and client.result == 0

    asyncio.run(main())


def test_an_illegal_key_is_explained_and_changes_nothing():
    s = set_player(my_turn(), 0, gold=0)  # no gold to give away: a short menu
    entrance = s.rooms[0].replace(sides=(WALL, 0, 0, 0))
    s = s.replace(rooms=(entrance,) + s.rooms[1:])

    async def main():
        table = LocalTable(s, seat=0)
        async with running(table) as (send, client):
            m = client.model
            await send("k")
            assert m.message == "A wall is in the way." and m.message_kind == "error"
            assert "A wall is in the way." in render.plain(render.render_status(m, 80))
            assert table.state is s and table.seq == 0
            await send("p")
            assert m.message == "There is nothing to pick up here."
            await send(" ")
            assert m.message_kind == "error" and table.state is s
            await send("x")  # an unbound key does nothing
            await send(ESC)
            assert m.message == ""
            beyond = len(m.menu()) + 1
            assert beyond <= 9, "the test position offers too many actions"
            await send(str(beyond))
            assert m.message == f"There is no action {beyond} on the menu." and table.state is s

    asyncio.run(main())


def test_help_lists_every_binding():
    async def main():
        table = FakeTable(my_turn(), 0)
        async with running(table) as (send, client):
            keys = client.keys
            documented = {h.handler for h in keys.help}
            assert all(b.handler in documented for b in keys.kb.bindings)
            assert len({b.handler for b in keys.kb.bindings}) == len(keys.help)
            text = render.plain(render.render_help(keymod.help_sections(keys), 200, 100))
            for h in keys.help:
                assert h.doc in text and " ".join(h.keys) in text, h.doc
            assert "Playing faster" in text and "mq play --delay 0.1" in text  # how to wait less (issue 12)
            await send("?")
            assert client.model.mode == HELP
            await send("j")
            assert client.model.mode == HELP  # j scrolls
            await send("x")
            assert client.model.mode == NORMAL and table.submitted == []

    asyncio.run(main())


def test_chat_and_banners():
    async def main():
        table = FakeTable(my_turn(), 0)
        async with running(table) as (send, client):
            m = client.model
            await send("t")
            assert m.mode == CHAT
            await send("hello there\r")
            assert table.said == ["hello there"] and m.mode == NORMAL
            await send("t" + "never mind")
            await send(ESC)
            assert table.said == ["hello there"] and m.mode == NORMAL
            assert table.submitted == []  # typing never acted on the game
            await table.queue.put(Notice("chat", 2, "hi Red"))
            await table.queue.put(Notice("desync", None, "state hash mismatch at seq 4"))
            await until(lambda: len(m.banners) == 1)
            assert "<Blue> hi Red" in render.plain(render.render_log(m, 80, 6))
            assert "DESYNC" in render.plain(render.render_banners(m, 80, 1))

    asyncio.run(main())


def test_quitting_asks_first_and_ctrl_c_quits_at_once():
    async def main():
        table = FakeTable(my_turn(), 0)
        async with running(table) as (send, client):
            await send("q")
            assert client.model.mode == QUIT
            await send("n")
            assert client.model.mode == NORMAL and client.app.is_running
            await send("qy")
            await until(lambda: not client.app.is_running)
        assert client.result == 0 and table.closed
        table = FakeTable(my_turn(), 0)
        async with running(table) as (send, client):
            await send(CTRL_C)
            await until(lambda: not client.app.is_running)
        assert client.result == 130  # the command exits as an interrupted one does

    asyncio.run(main())


def test_a_local_game_goes_on_with_keys_and_the_panels_follow():
    """Seat 0 of a LocalTable with bots: ready with `e`, then a move key once it is our turn; the
    map, the players panel and the log all change."""
    async def main():
        table = LocalTable(new_game(make_params(4), 3), seat=0, bot_delay=0)
        async with running(table) as (send, client):
            m = client.model
            await until(lambda: all(p.ready for p in m.view.players[1:]))
            await send("eA")  # ready; and pass the bots' interrupt windows by ourselves
            assert m.auto_pass

            def our_move() -> bool:
                return (m.view.phase == "turn" and actors(m.view) == (0,) and m.view.combat is None
                        and m.view.pending is None and any(a.kind == "move" for a in m.legal))

            for _ in range(50):  # a bot may also ask us for help: Space refuses
                await until(lambda: our_move() or (actors(m.view) == (0,) and m.view.combat is not None
                                                   and m.view.combat.stage == "help"))
                if our_move():
                    break
                await send(" ")
            assert our_move()
            players_before = render.plain(render.render_players(m, 60, 9))
            map_before = render.plain(render.render_map(m, 70, 25))
            rooms = len(m.view.rooms)
            move = next(a for a in m.legal if a.kind == "move")
            key = "kljh"[move.args[0]]
            await send(key)
            await until(lambda: m.view.players[0].room != 0 or len(m.view.rooms) > rooms)
            assert render.plain(render.render_map(m, 70, 25)) != map_before
            assert render.plain(render.render_players(m, 60, 9)) != players_before
            assert any(("Red explores" in ln.text or "Red moves" in ln.text) for ln in m.log)
            await send("v")
            assert m.show_reach

    asyncio.run(main())


def test_a_local_window_counts_down_and_the_screen_redraws_by_itself():
    """A LocalTable game whose fight waits for Red's window: the bots pass at once, the combat
    panel counts down from the app's clock, and the client redraws as the seconds pass although
    no update arrives."""
    from mq.bots import choose
    from mq.rules import step, view

    s = new_game(make_params(4, window_ms=2500), 1)
    for _ in range(5000):  # the first window that waits for Red among others
        if s.combat is not None and s.combat.stage == "window" and 0 in s.combat.waiting \
                and len(s.combat.waiting) > 1:
            break
        seat = actors(s)[0]
        s = step(s, choose(view(s, seat), seat))[0]
    assert 0 in s.combat.waiting and len(s.combat.waiting) > 1

    async def main():
        table = LocalTable(s, seat=0, bot_delay=0)
        async with running(table) as (send, client):
            m = client.model
            await until(lambda: m.view.combat.waiting == (0,))  # the bots never wait
            now = m.clock()
            left = m.window_left(now)
            assert 0 < left <= 2.5  # counted from when this client saw the window open
            panel = render.plain(render.render_combat(m, 60, 12, now=now))
            assert f"closes in {math.ceil(left)} s" in panel, panel  # whatever the load made of the seconds
            seq = table.seq
            redraws = []  # (the clock, the entry shown) at each redraw
            client.redraw = lambda: redraws.append((m.clock(), table.seq))
            # A redraw comes by itself within the window's time (the tick), bounded by what is left
            # of it and a margin for a loaded machine; the window may close meanwhile, not before.
            await until(lambda: redraws or table.seq != seq, timeout=left + 5)
            assert redraws and redraws[0][1] == seq, redraws  # the tick, not an update

    asyncio.run(main())


def test_a_move_sent_while_no_host_is_reachable_says_it_waits():
    """A LAN table that has lost its host keeps a move and sends it once a host is reachable
    (net.client.NetTable.waiting_for_host): the status line says so instead of nothing."""

    class HostGone(LocalTable):
        waiting_for_host = True
        sent: list = []

        async def submit(self, action):
            self.sent.append(action)  # kept, not applied: no host numbers it

    s = my_turn()

    async def main():
        for table, said in ((HostGone(s, seat=0), True), (LocalTable(s, seat=0), False)):
            async with running(table) as (send, client):
                await send("e")
                m = client.model
                assert ("no host is reachable" in m.message) == said, m.message
        assert [a.kind for a in HostGone.sent] == ["end_turn"]

    asyncio.run(main())
