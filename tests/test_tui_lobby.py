"""The lobby screen (mq.tui.lobby): the table filling up and its options (Q-OPT), each player's
gender (Q-SETUP-3), shown to everyone before the start; the host changes the options and starts,
the joiners wait.  Driven for real: two peers on loopback, each lobby fed keys through a pipe."""
from __future__ import annotations

import asyncio

from drive import until
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from mq.tui import lobby
from net import options
from net.client import NetTable
from net.peer import Config, SeatInfo

RIGHT, LEFT, DOWN, UP = "\x1b[C", "\x1b[D", "\x1b[B", "\x1b[A"
SLOW = 20.0  # seconds a round trip between two lobbies may take on a loaded machine


def _text(lines) -> str:
    return "\n".join("".join(t for _, t in line) for line in lines)


def _seats(*kinds):
    return [SeatInfo(f"p{i}" if k == "peer" else "", k) for i, k in enumerate(kinds)]


def test_the_host_changes_the_options_and_a_joiner_only_their_gender():
    """Q-OPT, Q-SETUP-3: every row is the host's to change but a joiner's own gender."""
    opts = options.make(4, start=3, genders=("female", "male", "rolled", "rolled"))
    host = lobby.LobbyModel(0, True)
    host.update(_seats("peer", "peer", "open", "bot"), opts)
    assert [r[0] for r in host.rows()] == ["seats", "bots", "window_ms", "away", "away_s", "start", "mode", "packs", "gender"]
    assert all(r[3] for r in host.rows())
    words = {k: v for k, _, v, _ in host.rows()}
    assert words == {"seats": "4", "bots": "1", "window_ms": "10 s", "away": "wait for them",
                     "away_s": "60 s (when a bot plays for them)", "start": "3 Treasure + 3 DxM cards",
                     "mode": "Munchkin Quest (the board game)", "packs": "none (the packs are the card game's)",
                     "gender": "female"}
    assert host.change(1) == ("options", dict(opts, seats=5), (3,))
    host.row = 1  # bots: the last seats no player holds
    assert host.change(1) == ("options", opts, (2, 3))
    assert host.change(-1)[2] == ()
    host.row = 2
    assert host.change(-1)[1]["window_ms"] == 5000
    host.row = 5
    assert host.change(1)[1]["start"] == 4
    assert host.genders() == ("female", "male", "rolled", "rolled")  # a bot's gender is rolled

    guest = lobby.LobbyModel(1, False)
    guest.update(_seats("peer", "peer", "open", "bot"), opts)
    guest.first_row()
    assert guest.rows()[guest.row][0] == "gender" and guest.change(1) == ("gender", "female")
    guest.row = 5
    assert guest.change(1) is None and guest.note == "Starting hand: the host chooses it"
    assert "Waiting for the host to start the game" in guest.hint()

    watcher = lobby.LobbyModel(None, False)
    watcher.update(_seats("peer", "peer"), options.make(2))
    assert "gender" not in [r[0] for r in watcher.rows()]


def test_the_host_chooses_quest_classic_or_classic_epic_with_its_starting_hand():
    """C-OPT-3, C-OPT-2, Q-OPT-3: the Game row steps Quest -> Classic -> Classic Epic, each with its
    own starting hands; the engine accepts every options it offers."""
    host = lobby.LobbyModel(0, True)
    host.update(_seats("peer", "open"), options.make(2))
    host.row = [r[0] for r in host.rows()].index("mode")
    _, classic, _ = host.change(1)
    assert (classic["mode"], classic["epic"], classic["start"]) == ("classic", 0, 4)
    host.update(host.seats, classic)
    words = {k: v for k, _, v, _ in host.rows()}
    assert words["mode"] == "Classic (the card game)" and words["start"] == "4 Door + 4 Treasure cards"
    _, epic, _ = host.change(1)
    assert (epic["mode"], epic["epic"]) == ("classic", 1)
    host.update(host.seats, epic)
    assert {k: v for k, _, v, _ in host.rows()}["mode"] == "Classic Epic (the card game to level 20)"
    host.row = [r[0] for r in host.rows()].index("start")
    assert host.change(-1)[1]["start"] == 2
    host.row = [r[0] for r in host.rows()].index("mode")
    _, quest, _ = host.change(1)  # round again: Quest, with Quest's starting hand
    assert (quest["mode"], quest["epic"], quest["start"]) == ("quest", 0, 3)
    for opts in (classic, epic, quest):
        assert options.params(opts).mode == opts["mode"]


