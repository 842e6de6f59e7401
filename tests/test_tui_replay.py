"""Replays in the client (mq.tui.replay, ``mq replay LOG --as SEAT|table``): a real game log
opened with the client's own Model and keys (pipe input, DummyOutput), stepped forward, back and
by turns; the map and the log follow; a seat sees only its own hand and the table no hand at all;
nothing can be submitted; a log that stops checking out is shown up to its last good entry."""
from __future__ import annotations

import asyncio
import contextlib

import drive
import pytest
from builders import CARDS
from signed import Players

from mq.bots import choose
from mq.rules import Action, IllegalAction, actors, make_params, new_game, state_hash, step, view
from mq.rules.actions import encode
from mq.rules.view import HIDDEN
from mq.tui import keys as keymod
from mq.tui import render, replay
from mq.tui.model import GOTO, NORMAL, Model
from net import cli as net_cli
from net import gamelog, identity

RIGHT, LEFT, PGUP, PGDN, HOME, END = "\x1b[C", "\x1b[D", "\x1b[5~", "\x1b[6~", "\x1b[H", "\x1b[F"
PLAYERS = 3
NONCE = 4  # the nonces 0x04.., 0x05.., 0x06.. give a whole bot game (some hundreds of entries, 20 turns)


def write_log(path: str, stop: int | None = None, bad_at: int | None = None, params=None, cards=CARDS) -> int:
    """A bot game written with net.gamelog as a sequencer writes it: header, then one entry per
    action with the state hash after it.  ``stop``: a saved game, cut after that many entries;
    ``bad_at``: that entry records a wrong hash; ``params``: a Quest game of PLAYERS by default
    (``cards`` the set of its mode).  Returns the number of entries."""
    params = params or make_params(PLAYERS)
    nonces = [bytes([NONCE + i]) * 32 for i in range(params.players)]
    # Seat 0 a player (its peer sequences and signs), the others the table's bots.
    players = Players({0: "00" * 32})
    roster = [["p0", identity.public_id("00" * 32), "peer"]] + [[f"bot{i}", "", "bot"]
                                                                for i in range(1, params.players)]
    header = gamelog.decode_header(gamelog.encode_header(
        b"replay!!", gamelog.seed_from(nonces), params, nonces, roster, players.row(params.players)))
    log = gamelog.GameLog.create(path)
    log.write_header(header)
    s = new_game(params, header.seed, cards)
    n = 0
    while actors(s) and (stop is None or n < stop):
        seat = actors(s)[0]
        a = choose(view(s, seat), seat, cards)
        s, _ = step(s, a, cards)
        n += 1
        h = state_hash(s) ^ (1 if n == bad_at else 0)
        log.append(gamelog.decode_entry(players.entry(header.game, n, a.seat if a.seat == 0 else -1, encode(a), h,
                                                      log.last_id, 8)))
    log.sync()
    log.close()
    return n


@pytest.fixture(scope="module")
def game_log(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("replay") / "game.mqlog")
    return path, write_log(path)


def running(table):
    """The replay client on ``table`` (drive.running)."""
    return drive.running(replay.connect, table)


def status(m) -> str:
    return render.plain(render.render_status(m, 120))


def map_text(m) -> str:
    return render.plain(render.render_map(m, 70, 25))


def log_texts(m) -> list[str]:
    return [ln.text for ln in m.log if ln.kind != "info"]  # the greetings differ, the game does not


def test_the_table_re_applies_and_checks_the_whole_log(game_log):
    path, n = game_log
    table = replay.ReplayTable.read(path, "table")
    assert table.seat is None and table.n == table.logged == n and table.problem is None
    assert state_hash(table.state_at(n)) == gamelog.read(path).entries[-1].hash
    assert table.state_at(n).phase == "over" and table.last_turn == table.state_at(n).turn.number > 1
    assert table.state is table.state_at(0) and table.turn_at(0) == 0
    turns = [table.turn_at(i) for i in range(n + 1)]
    assert turns == sorted(turns)
    start = table.turn_start(5)
    assert table.turn_at(start) == 5 and table.turn_at(start - 1) == 4
    assert table.turn_start(table.last_turn + 1) is None
    assert replay.ReplayTable.read(path, "green").seat == 1 and replay.ReplayTable.read(path, "2").seat == 2
    for bad in ("3", "purple", "-1"):
        with pytest.raises(ValueError):
            replay.ReplayTable.read(path, bad)


