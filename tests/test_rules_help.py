"""Asking for help and helping (Q-HELP-1, 2, 4; Q-BOSS-3, 4): who may offer, binding deals the
engine carries out, the helper's strength, the split of rewards, and running away separately."""
from __future__ import annotations

from builders import (
    CARDS,
    act,
    add_monster,
    census,
    dxm_card,
    fresh_turn,
    hand,
    legal,
    line,
    monster_card,
    nxt,
    put,
    quiet,
    refused,
    rig,
    set_player,
    stack,
)
from test_rules_combat import LURKER2, resolve, result

from mq.rules import Action, actors, view
from mq.rules.legal import HELP_ROUNDS, REBIDS

HAT = next(d.id for d in CARDS.treasures if d.kind == "item" and d.slot == "head" and not d.only)
MIGHTY = monster_card(lambda d: d.mighty and d.movement == "lurking" and not d.ignores and not d.rewards)
ELF = dxm_card(lambda d: d.key == "elf")
E = 1


def fight_with_neighbour(players=3, monsters=(LURKER2,), helper_room=0):
    """The active munchkin walks east into a room with ``monsters``; the next seat waits in
    ``helper_room`` (the Entrance, next door, by default); a third seat, if any, is two rooms away."""
    s = quiet(players)
    a = s.turn.seat
    b = nxt(s, a)
    s, (r1, r2) = line(s, 2)
    for card in monsters:
        s = add_monster(s, card, r1, b)
    s = set_player(s, b, room=helper_room)
    if players > 2:
        s = set_player(s, nxt(s, b), room=0)
    s, _ = act(s, a, "move", E)
    return s, a, b, r1, r2


def test_who_may_help():
    """Q-HELP-1: munchkins in the room or next door through a non-wall connector may offer; asking
    opens a call that waits for every one who may."""
    s, a, b, r1, r2 = fight_with_neighbour(players=3)
    c = nxt(s, b)
    s = set_player(s, c, room=r2)  # r2 is next to r1 too
    s2, ev = act(s, a, "ask")
    assert ev == (("asks_help", a),) and s2.combat.stage == "help"
    assert set(s2.combat.waiting) == {b, c} and set(actors(s2)) == {b, c}
    dead = set_player(s, c, alive=False)
    s3, _ = act(dead, a, "ask")
    assert s3.combat.waiting == (b,)


def test_offers_then_a_binding_deal():
    """Q-HELP-2, Q-DIGI-3: each may offer help for gold and first Treasure picks or pass; the
    fighter accepts one: the gold changes hands at once and the helper moves in for free."""
    s, a, b, r1, _ = fight_with_neighbour(players=2)
    s = set_player(s, a, gold=500)
    s, _ = act(s, a, "ask")
    assert Action(b, "offer", (300, 1)) in legal(s, b) and Action(b, "pass") in legal(s, b)
    s, ev = act(s, b, "offer", 300, 1)
    assert ev == (("offers_help", b, a, 300, 1, "", "helper"),) and actors(s) == (a,)
    assert {Action(a, "accept", (b,)), Action(a, "decline"), Action(a, "suicide")} <= set(legal(s, a))
    gold_b = s.players[b].gold
    s, ev = act(s, a, "accept", b)
    assert ev == (("helps", b, a, 300, 1, "", "helper"),)
    assert s.players[a].gold == 200 and s.players[b].gold == gold_b + 300 and s.players[b].room == r1
    assert (s.combat.helper, s.combat.share, s.combat.stage) == (b, 1, "prepare")
    assert Action(a, "ask") not in legal(s, a)  # at most one helper


def test_an_offer_the_fighter_cannot_pay_cannot_be_accepted():
    """Q-HELP-2: a deal is binding, so only one the fighter can pay is open to accept."""
    s, a, b, _, _ = fight_with_neighbour(players=2)
    s = set_player(s, a, gold=100)
    s, _ = act(s, a, "ask")
    s, _ = act(s, b, "offer", 300, 0)
    assert set(legal(s, a)) == {Action(a, "decline"), Action(a, "suicide"), Action(a, "counter", (b, 0, 0)),
                                Action(a, "drop", (100,))}
    s, ev = act(s, a, "decline")
    assert ev == (("no_help", a),) and s.combat.stage == "prepare" and s.combat.helper == -1


