"""The client's model and renderers (mq.tui.model, mq.tui.render), without a terminal: what a seat
sees, what it is offered, the sizes panels keep to, and that no other seat's hand ever shows."""
from __future__ import annotations

import pytest
from builders import CARDS, E, act, add_monster, face, fresh_turn, monster_card, nxt, quiet, set_player, started
from builders import line as row

from mq.bots import choose
from mq.rules import Action, IllegalAction, actors, make_params, new_game, step, view
from mq.rules.events import make
from mq.rules.view import HIDDEN
from mq.table import Applied, Notice
from mq.tui import render
from mq.tui.model import MENU, WORDED_KINDS, Model, abbreviate, name_lines

SIZES = [(80, 24), (120, 40), (200, 60)]


def game(seed: int, seat: int = 0, players: int = 4, limit: int = 600, every: int = 1):
    """Yield (model, state) along a bot game, the model fed every Applied update."""
    s = new_game(make_params(players), seed)
    m = Model(seat, s)
    yield m, s
    for n in range(limit):
        if not actors(s):
            return
        who = actors(s)[0]
        a = choose(view(s, who), who, CARDS)
        s, events = step(s, a, CARDS)
        m.update(Applied(n + 1, a, events, s))
        if n % every == 0:
            yield m, s


def panels(m: Model, width: int, height: int):
    pl = render.plan(m, width, height)
    left = width - pl.right - 1
    status = render.status_rows(m, width)
    top = height - pl.log - status - pl.banners
    return [
        (render.render_map(m, left, top - pl.combat), left, top - pl.combat),
        (render.render_combat(m, left, pl.combat), left, pl.combat),
        (render.render_players(m, pl.right, pl.players), pl.right, pl.players),
        (render.render_hand(m, pl.right, top - pl.players - pl.actions), pl.right, top - pl.players - pl.actions),
        (render.render_actions(m, pl.right, pl.actions), pl.right, pl.actions),
        (render.render_log(m, width, pl.log), width, pl.log),
        (render.render_chat(m, 40, pl.log), 40, pl.log),
        (render.render_status(m, width, status), width, status),
        (render.render_banners(m, width, pl.banners), width, pl.banners),
        (render.render_info(m, width, height), width, height),
    ]


def test_names_are_abbreviated_to_fit():
    assert abbreviate("Bat Guano Gallery", 20) == "Bat Guano Gallery"
    assert abbreviate("The Lobby of Lost Souls", 10) == "Lobby…"
    assert abbreviate("The Lobby of Lost Souls", 19) == "Lobby of Lost Souls"
    assert abbreviate("Ring of Reluctant Return", 20) == "Ring of Reluctant…"
    assert abbreviate("Gold Tooth of Charisma", 20) == "Gold Tooth Charisma"
    assert abbreviate("Colander of Clear Thinking", 20) == "Colander of Clear…"
    assert abbreviate("Inconvenient", 6) == "Incon…"
    assert name_lines("The Dragon's Tax Office", 10, 2) == ["Dragon's", "Tax Office"]
    assert all(len(x) <= 8 for x in name_lines("Hall of Mildly Inconvenient Mirrors", 8, 2))


def test_the_model_keeps_only_its_seats_view():
    """Q-DIGI-4: other hands arrive masked and stay masked in the model."""
    for m, s in game(21, limit=200, every=25):
        for p in m.view.players:
            if p.seat != 0:
                assert all(c == HIDDEN for c in p.hand)
                assert len(p.hand) == len(s.players[p.seat].hand)
        assert m.view.players[0].hand == s.players[0].hand
        assert m.view.rng_seed == 0 and all(c == HIDDEN for c in m.view.treasure_deck.draw)


def test_panels_keep_to_their_size_at_every_terminal_size():
    for m, _ in game(7, limit=500, every=5):
        if m.selectables():
            m.selected = m.selectables()[-1].card
        m.show_reach = True
        for width, height in SIZES:
            for lines, w, h in panels(m, width, height):
                assert len(lines) <= h
                for line in lines:
                    assert sum(len(t) for _, t in line) <= w, render.plain([line])


