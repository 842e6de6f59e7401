"""The character (Q-CHAR-1, 2, 3, 6, 7), items and gold (Q-ITEM-1, 2, 3, 5, 6, 8) and drawing and
playing cards (Q-CARD-1, 2, 3), with the level laws Q-LAW-1 and Q-LAW-2."""
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
    treasure_card,
)

from mq.rules import Action
from mq.rules.character import max_hp, move_total


def _item(**want):
    """The first plain item (no restrictions) with these attribute values."""
    def ok(d):
        return (d.kind == "item" and not d.only and not d.not_for
                and all(getattr(d, k) == v for k, v in want.items()))
    return treasure_card(ok)


def _items(n, plain=True, **want):
    """``n`` items with these attribute values (without restrictions unless ``plain`` is false)."""
    out = [d.id for d in CARDS.treasures if d.kind == "item" and not (plain and (d.only or d.not_for))
           and all(getattr(d, k) == v for k, v in want.items())]
    assert len(out) >= n
    return out[:n]


T_LEVEL = treasure_card(lambda d: d.kind == "level")
D_LEVEL = dxm_card(lambda d: d.kind == "level")
LURKER = monster_card(lambda d: d.movement == "lurking" and d.level == 1 and d.dice == 0 and not d.rewards)
BIG = monster_card(lambda d: d.movement == "lurking" and d.level >= 10 and d.dice == 0)


def _places(s, seat):
    return {it.card: it.place for it in s.players[seat].items}


def _lose_fight_and_fail_escape(s, a, card):
    """``a`` (in the Entrance) loses to ``card`` east of it and fails the escape back."""
    b = nxt(s, a)
    s, (r1,) = line(s, 1)
    s = add_monster(s, card, r1, b)
    s, _ = act(s, a, "move", E)
    s = s.replace(combat=s.combat.replace(bonus=-20))  # whatever a carries, the fight is lost
    s = rig(s, 1, *([6] * CARDS.card(card).dice))
    s, _ = act(s, a, "roll")  # b holds nothing to play: the window closes by itself (Q-DIGI-2)
    s, _ = act(s, a, "run", 0)
    return act(rig(s, 1), a, "escape", s.combat.to_escape[0])


# -- Q-CHAR -----------------------------------------------------------------------------------
def test_go_up_a_level_cards_from_either_deck():
    """Q-CHAR-1: go-up-a-level cards (Treasure or DxM) give one level."""
    s = quiet(2)
    a = s.turn.seat
    s = hand(s, a, T_LEVEL, D_LEVEL)
    s, ev = act(s, a, "play", T_LEVEL)
    assert s.players[a].level == 2 and T_LEVEL in s.treasure_deck.discard
    s, ev = act(s, a, "play", D_LEVEL)
    assert s.players[a].level == 3 and D_LEVEL in s.dxm_deck.discard and s.players[a].hand == ()


def test_level_cards_never_give_the_tenth_level():
    """Q-CHAR-1, Q-LAW-2: at level 9 a go-up-a-level card cannot be played."""
    s = quiet(2)
    a = s.turn.seat
    s = set_player(hand(s, a, T_LEVEL), a, level=9)
    assert Action(a, "play", (T_LEVEL,)) not in legal(s, a)
    assert refused(s, a, "play", T_LEVEL) == "level/tenth"


def test_levels_are_lost_but_never_below_one():
    """Q-CHAR-2, Q-LAW-1: losing 2 levels at level 2 leaves level 1."""
    lose2 = monster_card(lambda d: [(e.name, e.get("n")) for e in d.bad_stuff] == [("lose_levels", 2)]
                         and d.runaway == 0 and not d.ignores)
    s = quiet(2)
    a = s.turn.seat
    s = set_player(s, a, level=2)
    s, ev = _lose_fight_and_fail_escape(s, a, lose2)
    assert s.players[a].level == 1 and ("level", a, 1, "bad stuff") in ev
    assert s.players[a].hp == 3 and refused(s, a, "heal") == "level/too-low"