def test_the_host_chooses_packs_for_the_card_game_only():
    """C-OPT-4: the Packs row steps none -> each pack -> all, in Classic only (Quest says why and
    changes nothing); choosing Quest drops them; the engine accepts every choice it offers."""
    from mq.cards.classic_packs import NAMES

    host = lobby.LobbyModel(0, True)
    host.update(_seats("peer", "open"), options.make(2))
    host.row = [r[0] for r in host.rows()].index("packs")
    assert host.change(1) is None and "choose Classic first" in host.note
    assert {k: v for k, _, v, _ in host.rows()}["packs"].startswith("none")
    host.update(host.seats, options.make(2, mode="classic"))
    seen = []
    for _ in range(len(lobby.PACK_CHOICES)):
        _, opts, _ = host.change(1)
        host.update(host.seats, opts)
        seen.append(options.params(opts).packs)
        assert {k: v for k, _, v, _ in host.rows()}["packs"] == (", ".join(seen[-1]) or "none")
    assert seen[-2] == NAMES and seen[-1] == () and set(seen) == set(lobby.PACK_CHOICES)
    _, opts, _ = host.change(-1)
    assert options.packs(opts) == NAMES
    host.update(host.seats, opts)
    host.row = [r[0] for r in host.rows()].index("mode")
    _, epic, _ = host.change(1)
    assert options.params(epic).packs == NAMES and options.params(epic).epic  # Classic Epic keeps them
    host.update(host.seats, epic)
    _, quest, _ = host.change(1)
    assert "packs" not in quest and options.params(quest).mode == "quest"


def test_mq_plays_lobby_keeps_its_seats_and_marks_its_bot_peers():
    local = lobby.LobbyModel(0, True, 0, local=True, known_bots=frozenset({1, 2}))
    local.update(_seats("peer", "peer", "peer"), options.make(3, away="bot", away_s=3))
    local.first_row()
    assert local.rows()[local.row][0] == "window_ms"
    local.row = 0
    assert local.change(1) is None and "mq play sets it" in local.note
    assert dict((k, v) for k, _, v, _ in local.rows())["bots"] == "2"
    text = _text(lobby.render(local, 80, 24))
    assert "Green   a bot" in text and "p1" not in text and "rolled at the start" in text


def test_the_lobby_fits_80x24_and_names_everyone():
    m = lobby.LobbyModel(1, False)
    m.update([SeatInfo("ann", "peer"), SeatInfo("bob", "peer"), SeatInfo(), SeatInfo("", "bot")],
             options.make(4, genders=("female", "male", "rolled", "rolled")))
    m.news.extend(f"news {i}" for i in range(10))
    lines = lobby.render(m, 80, 24)
    assert len(lines) == 24 and all(sum(len(t) for _, t in ln) <= 80 for ln in lines)
    text = _text(lines)
    for words in ("Red     ann (host)", "Green   bob (you)", "Blue    open seat", "Yellow  a bot", "female",
                  "Starting hand", "news 9", "Waiting for the host to start the game"):
        assert words in text, words


def test_the_host_sees_how_friends_join_and_the_joiners_never_see_the_code():
    """A host at a LAN party reads the join command off the lobby screen (the code is printed
    before the screen opens, which then covers it); a joiner's screen never shows the code."""
    host = lobby.LobbyModel(0, True)
    from net.discovery import Interface

    host.joining = lobby.joining_words("ABCD-EFGH", 47400, interfaces=[])
    host.update(_seats("peer", "open"), options.make(2))
    text = _text(lobby.render(host, 80, 24))
    assert "mq join <this machine's address>:47400 --code ABCD-EFGH" in text
    # the address it listens on: the one bound, else this machine's network addresses, loopback left out
    assert "mq join 127.0.0.1:47400 --code ABCD-EFGH" in lobby.joining_words("ABCD-EFGH", 47400, "127.0.0.1")
    lan = [Interface("lo", "127.0.0.1", "", loopback=True, up=True),
           Interface("wlan0", "192.168.1.20", "192.168.1.255", loopback=False, up=True),
           Interface("eth1", "10.0.0.7", "10.0.0.255", loopback=False, up=True),
           Interface("eth2", "10.9.9.9", "", loopback=False, up=False)]
    words = lobby.joining_words("ABCD-EFGH", 47400, "0.0.0.0", lan)
    assert words.splitlines()[1:] == ["  mq join 192.168.1.20:47400 --code ABCD-EFGH", "  (or 10.0.0.7 in place of 192.168.1.20)"]
    guest = lobby.LobbyModel(1, False)
    guest.update(_seats("peer", "peer"), options.make(2))
    assert "--code" not in _text(lobby.render(guest, 80, 24))


