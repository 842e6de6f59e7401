"""The bots at the table (mq.bots): each behaviour from a position built with tests/builders.py,
asserting the bot's choice; the fight odds against the engine's own arithmetic; and that bots
decide from their view alone, the same way every time, and finish their games."""
from __future__ import annotations

import itertools

from builders import (
    CARDS,
    E,
    W,
    act,
    add_monster,
    colour,
    dxm_card,
    face,
    fresh_turn,
    hand,
    line,
    monster_card,
    nxt,
    put,
    quiet,
    rig,
    set_player,
    stack,
)

from mq.bots import choose, odds
from mq.bots.deals import Haggle
from mq.bots.policy import BRIBE_FUND
from mq.cards import CardKind
from mq.rules import Action, combat, legal_actions, view
from mq.rules.legal import deal_cost
from mq.rules.state import BACKPACK, CARRIED, WORN, Deck
from mq.sim import game_seed, play_game


def pick(s, seat):
    """The bot's choice for ``seat`` from its own view (Q-DIGI-4)."""
    return choose(view(s, seat), seat, CARDS)


def item(pred, by=lambda d: (d.bonus, d.value)):
    """The unrestricted item with ``pred`` that is best ``by`` (strength first)."""
    return max((d for d in CARDS.treasures if d.kind == CardKind.ITEM and not d.only and not d.not_for and pred(d)),
               key=lambda d: (by(d), d.id)).id


# Unrestricted items with no move penalty (Q-ITEM-8: none is big), the strongest of each kind.
HAT = item(lambda d: d.slot == "head" and not d.big)
ARMOUR = item(lambda d: d.slot == "armour" and not d.big)
SWORD, SWORD2 = (item(lambda d, n=n: d.slot == "hands" and d.hands == 1 and not d.big and d.id != n)
                 for n in ("", item(lambda d: d.slot == "hands" and d.hands == 1 and not d.big)))
FEET = item(lambda d: d.slot == "feet" and not d.big)
CLOTHES = tuple(d.id for d in CARDS.treasures if d.kind == CardKind.ITEM and d.slot in ("clothing", "belt")
                and d.bonus > 0 and not d.only and not d.not_for and not d.big)
PLAIN_MONSTERS = sorted((d for d in CARDS.monsters if not d.ignores and not d.rewards
                  and not d.bonuses and not d.mighty), key=lambda d: (d.level, d.id))
WEAK = next(d.id for d in PLAIN_MONSTERS if d.level <= 2)
STRONG = next(d.id for d in PLAIN_MONSTERS if d.level >= 8)
STRONG_DEF = CARDS.card(STRONG)
ELF = dxm_card(lambda d: d.key == "elf")
BOSS_CARD = monster_card(lambda d: d.dice == 1 and not d.ignores and not d.rewards and not d.bonuses)


GEAR = ((HAT, WORN), (ARMOUR, WORN), (SWORD, CARRIED), (SWORD2, CARRIED), (FEET, WORN)) \
    + tuple((c, WORN if CARDS.card(c).slot == "clothing" else "belt") for c in CLOTHES)


def strong(s, seat, level=5):
    """``seat`` at ``level`` wearing and carrying the best unrestricted gear (+15 or so)."""
    return put(set_player(s, seat, level=level), seat, *GEAR)


def call_for_help(fighter_level=3, fighter_gold=0, helper_level=3, monster=STRONG, backpack=(), players=2):
    """The active munchkin walks east into ``monster`` and asks for help; the next seat, strong,
    waits next door in the Entrance."""
    s = quiet(players)
    a = s.turn.seat
    b = nxt(s, a)
    s, (r1,) = line(s, 1)
    s = add_monster(s, monster, r1, b)
    s = set_player(s, a, level=fighter_level, gold=fighter_gold)
    s = put(s, a, *((c, BACKPACK) for c in backpack))
    s = strong(s, b, helper_level)
    s, _ = act(s, a, "move", E)
    assert s.combat is not None and s.combat.fighter == a
    s, _ = act(s, a, "ask")
    assert s.combat.stage == "help" and s.combat.waiting == (b,)
    return s, a, b


