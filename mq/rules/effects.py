"""Low-level effects: the small changes many rules share — hits and healing (Q-CHAR-6), death and
respawn (Q-DEATH), levels gained and lost (Q-LAW-1, 2), losing items and cards in play (Q-ITEM-6,
Q-CARD-5), entering a room
(Q-EXPLORE-4), picking up piles (Q-SEARCH-4), closing a fight (Q-COMBAT-12), the d10 of class
powers (Q-CHAR-5).

Invariant: an effect changes the transaction it is given and emits its events, and never decides
what happens next in a turn, a fight or a reaction window (those modules sit above this one and
call down into it; docs/engine.md "Module map")."""
from __future__ import annotations

from mq.cards import CardKind
from mq.rules import board, conditions
from mq.rules.character import gain_levels, lose_levels, max_hp
from mq.rules.draws import draw_to_hand
from mq.rules.state import TURN, Combat, Stage
from mq.rules.tx import Tx


def fighters(c: Combat) -> tuple[int, ...]:
    """The munchkins fighting: the fighter, and the helper once one joined (Q-HELP-1)."""
    return (c.fighter,) if c.helper < 0 else (c.fighter, c.helper)


def end_fight(tx: Tx, result: bool) -> None:
    """Close the fight.  Without a result (everyone left by magic) one-shots go back to their
    owners' hands (Q-COMBAT-12); otherwise they are discarded.  Then the Treasure of monsters sent
    away during it (Charm) is drawn by whoever sent them, if still alive (Q-COMBAT-12: rewards of
    removed monsters wait until the fight ends; face up with company in the room, Q-SEARCH-3)."""
    c = tx.fight
    tx.combat = None
    for card, owner in zip(c.used, c.used_by):
        if result:
            tx.discard(card)
        else:
            p = tx.player(owner)
            tx.set_player(owner, hand=p.hand + (card,))
    tx.event("combat_ends", c.fighter, result)
    public = len(tx.seats_in(c.room)) > 1
    for seat, n in c.owed:
        for _ in range(n if tx.player(seat).alive else 0):
            draw_to_hand(tx, seat, "treasure", public)


def hit(tx: Tx, seat: int, n: int) -> None:
    """Q-CHAR-6: each hit blackens a token; with none left the munchkin dies (Q-DEATH-1)."""
    p = tx.player(seat)
    hp = max(0, p.hp - n)
    tx.set_player(seat, hp=hp)
    tx.event("hit", seat, n, hp)
    if hp == 0:
        die(tx, seat, "hits")


def die(tx: Tx, seat: int, cause: str) -> None:
    """Q-DEATH-1: discard the hand, lose a level, drop gold and items where you fell; keep race,
    class and curses.  On your own turn, go straight to the monster turn.  A fight the dead
    munchkin was in ends, unless it is already at running away, where the next runner goes on."""
    c = tx.combat
    if c is not None and seat in fighters(c) and c.stage not in (Stage.RUN, Stage.ESCAPE):
        end_fight(tx, result=True)
    p = tx.player(seat)
    for card in p.hand:
        tx.discard(card)
    r = tx.rooms[p.room]
    tx.set_room(p.room, pile=r.pile + tuple(it.card for it in p.items), pile_gold=r.pile_gold + p.gold)
    tx.set_player(seat, hp=0, alive=False, hand=(), items=(), gold=0, level=lose_levels(p, 1))
    tx.event("death", seat, p.room, cause)
    if tx.pending is not None and tx.pending.seat == seat:
        tx.pending = None
    if tx.turn is not None and tx.turn.seat == seat and tx.phase == TURN:
        tx.set_turn(over=True)  # mq.rules.flow.settle runs the monster turn once this action is done


def heal(tx: Tx, seat: int, amount: int) -> None:
    p = tx.player(seat)
    hp = min(max_hp(p, tx.cards), p.hp + amount)
    if hp != p.hp:
        tx.set_player(seat, hp=hp)
        tx.event("heal", seat, hp - p.hp)


def clamp_hp(tx: Tx, seat: int) -> None:
    """Losing an extra-HP item removes its tokens, never killing by itself."""
    p = tx.player(seat)
    cap = max_hp(p, tx.cards)
    if p.alive and p.hp > cap:
        tx.set_player(seat, hp=cap)


