"""Classic turn flow and reaction windows: starting turns (respawn, C-DEATH-4), the windows of a
combat (a call for help, the last-chance windows of C-COMBAT-8) and of a curse (C-CARD-8), the
auto-pass (as Q-DIGI-2), and ``settle``: what the rules do by themselves after every action
(queued Bad Stuff, closing windows, running on, looting bodies, a dead player's skipped turn)."""
from __future__ import annotations

from mq.cards.classic_vocab import CurseKind
from mq.classic import combat as cb
from mq.classic import dungeons, legal, trades
from mq.classic import effects as fx
from mq.classic import pack_effects as pfx
from mq.classic.state import CurseCast, Pending, PendingKind, Phase, Stage, Turn
from mq.classic.tx import DOOR, TREASURE, Tx

RUN_WINDOW = "run"  # the run-away window's name in its passes (C-RUN-3; mq.classic.windows.RUN)
SETTLE_BOUND = 10_000  # every loop is bounded; a step needs a few dozen rounds at most


def others(tx: Tx, seat: int) -> tuple[int, ...]:
    """Every seat but ``seat``, in seat order from the next one."""
    n = len(tx.players)
    return tuple((seat + k) % n for k in range(1, n))


# -- turns -----------------------------------------------------------------------------------------

def begin_turn(tx: Tx, seat: int, number: int) -> None:
    """C-TURN-1; C-DEATH-4: a munchkin dead since their last turn draws 2 Door + 2 Treasure."""
    tx.turn = Turn(seat=seat, number=number)
    tx.phase = Phase.PLAY
    tx.event("turn", seat, number)
    for q in tx.players:  # C-ITEM-10: a hand shown stays open until the turn ends
        if q.shown:
            tx.set_player(q.seat, shown=())
    p = tx.player(seat)
    if any(it.fresh for it in p.items):  # C-ITEM-6: received items may be sold from now on
        tx.set_player(seat, items=tuple(it.replace(fresh=False) for it in p.items))
    if tx.player(seat).dead:
        tx.set_player(seat, dead=False)
        tx.event("respawn", seat)
        for deck in (DOOR, DOOR, TREASURE, TREASURE):
            fx.draw_to_hand(tx, seat, deck)


def next_turn(tx: Tx) -> None:
    trades.lapse(tx, turn_over=True)  # C-ITEM-6: the offers still open lapse with the turn
    order = tx.order
    seat = order[(order.index(tx.current_turn.seat) + 1) % len(order)]
    begin_turn(tx, seat, tx.current_turn.number + 1)


def end_turn(tx: Tx) -> None:
    """C-TURN-5, 9, C-CHARITY: over the hand limit, the excess is given or discarded (a pending
    decision, one card at a time); then the turn-end window."""
    if not charity(tx):
        close_turn(tx)


def charity(tx: Tx) -> bool:
    """C-TURN-9, C-CHARITY: the active player holding more than the hand limit gives or discards
    the excess (a pending decision); False when there is none."""
    seat = tx.current_turn.seat
    p = tx.player(seat)
    excess = len(p.hand) - dungeons.hand_limit(tx, tx.cards, seat)  # C-TURN-9, C-PACK-7
    if excess > 0:
        tx.pending = Pending(PendingKind.CHARITY, seat, excess)
    return excess > 0


def close_turn(tx: Tx) -> None:
    """C-DIGI-2 f: after charity, a turn-end window: every other player may play what the moment
    allows (curses, levels, gifts) or pass before the next turn begins; settle closes it."""
    seat = tx.current_turn.seat
    tx.set_turn(phase=Phase.CLOSING, waiting=others(tx, seat))
    tx.event("turn_ends", seat)


# -- windows ---------------------------------------------------------------------------------------

