"""Trades of items in play (C-ITEM-6, C-PACK-5; mq.classic.trades): an offer of items for items,
then the other's answer; on any turn, never in combat, the turn-end window included (C-DIGI-2 f);
bounded: one open offer between two players, one offer each way a turn, lapsing when an item
leaves play, at a combat's start or at the turn's end."""
from __future__ import annotations

import pytest
from classic_table import CARDS, _without, act, hand, in_play, kinds, on_top, playing, set_player

from mq import rules as R
from mq.bots.classic import choose
from mq.classic.state import Phase
from mq.rules import Action, IllegalAction, actors, is_legal, legal_actions
from mq.rules.errors import REASONS

HEAD1, FEET1, ARMOUR1, BIG5, BIG3 = "CT02", "CT14", "CT06", "CT46", "CT11"


def _table(phase=Phase.END):
    """Red (0) on their turn with a helm +1 in use; Green (1) with socks +1 in use; Blue (2) with
    armour +1; the next Door card a monster."""
    s = in_play(on_top(playing(3), "CD01"), 0, HEAD1)
    s = in_play(in_play(s, 1, FEET1), 2, ARMOUR1)
    return s.replace(turn=s.turn.replace(phase=phase))


def test_an_item_in_play_for_another_arrives_not_in_use_and_not_for_sale_C_ITEM_6():
    """C-ITEM-6: offered, then accepted by the other: each item goes into the other's play, not in
    use, not to be sold before the receiver's next turn; the one offered answers first."""
    s = _table()
    offer = Action(0, "trade", (1, 1, HEAD1, FEET1))
    assert offer in legal_actions(s, 0)
    s, ev = act(s, 0, "trade", 1, 1, HEAD1, FEET1)
    assert kinds(ev) == ["trade"] and actors(s)[0] == 1
    assert Action(1, "accept", ("trade", 0)) in legal_actions(s, 1)
    s, ev = act(s, 1, "accept", "trade", 0)
    assert kinds(ev) == ["trade_done"] and not s.turn.trades
    red, green = s.players[0].items, s.players[1].items
    assert [(it.card, it.in_use, it.fresh) for it in red] == [(FEET1, False, True)]
    assert [(it.card, it.in_use, it.fresh) for it in green] == [(HEAD1, False, True)]
    assert not is_legal(s, Action(0, "buy", (FEET1,)))


def test_several_items_each_way_any_number_of_them_C_ITEM_6():
    """C-ITEM-6: "an item (or items)": the engine lists one for one and accepts any number each side."""
    s = in_play(_table(), 0, "CT36")
    s = in_play(s, 1, BIG5)
    many = Action(0, "trade", (1, 2, HEAD1, "CT36", FEET1, BIG5))
    assert many not in legal_actions(s, 0) and is_legal(s, many)
    s, _ = act(s, 0, "trade", 1, 2, HEAD1, "CT36", FEET1, BIG5)
    s, ev = act(s, 1, "accept", "trade", 0)
    assert {it.card for it in s.players[0].items} == {FEET1, BIG5}
    assert {it.card for it in s.players[1].items} == {HEAD1, "CT36"}


@pytest.mark.parametrize("args, why", [
    ((1, 1, "CD01", FEET1), "a card not in play"),
    ((1, 1, HEAD1, HEAD1), "an item not the other's"),
    ((1, 0, FEET1), "nothing given"),
    ((1, 1, HEAD1), "nothing asked"),
    ((0, 1, HEAD1, HEAD1), "a trade with oneself"),
    (("1", 1, HEAD1, FEET1), "a seat that is no number"),
    ((7, 1, HEAD1, FEET1), "no such seat"),
    ((1, 2, HEAD1, HEAD1, FEET1), "the same item twice"),
])
def test_a_bad_offer_is_refused_in_words_and_changes_nothing_C_ITEM_6(args, why):
    """C-ITEM-6: only items in play of the two players; hand cards never trade."""
    s = hand(_table(), 0, "CT05")
    with pytest.raises(IllegalAction) as e:
        R.step(s, Action(0, "trade", args))
    assert e.value.reason == "trade/invalid" and "items in play" in REASONS[e.value.reason], why