def test_a_replay_accepts_no_action(game_log):
    table = replay.ReplayTable.read(game_log[0], "1")

    async def main():
        legal = Model(1, table.state).legal[0]
        for a in (legal, Action(1, "end_turn"), Action(0, "ready")):
            with pytest.raises(IllegalAction) as err:
                await table.submit(a)
            assert err.value.reason == replay.READ_ONLY
        assert table.pos == 0 and table.state is table.state_at(0)

    asyncio.run(main())


def test_keys_step_forward_back_by_turn_and_jump(game_log):
    path, n = game_log
    table = replay.ReplayTable.read(path, "1")

    async def main():
        async with running(table) as (send, client):
            m = client.model
            assert status(m).startswith(f" Replay · entry 0/{n} · turn 0")
            start_map, start_log = map_text(m), log_texts(m)
            await send("l")
            assert m.seq == 1 and table.pos == 1 and f"entry 1/{n}" in status(m)
            await send(RIGHT + RIGHT)
            assert m.seq == 3
            await send("h" + LEFT)
            assert m.seq == 1
            await send(LEFT)
            assert m.seq == 0 and map_text(m) == start_map and log_texts(m) == start_log
            await send(LEFT)
            assert m.seq == 0 and "start of the game" in status(m)

            await send("]")
            t1 = table.turn_start(1)
            assert m.seq == t1 and "turn 1" in status(m) and m.view.turn.number == 1
            assert any(ln.kind == "turn" and "Turn 1" in ln.text for ln in m.log)
            await send(PGDN)
            assert m.seq == table.turn_start(2)
            await send(RIGHT + "[")  # inside turn 2: back to its start
            assert m.seq == table.turn_start(2)
            await send(PGUP)  # at its start: the turn before
            assert m.seq == t1

            await send("g1")
            assert m.mode == GOTO and "Go to turn: 1" in status(m)
            await send("2\x7f5\r")  # 12, backspace, 15
            assert m.mode == NORMAL and m.seq == table.turn_start(15) and "turn 15" in status(m)
            # the map shows the dungeon of turn 15: the rooms explored by then, the munchkins there
            s15 = table.state_at(m.seq)
            assert len(m.view.rooms) == len(s15.rooms) > len(table.state_at(0).rooms)
            assert map_text(m) != start_map
            assert [p.room for p in m.view.players] == [p.room for p in s15.players]
            await send("g99\r")
            assert m.seq == table.turn_start(15) and "no turn 99" in status(m)

            await send(END)
            assert m.seq == n and "game over" in status(m)
            assert any(b.kind == "over" for b in m.banners)
            assert "the Boss and win" in " ".join(log_texts(m))
            await send("l")
            assert m.seq == n and "last entry" in status(m)
            await send(HOME)
            assert m.seq == 0 and not any(b.kind == "over" for b in m.banners)
            assert map_text(m) == start_map and log_texts(m) == start_log

            # nothing in a replay acts on the game: the play keys are not bound at all
            await send("s e r a1\r")
            assert m.seq == 0 and table.pos == 0 and m.mode == NORMAL
        assert client.result == 0

    asyncio.run(main())


def panels(m) -> list[str]:
    """The panels a replay shares with the live client (its titles, status, chat and action
    numbers differ on purpose): the map, the fight, the players, the hand's cards."""
    return [render.plain(render.render_map(m, 70, 25)), render.plain(render.render_combat(m, 70, 12)),
            render.plain(render.render_players(m, 50, 7)), render.plain(render.render_hand(m, 50, 16)[1:])]


def test_the_replay_shows_what_a_live_client_showed_at_every_entry(game_log):
    """Forward, back and jumping, the log and the panels at entry i are those of a live client of
    the same seat that received entries 1..i."""
    path, n = game_log
    table = replay.ReplayTable.read(path, "2")
    m = replay.ReplayModel(table)
    live = Model(2, table.state_at(0))
    shown = {}
    for i in range(1, n + 1):
        live.update(table.applied(i))
        if i % 37 == 0 or i == n:
            shown[i] = (log_texts(live), panels(live))
    for i in list(shown)[::-1] + list(shown):  # backwards from the end, then forwards again
        m.seek_entry(i)
        log, screen = shown[i]
        assert log_texts(m) == log, i
        assert panels(m) == screen, i