def test_a_lan_lobby_host_and_joiner_choose_and_everyone_sees_it(tmp_path):
    """Q-OPT, Q-SETUP-3 over loopback: the host adds a seat and deals 4 + 4, the joiner chooses
    female; both screens show it all; a change the table cannot take is refused in words; Enter
    starts the game for both, with exactly those parameters."""
    async def main():
        host = await NetTable.host(Config(name="ann", gender="male", log_path=str(tmp_path / "h.mqlog")), seats=2)
        guest = await NetTable.join(Config(name="bob", log_path=str(tmp_path / "g.mqlog")), "127.0.0.1",
                                    host.peer.port)
        with create_pipe_input() as hin, create_pipe_input() as gin:
            h = asyncio.create_task(lobby.run(host, input=hin, output=DummyOutput()))
            g = asyncio.create_task(lobby.run(guest, input=gin, output=DummyOutput()))
            await asyncio.sleep(0.3)
            hin.send_text(RIGHT)  # Players: 3
            await until(lambda: guest.lobby[1].get("seats") == 3, SLOW)
            hin.send_text(DOWN * 5 + RIGHT)  # Starting hand: 4 + 4
            gin.send_text(RIGHT)  # the guest's only row, its gender: rolled -> male
            # The guest's next key steps from what its own screen shows: wait until the host's answer is
            # back there too, or a stale "rolled" there would make the next key step from the wrong value.
            await until(lambda: guest.lobby[1].get("start") == 4 and options.genders(guest.lobby[1])[1] == "male", SLOW)
            gin.send_text(LEFT)  # male -> rolled
            await until(lambda: options.genders(guest.lobby[1])[1] == "rolled", SLOW)
            gin.send_text(LEFT)  # rolled -> female
            await until(lambda: options.genders(host.peer.opts)[1] == "female", SLOW)
            hin.send_text(UP * 5 + LEFT + LEFT)  # Players: 2, then 2 again (the engine's least)
            await until(lambda: guest.lobby[1].get("seats") == 2, SLOW)
            assert [s.kind for s in guest.lobby[0]] == ["peer", "peer"]
            hin.send_text("\r")
            assert await asyncio.wait_for(h, 20) is None and await asyncio.wait_for(g, 20) is None
        params = guest.peer.header.params
        assert params.players == 2 and params.genders == ("male", "female") and params.start_treasure == 4
        for t in (guest, host):
            await t.close()

    asyncio.run(main())


def test_a_change_the_table_cannot_take_is_refused_in_words(tmp_path):
    """The engine (or the seating) refuses, in words, and nothing changes: too few seats, a bot in
    a player's seat, fewer seats than the players sitting."""
    async def main():
        host = await NetTable.host(Config(name="ann", log_path=str(tmp_path / "h.mqlog")), seats=3)
        guests = [await NetTable.join(Config(name=f"g{i}", log_path=str(tmp_path / f"g{i}.mqlog")), "127.0.0.1",
                                      host.peer.port) for i in range(2)]
        await until(lambda: host.peer.open_seats() == 0)
        before = (list(host.peer.seats), dict(host.peer.opts))
        for opts, bots, words in ((dict(host.peer.opts, seats=1), (), "2 to 6"),
                                  (dict(host.peer.opts, seats=2), (), "Blue is a player's seat"),
                                  (dict(host.peer.opts), (1,), "no player holds"),
                                  (dict(host.peer.opts, start=5), (), "3 or 4")):
            try:
                host.set_options(opts, bots)
            except Exception as err:
                assert words in (getattr(err, "detail", "") or str(err)), err
            else:
                raise AssertionError(f"{opts} {bots} were taken")
        assert (list(host.peer.seats), dict(host.peer.opts)) == before
        with create_pipe_input() as hin:
            h = asyncio.create_task(lobby.run(host, input=hin, output=DummyOutput()))
            await asyncio.sleep(0.3)
            hin.send_text(LEFT)  # Players 3 -> 2: Blue is a player's, so nothing changes
            await asyncio.sleep(0.3)
            assert (list(host.peer.seats), dict(host.peer.opts)) == before
            hin.send_text("q")
            assert await asyncio.wait_for(h, 5) == 0  # leaving the lobby: exit code 0
        for t in (*guests, host):
            await t.close()

    asyncio.run(main())