def test_races_classes_and_hand_cards_never_trade_and_what_arrives_must_fit_C_ITEM_4_C_ITEM_6():
    """C-ITEM-6: races, classes and hand cards are no items in play; C-ITEM-4: a trade that would
    give a player a second big item is refused (not half done)."""
    s = hand(_table(), 1, "CT05")
    race = next(c.id for c in CARDS.door if c.kind == "race")
    s = in_play(s, 1, race)
    listed = {a.args[3] for a in legal_actions(s, 0) if a.kind == "trade" and a.args[0] == 1}
    assert listed == {FEET1}  # neither the hand's beanie nor the race card
    s = in_play(in_play(s, 0, BIG5), 1, BIG3)
    refused = Action(0, "trade", (1, 1, BIG5, FEET1))
    assert not is_legal(s, refused)
    with pytest.raises(IllegalAction) as e:
        R.step(s, refused)
    assert e.value.reason == "trade/invalid"
    assert is_legal(s, Action(0, "trade", (1, 1, BIG5, BIG3)))  # a big item for a big item fits


def test_never_in_combat_and_an_offer_lapses_when_a_combat_starts_C_ITEM_6():
    s = _table(Phase.KICK)
    s, _ = act(s, 0, "trade", 1, 1, HEAD1, FEET1)
    assert actors(s) == (1, 0)
    s, ev = act(s, 0, "kick")  # the receiver need not answer first: the active player may go on
    assert s.combat is not None and not s.turn.trades
    closed = next(e for e in ev if e.kind == "trade_closed")
    assert (closed.by, closed.to, closed.why) == (0, 1, "combat")
    assert not any(a.kind == "trade" or a.args[:1] == ("trade",) for seat in range(3) for a in legal_actions(s, seat))
    with pytest.raises(IllegalAction) as e:
        R.step(s, Action(0, "trade", (1, 1, HEAD1, FEET1)))
    assert e.value.reason == "combat/in-combat"


def test_an_offer_lapses_when_an_item_leaves_play_C_ITEM_6():
    s, _ = act(_table(), 0, "trade", 1, 1, HEAD1, FEET1)
    s, ev = act(s, 0, "give", HEAD1, 2)
    assert kinds(ev) == ["gift", "trade_closed"] and ev[1].why == "gone" and not s.turn.trades


def test_one_open_offer_between_two_players_and_one_offer_each_way_a_turn():
    """Bounded (our rule): while an offer is open neither side offers the other; declined, the
    one declined may not offer again this turn, but the other may; next turn both may again."""
    s, _ = act(_table(), 0, "trade", 1, 1, HEAD1, FEET1)
    assert not any(a.kind == "trade" and a.args[0] == 0 for a in legal_actions(s, 1))
    assert not any(a.kind == "trade" and a.args[0] == 1 for a in legal_actions(s, 0))
    assert any(a.kind == "trade" and a.args[0] == 2 for a in legal_actions(s, 0))
    s, ev = act(s, 1, "decline", "trade", 0)
    assert kinds(ev) == ["trade_closed"] and ev[0].why == "declined"
    assert not any(a.kind == "trade" and a.args[0] == 1 for a in legal_actions(s, 0))
    assert Action(1, "trade", (0, 1, FEET1, HEAD1)) in legal_actions(s, 1)
    s, _ = act(s, 1, "trade", 0, 1, FEET1, HEAD1)
    s, ev = act(s, 0, "end_turn")  # Red ends its turn unanswered: the offer lapses with it
    assert s.turn.seat == 1 and s.turn.trades == () and s.turn.offered == ()
    assert any(e.kind == "trade_closed" and (e.by, e.why) == (1, "turn") for e in ev)
    assert Action(0, "trade", (1, 1, HEAD1, FEET1)) in legal_actions(s, 0)  # a new turn: offers again