def _card_ids(value):
    if isinstance(value, str):
        try:
            CARDS.card(value)
            yield value
        except KeyError:
            pass
    elif isinstance(value, tuple):
        for v in value:
            yield from _card_ids(v)


def _public_ids(events, me, known: set[str]) -> None:
    """Card ids any seat may know of from these events (or that ``me`` saw in its own hand).
    Events tell of public happenings except two: a face-down draw names the drawn card, and a
    charity gift names the card given (known to the giver and the receiver only)."""
    for e in events:
        if e.kind == "draw":
            if e.public or e.seat == me:
                known.add(e.card)
        elif e.kind == "charity":
            if me in (e.seat, e.to):
                known.add(e.card)
        else:
            known.update(_card_ids(e[1:]))


@pytest.mark.parametrize("seed", [2, 7, 22])
def test_no_other_seats_hand_card_is_ever_rendered(seed):
    """The screen never names a card another seat holds unless its name is public anyway (the
    card or a copy of it was shown, played or discarded, or the seat holds a copy itself)."""
    s = new_game(make_params(4), seed)
    m = Model(0, s)
    known = set(s.players[0].hand)
    for n in range(900):
        if not actors(s):
            break
        seat = actors(s)[0]
        a = choose(view(s, seat), seat, CARDS)
        s, events = step(s, a, CARDS)
        _public_ids(events, 0, known)
        known.update(s.players[0].hand)
        for d in (s.treasure_deck, s.dxm_deck, s.monster_deck):
            known.update(d.discard)
        for r in s.rooms:
            known.update(r.pile)
        m.update(Applied(n + 1, a, events, s))
        if n % 3:
            continue
        public_names = {CARDS.card(c).name for c in known}
        secret = {CARDS.card(c).name for p in s.players if p.seat != 0 for c in p.hand
                  if c not in known} - public_names
        if m.selectables():
            m.selected = m.selectables()[n % len(m.selectables())].card
        for width, height in SIZES[:2]:
            screen = render.render_screen(m, width, height)
            for name in secret:
                assert name not in screen, f"{name} of another hand shown at step {n}"
            # the log too, in full, not only the lines that fit
            for line in m.log:
                for name in secret:
                    assert name not in line.text


def test_a_fresh_game_shows_only_my_own_starting_hand():
    s = new_game(make_params(4), 8)
    mine = {CARDS.card(c).name for c in s.players[0].hand}
    others = {CARDS.card(c).name for p in s.players[1:] for c in p.hand} - mine
    m = Model(0, s)
    for k in range(len(m.selectables()) + 1):
        m.select(+1)
        m.open_menu()
        for width, height in SIZES:
            screen = render.render_screen(m, width, height)
            assert all(name in screen for name in mine) or width < 120
            assert not any(name in screen for name in others)
        m.close_menu()


def test_own_draws_are_named_and_others_face_down_draws_are_not():
    s = started(3, 7)
    m = Model(1, s)
    me_draw = make(("draw", 1, "treasure", s.treasure_deck.draw[0], False))
    their_draw = make(("draw", 2, "dxm", s.dxm_deck.draw[0], False))
    m.update(Applied(1, Action(0, "end_turn"), (me_draw, their_draw), s))
    lines = [ln.text for ln in m.log]
    assert f"You draw {CARDS.card(me_draw[3]).name} (Treasure)." in lines
    assert "Blue draws a DxM card." in lines
    assert CARDS.card(their_draw[3]).name not in " ".join(lines)


def test_menu_lists_exactly_the_legal_actions_with_words():
    s = fresh_turn(started(2, 7), 0)
    m = Model(0, s)
    entries = m.menu()
    assert {e.action for e in entries} == set(m.legal)
    assert all(e.label and ":" not in e.label[:2] for e in entries)
    assert entries[-1].action.kind == "suicide"  # the irreversible one comes last
    assert any(e.label.startswith("Explore north") for e in entries)