def test_buying_a_level_with_gold():
    """Q-CHAR-3: 1000 gold buys a level on your own turn."""
    s = quiet(2)
    a = s.turn.seat
    s = set_player(s, a, gold=1250)
    assert Action(a, "buy", ()) in legal(s, a)
    s, ev = act(s, a, "buy")
    assert (s.players[a].level, s.players[a].gold) == (2, 250)
    assert ("buy", a, (), 1000) in ev
    assert refused(s, a, "buy") == "buy/not-enough"


def test_buying_with_items_gives_no_change():
    """Q-CHAR-3: items in play (worn, carried, belt or backpack) count at their printed value;
    no change is given."""
    s = quiet(2)
    a = s.turn.seat
    cheap, dear = sorted(_items(2, slot="head"), key=lambda c: CARDS.card(c).value)
    armour = max(_items(3, slot="armour"), key=lambda c: CARDS.card(c).value)
    s = put(s, a, (armour, "worn"), (cheap, "worn"), (dear, "backpack"))
    s = set_player(s, a, gold=100)
    total = CARDS.card(dear).value + CARDS.card(armour).value
    s2, ev = act(s, a, "buy", dear, armour)
    paid = max(0, 1000 - total)
    assert ("buy", a, (dear, armour), paid) in ev
    assert s2.players[a].level == 2 and s2.players[a].gold == 100 - paid
    assert [it.card for it in s2.players[a].items] == [cheap]
    assert {dear, armour} <= set(s2.treasure_deck.discard)


def test_cards_in_hand_are_not_sold():
    """Q-CHAR-3, Q-CARD-9: cards in hand are not in play and cannot be sold: neither offered nor
    accepted, even when they would pay for the level."""
    s = quiet(2)
    a = s.turn.seat
    dear = max(_items(3, slot="armour"), key=lambda c: CARDS.card(c).value)
    s = set_player(hand(s, a, dear), a, gold=1000 - CARDS.card(dear).value)
    assert not any(x.kind == "buy" for x in legal(s, a))
    assert refused(s, a, "buy", dear) == "card/not-in-play"


def _sale_items():
    """Four plain items of different values, for four different places."""
    picked = []
    for slot in ("head", "armour", "feet", "hands"):
        picked.append(next(d.id for d in CARDS.treasures if d.kind == "item" and d.slot == slot and d.hands <= 1
                           and d.value >= 200 and not d.only and not d.not_for and d.id not in picked
                           and CARDS.card(d.id).value not in [CARDS.card(c).value for c in picked]))
    return sorted(picked, key=lambda c: -CARDS.card(c).value)


def test_the_player_chooses_which_items_in_play_to_sell():
    """Q-CHAR-3: the player chooses the items: several combinations are offered (each without
    waste beyond its cheapest item), and any other valid combination is accepted too."""
    from itertools import combinations

    from mq.rules.legal import BUY_OFFERS
    s = quiet(2)
    a = s.turn.seat
    items = _sale_items()
    value = {c: CARDS.card(c).value for c in items}
    s = put(s, a, (items[0], "worn"), (items[1], "worn"), (items[2], "backpack"), (items[3], "backpack"))
    s = set_player(s, a, gold=0)
    offered = [x.args for x in legal(s, a) if x.kind == "buy"]
    assert 2 <= len(offered) <= BUY_OFFERS and len(set(offered)) == len(offered)
    for combo in offered:
        total = sum(value[c] for c in combo)
        assert total >= 1000 and total - min(value[c] for c in combo) < 1000, combo
    every = [c for n in range(1, 5) for c in combinations(items, n)
             if sum(value[x] for x in c) >= 1000 and sum(value[x] for x in c) - min(value[x] for x in c) < 1000]
    assert sorted(tuple(sorted(c)) for c in offered) == sorted(tuple(sorted(c)) for c in every)
    if sum(value.values()) >= 1000:  # a wasteful choice is still the player's to make
        s2, ev = act(s, a, "buy", *items)
        assert s2.players[a].level == 2 and s2.players[a].items == ()


