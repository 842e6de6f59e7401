"""A bot that plays to win from what its seat may see (Q-DIGI-4): it equips what it draws, fights
what it expects to beat (spending one-shots only when they turn a fight), explores when it is
healthy, runs towards rooms without monsters, searches, sells spare items for levels, and goes
for the Boss in the Entrance at level 10 once its expected strength can beat it.

Deterministic: the same view gives the same choice (no randomness, no clock), so bot games are
reproducible from the game seed alone.  Strength estimates count a d6 as 3.5, kept in integers
by doubling everything."""
from __future__ import annotations

from mq import core
from mq.cards import CardKind, CardSet, DxmDef, TreasureDef, load_default
from mq.rules import board, combat, legal
from mq.rules.actions import Action
from mq.rules.character import exposed, identity, item_value, max_hp, usable
from mq.rules.state import BACKPACK, Combat, PendingKind, Stage, State

DIE_X2 = 7  # twice the mean of a d6
BOSS_DICE = 2  # what the bot assumes a Boss rolls before it sees the card


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
    if view.pending.kind == PendingKind.CURSE:  # Q-CARD-8: cancel any curse on us, a card before the d10;
        card, by, victim = view.pending.data  # a cleric next door spares everyone but the leader
        if victim != seat and view.players[victim].level >= max(p.level for p in view.players):
            return options[-1]
        return options[0]
    if view.pending.kind == PendingKind.RESURRECT:  # Q-CHAR-5: the discard pile's top card, for our worst card
        kind, top, _ = view.pending.data
        cards_in_hand = [a for a in options if a.args[0] != "draw"]
        worst = min(cards_in_hand, key=lambda a: (worth(a.args[0], view.players[seat], cards), a.args))
        if worth(top, view.players[seat], cards) >= worth(worst.args[0], view.players[seat], cards) + 300:
            return worst
        return options[0]
    if view.pending.kind == PendingKind.COLOUR:
        # Give the new monster to the leader: it will hunt them (Q-MON-3).
        def leader_key(a):
            c = a.args[0]
            level = view.players[c].level if c < len(view.players) else 0
            return (c == seat, -level, c)
        return min(options, key=leader_key)
    # lose_item / charity: part with the least valuable card.
    return min(options, key=lambda a: (item_value(a.args[0], cards), a.args))


# -- estimates -------------------------------------------------------------------------------
def worth(card: str, p, cards) -> int:
    """A rough value of a card in hand, in gold: levels are worth most, then what adds strength
    (items that work for us, one-shots, enhancers to weaken a monster), curses to slow a rival."""
    d = cards.card(card)
    kind = getattr(d, "kind", None)
    if kind == CardKind.LEVEL:
        return 1000
    if isinstance(d, TreasureDef):
        if kind == CardKind.ITEM and not usable(d, identity(p, cards)):
            return d.value // 2
        return d.value + 100 * max(0, d.bonus)
    if kind in (CardKind.ONESHOT, CardKind.ENHANCER):
        return 150 * abs(d.bonus) + 200 * bool(d.effects)
    if kind in (CardKind.CURSE, CardKind.WANDERING, CardKind.MATE, CardKind.CHEAT, CardKind.HALFBREED,
                CardKind.SUPERMUNCHKIN):
        return 300
    return 100  # a race or class card we may not need



def margin(view, seat, cards, room: int, uids) -> int:
    """Twice the expected (munchkin − monsters) strength of a fight in ``room`` against ``uids``."""
    c = view.combat if view.combat is not None else Combat(fighter=seat, room=room, monsters=tuple(uids))
    p = view.players[seat]
    mine = combat.total(combat.munchkin_terms(p, c, view.monsters, view.rooms, cards))
    dice = max(0, combat.dice_count(p, view.rooms, cards, room, combat.foe_keywords(c, view.monsters, cards)))
    ident = [exposed(p, cards)]
    theirs, their_dice = c.monster_bonus, 0
    for uid in uids:
        m = combat.find(view.monsters, uid)
        theirs += combat.total(combat.monster_terms(m, ident, view.rooms, cards, room))
        their_dice += cards.card(m.card).dice
    return 2 * (mine - theirs) + DIE_X2 * (dice - their_dice)


