"""Race and class powers: those that work by themselves (Q-CHAR-4) and the discard and d10
powers players use (Q-CHAR-5).  The cleric's Resurrection and Sanctuary are not implemented yet."""
from __future__ import annotations

from builders import (
    CARDS,
    E,
    act,
    add_monster,
    colour,
    dxm_card,
    hand,
    kinds_of,
    legal,
    line,
    monster_card,
    nxt,
    put,
    quiet,
    refused,
    rig,
    set_player,
    take,
    treasure_card,
)
from test_rules_combat import LURKER2, arena, resolve, result

from mq.rules import Action, actors, view
from mq.rules.character import move_total
from mq.rules.state import CARRIED, WORN, Deck, Item

WARRIOR = dxm_card(lambda d: d.key == "warrior")
ELF = dxm_card(lambda d: d.key == "elf")
DWARF = dxm_card(lambda d: d.key == "dwarf")
HALFLING = dxm_card(lambda d: d.key == "halfling")
CLERIC = dxm_card(lambda d: d.key == "cleric")
BIG = [d.id for d in CARDS.treasures if d.big and not any(e.name == "move" for e in d.effects)]
UNDEAD = next(d.id for d in CARDS.monsters if "undead" in d.keywords and d.movement == "lurking" and not d.ignores)


def test_a_warrior_wins_ties():
    """Q-CHAR-4: the warrior wins ties in combat (Q-COMBAT-8 says a tie is otherwise a loss)."""
    s, a, _, _ = arena(monsters=(LURKER2,), setup=lambda s, a: set_player(s, a, classes=(WARRIOR,)))
    s2, ev = resolve(s, 3, 2)  # 1 + 3 vs 2 + 2
    r = result(ev)
    assert (r.total, r.monster_total, r.won) == (4, 4, True) and s2.combat is None


def test_an_elf_adds_one_to_run_away_rolls():
    """Q-CHAR-4: +1 to every run-away roll (a 4 escapes, Q-RUN-2)."""
    s, a, r1, _ = arena(monsters=(LURKER2,), setup=lambda s, a: set_player(s, a, races=(ELF,)))
    s, _ = resolve(s, 1, 6)
    s, _ = act(s, a, "run", 0)
    uid = s.monsters[0].uid
    s2, ev = act(rig(s, 4), a, "escape", uid)
    (roll,) = [e for e in ev if e.kind == "escape_roll"]
    assert roll[3:] == (4, 1 + CARDS.card(LURKER2).runaway, True)


def test_a_dwarf_carries_big_items_without_losing_move():
    """Q-CHAR-4 with Q-ITEM-8: the second big item costs others 1 move, a dwarf nothing."""
    s = quiet(2)
    a = s.turn.seat
    assert len(BIG) >= 2
    two = tuple(Item(c, CARRIED) for c in BIG[:2])
    s = set_player(s, a, items=two)
    assert move_total(s.players[a], CARDS) == 2
    s = set_player(s, a, races=(DWARF,))
    assert move_total(s.players[a], CARDS) == 3


def test_a_halfling_sells_its_dearest_item_at_double_value_once_per_turn():
    """Q-CHAR-4 with Q-CHAR-3: one item (in play) counts double in one sale per turn."""
    s = quiet(2)
    a = s.turn.seat
    worth = [d for d in CARDS.treasures if d.kind == "item" and d.value == 500]
    assert len(worth) >= 2
    s = set_player(put(s, a, (worth[0].id, "backpack"), (worth[1].id, "backpack")), a, gold=0, races=(HALFLING,))
    s2, ev = act(s, a, "buy", worth[0].id)  # 500 counted twice
    assert s2.players[a].level == 2 and s2.turn.double_sale
    assert refused(s2, a, "buy", worth[1].id) == "buy/not-enough"  # only once per turn
    human = set_player(s, a, races=())
    assert refused(human, a, "buy", worth[0].id) == "buy/not-enough"


