"""Deals in a Classic combat (mq.classic.deals; C-DIGI-3, C-HELP-3, C-HELP-7): help bought with an
item in play, help sold for one, abstention bought with one; the items pass when the combat is
over, won or lost unless conditional on a win, and an item its giver no longer has is void.

Cards (tests/test_classic_rules.py): CD20 Sulking Hydra (level 8, 3 Treasure, Bad Stuff: lose 2
levels), CD40 an enhancer (+10), CD56 a curse (lose an item in play); items CT05 (headgear +3),
CT02 (headgear +1), CT07 (armour +2)."""
from __future__ import annotations

import pytest
from classic_table import CARDS, act, hand, in_play, on_top, playing, set_player
from test_classic_rules import resolve

import mq.rules as R
from mq.bots import classic as bot
from mq.classic import windows
from mq.classic.state import DealKind, PendingKind, Picks, Stage
from mq.rules import Action, IllegalAction, legal_actions


def hydra_fight(fighter_item: str = "CT05"):
    """Red (level 1, +3) kicks open the Hydra (8): alone it loses; Green (level 5) would win it."""
    s = in_play(set_player(on_top(playing(3), "CD20"), 1, level=5), 0, fighter_item)
    s, _ = act(s, 0, "kick")
    return s


def items(s, seat: int) -> dict[str, tuple[bool, bool]]:
    return {it.card: (it.in_use, it.fresh) for it in s.players[seat].items}


def test_help_bought_with_an_item_passes_after_a_win_C_HELP_3_C_DIGI_3():
    """C-HELP-3, C-DIGI-3: the fighter promises an item in play if Green helps (conditional on a win, our rule): Green
    is asked first, joins on accepting, and gets the item once the fight is won: not in use, not
    to be sold before Green's next turn (C-ITEM-6).  One offer per pair a combat."""
    s = hydra_fight()
    offer = Action(0, "deal", (1, DealKind.HELP, "CT05", 0, "helper"))
    assert offer in legal_actions(s, 0)
    s, ev = act(s, 0, "deal", *offer.args)
    assert ev[0].kind == "deal" and ev[0].won_only and R.actors(s) == (1, 0)
    assert offer not in legal_actions(s, 0)  # (the pair has had its offer this combat)
    assert Action(1, "decline", ("deal", 0)) in legal_actions(s, 1)
    s, ev = act(s, 1, "accept", "deal", 0)
    assert s.combat.helper == 1 and [e.kind for e in ev][:2] == ["deal_made", "helps"]
    assert "CT05" in items(s, 0)  # nothing is traded in a combat (C-TURN-8)
    s, ev = resolve(s)
    done = [e for e in ev if e.kind == "deal_done"]
    assert done and done[0].passed and (done[0].giver, done[0].receiver) == (0, 1)
    assert items(s, 1) == {"CT05": (False, True)} and "CT05" not in items(s, 0)


def test_a_promise_conditional_on_a_win_is_kept_only_if_won_C_HELP_3():
    s = hydra_fight()
    s, _ = act(s, 0, "deal", 1, DealKind.HELP, "CT05", 0, "helper")
    s, _ = act(s, 1, "accept", "deal", 0)
    s = hand(s, 2, "CD40")
    s, _ = act(s, 0, "roll")
    s, _ = act(s, 2, "enhance", "CD40", 0)  # +10: the munchkins lose now
    s, _ = finish(s)
    assert "CT05" in items(s, 0) and "CT05" not in items(s, 1)


def _args(a: Action):
    return (a.kind,) + a.args


def finish(s):
    """Drive the combat to its end: the fighter resolves, everyone else passes, runners roll,
    decisions take their first option."""
    events: list = []
    for _ in range(200):
        if s.combat is None and s.pending is None:
            return s, events
        seat = R.actors(s)[0]
        acts = legal_actions(s, seat)
        a = next(a for kind in ("choose", "roll", "pass", "escape") for a in acts if a.kind == kind)
        s, ev = act(s, seat, *_args(a))
        events += ev
    raise AssertionError("the combat did not end")