def boosts_in_hand(p, cards) -> int:
    """Combat bonus of the one-shots this munchkin could still use (Q-COMBAT-11)."""
    own = list(p.hand) + [it.card for it in p.items if it.place == "belt"]
    return sum(cards.card(c).bonus for c in own if getattr(cards.card(c), "kind", None) == "oneshot")


def nerve(view) -> int:
    """Bots grow bolder as a game drags on, so that cautious tables still reach an end (a table
    of bots too weak for the monsters around them would otherwise pass turns for ever)."""
    return view.turn.number // 30 if view.turn is not None else 0


def winnable(view, seat, cards, room: int) -> bool:
    uids = combat.hostile_in(view, seat, cards, room)
    p = view.players[seat]
    return p.hp >= 2 and margin(view, seat, cards, room, uids) + 2 * boosts_in_hand(p, cards) > 2 - 4 * nerve(view)


def ready_for_boss(view, seat, cards) -> bool:
    p = view.players[seat]
    mine = combat.total(combat.munchkin_terms(p, Combat(seat, 0, ()), view.monsters, view.rooms, cards))
    return 2 * (mine + boosts_in_hand(p, cards)) + DIE_X2 > 2 * 20 + BOSS_DICE * DIE_X2


def bold(view, seat, cards) -> bool:
    """Healthy and strong enough to meet whatever the next room holds."""
    p = view.players[seat]
    mine = combat.total(combat.munchkin_terms(p, Combat(seat, p.room, ()), view.monsters, view.rooms, cards))
    return p.hp >= 2 and mine + boosts_in_hand(p, cards) // 2 >= 4 + p.level // 2 - nerve(view)


# -- decisions -------------------------------------------------------------------------------
def _combat(view, seat, cards, by_kind) -> Action:
    c = view.combat
    if c.stage == Stage.HELP:
        return _help(view, seat, cards, by_kind)
    if c.stage == Stage.OUTCOME:
        return _after_roll(view, seat, cards, by_kind)
    if "pass" in by_kind:
        return _window(view, seat, cards, by_kind)
    if "play" in by_kind:  # go up a level whenever possible
        return by_kind["play"][0]
    uses = by_kind.get("use", [])
    if c.stage == Stage.PREPARE:
        heal = _heal_one_shot(view, seat, cards, uses)
        if heal is not None:
            return heal
        m = margin(view, seat, cards, c.room, c.monsters)
        boosts = [a for a in uses if cards.card(a.args[0]).bonus > 0] + _weakeners(by_kind, cards, view.players[seat].hand)
        spare = sum(_swing(a, cards) for a in boosts)
        # Spend one-shots only when they can turn the fight (and always against the Boss).
        if m <= 2 and boosts and (c.boss or m + 2 * spare > 2):
            return max(boosts, key=lambda a: (_swing(a, cards), a.args))
        if m <= 2 and "ask" in by_kind and not c.asked:
            return by_kind["ask"][0]  # Q-HELP-1 (once: the same table would bid the same again)
        if m < -6:
            for a in uses:
                if _does(cards, a, "teleport"):
                    return a
        return by_kind["roll"][0]
    if c.stage == Stage.RUN:
        runs = by_kind.get("run", [])
        if runs:
            return min(runs, key=lambda a: (len(combat.hostile_in(view, seat, cards, a.args[0])), a.args))
        return uses[0]
    for effect in ("escape", "teleport", "runaway"):  # cards before the rolls (Q-RUN-4)
        for a in uses:
            if _does(cards, a, effect):
                return a
    return by_kind["escape"][0]


def _heal_one_shot(view, seat, cards, uses) -> Action | None:
    """Q-CHAR-6, Q-COMBAT-11: a one-shot that heals (and adds nothing) is only usable in a fight:
    drink it when hurt, the smallest heal that is not wasted first."""
    p = view.players[seat]
    missing = max_hp(p, cards) - p.hp
    if missing <= 0:
        return None
    heals = [(sum(e.get("amount", 1) for e in cards.card(a.args[0]).effects if e.name == "heal"), a) for a in uses
             if cards.card(a.args[0]).bonus <= 0 and _does(cards, a, "heal")]
    fitting = [(n, a) for n, a in heals if n <= missing or p.hp <= 1]
    return min(fitting, key=lambda x: (x[0], x[1].args))[1] if fitting else None