def open_window(tx: Tx) -> None:
    """C-COMBAT-8: the fighter resolves: every other seat plays or passes.  After the windows of
    C-OPT-6, the fighter may not answer: the next window to close is final."""
    c = tx.fight
    number = c.windows + 1
    tx.set_combat(stage=Stage.WINDOW, windows=number, waiting=others(tx, c.fighter), card_played=False)
    tx.event("window", c.fighter, number, number > tx.params.windows)


def card_in_window(tx: Tx) -> None:
    """After any card in a window everyone must pass again (as Q-COMBAT-7), in the run-away
    window (C-RUN-3) too."""
    c = tx.combat
    if c is not None and c.stage == Stage.WINDOW:
        tx.set_combat(card_played=True, waiting=others(tx, c.fighter))
    elif c is not None and c.stage == Stage.RUN and c.waiting and c.runners:
        cb.open_run_window(tx, c.runners[0])


def cast_curse(tx: Tx, card: str, by: int, victim: int) -> None:
    """C-CARD-8, C-DIGI-2 d: before a curse acts, a curse window lets every other live player
    cancel it: every live player but its caster (a curse kicked open from the deck has none)."""
    waiting = tuple(q.seat for q in tx.players if q.seat != by and not q.dead)
    tx.curse = CurseCast(card, by, victim, waiting=waiting)
    tx.event("curse", card, by, victim)


def curse_acts(tx: Tx) -> None:
    """C-CARD-8: an immediate curse acts and is discarded; a next-combat curse waits for the
    victim's next combat (acting now if they are fighting); a lasting one stays in play."""
    cc = tx.casting
    tx.curse = None
    d = tx.cards.door_card(cc.card)
    kind = d.curse_kind
    victim = cc.victim
    if kind == CurseKind.LASTING:
        tx.set_player(victim, curses=tx.player(victim).curses + (cc.card,))
        tx.event("curse_acts", cc.card, victim, kind)
    elif kind == CurseKind.NEXT_COMBAT:
        tx.set_player(victim, next_combat=tx.player(victim).next_combat + (cc.card,))
        if tx.combat is not None and victim in cb.side(tx.combat):
            cb.waiting_curses(tx, victim)
    else:
        tx.event("curse_acts", cc.card, victim, kind)
        tx.discard(cc.card)
        fx.push(tx, victim, d.effects)


def auto_pass(tx: Tx, waiting: tuple[int, ...], stage: str) -> tuple[int, ...]:
    """Drop the seats that can do nothing but pass there (as Q-DIGI-2), computed from the state
    every peer holds, so a pass never tells "I hold nothing" from "I choose not to" to others."""
    state = tx.commit()
    keep = []
    for seat in waiting:
        if legal.can_act(state, seat, tx.cards):
            keep.append(seat)
        else:
            tx.event("pass", seat, stage, True)
    return tuple(keep)


# -- settle ----------------------------------------------------------------------------------------

def settle(tx: Tx) -> None:
    """What happens by itself after an action, until a seat must act (bounded)."""
    for _ in range(SETTLE_BOUND):
        if tx.phase == Phase.OVER or tx.pending is not None:
            return
        if tx.queue:
            fx.apply_next(tx)
            continue
        if tx.curse is not None:
            if tx.curse.waiting:
                left = auto_pass(tx, tx.curse.waiting, "curse")
                tx.curse = tx.curse.replace(waiting=left)
                if left:
                    return
            curse_acts(tx)
            continue
        c = tx.combat
        if c is not None:
            if not _settle_combat(tx, c):
                return
            continue
        if _settle_after_combat(tx):
            continue
        if tx.claim is not None:  # C-EPIC-14, C-DIGI-2 (e): the claim window, once all else is over
            if _settle_claim(tx):
                return
            continue
        if not _settle_turn(tx):
            return
    raise RuntimeError("settle did not come to rest")  # a bug, never a game state