def test_the_turn_end_window_waits_for_an_answer_and_open_offers_lapse_with_the_turn_C_DIGI_2():
    """C-DIGI-2 f: trades are made in the turn-end window too; an offer there keeps the window open
    for its receiver; a window closing with it unanswered ends it (the turn is over)."""
    s = _table()
    s = s.replace(turn=s.turn.replace(phase=Phase.CLOSING, waiting=(2,)))
    s, _ = act(s, 2, "trade", 1, 1, ARMOUR1, FEET1)
    assert 1 in s.turn.waiting and actors(s)[0] == 1
    assert s.turn.waiting == (1,)  # (Blue, with nothing but offers to make, passed at once)
    s, ev = act(s, 1, "pass")  # Green lets it lapse: the window closes
    assert s.turn.seat == 1 and s.turn.phase == Phase.KICK and s.turn.trades == ()
    assert any(e.kind == "trade_closed" and e.why == "turn" for e in ev)


def test_steeds_and_hirelings_trade_like_items_C_PACK_5():
    """C-PACK-5: a steed for a hireling: each takes its role; nobody ends with two steeds."""
    s = on_top(playing(3, packs=("steeds",)), "CD01")
    s = s.replace(turn=s.turn.replace(phase=Phase.END))
    s = set_player(_without(_without(s, "CT501"), "CT505"), 0, steed="CT501")
    s = set_player(s, 1, hireling="CT505")
    s = in_play(s, 1, FEET1)
    assert Action(0, "trade", (1, 1, "CT501", "CT505")) in legal_actions(s, 0)
    s, _ = act(s, 0, "trade", 1, 1, "CT501", "CT505")
    s, ev = act(s, 1, "accept", "trade", 0)
    assert (s.players[0].steed, s.players[0].hireling) == ("", "CT505")
    assert (s.players[1].steed, s.players[1].hireling) == ("CT501", "")
    s = set_player(_without(s, "CT502"), 2, steed="CT502")
    assert not is_legal(s, Action(2, "trade", (1, 1, "CT502", FEET1)))  # Green rides one already
    assert is_legal(s, Action(2, "trade", (1, 1, "CT502", "CT501")))


def _swap_table():
    """Red (0) wears a beanie +3 and keeps a helm +1 aside; Green (1) wears clogs +2 and keeps socks
    +1 aside: the helm for the socks makes both stronger by 1."""
    s = on_top(playing(3), "CD01")
    s = in_play(in_play(s, 0, "CT05"), 0, HEAD1, in_use=False)
    s = in_play(in_play(s, 1, "CT13"), 1, FEET1, in_use=False)
    return s.replace(turn=s.turn.replace(phase=Phase.END))


def test_the_bot_accepts_a_trade_that_makes_it_stronger_and_declines_one_that_helps_a_leader():
    s = _swap_table()
    for red, answer in ((1, "accept"), (5, "decline")):
        offered, _ = act(set_player(set_player(s, 0, level=red), 1, level=3), 0, "trade", 1, 1, HEAD1, FEET1)
        assert choose(R.view(offered, 1), 1) == Action(1, answer, ("trade", 0)), red
    worse, _ = act(s, 0, "trade", 1, 1, HEAD1, "CT13")  # its clogs for a helm: Green weaker
    assert choose(R.view(worse, 1), 1) == Action(1, "decline", ("trade", 0))


def test_the_bot_offers_a_trade_that_helps_both_on_its_turn_but_not_to_a_leader():
    s = _swap_table()
    assert choose(R.view(s, 0), 0) == Action(0, "trade", (1, 1, HEAD1, FEET1))
    assert choose(R.view(set_player(s, 1, level=4), 0), 0) == Action(0, "end_turn")
