"""mq.steward: what the table itself plays — the window timer's passes (Q-DIGI-2, Q-OPT-1), the away
seat's bot (Q-OPT-2) and which entries the table may make — on real engine states."""
from __future__ import annotations

import functools

from builders import CARDS, E, act, add_monster, dxm_card, hand, line, monster_card, nxt, quiet, started, treasure_card

from mq.rules import Action, make_params, new_game, step
from mq.steward import Steward, bot_move, table_may_act, takes_over, window_of

LURKER = monster_card(lambda d: d.movement == "lurking" and d.level == 1 and d.dice == 0 and not d.rewards)
BOOST = treasure_card(lambda d: d.kind == "oneshot" and d.bonus >= 2 and not d.effects)
BOOST2 = dxm_card(lambda d: d.kind == "oneshot" and d.bonus >= 2 and not d.effects)


def _window():
    """Three players; the first fights a lurker and declares rolling: the interrupt window of the
    others, each holding a one-shot (a seat that cannot act is not waited for)."""
    s = quiet(3)
    a = s.turn.seat
    s = hand(hand(s, nxt(s, a), BOOST), nxt(s, nxt(s, a)), BOOST2)
    s, (r1,) = line(s, 1)
    s = add_monster(s, LURKER, r1, nxt(s))
    s, _ = act(s, a, "move", E)
    s, _ = act(s, a, "roll")
    return s, a


def test_the_window_the_game_waits_on():
    s, a = _window()
    b = nxt(s, a)
    assert window_of(s) == ("window", (b, nxt(s, b)))
    assert window_of(started(3)) is None  # no fight


def test_the_timer_passes_for_every_seat_still_waiting_when_its_time_runs_out():
    """Q-OPT-1: after window_ms the table passes, in order, for each seat the window waited for;
    the passes are legal moves and the window closes to the dice."""
    s, a = _window()
    limit = s.params.window_ms / 1000
    st = Steward()
    st.saw(s, 100.0)
    assert st.due(s, 100.0 + limit - 0.001) is None
    waiting = s.combat.waiting
    passes = []
    now = 100.0 + limit
    while (action := st.due(s, now)) is not None:
        passes.append(action)
        s, _ = step(s, action, CARDS)
        st.saw(s, now)
    assert passes == [Action(seat, "pass") for seat in waiting]
    assert s.combat is None or s.combat.stage != "window"
    assert st.due(s, now + limit / 2) is None


def test_the_timer_starts_again_when_the_seats_it_waits_for_change():
    """A seat that passes changes the window: the time left for the others starts anew, as the
    client's countdown shows; the same window seen again is not timed anew."""
    s, a = _window()
    limit = s.params.window_ms / 1000
    st = Steward()
    st.saw(s, 0.0)
    st.saw(s, 5.0)  # the same window: still timed from 0
    b = nxt(s, a)
    s, _ = act(s, b, "pass")
    st.saw(s, 6.0)
    assert st.due(s, limit) is None
    assert st.due(s, 6.0 + limit) == Action(nxt(s, b), "pass")


def test_the_timer_stops_passing_once_the_fight_leaves_the_window():
    s, a = _window()
    st = Steward()
    st.saw(s, 0.0)
    first = st.due(s, 60.0)
    assert first == Action(s.combat.waiting[0], "pass")
    assert st.due(started(3), 60.0) is None  # the rest of the passes are for a window gone by
    assert st.due(s, 61.0) is None  # and the timer, its time run out, waits for another window


