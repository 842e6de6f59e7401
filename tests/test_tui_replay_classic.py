"""Replays of Classic games in the client (mq.tui.replay with the Classic model, ``mq replay LOG
--as SEAT|table``, C-DIGI-4): a real Classic bot log opened with the Classic client's model and
keys, stepped forward, back and by turns; what it shows at an entry is what a live Classic client
of that seat showed; a seat sees only its own hand and the table none; nothing can be submitted."""
from __future__ import annotations

import asyncio

import drive
import pytest
from test_tui_replay import END, HOME, LEFT, RIGHT, log_texts, replay_in_tmux, write_log

from mq.cards.classic_loader import load_classic_default
from mq.rules import Action, IllegalAction, make_params, state_hash
from mq.rules.view import HIDDEN
from mq.tui import classic_render, render, replay
from mq.tui.classic_model import ClassicModel
from net import gamelog

CARDS = load_classic_default()


@pytest.fixture(scope="module", params=[False, True], ids=["classic", "epic"])
def classic_log(request, tmp_path_factory):
    path = str(tmp_path_factory.mktemp("replay") / "classic.mqlog")
    return path, write_log(path, params=make_params(4, mode="classic", epic=request.param), cards=CARDS)


def panels(m) -> list[str]:
    """The panels a Classic replay shares with the live client: the table, the fight, the hand."""
    return [render.plain(classic_render.render_table(m, 80, 30)), render.plain(classic_render.render_combat(m, 70, 14)),
            render.plain(render.render_hand(m, 50, 16)[1:])]


def test_a_classic_log_opens_with_the_classic_model_and_checks_out(classic_log):
    path, n = classic_log
    table = replay.ReplayTable.read(path, "table")
    assert table.n == table.logged == n > 100 and table.problem is None
    assert state_hash(table.state_at(n)) == gamelog.read(path).entries[-1].hash
    assert table.state_at(n).phase == "over" and table.last_turn > 4
    m = replay.model_for(table)
    assert isinstance(m, ClassicModel) and isinstance(m, replay.Replaying) and m.classic
    assert "Replay of game" in m.log[0].text


def test_the_classic_replay_shows_what_a_live_client_showed_at_every_entry(classic_log):
    """Forward, back and jumping, the log and the panels at entry i are those of a live Classic
    client of the same seat that received entries 1..i (its scribe, its last-fight panel)."""
    path, n = classic_log
    table = replay.ReplayTable.read(path, "1")
    m = replay.model_for(table)
    live = ClassicModel(1, table.state_at(0))
    shown = {}
    for i in range(1, n + 1):
        live.update(table.applied(i))
        if i % 29 == 0 or i == n:
            shown[i] = (log_texts(live), panels(live), live.last_result)
    assert len(shown) > 3
    for i in list(shown)[::-1] + list(shown):  # backwards from the end, then forwards again
        m.seek_entry(i)
        log, screen, result = shown[i]
        assert log_texts(m) == log, i
        assert panels(m) == screen, i
        assert m.last_result == result, i


@pytest.mark.parametrize("spec, seat", [("table", None), ("2", 2)])
def test_a_seat_sees_only_its_own_hand_in_a_classic_replay(classic_log, spec, seat):
    path, n = classic_log
    table = replay.ReplayTable.read(path, spec)
    m = replay.model_for(table)
    own_seen = 0
    for i in [0, 1, 2] + list(range(7, n + 1, 31)) + [n]:
        m.seek_entry(i)
        s = table.state_at(i)
        for p in m.view.players:
            assert p.seat == seat or all(c == HIDDEN for c in p.hand), i
        if seat is None:
            assert m.hand_cards() == ()
        else:
            assert m.hand_cards() == s.players[seat].hand
            hand = render.plain(render.render_hand(m, 50, 20))
            mine = [CARDS.card(c).name for c in s.players[seat].hand]
            own_seen += bool(mine) and all(name[:20] in hand for name in mine)
    assert seat is None or own_seen > 3


def test_keys_step_through_a_classic_replay_and_nothing_is_submitted(classic_log):
    path, n = classic_log
    table = replay.ReplayTable.read(path, "0")

    async def main():
        legal = ClassicModel(0, table.state).legal[0]
        for a in (legal, Action(0, "end_turn")):
            with pytest.raises(IllegalAction) as err:
                await table.submit(a)
            assert err.value.reason == replay.READ_ONLY
        async with drive.running(replay.connect, table) as (send, client):
            m = client.model
            status = lambda: render.plain(render.render_status(m, 120))  # noqa: E731
            assert status().startswith(f" Replay · entry 0/{n} · turn 0")
            start = panels(m)
            await send(RIGHT + RIGHT + "l")
            assert m.seq == 3 and table.pos == 3
            await send(LEFT + "h" + LEFT)
            assert m.seq == 0 and panels(m) == start
            await send("]")
            assert m.seq == table.turn_start(1) and m.view.turn.number == 1 and "turn 1" in status()
            await send("]")
            assert m.seq == table.turn_start(2)
            await send("g4\r")
            assert m.seq == table.turn_start(4) and "turn 4" in status()
            await send(END)
            assert m.seq == n and "game over" in status() and any(b.kind == "over" for b in m.banners)
            await send(HOME)
            assert m.seq == 0 and panels(m) == start
            await send("1 2 e r")  # the play keys are not bound in a replay
            assert m.seq == 0 and table.pos == 0
        assert client.result == 0

    asyncio.run(main())


def test_mq_replay_as_a_seat_of_a_classic_game_in_a_real_terminal(classic_log, tmp_path):
    """``mq replay LOG --as blue`` on a Classic log in a real terminal (replay_in_tmux): the table
    panel and Blue's seat at entry 0, the game's end at the last entry."""
    path, n = classic_log
    replay_in_tmux(path, "blue", n, tmp_path, "The table", "game over")