def test_the_helper_may_pay_for_the_privilege():
    """Q-DIGI-3: an offer names what each side gives: here the helper pays the fighter (negative
    gold), and only a helper who has the gold may offer it; the engine moves it on acceptance."""
    s, a, b, r1, _ = fight_with_neighbour(players=2)
    s = set_player(set_player(s, b, gold=400), a, gold=0)
    s, _ = act(s, a, "ask")
    assert Action(b, "offer", (-300, 1)) in legal(s, b) and Action(b, "offer", (-500, 0)) not in legal(s, b)
    s, ev = act(s, b, "offer", -300, 1)
    assert ev == (("offers_help", b, a, -300, 1, "", "helper"),) and Action(a, "accept", (b,)) in legal(s, a)
    s, ev = act(s, a, "accept", b)
    assert ev == (("helps", b, a, -300, 1, "", "helper"),)
    assert (s.players[a].gold, s.players[b].gold, s.players[b].room) == (300, 100, r1)
    assert (s.combat.helper, s.combat.share) == (b, 1)


def test_several_bids_the_fighter_takes_one():
    """Q-HELP-2: several munchkins bid; the fighter compares them and takes one; only that deal
    is carried out."""
    s, a, b, r1, _ = fight_with_neighbour(players=3)
    c = nxt(s, b)
    s = set_player(s, a, gold=1000)
    s, _ = act(s, a, "ask")
    s, _ = act(s, b, "offer", 600, 0)
    s, _ = act(s, c, "offer", 0, 2)
    assert s.combat.offers == ((b, 600, 0, "", "helper"), (c, 0, 2, "", "helper"))
    assert {Action(a, "accept", (b,)), Action(a, "accept", (c,))} <= set(legal(s, a))
    gold = (s.players[b].gold, s.players[c].gold)
    s, _ = act(s, a, "accept", c)
    assert (s.combat.helper, s.combat.share, s.players[a].gold) == (c, 2, 1000)
    assert (s.players[b].gold, s.players[c].gold) == gold and s.players[b].room == 0


def test_a_counter_offer_is_accepted_refused_or_outbid():
    """Q-DIGI-3: the fighter answers a bid with cheaper terms; that bidder alone decides: accept
    (a binding deal, carried out at once), bid again, or pass (the bid is withdrawn); the other
    bids stay on the table."""
    s, a, b, r1, _ = fight_with_neighbour(players=3)
    c = nxt(s, b)
    s = set_player(s, a, gold=1000)
    s, _ = act(s, a, "ask")
    s, _ = act(s, b, "offer", 600, 1)
    s, _ = act(s, c, "offer", 500, 0)
    assert Action(a, "counter", (b, 300, 0)) in legal(s, a)
    assert Action(a, "counter", (c, 500, 0)) not in legal(s, a)  # a counter-offer costs less
    s, ev = act(s, a, "counter", b, 300, 0)
    assert ev == (("counter_offer", a, b, 300, 0, "helper"),) and actors(s) == (b,)
    assert s.combat.offers == ((c, 500, 0, "", "helper"), (a, 300, 0, "", "helper")) and s.combat.rounds == 2
    assert Action(b, "accept", (a,)) in legal(s, b) and not any(x.kind == "accept" for x in legal(s, c))
    took, ev = act(s, b, "accept", a)
    assert ev == (("helps", b, a, 300, 0, "", "helper"),) and took.players[a].gold == 700
    assert (took.combat.helper, took.combat.share, took.players[b].room) == (b, 0, r1)
    outbid, ev = act(s, b, "offer", 500, 0)
    assert outbid.combat.offers == ((c, 500, 0, "", "helper"), (b, 500, 0, "", "helper")) and actors(outbid) == (a,)
    gone, ev = act(s, b, "pass")
    assert ("counter_refused", b, a) in ev and gone.combat.offers == ((c, 500, 0, "", "helper"),)
    assert gone.combat.stage == "help" and actors(gone) == (a,)