def test_direction_offers_the_dash_when_only_a_dash_can_cross():
    s = fresh_turn(started(2, 7), 0, spent=3)
    m = Model(0, s)
    intent = m.direction(0)
    assert isinstance(intent, str) and "dash" in intent and "K" in intent
    assert m.direction(0, dash=True) == Action(0, "dash", (0,))


def test_explanations_use_the_engine_reason_in_words():
    s = started(2, 7)
    m = Model(0, s)
    m.explain(IllegalAction("move/wall"))
    assert m.message == "A wall is in the way." and m.message_kind == "error"


def test_notices_become_banners_and_chat_lines():
    m = Model(0, started(2, 7))
    m.update(Notice("away", 1, "Green's peer went away"))
    m.update(Notice("desync", None, "state hash mismatch at seq 12"))
    m.update(Notice("chat", 1, "hello there"))
    text = render.plain(render.render_banners(m, 100, 5))
    assert "AWAY: Green's peer went away" in text and "DESYNC: state hash mismatch" in text
    assert "<Green> hello there" in render.plain(render.render_chat(m, 40, 5))
    m.update(Notice("back", 1, "Green is back"))
    assert not any(b.kind == "away" for b in m.banners)
    m.dismiss_banners()
    assert [b.kind for b in m.banners] == ["desync"]


def test_a_repeated_notice_shows_once_until_the_game_moves_on():
    s = started(2, 7)
    m = Model(0, s)
    for _ in range(5):  # a peer looking for its sequencer says so every few seconds
        m.update(Notice("info", 1, "too few players are reachable: looking for the game's host"))
        m.update(Notice("lobby", None, "At the table: Red ann, Green bob (away)"))
    assert [b.text for b in m.banners] == ["too few players are reachable: looking for the game's host"]  # who sits: log only
    assert [ln.text for ln in m.log if ln.kind == "info"][-2:] == [
        "Too few players are reachable: looking for the game's host", "At the table: Red ann, Green bob (away)"]
    assert sum(ln.kind == "info" for ln in m.log) == 3  # the greeting and the two notices
    a = next(a for a in m.legal if a.kind == "end_turn")
    s2, events = step(s, a, CARDS)
    m.update(Applied(1, a, events, s2))
    assert m.banners == []  # the network's news is old once the game moves on (the log keeps it)
    m.update(Notice("info", 1, "too few players are reachable: looking for the game's host"))
    assert sum(ln.text.startswith("Too few players") for ln in m.log) == 2


def test_combat_panel_shows_both_sides_term_by_term():
    for m, s in game(3, limit=400):
        if m.view.combat is not None and m.view.combat.stage == "prepare":
            break
    else:
        pytest.fail("no fight in 400 actions")
    info = m.combat_info()
    text = render.plain(render.render_combat(m, 60, 12))
    assert "level" in text and "roll" in text and f"{info.fixed}" in text
    assert ("win chance" in text) or ("whatever the dice" in text) or ("cannot win" in text)


def test_a_spectator_sees_no_hand_and_has_no_actions():
    s = started(2, 7)
    m = Model(None, s)
    assert m.legal == () and m.selectables() == []
    assert isinstance(m.simple("search"), str)
    assert "watching" in render.plain(render.render_hand(m, 40, 6))


def _first_card_playable_in_setup():
    """The first seed whose first hand card can go into play in set-up, with that play: the test
    needs such a hand, and a data change may move it to another seed but never do away with it."""
    for seed in range(100):
        s = new_game(make_params(2), seed)
        m = Model(0, s)
        m.select(+1)
        playable = [a for a in m.legal if a.kind == "play" and a.args[0] == m.selected]
        if playable:
            return s, m, playable[0]
    raise AssertionError("no seed below 100 deals a first card playable in set-up")


def test_selection_moves_on_to_the_next_hand_card_when_one_is_played():
    s, m, play = _first_card_playable_in_setup()
    s2, ev = step(s, play, CARDS)
    m.update(Applied(1, play, ev, s2))
    assert m.selected == s2.players[0].hand[0]
    assert m.mode != MENU