def test_help_sold_for_an_item_passes_won_or_lost_unless_void_C_HELP_3():
    """Answering a call for help, Green offers to help for Red's item, won or lost; Red takes it.
    A curse takes the item from Red before the end: that part of the deal is void."""
    s = hydra_fight()
    s, _ = act(s, 0, "ask", 1)
    assert Action(1, "offer", (0, "helper", "CT05")) in legal_actions(s, 1)
    s, _ = act(s, 1, "offer", 0, "helper", "CT05")
    assert s.combat.stage == Stage.PREPARE and Action(0, "accept", ("deal", 1)) in legal_actions(s, 0)
    s, _ = act(s, 0, "accept", "deal", 1)
    assert s.combat.helper == 1
    kept = s
    s, ev = resolve(s)
    assert [e.passed for e in ev if e.kind == "deal_done"] == [True] and "CT05" in items(s, 1)
    s = hand(kept, 2, "CD56")
    s, _ = act(s, 2, "curse", "CD56", 0)
    s, _ = act(s, 0, "choose", "CT05")
    s, ev = finish(s)
    assert [e.passed for e in ev if e.kind == "deal_done"] == [False] and "CT05" not in items(s, 1)


def test_abstention_bought_refuses_that_players_help_C_HELP_7():
    """C-HELP-7: Blue pays Green an item not to help Red: once Green accepts, Green is not asked for help,
    cannot offer it or be bribed into it, and a forced offer is refused; after the combat the
    item passes (won or lost)."""
    s = in_play(hydra_fight(), 2, "CT02")
    assert Action(2, "deal", (1, DealKind.ABSTAIN, "CT02")) in legal_actions(s, 2)
    assert Action(2, "deal", (0, DealKind.ABSTAIN, "CT02")) not in legal_actions(s, 2)  # (not the fighter)
    s, _ = act(s, 2, "deal", 1, DealKind.ABSTAIN, "CT02")
    assert R.actors(s)[0] == 1
    s, _ = act(s, 1, "accept", "deal", 2)
    assert not any(a.kind == "deal" and a.args[0] == 1 for a in legal_actions(s, 0))
    assert Action(0, "ask", (1,)) not in legal_actions(s, 0) and Action(0, "ask", (2,)) in legal_actions(s, 0)
    s, _ = act(s, 0, "ask", 2)
    forced = s.replace(combat=s.combat.replace(waiting=(1,) + s.combat.waiting))
    assert not any(a.kind in ("offer", "deal") for a in legal_actions(forced, 1))
    with pytest.raises(IllegalAction) as err:
        R.step(forced, Action(1, "offer", (0, "helper", "")))
    assert err.value.args[0].startswith("help/abstains")
    s, _ = finish(s)
    assert "CT02" in items(s, 1) and "CT02" not in items(s, 2)


def test_the_bot_bribes_accepts_and_never_helps_to_the_winning_level_C_HELP_3():
    """A losing bot fighter whose call for help brought nothing winning promises an item it can
    spare; a bot accepts a bribe that wins the fight, but not one that would take the fighter to
    the winning level; a bot sells its abstention."""
    s = hydra_fight()
    s = s.replace(combat=s.combat.replace(asked=(1, 2)))
    a = bot.choose(R.view(s, 0), 0, CARDS)
    assert a == Action(0, "deal", (1, DealKind.HELP, "", 1, "helper"))  # the least: one Treasure card
    offered, _ = act(s, 0, *_args(a))
    assert bot.choose(R.view(offered, 1), 1, CARDS) == Action(1, "accept", ("deal", 0))
    near = set_player(offered, 0, level=9)
    assert bot.choose(R.view(near, 1), 1, CARDS) == Action(1, "decline", ("deal", 0))
    s = in_play(hydra_fight(), 2, "CT02")
    s, _ = act(s, 2, "deal", 1, DealKind.ABSTAIN, "CT02")
    assert bot.choose(R.view(s, 1), 1, CARDS) == Action(1, "accept", ("deal", 2))


