"""Illegal actions: each gives its specific reason code and leaves the state exactly as it was
(DESIGN "The engine contract", Q-DIGI-1: every rule is enforced)."""
from __future__ import annotations

import pytest
from builders import (
    CARDS,
    LOCKED,
    WALL,
    E,
    S,
    W,
    act,
    add_monster,
    add_room,
    dxm_card,
    fresh_turn,
    hand,
    line,
    monster_card,
    nxt,
    put,
    quiet,
    refused,
    set_player,
    treasure_card,
)

from mq.rules import REASONS, Action, IllegalAction, apply, full_hash, make_params, new_game
from mq.rules.actions import decode
from mq.rules.state import LOOTED, OVER, Deck

LURKER = monster_card(lambda d: d.movement == "lurking" and d.level == 1)
HELM = treasure_card(lambda d: d.kind == "item" and d.slot == "head")
SHOT = treasure_card(lambda d: d.kind == "oneshot")
DXM_SHOT = dxm_card(lambda d: d.kind == "oneshot")
HEAL = treasure_card(lambda d: d.kind == "oneshot" and any(e.name == "heal" for e in d.effects))
LEVEL = treasure_card(lambda d: d.kind == "level")


def _base():
    s = quiet(2)
    return s, s.turn.seat, nxt(s)


def _in_combat():
    s, a, b = _base()
    s, (r1,) = line(s, 1)
    s = add_monster(s, LURKER, r1, b)
    s, _ = act(s, a, "move", E)
    return s, a, b


def _room(s, a, **room):
    s = add_room(s, 7, 7, (WALL, WALL, WALL, WALL))
    j = len(s.rooms) - 1
    s = s.replace(rooms=s.rooms[:j] + (s.rooms[j].replace(**room),))
    return set_player(s, a, room=j), j


def case_game_over():
    s, a, b = _base()
    return s.replace(phase=OVER, winners=(a,)), Action(a, "end_turn")


def case_seat_unknown():
    s, a, b = _base()
    return s, Action(7, "end_turn")


def case_not_your_turn():
    s, a, b = _base()
    return s, Action(b, "move", (E,))


def case_setup_phase():
    s = new_game(make_params(2), 3)
    return s, Action(0, "move", (E,))


def case_pending_decision_elsewhere():
    s, a, b = _base()
    s = hand(s, a, *[d.id for d in CARDS.dxm if d.kind == "oneshot"][:6])
    s = set_player(s, a, level=2)
    s, _ = act(s, a, "end_turn")
    return s, Action(b, "end_turn")


def case_in_combat():
    s, a, b = _in_combat()
    return s, Action(a, "move", (W,))


def case_no_combat():
    s, a, b = _base()
    return s, Action(a, "roll")


def case_wall():
    s, a, b = _base()
    s, (r1,) = line(s, 1)
    return set_player(s, a, room=r1), Action(a, "move", (E,))


def case_not_enough():
    s, a, b = _base()
    s, (r1, r2) = line(s, 2, kinds=(LOCKED,))
    s = fresh_turn(set_player(s, a, room=r1), a, spent=2)
    return s, Action(a, "move", (E,))


def case_dash_used():
    s, a, b = _base()
    return fresh_turn(s, a, spent=3, dashed=True), Action(a, "dash", (E,))


def case_dungeon_complete():
    s, a, b = _base()
    return s.replace(room_deck=Deck(())), Action(a, "move", (S,))


def case_search_monster():
    s, a, b = _base()
    ignorer = monster_card(lambda d: "halfling" in d.ignores)
    s, j = _room(s, a)
    s = set_player(s, a, races=(dxm_card(lambda d: d.key == "halfling"),))
    return add_monster(s, ignorer, j, b), Action(a, "search")


def case_search_done():
    s, a, b = _base()
    s, j = _room(s, a)
    return fresh_turn(s, a, searched=(j,)), Action(a, "search")


def case_search_forbidden():
    s, a, b = _base()
    s, j = _room(s, a, mark=LOOTED)
    return s, Action(a, "search")


def case_search_not_enough():
    s, a, b = _base()
    s, j = _room(s, a)
    return fresh_turn(s, a, spent=3), Action(a, "search")


def case_pickup_nothing():
    s, a, b = _base()
    return s, Action(a, "pickup")


def case_not_in_hand():
    s, a, b = _base()
    return s, Action(a, "play", (HELM,))


def case_not_in_play():
    s, a, b = _base()
    return hand(s, a, HELM), Action(a, "drop", (HELM,))


def case_wrong_kind():
    s, a, b = _base()  # a DxM one-shot is used, never put onto the belt (Q-ITEM-1)
    return hand(s, a, DXM_SHOT), Action(a, "play", (DXM_SHOT,))