def test_dead_munchkins_and_the_game_over_banner():
    s = started(2, 7)
    s = set_player(s, 1, alive=False, hp=0)
    s = s.replace(phase="over", winners=(0,))
    m = Model(0, started(2, 7))
    m.update(Applied(1, Action(0, "end_turn"), (), s))
    assert any(b.kind == "over" and "Red won" in b.text for b in m.banners)
    assert "DEAD" in render.plain(render.render_players(m, 60, 9))


def test_the_monsters_win_banner_and_log_line():
    """Q-DEATH-5: every munchkin dead: the client says the monsters won, and logs the event."""
    s = started(2, 7)
    s = set_player(set_player(s, 0, alive=False, hp=0), 1, alive=False, hp=0)
    s = s.replace(phase="over", winners=())
    m = Model(0, started(2, 7))
    m.update(Applied(1, Action(0, "suicide"), (make(("monsters_win",)),), s))
    assert any(b.kind == "over" and "the monsters won" in b.text for b in m.banners)
    assert any("monsters win" in line.text and line.kind == "alert" for line in m.log)


@pytest.mark.parametrize("seed", [2, 7, 22])
def test_the_combat_panel_numbers_are_the_engines(seed):
    """What the panel shows before the dice (fixed strength of both sides, number of dice, who
    wins ties) is what combat.roll_dice and combat.outcome then use: compared at every fight of a bot game that the
    action closing the window does not change itself (a card played by the last seat able to act
    closes the window at once, Q-DIGI-2: the panel showed the numbers before that card)."""
    s = new_game(make_params(4), seed)
    m = Model(0, s)
    fights = 0
    for n in range(900):
        if not actors(s):
            break
        info = m.combat_info()
        seat = actors(s)[0]
        a = choose(view(s, seat), seat, CARDS)
        s, events = step(s, a, CARDS)
        for e in events:
            if e.kind == "combat_result" and a.kind in ("pass", "roll", "set_die"):
                assert info is not None and info.fighter == e.fighter
                assert info.fixed == sum(v for _, v in e.terms)
                assert info.dice == len(e.dice)
                assert info.monster_fixed == sum(v for t in e.monster_terms for _, v in t)
                assert info.monster_dice == sum(len(d) for d in e.monster_dice)
                assert e.won == (e.total > e.monster_total or (e.total == e.monster_total and info.ties_win))
                fights += 1
        m.update(Applied(n + 1, a, events, s))
    assert fights >= 3


@pytest.mark.parametrize("seed", [2, 22])
def test_every_action_any_seat_is_offered_has_words(seed):
    """The menu words every kind of action the engine offers (no raw ``seat:kind args`` entry),
    whoever is asked: each seat's own model follows the same bot game."""
    s = new_game(make_params(4), seed)
    models = [Model(seat, s) for seat in range(4)]
    kinds = set()
    for n in range(900):
        if not actors(s):
            break
        for seat in actors(s):
            for e in models[seat].menu():
                assert e.action.kind in WORDED_KINDS, f"add words for {e.action} to Model.describe"
                assert e.label != str(e.action), e.action
                kinds.add(e.action.kind)
        seat = actors(s)[0]
        a = choose(view(s, seat), seat, CARDS)
        s, events = step(s, a, CARDS)
        for mm in models:
            mm.update(Applied(n + 1, a, events, s))
    assert {"move", "roll", "pass", "end_turn", "use"} <= kinds


