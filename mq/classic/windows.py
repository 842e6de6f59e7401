"""The reaction windows of a Classic game as a table times them (C-DIGI-2; the timer of C-OPT-5,
as Q-OPT-1): which window the game waits on, and the seats it waits for.

A window is the curse window (C-CARD-8), a call for help (C-HELP-1), a last-chance window
(C-COMBAT-8), the run-away window before a runner's rolls (C-RUN-3, C-DIGI-2 b), the die window after a run-away roll (C-RUN-3, C-DIGI-2 c) or the turn-end window
after charity (C-DIGI-2 f).  A pending decision
(C-DIGI-5) is no window: only its seat may act, and no timer passes for it.
"""
from __future__ import annotations

from mq.classic.state import ClassicState, Phase, Stage

CURSE = "curse"  # the curse window
DIE = "die"  # the die window after a run-away roll
RUN = "run"  # the run-away window before a runner's rolls (C-RUN-3, C-DIGI-2 b)
CLAIM = "claim"  # the claim window of an epic ranger (C-EPIC-14, C-DIGI-2 e)
TURN_END = Phase.CLOSING  # the turn-end window
STAGES = (CURSE, Stage.HELP, Stage.WINDOW, RUN, DIE, CLAIM, TURN_END)  # every window's name


def window(state: ClassicState) -> tuple[str, tuple[int, ...]] | None:
    """The window the game waits on: its name (one of STAGES) and the seats still to answer, in
    the order they were asked; None outside one."""
    if state.phase == Phase.OVER or state.pending is not None:
        return None
    if state.curse is not None:
        return (CURSE, state.curse.waiting) if state.curse.waiting else None
    if state.claim is not None and state.claim.open:
        return (CLAIM, state.claim.waiting) if state.claim.waiting else None
    c = state.combat
    if c is None:
        t = state.turn
        return (TURN_END, t.waiting) if t is not None and t.phase == Phase.CLOSING and t.waiting else None
    if not c.waiting:
        return None
    if c.stage in (Stage.HELP, Stage.WINDOW):
        return c.stage, c.waiting
    if c.stage == Stage.RUN:
        return (DIE if c.die else RUN), c.waiting
    return None