def helper_strength_x2(view, seat, cards) -> int:
    """Twice what a helper would add: level, items, and a die."""
    p = view.players[seat]
    c = view.combat
    return 2 * combat.total(combat.munchkin_terms(p, c.replace(bonus=0), view.monsters, view.rooms, cards)) + DIE_X2


def _help(view, seat, cards, by_kind) -> Action:
    """Q-HELP-2, Q-DIGI-3: offer help to anyone but a runaway leader, for a Treasure pick (a
    level-10 munchkin helps against the Boss for free: both win; an elf, who goes up a level for
    helping, pays for the privilege when rich); answer a counter-offer; as the fighter, take the
    cheapest offer that turns the fight, or counter the cheapest such bid once with free help."""
    c = view.combat
    if seat != c.fighter:
        me = view.players[seat]
        fighter = view.players[c.fighter]
        if c.boss:
            return Action(seat, "offer", (0, 0))
        if fighter.level >= me.level + 3 or fighter.level >= 9 or me.hp < 2:
            return by_kind["pass"][0]
        elf = "elf" in identity(me, cards)
        counter = next((o for o in c.offers if o[0] == c.fighter), None)
        if counter is not None:  # the fighter's terms: take them if they pay, or an elf levels anyway
            take = Action(seat, "accept", (c.fighter,))
            return take if (elf or counter[1] > 0 or counter[2] > 0) and take in by_kind.get("accept", []) \
                else by_kind["pass"][0]
        pay = Action(seat, "offer", (-300, 0))
        if elf and me.gold >= 900 and pay in by_kind.get("offer", []):
            return pay
        return Action(seat, "offer", (0, 1))
    m = margin(view, seat, cards, c.room, c.monsters)
    best = None
    for a in by_kind.get("accept", []):
        _, gold, share, item = next(o for o in c.offers if o[0] == a.args[0])
        if item:
            continue  # never pays with its own gear
        if m + helper_strength_x2(view, a.args[0], cards) > 2:
            key = (legal.deal_cost(gold, share, "", cards), a.args)
            if best is None or key < best[0]:
                best = (key, a)
    if best is not None and best[0][0] > 0 and c.rounds < 2 \
            and "elf" in identity(view.players[best[1].args[0]], cards):
        free = Action(seat, "counter", (best[1].args[0], 0, 0))  # an elf levels up by helping anyway:
        if free in by_kind.get("counter", []):  # "help me for free?", once
            return free
    return best[1] if best else by_kind["decline"][0]


def _window(view, seat, cards, by_kind) -> Action:
    """The interrupt window (Q-COMBAT-7): answer a card played against our fight, or spoil a
    leader's fight (Q-HELP-3) when one card can turn it; otherwise pass."""
    c = view.combat
    uses = by_kind.get("use", [])
    m = margin(view, c.fighter, cards, c.room, c.monsters)
    if seat == c.fighter:
        answers = uses + _weakeners(by_kind, cards, view.players[seat].hand)
        if m <= 2 and answers:
            return max(answers, key=lambda a: (_swing(a, cards), a.args))
        return by_kind["pass"][0]
    fighter = view.players[c.fighter]
    leading = c.boss or fighter.level >= max(p.level for p in view.players if p.seat != c.fighter) + 2
    spoilers = [a for a in uses if a.args[1] == "monsters"]
    spoilers += [a for a in by_kind.get("enhance", []) if cards.card(a.args[0]).bonus > 0]
    spoilers += [a for a in by_kind.get("curse", []) if a.args[1] == c.fighter and _does(cards, a, "next_combat")]
    spoilers += [a for a in by_kind.get("power", []) if a.args[0] == "backstab" and a.args[1] == c.fighter
                 and _cheap(a.args[2], cards, by_kind, view.players[seat].hand)]
    spoilers = [a for a in spoilers if m - 2 * _swing(a, cards) <= 0]
    if leading and m > 0:
        if spoilers:
            return min(spoilers, key=lambda a: (_swing(a, cards), a.args))
        if by_kind.get("wander"):
            return by_kind["wander"][0]
        if by_kind.get("mate"):
            return by_kind["mate"][0]
    return by_kind["pass"][0]