def test_a_cleric_rolls_an_extra_die_against_undead():
    """Q-CHAR-4 (Q-COMBAT-5): one more combat die against undead monsters."""
    s, a, _, _ = arena(monsters=(UNDEAD,), setup=lambda s, a: set_player(s, a, classes=(CLERIC,)))
    dice = CARDS.card(UNDEAD).dice
    s2, ev = resolve(s, *([1] * (2 + dice)))
    assert len(result(ev).dice) == 2


# -- discard and d10 powers (Q-CHAR-5) ---------------------------------------------------------

WIZARD = dxm_card(lambda d: d.key == "wizard")
THIEF = dxm_card(lambda d: d.key == "thief")
JUNK = [d.id for d in CARDS.dxm if d.kind == "race"][:4]
HAT = next(d.id for d in CARDS.treasures if d.kind == "item" and d.slot == "head" and not d.effects)


def test_berserk_discards_up_to_three_cards_for_one_each():
    """Q-CHAR-5: the warrior's discard power, in their fight, any card from hand or play."""
    s, a, _, _ = arena(monsters=(LURKER2,), setup=lambda s, a: hand(set_player(s, a, classes=(WARRIOR,)), a, *JUNK))
    for i, card in enumerate(JUNK[:3]):
        assert Action(a, "power", ("berserk", card)) in legal(s, a)
        s, ev = act(s, a, "power", "berserk", card)
        assert s.combat.bonus == i + 1 and card in s.dxm_deck.discard
    assert not any(x.args[:1] == ("berserk",) for x in legal(s, a) if x.kind == "power")


def test_battle_cry_rolls_the_d10_against_the_level_once_per_fight():
    """Q-CHAR-5: the warrior's d10 power: roll no more than your level for one more die."""
    s, a, _, _ = arena(monsters=(LURKER2,), setup=lambda s, a: set_player(s, a, classes=(WARRIOR,), level=4))
    s2, ev = act(rig(s, ("d10", 4)), a, "power", "battle_cry")
    assert ("d10", a, "battle_cry", 4, True) in ev and s2.combat.extra_dice == 1
    assert Action(a, "power", ("battle_cry",)) not in legal(s2, a)
    s2, ev = resolve(s2, 1, 1, 1)
    assert len(result(ev).dice) == 2
    s3, ev = act(rig(s, ("d10", 5)), a, "power", "battle_cry")
    assert ("d10", a, "battle_cry", 5, False) in ev and s3.combat.extra_dice == 0


def test_charm_sends_a_monster_away_with_its_treasure_but_no_level():
    """Q-CHAR-5: the wizard discards three cards and rolls; the monster leaves the fight, its
    Treasure is drawn, no level is gained; with no monster left the fight ends without a result."""
    s, a, _, _ = arena(monsters=(LURKER2,), setup=lambda s, a: hand(set_player(s, a, classes=(WIZARD,), level=3),
                                                                    a, *JUNK[:3]))
    uid = s.monsters[0].uid
    n = CARDS.card(LURKER2).treasure
    top = s.treasure_deck.draw[:n]
    s, ev = act(rig(s, ("d10", 3)), a, "power", "charm", uid, *sorted(JUNK[:3]))
    assert s.monsters == () and s.combat is None and s.players[a].level == 3
    assert s.players[a].hand == top and ("combat_ends", a, False) in ev


def test_flight_adds_to_run_away_rolls_before_rolling():
    """Q-CHAR-5: the wizard's discard power when running away."""
    s, a, r1, _ = arena(monsters=(LURKER2,), setup=lambda s, a: hand(set_player(s, a, classes=(WIZARD,)), a, JUNK[0]))
    s, _ = resolve(s, 1, 6)
    s, _ = act(s, a, "run", 0)
    s, _ = act(s, a, "power", "flight", JUNK[0])
    assert s.combat.run_bonus == 1


