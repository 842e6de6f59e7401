"""Read-only questions about a fight, for bots and the client: how many dice, what an escape roll
needs, the chance to win or to escape.  Nothing here changes a state, and every number is worked
out by the very functions the rules apply (mq.rules.combat), so a client never shows a number the
engine would not use.  Every function takes a State or a seat's view of it (a view has the same
shape, mq.rules.view).  Chances are exact fractions: no floating point in the engine.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from mq.cards import Condition
from mq.rules import combat, conditions
from mq.rules.character import identity
from mq.rules.effects import fighters
from mq.rules.state import State


def munchkin_dice(state: State, cards) -> int:
    """The dice the munchkin side of the fight rolls (Q-COMBAT-5, 6)."""
    return combat.munchkin_dice(state, cards)


def munchkin_terms(state: State, cards) -> tuple[tuple[str, int], ...]:
    """The munchkin side's fixed strength term by term, as combat.outcome counts it (Q-COMBAT-4),
    with the powers' share of the one-shot bonus as terms of their own (Berserk, Backstab:
    Q-CHAR-5); the terms add up to the very total the rules use."""
    c = state.fight
    out: list[tuple[str, int]] = []
    for name, value in combat.outcome(state, cards, (), ())[0]:
        if name == "one-shots":
            split = combat.power_terms(c)
            out += [("one-shots", value - combat.total(split))] + [t for t in split if t[1]]
        else:
            out.append((name, value))
    return tuple(out)


def power_dice(state: State) -> tuple[tuple[str, int], ...]:
    """The dice powers add to the munchkin side's roll (Q-CHAR-5): a Battle cry's extra die, or
    0 when its d10 failed; empty when no battle cry was tried.  Part of ``munchkin_dice``."""
    c = state.fight
    if not any(u.split(":")[1] == "battle_cry" for u in c.powers):
        return ()
    return (("battle cry", c.extra_dice),)


def monster_terms(state: State, cards, uid: int) -> tuple[tuple[str, int], ...]:
    """Monster ``uid``'s fixed strength in the fight, term by term (Q-COMBAT-4, Q-CARD-5)."""
    return combat.fight_monster_terms(state, cards, combat.find(state.monsters, uid))


def room_icons(state: State, cards, seat: int) -> tuple[tuple[Condition, int], ...]:
    """The fight room's icons that count for fighter ``seat``, each with its die (+1 green, −1
    red; Q-COMBAT-6): the terms of ``munchkin_dice`` that come from the room."""
    return conditions.icons(state.players[seat], cards.face(state.rooms[state.fight.room].face), cards)


def runner(state: State) -> int:
    """Who runs (or will run first) from the fight: the runner, else the fighter (Q-RUN, Q-HELP-4)."""
    c = state.fight
    return c.runner if c.runner >= 0 else c.fighter


def escape_modifier(state: State, cards, uid: int) -> int:
    """What is added to the runner's escape die against monster ``uid`` (Q-RUN-2)."""
    return combat.escape_modifier(state, cards, runner(state), uid)


def escape_need(state: State, cards, uid: int) -> int:
    """The lowest die face that escapes monster ``uid`` (Q-RUN-2: the die plus the modifier
    reaches 5); 1 when any face does, 7 when none can."""
    return min(7, max(1, combat.ESCAPE_TARGET - escape_modifier(state, cards, uid)))


def escape_chance(state: State, cards, uid: int) -> Fraction:
    """The chance that the runner's escape roll against monster ``uid`` succeeds."""
    return Fraction(7 - escape_need(state, cards, uid), 6)


def ties_win(state: State, cards) -> bool:
    """Whether the munchkin side wins a tie: a warrior fights on it (Q-COMBAT-8, Q-CHAR-4)."""
    return any("warrior" in identity(state.players[s], cards) for s in fighters(state.fight))


def fight_chance(state: State, cards) -> Fraction:
    """The chance that the munchkins win the fight if the dice were rolled now, with the strength
    the rules count (combat.outcome without dice) and the dice they would roll."""
    mine, theirs, _, me, them, _ = combat.outcome(state, cards, (), ())
    monster_dice = sum(cards.card(combat.find(state.monsters, uid).card).dice for uid in state.fight.monsters)
    return win_chance(me, munchkin_dice(state, cards), them, monster_dice, ties_win(state, cards))


@lru_cache(maxsize=64)
def dice_distribution(n: int) -> tuple[int, ...]:
    """How many of the 6**n rolls of ``n`` d6 give each total (index = total); zero or fewer
    dice roll 0 (Q-COMBAT-6).  Counts, not probabilities, so certain outcomes come out exact."""
    dist = [1]
    for _ in range(max(0, n)):
        nxt = [0] * (len(dist) + 6)
        for total, ways in enumerate(dist):
            for face in range(1, 7):
                nxt[total + face] += ways
        dist = nxt
    return tuple(dist)


def win_chance(fixed: int, dice: int, monster_fixed: int, monster_dice: int, ties: bool = False) -> Fraction:
    """P(fixed + dice > monster_fixed + monster dice): strictly greater wins (Q-COMBAT-8), or
    greater or equal for a side that wins ties."""
    mine, theirs = dice_distribution(dice), dice_distribution(monster_dice)
    cum, acc = [], 0  # cum[t]: rolls of the monsters' dice totalling at most t
    for ways in theirs:
        acc += ways
        cum.append(acc)
    won = 0
    for a, ways in enumerate(mine):
        t = fixed + a - monster_fixed - (0 if ties else 1)  # the monsters' dice must be at most this
        if ways and t >= 0:
            won += ways * cum[min(t, len(cum) - 1)]
    return Fraction(won, sum(mine) * acc)
