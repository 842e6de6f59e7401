"""A bot that plays to win from what its seat may see (Q-DIGI-4): it equips what it draws, fights
what it can beat (using one-shots when the fight is close), runs towards rooms without monsters,
searches, sells for levels, and heads for the Boss in the Entrance at level 10.

Deterministic: the same view gives the same choice (no randomness, no clock), so bot games are
reproducible from the game seed alone."""
from __future__ import annotations

from mq import core
from mq.cards import CardSet, DxmDef, TreasureDef, load_default
from mq.rules import board, combat, legal
from mq.rules.actions import Action
from mq.rules.character import identity, item_value, move_total
from mq.rules.state import State

AVERAGE_DIE_X2 = 7  # twice the mean of a d6, to stay in integers


def choose(view: State, seat: int, cards: CardSet | None = None) -> Action:
    """The bot's action for ``seat``; ``view`` must be ``mq.rules.view(state, seat)``."""
    cards = cards or load_default()
    options = legal.legal_actions(view, seat, cards)
    if not options:
        raise ValueError(f"seat {seat} has nothing to do")
    by_kind: dict[str, list[Action]] = {}
    for a in options:
        by_kind.setdefault(a.kind, []).append(a)
    if view.pending is not None:
        return _pending(view, seat, cards, options)
    if "ready" in by_kind:
        return by_kind.get("play", by_kind["ready"])[0]
    if view.combat is not None:
        return _combat(view, seat, cards, by_kind)
    return _turn(view, seat, cards, by_kind)


def _pending(view, seat, cards, options) -> Action:
    pend = view.pending
    if pend.kind == "colour":
        # Give the new monster to the leader: it will hunt them (Q-MON-3).
        def leader_key(a):
            c = a.args[0]
            level = view.players[c].level if c < len(view.players) else 0
            return (c == seat, -level, c)
        return min(options, key=leader_key)
    # lose_item / charity: part with the least valuable card.
    return min(options, key=lambda a: (item_value(a.args[0], cards), a.args))


def _margin(view, seat, cards) -> int:
    """Twice (expected munchkin strength − expected monster strength) in the current fight."""
    c = view.combat
    p = view.players[seat]
    mine = combat.total(combat.munchkin_terms(p, c, view.monsters, view.rooms, cards))
    dice = max(0, combat.dice_count(p, view.rooms, cards, c.room))
    ident = [identity(p, cards)]
    theirs = 0
    their_dice = 0
    for uid in c.monsters:
        m = combat.find(view.monsters, uid)
        theirs += combat.total(combat.monster_terms(m, ident, view.rooms, cards, c.room))
        their_dice += cards.card(m.card).dice
    return 2 * (mine - theirs) + AVERAGE_DIE_X2 * (dice - their_dice)


def _combat(view, seat, cards, by_kind) -> Action:
    c = view.combat
    if "pass" in by_kind:
        return by_kind["pass"][0]
    if "play" in by_kind:  # go up a level whenever possible
        return by_kind["play"][0]
    if c.stage == "prepare":
        margin = _margin(view, seat, cards)
        boosts = [a for a in by_kind.get("use", []) if cards.card(a.args[0]).bonus > 0]
        spare = sum(cards.card(a.args[0]).bonus for a in boosts)
        # Spend one-shots only when they can turn the fight (and always against the Boss).
        if margin <= 2 and boosts and (c.boss or margin + 2 * spare > 2):
            return max(boosts, key=lambda a: (cards.card(a.args[0]).bonus, a.args))
        if margin <= 2:
            if margin < -6:
                for a in by_kind.get("use", []):
                    if any(e.name == "teleport" for e in cards.card(a.args[0]).effects):
                        return a
        return by_kind["roll"][0]
    if c.stage == "run":
        for a in by_kind.get("use", []):
            if any(e.name in ("escape", "teleport") for e in cards.card(a.args[0]).effects):
                return a
        runs = by_kind.get("run", [])
        if runs:
            return min(runs, key=lambda a: (_monsters_in(view, a.args[0]), a.args))
        return next(iter(by_kind.values()))[0]
    return by_kind["escape"][0]


def _monsters_in(view, room: int) -> int:
    return sum(1 for m in view.monsters if m.room == room)