def case_no_effect():
    s, a, b = _base()  # Q-CARD-3: a heal at full HP means nothing
    return hand(s, a, HEAL), Action(a, "use", (HEAL,))


def case_no_room():
    s, a, b = _base()
    heads = [d.id for d in CARDS.treasures if d.kind == "item" and d.slot == "head"][:4]
    s = put(s, a, (heads[0], "worn"), (heads[1], "backpack"), (heads[2], "backpack"))
    return hand(s, a, heads[3]), Action(a, "play", (heads[3],))


def case_tenth_level():
    s, a, b = _base()
    return set_player(hand(s, a, LEVEL), a, level=9), Action(a, "play", (LEVEL,))


def case_too_low():
    s, a, b = _base()
    return set_player(s, b, hp=2), Action(b, "heal")


def case_buy_not_enough():
    s, a, b = _base()
    return set_player(s, a, gold=999), Action(a, "buy")


def case_choice_invalid():
    s, a, b = _base()
    s = hand(s, a, *[d.id for d in CARDS.dxm if d.kind == "oneshot"][:6])
    s = set_player(s, a, level=2)
    s, _ = act(s, a, "end_turn")
    return s, Action(a, "give", (s.players[a].hand[0], a))


def case_dead():
    s, a, b = _base()
    s = set_player(hand(s, b, LEVEL), b, alive=False, hp=0)
    return s, Action(b, "play", (LEVEL,))


CASES = {
    "game/over": case_game_over,
    "seat/unknown": case_seat_unknown,
    "seat/not-your-turn": case_not_your_turn,
    "phase/wrong": case_setup_phase,
    "combat/in-combat": case_in_combat,
    "combat/none": case_no_combat,
    "move/wall": case_wall,
    "move/not-enough": case_not_enough,
    "move/dash-used": case_dash_used,
    "move/dungeon-complete": case_dungeon_complete,
    "search/monster": case_search_monster,
    "search/done": case_search_done,
    "search/forbidden": case_search_forbidden,
    "search/not-enough": case_search_not_enough,
    "pickup/nothing": case_pickup_nothing,
    "card/not-in-hand": case_not_in_hand,
    "card/not-in-play": case_not_in_play,
    "card/wrong-kind": case_wrong_kind,
    "card/no-effect": case_no_effect,
    "card/no-room": case_no_room,
    "level/tenth": case_tenth_level,
    "level/too-low": case_too_low,
    "buy/not-enough": case_buy_not_enough,
    "choice/invalid": case_choice_invalid,
    "dead": case_dead,
}


@pytest.mark.parametrize("reason", sorted(CASES))
def test_illegal_action_has_its_reason_and_changes_nothing(reason):
    """Q-DIGI-1: the engine is the referee: every rule is enforced, an illegal action is refused
    with its reason and changes nothing."""
    s, action = CASES[reason]()
    before = full_hash(s)
    assert refused(s, action.seat, action.kind, *action.args) == reason
    assert full_hash(s) == before
    assert reason in REASONS


def test_another_seats_pending_decision_blocks_everyone_else():
    """Charity pending for the active player: the others wait."""
    s, action = case_pending_decision_elsewhere()
    assert refused(s, action.seat, action.kind) == "seat/not-your-turn"


def test_every_reachable_reason_code_is_tested():
    """Every code of mq.rules.REASONS has a case above, except the ones no state can produce:
    'the decoder's own codes,
    tested below."""
    # (help/abstains and trade/invalid are Classic refusals, C-HELP-7 and C-ITEM-6:
    # tests/test_classic_deals.py, tests/test_classic_trades.py)
    assert set(REASONS) - set(CASES) == {"action/unknown", "action/malformed", "help/abstains", "trade/invalid"}


@pytest.mark.parametrize("data,reason", [
    ([0, "fly", []], "action/unknown"),
    ([0, "move"], "action/malformed"),
    (["0", "move", [1]], "action/malformed"),
    ([0, "move", [1.5]], "action/malformed"),
    ([0, "move", ["x" * 65]], "action/malformed"),
    ("move", "action/malformed"),
])
def test_malformed_actions_are_refused_by_the_decoder(data, reason):
    with pytest.raises(IllegalAction) as err:
        decode(data)
    assert err.value.reason == reason


def test_apply_raises_and_the_old_state_stays_usable():
    """After a refused action, the same state still accepts a legal one."""
    s, a, b = _base()
    with pytest.raises(IllegalAction):
        apply(s, Action(a, "move", (7,)))
    s2 = apply(s, Action(a, "move", (E,)))
    assert s2.players[a].room == 1 and s.players[a].room == 0

