"""Reaction windows (Q-COMBAT-7, Q-DIGI-2, Q-HELP-1): the moments of a fight when several seats may
act and each must act or pass — the interrupt window before the roll (``window``), the after-roll
window (``outcome``) and a call for help (``help``).  This module owns their whole life: opening
them, reopening one when a card is played into it, the one ``pass`` dispatch (a seat's own pass, the
auto-pass and the window timer's passes all go through ``pass_seat``), which seats can still act
(``can_act``, answered by mq.rules.legal) and closing them (the dice, the result, the end of the
bidding).  In the spirit of boardgame.io's turn-order module: who the game waits for in a fight is
decided here and nowhere else.

Invariant: a window waits for ``Combat.waiting`` only; it closes when that is empty, and every seat
leaves it through ``pass_seat`` or by acting (which may reopen it)."""
from __future__ import annotations

from mq.rules import combat, legal
from mq.rules.effects import fighters
from mq.rules.state import Stage
from mq.rules.tx import Tx

STAGES = (Stage.WINDOW, Stage.OUTCOME, Stage.HELP)  # the combat stages that are reaction windows
ANSWER_ROUNDS = 3  # Q-COMBAT-7: times in one fight the fighter may answer cards played in the window


# -- before the roll (Q-COMBAT-7) --------------------------------------------------------------
def declare_roll(tx: Tx) -> None:
    """Q-COMBAT-7: every other player gets an interrupt window before the dice."""
    waiting = combat.others(tx.order, tx.fight.fighter)
    if waiting:
        tx.set_combat(stage=Stage.WINDOW, waiting=waiting, interfered=False)
    else:
        roll(tx)


def reopen_window(tx: Tx, seat: int) -> None:
    """A card played in the window: everyone may answer it, the fighter too, and the player who
    played it may follow up with another card (Q-DIGI-2): all of them must pass again.  Cards
    resolve in the order played, each acting from then on (Q-CARD-7).  A card of anyone but the
    fighter is interference the fighter may answer once the window closes."""
    c = tx.fight
    tx.set_combat(waiting=combat.others(tx.order, seat) + (seat,), interfered=c.interfered or seat != c.fighter)


def card_played(tx: Tx, seat: int) -> None:
    """After a card or a power in the interrupt window, everyone else may answer it (Q-DIGI-2);
    at any other moment nothing reopens."""
    if tx.combat is not None and tx.combat.stage == Stage.WINDOW:
        reopen_window(tx, seat)


def _pass_window(tx: Tx, seat: int) -> None:
    waiting = tuple(s for s in tx.fight.waiting if s != seat)
    tx.set_combat(waiting=waiting)
    if not waiting:
        c = tx.fight
        tx.event("window_closed", c.fighter)
        if c.interfered:
            if c.answers < ANSWER_ROUNDS:
                answer(tx)
                return
            tx.event("no_answer", c.fighter)  # the cap is reached: this window's cards stand
        roll(tx)


def answer(tx: Tx) -> None:
    """Q-COMBAT-7 (seed 000 p.9): others played cards in the window, so before the dice the
    fighter may answer them — ask for help (if not yet helped), take offers, play more cards —
    and then declare rolling again, which opens a new window.  Bounded: ANSWER_ROUNDS times a
    fight; after that a window closes to the dice whatever was played in it (``no_answer``)."""
    c = tx.fight
    tx.set_combat(stage=Stage.PREPARE, waiting=(), interfered=False, answers=c.answers + 1)
    tx.event("answer", c.fighter)


# -- after the roll (Q-COMBAT-7) ---------------------------------------------------------------
def roll(tx: Tx) -> None:
    """Roll the dice (mq.rules.combat.roll_dice), then the after-roll window."""
    combat.roll_dice(tx)
    open_outcome_window(tx)


def open_outcome_window(tx: Tx) -> None:
    """Everyone (the fighter last) who could still change a die may act, the one who just did
    too.  Seats without a card that may be used after the roll pass by themselves
    (``auto_pass``, from the legal actions: a die changer that would not change any die does not
    count either); nobody left: the result."""
    c = tx.fight
    order = combat.others(tx.order, c.fighter) + (c.fighter,)
    waiting = tuple(s for s in order if combat.after_roll_cards(tx.player(s), tx.cards))  # the dead too (Q-DEATH-2)
    tx.set_combat(waiting=waiting)
    if not waiting:
        combat.settle_outcome(tx)


def set_die(tx: Tx, seat: int, card: str, side: str, index: int) -> None:
    """A die changed (mq.rules.combat.change_die): everyone may answer it (Q-DIGI-2)."""
    combat.change_die(tx, seat, card, side, index)
    open_outcome_window(tx)


def _pass_outcome(tx: Tx, seat: int) -> None:
    waiting = tuple(s for s in tx.fight.waiting if s != seat)
    tx.set_combat(waiting=waiting)
    if not waiting:
        combat.settle_outcome(tx)


# -- passing -----------------------------------------------------------------------------------
def pass_seat(tx: Tx, seat: int) -> None:
    """``seat`` passes in the open window: in a call for help it does not bid (or refuses the
    counter-offer, mq.rules.combat.refuse_help); in the others it has nothing more to play.  The
    window closes when nobody is left waiting."""
    stage = tx.fight.stage
    if stage == Stage.HELP:
        combat.refuse_help(tx, seat)
    elif stage == Stage.OUTCOME:
        _pass_outcome(tx, seat)
    elif stage == Stage.REROLL:  # (not a window: the halfling runner lets the failed roll stand)
        combat.let_roll_stand(tx)
    else:
        _pass_window(tx, seat)


# The actions that do not count as "being able to act" in a reaction window: passing itself,
# suicide (always open to the fighter, never a card), dropping items or gold (open to anyone at
# any time, Q-SEARCH-4, and never a way to turn the fight), and a bystander discarding their own
# race or class card, which cannot change the fight (Q-CHAR-4 lets them do it anytime after it).
_NOT_ACTING = ("pass", "suicide", "drop")


def can_act(state, seat: int, cards) -> bool:
    """Whether ``seat`` has something to do in the current reaction window besides passing:
    answered by the one legality source (mq.rules.legal), which stops at the first such action,
    so it can never disagree with the full list."""
    if seat in fighters(state.combat):
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
    if c is None or tx.pending is not None or c.stage not in STAGES or not c.waiting:
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
        pass_seat(tx, seat)
    return True