def _turn(view, seat, cards, by_kind) -> Action:
    p = view.players[seat]
    if view.turn.seat != seat:
        raise ValueError("bots act out of turn only when asked by the rules")
    # Cards first: levels, race/class, items (Q-CARD-3).
    for a in by_kind.get("play", []):
        defn = cards.card(a.args[0])
        if getattr(defn, "kind", None) == "level" or isinstance(defn, DxmDef):
            return a
        if isinstance(defn, TreasureDef) and _worth_wearing(p, defn, cards):
            return a
    for a in by_kind.get("equip", []):
        if a.args[1] != "backpack" and _better_out_of_backpack(p, a.args[0], cards):
            return a
    in_use = {it.card for it in p.items if it.place != "backpack"}
    for a in by_kind.get("buy", []):
        if not in_use.intersection(a.args):  # never sell what it fights with
            return a
    if "heal" in by_kind and p.hp == 1 and p.level > 2:
        return by_kind["heal"][0]
    if "pickup" in by_kind:
        return by_kind["pickup"][0]
    left = move_total(p, cards) - view.turn.spent
    if p.level >= 10 and _ready_for_boss(view, seat, cards):
        step = _step_towards(view, seat, cards, 0, by_kind)
        if step is not None:
            return step
    if "search" in by_kind and left >= 1 and not _strong_enough_to_explore(view, seat, cards):
        return by_kind["search"][0]
    step = _hunt(view, seat, cards, by_kind)
    if step is not None:
        return step
    if "search" in by_kind:
        return by_kind["search"][0]
    if "summon" in by_kind and _strong_enough_to_explore(view, seat, cards):
        return by_kind["summon"][0]
    step = _wander(view, seat, cards, by_kind)
    if step is not None:
        return step
    return by_kind["end_turn"][0]


def _ready_for_boss(view, seat, cards) -> bool:
    """Expected strength with every one-shot in hand against a level-20 Boss with two dice."""
    p = view.players[seat]
    boosts = sum(cards.card(c).bonus for c in p.hand if getattr(cards.card(c), "kind", None) == "oneshot")
    return 2 * (_strength(p, cards) + boosts) + AVERAGE_DIE_X2 > 2 * 20 + 2 * AVERAGE_DIE_X2


def _danger(view, seat, cards, room: int) -> bool:
    p = view.players[seat]
    here = [m for m in view.monsters if m.room == room]
    return bool(here) and (sum(cards.card(m.card).level for m in here) >= _strength(p, cards) + 2 or p.hp < 2)


def _wander(view, seat, cards, by_kind) -> Action | None:
    """Head for the nearest room with an unexplored way out, around dangerous rooms (Q-MOVE)."""
    p = view.players[seat]
    if p.level >= 10 and not _ready_for_boss(view, seat, cards):
        blocked = {0}
    else:
        blocked = set()
    start = p.room
    seen = {start: None}
    frontier = [start]
    goal = None
    while frontier and goal is None:
        nxt = []
        for room in frontier:
            for d, j in board.neighbours(view.rooms, cards, room):
                if j in seen or j in blocked or _danger(view, seat, cards, j):
                    continue
                seen[j] = (room, d)
                if _frontier_score(view, j) > 0 or any(m.room == j for m in view.monsters):
                    goal = j
                    break
                nxt.append(j)
            if goal is not None:
                break
        frontier = nxt
    if goal is None:
        return None
    while seen[goal][0] != start:
        goal = seen[goal][0]
    first_dir = seen[goal][1]
    for kind in ("move", "dash"):
        for a in by_kind.get(kind, []):
            if a.args[0] == first_dir:
                return a
    return None


def _worth_wearing(p, defn: TreasureDef, cards) -> bool:
    return defn.kind == "item"


def _better_out_of_backpack(p, card, cards) -> bool:
    current = next(it for it in p.items if it.card == card)
    return current.place == "backpack"


def _strength(p, cards) -> int:
    from mq.rules.character import item_bonus

    return p.level + item_bonus(p, cards, ())


def _strong_enough_to_explore(view, seat, cards) -> bool:
    p = view.players[seat]
    return p.hp >= 2 and _strength(p, cards) >= 3 + p.level // 2


def _hunt(view, seat, cards, by_kind) -> Action | None:
    """Move to a beatable monster nearby, else explore, else wander towards unexplored edges."""
    p = view.players[seat]
    moves = by_kind.get("move", []) + by_kind.get("dash", [])
    if not moves:
        return None
    strength = _strength(p, cards)
    best = None
    for a in moves:
        d = a.args[0]
        _, _, j = board.beyond(view.rooms, p.room, d)
        if j < 0:
            score = 5 if _strong_enough_to_explore(view, seat, cards) else -10
        else:
            here = [m for m in view.monsters if m.room == j]
            if here:
                their = sum(cards.card(m.card).level for m in here)
                score = 8 if strength + 2 > their and p.hp >= 2 else -20
            else:
                score = _frontier_score(view, j)
        if a.kind == "dash":
            score -= 2
        key = (score, -d)
        if score > 0 and (best is None or key > best[0]):
            best = (key, a)
    return best[1] if best else None


def _frontier_score(view, room: int) -> int:
    """Rooms with unexplored sides are worth walking to."""
    r = view.rooms[room]
    open_sides = sum(1 for d in range(4) if r.sides[d] != board.WALL and board.beyond(view.rooms, room, d)[2] < 0)
    return 1 + open_sides if open_sides else 0


def _step_towards(view, seat, cards, goal: int, by_kind) -> Action | None:
    p = view.players[seat]
    path = core.path_to(board.encode(view.rooms, cards), p.room, goal)
    if not path:
        return None
    for kind in ("move", "dash"):
        for a in by_kind.get(kind, []):
            if a.args[0] == path[0]:
                return a
    return None