def _after_roll(view, seat, cards, by_kind) -> Action:
    """Q-COMBAT-7: change a die when it turns the result our way (our fight, or a leader's)."""
    c = view.combat
    won = combat.outcome(view, cards)[-1]
    fighter = view.players[c.fighter]
    leading = c.boss or fighter.level >= max(p.level for p in view.players if p.seat != c.fighter) + 2
    want = (not won) if seat in combat.fighters(c) else (won and leading)
    if want:
        for a in by_kind.get("set_die", []):
            card, side, index = a.args
            to = next(e.get("to") for e in cards.card(card).effects if e.name == "change_die")
            mine, theirs = list(c.my_dice), [list(d) for d in c.their_dice]
            if side == "munchkins":
                mine[index] = to
            else:
                flat = [(m, k) for m, d in enumerate(theirs) for k in range(len(d))]
                m, k = flat[index]
                theirs[m][k] = to
            if combat.outcome(view, cards, tuple(mine), tuple(tuple(d) for d in theirs))[-1] != won:
                return a
    return by_kind["pass"][0]


def _weakeners(by_kind, cards, hand) -> list[Action]:
    """Enhancers that make a monster weaker, and the warrior's powers (Q-CHAR-5), discarding only
    cards from hand."""
    out = [a for a in by_kind.get("enhance", []) if cards.card(a.args[0]).bonus < 0]
    for a in by_kind.get("power", []):
        if a.args[0] == "battle_cry" or (a.args[0] == "berserk" and _cheap(a.args[-1], cards, by_kind, hand)):
            out.append(a)
    return out


def _cheap(card: str, cards, by_kind, hand) -> bool:
    """A card worth throwing away for a discard power: a race or class card in hand that cannot be
    played, never a card in play or one the bot could still use."""
    playable = {a.args[0] for a in by_kind.get("play", [])}
    return card in hand and card not in playable and getattr(cards.card(card), "kind", None) in ("race", "class")


def _swing(action, cards) -> int:
    """How much a fight card moves the balance, whichever side it helps."""
    if action.kind == "power":
        return {"berserk": 1, "backstab": 2, "battle_cry": 3}.get(action.args[0], 0)
    d = cards.card(action.args[0])
    if action.kind == "curse":
        return -sum(e.get("amount", 0) for e in d.effects if e.name == "next_combat")
    return abs(d.bonus)


def _does(cards, action, effect: str) -> bool:
    return any(e.name == effect for e in cards.card(action.args[0]).effects)


def _turn(view, seat, cards, by_kind) -> Action:
    p = view.players[seat]
    if view.turn.seat != seat:
        raise ValueError("bots act out of turn only when the rules ask them to")
    for a in by_kind.get("play", []):  # levels, race/class, items (Q-CARD-3)
        defn = cards.card(a.args[0])
        if isinstance(defn, DxmDef) or defn.kind == CardKind.LEVEL or isinstance(defn, TreasureDef):
            return a
    for a in by_kind.get("equip", []):
        current = next(it for it in p.items if it.card == a.args[0])
        if current.place == BACKPACK and a.args[1] != BACKPACK:
            return a
    curse = _curse_the_leader(view, seat, cards, by_kind)
    if curse is not None:
        return curse
    cheat = _cheat(view, seat, cards, by_kind)
    if cheat is not None:
        return cheat
    in_use = {it.card for it in p.items if it.place != BACKPACK}
    for a in by_kind.get("buy", []):
        if not in_use.intersection(a.args):  # never sell what it fights with
            return a
    if "heal" in by_kind and p.hp == 1 and p.level > 2:
        return by_kind["heal"][0]
    if "pickup" in by_kind:
        return by_kind["pickup"][0]
    if p.level >= 10 and ready_for_boss(view, seat, cards):
        step = _step_towards(view, seat, cards, 0, by_kind)
        if step is not None:
            return step
    if "search" in by_kind and not bold(view, seat, cards):
        return by_kind["search"][0]
    step = _hunt(view, seat, cards, by_kind)
    if step is not None:
        return step
    if "search" in by_kind:
        return by_kind["search"][0]
    if "summon" in by_kind and bold(view, seat, cards):
        return by_kind["summon"][0]
    step = _wander(view, seat, cards, by_kind)
    if step is not None:
        return step
    return by_kind["end_turn"][0]