def _public(table, upto: int, me: int | None) -> set[str]:
    """Names any seat (or ``me``) may know by entry ``upto``: cards shown by events (a face-down
    draw only to its drawer, charity only to its two seats), discards, piles, cards in play."""
    known: set[str] = set()
    for i in range(1, upto + 1):
        for e in table.events_at(i):
            if e.kind == "draw":
                if e.public or e.seat == me:
                    known.add(e.card)
            elif e.kind == "charity":
                if me in (e.seat, e.to):
                    known.add(e.card)
            else:
                for x in e[1:]:
                    if isinstance(x, str):
                        with contextlib.suppress(KeyError):
                            CARDS.card(x)
                            known.add(x)
    s = table.state_at(upto)
    for d in (s.treasure_deck, s.dxm_deck, s.monster_deck):
        known.update(d.discard)
    for r in s.rooms:
        known.update(r.pile)
    for p in s.players:
        known.update(it.card for it in p.items)
        known.update(p.races + p.classes)
    return {CARDS.card(c).name for c in known}


@pytest.mark.parametrize("spec, seat", [("table", None), ("1", 1)])
def test_a_seat_sees_only_its_own_hand_and_the_table_none(game_log, spec, seat):
    path, n = game_log
    table = replay.ReplayTable.read(path, spec)
    m = replay.ReplayModel(table)
    own_seen = 0
    for i in [0, 1, 2, 3] + list(range(10, n + 1, 23)) + [n]:
        m.seek_entry(i)
        s = table.state_at(i)
        for p in m.view.players:
            assert p.seat == seat or all(c == HIDDEN for c in p.hand)
        public = _public(table, i, seat)
        secret = {CARDS.card(c).name for p in s.players if p.seat != seat for c in p.hand} - public
        if seat is not None:
            secret -= {CARDS.card(c).name for c in s.players[seat].hand}  # a copy in my own hand
        screen = render.render_screen(m, 120, 40)
        lines = " ".join(ln.text for ln in m.log)
        for name in secret:
            assert name not in screen and name not in lines, f"{name} of another hand shown at entry {i}"
        hand = render.plain(render.render_hand(m, 50, 20))
        if seat is None:
            assert "(watching: no hand)" in hand and m.hand_cards() == ()
        else:
            mine = [CARDS.card(c).name for c in s.players[seat].hand]
            assert m.hand_cards() == s.players[seat].hand
            own_seen += all(name[:20] in hand for name in mine) and bool(mine)
    assert seat is None or own_seen > 5


def test_the_help_lists_the_replay_keys_and_no_play_keys(game_log):
    table = replay.ReplayTable.read(game_log[0], "table")

    async def main():
        async with running(table) as (send, client):
            keys = client.keys
            sections = dict(keymod.help_sections(keys))
            stepping = dict(sections[keymod.REPLAY_TITLE])
            assert stepping["→ l"] == "Next entry of the log." and stepping["← h"] == "Previous entry of the log."
            assert "PgDn ]" in stepping and "PgUp [" in stepping and "g" in stepping
            assert "Home" in stepping and "End" in stepping
            assert "Jump to the start of that turn." in dict(sections[keymod.MODE_TITLES[GOTO]]).values()
            docs = {h.doc for h in keys.help}
            assert not docs & {"Search this room (1 move).", "Open the action menu (every action allowed now).",
                               "Chat: type a line, Enter sends it to the table."}
            assert all(b.handler in {h.handler for h in keys.help} for b in keys.kb.bindings)
            text = render.plain(render.render_help(keymod.help_sections(keys), 200, 100))
            assert "Watching a replay" in text and "Next entry of the log." in text
            await send("?")
            await send("x")
            assert client.model.mode == NORMAL

    asyncio.run(main())


def test_a_log_that_stops_checking_out_is_shown_up_to_its_last_good_entry(tmp_path):
    path = str(tmp_path / "bad.mqlog")
    total = write_log(path, stop=120, bad_at=100)
    table = replay.ReplayTable.read(path, "0")
    assert total == table.logged == 120 and table.n == 99 and "entry 100: state hash" in table.problem
    m = replay.ReplayModel(table)
    assert any(b.kind == "desync" and "after entry 99 of 120" in b.text for b in m.banners)
    m.seek_entry(10_000)
    assert m.seq == 99
    m.step_entry(+1)
    assert m.seq == 99 and "does not check out" in m.message
    assert m.view.phase != "over" and not any(b.kind == "over" for b in m.banners)  # a saved game