def test_what_the_table_may_author():
    """At an entry, the table may make the bot's own move for a bot seat, or for any seat in a game
    that hands away seats to a bot (Q-OPT-2), and pass for a seat the open window waits for
    (Q-DIGI-2, Q-OPT-1); nothing else: not another move for a bot seat, not a player's move in a
    game that waits for away players, not a pass for a seat no window waits for."""
    s, a = _window()
    b = nxt(s, a)
    kinds = ["peer"] * 3
    assert table_may_act(s, kinds, Action(b, "pass"), CARDS)  # the window waits for b
    assert not table_may_act(s, kinds, Action(a, "pass"), CARDS)  # ... not for the fighter
    assert not table_may_act(started(3), kinds, Action(b, "pass"), CARDS)  # no window at all
    q = started(3)
    seat = q.turn.seat
    bot = bot_move(q, seat, CARDS)
    other = next(x for x in (Action(seat, "end_turn"), Action(seat, "search")) if x != bot)
    as_bot = ["bot" if x == seat else "peer" for x in range(3)]
    assert table_may_act(q, as_bot, bot, CARDS)  # a bot seat: the bot's move...
    assert not table_may_act(q, as_bot, other, CARDS)  # ...and no other
    assert not table_may_act(q, kinds, bot, CARDS)  # a player's seat in a game that waits for away players
    assert not table_may_act(q, kinds, Action(9, "end_turn"), CARDS)
    away = new_game(make_params(3, away="bot"), 7)  # the same game, handing away seats to a bot
    for x in range(3):
        away, _ = step(away, Action(x, "ready"))
    assert table_may_act(away, kinds, bot_move(away, seat, CARDS), CARDS)
    assert not table_may_act(away, kinds, other, CARDS)


def test_an_away_seat_is_played_by_the_bot_only_after_the_table_option_s_time():
    """Q-OPT-2: "wait" never hands a seat to the bot; "bot" does after away_s seconds."""
    wait, bot = make_params(3, away_s=30), make_params(3, away="bot", away_s=30)
    assert not takes_over(wait, 0.0, 1000.0)
    assert not takes_over(bot, 10.0, 39.9)
    assert takes_over(bot, 10.0, 40.0)


def test_the_bot_move_is_a_legal_move_for_its_seat():
    s = started(3)
    seat = s.turn.seat
    action = bot_move(s, seat, CARDS)
    assert action.seat == seat
    step(s, action, CARDS)  # raises if the engine refuses it



def test_a_sequencer_taking_over_times_the_open_window_from_then_on():
    """A new sequencer (failover, resume) re-arms the window the logged state holds: its full time
    from the takeover, whatever its own timer knew (nothing, or a window long gone)."""
    s, a = _window()
    limit = s.params.window_ms / 1000
    fresh = Steward()  # never saw the window open: without rearm it would never time it
    fresh.rearm(s, 50.0)
    assert fresh.due(s, 50.0 + limit - 0.001) is None
    assert fresh.due(s, 50.0 + limit) == Action(s.combat.waiting[0], "pass")
    stale = Steward()
    stale.saw(s, 0.0)
    assert stale.due(s, limit) is not None  # its time ran out here once...
    stale.rearm(s, 100.0)  # ...and the window is still open at the takeover
    assert stale.due(s, 100.0 + limit - 0.001) is None and stale.due(s, 100.0 + limit) is not None
    outside = Steward()
    outside.rearm(started(3), 0.0)
    assert outside.due(started(3), 1000.0) is None


# -- Classic (C-DIGI-2, C-DIGI-6, C-OPT-5): the same table moves on the Classic engine's windows --

@functools.cache
def _classic_positions(epic: bool = False):
    """Every state of a few whole Classic bot games (real positions: the engine's and the bot's), and
    of an Epic game with every pack (its epic rangers' claim windows, C-EPIC-14)."""
    from mq.cards.classic_packs import NAMES
    from mq.sim import play_game

    states = []
    for seed in (1, 2, 3):
        play_game(4, seed, on_step=lambda s, _: states.append(s), params=make_params(4, mode="classic", epic=epic))
    from mq.classic.windows import CLAIM, window

    for seed in range(1, 11):  # the first of these games with a claim window (most have one)
        game: list = []
        play_game(4, seed, on_step=lambda s, _: game.append(s),
                  params=make_params(4, mode="classic", epic=True, packs=NAMES))
        if any((window(s) or ("",))[0] == CLAIM for s in game):
            states += game
            break
    return tuple(states)