def test_the_client_has_words_for_every_action_kind():
    """A new action kind in the engine needs its words in Model.describe (mq/tui/model.py)."""
    from mq.rules.actions import KINDS

    assert set(KINDS) <= WORDED_KINDS, sorted(set(KINDS) - WORDED_KINDS)


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self, t: float = 100.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def test_an_interrupt_window_counts_down_from_when_this_client_saw_it_open():
    """Q-DIGI-2, Q-OPT-1: while a window waits, the combat panel counts params.window_ms down from
    the moment the model first saw it (its own clock), anew when ``waiting`` changes; renderers
    take ``now`` and draw no countdown without it."""
    clock = FakeClock()
    s = new_game(make_params(4, window_ms=5000), 1)
    m = Model(0, s, clock=clock)
    n = 0

    def advance(dt: float) -> None:
        nonlocal s, n
        clock.t += dt
        seat = actors(s)[0]
        a = choose(view(s, seat), seat, CARDS)
        s, events = step(s, a, CARDS)
        n += 1
        m.update(Applied(n, a, events, s))

    for _ in range(5000):  # the first window that waits for Red and two others
        c = m.view.combat
        if c is not None and c.stage == "window" and len(c.waiting) == 3 and 0 in c.waiting:
            break
        if c is None:
            assert m.window_left(clock.t) is None
        advance(0.5)  # time passes before the window: it does not count
    opened = clock.t
    assert len(m.view.combat.waiting) == 3 and 0 in m.view.combat.waiting

    def panel(now, width=60):
        return render.plain(render.render_combat(m, width, 12, now))

    assert "closes in 5 s · waiting for: " in panel(opened)
    assert "closes in 4 s" in panel(opened + 1.2) and m.window_left(opened + 1.2) == pytest.approx(3.8)
    assert "closes in 1 s" in panel(opened + 4.01)
    assert "closing…" in panel(opened + 6) and m.window_left(opened + 6) == 0
    assert "closes in" not in panel(None) and "waiting for" in panel(None)
    assert "closes in 3 s" in panel(opened + 2, width=45)  # 80 columns: names are cut, not the time
    clock.t = opened + 3
    advance(0)  # a seat passes: the window waits for fewer seats and counts again
    assert m.view.combat.stage == "window" and len(m.view.combat.waiting) == 2
    assert m.window_left(opened + 3) == 5.0 and "closes in 5 s" in panel(opened + 3)
    while m.view.combat is not None and m.view.combat.stage == "window":
        advance(0.1)
    if m.open_window() is None:
        assert m.window_left(clock.t + 1) is None and "closes in" not in panel(clock.t + 1)
    else:  # the dice are out and a die changer may answer: a new window, timed from now
        assert m.view.combat.stage == "outcome" and m.window_left(clock.t) == 5.0


def test_the_log_tells_charity_once_per_receiver_and_names_only_your_own_cards():
    """Q-CHARITY on the engine's own events, through the client's log: a seat that neither gives
    nor receives reads one sentence per receiver once the giving is over (before the monster turn);
    the receiver reads each card it got by name."""
    from builders import colour, hand, nxt, quiet, rig

    from mq.rules.state import COLOURS

    s = quiet(4)
    a, b = s.turn.seat, nxt(s)
    c, d = nxt(s, b), nxt(s, nxt(s, b))
    s = set_player(set_player(set_player(s, b, level=1), c, level=1), d, level=2)
    one_shots = tuple(x.id for x in CARDS.dxm if x.kind == "oneshot")
    s = hand(set_player(s, a, level=3), a, *one_shots[:8])
    third, receiver = Model(d, s), Model(b, s)
    s, events = step(rig(s, colour(5)), Action(a, "end_turn"), CARDS)
    seq = 1
    for m in (third, receiver):
        m.update(Applied(seq, Action(a, "end_turn"), tuple(events), s))
    given = []
    for to in (b, c, b):
        assert s.pending is not None and s.pending.kind == "charity"
        card = s.players[a].hand[0]
        given.append((to, card))
        action = Action(a, "give", (card, to))
        s, events = step(rig(s, colour(5)), action, CARDS)
        seq += 1
        for m in (third, receiver):
            m.update(Applied(seq, action, tuple(events), s))
    texts = [line.text for line in third.log]
    w = lambda seat: COLOURS[seat].capitalize()  # noqa: E731
    told = [t for t in texts if "(charity)" in t]
    assert told == [f"{w(a)} gives 2 cards to {w(b)} (charity).", f"{w(a)} gives 1 card to {w(c)} (charity)."]
    assert texts.index(told[-1]) < next(i for i, t in enumerate(texts) if t.startswith("Monster turn"))
    mine = [line.text for line in receiver.log if "(charity)" in line.text]
    yours = [f"{w(a)} gives you {CARDS.card(card).name} (charity)." for to, card in given if to == b]
    assert mine == [yours[0], f"{w(a)} gives 1 card to {w(c)} (charity).", yours[1]]
    assert not any(CARDS.card(card).name in t for t in texts for to, card in given)  # never named to a third