def test_backstab_gives_a_fighter_minus_two_once():
    """Q-CHAR-5 (Q-HELP-3): a thief in the room or next door discards a card in the window."""
    s, a, r1, _ = arena(monsters=(LURKER2,))
    b = nxt(s, a)
    s = hand(set_player(s, b, classes=(THIEF,)), b, *JUNK[:2])
    s, _ = act(s, a, "roll")
    s, ev = act(s, b, "power", "backstab", a, JUNK[0])
    assert s.combat.bonus == -2 and ("power", b, "backstab", a) in ev and s.combat.waiting == (b,)
    assert ("auto_pass", a, "window") in ev  # the fighter holds nothing to answer with
    assert not any(x.kind == "power" and x.args[0] == "backstab" for x in legal(s, b))


def test_steal_takes_an_item_or_costs_a_hit_once_per_turn():
    """Q-CHAR-5: on your turn outside combat, roll the d10 to take an item in play from a munchkin
    in your room; fail and you take a hit."""
    s = quiet(2)
    a = s.turn.seat
    b = nxt(s, a)
    s = set_player(s, a, classes=(THIEF,), level=5)
    s = put(s, b, (HAT, WORN))
    assert Action(a, "power", ("steal", b, HAT)) in legal(s, a)
    s2, ev = act(rig(s, ("d10", 5)), a, "power", "steal", b, HAT)
    assert HAT in s2.players[a].hand and s2.players[b].items == () and ("stolen", a, b, HAT) in ev
    assert not any(x.kind == "power" for x in legal(s2, a))
    s3, ev = act(rig(s, ("d10", 6)), a, "power", "steal", b, HAT)
    assert s3.players[a].hp == 3 and s3.players[b].items[0].card == HAT


# -- Half-Breed and Super Munchkin (Q-CARD-5) --------------------------------------------------
HALFBREED = dxm_card(lambda d: d.kind == "halfbreed")
SUPER = dxm_card(lambda d: d.kind == "supermunchkin")
ELVES = [d.id for d in CARDS.dxm if d.key == "elf"]
DWARF2 = [d.id for d in CARDS.dxm if d.key == "dwarf"][1]
CLASSES = [d.id for d in CARDS.dxm if d.kind == "class"]


def test_half_breed_needs_a_race_and_allows_a_second_one():
    """Q-CARD-5: Half-Breed with a race in play; it allows a second race card (not the same race
    twice); losing every race loses Half-Breed too."""
    s = quiet(2)
    a = s.turn.seat
    s = hand(s, a, HALFBREED, DWARF2)
    assert Action(a, "play", (HALFBREED,)) not in legal(s, a)
    s = set_player(s, a, races=(ELVES[0],))
    assert Action(a, "play", (DWARF2,)) not in legal(s, a)
    s, _ = act(s, a, "play", HALFBREED)
    assert s.players[a].hybrids == (HALFBREED,)
    s, _ = act(s, a, "play", DWARF2)
    assert s.players[a].races == (ELVES[0], DWARF2)
    s, _ = act(s, a, "discard", ELVES[0])
    assert s.players[a].hybrids == (HALFBREED,)
    s, ev = act(s, a, "discard", DWARF2)
    assert s.players[a].hybrids == () and HALFBREED in s.dxm_deck.discard


def test_half_breed_drops_the_drawbacks_of_a_single_race():
    """Q-CARD-5: red icons and monsters' bonuses against your only race no longer count."""
    from mq.rules.character import exposed
    s = quiet(2)
    a = s.turn.seat
    s = set_player(s, a, races=(ELVES[0],), hybrids=(HALFBREED,))
    assert "elf" not in exposed(s.players[a], CARDS)
    s = set_player(s, a, races=(ELVES[0], DWARF2))
    assert {"elf", "dwarf"} <= set(exposed(s.players[a], CARDS))


def test_super_munchkin_allows_a_second_class():
    """Q-CARD-5: the same for classes."""
    s = quiet(2)
    a = s.turn.seat
    warrior = next(c for c in CLASSES if CARDS.card(c).key == "warrior")
    wizard = next(c for c in CLASSES if CARDS.card(c).key == "wizard")
    s = hand(set_player(s, a, classes=(warrior,)), a, SUPER, wizard)
    assert Action(a, "play", (wizard,)) not in legal(s, a)
    s, _ = act(s, a, "play", SUPER)
    s, _ = act(s, a, "play", wizard)
    assert s.players[a].classes == (warrior, wizard)