def test_help_is_asked_one_player_after_another_C_HELP_1():
    """C-HELP-1: the fighter asks one player of their choice; the call is a window on that seat
    alone (timed as every window, Q-OPT-1); a refusal lets the fighter ask the next one; others
    may offer unasked meanwhile; each seat is asked once until the next window, so it ends."""
    s = hydra_fight()
    asks = lambda s: [a.args[0] for a in legal_actions(s, 0) if a.kind == "ask"]  # noqa: E731
    assert asks(s) == [1, 2]
    s, _ = act(s, 0, "ask", 2)
    assert windows.window(s) == (Stage.HELP, (2,)) and R.actors(s) == (2,)
    bought, _ = act(in_play(s, 2, "CT02"), 2, "deal", 1, DealKind.ABSTAIN, "CT02")
    assert windows.window(bought) == (Stage.HELP, (2,))  # a deal of another kind is no answer
    assert Action(1, "offer", (0, "helper", "")) in legal_actions(s, 1)  # unasked, Green may still offer
    assert all(a.kind not in ("ask", "roll") for a in legal_actions(s, 0))
    s, ev = act(s, 2, "pass")
    assert [(e.kind, e.stage) for e in ev if e.kind == "pass"] == [("pass", Stage.HELP)]
    assert s.combat.stage == Stage.PREPARE and asks(s) == [1] and s.combat.asked == (2,)
    s, _ = act(s, 0, "ask", 1)
    s, _ = act(s, 1, "pass")
    assert asks(s) == [] and Action(0, "roll") in legal_actions(s, 0)
    s = hand(s, 2, "CD40")
    s, _ = act(s, 0, "roll")
    s, _ = act(s, 2, "enhance", "CD40", 0)  # a card in the window: the fighter may answer, and ask again
    while s.combat.stage == Stage.WINDOW:  # (the others pass, by themselves when they hold nothing)
        s, _ = act(s, s.combat.waiting[0], "pass")
    assert s.combat.stage == Stage.PREPARE and asks(s) == [1, 2]


def test_the_bot_asks_the_likeliest_helper_and_helps_no_one_who_wins_alone_C_HELP_1():
    """The bot fighter asks first one whose help wins, no elf (an elf helper goes up levels), the
    lowest level; a bot asked by a fighter who wins alone refuses."""
    s = set_player(set_player(hydra_fight(), 2, level=6), 1, level=7)
    assert bot.choose(R.view(s, 0), 0, CARDS) == Action(0, "ask", (2,))
    s = in_play(set_player(s, 2, level=7), 1, "CD63")  # Green an elf now, Blue as strong
    assert bot.choose(R.view(s, 0), 0, CARDS) == Action(0, "ask", (2,))
    asked, _ = act(s, 0, "ask", 1)
    assert bot.choose(R.view(asked, 1), 1, CARDS).kind == "offer"
    strong = set_player(s, 0, level=6)  # 6 + 3 beats the Hydra's 8 alone
    asked, _ = act(strong, 0, "ask", 1)
    assert bot.choose(R.view(asked, 1), 1, CARDS) == Action(1, "pass")


def helped_win(share: int, order: str, item: str = "", s=None):
    """Red asks Green, who offers (share, order, item); Red takes it and the Hydra (3 Treasure) is
    beaten: the state after the last-chance window, and its events."""
    s, _ = act(s if s is not None else hydra_fight(), 0, "ask", 1)
    s, _ = act(s, 1, "offer", share, order, item)
    s, _ = act(s, 0, "accept", "deal", 1)
    return resolve(s)


def test_the_treasure_is_picked_in_the_order_of_the_deal_C_HELP_3_C_DIGI_3_C_DIGI_5():
    """C-HELP-3, C-DIGI-3, 5: a share says how many cards and who picks first: the cards are laid
    out face-up and picked one at a time as pending choices: the fighter first (all of theirs,
    then the rest to the helper), or in turns, the helper first (once one side is done, the rest
    goes to the other)."""
    s, ev = helped_win(1, Picks.FIGHTER)
    pool = next(e for e in ev if e.kind == "laid_out").cards
    assert len(pool) == 3 and (s.pending.kind, s.pending.seat) == (PendingKind.PICK, 0)
    s, _ = act(s, 0, "choose", pool[2])
    assert (s.pending.seat, s.pending.gifts) == (0, ((1, 1), (0, 1)))  # the fighter again: 2 are theirs
    s, ev = act(s, 0, "choose", pool[0])
    assert [(e.seat, e.card) for e in ev if e.kind == "pick"] == [(0, pool[0]), (1, pool[1])] and s.pending is None
    s, ev = helped_win(2, Picks.TURNS)
    pool = next(e for e in ev if e.kind == "laid_out").cards
    s, _ = act(s, 1, "choose", pool[1])
    assert s.pending.seat == 0  # in turns
    s, ev = act(s, 0, "choose", pool[0])
    assert [(e.seat, e.card) for e in ev if e.kind == "pick"] == [(0, pool[0]), (1, pool[2])]
    assert set(s.players[1].hand) == {pool[1], pool[2]}
    with pytest.raises(IllegalAction):  # a card not laid out
        R.step(s.replace(pending=s.pending), Action(0, "choose", ("CT05",)))


