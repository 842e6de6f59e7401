"""Events (mq.rules.events): one named type per kind, with exactly its fields, and
``view_events`` masking the cards only some seats may see (Q-DIGI-4, Q-SEARCH-3, Q-CHARITY)."""
from __future__ import annotations

import re
from pathlib import Path

from builders import act, colour, dxm_card, hand, nxt, quiet, rig, set_player

import mq.rules
from mq.rules import events as ev
from mq.rules import view_events
from mq.rules.view import HIDDEN, TABLE
from mq.sim import play_game


def test_every_event_of_bot_games_has_its_kind_s_type_and_fields():
    seen = set()

    def check(state, events):
        for e in events:
            cls = ev.TYPES[e.kind]
            assert type(e) is cls and len(e) == len(cls._fields) and e.kind == e.kind, e
            seen.add(e.kind)

    for players, seed in ((2, 1), (4, 2), (6, 3)):
        play_game(players, seed, check)
    assert {"turn", "draw", "combat_starts", "combat_result", "monster_turn", "hit"} <= seen


def test_every_kind_the_engine_emits_is_declared_and_every_declared_kind_is_emitted():
    source = "".join(p.read_text() for p in Path(mq.rules.__file__).parent.glob("*.py"))
    emitted = set(re.findall(r'\.event\(\s*"([a-z_0-9]+)"', source))
    assert emitted == set(ev.TYPES)
    assert all(cls._fields[0] == "kind" for cls in ev.TYPES.values())


def test_an_event_reads_by_name_and_equals_its_plain_fields():
    e = ev.make(("hit", 1, 2, 0))
    assert isinstance(e, ev.Hit) and (e.seat, e.n, e.hp) == (1, 2, 0)
    assert e == ("hit", 1, 2, 0) and tuple(e) == ("hit", 1, 2, 0)


def test_another_seat_s_face_down_draw_is_masked_a_public_one_is_not():
    """Q-SEARCH-3: a face-down draw is the drawer's secret; a draw with others present is public."""
    secret, public = ev.make(("draw", 0, "treasure", "t1", False)), ev.make(("draw", 0, "treasure", "t2", True))
    assert view_events((secret, public), 0) == (secret, public)
    for seat in (1, TABLE):
        masked = view_events((secret, public), seat)
        assert masked == (("draw", 0, "treasure", HIDDEN, False), public)
        assert type(masked[0]) is ev.Draw


def test_a_card_given_for_charity_is_seen_by_the_giver_and_the_receiver_only():
    """Q-CHARITY: real charity events of the engine, masked for each seat."""
    s = quiet(3)
    a, b = s.turn.seat, nxt(s)
    c = nxt(s, b)
    s = set_player(s, b, level=1)
    s = hand(set_player(s, a, level=2), a, *([dxm_card(lambda d: d.kind == "oneshot")] * 6))
    s, _ = act(rig(s, colour(5)), a, "end_turn")
    card = s.players[a].hand[0]
    s, events = act(rig(s, colour(5)), a, "give", card, b)
    gift = next(e for e in events if e.kind == "charity")
    assert (gift.seat, gift.to, gift.card) == (a, b, card)
    assert next(e for e in view_events(events, a) if e.kind == "charity").card == card
    assert next(e for e in view_events(events, b) if e.kind == "charity").card == card
    for seat in (c, TABLE):
        assert next(e for e in view_events(events, seat) if e.kind == "charity").card == HIDDEN
