"""A bot that plays to win from what its seat may see (Q-DIGI-4), as people at the table do: it
equips what it draws, fights what it expects to beat (spending one-shots only when they turn a
fight), buys help with gold, items or Treasure picks and sells it at a price (mq.bots.deals: never
to a rival's 10th level for nothing, never for nothing against the Boss from a fighter who can
pay), spoils the Boss fight and a runaway leader's, summons only monsters it expects to beat,
puts one-shots onto the belt, puts newly gained Treasure into play on another's turn (``out_of_turn``), heals with them between fights when badly hurt,
makes room deals when they pay, explores when healthy, searches, buys levels with spare items,
and at level 10 heads straight for the Boss in the Entrance.

Deterministic: the same view gives the same choice (no randomness, no clock, no iteration over
sets or dicts), so bot games are reproducible from the game seed alone.  Chances are exact, in
per mille (mq.bots.odds)."""
from __future__ import annotations

from mq import core
from mq.bots import deals, odds
from mq.bots.deals import worth
from mq.cards import CardKind, CardSet, DxmDef, TreasureDef, load_default
from mq.rules import board, combat, legal
from mq.rules.actions import Action
from mq.rules.character import MAX_LEVEL, identity, item_value, max_hp, move_total, place_for, usable
from mq.rules.state import BACKPACK, BELT, Combat, PendingKind, Stage, State

ASK_BELOW = 850  # per mille: below this chance alone a fighter hears what help would cost
SPEND_BELOW = 700  # per mille: one-shots go in below this chance, if they can make it at least
SPEND_TO = 500
WINNABLE = 650  # per mille: a fight worth walking into (less as a game drags on, ``nerve``)
HOPELESS = 150  # per mille: leave by magic below this (Q-TURN-5, Q-COMBAT-12)
SUMMON_AT = 850  # per mille over the monsters that may come: summon only a fight this likely won
# (others' cards in the interrupt window turn about one fight in six: the margin allows for them)
SUMMON_WATCHED = 950
BRIBE_FUND = 600  # gold a level-9 munchkin keeps for a bribe rather than spend it in a room deal


def choose(view: State, seat: int, cards: CardSet | None = None) -> Action:
    """The bot's action for ``seat``; ``view`` must be ``mq.rules.view(state, seat)``."""
    cards = cards or load_default()
    options = legal.legal_actions(view, seat, cards)
    if not options:
        raise ValueError(f"seat {seat} has nothing to do")
    by_kind: dict[str, list[Action]] = {}
    for a in options:
        if a.kind == "play" and len(a.args) == 2:
            # A race (class) card in place of one in play (Q-CARD-5): the bot cannot weigh what the
            # swap costs (items that stop working), so it keeps what it has.
            continue
        by_kind.setdefault(a.kind, []).append(a)
    if view.pending is not None:
        return _pending(view, seat, cards, options)
    if "ready" in by_kind:
        return by_kind.get("play", by_kind["ready"])[0]
    if view.combat is not None:
        return _combat(view, seat, cards, by_kind)
    return _turn(view, seat, cards, by_kind)


def out_of_turn(view: State, seat: int, cards: CardSet | None = None) -> Action | None:
    """What the bot does on another's turn when the game does not wait for it: put newly gained
    Treasure (``Player.fresh``, a helper's share say) into play while it may (Q-CARD-3, Q-TURN-3:
    on anyone's turn, outside combat, until the next turn starts), when it goes where it counts
    at once: worn, carried or onto the belt (an item the backpack would take waits for the bot's
    own turn).  In play it adds to the bot's side if asked to help, and no curse or charity can
    take it from the hand.  None: nothing worth doing now.  ``view``: mq.rules.view(state, seat)."""
    cards = cards or load_default()
    p = view.players[seat]
    if not p.fresh or view.combat is not None or view.pending is not None or view.turn is None \
            or view.turn.seat == seat:
        return None
    for a in legal.legal_actions(view, seat, cards, "play"):
        defn = cards.card(a.args[0])
        if a.args[0] in p.fresh and isinstance(defn, TreasureDef) and place_for(p, defn, cards) not in (None, BACKPACK):
            return a
    return None


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
    if view.pending.kind == PendingKind.PICK:  # Q-HELP-2: the Treasure worth most to us
        return max(options, key=lambda a: (worth(a.args[0], view.players[seat], cards), a.args))
    if view.pending.kind == PendingKind.COLOUR:
        # Give the new monster to the leader: it will hunt them (Q-MON-3).
        def leader_key(a):
            c = a.args[0]
            level = view.players[c].level if c < len(view.players) else 0
            return (c == seat, -level, c)
        return min(options, key=leader_key)
    plays = [a for a in options if a.kind == "play"]  # Q-CHARITY: into play rather than give it away
    if plays:
        return plays[0]
    # lose_item / charity: part with the least valuable card.
    return min(options, key=lambda a: (item_value(a.args[0], cards), a.args))


