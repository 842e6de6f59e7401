"""Turn flow: the start of a turn (Q-TURN-1, Q-DEATH-3), entering rooms (Q-EXPLORE-4), hits,
death (Q-DEATH), charity (Q-CHARITY), the end of a turn and the monster turn (Q-MT-1), and
``settle`` — what the rules make happen by themselves after every action (Q-COMBAT-1, Q-BOSS-1)."""
from __future__ import annotations

from mq.rules import board, combat, legal, monsters
from mq.rules.character import hand_limit, identity, lose_levels, max_hp
from mq.rules.state import TURN, Pending, Turn
from mq.rules.tx import Tx

RESPAWN_GOLD = 300  # Q-DEATH-3


def start_turn(tx: Tx, seat: int, number: int) -> None:
    tx.turn = Turn(seat=seat, number=number)
    tx.event("turn", seat, number)
    if not tx.player(seat).alive:
        respawn(tx, seat)
    monsters.draw_to_hand(tx, seat, "dxm")  # Q-TURN-1 phase 1


def respawn(tx: Tx, seat: int) -> None:
    """Q-DEATH-3: back in the Entrance, all HP, 300 gold, 2 Treasure + 2 DxM."""
    p = tx.player(seat)
    p = tx.set_player(seat, alive=True, room=0, gold=RESPAWN_GOLD)
    tx.set_player(seat, hp=max_hp(p, tx.cards))
    tx.event("respawn", seat)
    for _ in range(2):
        monsters.draw_to_hand(tx, seat, "treasure")
    for _ in range(2):
        monsters.draw_to_hand(tx, seat, "dxm")


def enter_room(tx: Tx, seat: int, room: int) -> None:
    """Room rules on entering (Q-EXPLORE-4), on the munchkin's own turn."""
    if tx.turn is None or tx.turn.seat != seat:
        return
    ident = identity(tx.player(seat), tx.cards)
    for e in tx.cards.face(tx.rooms[room].face).effects:
        if e.name == "heal_on_enter":
            combat.heal(tx, seat, e.get("amount", 1))
        elif e.name == "hurt_on_enter" and (e.get("who") in ident or e.get("who") == "any"):
            tx.event("room_hurts", seat, room)
            hit(tx, seat, e.get("hits", 1))
            if not tx.player(seat).alive:
                return
    if board.is_complete(tx) and room != 0 and not tx.monsters_in(room):
        tx.set_turn(summon_room=room)  # Q-EXPLORE-7 (never in the Entrance, Q-LAW-4)
    else:
        tx.set_turn(summon_room=-1)


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
    if c is not None and seat in combat.fighters(c) and c.stage not in ("run", "escape"):
        combat.end(tx, result=True)
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
        tx.set_turn(over=True)  # settle() runs the monster turn once this action is done


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
    for kind, needs in (("halfbreed", p.races), ("supermunchkin", p.classes)):
        if not needs:
            for c in p.hybrids:
                if tx.cards.card(c).kind == kind:
                    tx.set_player(seat, hybrids=tuple(x for x in tx.player(seat).hybrids if x != c))
                    tx.discard(c)
                    tx.event("discard", seat, c)
    clamp_hp(tx, seat)


def lose_item(tx: Tx, seat: int, card: str) -> None:
    p = tx.player(seat)
    tx.set_player(seat, items=tuple(it for it in p.items if it.card != card))
    tx.discard(card)
    tx.event("item_lost", seat, card)
    clamp_hp(tx, seat)


def clamp_hp(tx: Tx, seat: int) -> None:
    """Losing an extra-HP item removes its tokens, never killing by itself."""
    p = tx.player(seat)
    cap = max_hp(p, tx.cards)
    if p.alive and p.hp > cap:
        tx.set_player(seat, hp=cap)


def end_turn(tx: Tx) -> None:
    """Q-TURN-1 phase 3: charity, then the monster turn."""
    seat = tx.turn.seat
    p = tx.player(seat)
    excess = len(p.hand) - hand_limit(p, tx.cards, tx.params.hand_limit)
    if excess <= 0:
        finish_turn(tx)
        return
    lowest = min(q.level for q in tx.players)
    if p.level == lowest:
        tx.pending = Pending(seat=seat, kind="charity", options=(), data=())
    else:
        recipients = tuple(q.seat for q in tx.players if q.level == lowest and q.seat != seat)
        tx.pending = Pending(seat=seat, kind="charity", options=recipients, data=(0,) * len(recipients))


def charity_step(tx: Tx, card: str, to: int | None) -> None:
    """Give one excess card to a lowest-level munchkin (keeping the split even, Q-CHARITY) or,
    when the giver is lowest, discard it."""
    pend = tx.pending
    seat = pend.seat
    p = tx.player(seat)
    tx.set_player(seat, hand=tuple(c for c in p.hand if c != card))
    if to is None:
        tx.discard(card)
        tx.event("charity_discard", seat, card)
        data = pend.data
    else:
        q = tx.player(to)
        tx.set_player(to, hand=q.hand + (card,))
        tx.event("charity", seat, to, card)
        i = pend.options.index(to)
        data = pend.data[:i] + (pend.data[i] + 1,) + pend.data[i + 1:]
    p = tx.player(seat)
    if len(p.hand) <= hand_limit(p, tx.cards, tx.params.hand_limit):
        tx.pending = None
        finish_turn(tx)
    else:
        tx.pending = pend.replace(data=data)