def test_asking_again_after_declining_and_haggling_ends():
    """Q-HELP-1, 2: after declining every offer the fighter may ask again; calls for help and
    counter-offers together are bounded (HELP_ROUNDS), so haggling ends."""
    s, a, b, _, _ = fight_with_neighbour(players=2)
    s = set_player(s, a, gold=1000)
    for _ in range(HELP_ROUNDS):
        assert Action(a, "ask") in legal(s, a)
        s, _ = act(s, a, "ask")
        s, _ = act(s, b, "offer", 600, 2)
        s, _ = act(s, a, "decline")
    assert s.combat.rounds == HELP_ROUNDS and Action(a, "ask") not in legal(s, a)
    s2 = s.replace(combat=s.combat.replace(rounds=HELP_ROUNDS - 2))
    s2, _ = act(s2, a, "ask")
    s2, _ = act(s2, b, "offer", 600, 2)
    s2, _ = act(s2, a, "counter", b, 0, 0)  # the last round
    s2, _ = act(s2, b, "offer", 600, 1)
    assert not any(x.kind == "counter" for x in legal(s2, a))


def test_cards_while_help_is_negotiated():
    """Q-HELP-3, Q-TURN-2, Q-CARD-6: while offers are being made, anyone may play anytime cards
    on the fight (an enhancer, a curse, a level), bidders and bystanders alike; one-shots wait
    for the interrupt window (Q-COMBAT-7)."""
    up = dxm_card(lambda d: d.kind == "enhancer" and d.bonus > 0)
    level = dxm_card(lambda d: d.kind == "level")
    s, a, b, r1, _ = fight_with_neighbour(players=3, helper_room=0)
    c = nxt(s, b)
    s, (far,) = line(s, 1, y=6)
    s = set_player(s, c, room=far)  # too far to help; may still play cards (Q-HELP-3)
    s = hand(hand(s, b, up), c, level)
    s, _ = act(s, a, "ask")
    assert s.combat.waiting == (b,)
    uid = s.combat.monsters[0]
    assert Action(b, "enhance", (up, uid)) in legal(s, b) and Action(c, "play", (level,)) in legal(s, c)
    s, ev = act(s, b, "enhance", up, uid)
    assert s.monsters[0].enhancers == (up,) and s.combat.stage == "help" and s.combat.waiting == (b,)
    s, _ = act(s, c, "play", level)
    assert s.players[c].level == 2 and s.combat.stage == "help"


def test_nobody_offering_goes_back_to_the_fighter():
    s, a, b, _, _ = fight_with_neighbour(players=2)
    s, _ = act(s, a, "ask")
    s, ev = act(s, b, "pass")
    assert ev == (("no_help", a),) and s.combat.stage == "prepare" and actors(s) == (a,)


def _helped(s, a, b, gold=0, share=0):
    s, _ = act(s, a, "ask")
    s, _ = act(s, b, "offer", gold, share)
    s, _ = act(s, a, "accept", b)
    return s


def test_the_helper_adds_level_items_and_a_die():
    """Q-COMBAT-4, 5: the helper's level and bonuses and their die join the munchkin side."""
    s, a, b, _, _ = fight_with_neighbour(players=2)
    s = set_player(s, b, level=3)
    s = _helped(s, a, b)
    s, ev = resolve(s, 1, 1, 6)  # munchkin dice 1 and 1; the monster's one die 6
    r = result(ev)
    assert ("helper", 3) in r.terms and r.dice == (1, 1)
    assert r.total == 1 + 3 + 1 + 1 and r.monster_total == CARDS.card(LURKER2).level + 6


def test_the_helper_takes_the_first_treasure_picks():
    """Q-HELP-2, Q-COMBAT-9: the helper's share of Treasure is drawn first; only the fighter gains
    levels from an ordinary monster; the monster was the helper's colour, so the helper draws a DxM."""
    s, a, b, _, _ = fight_with_neighbour(players=2)
    n = CARDS.card(LURKER2).treasure
    top = s.treasure_deck.draw[:n]
    dxm = s.dxm_deck.draw[0]
    s = _helped(s, a, b, share=1)
    s, ev = resolve(s, 6, 6, 1)
    assert result(ev).won is True
    assert s.players[b].hand == (dxm,) + top[:1] and s.players[a].hand == top[1:n]
    assert s.players[a].level == 2 and s.players[b].level == 1


