"""No traps that cost a player a card, with the client driven through a pipe over the real engine
(a LocalTable): ending a turn with too many cards warns first and says where they go (Q-CHARITY);
Enter on a card never gives, discards or sells it without asking; a number key names one action,
so pressing it twice never does two different things; action labels are never cut where two of
them differ, at 80x24 or 120x40."""
from __future__ import annotations

import asyncio
import textwrap

import drive
import pytest
from builders import CARDS, hand, nxt, quiet, set_player

from mq.bots import choose
from mq.rules import Action, actors, make_params, new_game, step, view
from mq.table import Applied, LocalTable
from mq.tui import render
from mq.tui.app import connect
from mq.tui.model import CONFIRM, NORMAL, NUMBERS, Model

ONESHOTS = tuple(d.id for d in CARDS.dxm if d.kind == "oneshot")[:8]


def too_many_cards():
    """Three players; the active one (level 3) holds 8 one-shots, the next one is the only
    lowest-level munchkin (level 1), so 3 cards are to go to them."""
    s = quiet(3)
    me, low = s.turn.seat, nxt(s)
    s = set_player(s, me, level=3)
    s = set_player(s, low, level=1)
    s = set_player(s, nxt(s, low), level=2)
    return hand(s, me, *ONESHOTS), me, low


def running(table):
    return drive.running(connect, table)


def test_ending_a_turn_with_too_many_cards_warns_and_says_where_they_go():
    s, me, low = too_many_cards()
    name = {0: "Red", 1: "Green", 2: "Blue"}[low]

    async def main():
        table = LocalTable(s, seat=me)
        async with running(table) as (send, client):
            m = client.model
            await send("e")
            assert m.mode == CONFIRM and table.seq == 0
            assert f"You hold 8 cards, the limit is 5: 3 cards will go to {name}" in m.question
            assert m.question in render.plain(render.render_status(m, 200))
            await send("x")  # anything but y: not yet, play cards first
            assert m.mode == NORMAL and table.seq == 0 and m.message == "Not done."
            number = m.numbers[Action(me, "end_turn")]  # the menu's entry asks too
            await send(str(number % 10))
            assert m.mode == CONFIRM and table.seq == 0
            await send("y")
            await drive.until(lambda: table.seq == 1)
            assert table.state.pending.kind == "charity" and table.state.pending.options == (low,)
            await drive.until(lambda: m.view.pending is not None)
            # the new decision's actions get the numbers the old ones had
            entries = m.menu()  # (the copies of a card, "X" and "X.2", are one entry)
            assert len(entries) >= 3 and [e.number for e in entries] == list(range(1, len(entries) + 1))

    asyncio.run(main())


def test_enter_on_a_card_never_gives_it_away_and_a_number_names_one_action():
    s, me, low = too_many_cards()
    s = step(s, Action(me, "end_turn"))[0]  # the charity decision: 3 cards to give
    assert s.pending.kind == "charity"

    async def main():
        table = LocalTable(s, seat=me)
        async with running(table) as (send, client):
            m = client.model
            await send("\t")  # select the first card of the hand
            card = m.selected
            await send("\r")  # its only action gives it away: asked, not done
            assert m.mode == CONFIRM and table.seq == 0 and "Give" in m.question and "?" in m.question
            await send("n")
            assert table.seq == 0 and card in table.state.players[me].hand
            await send("\r")
            await send("y")
            await drive.until(lambda: table.seq == 1)
            assert card not in table.state.players[me].hand and card in table.state.players[low].hand

            # a number names an action: pressing it again does not give the next card away
            numbered = dict(m.numbers)
            key, action = next((n, a) for a, n in numbered.items() if n != 1)
            await send(str(key % 10))
            await drive.until(lambda: table.seq == 2)
            assert action.args[0] in table.state.players[low].hand
            await send(str(key % 10))
            assert table.seq == 2 and "no longer possible" in m.message
            assert all(m.numbers[a] == n for a, n in numbered.items() if a in m.numbers)  # the rest kept theirs

    asyncio.run(main())