def test_sanctuary_lets_a_cleric_roll_against_a_curse():
    """Q-CHAR-5 (Q-CARD-8): a cleric victim may roll the d10 as a curse is played: no more than
    their level and the curse does nothing."""
    cleric = dxm_card(lambda d: d.key == "cleric")
    curse = dxm_card(lambda d: d.kind == "curse" and d.effects[0].name == "lose_levels")
    s = quiet(2)
    a = s.turn.seat
    b = nxt(s, a)
    s = hand(set_player(s, b, classes=(cleric,), level=4), a, curse)
    s, _ = act(s, a, "curse", curse, b)
    assert s.pending.kind == "curse" and "sanctuary" in s.pending.options
    saved, ev = act(rig(s, ("d10", 4)), b, "choose", "sanctuary")
    assert saved.players[b].level == 4 and ("d10", b, "sanctuary", 4, True) in ev
    hit, ev = act(rig(s, ("d10", 5)), b, "choose", "sanctuary")
    assert hit.players[b].level == 3


def test_sanctuary_covers_a_munchkin_in_the_clerics_room():
    """Q-CHAR-5, Q-CARD-8 (the cleric card's text): Sanctuary answers a curse played on the cleric
    or on a munchkin in the cleric's room; the victim's own cancelling card comes first; a cleric
    elsewhere, or the one who played the curse, cannot answer it."""
    cleric = dxm_card(lambda d: d.key == "cleric")
    curse = dxm_card(lambda d: d.kind == "curse" and d.effects[0].name == "lose_levels")
    ring = next(d.id for d in CARDS.treasures + CARDS.dxm if any(e.name == "cancel_curse" for e in d.effects))
    s = quiet(3)
    a = s.turn.seat
    b = nxt(s, a)
    c = nxt(s, b)
    s = hand(set_player(set_player(s, b, level=4), c, classes=(cleric,), level=5), a, curse)
    s2, ev = act(s, a, "curse", curse, b)  # b and c both stand in the Entrance
    assert s2.pending.seat == c and s2.pending.options == ("sanctuary", "accept")
    assert s2.pending.data == (curse, a, b) and actors(s2) == (c,)
    saved, ev = act(rig(s2, ("d10", 5)), c, "choose", "sanctuary")
    assert saved.players[b].level == 4 and ("curse_cancelled", c, curse, "sanctuary") in ev
    assert curse in saved.dxm_deck.discard and saved.pending is None
    failed, ev = act(rig(s2, ("d10", 6)), c, "choose", "sanctuary")
    assert failed.players[b].level == 3 and ("d10", c, "sanctuary", 6, False) in ev
    let, _ = act(s2, c, "choose", "accept")
    assert let.players[b].level == 3
    s3, (far,) = line(s, 1)
    away, _ = act(set_player(s3, c, room=far), a, "curse", curse, b)  # not in b's room: no say
    assert away.pending is None and away.players[b].level == 3
    own = hand(set_player(s, a, classes=(cleric,)), b, ring)  # b answers first, with the ring
    own = set_player(own, c, classes=())
    own, _ = act(own, a, "curse", curse, b)
    assert own.pending.seat == b and own.pending.options == (ring, "accept")  # a, the curser, never guards
    own2 = set_player(hand(set_player(s, b, level=4), b, ring), c, classes=(cleric,))
    own2, _ = act(own2, a, "curse", curse, b)
    assert own2.pending.seat == b
    own2, _ = act(own2, b, "choose", "accept")  # b keeps the ring: c may still try Sanctuary
    assert own2.pending.seat == c and ring in own2.players[b].hand


