"""Turn flow: the start of a turn (Q-TURN-1, Q-DEATH-3), charity (Q-CHARITY), the end of a turn
and the monster turn (Q-MT-1), the monsters' win (Q-DEATH-5), and ``settle`` — what the rules make happen by themselves after
every action (Q-COMBAT-1, Q-BOSS-1, the owed Resurrection decisions, the auto-pass of the
reaction windows).  The top of the rules: only the reducer calls it."""
from __future__ import annotations

from mq.rules import combat, draws, effects, monsters, windows
from mq.rules.character import hand_limit
from mq.rules.state import OVER, TURN, Pending, PendingKind, Turn
from mq.rules.tx import Tx


def start_turn(tx: Tx, seat: int, number: int) -> None:
    tx.turn = Turn(seat=seat, number=number)
    for p in tx.players:  # Treasure gained last turn is no longer new (Q-CARD-3)
        if p.fresh:
            tx.set_player(p.seat, fresh=())
    tx.event("turn", seat, number)
    if not tx.player(seat).alive:
        effects.respawn(tx, seat)
    draws.draw_to_hand(tx, seat, "dxm")  # Q-TURN-1 phase 1


def end_turn(tx: Tx) -> None:
    """Q-TURN-1 phase 3: charity, then the monster turn."""
    seat = tx.current_turn.seat
    p = tx.player(seat)
    excess = len(p.hand) - hand_limit(p, tx.cards, tx.params.hand_limit)
    if excess <= 0:
        finish_turn(tx)
        return
    lowest = min(q.level for q in tx.players)
    if p.level == lowest:
        tx.pending = Pending(seat=seat, kind=PendingKind.CHARITY, options=(), data=())
    else:
        recipients = tuple(q.seat for q in tx.players if q.level == lowest and q.seat != seat)
        tx.pending = Pending(seat=seat, kind=PendingKind.CHARITY, options=recipients, data=(0,) * len(recipients))


def charity_step(tx: Tx, card: str, to: int | None) -> None:
    """Give one excess card to a lowest-level munchkin (keeping the split even, Q-CHARITY) or,
    when the giver is lowest, discard it."""
    pend = tx.decision
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
    tx.pending = pend.replace(data=data)
    charity_done(tx)


def charity_done(tx: Tx) -> None:
    """After each gift, discard or card played during charity (races, classes, items into play,
    one-shots onto the belt: the giver may still play them, Q-CHARITY): once the hand is within the
    limit — which a race card may raise — the turn goes on to the monster turn."""
    seat = tx.decision.seat
    p = tx.player(seat)
    if len(p.hand) <= hand_limit(p, tx.cards, tx.params.hand_limit):
        tx.pending = None
        finish_turn(tx)


def finish_turn(tx: Tx) -> None:
    """The monster turn (Q-MT), then the next player's turn in the order of Q-SETUP-4."""
    seat = tx.current_turn.seat
    tx.combat = None
    monsters.monster_turn(tx, seat)
    i = tx.order.index(seat)
    start_turn(tx, tx.order[(i + 1) % len(tx.order)], tx.current_turn.number + 1)


SETTLE_ROUNDS = 64  # a bound: every round closes a window or changes a stage, and fights are short


def settle(tx: Tx) -> None:
    """What happens by itself once an action is done: the monsters win when every munchkin is dead
    (Q-DEATH-5), the turn of a munchkin who died ends, a
    level-10 munchkin in the Entrance meets the Boss (Q-BOSS-1), fights start (Q-COMBAT-1,
    Q-TURN-5), owed free pick-ups happen, and seats that cannot act in a reaction window pass
    by themselves (Q-COMBAT-7, Q-DIGI-2) — which may close the window and let the rules act again."""
    for _ in range(SETTLE_ROUNDS):
        if _monsters_win(tx):
            return
        _settle_turn(tx)
        if draws.offer_resurrections(tx):
            return  # a cleric decides on Resurrection first (Q-CHAR-5)
        if not windows.auto_pass(tx):
            return
    raise RuntimeError("settle did not come to rest")  # a bug, never a game situation


def _monsters_win(tx: Tx) -> bool:
    """Q-DEATH-5: when every munchkin is dead the monsters win: the game ends there, with no
    winner — before any monster turn or respawn could follow.  A fight still open is closed (its
    one-shots discarded) and a decision still pending is dropped (a curse waiting for its answer
    is discarded), so every card stays in a zone."""
    if tx.phase != TURN or any(p.alive for p in tx.players):
        return False
    if tx.combat is not None:
        effects.end_fight(tx, result=True)
    if tx.pending is not None and tx.pending.kind == PendingKind.CURSE:
        tx.discard(tx.pending.data[0])
    for card in tx.pending.options if tx.pending is not None and tx.pending.kind == PendingKind.PICK else ():
        tx.discard(card)  # (Treasures laid out to be picked)
    tx.pending = None
    tx.phase = OVER
    tx.winners = ()
    tx.event("monsters_win")
    return True


def _settle_turn(tx: Tx) -> None:
    if tx.phase != TURN or tx.pending is not None or tx.combat is not None:
        return
    if tx.current_turn.over:  # Q-DEATH-1, Q-RUN-5: a turn that ended in an action goes to the monster turn
        finish_turn(tx)
    seat = tx.current_turn.seat
    p = tx.player(seat)
    if p.alive and p.level >= 10 and p.room == 0 and not any(m.boss for m in tx.monsters):
        tx.event("boss_arrives", seat)
        monsters.spawn(tx, 0, seat, boss=True)
        if tx.pending is not None:
            return
    if combat.maybe_start(tx):
        return  # Q-SEARCH-4: a search's free pick-up waits until after the fight it caused
    if tx.current_turn.free_pickup >= 0:
        if p.alive and p.room == tx.current_turn.free_pickup:
            effects.pick_up(tx, seat)
        tx.set_turn(free_pickup=-1)