def test_what_costs_a_card_is_known_for_every_action_a_game_offers():
    s = new_game(make_params(4), 11)
    seen = set()
    for n in range(800):
        if not actors(s):
            break
        seat = actors(s)[0]
        m = Model(seat, s)
        for a in m.legal:
            costly = m.costs_a_card(a)
            if a.kind in ("discard", "give", "drop", "buy", "suicide"):
                assert costly, a
            elif a.kind in ("play", "equip", "use", "move", "search", "roll", "pass", "end_turn", "enhance"):
                assert not costly, a
            seen.add((a.kind, costly))
        a = choose(view(s, seat), seat, CARDS)
        s = step(s, a)[0]
    assert ("discard", True) in seen and ("play", False) in seen


@pytest.mark.parametrize("width,height", [(80, 24), (120, 40)])
def test_action_labels_are_never_cut_where_they_differ(width, height):
    s = new_game(make_params(4), 5)
    m = Model(0, s)
    checked = 0
    for n in range(1500):
        if not actors(s):
            break
        seat = actors(s)[0]
        a = choose(view(s, seat), seat, CARDS)
        s, events = step(s, a)
        m.update(Applied(n + 1, a, events, s))
        pl = render.plan(m, width, height)
        lines = render.plain(render.render_actions(m, pl.right, pl.actions)).split("\n")[1:]
        shown: list[str] = []  # each entry's label as the pane shows it, its lines joined
        for line in lines:
            if line.startswith("   … "):
                break
            if line.startswith("   ") and shown:  # a label's next line
                shown[-1] += " " + line.strip()
            elif line[:1] == " " and line[2:3] == " ":  # " 7 Label…" or " · Label…"
                shown.append(line[3:].strip())
        entries = m.menu()
        for e, text in zip(entries, shown):
            label = " ".join(e.label.split())
            if len(textwrap.wrap(label, max(8, pl.right - 3), break_on_hyphens=False)) <= 3:  # up to three lines: whole
                assert text == label, f"{label!r} shown as {text!r} at {width}x{height}"
                checked += 1
            else:  # longer: cut at its end, every word before the cut as it is
                assert text.endswith("…") and label.startswith(text[:-1]), f"{label!r} shown as {text!r}"
        assert len(set(shown)) == len(shown), shown  # two entries never look the same
    assert checked > 200


def test_a_number_pressed_on_through_the_last_of_a_run_of_prompts_asks_first():
    """Pressing 1 through a run of questions (each answered with 1) must not do what 1 names once
    they are over (a one-shot used, say): within RENUMBERED_GUARD_S of answering another question
    the number asks first; pressed again, or later, it does it."""
    from builders import E, colour, rig, stack
    from test_rules_monsters import LURKER

    from mq.tui.model import RENUMBERED_GUARD_S, Model

    s = quiet(2)
    a = s.turn.seat
    s = rig(stack(s, "monster", [LURKER]), None, None, None, None, colour(4))  # a colour nobody plays
    s, events = step(s, Action(a, "move", (E,)))
    assert s.pending is not None and s.pending.kind == "colour"
    now = [100.0]
    start = s
    for wait, asks in ((0.3, True), (RENUMBERED_GUARD_S + 0.1, False)):
        s = start
        m = Model(a, s, clock=lambda: now[0])
        answer = m.entry(1)
        assert isinstance(answer, Action) and answer.kind == "choose"
        s, events = step(s, answer)
        m.update(Applied(1, answer, events, s))
        assert s.pending is None and 1 in m.numbers.values()  # 1 names an action of the new question
        now[0] += wait
        said = m.entry(1)
        if asks:
            assert isinstance(said, str) and said.startswith("The question has changed: 1 is now: "), said
            assert isinstance(m.entry(1), Action)  # pressed again: done
        else:
            assert isinstance(said, Action)  # a while later: the person has read the new question


def test_a_call_for_help_numbers_its_offers_from_1_whatever_the_window_before_numbered():
    """Q-HELP-2: "offer it for gold and/or first Treasure picks (1-9)" over a 1 kept from the
    interrupt window (a class card to play) was a trap; a call for help to a seat, and offers for
    the fighter to take, are questions: their answers take the numbers from 1 on, listed first.
    Checked on every call for help of a few bot games, for every seat's model."""
    asked = 0
    for s, models in _bot_games():
        c = s.combat
        if c is not None and c.stage == "help":
            for m in models:
                answers = [a for a in m.legal if m._asked(a)]
                if not answers:
                    continue
                asked += 1
                keyed = sorted(m.numbers[a] for a in answers if a in m.numbers)
                assert keyed == list(range(1, min(len(answers), len(NUMBERS)) + 1)), (
                    m.seat, {m.describe(a): k for a, k in m.numbers.items()})
                assert set(e.action for e in m.menu()[:len(answers)]) == set(answers)
    assert asked > 10