# -- estimates -------------------------------------------------------------------------------
def boosts_in_hand(p, cards) -> int:
    """Combat bonus of the one-shots this munchkin could still use (Q-COMBAT-11)."""
    own = list(p.hand) + [it.card for it in p.items if it.place == BELT]
    return sum(cards.card(c).bonus for c in own if getattr(cards.card(c), "kind", None) == CardKind.ONESHOT)


def nerve(view) -> int:
    """Bots grow bolder as a game drags on, so that cautious tables still reach an end (a table
    of bots too weak for the monsters around them would otherwise pass turns for ever)."""
    return view.turn.number // 30 if view.turn is not None else 0


def winnable(view, seat, cards, room: int) -> bool:
    """Healthy, and likely to beat what fights it in ``room`` (one-shots in hand counted)."""
    p = view.players[seat]
    c = Combat(fighter=seat, room=room, monsters=tuple(combat.hostile_in(view, seat, cards, room)))
    return p.hp >= 2 and odds.chance(odds.what_if(view, c), cards, boosts_in_hand(p, cards)) \
        >= WINNABLE - 100 * nerve(view)


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
        return _prepare(view, seat, cards, by_kind, uses)
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


def _prepare(view, seat, cards, by_kind, uses) -> Action:
    """Before the roll: drink a heal when hurt, ask for help when the odds are poor (once), put in
    one-shots when they can turn the fight (always against the Boss, biggest first), leave by magic
    when the fight is hopeless, else roll."""
    c = view.combat
    heal = _heal_one_shot(view, seat, cards, uses)
    if heal is not None:
        return heal
    boosts = [a for a in uses if cards.card(a.args[0]).bonus > 0] + _weakeners(by_kind, cards, view.players[seat].hand)
    spare = sum(_swing(a, cards) for a in boosts)
    now = odds.chance(view, cards)
    if "ask" in by_kind and not c.asked and odds.chance(view, cards, spare if c.boss else 0) < ASK_BELOW:
        return by_kind["ask"][0]  # Q-HELP-1 (once: the same table would bid the same again)
    if boosts and (c.boss or (now < SPEND_BELOW and odds.chance(view, cards, spare) >= SPEND_TO)):
        return max(boosts, key=lambda a: (_swing(a, cards), a.args))
    if now < HOPELESS and not c.boss:
        for a in uses:
            if _does(cards, a, "teleport"):
                return a
    return by_kind["roll"][0]


def _heal_one_shot(view, seat, cards, uses) -> Action | None:
    """Q-CHAR-6, Q-COMBAT-11, Q-CARD-3: a one-shot that heals (and adds nothing), in a fight or out
    of one: drink it when hurt, the smallest heal that is not wasted first."""
    p = view.players[seat]
    missing = max_hp(p, cards) - p.hp
    if missing <= 0:
        return None
    heals = [(sum(e.get("amount", 1) for e in cards.card(a.args[0]).effects if e.name == "heal"), a) for a in uses
             if cards.card(a.args[0]).bonus <= 0 and _does(cards, a, "heal")]
    fitting = [(n, a) for n, a in heals if n <= missing or p.hp <= 1]
    return min(fitting, key=lambda x: (x[0], x[1].args))[1] if fitting else None