def _cleric_next(level_top=True):
    """``a`` is about to end the turn; ``b``, a cleric with one card in hand, is next; the DxM
    discard pile's top card is a level card and the DxM deck's top card is known."""
    cleric = dxm_card(lambda d: d.key == "cleric")
    level = dxm_card(lambda d: d.kind == "level")
    junk = dxm_card(lambda d: d.kind == "race")
    s = quiet(2)
    a = s.turn.seat
    b = nxt(s, a)
    s = hand(set_player(s, b, classes=(cleric,)), b, junk)
    s = take(s, [level])
    s = s.replace(dxm_deck=Deck(s.dxm_deck.draw, s.dxm_deck.discard + (level,)))
    return rig(s, colour(5)), a, b, level, junk, s.dxm_deck.draw[0]


def test_resurrection_takes_the_discard_piles_top_card_for_a_card_from_hand():
    """Q-CHAR-5 (the cleric card's text): when a cleric would draw a card face-down, they may take
    the top card of that deck's discard pile instead, discarding a card from hand for it; the
    deck is not touched."""
    s, a, b, level, junk, top = _cleric_next()
    s, ev = act(s, a, "end_turn")
    assert s.pending.kind == "resurrect" and s.pending.seat == b and actors(s) == (b,)
    assert s.pending.options == ("draw", junk) and s.pending.data == ("dxm", level, ())
    assert not [e for e in kinds_of(ev, "draw") if e.seat == b]  # the draw waits for the answer
    took, ev = act(s, b, "choose", junk)
    assert took.players[b].hand == (level,) and ev[0] == ("resurrect", b, "dxm", level, junk)
    assert took.dxm_deck.draw == s.dxm_deck.draw and took.dxm_deck.discard[-1] == junk
    assert level not in took.dxm_deck.discard and took.pending is None
    drew, ev = act(s, b, "choose", "draw")
    assert drew.players[b].hand == (junk, top) and drew.dxm_deck.discard[-1] == level


def test_resurrection_only_for_a_cleric_with_a_card_and_a_discard_pile():
    """Q-CHAR-5: no cleric, no card in hand, or nothing in that deck's discard pile: the draw is
    made as usual, at once."""
    s, a, b, level, junk, top = _cleric_next()
    plain = set_player(s, b, classes=())
    empty = set_player(s, b, hand=())
    bare = s.replace(dxm_deck=Deck(s.dxm_deck.draw, ()))
    for t in (plain, empty, bare):
        t, ev = act(t, a, "end_turn")
        assert t.pending is None and ("draw", b, "dxm", top, False) in ev


def test_every_face_down_draw_of_a_cleric_is_offered_in_turn():
    """Q-CHAR-5, Q-SEARCH-3: Treasure for a kill drawn face-down (nobody else in the room) is
    offered to the cleric draw by draw; a face-up draw is not."""
    cleric = dxm_card(lambda d: d.key == "cleric")
    two = monster_card(lambda d: d.treasure >= 2 and d.movement == "lurking" and not d.rewards and not d.ignores)
    n = CARDS.card(two).treasure
    junk = dxm_card(lambda d: d.kind == "race")
    s = quiet(2)
    a = s.turn.seat
    b = nxt(s, a)
    s, (r1,) = line(s, 1)
    s = add_monster(s, two, r1, b)
    s = hand(set_player(s, a, classes=(cleric,)), a, junk)
    older, gone = s.treasure_deck.draw[-2:]
    s = s.replace(treasure_deck=Deck(s.treasure_deck.draw[:-2], (older, gone)))
    s, _ = act(s, a, "move", E)
    s = s.replace(combat=s.combat.replace(bonus=60))
    s, ev = act(s, a, "roll")
    assert kinds_of(ev, "combat_result")[0][-1] is True
    assert s.pending.kind == "resurrect" and s.pending.data == ("treasure", gone, ((a, "treasure"),) * (n - 1))
    s, ev = act(s, a, "choose", junk)
    assert ("resurrect", a, "treasure", gone, junk) in ev
    assert s.pending.data == ("treasure", older, ((a, "treasure"),) * (n - 2))  # the next top card
    for _ in range(n - 1):
        s, ev = act(s, a, "choose", "draw")
        assert len(kinds_of(ev, "draw")) == 1
    assert s.pending is None and len(s.players[a].hand) == n  # junk went for the first one