def test_gold_and_any_choice_of_items_buy_a_level():
    """Q-CHAR-3: with enough gold, gold alone is offered, and so is each item topped up with gold;
    the offers stay bounded however many items there are."""
    from mq.rules.legal import BUY_OFFERS
    s = quiet(2)
    a = s.turn.seat
    items = _sale_items()
    s = put(s, a, (items[0], "worn"), (items[1], "worn"), (items[2], "backpack"), (items[3], "backpack"))
    s = set_player(s, a, gold=1000)
    offered = [x.args for x in legal(s, a) if x.kind == "buy"]
    assert offered[0] == () and all((c,) in offered for c in items) and len(offered) <= BUY_OFFERS
    s2, ev = act(s, a, "buy", items[3])
    assert s2.players[a].gold == 1000 - (1000 - CARDS.card(items[3]).value) and s2.players[a].level == 2


def test_no_buying_the_tenth_level_out_of_turn_or_in_combat():
    """Q-CHAR-3: never the 10th level; only on your own turn; outside combat."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    rich = set_player(set_player(s, a, gold=9000, level=9), b, gold=9000)
    assert "buy" not in {x.kind for x in legal(rich, a)}
    assert refused(rich, a, "buy") == "level/tenth"
    assert refused(rich, b, "buy") == "seat/not-your-turn"
    s = set_player(s, a, gold=9000)
    s, (r1,) = line(s, 1)
    s = add_monster(s, LURKER, r1, b)
    s, _ = act(s, a, "move", E)
    assert refused(s, a, "buy") == "combat/in-combat"


def test_hits_and_healing_stay_within_the_tokens():
    """Q-CHAR-6: 4 HP; healing never goes above the maximum; outside combat a level can be lost
    to heal 3 (hits: see test_a_loss_costs_one_hit_per_monster_then_running)."""
    s = quiet(2)
    a = s.turn.seat
    assert s.players[a].hp == 4 and "heal" not in {x.kind for x in legal(set_player(s, a, level=3), a)}
    s = set_player(s, a, level=3, hp=1)
    s, ev = act(s, a, "heal")
    assert (s.players[a].level, s.players[a].hp) == (2, 4) and ("heal", a, 3) in ev
    s = set_player(s, a, hp=3)
    s, ev = act(s, a, "heal")
    assert (s.players[a].level, s.players[a].hp) == (1, 4) and ("heal", a, 1) in ev
    assert refused(set_player(s, a, hp=2), a, "heal") == "level/too-low"


def test_extra_hp_items_raise_the_maximum():
    """Q-CHAR-6: cards can add tokens; losing the item takes its token away (without killing)."""
    amulet = treasure_card(lambda d: d.kind == "item" and not d.only and not d.not_for and d.slot != "hands"
                           and any(e.name == "max_hp" and e.get("amount") == 1 for e in d.effects))
    s = quiet(2)
    a = s.turn.seat
    s = set_player(put(s, a, (amulet, "backpack")), a, level=3, hp=3)
    assert max_hp(s.players[a], CARDS) == 4
    s, _ = act(s, a, "equip", amulet, "worn")
    assert max_hp(s.players[a], CARDS) == 5
    s, _ = act(s, a, "heal")
    assert s.players[a].hp == 5
    s, _ = act(s, a, "drop", amulet)
    assert s.players[a].hp == 4 and s.players[a].alive


def test_move_starts_at_three_and_items_change_it():
    """Q-CHAR-7: base move 3; an item can add (or take) move."""
    boots = treasure_card(lambda d: d.kind == "item" and not d.only
                          and any(e.name == "move" and e.get("amount") > 0 for e in d.effects))
    s = quiet(2)
    a = s.turn.seat
    assert move_total(s.players[a], CARDS) == 3
    s, rooms = line(s, 5)
    s = put(s, a, (boots, "worn"))
    for room in rooms[:4]:
        s, _ = act(s, a, "move", E)
        assert s.players[a].room == room
    assert "move" not in {x.kind for x in legal(s, a)}


# -- Q-ITEM -----------------------------------------------------------------------------------
def test_item_places_slots_hands_and_backpack():
    """Q-ITEM-1, Q-ITEM-3: one worn item per head/armour/feet slot, two hands for carried items,
    any number of accessories and clothing, the belt for no slot; a second item for a full slot
    (or too many hands) goes to the backpack, which holds 2."""
    h1, h2, h3 = _items(3, plain=False, slot="head")
    one1, one2, one3 = _items(3, plain=False, slot="hands", hands=1)
    acc = _items(2, plain=False, slot="accessory")
    clo = _items(2, plain=False, slot="clothing")
    s = quiet(2)
    a = s.turn.seat
    s = hand(s, a, h1, h2, one1, one2, one3, *acc, *clo, h3)
    for card in (h1, h2, one1, one2, one3, *acc, *clo):
        s, ev = act(s, a, "play", card)
    assert _places(s, a) == {h1: "worn", h2: "backpack", one1: "carried", one2: "carried",
                             one3: "backpack", acc[0]: "worn", acc[1]: "worn", clo[0]: "worn",
                             clo[1]: "worn"}
    assert Action(a, "play", (h3,)) not in legal(s, a)
    assert refused(s, a, "play", h3) == "card/no-room"
    # swapping: the carried one goes to the backpack... once there is room
    assert Action(a, "equip", (h2, "worn")) not in legal(s, a)
    s, _ = act(s, a, "drop", h1)
    s, _ = act(s, a, "equip", h2, "worn")
    assert _places(s, a)[h2] == "worn"


def test_two_handed_items_need_both_hands():
    """Q-ITEM-1, Q-ITEM-3: a two-handed item with one hand busy goes to the backpack."""
    two = _item(slot="hands", hands=2)
    one = _item(slot="hands", hands=1)
    s = quiet(2)
    a = s.turn.seat
    s = put(hand(s, a, two), a, (one, "carried"))
    s, ev = act(s, a, "play", two)
    assert _places(s, a)[two] == "backpack" and ("item", a, two, "backpack") in ev
    s, _ = act(s, a, "equip", one, "backpack")
    s, _ = act(s, a, "equip", two, "carried")
    assert _places(s, a) == {one: "backpack", two: "carried"}


def test_only_worn_carried_and_belt_items_count():
    """Q-ITEM-2: items in the backpack (or hand) give no bonus and no power."""
    sword = _item(slot="hands", hands=1, effects=(), bonus=2)
    boots = treasure_card(lambda d: d.kind == "item" and not d.only
                          and any(e.name == "move" and e.get("amount") > 0 for e in d.effects))
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s = put(s, a, (sword, "backpack"), (boots, "backpack"))
    assert move_total(s.players[a], CARDS) == 3
    s2, (r1,) = line(s, 1)
    s2 = add_monster(s2, LURKER, r1, b)
    s2, _ = act(s2, a, "move", E)
    s2, ev = act(rig(s2, 3), a, "roll")
    assert dict(kinds_of(ev, "combat_result")[0][2])["items"] == 0
    s3 = put(set_player(s, a, items=()), a, (sword, "carried"), (boots, "worn"))
    assert move_total(s3.players[a], CARDS) == 4


def test_gold_is_never_an_item():
    """Q-ITEM-5: 'lose an item' needs an item card, never gold: with no item it is one hit."""
    lose_item = monster_card(lambda d: [e.name for e in d.bad_stuff] == ["lose_item"]
                             and d.runaway == 0 and not d.ignores)
    s = quiet(2)
    a = s.turn.seat
    s = set_player(s, a, gold=800)
    s, ev = _lose_fight_and_fail_escape(s, a, lose_item)
    assert s.players[a].gold == 800 and s.players[a].hp == 2 and s.pending is None
    assert not kinds_of(ev, "item_lost")


def test_losing_a_slot_means_the_worn_item():
    """Q-ITEM-6: 'lose your headgear' takes the worn one, not one in the backpack."""
    lose_head = monster_card(lambda d: [(e.name, e.get("slot")) for e in d.bad_stuff] == [("lose_slot", "head")]
                             and d.runaway == 0 and not d.ignores)
    h1, h2 = _items(2, slot="head")
    s = quiet(2)
    a = s.turn.seat
    s = put(s, a, (h1, "worn"), (h2, "backpack"))
    s, ev = _lose_fight_and_fail_escape(s, a, lose_head)
    assert _places(s, a) == {h2: "backpack"} and ("item_lost", a, h1) in ev


def test_big_items_the_first_is_free_each_further_costs_a_move():
    """Q-ITEM-8: one carried big item is free; a second costs 1 move."""
    bigs = [d.id for d in CARDS.treasures if d.kind == "item" and d.big and not d.only and not d.not_for]
    two_handed = next(c for c in bigs if CARDS.card(c).slot == "hands")
    worn_big = next(c for c in bigs if CARDS.card(c).slot != "hands")
    own = sum(e.get("amount") for e in CARDS.card(worn_big).effects if e.name == "move")
    s = quiet(2)
    a = s.turn.seat
    one = put(s, a, (two_handed, "carried"))
    assert move_total(one.players[a], CARDS) == 3
    both = put(one, a, (worn_big, "worn"))
    assert move_total(both.players[a], CARDS) == 3 + own - 1
    both, rooms = line(both, 3)
    for _ in range(3 + own - 1):
        both, _ = act(both, a, "move", E)
    assert "move" not in {x.kind for x in legal(both, a)}


# -- Q-CARD -----------------------------------------------------------------------------------
def test_dxm_draws_turn_start_and_monster_die():
    """Q-CARD-1: a DxM when your colour comes up on the monster die and at your turn's start."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    top = s.dxm_deck.draw[:2]
    s, ev = act(rig(s, colour(b)), a, "end_turn")
    assert [(e.seat, e.deck, e.card) for e in kinds_of(ev, "draw")] == [(b, "dxm", top[0]), (b, "dxm", top[1])]
    assert s.players[b].hand == top