def _cheat(view, seat, cards, by_kind) -> Action | None:
    """Q-ITEM-4: Cheat! on the best item in play that its restrictions switch off (or that waits
    in the backpack for want of hands): the card then makes it count."""
    p = view.players[seat]
    ident = identity(p, cards)
    best = None
    for a in by_kind.get("cheat", []):
        it = next(x for x in p.items if x.card == a.args[1])
        d = cards.card(it.card)
        idle = not usable(d, ident) or (it.place == BACKPACK and d.slot == "hands")
        if idle and d.bonus > 0 and (best is None or (d.bonus, a.args) > best[0]):
            best = ((d.bonus, a.args), a)
    return best[1] if best else None


def _curse_the_leader(view, seat, cards, by_kind) -> Action | None:
    """Q-CARD-8: curse whoever leads (never someone behind us or at level 1)."""
    me = view.players[seat]
    rivals = [p for p in view.players if p.seat != seat and p.alive and p.level > 1 and p.level >= me.level]
    if not rivals:
        return None
    leader = max(rivals, key=lambda p: (p.level, -p.seat)).seat
    for a in by_kind.get("curse", []):
        if a.args[1] == leader:
            return a
    return None


def _avoid_entrance(view, seat, cards) -> bool:
    """A level-10 munchkin not yet ready for the Boss keeps out of the Entrance (Q-BOSS-1)."""
    return view.players[seat].level >= 10 and not ready_for_boss(view, seat, cards)


def _hunt(view, seat, cards, by_kind) -> Action | None:
    """One step: into a beatable fight, or exploring when bold, or towards unexplored edges."""
    p = view.players[seat]
    best = None
    for a in by_kind.get("move", []) + by_kind.get("dash", []):
        d = a.args[0]
        j = board.beyond(view.rooms, p.room, d)[2]
        if j < 0:
            score = 5 if bold(view, seat, cards) else -10
        elif j == 0 and _avoid_entrance(view, seat, cards):
            score = -10
        elif combat.hostile_in(view, seat, cards, j):
            score = 8 if winnable(view, seat, cards, j) else -20
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
    open_sides = sum(1 for d in range(4)
                     if r.sides[d] != board.WALL and board.beyond(view.rooms, room, d)[2] < 0)
    return 1 + open_sides if open_sides else 0


def _wander(view, seat, cards, by_kind) -> Action | None:
    """Head for the nearest room with an unexplored way out or a beatable monster, around rooms
    it cannot survive (breadth-first over explored rooms, Q-MOVE)."""
    p = view.players[seat]
    blocked = {0} if _avoid_entrance(view, seat, cards) else set()
    came_from = {p.room: (p.room, -1)}
    frontier = [p.room]
    goal = None
    while frontier and goal is None:
        nxt = []
        for room in frontier:
            for d, j in board.neighbours(view, cards, room):
                if j in came_from or j in blocked:
                    continue
                hostile = combat.hostile_in(view, seat, cards, j)
                if hostile and not winnable(view, seat, cards, j):
                    continue
                came_from[j] = (room, d)
                if hostile or _frontier_score(view, j) > 0:
                    goal = j
                    break
                nxt.append(j)
            if goal is not None:
                break
        frontier = nxt
    if goal is None:
        return None
    while came_from[goal][0] != p.room:
        goal = came_from[goal][0]
    return _action_for_dir(by_kind, came_from[goal][1])


def _step_towards(view, seat, cards, goal: int, by_kind) -> Action | None:
    p = view.players[seat]
    path = core.path_to(board.encoded(view, cards), p.room, goal)
    return _action_for_dir(by_kind, path[0]) if path else None


def _action_for_dir(by_kind, d: int) -> Action | None:
    for kind in ("move", "dash"):
        for a in by_kind.get(kind, []):
            if a.args[0] == d:
                return a
    return None