def lose_item(tx: Tx, seat: int, card: str) -> None:
    p = tx.player(seat)
    tx.set_player(seat, items=tuple(it for it in p.items if it.card != card))
    tx.discard(card)
    tx.event("item_lost", seat, card)
    clamp_hp(tx, seat)


def discard_in_play(tx: Tx, seat: int, card: str) -> None:
    """Discard a race, class, Half-Breed or Super Munchkin card or an item from play; losing
    every race (class) loses Half-Breed (Super Munchkin) too (Q-CARD-5)."""
    p = tx.player(seat)
    p = tx.set_player(seat, races=tuple(c for c in p.races if c != card),
                      classes=tuple(c for c in p.classes if c != card),
                      hybrids=tuple(c for c in p.hybrids if c != card),
                      items=tuple(it for it in p.items if it.card != card))
    tx.discard(card)
    tx.event("discard", seat, card)
    for kind, needs in ((CardKind.HALFBREED, p.races), (CardKind.SUPERMUNCHKIN, p.classes)):
        if not needs:
            for c in p.hybrids:
                if tx.cards.playable_card(c).kind == kind:
                    tx.set_player(seat, hybrids=tuple(x for x in tx.player(seat).hybrids if x != c))
                    tx.discard(c)
                    tx.event("discard", seat, c)
    clamp_hp(tx, seat)


def level_up(tx: Tx, seat: int, n: int, why: str, by_kill: bool = False) -> None:
    """Gain ``n`` levels, up to 9 unless by a kill (Q-LAW-2); told only when the level changes."""
    p = tx.player(seat)
    level = gain_levels(p, n, by_kill=by_kill)
    if level != p.level:
        tx.set_player(seat, level=level)
        tx.event("level", seat, level, why)


def level_down(tx: Tx, seat: int, n: int, why: str) -> None:
    """Lose ``n`` levels, never below 1 (Q-LAW-1); told even when already at level 1."""
    tx.set_player(seat, level=lose_levels(tx.player(seat), n))
    tx.event("level", seat, tx.player(seat).level, why)


RESPAWN_GOLD = 300  # Q-DEATH-3


def respawn(tx: Tx, seat: int) -> None:
    """Q-DEATH-3: back in the Entrance, all HP, 300 gold, 2 Treasure + 2 DxM."""
    p = tx.player(seat)
    p = tx.set_player(seat, alive=True, room=0, gold=RESPAWN_GOLD)
    tx.set_player(seat, hp=max_hp(p, tx.cards))
    tx.event("respawn", seat)
    for _ in range(2):
        draw_to_hand(tx, seat, "treasure")
    for _ in range(2):
        draw_to_hand(tx, seat, "dxm")


def enter_room(tx: Tx, seat: int, room: int) -> None:
    """Room rules on entering (Q-EXPLORE-4), on the munchkin's own turn."""
    if tx.turn is None or tx.turn.seat != seat:
        return
    for e in tx.cards.face(tx.rooms[room].face).effects:
        if e.name == "heal_on_enter":
            heal(tx, seat, e.number("amount", 1))
        # Q-COMBAT-6: any condition; a Half-Breed halfling is not hurt as a halfling (Q-CARD-5)
        elif e.name == "hurt_on_enter" and conditions.holds(e.condition("who"), tx.player(seat), tx.cards, drawback=True):
            tx.event("room_hurts", seat, room)
            hit(tx, seat, e.number("hits", 1))
            if not tx.player(seat).alive:
                return
    if board.is_complete(tx) and room != 0 and not tx.monsters_in(room):
        tx.set_turn(summon_room=room)  # Q-EXPLORE-7 (never in the Entrance, Q-LAW-4)
    else:
        tx.set_turn(summon_room=-1)


def pick_up(tx: Tx, seat: int) -> None:
    """Q-SEARCH-4: take every pile in the room; items go to the hand to be played later."""
    p = tx.player(seat)
    r = tx.rooms[p.room]
    tx.set_player(seat, hand=p.hand + r.pile, gold=p.gold + r.pile_gold)
    tx.set_room(p.room, pile=(), pile_gold=0)
    tx.event("pick_up", seat, r.pile, r.pile_gold)


def d10(tx: Tx, seat: int, name: str) -> bool:
    """Q-CHAR-5: the d10 power works if the roll is no more than your level."""
    roll = tx.d10()
    ok = roll <= tx.player(seat).level
    tx.event("d10", seat, name, roll, ok)
    return ok