def test_resurrection_and_curse_answers_show_no_hand_to_the_others():
    """Q-DIGI-4: another seat's view of a ``resurrect`` (or ``curse``) decision keeps its shape
    but not the cards of the deciding seat's hand; the deciding seat sees them all."""
    s, a, b, level, junk, top = _cleric_next()
    s, _ = act(s, a, "end_turn")
    assert view(s, b).pending.options == ("draw", junk)
    assert view(s, a).pending.options == ("draw", "?") and view(s, a).pending.data == ("dxm", level, ())
    ring = next(d.id for d in CARDS.treasures + CARDS.dxm if any(e.name == "cancel_curse" for e in d.effects))
    curse = dxm_card(lambda d: d.kind == "curse" and d.effects[0].name == "lose_levels")
    c = quiet(2)
    x, y = c.turn.seat, nxt(c)
    c, _ = act(hand(hand(set_player(c, y, level=3), x, curse), y, ring), x, "curse", curse, y)
    assert view(c, y).pending.options == (ring, "accept") and view(c, x).pending.options == ("?", "accept")


def test_half_breed_is_not_bound_by_its_races_restrictions():
    """Q-CARD-5 (Q-ITEM-4): an item "not usable by elves" works for a Half-Breed elf; with a second
    race both races' drawbacks count again."""
    from mq.rules.character import active_items
    shunned = treasure_card(lambda d: d.kind == "item" and d.not_for == ("elf",) and not d.only and d.bonus > 0)
    s = quiet(2)
    a = s.turn.seat
    s = put(set_player(s, a, races=(ELVES[0],), hybrids=(HALFBREED,)), a, (shunned, CARRIED if CARDS.card(shunned).slot == "hands" else WORN))
    assert [d.id for d in active_items(s.players[a], CARDS)] == [shunned]
    s = set_player(s, a, races=(ELVES[0], DWARF2))
    assert active_items(s.players[a], CARDS) == []


CLERIC_MINUS = monster_card(lambda d: dict(d.bonuses).get("cleric", 0) < 0 and len(d.bonuses) == 1 and not d.ignores)


CLERIC_PLUS = monster_card(lambda d: dict(d.bonuses).get("cleric", 0) > 0 and len(d.bonuses) == 1 and not d.ignores)


def test_super_munchkin_keeps_a_monsters_penalty_against_its_class():
    """Q-CARD-5 (Q-COMBAT-4): a Super Munchkin cleric keeps every benefit of being a cleric: a
    monster's "−2 against clerics" still counts, its "+2 against clerics" does not."""
    def terms(monster):
        s, a, _, _ = arena(monsters=(monster,),
                           setup=lambda s, a: set_player(s, a, classes=(CLERIC,), hybrids=(SUPER,)))
        s, ev = resolve(s, 1, *([1] * CARDS.card(monster).dice))
        return dict(result(ev).monster_terms[0])["vs"]

    assert terms(CLERIC_MINUS) == dict(CARDS.card(CLERIC_MINUS).bonuses)["cleric"] < 0
    assert terms(CLERIC_PLUS) == 0


def test_a_room_that_hurts_a_race_spares_a_half_breed_of_it():
    """Q-CARD-5 (Q-EXPLORE-4): a room that hurts halflings on entry is a drawback of being a
    halfling: a Half-Breed halfling walks in unhurt, a plain halfling takes the hit."""
    from builders import face
    from builders import line as row
    hurts = face(lambda f: any(e.name == "hurt_on_enter" and str(e.get("who")) == "halfling" for e in f.effects))
    for hybrids, hp in (((HALFBREED,), 4), ((), 3)):
        s = quiet(2)
        a = s.turn.seat
        s, _ = row(s, 1, face=hurts)
        s = set_player(s, a, races=(HALFLING,), hybrids=hybrids)
        s, _ = act(s, a, "move", E)
        assert s.players[a].hp == hp