# -- bribes (Q-HELP-2, Q-DIGI-3) -------------------------------------------------------------
def test_a_bidder_asks_a_fighter_with_gold_for_gold():
    """Q-HELP-2: help is bought with gold, not only with Treasure picks."""
    s, a, b = call_for_help(fighter_gold=600)
    choice = pick(s, b)
    assert choice.kind == "offer" and choice.args[0] > 0, choice


def test_a_bidder_asks_a_fighter_without_gold_for_an_item_in_play():
    """Q-HELP-2: an item of the fighter's in play is a price too (here a spare one in the backpack,
    worth more to the helper than the Treasure picks)."""
    crown = item(lambda d: d.slot == "armour" and d.id != ARMOUR, by=lambda d: d.value)
    s, a, b = call_for_help(fighter_gold=0, backpack=(crown,))
    s = set_player(s, b, items=tuple(it for it in s.players[b].items if it.card != ARMOUR))  # b wears none
    choice = pick(s, b)
    assert choice == Action(b, "offer", (0, 0, crown)), choice
    s, _ = act(s, b, "offer", 0, 0, crown)
    answer = pick(s, a)  # the fight is worth more to the fighter than the armour: a deal, or haggling
    assert answer == Action(a, "accept", (b,)) or answer.kind == "counter", answer


def test_the_fighter_haggles_a_dear_bid_down_and_the_bidder_takes_it():
    """Q-DIGI-3: the fighter counters a dear bid with cheaper terms the bidder will still take."""
    s, a, b = call_for_help(fighter_gold=600)
    s, _ = act(s, b, "offer", 600, 2)
    choice = pick(s, a)
    assert choice.kind == "counter" and choice.args[0] == b, choice
    _, gold, share = choice.args[:3]
    first = choice.args[4] if len(choice.args) > 4 else "helper"  # (Q-HELP-2: who picks first)
    assert deal_cost(gold, share, "", CARDS, first) < deal_cost(600, 2, "", CARDS)
    s, _ = act(s, a, "counter", *choice.args)
    assert pick(s, b) == Action(b, "accept", (a,))


def test_nobody_helps_a_rival_to_the_winning_level_for_free():
    """A munchkin one kill from level 10 is everyone's enemy: with nothing to pay, no help; with
    gold, help only at a price (never free)."""
    s, a, b = call_for_help(fighter_level=9, fighter_gold=0, helper_level=5)
    assert pick(s, b) == Action(b, "pass")
    s, a, b = call_for_help(fighter_level=9, fighter_gold=600, helper_level=5)
    choice = pick(s, b)
    assert choice.kind == "pass" or choice.args[:2] != (0, 0), choice


def test_an_elf_helps_an_equal_for_nothing_but_not_a_rival_to_level_10():
    """Q-CHAR-4: an elf goes up a level for helping, which is pay enough between equals; the
    winning level for a rival is not."""
    s, a, b = call_for_help(fighter_level=3, helper_level=3)
    s = set_player(s, b, races=(ELF,))
    assert Haggle(view(s, b), CARDS).acceptable(b, 0, 0)
    s9, a, b = call_for_help(fighter_level=9, helper_level=3)
    s9 = set_player(s9, b, races=(ELF,))
    assert not Haggle(view(s9, b), CARDS).acceptable(b, 0, 0)


# -- the Boss (Q-BOSS) -----------------------------------------------------------------------
def boss_call(fighter_gold=600, helper_level=10, helper_strength=True, fighter_items=()):
    """A level-10 munchkin walks into the Entrance and meets the Boss (Q-BOSS-1); a level-10 rival
    next door hears the call for help."""
    s = quiet(2)
    a = s.turn.seat
    b = nxt(s, a)
    s, (r1,) = line(s, 1)
    s = set_player(s, a, level=10, room=r1, gold=fighter_gold)
    s = put(s, a, *fighter_items)
    s = set_player(s, b, level=helper_level, room=r1)
    if helper_strength:
        s = strong(s, b, helper_level)
    s = stack(s, "monster", [BOSS_CARD])
    s = rig(s, colour(a))
    s, _ = act(s, a, "move", W)
    assert s.combat is not None and s.combat.boss
    s, _ = act(s, a, "ask")
    assert s.combat.waiting == (b,)
    return s, a, b


