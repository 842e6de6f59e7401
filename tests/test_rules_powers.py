"""Race and class powers that work by themselves (Q-CHAR-4).  The discard and d10 powers
(Q-CHAR-5) are not implemented yet."""
from __future__ import annotations

from builders import CARDS, act, dxm_card, quiet, refused, rig, set_player
from mq.rules.character import move_total
from mq.rules.state import CARRIED, Item
from test_rules_combat import LURKER2, arena, resolve, result

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
    assert (r[6], r[7], r[8]) == (4, 4, True) and s2.combat is None


def test_an_elf_adds_one_to_run_away_rolls():
    """Q-CHAR-4: +1 to every run-away roll (a 4 escapes, Q-RUN-2)."""
    s, a, r1, _ = arena(monsters=(LURKER2,), setup=lambda s, a: set_player(s, a, races=(ELF,)))
    s, _ = resolve(s, 1, 6)
    s, _ = act(s, a, "run", 0)
    uid = s.monsters[0].uid
    s2, ev = act(rig(s, 4), a, "escape", uid)
    (roll,) = [e for e in ev if e[0] == "escape_roll"]
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
    """Q-CHAR-4 with Q-CHAR-3: one item counts double in one sale per turn."""
    s = quiet(2)
    a = s.turn.seat
    worth = [d for d in CARDS.treasures if d.kind == "item" and d.value == 500]
    assert len(worth) >= 2
    s = set_player(s, a, gold=0, hand=(worth[0].id, worth[1].id), races=(HALFLING,))
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
    assert len(result(ev)[3]) == 2