def test_a_half_breed_swaps_its_race_and_keeps_the_half_breed():
    """Q-CARD-5 (Q-CHAR-4): discarding the only race card while playing another one at the same
    moment keeps the Half-Breed, anytime (in a fight too); the new race is free of drawbacks."""
    from mq.rules.character import exposed
    s = quiet(2)
    a = s.turn.seat
    s = hand(set_player(s, a, races=(ELVES[0],), hybrids=(HALFBREED,)), a, DWARF2)
    swap = Action(a, "play", (DWARF2, ELVES[0]))
    assert swap in legal(s, a)
    s2, ev = act(s, a, "play", DWARF2, ELVES[0])
    p = s2.players[a]
    assert p.races == (DWARF2,) and p.hybrids == (HALFBREED,) and ELVES[0] in s2.dxm_deck.discard
    assert "dwarf" not in exposed(p, CARDS) and DWARF2 not in p.hand
    assert ("discard", a, ELVES[0]) in ev and ("race", a, DWARF2) in ev
    # without a Half-Breed there is nothing to keep: no swap is offered
    plain = set_player(s, a, hybrids=())
    assert swap not in legal(plain, a)
    # in a fight as well (Q-TURN-2)
    s3, a3, _, _ = arena(monsters=(LURKER2,), setup=lambda s, a: hand(
        set_player(s, a, races=(ELVES[0],), hybrids=(HALFBREED,)), a, DWARF2))
    assert Action(a3, "play", (DWARF2, ELVES[0])) in legal(s3, a3)


# -- the halfling's second chance to run (the halfling card's text, mq/data/dxm.toml) ------------
HITTER, HITTER2 = "M05", "M05.2"  # lurking, level 2, one die, Bad Stuff: one hit


def _halfling_runs(races=(HALFLING,), monsters=(HITTER, HITTER2)):
    """A halfling (holding one card) loses to ``monsters`` and chooses to run to the Entrance."""
    assert all(CARDS.card(m).bad_stuff[0].name == "hits" and not CARDS.card(m).runaway for m in monsters)
    s, a, r1, _ = arena(monsters=monsters, setup=lambda s, a: hand(set_player(s, a, races=races), a, JUNK[0]))
    s, _ = resolve(s, 1, *([6] * len(monsters)))
    s, _ = act(s, a, "run", 0)
    return s, a


def test_a_halfling_may_discard_a_card_to_roll_a_failed_first_escape_again():
    """Q-RUN-2 with the halfling's power (Q-CHAR-4): a failed first run-away roll of the fight may
    be rolled again by discarding a card (from hand or play) — a decision between the roll and its
    Bad Stuff; only the first roll: a later failure brings its Bad Stuff at once."""
    s, a = _halfling_runs()
    m1, m2 = (m.uid for m in s.monsters)
    s, ev = act(rig(s, 1), a, "escape", m1)
    assert ("escape_roll", a, m1, 1, 0, False) in ev and not kinds_of(ev, "bad_stuff")
    assert s.combat.stage == "reroll" and actors(s) == (a,)
    options = {x for x in legal(s, a) if x.kind in ("power", "pass")}
    assert options == {Action(a, "power", ("reroll", c)) for c in (JUNK[0], HALFLING)} | {Action(a, "pass")}
    assert refused(s, a, "escape", m2) == "phase/wrong"
    hp = s.players[a].hp
    s, ev = act(rig(s, 5), a, "power", "reroll", JUNK[0])
    assert ("escape_roll", a, m1, 5, 0, True) in ev and ("reroll", a, m1, JUNK[0]) in ev
    assert JUNK[0] in s.dxm_deck.discard and JUNK[0] not in s.players[a].hand
    assert s.players[a].hp == hp and s.combat.stage == "escape" and s.combat.to_escape == (m2,)
    s, ev = act(rig(s, 1), a, "escape", m2)  # the second roll: no second chance
    assert ("bad_stuff", a, m2) in ev and s.players[a].hp == hp - 1