def test_a_mighty_kill_with_help_gives_each_one_level():
    """Q-COMBAT-9: a helper on a Mighty monster gains 1 and the main fighter 1 less."""
    s, a, b, _, _ = fight_with_neighbour(players=2, monsters=(MIGHTY,))
    s = set_player(s, a, level=9)
    s = set_player(s, b, level=9)
    s = _helped(s, a, b)
    s = s.replace(combat=s.combat.replace(bonus=40))
    s, ev = resolve(s, *([1] * (2 + CARDS.card(MIGHTY).dice)))
    assert result(ev).won is True
    assert s.players[a].level == 10 and s.players[b].level == 10  # levels from a kill: the 10th too


def test_an_elf_who_helps_win_goes_up_a_level():
    """Q-COMBAT-9 (Q-CHAR-4): the elf helper gains one level."""
    s, a, b, _, _ = fight_with_neighbour(players=2)
    s = set_player(s, b, races=(ELF,))
    s = _helped(s, a, b)
    s, ev = resolve(s, 6, 6, 1)
    assert result(ev).won is True and s.players[b].level == 2 and s.players[a].level == 2


def test_after_a_loss_the_helper_runs_on_their_own():
    """Q-HELP-4, Q-COMBAT-10: both take a hit per monster; the fighter runs first, then the helper
    chooses their own direction and rolls for themself."""
    s, a, b, r1, r2 = fight_with_neighbour(players=2)
    s = _helped(s, a, b)
    s, ev = resolve(s, 1, 1, 6)
    assert result(ev).won is False
    assert s.players[a].hp == 3 and s.players[b].hp == 3
    assert s.combat.stage == "run" and actors(s) == (a,)
    s, _ = act(s, a, "run", 0)
    uid = s.monsters[0].uid
    s, ev = act(rig(s, 6), a, "escape", uid)
    assert s.combat.runner == b and s.combat.stage == "run" and actors(s) == (b,)
    assert s.players[a].room == r1  # everyone arrives once all have run
    s, _ = act(s, b, "run", r2)
    s, ev = act(rig(s, 6), b, "escape", uid)
    assert s.combat is None
    assert s.players[a].room == 0 and s.players[b].room == r2
    assert ("arrives", a, 0) in ev and ("arrives", b, r2) in ev


def test_only_level_ten_munchkins_help_against_the_boss_and_both_win():
    """Q-BOSS-3, Q-BOSS-4: only a level-10 munchkin may help against the Boss; killing it
    together, both win."""
    s = quiet(2)
    a = s.turn.seat
    b = nxt(s, a)
    s = set_player(s, a, level=10, room=1)
    s, (r1,) = line(s, 1)
    s = set_player(s, b, level=9, room=r1)
    boss = monster_card(lambda d: not d.ignores)
    s = stack(s, "monster", (boss,))
    s = fresh_turn(s, a)
    s = rig(s, ("colour", b))
    s, _ = act(s, a, "move", 3)  # back west into the Entrance: the Boss comes
    assert s.combat is not None and s.combat.boss
    assert Action(a, "ask") not in legal(s, a)
    s = set_player(s, b, level=10)
    assert Action(a, "ask") in legal(s, a)
    s = _helped(s, a, b)
    s = s.replace(combat=s.combat.replace(bonus=60))
    s, ev = resolve(s, *([1] * (2 + CARDS.card(boss).dice)))
    assert s.winners == (a, b) and ("game_won", (a, b)) in ev


def test_a_helper_cannot_be_asked_through_a_wall():
    """Q-HELP-1: a wall does not connect rooms."""
    s = quiet(2)
    a = s.turn.seat
    b = nxt(s, a)
    s, (r1, r2) = line(s, 2, kinds=4)  # r1 | wall | r2
    s = add_monster(s, LURKER2, r1, b)
    s = set_player(s, b, room=r2)
    s, _ = act(s, a, "move", E)
    assert Action(a, "ask") not in legal(s, a)
    assert refused(s, a, "ask") != ""