def test_the_combat_panel_says_which_room_icons_count():
    """Q-COMBAT-6: beside the dice the panel lists the room's icons that count for each fighter, as
    the engine answers (mq.rules.query.room_icons): a room good for odd levels gives a level-3
    fighter +1 die and a level-2 one nothing."""
    odd = face(lambda f: [c.text for c in f.green] == ["odd level"] and not f.red)
    lurker = monster_card(lambda d: d.movement == "lurking" and d.level == 1)
    for level, shown in ((3, True), (2, False)):
        s = quiet(2)
        a = s.turn.seat
        s = set_player(s, a, level=level)
        s, (r1,) = row(s, 1, face=odd)
        s = add_monster(s, lurker, r1, nxt(s))
        s, _ = act(s, a, "move", E)
        m = Model(a, s)
        assert m.combat_info().icons == (((a, "good for odd level", 1),) if shown else ())
        text = render.plain(render.render_combat(m, 80, 12))
        assert ("+1 die: good for odd level" in text) == shown
        assert f"{1 + shown}d6" in text


def test_the_hand_pane_scrolled_to_the_cards_in_play_keeps_their_heading():
    """A short hand pane (80x24) that scrolls down to a card in play still says "in play:" above
    it, so cards in play never pass for cards in the hand."""
    from builders import hand, put
    gear = [d.id for d in CARDS.treasures if d.kind == "item" and d.slot in ("head", "feet", "armour")][:3]
    s = started(2, 7)
    s = put(hand(s.replace(players=tuple(p.replace(hand=()) if p.seat == 0 else p for p in s.players)), 0,
                 *[d.id for d in CARDS.treasures if d.kind == "oneshot"][:3]),
            0, *((g, "backpack") for g in gear))
    m = Model(0, s)
    for _ in range(6):  # the last card in play
        m.select(+1)
    assert m.selected == gear[-1]
    text = render.plain(render.render_hand(m, 40, 4)).split("\n")
    assert len(text) == 4 and "in play:" in text[1] and any(CARDS.card(gear[-1]).name[:10] in t for t in text[2:])


def test_a_hand_pane_too_short_for_the_cards_in_play_says_how_many_are_below():
    """A pane that ends at the "in play:" heading (a full hand at 120x40 in Classic) must not read as
    "nothing in play": its last row counts the cards below, those in play apart."""
    from builders import hand, put
    gear = [d.id for d in CARDS.treasures if d.kind == "item" and d.slot in ("head", "feet", "armour")][:3]
    oneshots = [d.id for d in CARDS.treasures if d.kind == "oneshot"][:3]
    s = started(2, 7)
    s = put(hand(s.replace(players=tuple(p.replace(hand=()) if p.seat == 0 else p for p in s.players)), 0,
                 *oneshots), 0, *((g, "backpack") for g in gear))
    m = Model(0, s)
    for height, words in ((4, "… 1 more, 3 in play below (Tab)"), (5, "… 3 in play below (Tab)")):
        text = render.plain(render.render_hand(m, 40, height)).split("\n")
        assert len(text) == height and words in text[-1], text
        assert "in play:" not in "\n".join(text)
    text = render.plain(render.render_hand(m, 40, 9)).split("\n")  # room for all: no count
    assert "below" not in "\n".join(text) and "in play:" in "\n".join(text)