def test_a_halfling_who_lets_the_failed_roll_stand_takes_the_bad_stuff():
    """Q-RUN-2: passing the second chance, or failing it again, applies that monster's Bad Stuff."""
    s, a = _halfling_runs()
    m1 = s.monsters[0].uid
    s, _ = act(rig(s, 1), a, "escape", m1)
    hp = s.players[a].hp
    s2, ev = act(s, a, "pass")
    assert ("bad_stuff", a, m1) in ev and s2.players[a].hp == hp - 1 and s2.combat.stage == "escape"
    assert JUNK[0] in s2.players[a].hand
    s3, ev = act(rig(s, 2), a, "power", "reroll", HALFLING)  # even the halfling card itself
    assert ("escape_roll", a, m1, 2, 0, False) in ev and ("bad_stuff", a, m1) in ev
    assert s3.players[a].hp == hp - 1 and s3.players[a].races == ()


def test_only_a_halfling_gets_a_second_chance_to_run():
    """Q-RUN-2: anyone else's failed roll brings its Bad Stuff at once."""
    s, a = _halfling_runs(races=(ELF,))
    m1 = s.monsters[0].uid
    s, ev = act(rig(s, 1), a, "escape", m1)  # 1 + 1 (elf) fails
    assert ("bad_stuff", a, m1) in ev and s.combat.stage == "escape"


def test_a_charmed_monsters_treasure_waits_until_the_fight_ends():
    """Q-COMBAT-12 with Charm (Q-CHAR-5): a monster removed in mid-fight leaves its Treasure
    waiting until the fight ends; then the wizard draws it, after the Treasure of the kill."""
    s, a, _, _ = arena(monsters=(HITTER, HITTER2), setup=lambda s, a: hand(
        set_player(s, a, classes=(WIZARD,), level=3), a, *JUNK[:3]))
    m1, m2 = (m.uid for m in s.monsters)
    top = s.treasure_deck.draw[:2]
    s, ev = act(rig(s, ("d10", 3)), a, "power", "charm", m1, *sorted(JUNK[:3]))
    assert ("charmed", a, m1, HITTER) in ev and not kinds_of(ev, "draw")
    assert s.players[a].hand == () and s.combat.monsters == (m2,)
    s, ev = resolve(s, 6, 1)  # 3 + 6 against the other one: 2 + 1
    assert result(ev).won is True and s.combat is None
    assert s.players[a].hand == top and s.players[a].level == 4  # one level: the kill only
    assert [e[3] for e in kinds_of(ev, "draw") if e[2] == "treasure"] == list(top)


def test_race_and_class_cards_come_and_go_while_running_away():
    """Q-CHAR-4, Q-TURN-2 (race and class cards anytime, even in combat): a munchkin who lost may
    still become an elf before the run-away rolls (+1 to each), or drop a race; a bystander may
    too."""
    s, a, r1, _ = arena(monsters=(HITTER,), setup=lambda s, a: hand(set_player(s, a, races=(DWARF,)), a, ELF))
    b = nxt(s, a)
    s = hand(s, b, ELVES[1])
    s, _ = act(s, a, "roll")
    s, _ = act(rig(s, 1, 6), b, "pass")
    assert s.combat.stage == "run"
    assert Action(a, "discard", (DWARF,)) in legal(s, a) and Action(b, "play", (ELVES[1],)) in legal(s, b)
    s, _ = act(s, a, "discard", DWARF)
    s, _ = act(s, a, "play", ELF)
    s, _ = act(s, a, "run", 0)
    assert Action(a, "discard", (ELF,)) in legal(s, a)  # in the escape stage too
    s, ev = act(rig(s, 4), a, "escape", s.monsters[0].uid)
    assert kinds_of(ev, "escape_roll")[0][3:] == (4, 1, True) and s.players[a].room == 0