def test_an_item_in_play_as_the_price_of_help():
    """Q-HELP-2: a bribe may be one of the fighter's items in play; accepting hands it over, still
    in play (Q-ITEM-7)."""
    s, a, b, _, _ = fight_with_neighbour(players=2)
    s = put(s, a, (HAT, "worn"))
    s, _ = act(s, a, "ask")
    assert Action(b, "offer", (0, 0, HAT)) in legal(s, b)
    s, ev = act(s, b, "offer", 0, 0, HAT)
    assert ev == (("offers_help", b, a, 0, 0, HAT, "helper"),)
    s, ev = act(s, a, "accept", b)
    assert s.players[a].items == () and [(it.card, it.place) for it in s.players[b].items] == [(HAT, "worn")]
    assert s.combat.helper == b


def test_a_counter_offer_the_fighter_can_no_longer_pay_cannot_be_taken():
    """Q-HELP-2: a deal is binding, so a counter-offer is open to accept only while its gold is
    there (a curse during the haggling may take it away, Q-HELP-3)."""
    s, a, b, _, _ = fight_with_neighbour(players=2)
    s = set_player(s, a, gold=300)
    s, _ = act(s, a, "ask")
    s, _ = act(s, b, "offer", 600, 0)
    s, _ = act(s, a, "counter", b, 300, 0)
    assert Action(b, "accept", (a,)) in legal(s, b)
    broke = set_player(s, a, gold=100)
    assert Action(b, "accept", (a,)) not in legal(broke, b) and refused(broke, b, "accept", a)


MIGHTY2 = [d.id for d in CARDS.monsters if d.mighty and d.movement == "lurking" and not d.ignores and not d.rewards]


def test_two_mighty_monsters_killed_with_a_helper_give_each_two_levels():
    """Q-COMBAT-9: per Mighty monster killed with help, the helper gains 1 and the main fighter 1
    less: two Mighty monsters give the fighter 2 levels (not 4) and the helper 2 (not 1)."""
    assert len(MIGHTY2) >= 2
    s, a, b, _, _ = fight_with_neighbour(players=2, monsters=tuple(MIGHTY2[:2]))
    s = set_player(set_player(s, a, level=3), b, level=3)
    s = _helped(s, a, b)
    s = s.replace(combat=s.combat.replace(bonus=80))
    s, ev = resolve(s, *([1] * (2 + sum(CARDS.card(m).dice for m in MIGHTY2[:2]))))
    assert result(ev).won is True
    assert s.players[a].level == 5 and s.players[b].level == 5


def test_a_munchkin_who_can_move_in_by_magic_may_help():
    """Q-HELP-1 (seed 000 p.10: "a munchkin who can move to your room by magic may help you too"):
    a level-10 munchkin far from the Entrance, holding a card that moves them magically there, may
    offer help against the Boss; chosen, they spend the card and move in."""
    teleport = next(d.id for d in CARDS.treasures + CARDS.dxm if getattr(d, "kind", None) == "oneshot"
                    and any(e.name == "teleport" for e in d.effects))
    s = quiet(2)
    a = s.turn.seat
    b = nxt(s, a)
    s, (r1, r2) = line(s, 2)
    s = set_player(set_player(s, a, level=10, room=r1), b, level=10, room=r2)  # r2 is two rooms away
    s = stack(s, "monster", (monster_card(lambda d: not d.ignores),))
    s = fresh_turn(s, a)
    s = rig(s, ("colour", b))
    s, _ = act(s, a, "move", 3)  # into the Entrance: the Boss comes
    assert s.combat is not None and s.combat.boss
    assert Action(a, "ask") in legal(s, a)  # the fighter cannot know who holds such a card
    s2, ev = act(s, a, "ask")
    assert s2.combat.waiting == () and ("no_help", a) in ev  # b cannot come
    s = hand(s, b, teleport)
    s, _ = act(s, a, "ask")
    assert s.combat.waiting == (b,)
    s, _ = act(s, b, "offer", 0, 0)
    s, ev = act(s, a, "accept", b)
    assert s.combat.helper == b and s.players[b].room == 0 and teleport not in s.players[b].hand
    assert teleport in s.treasure_deck.discard + s.dxm_deck.discard and ("magic_move", b, teleport, 0) in ev