def test_the_combat_panel_shows_berserk_backstab_and_battle_cry_as_their_own_terms():
    """Q-CHAR-5: the breakdown names each power used (the engine's query.munchkin_terms and
    query.power_dice), so a −2 from a thief never reads as a one-shot."""
    from builders import dxm_card, hand, rig
    from test_rules_combat import LURKER2, arena

    warrior, thief = dxm_card(lambda d: d.key == "warrior"), dxm_card(lambda d: d.key == "thief")
    junk = [d.id for d in CARDS.dxm if d.kind == "race"][:3]
    s, a, _, _ = arena(monsters=(LURKER2,), setup=lambda s, a: hand(set_player(s, a, classes=(warrior,)), a, junk[0]))
    b = nxt(s, a)
    s = hand(set_player(s, b, classes=(thief,)), b, *junk[1:])
    s, _ = act(rig(s, ("d10", 1)), a, "power", "battle_cry")
    s, _ = act(s, a, "power", "berserk", junk[0])
    s, _ = act(s, a, "roll")
    s, _ = act(s, b, "power", "backstab", a, junk[1])
    for seat in (a, b):
        m = Model(seat, s)
        text = render.plain(render.render_combat(m, 80, 14))
        assert "berserk +1" in text and "backstab -2" in text and "battle cry +1 die" in text
        assert "one-shots" not in text  # nothing else was played
        assert f"{m.combat_info().fixed} + {m.combat_info().dice}d6" in text
    s, a, _, _ = arena(monsters=(LURKER2,), setup=lambda s, a: set_player(s, a, classes=(warrior,)))
    s, _ = act(rig(s, ("d10", 6)), a, "power", "battle_cry")  # 6 is more than level 1: it fails
    assert "battle cry: no extra die" in render.plain(render.render_combat(Model(a, s), 80, 14))


def test_new_treasure_that_may_go_into_play_on_anothers_turn_is_marked():
    """Q-CARD-3, Q-TURN-3 on real bot-game states: the hand marks such a card "+" (not "*"), the
    status line says it may go into play now, and only for the seat that holds it."""
    from test_bots import _out_of_turn_states

    seen = 0
    for s, seat in _out_of_turn_states(seeds=(2, 6)):
        m = Model(seat, s)
        new = m.fresh_now()
        assert new and all(c in s.players[seat].fresh for c in new)
        hand = render.plain(render.render_hand(m, 48, 30))
        assert any(row.startswith(" +") and m.card_name(new[0])[:20] in row for row in hand.splitlines()), hand
        assert "your new Treasure may go into play now" in m.prompt()
        turn = Model(s.turn.seat, s)
        assert turn.fresh_now() == () and "new Treasure" not in turn.prompt()
        seen += 1
    assert seen >= 3


@pytest.mark.parametrize("width,height", [(80, 24), (120, 40)])
def test_the_combat_panel_shows_every_term_of_both_sides_at_every_size(width, height):
    """The panel's terms add up to the totals it shows: on a short pane (80x24, the foot taking
    most rows) each side's terms go on one line rather than losing the one-shots under the foot."""
    checked = 0
    for seed in (3, 5, 8):
        for m, s in game(seed, limit=500):
            info = m.combat_info()
            if info is None or info.stage not in ("prepare", "window"):
                continue
            pl = render.plan(m, width, height)
            rows = render.plain(render.render_combat(m, width - pl.right - 1, pl.combat)).splitlines()
            columns = [row.split("│", 1) for row in rows]  # the two sides, each read down its column
            text = " ".join(" ".join(" ".join(col[k] for col in columns if len(col) == 2).split()) for k in (0, 1))
            text += " " + " ".join(row for row in rows if "│" not in row)
            for name, value in info.terms:
                if value and name != "level":
                    assert f"{name} {value:+d}" in text, (seed, info.terms, text)
            if len(info.monsters) == 1:
                for name, value in info.monsters[0].terms:
                    if value and name != "level":
                        assert f"{name} {value:+d}" in text, (seed, info.monsters[0].terms, text)
            checked += 1
    assert checked > 20