def finish_turn(tx: Tx) -> None:
    """The monster turn (Q-MT), then the next player's turn in the order of Q-SETUP-4."""
    seat = tx.turn.seat
    tx.combat = None
    monsters.monster_turn(tx, seat)
    i = tx.order.index(seat)
    start_turn(tx, tx.order[(i + 1) % len(tx.order)], tx.turn.number + 1)


SETTLE_ROUNDS = 64  # a bound: every round closes a window or changes a stage, and fights are short


def settle(tx: Tx) -> None:
    """What happens by itself once an action is done: the turn of a munchkin who died ends, a
    level-10 munchkin in the Entrance meets the Boss (Q-BOSS-1), fights start (Q-COMBAT-1,
    Q-TURN-5), owed free pick-ups happen, and seats that cannot act in a reaction window pass
    by themselves (Q-COMBAT-7, Q-DIGI-2) — which may close the window and let the rules act again."""
    for _ in range(SETTLE_ROUNDS):
        _settle_turn(tx)
        if monsters.offer_resurrections(tx):
            return  # a cleric decides on Resurrection first (Q-CHAR-5)
        if not auto_pass(tx):
            return
    raise RuntimeError("settle did not come to rest")  # a bug, never a game situation


# The actions that do not count as "being able to act" in a reaction window: passing itself,
# suicide (always open to the fighter, never a card), and a bystander discarding their own race
# or class card, which cannot change the fight (Q-CHAR-4 lets them do it anytime after it).
_NOT_ACTING = ("pass", "suicide")


def can_act(state, seat: int, cards) -> bool:
    """Whether ``seat`` has something to do in the current reaction window besides passing:
    answered by the one legality source (mq.rules.legal), which stops at the first such action,
    so it can never disagree with the full list."""
    if seat in combat.fighters(state.combat):
        return legal.has_action(state, seat, cards, _acts_fighting)
    return legal.has_action(state, seat, cards, _acts)


def _acts(a) -> bool:
    return a.kind not in _NOT_ACTING and a.kind != "discard"


def _acts_fighting(a) -> bool:
    return a.kind not in _NOT_ACTING


def auto_pass(tx: Tx) -> bool:
    """Q-COMBAT-7, Q-DIGI-2: "a seat with no playable card is auto-passed" — in every reaction
    window (before the roll, after it, a call for help).  Deterministic: computed by every peer
    from the full state; what it reveals is public by the rules' own logic (docs/engine.md).
    Returns whether any seat was passed."""
    c = tx.combat
    if c is None or tx.pending is not None or c.stage not in ("window", "outcome", "help") or not c.waiting:
        return False
    snapshot = tx.commit()
    idle = [s for s in c.waiting if not can_act(snapshot, s, tx.cards)]
    if not idle:
        return False
    stage = c.stage
    for seat in idle:
        if tx.combat is None or tx.combat.stage != stage or seat not in tx.combat.waiting:
            break  # the window closed (or moved on) under the passes already made
        tx.event("auto_pass", seat, stage)
        if stage == "help":
            combat.refuse_help(tx, seat)
        elif stage == "outcome":
            combat.pass_outcome(tx, seat)
        else:
            combat.pass_window(tx, seat)
    return True


def _settle_turn(tx: Tx) -> None:
    if tx.phase != TURN or tx.pending is not None or tx.combat is not None:
        return
    if tx.turn.over:  # Q-DEATH-1: a munchkin who died on their turn goes straight to the monster turn
        finish_turn(tx)
    seat = tx.turn.seat
    p = tx.player(seat)
    if p.alive and p.level >= 10 and p.room == 0 and not any(m.boss for m in tx.monsters):
        tx.event("boss_arrives", seat)
        monsters.spawn(tx, 0, seat, boss=True)
        if tx.pending is not None:
            return
    if combat.maybe_start(tx):
        return  # Q-SEARCH-4: a search's free pick-up waits until after the fight it caused
    if tx.turn.free_pickup >= 0:
        if p.alive and p.room == tx.turn.free_pickup:
            pick_up(tx, seat)
        tx.set_turn(free_pickup=-1)


def pick_up(tx: Tx, seat: int) -> None:
    """Q-SEARCH-4: take every pile in the room; items go to the hand to be played later."""
    p = tx.player(seat)
    r = tx.rooms[p.room]
    tx.set_player(seat, hand=p.hand + r.pile, gold=p.gold + r.pile_gold)
    tx.set_room(p.room, pile=(), pile_gold=0)
    tx.event("pick_up", seat, r.pile, r.pile_gold)