def test_mq_replay_as_refuses_a_bad_seat_and_needs_a_terminal(game_log, capsys):
    path, _ = game_log
    assert net_cli.main(["replay", path, "--as", "5"]) == 2
    assert "this game has 3 seats (0 red, 1 green, 2 blue)" in capsys.readouterr().err
    assert net_cli.main(["replay", path, "--as", "table"]) == 2  # pytest's stdin is not a terminal
    assert "needs a terminal" in capsys.readouterr().err
    assert net_cli.main(["replay", path, "--verify", "--as", "1"]) == 2
    out = capsys.readouterr()
    assert "verify: ok" in out.out and "needs a terminal" in out.err
    assert net_cli.main(["replay", str(path) + ".missing", "--as", "1"]) == 1
    assert net_cli.main(["replay", path, "--verify"]) == 0  # without --as, as before
    assert "verify: ok" in capsys.readouterr().out


def test_a_log_written_by_the_sequencer_replays(tmp_path):
    """A real LAN game (one process: the host's bot and two table bots, whose entries the table
    authors) opens as a replay and reaches the same final state."""
    path = str(tmp_path / "lan.mqlog")
    drive.play_lan_game(path)
    scan = gamelog.read(path)
    assert any(e.author == -1 for e in scan.entries)
    table = replay.ReplayTable.read(path, "table")
    assert table.problem is None and table.n == len(scan.entries)
    m = replay.ReplayModel(table)
    m.seek_entry(table.n)
    assert state_hash(table.state) == scan.entries[-1].hash and m.view.phase == "over"
    m.step_turn(-1)
    assert m.seq < table.n and m.view.turn.number == table.last_turn


def replay_in_tmux(path: str, seat: str, n: int, tmp_path, first_frame: str, last_frame: str) -> None:
    """``mq replay PATH --as SEAT`` in a detached tmux session (as test_tui_e2e): the client opens
    at entry 0 showing ``first_frame``, ] goes to turn 1, End to the last entry (``last_frame``),
    q y quits with status 0 and no traceback."""
    import os
    import shlex
    import shutil
    import sys
    import time

    from test_tui_e2e import ROOT, Tmux

    exe = shutil.which("tmux")
    if exe is None:
        pytest.fail("tmux is not installed: this end-to-end test needs it (see test_tui_e2e)")
    rc = tmp_path / "rc"
    command = (f"cd {shlex.quote(str(ROOT))} && {shlex.quote(sys.executable)} -m mq.cli replay "
               f"{shlex.quote(path)} --as {seat} 2> {shlex.quote(str(tmp_path / 'stderr'))}; "
               f"echo $? > {shlex.quote(str(rc))}; sleep 5")
    tmux = Tmux(exe, f"mqreplay{os.getpid()}{seat}")
    tmux.run("new-session", "-d", "-s", tmux.target, "-x", "120", "-y", "40", command)
    try:
        tmux.wait(lambda t: f"Replay · entry 0/{n} · turn 0" in t and first_frame in t, "the replay's first frame")
        tmux.keys("]")
        tmux.wait(lambda t: "· turn 1 ·" in t and "Turn 1" in t, "turn 1")
        tmux.keys("End")
        tmux.wait(lambda t: f"entry {n}/{n}" in t and last_frame in t, "the last entry")
        tmux.keys("q")
        tmux.wait(lambda t: "Quit the game?" in t, "the quit question")
        tmux.keys("y")
        deadline = time.monotonic() + 10
        while not (rc.exists() and rc.read_text().strip()):
            assert time.monotonic() < deadline, "mq replay did not exit after q, y"
            time.sleep(0.05)
        errors = (tmp_path / "stderr").read_text()
        assert rc.read_text().strip() == "0" and "Traceback" not in errors, errors
    finally:
        tmux.kill()


def test_mq_replay_as_a_seat_in_a_real_terminal(game_log, tmp_path):
    """``mq replay LOG --as green`` in a real terminal (replay_in_tmux): Green's hand, the game's end."""
    path, n = game_log
    replay_in_tmux(path, "green", n, tmp_path, "Green*", "Game over")