def _help(view, seat, cards, by_kind) -> Action:
    """Q-HELP-2, Q-DIGI-3: a bidder offers the terms worth most to them that the fighter would
    still take (mq.bots.deals), or passes when no terms make helping worth it (a rival to the
    winning level, a Boss fight they would rather take on alone); the fighter's counter-offer is
    taken when it is worth it.  The fighter takes the bid, or counters with the cheaper terms the
    bidder will take, that is worth most to them, or declines."""
    c = view.combat
    if seat != c.fighter:
        counter = next((o for o in c.offers if o[0] == c.fighter), None)
        if counter is not None:  # the fighter's terms
            take = Action(seat, "accept", (c.fighter,))
            if take in by_kind.get("accept", []) and deals.Haggle(view, cards).acceptable(seat, *counter[1:]):
                return take
            return by_kind["pass"][0]
        return deals.bid(view, seat, cards, by_kind.get("offer", [])) or by_kind["pass"][0]
    extra = boosts_in_hand(view.players[seat], cards) if c.boss else 0  # all one-shots go in against the Boss
    choice = deals.answer(view, cards, by_kind.get("accept", []), by_kind.get("counter", []), extra)
    return choice or by_kind["decline"][0]


def _window(view, seat, cards, by_kind) -> Action:
    """The interrupt window (Q-COMBAT-7): answer a card played against our fight, or spoil a
    leader's fight (Q-HELP-3) when one card can turn it; otherwise pass."""
    c = view.combat
    uses = by_kind.get("use", [])
    now = odds.chance(view, cards)
    if seat == c.fighter:
        answers = uses + _weakeners(by_kind, cards, view.players[seat].hand)
        if now < SPEND_BELOW and answers:
            return max(answers, key=lambda a: (_swing(a, cards), a.args))
        return by_kind["pass"][0]
    if seat == c.helper:
        return by_kind["pass"][0]
    leading = _enemy_fight(view, cards)
    spoilers = [a for a in uses if a.args[1] == "monsters"]
    spoilers += [a for a in by_kind.get("enhance", []) if cards.card(a.args[0]).bonus > 0]
    spoilers += [a for a in by_kind.get("curse", []) if a.args[1] == c.fighter and _does(cards, a, "next_combat")]
    spoilers += [a for a in by_kind.get("power", []) if a.args[0] == "backstab" and a.args[1] == c.fighter
                 and _cheap(a.args[2], cards, by_kind, view.players[seat].hand)]
    spoilers = [a for a in spoilers if odds.chance(view, cards, -_swing(a, cards)) < odds.PER // 2]
    if leading and now >= odds.PER // 2:
        if spoilers:
            return min(spoilers, key=lambda a: (_swing(a, cards), a.args))
        if by_kind.get("wander"):
            return by_kind["wander"][0]
        if by_kind.get("mate"):
            return by_kind["mate"][0]
    return by_kind["pass"][0]


def _enemy_fight(view, cards) -> bool:
    """A fight everyone else wants lost: against the Boss (Q-BOSS), or a runaway leader's (two
    levels ahead of everyone).  (A munchkin one kill from level 10 is refused help, not spoiled
    by everyone: at a table where all are at level 9 that would stop every fight for ever.)"""
    c = view.combat
    fighter = view.players[c.fighter]
    return c.boss or fighter.level >= max(p.level for p in view.players if p.seat != c.fighter) + 2


def _after_roll(view, seat, cards, by_kind) -> Action:
    """Q-COMBAT-7: change a die when it turns the result our way (our fight, or a leader's)."""
    c = view.combat
    won = combat.outcome(view, cards)[-1]
    want = (not won) if seat in combat.fighters(c) else (won and _enemy_fight(view, cards))
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
    return card in hand and card not in playable and getattr(cards.card(card), "kind", None) in (CardKind.RACE, CardKind.CLASS)


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
    """Its own turn, in order of priority: grow stronger, look after itself, then where to go."""
    if view.turn.seat != seat:
        raise ValueError("bots act out of turn only when the rules ask them to")
    return (_grow(view, seat, cards, by_kind) or _tend(view, seat, cards, by_kind)
            or _go(view, seat, cards, by_kind))


def _grow(view, seat, cards, by_kind) -> Action | None:
    """Cards into play (levels, race/class, items, Q-CARD-3), an item out of the backpack, a curse
    on the leader, a Cheat!, a level bought with what it does not fight with."""
    p = view.players[seat]
    for a in by_kind.get("play", []):
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
    return None


def _tend(view, seat, cards, by_kind) -> Action | None:
    """One-shots outside combat (Q-CARD-3, 4): a heal when low, magic to the Entrance at level 10
    (Q-BOSS-1); a level for HP when at 1; a room deal; picking up."""
    p = view.players[seat]
    uses = by_kind.get("use", [])
    heal = _heal_one_shot(view, seat, cards, uses)
    if heal is not None and p.hp <= 2:
        return heal
    if p.level >= MAX_LEVEL and view.combat is None:
        for a in uses:
            if _does(cards, a, "teleport"):
                return a
    if "heal" in by_kind and p.hp == 1 and p.level > 2:
        return by_kind["heal"][0]
    deal = _room_deal(view, seat, cards, by_kind)
    if deal is not None:
        return deal
    if "pickup" in by_kind:
        return by_kind["pickup"][0]
    return None


def _go(view, seat, cards, by_kind) -> Action:
    """Where to go: at level 10 straight for the Boss in the Entrance, no fights for loot
    (Q-BOSS-1); else to a deal, summoning, searching, hunting, wandering, or the turn's end."""
    p = view.players[seat]
    if p.level >= MAX_LEVEL:
        step = _to_entrance(view, seat, cards, by_kind)
        if step is not None or board.is_complete(view):
            return step or by_kind["end_turn"][0]
    step = _to_deal(view, seat, cards, by_kind)
    if step is not None:
        return step
    if "summon" in by_kind and _summon_pays(view, seat, cards):  # (before searching: it costs no move)
        return by_kind["summon"][0]
    if "search" in by_kind and not bold(view, seat, cards):
        return by_kind["search"][0]
    step = _hunt(view, seat, cards, by_kind)
    if step is not None:
        return step
    if "search" in by_kind:
        return by_kind["search"][0]
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


def _hunt(view, seat, cards, by_kind) -> Action | None:
    """One step: into a beatable fight, or exploring when bold, or towards unexplored edges."""
    p = view.players[seat]
    best = None
    for a in by_kind.get("move", []) + by_kind.get("dash", []):
        d = a.args[0]
        j = board.beyond(view.rooms, p.room, d)[2]
        if j < 0:
            score = 5 if bold(view, seat, cards) else -10
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
    """Rooms with unexplored sides are worth walking to (none once the dungeon is complete: its
    edge is a wall for munchkins, Q-EXPLORE-6)."""
    if board.is_complete(view):
        return 0
    r = view.rooms[room]
    open_sides = sum(1 for d in range(4)
                     if r.sides[d] != board.WALL and board.beyond(view.rooms, room, d)[2] < 0)
    return 1 + open_sides if open_sides else 0


def _wander(view, seat, cards, by_kind) -> Action | None:
    """Head for the nearest room with an unexplored way out or a beatable monster, around rooms
    it cannot survive; once the dungeon is complete, for a monster-free room to summon in when a
    summoned fight would pay (Q-EXPLORE-7)."""
    here = view.players[seat].room
    summon = board.is_complete(view) and _summon_pays(view, seat, cards)

    def goal(j, hostile):
        if hostile or _frontier_score(view, j) > 0:
            return True
        return summon and j not in (0, here) and not any(m.room == j for m in view.monsters)
    return _route(view, seat, cards, by_kind, goal, lambda j: winnable(view, seat, cards, j))


def _to_entrance(view, seat, cards, by_kind) -> Action | None:
    """A step towards the Entrance around every monster, or else around those it cannot beat, or
    else the cheapest way there."""
    def goal(j, hostile):
        return j == 0
    step = _route(view, seat, cards, by_kind, goal, lambda j: False) \
        or _route(view, seat, cards, by_kind, goal, lambda j: winnable(view, seat, cards, j))
    return step or _step_towards(view, seat, cards, 0, by_kind)


def _route(view, seat, cards, by_kind, goal, enter_fight) -> Action | None:
    """The first step to the nearest room ``goal(room, hostile)`` accepts, breadth-first over
    explored rooms (Q-MOVE), through rooms with monsters only where ``enter_fight(room)``."""
    p = view.players[seat]
    came_from = {p.room: (p.room, -1)}
    frontier = [p.room]
    found = None
    while frontier and found is None:
        nxt = []
        for room in frontier:
            for d, j in board.neighbours(view, cards, room):
                if j in came_from:
                    continue
                hostile = bool(combat.hostile_in(view, seat, cards, j))
                if hostile and not enter_fight(j):
                    continue
                came_from[j] = (room, d)
                if goal(j, hostile):
                    found = j
                    break
                nxt.append(j)
            if found is not None:
                break
        frontier = nxt
    if found is None:
        return None
    while came_from[found][0] != p.room:
        found = came_from[found][0]
    return _action_for_dir(by_kind, came_from[found][1])


def _summon_pays(view, seat, cards) -> bool:
    """Q-EXPLORE-7: summon only a fight it expects to win, against whatever monster may come
    (mq.bots.odds.summon_chance), and never at level 10, where a kill gives no level.  A runaway
    leader must expect the table's cards too (Q-HELP-3)."""
    p = view.players[seat]
    if p.level >= MAX_LEVEL or p.hp < 2:
        return False
    watched = p.level >= max(q.level for q in view.players if q.seat != seat) + 2
    need = (SUMMON_WATCHED if watched else SUMMON_AT) - 100 * nerve(view)
    return odds.summon_chance(view, seat, cards, boosts_in_hand(p, cards)) >= need


def _room_deal(view, seat, cards, by_kind) -> Action | None:
    """Q-SEARCH-5: the room's deal, when it pays (``_deal_pays``)."""
    face = cards.face(view.rooms[view.players[seat].room].face)
    idle = _idle_items(view.players[seat], cards, by_kind)
    for a in by_kind.get("deal", []):
        if a.args[0] == "sell" and all(c in idle for c in a.args[1:]):
            return a
        if a.args[0] == "buy" and _deal_pays(view.players[seat], face, cards, by_kind):
            return a
    return None


def _idle_items(p, cards, by_kind) -> list[str]:
    """Treasure items it has no use for: in the backpack with a restriction that switches them off
    (Q-ITEM-4).  Only items in play can be sold (Q-CARD-9), never a card in hand."""
    ident = identity(p, cards)
    return [it.card for it in p.items if it.place == BACKPACK and cards.card(it.card).kind == CardKind.ITEM
            and not usable(cards.card(it.card), ident)]


def _deal_pays(p, face, cards, by_kind) -> bool:
    """Selling idle items pays while gold still buys levels (Q-CHAR-3: below level 9); buying
    Treasure pays with gold that can no longer buy a level (from level 9), keeping enough for a
    bribe until level 10."""
    for e in face.effects:
        if e.name == "deal_sell" and p.level < MAX_LEVEL - 1 and _idle_items(p, cards, by_kind):
            return True
        if e.name == "deal_buy" and p.level >= MAX_LEVEL - 1 \
                and p.gold - e.get("price") >= (0 if p.level >= MAX_LEVEL else BRIBE_FUND):
            return True
    return False


def _to_deal(view, seat, cards, by_kind) -> Action | None:
    """A step towards a known room whose deal pays and that it can reach with a move to spare this
    turn, around monsters (Q-SEARCH-5: a deal costs 1 move, never with a monster present)."""
    p = view.players[seat]
    left = max(0, move_total(p, cards) - view.turn.spent) - 1
    if left < 1:
        return None
    near = {room for room, _ in core.reachable(board.encoded(view, cards), p.room, left, False)}
    taken = set(view.turn.deals) | {m.room for m in view.monsters} | {p.room}
    targets = {j for j in near if j not in taken and _deal_pays(p, cards.face(view.rooms[j].face), cards, by_kind)}
    if not targets:
        return None
    return _route(view, seat, cards, by_kind, lambda j, hostile: j in targets, lambda j: False)


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