def test_a_level_10_rival_does_not_help_against_the_boss_for_free():
    """Q-BOSS-3, 4: helping kills the Boss for both, but a shared win is half a win: the helper
    asks a price the fighter can pay."""
    s, a, b = boss_call(fighter_gold=600, helper_strength=False)
    choice = pick(s, b)
    assert choice.kind == "offer" and (choice.args[0] > 0 or len(choice.args) > 2), choice
    h = Haggle(view(s, b), CARDS)
    assert not h.acceptable(b, 0, 0) and not h.acceptable(b, 0, 2)  # picks are no pay: a kill ends the game
    assert h.acceptable(b, 300, 0)
    poor, a, b = boss_call(fighter_gold=0, helper_strength=False)
    assert Haggle(view(poor, b), CARDS).acceptable(b, 0, 0)  # nothing to give: the shared win is the deal


def test_a_level_10_rival_who_could_win_alone_lets_a_hopeless_boss_fight_fail():
    """A helper strong enough for a Boss of their own does better letting the fighter lose (a
    level, Q-BOSS-5) than sharing the win."""
    s, a, b = boss_call()
    h = Haggle(view(s, b), CARDS)
    assert h.p_alone < 100 and h.own_boss_chance(b) > 500
    assert pick(s, b) == Action(b, "pass")


def test_the_table_spoils_a_boss_fight():
    """Q-HELP-3: a monster enhancer goes on the Boss from a player who is not in the fight."""
    s = quiet(3)
    a = s.turn.seat
    c = nxt(s, nxt(s, a))
    s, (r1,) = line(s, 1)
    s = strong(set_player(s, a, room=r1), a, 10)
    s = stack(s, "monster", [BOSS_CARD])
    s = rig(s, colour(a))
    s, _ = act(s, a, "move", W)
    enhancer = dxm_card(lambda d: d.kind == "enhancer" and d.bonus > 0)
    s = hand(s, c, enhancer)
    s = set_player(s, a, hand=())
    s, _ = act(s, a, "roll")
    while s.combat.stage == "window" and s.combat.waiting[0] != c:
        s, _ = act(s, s.combat.waiting[0], "pass")
    assert pick(s, c).kind == "enhance"
    assert pick(s, c).args[0] == enhancer


# -- the turn --------------------------------------------------------------------------------
def complete(s):
    """Q-EXPLORE-6: no room tiles left to place."""
    return s.replace(room_deck=Deck((), s.room_deck.discard))


def summon_position(level, items=()):
    """The active munchkin enters a monster-free room of a complete dungeon (Q-EXPLORE-7); the
    other seat is a level behind (so the table has no runaway leader to stop)."""
    s = quiet(2)
    a = s.turn.seat
    s, (r1,) = line(s, 1)
    s = complete(s)
    s = set_player(set_player(s, a, level=level), nxt(s, a), level=max(1, level - 1))
    s = put(s, a, *items)
    s, _ = act(s, a, "move", E)
    assert Action(a, "summon") in legal_actions(s, a)
    return s, a


def test_no_summoning_a_monster_it_cannot_expect_to_beat():
    """Q-EXPLORE-7: a weak munchkin does not draw a monster it would probably lose to."""
    s, a = summon_position(1)
    assert odds.summon_chance(view(s, a), a, CARDS) < 500
    assert pick(s, a).kind != "summon"


def test_a_strong_munchkin_summons():
    s, a = summon_position(8, GEAR)
    assert odds.summon_chance(view(s, a), a, CARDS) >= 850
    assert pick(s, a) == Action(a, "summon")


def test_in_a_complete_dungeon_it_walks_to_an_empty_room_to_summon():
    """Q-EXPLORE-6, 7: with nothing left to explore, a fight comes from summoning in a monster-free
    room it enters: a strong munchkin goes looking for one rather than ending its turn."""
    s = quiet(2)
    a = s.turn.seat
    s, (r1, r2) = line(s, 2)
    s = complete(strong(set_player(s, a, room=r1), a, 6))
    s = set_player(s, nxt(s, a), level=5)
    s = fresh_turn(s, a, searched=(r1,))  # (searched already: searching first would be fine too)
    assert Action(a, "summon") not in legal_actions(s, a)  # not in the room the turn began in
    assert pick(s, a) == Action(a, "move", (E,))