def test_one_offer_combines_a_share_and_an_item_C_HELP_3():
    """C-HELP-3: Green's help for 1 Treasure card and Red's item: after the win Green picks one
    card and receives the item; a share alone or an item alone is listed too, and an order only
    where there is something to pick."""
    s = hydra_fight()
    s, _ = act(s, 0, "ask", 1)
    offers = {a.args for a in legal_actions(s, 1) if a.kind == "offer"}
    assert {(0, "helper", ""), (3, "helper", ""), (1, "turns", ""), (0, "helper", "CT05"), (2, "fighter", "CT05")} <= offers
    assert (0, "turns", "") not in offers and (3, "fighter", "CT05") not in offers
    s, ev = helped_win(1, Picks.HELPER, "CT05")
    assert [(e.giver, e.receiver, e.item, e.passed) for e in ev if e.kind == "deal_done"] == [(0, 1, "CT05", True)]
    assert (s.pending.kind, s.pending.seat) == (PendingKind.PICK, 1) and items(s, 1) == {"CT05": (False, True)}


def test_several_bid_and_the_fighter_takes_one_C_HELP_1_C_HELP_3():
    """C-HELP-1, 3: Blue offers unasked while Green is asked and offers too: two bids are open;
    the fighter takes Blue's, Green's lapses; the bot fighter takes the cheapest that wins."""
    s = set_player(hydra_fight(), 2, level=5)
    s, _ = act(s, 0, "ask", 1)
    s, _ = act(s, 2, "offer", 1, "helper", "")  # unasked
    assert Action(2, "offer", (1, "helper", "")) not in legal_actions(s, 2)  # (one offer unasked a combat)
    s, _ = act(s, 1, "offer", 2, "helper", "")
    assert {(d.by, d.share) for d in s.combat.proposed} == {(2, 1), (1, 2)}
    assert bot.choose(R.view(s, 0), 0, CARDS) == Action(0, "accept", ("deal", 2))
    s, ev = act(s, 0, "accept", "deal", 2)
    assert s.combat.helper == 2 and not s.combat.proposed


def test_a_steed_trades_in_a_deal_like_an_item_C_PACK_5_C_HELP_3():
    """C-PACK-5 ("both trade like items"), C-HELP-3: Red's steed asked as the price of help passes
    to Green after the combat; a hireling may be promised for abstaining."""
    from mq.cards.classic_packs import NAMES

    s = in_play(set_player(on_top(playing(3, packs=NAMES), "CD20"), 1, level=5), 0, "CT05")
    s = set_player(hand(s, 0, "CT502"), 0, hand=(), steed="CT502")  # (hand: out of its deck)
    s = set_player(hand(s, 2, "CT505"), 2, hand=(), hireling="CT505")
    s, _ = act(s, 0, "kick")
    assert Action(2, "deal", (1, DealKind.ABSTAIN, "CT505")) in legal_actions(s, 2)
    s, ev = helped_win(0, Picks.HELPER, "CT502", s=s)  # (Green asks for the steed)
    assert [e.item for e in ev if e.kind == "deal_done" and e.passed] == ["CT502"]
    assert s.players[1].steed == "CT502" and not s.players[0].steed


def test_the_bot_fighter_takes_a_fair_offer_only_C_HELP_3():
    """The bot takes an offer of help that wins for at most half the Treasure and no card of its
    in use; it declines one asking all three cards, or the item it fights with."""
    s = hydra_fight()
    s, _ = act(s, 0, "ask", 1)
    for terms, fair in (((2, "turns", ""), True), ((3, "helper", ""), False), ((0, "helper", "CT05"), False)):
        offered, _ = act(s, 1, "offer", *terms)
        answer = bot.choose(R.view(offered, 0), 0, CARDS)
        assert answer == Action(0, "accept" if fair else "decline", ("deal", 1)), (terms, answer)