def test_newly_gained_treasure_goes_into_play_on_anyone_s_turn_the_helper_s_share_included():
    """Q-CARD-3, Q-TURN-3 (seed 000 p.5): newly gained Treasure may be put into play at any time
    outside combat, on anyone's turn — the helper's share too — while a card held from before waits
    for its owner's turn; not during the fight, and no longer once the next turn has begun."""
    s, a, b, _, _ = fight_with_neighbour(players=2)
    helm, old = [d.id for d in CARDS.treasures if d.kind == "item" and d.slot in ("head", "feet") and not d.only][:2]
    s = stack(hand(s, b, old), "treasure", (helm,))
    s = _helped(s, a, b, share=1)
    refused(s, b, "play", old)  # (not during the fight)
    s, ev = resolve(s, 6, 6, 1)
    assert result(ev).won is True and s.combat is None and s.turn.seat == a
    assert helm in s.players[b].hand and s.players[b].fresh == (helm,)
    assert Action(b, "play", (helm,)) in legal(s, b)
    assert refused(s, b, "play", old) == "seat/not-your-turn"
    s, ev = act(s, b, "play", helm)
    assert ev == (("item", b, helm, "worn"),)
    s, _ = act(rig(s, ("colour", 5)), a, "end_turn")
    assert all(p.fresh == () for p in s.players)  # the next turn has begun


def test_newly_gained_treasure_is_hidden_from_the_other_seats():
    """Q-DIGI-4: which hand cards are newly gained is as secret as the hand."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    helm = HAT
    s = hand(s, b, helm)
    s = set_player(s, b, fresh=(helm,))
    assert view(s, a).players[b].fresh == ("?",) and view(s, b).players[b].fresh == (helm,)


def test_a_newly_gained_one_shot_goes_onto_the_belt_on_another_s_turn():
    """Q-ITEM-1 with Q-CARD-3: a one-shot goes onto the belt whenever items may go into play, so a
    newly gained one does on anyone's turn."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    shot = next(d.id for d in CARDS.treasures if d.kind == "oneshot")
    s = set_player(hand(s, b, shot), b, fresh=(shot,))
    s, ev = act(s, b, "play", shot)
    assert ev == (("item", b, shot, "belt"),) and s.turn.seat == a


# -- bids that change, and who picks first (Q-HELP-2) -----------------------------------------
def test_a_bidder_changes_the_bid_any_time_before_it_is_accepted():
    """Q-HELP-2 (seed 000 p.11: bidders outbid each other): a bid on the table may be changed by
    its bidder at any time before a bid is accepted — while others still bid, and while the
    fighter weighs them — a bounded number of times; the new bid replaces the old."""
    s, a, b, r1, _ = fight_with_neighbour(players=3)
    c = nxt(s, b)
    s = set_player(s, a, gold=1000)
    s, _ = act(s, a, "ask")
    s, _ = act(s, b, "offer", 600, 0)
    assert Action(b, "offer", (500, 0)) in legal(s, b) and Action(b, "offer", (600, 0)) not in legal(s, b)
    s, ev = act(s, b, "offer", 500, 0)  # c has not answered yet
    assert ev == (("offers_help", b, a, 500, 0, "", "helper"),) and s.combat.waiting == (c,)
    s, _ = act(s, c, "offer", 300, 0)
    assert actors(s) == (a,)  # the fighter decides; b may still change the bid meanwhile
    s, ev = act(s, b, "offer", 0, 1, "", "fighter")
    assert s.combat.offers == ((c, 300, 0, "", "helper"), (b, 0, 1, "", "fighter")) and actors(s) == (a,)
    for i in range(REBIDS):  # bounded, like the haggling
        if not any(x.kind == "offer" for x in legal(s, b)):
            break
        s, _ = act(s, b, "offer", 0, 1 + i % 2)
    assert s.combat.rebids == REBIDS and not any(x.kind == "offer" for x in legal(s, b))
    s, ev = act(s, a, "accept", b)
    assert ("helps", b, a, 0, s.combat.share, "", "helper") in ev and not any(x.kind == "offer" for x in legal(s, b))