def _first_window(states, name: str):
    from mq.classic.windows import window

    return next(s for s in states if (window(s) or ("",))[0] == name)


def test_the_classic_windows_the_table_times():
    """C-DIGI-2: the curse window (C-CARD-8), a call for help (C-HELP-1), a last-chance window
    (C-COMBAT-8), the die window after a run-away roll (C-RUN-3), an epic ranger's claim window
    (C-EPIC-14, C-DIGI-2 e) and the turn-end window (C-DIGI-2 f) are each timed with the seats they
    wait for; a pending decision (C-DIGI-5) and a turn outside them are no window."""
    from mq.classic.windows import STAGES, window

    states = _classic_positions()
    for name in STAGES:
        s = _first_window(states, name)
        key = window_of(s)
        assert key[:2] == window(s) and key[0] == name and key[1]
    assert any(s.pending is not None and window_of(s) is None for s in states)
    assert any(s.combat is None and s.curse is None and window_of(s) is None for s in states)


def test_in_classic_the_timer_passes_for_every_seat_still_waiting_and_the_window_closes():
    """C-OPT-5 (as Q-OPT-1): when a window's time runs out the table passes, in order, for each
    seat still waiting; the passes are legal Classic moves and the window closes."""
    from mq.classic.windows import STAGES, window

    states = _classic_positions()
    for name in STAGES:
        s = _first_window(states, name)
        limit = s.params.window_ms / 1000
        st = Steward()
        st.saw(s, 0.0)
        assert st.due(s, limit - 0.001) is None
        waiting, passes = window(s)[1], []
        while (action := st.due(s, limit)) is not None:
            assert table_may_act(s, ["peer"] * 4, action, CARDS)
            passes.append(action)
            s, _ = step(s, action)
            st.saw(s, limit)
        assert passes and [a.seat for a in passes] == [x for x in waiting if x in [a.seat for a in passes]]
        assert all(a.kind == "pass" for a in passes)
        after = window(s)
        assert after is None or after[0] != name or after[1] != waiting


def test_a_card_played_in_a_last_chance_window_gives_the_others_their_full_time_again():
    """C-COMBAT-8: a card played in the window asks everyone again (the same seats wait): the
    window is timed anew, as it is when a seat passes."""
    from mq.classic.windows import window
    from mq.rules import legal_actions

    states = _classic_positions()
    for s in states:
        w = window(s)
        if w is None or w[0] != "window":
            continue
        seat = w[1][0]
        play = next((a for a in legal_actions(s, seat) if a.kind not in ("pass", "discard")), None)
        if play is None:
            continue
        after, _ = step(s, play)
        if window(after) != w:
            continue
        st = Steward()
        st.saw(s, 0.0)
        st.saw(after, 5.0)
        limit = s.params.window_ms / 1000
        assert st.due(after, limit) is None and st.due(after, 5.0 + limit) is not None
        return
    raise AssertionError("no card played in a last-chance window asked the same seats again")


def test_the_classic_bot_plays_a_bot_or_away_seat():
    """C-DIGI-6 (as Q-OPT-2): the table's bot for a Classic seat is the Classic bot, deciding from
    the seat's view, and its move is legal; the away rule reads the Classic parameters."""
    from mq.rules import actors

    s = _classic_positions()[40]
    seat = actors(s)[0]
    action = bot_move(s, seat, CARDS)  # the peer holds Quest's set: the Classic one plays
    assert action.seat == seat
    step(s, action)
    assert takes_over(make_params(4, mode="classic", away="bot", away_s=5), 0.0, 5.0)
    assert not takes_over(make_params(4, mode="classic", away_s=5), 0.0, 500.0)