def test_at_level_10_it_heads_for_the_entrance_past_a_beatable_monster():
    """Q-BOSS-1: at level 10 the Boss waits in the Entrance; a monster next door it could beat for
    its Treasure is not worth the detour."""
    s = quiet(2)
    a = s.turn.seat
    s, (r1, r2) = line(s, 2)
    s = add_monster(s, WEAK, r2, nxt(s, a))
    s = strong(set_player(s, a, room=r1), a, 10)
    s = fresh_turn(s, a)
    assert combat.hostile_in(s, a, CARDS, r2)
    assert pick(s, a) == Action(a, "move", (W,))


def deal_room(effect):
    return face(lambda f: any(e.name == effect for e in f.effects))


def in_deal_room(effect, level, gold, hand_cards=(), items=()):
    s = quiet(2)
    a = s.turn.seat
    s, (r1,) = line(s, 1, face=deal_room(effect))
    s = set_player(s, a, room=r1, level=level, gold=gold)
    s = put(s, a, *items)
    s = hand(s, a, *hand_cards)
    return fresh_turn(s, a), a


def test_sells_an_item_it_cannot_use_at_a_selling_room_and_never_a_card_in_hand():
    """Q-SEARCH-5, Q-CARD-9: a backpacked item whose restriction switches it off is gold instead;
    a spare hat in hand with no room to go is not in play, so it is not sold."""
    spare = item(lambda d: d.slot == "head" and d.id != HAT and 0 < d.value <= 400, by=lambda d: -d.value)
    barred = min((d for d in CARDS.treasures if d.kind == CardKind.ITEM and d.only and d.value > 0
                  and d.slot == "head"),
                 key=lambda d: (d.value, d.id)).id
    other = item(lambda d: d.slot == "armour" and d.id != ARMOUR, by=lambda d: -d.value)
    assert CARDS.card(barred).value + CARDS.card(other).value < 1000  # together they buy no level
    s, a = in_deal_room("deal_sell", 3, 0, (spare,), ((HAT, WORN), (ARMOUR, WORN), (barred, BACKPACK),
                                                       (other, BACKPACK)))
    assert Action(a, "deal", ("sell", spare)) not in legal_actions(s, a)
    assert pick(s, a) == Action(a, "deal", ("sell", barred))


def test_buys_treasure_with_gold_that_can_no_longer_buy_a_level():
    """Q-SEARCH-5, Q-CHAR-3: at level 9 gold buys no level; Treasure for it pays, keeping a bribe."""
    s, a = in_deal_room("deal_buy", 9, 2000)
    assert pick(s, a) == Action(a, "deal", ("buy",))
    price = next(e.get("price") for e in CARDS.face(s.rooms[s.players[a].room].face).effects
                 if e.name == "deal_buy")
    s, a = in_deal_room("deal_buy", 9, price + BRIBE_FUND - 100)
    assert pick(s, a).kind != "deal"
    s, a = in_deal_room("deal_buy", 4, 2000)  # gold still buys levels
    assert pick(s, a).kind != "deal"


# -- odds (mq.bots.odds) ---------------------------------------------------------------------
def test_the_chance_of_a_helped_fight_is_the_engine_outcome_over_every_roll():
    """Every roll of the dice through mq.rules.combat.outcome: the share it wins is the chance."""
    s, a, b = call_for_help(fighter_level=4, helper_level=2)
    s, _ = act(s, b, "offer", 0, 0)
    s, _ = act(s, a, "accept", b)
    v = view(s, a)
    c = v.combat
    n_mine = 2  # one die each (no room icons on the plain faces)
    n_theirs = sum(CARDS.card(combat.find(v.monsters, u).card).dice for u in c.monsters)
    wins = total = 0
    for dice in itertools.product(range(1, 7), repeat=n_mine + n_theirs):
        won = combat.outcome(v, CARDS, dice[:n_mine], (dice[n_mine:],))[-1]
        wins += won
        total += 1
    assert odds.chance(v, CARDS) == wins * 1000 // total


