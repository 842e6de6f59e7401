"""Conditions on a munchkin: what a room is "good for" or "bad for" (RULES Q-COMBAT-6).

A room's green and red icons, and the ``who`` of the room effects ``munchkin_bonus`` and
``hurt_on_enter``, name a condition rather than only a race or class: "good for munchkins of odd
level" is the rulebook's own example.  The vocabulary is small and closed; a data file spells a
condition as one string (docs/data.md):

=====================  =====================================================  ====================
data text              holds for a munchkin who ...                           kind
=====================  =====================================================  ====================
``"elf"`` ...          is that race, class or gender (vocab.WHO)              ``ConditionKind.IS``
``"odd level"``        is of odd level                                        ``ODD_LEVEL``
``"even level"``       is of even level                                       ``EVEN_LEVEL``
``"level 3-5"``        is of level 3, 4 or 5 (``"level 7"``: of level 7)      ``LEVELS``
``"carrying flying"``  has a working item in play with that item keyword      ``CARRYING``
``"any"``              is any munchkin (effects only, never an icon)          ``ANY``
=====================  =====================================================  ====================

This module parses and spells conditions; whether one holds is the engine's question
(``mq.rules.conditions.holds``).

Invariants: a :class:`Condition` is immutable and hashable; ``parse(c.text) == c`` for every
condition ``parse`` returns, so the text is the canonical form (``"level 4-4"`` reads as
``"level 4"``); every refused text raises :class:`ConditionError` with a sentence saying why.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from mq.cards import vocab as V

LEVEL_MIN, LEVEL_MAX = 1, 10  # a munchkin's levels (Q-CHAR-2)


class ConditionKind:
    """The names of the condition kinds (a :class:`Condition`'s ``kind``)."""

    IS = "is"
    ODD_LEVEL = "odd level"
    EVEN_LEVEL = "even level"
    LEVELS = "level"
    CARRYING = "carrying"
    ANY = "any"


# The spellings of the data format, for "did you mean" hints.
_EXAMPLES = V.WHO + ("odd level", "even level", "level 1-3", "carrying flying", "any")


class ConditionError(ValueError):
    """A condition text that is not in the vocabulary; the message says why in words."""


@dataclass(frozen=True)
class Condition:
    kind: str  # ConditionKind
    word: str = ""  # IS: a vocab.WHO name; CARRYING: an item keyword
    lo: int = 0  # LEVELS: the inclusive range
    hi: int = 0

    @property
    def text(self) -> str:
        """The canonical data spelling (``parse(text)`` gives this condition back)."""
        if self.kind == ConditionKind.IS:
            return self.word
        if self.kind == ConditionKind.CARRYING:
            return f"carrying {self.word}"
        if self.kind == ConditionKind.LEVELS:
            return f"level {self.lo}" if self.lo == self.hi else f"level {self.lo}-{self.hi}"
        return self.kind

    def __str__(self) -> str:
        return self.text


ANY = Condition(ConditionKind.ANY)


def parse(text: object, allow_any: bool = False) -> Condition:
    """The condition a data text names; ``allow_any``: whether ``"any"`` is accepted (room effects
    may apply to every munchkin, an icon may not: that would be a bonus, not an icon)."""
    if not isinstance(text, str):
        raise ConditionError(f"a condition is a string such as 'elf', 'odd level', 'level 1-3' or "
                             f"'carrying flying', got {text!r}")
    t = " ".join(text.split())
    if t in V.WHO:
        return Condition(ConditionKind.IS, t)
    if t in (ConditionKind.ODD_LEVEL, ConditionKind.EVEN_LEVEL):
        return Condition(t)
    if t == ConditionKind.ANY:
        if not allow_any:
            raise ConditionError("'any' is not allowed here: an icon is good or bad for some munchkins, "
                                 "not for every one (a room bonus says 'any')")
        return ANY
    if t.startswith("carrying"):
        word = t[len("carrying"):].strip()
        if word not in V.ITEM_KEYWORDS:
            close = difflib.get_close_matches(word, list(V.ITEM_KEYWORDS), n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else f" (item keywords: {', '.join(V.ITEM_KEYWORDS)})"
            raise ConditionError(f"unknown item keyword {word!r} in {text!r}{hint}")
        return Condition(ConditionKind.CARRYING, word)
    if t.startswith("level"):
        m = re.fullmatch(r"level (\d+)(?:-(\d+))?", t)
        if not m:
            raise ConditionError(f"{text!r}: a level range is written 'level 3-5' (or 'level 7' for one level)")
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        if not LEVEL_MIN <= lo <= hi <= LEVEL_MAX:
            raise ConditionError(f"{text!r}: the levels must go up within {LEVEL_MIN}..{LEVEL_MAX}")
        if (lo, hi) == (LEVEL_MIN, LEVEL_MAX):
            raise ConditionError(f"{text!r} holds for every munchkin: say 'any' where that is allowed")
        return Condition(ConditionKind.LEVELS, lo=lo, hi=hi)
    close = difflib.get_close_matches(t, list(_EXAMPLES), n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ConditionError(f"unknown condition {text!r}{hint}: a race, class or gender name, 'odd level', "
                         f"'even level', 'level 3-5' or 'carrying <item keyword>'")


def _check() -> None:
    # Import-time sanity: no condition spelling is also a who name, so a word always means one thing.
    assert not {"any", "odd level", "even level"} & set(V.WHO)
    assert all(w.isalpha() for w in V.ITEM_KEYWORDS)


_check()