def _settle_turn(tx: Tx) -> bool:
    """The turn's own progress outside combat and windows; False when a seat must act."""
    if tx.phase == Phase.SETUP:
        if all(p.ready for p in tx.players):
            begin_turn(tx, tx.order[0], 1)
            return True
        return False
    if tx.player(tx.current_turn.seat).dead:  # C-TURN-10: the rest of a dead player's turn is skipped
        next_turn(tx)
        return True
    turn = tx.current_turn
    if turn.phase == Phase.CLOSING:  # C-DIGI-2 f: the turn-end window, then the next turn
        left = auto_pass(tx, turn.waiting, Phase.CLOSING) if turn.waiting else ()
        tx.set_turn(waiting=left)
        if left:
            return False
        if charity(tx):  # C-TURN-9: a curse in the window lowered the hand limit (a race lost): charity again
            return True
        next_turn(tx)
        return True
    return False


def _settle_after_combat(tx: Tx) -> bool:
    """Right after a combat (or at once outside one): the big items given up are sold or given
    (C-ITEM-4), then the bodies are looted (C-DEATH-2); False when neither is left."""
    over = tuple(p.seat for p in tx.players if any(it.over for it in p.items))
    if over:
        fx.settle_big_items(tx, over[0])
        return True
    if tx.bodies:
        _settle_body(tx)
        return True
    return False


def _settle_combat(tx: Tx, c) -> bool:
    """One step of a combat's own progress; False when a seat must act."""
    if c.stage == Stage.WINDOW:
        left = auto_pass(tx, c.waiting, c.stage) if c.waiting else ()
        tx.set_combat(waiting=left)
        if left:
            return False
        if tx.fight.card_played and tx.fight.windows <= tx.params.windows:
            tx.set_combat(stage=Stage.PREPARE, asked=())
            tx.event("answer", c.fighter)
            return True
        cb.resolve(tx)
        return True
    if c.stage == Stage.HELP:
        if c.waiting:
            return False
        tx.set_combat(stage=Stage.PREPARE)
        return True
    if c.stage == Stage.RUN:
        if c.die:  # C-DIGI-2 c: the die window after a run-away roll
            left = auto_pass(tx, c.waiting, "die") if c.waiting else ()
            tx.set_combat(waiting=left)
            if left:
                return False
            cb.count_roll(tx, c.die[0], c.die[1])
            return True
        if tx.player(c.runners[0]).dead or not cb.to_escape(c):
            tx.set_combat(runners=c.runners[1:], rolled=(), boost=0, waiting=())
            cb.begin_runner(tx)
            return True
        if c.waiting:  # C-RUN-3, C-DIGI-2 b: the run-away window before the runner's rolls
            left = auto_pass(tx, c.waiting, RUN_WINDOW)
            tx.set_combat(waiting=left)
            return not left
        return False
    if not cb.fought(c):  # PREPARE with every monster taken out (C-COMBAT-7)
        cb.resolve(tx)
        return True
    return False


def _settle_claim(tx: Tx) -> bool:
    """Open the claim window, or close it when all have passed (or claimed); True while it waits."""
    cl = tx.claim
    assert cl is not None  # (settle asks only while there is one)
    if not cl.open:
        pfx.open_claim(tx)
        return False
    left = auto_pass(tx, cl.waiting, "claim") if cl.waiting else ()
    tx.claim = cl.replace(waiting=left) if left and cl.cards else None
    return tx.claim is not None


def _settle_body(tx: Tx) -> None:
    """C-DEATH-2: the looters of the first body take one card each, then the rest is discarded."""
    body = tx.bodies[0]
    if not body.started:
        fx.start_looting(tx)
        body = tx.bodies[0]
    looters = tuple(s for s in body.looters if not tx.player(s).dead)
    if body.cards and looters:
        tx.bodies = (body.replace(looters=looters),) + tx.bodies[1:]
        tx.pending = Pending(PendingKind.LOOT, looters[0])
        return
    for card in body.cards:
        tx.discard(card)
    tx.bodies = tx.bodies[1:]