def test_the_fight_prompt_names_the_number_that_asks_for_help():
    """Q-HELP-1: "ask for help (a)" read as if a asked (it opens the menu); the prompt names the
    ask's own number key, and that key asks."""
    told = 0
    for s, models in _bot_games():
        c = s.combat
        if c is None or c.stage != "prepare":
            continue
        m = models[c.fighter]
        ask = next((a for a in m.legal if a.kind == "ask"), None)
        if ask is not None and ask in m.numbers:
            k = m.numbers[ask] % 10
            assert f"{k} asks for help" in m.prompt()
            got = m.entry(k)  # (the same key pressed for another question just before asks first)
            assert got == ask or (got.startswith("The question has changed") and m.entry(k) == ask)
            told += 1
    assert told > 5


def _bot_games(seeds=(1, 2, 3, 4), players=3):
    """Each state of a few 3-player bot games, with every seat's model fed every action."""
    for seed in seeds:
        s = new_game(make_params(players=players), seed, CARDS)
        models = [Model(seat, s) for seat in range(players)]
        for n in range(1, 1500):
            if s.phase == "over":
                break
            who = actors(s)[0]
            action = choose(view(s, who), who, CARDS)
            s, events = step(s, action)
            for m in models:
                m.update(Applied(n, action, events, s))
            yield s, models


def test_a_suicide_asks_first_whichever_key_does_it():
    """Q-DEATH-4: while the fighter waited for offers of help, 1 was "Commit suicide" (the only
    action left) and killed at once; now the number asks, and only y does it."""
    s = quiet(2)
    me = s.turn.seat

    async def main():
        table = LocalTable(s, seat=me)
        async with running(table) as (send, client):
            m = client.model
            die = Action(me, "suicide")
            assert die in m.numbers
            await send(str(m.numbers[die] % 10))
            assert m.mode == CONFIRM and table.seq == 0 and "Commit suicide?" in m.question
            await send("n")
            assert m.mode == NORMAL and table.seq == 0
            await send(str(m.numbers[die] % 10))
            assert m.mode == CONFIRM
            await send("y")
            await drive.until(lambda: any("DIES" in ln.text for ln in m.log))

    asyncio.run(main())


def test_numbers_go_out_only_while_the_game_waits_for_the_seat():
    """An interrupt window on another's turn numbered "1 Play Cleric, 2 Drop 300 gold here, 3 Pass":
    the numbers were handed out at the turn's start, to what that seat could do any time. Now a
    seat gets numbers only while the game waits for it, so the window's pass comes first (1)."""
    checked = 0
    waited: set[tuple[int, int]] = set()  # (seat, turn) in which the game waited for that seat
    for s, models in _bot_games(seeds=(1, 2, 3, 4, 5)):
        if s.turn is None:
            continue
        c = s.combat
        for m in models:
            key = (m.seat, s.turn.number)
            if m.seat not in actors(s):
                assert not m.numbers or key in waited, (m.seat, m.numbers)
                continue
            if (c is not None and c.stage == "window" and m.seat != s.turn.seat and key not in waited):
                assert m.numbers.get(Action(m.seat, "pass")) == 1, {m.describe(a): k for a, k in m.numbers.items()}
                checked += 1
            waited.add(key)
    assert checked > 10


def test_a_curse_on_yourself_is_listed_last_and_asks_first():
    """Q-CARD-6: "9 Curse yourself with Curse! Stubbed Toe" sat among the turn's first numbers;
    a curse on yourself now comes after every other action but a suicide (so it takes a number
    only after them), and asks first whichever key does it."""
    seen = 0
    for s, models in _bot_games(seeds=(1, 2, 12)):
        for m in models:
            order = m._in_menu_order(m.legal)
            own = [k for k, a in enumerate(order) if a.kind == "curse" and a.args[1] == m.seat]
            if not own:
                continue
            seen += 1
            assert all(a.kind in ("curse", "suicide") for a in order[own[0]:]), [m.describe(a) for a in order]
            assert all(a.args[1] == m.seat for a in order[own[0]:] if a.kind == "curse")
            assert m.end_turn_warning(order[own[0]]).startswith("Curse yourself with ")
    assert seen > 10