def test_treasure_comes_from_kills_and_searches():
    """Q-CARD-2: Treasure is drawn for killing monsters and by searching."""
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s, (r1, r2) = line(s, 2)
    s = add_monster(s, LURKER, r1, b)
    top = s.treasure_deck.draw[:CARDS.card(LURKER).treasure + 1]
    s, _ = act(s, a, "move", E)
    s, ev = act(rig(s, 6), a, "roll")
    s, ev = act(rig(s, 6 - CARDS.face(s.rooms[r1].face).search), a, "search")  # 6: 300 + 1 Treasure
    assert s.players[a].hand == top


def test_items_go_into_play_only_on_your_turn_outside_combat():
    """Q-CARD-3: new items into play on your own turn, outside combat (a one-shot onto the belt,
    Q-ITEM-1); one-shots in combat from hand or belt; out of your turn, no new items."""
    helm = _item(slot="head")
    shot = treasure_card(lambda d: d.kind == "oneshot" and d.bonus > 0)
    s = quiet(2)
    a, b = s.turn.seat, nxt(s)
    s = hand(hand(s, a, helm, shot), b, helm)
    assert Action(a, "play", (helm,)) in legal(s, a)
    assert Action(a, "play", (shot,)) in legal(s, a)
    assert refused(s, b, "play", helm) == "seat/not-your-turn"
    s, (r1,) = line(s, 1)
    s = add_monster(s, LURKER, r1, b)
    s, _ = act(s, a, "move", E)
    assert refused(s, a, "play", helm) == "combat/in-combat"
    assert Action(a, "use", (shot,)) in legal(s, a)