def test_a_bid_changed_unasked_leaves_a_counter_offer_to_another_bidder_standing():
    """Q-HELP-2, Q-DIGI-3: the fighter's counter-offer to one bidder stays while another changes
    their bid."""
    s, a, b, r1, _ = fight_with_neighbour(players=3)
    c = nxt(s, b)
    s = set_player(s, a, gold=1000)
    s, _ = act(s, a, "ask")
    s, _ = act(s, b, "offer", 600, 0)
    s, _ = act(s, c, "offer", 500, 0)
    s, _ = act(s, a, "counter", b, 300, 0)
    s, _ = act(s, c, "offer", 300, 0)
    assert (a, 300, 0, "", "helper") in s.combat.offers and s.combat.waiting == (b,)


TWO_TREASURES = monster_card(lambda d: d.movement == "lurking" and not d.ignores and not d.rewards
                             and d.treasure == 2 and not d.mighty and d.dice == 1)


def _won_together(first, share=1):
    """Fighter and helper beat a 2-Treasure and a 1-Treasure monster, the helper taking ``share``."""
    s, a, b, r1, _ = fight_with_neighbour(players=2, monsters=(TWO_TREASURES, LURKER2))
    s = set_player(set_player(s, a, level=8), b, level=8)
    n = sum(CARDS.card(m.card).treasure for m in s.monsters)
    top = s.treasure_deck.draw[:n]
    s, _ = act(s, a, "ask")
    s, _ = act(s, b, "offer", 0, share, "", first) if first == "fighter" else act(s, b, "offer", 0, share)
    s, _ = act(s, a, "accept", b)
    assert s.combat.first == first
    s, ev = resolve(s, 6, 6, 1, 1)
    assert result(ev).won is True
    return s, ev, a, b, top


def test_who_picks_first_is_part_of_the_deal_and_carried_out():
    """Q-HELP-2 (seed 000 p.11: "who picks first" is agreed with the deal): the Treasures of the
    fight lie face up and are picked one at a time, the deal's first picker first, in turn while
    both are still due one; the rest go to whoever is still due them."""
    s, ev, a, b, top = _won_together("fighter")
    assert len(top) == 3 and ("treasure_laid_out", a, top) in ev
    assert s.pending.kind == "pick" and s.pending.seat == a and s.pending.options == top
    assert sorted(census(s)).count(top[0]) == 1  # the laid-out cards are a zone of their own
    assert not any(t in s.treasure_deck.draw or t in p.hand for t in top for p in s.players)
    assert {x.args for x in legal(s, a)} == {(t,) for t in top} and not legal(s, b)
    s, ev = act(s, a, "choose", top[2])
    assert ev == (("pick", a, top[2]),) and s.pending.seat == b and s.pending.options == top[:2]
    s, ev = act(s, b, "choose", top[0])  # the helper's one pick; the last card is the fighter's
    assert ev[:2] == (("pick", b, top[0]), ("pick", a, top[1])) and s.pending is None
    assert top[0] in s.players[b].hand and {top[1], top[2]} <= set(s.players[a].hand)
    assert top[0] in s.players[b].fresh  # newly gained (Q-CARD-3)


def test_the_helper_picks_first_unless_the_deal_says_otherwise():
    """Q-HELP-2: a bid of Treasure picks lets the helper pick first unless it says the fighter does."""
    s, ev, a, b, top = _won_together("helper")
    assert s.pending.kind == "pick" and s.pending.seat == b
    s, ev = act(s, b, "choose", top[1])  # the helper's one pick: the rest are the fighter's
    assert ev[:3] == (("pick", b, top[1]), ("pick", a, top[0]), ("pick", a, top[2])) and s.pending is None


def test_picks_alternate_and_the_last_treasure_goes_to_whoever_is_still_due_one():
    """Q-HELP-2: 2 picks of 3 for the helper, who picks first: helper, fighter, then the last
    card is the helper's without a choice.  (A helper taking all or none picks nothing: the
    Treasures are drawn as usual, test_the_helper_takes_the_first_treasure_picks.)"""
    s, ev, a, b, top = _won_together("helper", share=2)
    s, _ = act(s, b, "choose", top[0])
    assert s.pending.seat == a
    s, ev = act(s, a, "choose", top[1])
    assert ev[:2] == (("pick", a, top[1]), ("pick", b, top[2])) and s.pending is None
    assert {top[0], top[2]} <= set(s.players[b].hand) and top[1] in s.players[a].hand
