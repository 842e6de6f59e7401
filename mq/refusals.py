"""A refusal in a player's words: the engine's reason code (mq.rules.errors.REASONS) as its words,
never the code, and its detail only when it tells a player something (a card by its name, not its
id; never the refused action's internal form, never the rulebook's ids).  The client's status line
and the sequencer's rejection notices (net.client) both say refusals through it."""
from __future__ import annotations

import re
from typing import Callable

from mq.rules.errors import REASONS

RULE_ID = re.compile(r" ?\((?:Q|C)-[A-Z]+-\d+(?:\.\.\d+)?(?:, (?:Q|C)-[A-Z]+-\d+)*\)")  # "(Q-OPT-2)" in a detail
# Reasons whose detail is the refused action itself (``str(action)``): for a log, not for a player.
ACTION_DETAIL = frozenset(("phase/wrong", "choice/invalid"))
# Reasons whose detail is a card id: a player is told the card's name.
CARD_DETAIL = frozenset(("card/not-in-hand", "card/not-in-play"))


def reason_words(reason: str, detail: str = "", card_name: Callable[[str], str] | None = None) -> str:
    """A refusal in a player's words: the reason's words (REASONS; never the code, an unknown one
    is "that is not allowed now") and the detail when it tells a player something, a card by its
    name (``card_name``; without it, or for an id it does not know, no detail)."""
    words = REASONS.get(reason, "that is not allowed now")
    if not detail or reason in ACTION_DETAIL:
        return words
    detail = RULE_ID.sub("", detail)  # "(Q-OPT-2)": the rulebook's ids are for its readers, not the table
    if reason in CARD_DETAIL:
        try:
            detail = card_name(detail) if card_name is not None else ""
        except (KeyError, ValueError):
            detail = ""
    return f"{words} ({detail})" if detail else words