# -- the view only, deterministic, games end -------------------------------------------------
def test_the_choice_depends_on_the_view_only_and_never_changes():
    """Q-DIGI-4: another seat's hand is hidden; what it holds cannot change the bot's choice."""
    s, a, b = call_for_help(fighter_gold=600)
    other = hand(set_player(s, a, hand=()), a, *[d.id for d in CARDS.treasures if d.kind == "oneshot"][:3])
    assert pick(s, b) == pick(other, b) == pick(s, b)


def test_every_game_of_a_small_sim_finishes():
    for players, i in ((3, 0), (4, 1), (4, 2), (5, 3)):
        result, final, _ = play_game(players, game_seed(77, i))
        assert final.phase == "over", (players, i, result)


def test_keeps_the_race_it_has_rather_than_swap_it_for_another():
    """Q-CARD-5: with Half-Breed, a race card may replace the race in play; the bot cannot weigh
    what a swap costs (items that stop working), so it plays the card only into a free place."""
    half = dxm_card(lambda d: d.kind == "halfbreed")
    elf, dwarf = (dxm_card(lambda d, k=k: d.kind == "race" and d.key == k) for k in ("elf", "dwarf"))
    s = quiet(2)
    a = s.turn.seat
    s = fresh_turn(hand(set_player(s, a, races=(elf,), hybrids=(half,)), a, dwarf), a)
    assert Action(a, "play", (dwarf, elf)) in legal_actions(s, a)
    assert pick(s, a) == Action(a, "play", (dwarf,))  # a second race beside the first
    s = set_player(s, a, races=(elf, dxm_card(lambda d: d.kind == "race" and d.key == "halfling")))
    assert Action(a, "play", (dwarf, elf)) in legal_actions(s, a)
    assert pick(s, a).kind != "play"


def _out_of_turn_states(seeds=(2, 6, 11), players=4, limit=1500):
    """(state, seat) along bot games where ``seat`` holds newly gained Treasure on another's turn
    that the engine lets it put into play now (Q-CARD-3, Q-TURN-3: a helper's share, say)."""
    from mq.rules import actors, make_params, new_game, step
    from mq.rules.legal import legal_actions as legal_of_kind

    for seed in seeds:
        s = new_game(make_params(players), seed, CARDS)
        for _ in range(limit):
            if not actors(s):
                break
            if s.combat is None and s.pending is None and s.turn is not None:
                for p in s.players:
                    if p.seat != s.turn.seat and any(a.args[0] in p.fresh for a in legal_of_kind(s, p.seat, CARDS, "play")):
                        yield s, p.seat
            seat = actors(s)[0]
            s, _ = step(s, choose(view(s, seat), seat, CARDS), CARDS)


def test_a_bot_puts_new_treasure_into_play_on_anothers_turn_when_it_counts_at_once():
    """Q-CARD-3, Q-TURN-3: out of turn, the bot plays a newly gained item that goes worn, carried
    or onto the belt (mq.bots.policy.out_of_turn), never one the backpack would take, never a card
    it held before, and nothing when the game waits for it or it has nothing new."""
    from mq.bots.policy import out_of_turn
    from mq.rules.character import place_for

    played = waited = 0
    for s, seat in _out_of_turn_states():
        v = view(s, seat)
        p = v.players[seat]
        a = out_of_turn(v, seat, CARDS)
        counts = [c for c in p.fresh if Action(seat, "play", (c,)) in legal_actions(s, seat, CARDS)
                  and place_for(p, CARDS.card(c), CARDS) not in (None, BACKPACK)]
        if counts:
            assert a is not None and a.kind == "play" and a.args[0] in counts
            assert a in legal_actions(s, seat, CARDS)
            played += 1
        else:
            assert a is None
            waited += 1
        assert out_of_turn(view(s, s.turn.seat), s.turn.seat, CARDS) is None  # its own turn is choose()'s
    assert played >= 3 and waited >= 1, (played, waited)
