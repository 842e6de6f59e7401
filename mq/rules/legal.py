"""Which actions a seat may take now, in a stable order.  This is the single source of truth for
legality: ``apply`` accepts exactly these (plus any valid ``buy`` combination), so what a bot or
the client is offered and what every peer accepts can never disagree.

One enumeration (``_enumerate``) hands each action to a callback: ``legal_actions`` collects
them, ``has_action`` stops at the first one it looks for (auto-pass, ``is_legal``), so a short
answer and the full list come from the same code and cannot disagree."""
from __future__ import annotations

from collections.abc import Callable

from mq.cards import CardKind, CardSet, DxmDef, TreasureDef
from mq.rules import board, combat, powers
from mq.rules.actions import Action
from mq.rules.character import (
    MAX_LEVEL,
    can_place,
    card_limit,
    identity,
    item_value,
    max_hp,
    move_total,
    place_for,
)
from mq.rules.state import (
    BACKPACK,
    BELT,
    CARRIED,
    LOOTED,
    OVER,
    SETUP,
    WORN,
    FirstPick,
    PendingKind,
    Stage,
    State,
)

LEVEL_PRICE = 1000  # Q-CHAR-3
MUNCHKINS, MONSTERS = "munchkins", "monsters"  # the sides a one-shot can help (Q-HELP-3)


def legal_actions(state: State, seat: int, cards: CardSet, kind: str | None = None) -> tuple[Action, ...]:
    """Every action ``seat`` may take now.  With ``kind``, only the actions of that kind: exactly
    the full list filtered, in the same order, but blocks that cannot produce that kind are
    skipped (``is_legal`` checks one action without enumerating every other kind).  A block that
    is not guarded by ``_wants`` is simply filtered, so a new block is correct without a guard."""
    out: list[Action] = []
    if kind is None:
        add = out.append
    else:
        def add(a: Action) -> None:
            if a.kind == kind:
                out.append(a)
    _enumerate(state, seat, cards, add, kind)
    return tuple(out)


def has_action(state: State, seat: int, cards: CardSet, test: Callable[[Action], bool],
               kind: str | None = None) -> bool:
    """Whether ``seat`` has a legal action ``a`` with ``test(a)`` (with ``kind``: of that kind),
    stopping at the first one.  Always ``any(test(a) for a in legal_actions(state, seat, cards,
    kind))``: the same enumeration feeds both, only this one is cut short (tests/test_rules_legal.py
    checks it on every state of random and bot games)."""
    if kind is None:
        def add(a: Action) -> None:
            if test(a):
                raise _Found
    else:
        def add(a: Action) -> None:
            if a.kind == kind and test(a):
                raise _Found
    try:
        _enumerate(state, seat, cards, add, kind)
    except _Found:
        return True
    return False


class _Found(Exception):
    """Stops an enumeration at the first action ``has_action`` looks for (the rules code it runs
    through catches no exceptions, so this one always reaches ``has_action``)."""



def _enumerate(state: State, seat: int, cards: CardSet, add: Callable[[Action], None], kind: str | None) -> None:
    """Hand every legal action of ``seat`` to ``add``, in the stable order of ``legal_actions``;
    with ``kind``, blocks that cannot produce that kind may be skipped (``add`` filters the rest)."""
    if state.phase == OVER or not 0 <= seat < len(state.players):
        return
    p = state.players[seat]
    if state.pending is not None:
        if state.pending.seat == seat:
            _pending(state, seat, cards, add)
        return
    if state.phase == SETUP:
        if not p.ready:
            for card in p.hand:
                if _playable_in_setup(cards.card(card), p, cards):
                    add(Action(seat, "play", (card,)))
            add(Action(seat, "ready"))
        return
    if state.combat is not None:
        _combat(state, seat, cards, add, kind)
        if _wants(kind, "power"):  # (class powers are all ``power`` actions, mq.rules.powers)
            powers.legal(state, seat, cards, add)
        return
    if state.current_turn.seat == seat and p.alive and _wants(kind, *MOVEMENT_KINDS):
        _movement_phase(state, seat, cards, add, kind)  # first: what a turn is mostly about
    _anytime(state, seat, cards, add, own_turn=state.current_turn.seat == seat, only=kind)
    if _wants(kind, "power"):
        powers.legal(state, seat, cards, add)


def _wants(kind: str | None, *kinds: str) -> bool:
    """Whether a block producing only ``kinds`` must run when listing ``kind`` (None: all)."""
    return kind is None or kind in kinds


def _pending(state, seat, cards, add) -> None:
    pend = state.pending
    if pend.kind in (PendingKind.COLOUR, PendingKind.LOSE_ITEM, PendingKind.CURSE, PendingKind.RESURRECT,
                     PendingKind.PICK):
        for option in pend.options:
            add(Action(seat, "choose", (option,)))
    elif pend.kind == PendingKind.CHARITY:
        p = state.players[seat]
        hand = p.hand
        for card in hand:  # Q-CHARITY: before giving, cards may still go into play
            defn = cards.card(card)
            if isinstance(defn, DxmDef):
                _race_or_class_plays(seat, card, defn, p, cards, add)
            elif _into_play(defn, p, cards):
                add(Action(seat, "play", (card,)))
        if not pend.options:  # the giver is lowest: discard the excess (Q-CHARITY)
            for card in hand:
                add(Action(seat, "discard", (card,)))
            return
        fewest = min(pend.data)
        for card in hand:
            for to, given in zip(pend.options, pend.data):
                if given == fewest:
                    add(Action(seat, "give", (card, to)))


def _playable_in_setup(defn, p, cards) -> bool:
    """Q-SETUP-3: race, class and item cards may go into play before the first turn (one-shots
    onto the belt, Q-ITEM-1)."""
    if isinstance(defn, DxmDef):
        return _race_or_class_ok(defn, p, cards)
    return _into_play(defn, p, cards)


def _race_or_class_ok(defn: DxmDef, p, cards) -> bool:
    """Q-CHAR-4: one race card and one class card normally, two with Half-Breed / Super Munchkin,
    which need a race / class in play (Q-CARD-5)."""
    if defn.kind in (CardKind.RACE, CardKind.CLASS):
        mine = p.races if defn.kind == CardKind.RACE else p.classes
        return len(mine) < card_limit(p, cards, defn.kind) and defn.key not in (cards.card(c).key for c in mine)
    if defn.kind in (CardKind.HALFBREED, CardKind.SUPERMUNCHKIN):
        needs = p.races if defn.kind == CardKind.HALFBREED else p.classes
        return bool(needs) and not any(cards.card(c).kind == defn.kind for c in p.hybrids)
    return False


def _swaps(defn, p, cards) -> tuple[str, ...]:
    """Q-CARD-5 (seed 000 p.17): with Half-Breed (Super Munchkin) in play, a race (class) card may
    be played in place of one in play at the same moment, which keeps the Half-Breed (Super
    Munchkin) even when it replaces the only race (class): the cards it may replace."""
    if defn.kind not in (CardKind.RACE, CardKind.CLASS):
        return ()
    race = defn.kind == CardKind.RACE
    mine = p.races if race else p.classes
    hybrid = CardKind.HALFBREED if race else CardKind.SUPERMUNCHKIN
    if not any(cards.card(c).kind == hybrid for c in p.hybrids) or defn.key in (cards.card(c).key for c in mine):
        return ()
    return mine


def _race_or_class_plays(seat, card, defn, p, cards, add) -> None:
    """Q-CHAR-4, Q-CARD-5: a race, class, Half-Breed or Super Munchkin card into play, or a race
    (class) card in place of one in play."""
    if _race_or_class_ok(defn, p, cards):
        add(Action(seat, "play", (card,)))
    for old in _swaps(defn, p, cards):
        add(Action(seat, "play", (card, old)))


def _level_card(defn) -> bool:
    return getattr(defn, "kind", None) == CardKind.LEVEL


def _anytime(state, seat, cards, add, own_turn: bool, only: str | None = None) -> None:
    """Q-TURN-2..4 outside combat: level cards, race/class, equipping, dropping, healing, one-shots
    where they mean something (Q-CARD-3, 4), and playing items from hand (one-shots onto the belt,
    Q-ITEM-1): on your own turn, and newly gained Treasure on anyone's turn (Q-CARD-3, Q-TURN-3)."""
    p = state.players[seat]
    if not p.alive:  # Q-DEATH-2, Q-CARD-4: the dead still play cards, but none on themselves
        if _wants(only, "curse"):
            _curses(state, seat, cards, add)
        return
    if _wants(only, "play"):
        _plays_from_hand(p, seat, cards, add, own_turn)
    for card in p.races + p.classes + p.hybrids:
        add(Action(seat, "discard", (card,)))  # Q-CHAR-4
    if _wants(only, "curse"):
        _curses(state, seat, cards, add)
    if _wants(only, "enhance"):
        _enhancers(state, p, seat, cards, add)
    if _wants(only, "equip"):
        _equips(p, seat, cards, add)
    _drops(p, seat, add)
    if _wants(only, "give"):
        _gifts(state, seat, cards, add)
    for shield in combat.curse_cancellers(p, cards) if p.curses and _wants(only, "uncurse") else ():
        for card in p.curses:  # Q-CARD-8: remove a lasting curse
            add(Action(seat, "uncurse", (shield, card)))
    if _wants(only, "cheat"):
        _cheats(p, seat, cards, add)
    if _wants(only, "heal") and p.level > 1 and p.hp < max_hp(p, cards):
        add(Action(seat, "heal"))  # Q-CHAR-6
    for card in _one_shots(p, cards) if _wants(only, "use") else ():
        if useful_outside_combat(p, cards.card(card), cards):
            add(Action(seat, "use", (card,)))  # Q-CARD-3, 4


def _plays_from_hand(p, seat, cards, add, own_turn: bool) -> None:
    """Cards from hand into play outside combat: a level card (never the winning level, Q-LAW-2),
    DxM cards anytime within their own rules (Q-CARD-4), and Treasure into play on your own turn or,
    newly gained, on anyone's (Q-CARD-3, Q-TURN-3; Q-ITEM-1)."""
    for card in p.hand:
        defn = cards.card(card)
        if _level_card(defn):
            if p.level < MAX_LEVEL - 1:  # Q-LAW-2
                add(Action(seat, "play", (card,)))
        elif isinstance(defn, DxmDef):
            _race_or_class_plays(seat, card, defn, p, cards, add)
        elif (own_turn or card in p.fresh) and _into_play(defn, p, cards):
            add(Action(seat, "play", (card,)))


def _enhancers(state, p, seat, cards, add) -> None:
    """Q-CARD-6: monster enhancers anytime, on any monster."""
    for card in p.hand:
        if getattr(cards.card(card), "kind", None) == CardKind.ENHANCER:
            for m in state.monsters:
                add(Action(seat, "enhance", (card, m.uid)))


def _equips(p, seat, cards, add) -> None:
    """Q-TURN-3: an item in play moved to any other place it fits."""
    for it in p.items:
        for place in (WORN, CARRIED, BELT, BACKPACK):
            if place != it.place and can_place(p, it.card, place, cards):
                add(Action(seat, "equip", (it.card, place)))


def _cheats(p, seat, cards, add) -> None:
    """Q-ITEM-4: a Cheat! card on an item in play that has none, outside combat."""
    for card in p.hand:
        if getattr(cards.card(card), "kind", None) == CardKind.CHEAT:
            for it in p.items:
                if not it.cheat:
                    add(Action(seat, "cheat", (card, it.card)))


def _into_play(defn, p, cards) -> bool:
    """Q-CARD-3, Q-ITEM-1: an item card into its place, or a one-shot Treasure onto the belt."""
    return isinstance(defn, TreasureDef) and defn.kind in (CardKind.ITEM, CardKind.ONESHOT) \
        and place_for(p, defn, cards) is not None


def useful_outside_combat(p, defn, cards) -> bool:
    """Q-CARD-3, 4: a one-shot (Treasure or DxM) outside combat only where its effect means
    something there: healing a munchkin who is hurt, moving one by magic to the Entrance from
    elsewhere.  Bonuses, escapes and die changes mean nothing outside a fight; cancelling a lasting
    curse is ``uncurse``.  (The dead play no card on themselves, Q-DEATH-2.)"""
    if getattr(defn, "kind", None) != CardKind.ONESHOT or not p.alive:
        return False
    return (_has(defn, "heal") and p.hp < max_hp(p, cards)) or (_has(defn, "teleport") and p.room != 0)


def _drops(p, seat, add) -> None:
    """Q-SEARCH-4: items in play, or gold, may be dropped at any time, in a fight too (any amount of
    gold is accepted; all of it is what is offered).  In a reaction window a drop does not count
    as being able to act (mq.rules.windows.can_act): it cannot change the fight for the better."""
    for it in p.items:
        add(Action(seat, "drop", (it.card,)))
    if p.gold > 0:
        add(Action(seat, "drop", (p.gold,)))


def _gifts(state, seat, cards, add) -> None:
    """Q-ITEM-7: outside combat, give items in play (they stay in play for the receiver, where
    there is room for them) or gold (any amount; all of it is what is offered) to a munchkin in
    the same or an adjacent room."""
    p = state.players[seat]
    near = {p.room} | {r for _, r in board.neighbours(state, cards, p.room)}
    for q in state.players:
        if q.seat == seat or not q.alive or q.room not in near:
            continue
        for it in p.items:
            if place_for(q, cards.card(it.card), cards) is not None:
                add(Action(seat, "give", (it.card, q.seat)))
        if p.gold > 0:
            add(Action(seat, "give", (p.gold, q.seat)))


# The kinds _movement_phase lists (checking the is_legal of an anytime card skips the block).
MOVEMENT_KINDS = ("move", "dash", "search", "pickup", "summon", "fight", "deal", "buy", "suicide", "end_turn")


def _movement_phase(state, seat, cards, add, only: str | None = None) -> None:
    p = state.players[seat]
    t = state.turn
    # Only actions that spend move look at ``left``: when listing another kind, skip computing it.
    left = max(0, move_total(p, cards) - t.spent) if _wants(only, "move", "dash", "search", "pickup", "deal") else 0
    here = state.rooms[p.room]
    complete = board.is_complete(state)
    if _wants(only, "move", "dash"):
        _moves(state, p, seat, here, left, complete, add)
    quiet = not any(m.room == p.room for m in state.monsters)
    face = cards.face(here.face)
    if (quiet and left >= 1 and not face.no_search and here.mark != LOOTED
            and p.room not in t.searched):
        add(Action(seat, "search"))
    if quiet and left >= 1 and (here.pile or here.pile_gold):
        add(Action(seat, "pickup"))
    if quiet and t.summon_room == p.room and complete:
        add(Action(seat, "summon"))
    if not quiet and _wants(only, "fight") and not combat.hostile_in(state, seat, cards, p.room):
        add(Action(seat, "fight"))  # Q-COMBAT-2: every monster here ignores you; you may still fight
    if quiet and left >= 1 and p.room not in t.deals:
        _deals(p, seat, face, cards, add, only)
    for option in buy_options(p, cards, t.double_sale) if _wants(only, "buy") else ():
        add(Action(seat, "buy", option))
    add(Action(seat, "suicide"))
    add(Action(seat, "end_turn"))


def _moves(state, p, seat, here, left: int, complete: bool, add) -> None:
    """Q-MOVE-1, 2: across each connector that is not a wall, as a move when the move left pays
    for it, else as the turn's one dash."""
    for d in range(4):
        kind = here.sides[d]
        if kind == board.WALL:
            continue
        _, _, j = board.beyond(state.rooms, p.room, d)
        if j < 0 and complete:
            continue  # Q-EXPLORE-6: the edge of a complete dungeon is a wall for munchkins
        if board.MOVE_COST[kind] <= left:
            add(Action(seat, "move", (d,)))
        elif not state.turn.dashed:
            add(Action(seat, "dash", (d,)))  # Q-MOVE-2


def _deals(p, seat, face, cards, add, only: str | None) -> None:
    """Q-SEARCH-5: the deals printed on the room."""
    for e in face.effects:
        if e.name == "deal_buy" and p.gold >= e.number("price"):
            add(Action(seat, "deal", ("buy",)))
        elif e.name == "deal_sell" and _wants(only, "deal"):
            for card in sellable(p, cards):
                add(Action(seat, "deal", ("sell", card)))


def sellable(p, cards) -> list[str]:
    """Items in play (worn, carried, belt or backpack) worth gold (Q-CHAR-3); cards in hand are
    not in play and are never sold (Q-CARD-9)."""
    return [it.card for it in p.items if item_value(it.card, cards) > 0]


def sale_value(p, cards, items, double_used: bool) -> int:
    """Gold value of items sold for a level (Q-CHAR-3); once per turn a halfling's dearest item
    counts double (Q-CHAR-4)."""
    values = [item_value(c, cards) for c in items]
    double = max(values) if values and not double_used and "halfling" in identity(p, cards) else 0
    return sum(values) + double


BUY_OFFERS = 16  # Q-CHAR-3: the most ways to buy a level that legal_actions lists
BUY_SEARCH = 256  # ... and the most choices of items it looks at to find them (a bound on the work)


def buy_options(p, cards, double_used: bool = False) -> list[tuple[str, ...]]:
    """Offered ways to buy a level (Q-CHAR-3): the player chooses which items in play to sell, so
    every choice that wastes nothing is offered — gold alone, and each set of items in play that
    pays for the level with the gold topped up, where without its cheapest item the items alone
    would pay less than a level.  Those wasting least (value beyond the price) come first, then
    those of fewer items; at most BUY_OFFERS, found among at most BUY_SEARCH sets, dearest items
    first.  Any other valid combination is accepted too (valid_buy): the offers are for bots and
    clients, the choice is the player's."""
    if p.level >= MAX_LEVEL - 1 or not p.alive:
        return []
    items = sorted(sellable(p, cards), key=lambda c: (-item_value(c, cards), c))
    values = [item_value(c, cards) for c in items]
    double = not double_used and "halfling" in identity(p, cards)  # the dearest counts twice (Q-CHAR-4)
    found: list[tuple[int, int, tuple[str, ...]]] = []
    stack: list[tuple[tuple[int, ...], int]] = [((), 0)]  # (indices chosen, dearest first; their value without the halfling's double)
    looked = 0
    while stack and looked < BUY_SEARCH:
        chosen, value = stack.pop()
        for i in range(len(items) - 1, (chosen[-1] if chosen else -1), -1):
            looked += 1
            combo = chosen + (i,)
            worth = value + values[i] + (values[combo[0]] if double else 0)
            if worth + p.gold >= LEVEL_PRICE:
                found.append((max(0, worth - LEVEL_PRICE), len(combo), tuple(items[j] for j in combo)))
            if worth < LEVEL_PRICE:
                stack.append((combo, value + values[i]))  # still short of a level: may take more
    found.sort()
    out = [()] if p.gold >= LEVEL_PRICE else []
    return out + [combo for _, _, combo in found[:BUY_OFFERS - len(out)]]


def valid_buy(p, cards, items: tuple[int | str, ...], double_used: bool) -> bool:
    if p.level >= MAX_LEVEL - 1 or len(set(items)) != len(items):
        return False
    own = sellable(p, cards)
    if any(c not in own for c in items):
        return False
    return sale_value(p, cards, items, double_used) + p.gold >= LEVEL_PRICE


# Q-HELP-2, Q-DIGI-3: the terms of a deal for help.  Gold the fighter pays (negative: the helper
# pays it, "let me help and I pay you"), first Treasure picks for the helper, or one of the
# fighter's items in play.
HELP_GOLD = (-500, -300, 0, 300, 500, 600)
HELP_SHARES = (0, 1, 2)
PICK_VALUE = 300  # what a Treasure pick is worth when a counter-offer must be cheaper than a bid
FIRST_PICK_VALUE = 100  # ... and picking first among the Treasures (Q-HELP-2)
HELP_ROUNDS = 4  # calls for help plus counter-offers in one fight: haggling ends (the book haggles 4 times)
REBIDS = 4  # bids changed unasked in one fight (Q-HELP-2): bounded like the haggling
FIRSTS = (FirstPick.HELPER, FirstPick.FIGHTER)


def deal_cost(gold: int, share: int, item: str, cards, first: str = FirstPick.HELPER) -> int:
    """What a deal costs the fighter, in gold (a counter-offer must cost less than the bid); the
    helper's picking first is worth something when they take Treasure (Q-HELP-2)."""
    first_pick = FIRST_PICK_VALUE if share and first == FirstPick.HELPER else 0
    return gold + PICK_VALUE * share + first_pick + (item_value(item, cards) if item else 0)


def offer_args(gold: int, share: int, item: str = "", first: str = FirstPick.HELPER) -> tuple:
    """The arguments of an ``offer`` (a ``counter`` takes the same after the bidder's seat): the
    short forms ``(gold, picks)`` and ``(gold, picks, item)`` when the helper picks first."""
    if first != FirstPick.HELPER:
        return (gold, share, item, first)
    return (gold, share, item) if item else (gold, share)


FIGHT_CARDS = ("enhance", "wander", "mate", "curse")  # the kinds _fight_cards lists


def _combat(state, seat, cards, add, only: str | None = None) -> None:
    """What ``seat`` may do in the fight, stage by stage (Combat's docstring), then what may be
    done at any time of it."""
    c = state.combat
    p = state.players[seat]
    if seat == c.fighter and c.stage == Stage.PREPARE:
        _prepare(state, c, p, seat, cards, add, only)
    elif c.stage == Stage.HELP:
        _help(state, c, seat, cards, add, only)
    elif seat == c.runner:
        _running(state, c, p, seat, cards, add)
    if c.stage == Stage.OUTCOME and seat in c.waiting:  # Q-COMBAT-7: only after-roll cards now
        if _wants(only, "set_die"):
            _die_changes(c, p, seat, cards, add)
        add(Action(seat, "pass"))
    if c.stage == Stage.WINDOW and seat in c.waiting:
        if _wants(only, "use"):
            _window_one_shots(state, c, p, seat, cards, add)
        if _wants(only, *FIGHT_CARDS):
            _fight_cards(state, seat, cards, add)
        add(Action(seat, "pass"))
    if p.alive:
        _anytime_in_combat(c, p, seat, cards, add, only)


def _running(state, c, p, seat, cards, add) -> None:
    """The runner (Q-RUN): where to run, or magic movement instead; the escape rolls in an order
    they choose, cards decided before rolling; after a halfling's failed first roll, letting it
    stand (or rolling again, the power "reroll", mq.rules.powers)."""
    if c.stage == Stage.RUN:
        for card in _one_shots(p, cards):  # Q-RUN-4: magic movement instead of running
            if _has(cards.card(card), "teleport") and not c.boss:
                add(Action(seat, "use", (card,)))
        for room in combat.run_options(state, cards):
            add(Action(seat, "run", (room,)))
    elif c.stage == Stage.ESCAPE:
        if c.to_escape == c.monsters:  # Q-RUN-4: cards are decided before rolling
            for card in _one_shots(p, cards):
                defn = cards.card(card)
                if _has(defn, "teleport") or (c.run_to >= 0 and (_has(defn, "escape") or _has(defn, "runaway"))):
                    add(Action(seat, "use", (card,)))
        for uid in c.to_escape:
            add(Action(seat, "escape", (uid,)))
    elif c.stage == Stage.REROLL:
        add(Action(seat, "pass"))  # let the failed roll stand: its Bad Stuff


def _anytime_in_combat(c, p, seat, cards, add, only: str | None) -> None:
    """What a living munchkin may do at any time of a fight: go up a level, add a race or class
    (Q-TURN-2; only the dice and the after-roll window, Q-COMBAT-7, are closed to them), drop
    things (Q-SEARCH-4), and the fighter give up (Q-TURN-4, Q-DEATH-4; Q-BOSS-2: not vs the Boss)."""
    if c.stage in (Stage.PREPARE, Stage.WINDOW, Stage.HELP, Stage.RUN, Stage.ESCAPE, Stage.REROLL):
        for card in p.hand if _wants(only, "play") else ():
            defn = cards.card(card)
            if _level_card(defn) and p.level < MAX_LEVEL - 1:
                add(Action(seat, "play", (card,)))
            elif isinstance(defn, DxmDef):
                _race_or_class_plays(seat, card, defn, p, cards, add)
        for card in p.races + p.classes:
            add(Action(seat, "discard", (card,)))  # Q-CHAR-4: even in combat
    _drops(p, seat, add)
    if seat == c.fighter and not c.boss:
        add(Action(seat, "suicide"))


def _prepare(state, c, p, seat, cards, add, only: str | None) -> None:
    """The fighter before rolling: one-shots, asking for help, cards on the fight, the roll."""
    for card in _one_shots(p, cards) if _wants(only, "use") else ():
        defn = cards.card(card)
        magic = _has(defn, "teleport") and not c.boss and c.room != 0 and c.helper < 0
        if defn.bonus > 0 or _has(defn, "heal") or magic:
            add(Action(seat, "use", (card,)))
    if c.rounds < HELP_ROUNDS and c.helper < 0 and _wants(only, "ask") \
            and any(combat.may_be_asked(state, cards, s) for s in range(len(state.players))):
        add(Action(seat, "ask"))  # Q-HELP-1; again after every offer was declined, a few times
    if _wants(only, *FIGHT_CARDS):
        _fight_cards(state, seat, cards, add)
    add(Action(seat, "roll"))


def _help(state, c, seat, cards, add, only: str | None) -> None:
    """Q-HELP-1, 2, Q-DIGI-3: the bidding for help: bids, the fighter's terms, accepting,
    counter-offers, declining; cards on the fight meanwhile."""
    counter = next((o for o in c.offers if o[0] == c.fighter), None)  # the fighter's terms
    bid = next((o for o in c.offers if o[0] == seat), None) if seat != c.fighter else None
    if seat in c.waiting and combat.can_help(state, cards, seat):  # (else only pass: they cannot come)
        if counter is not None and _affordable(state, seat, counter[1], counter[3]):
            add(Action(seat, "accept", (c.fighter,)))  # Q-DIGI-3: agree to the fighter's terms
        if _wants(only, "offer"):
            _bids(state, seat, cards, add, None)
    elif bid is not None and c.rebids < REBIDS and _wants(only, "offer"):
        _bids(state, seat, cards, add, bid)  # Q-HELP-2: a bid may change until one is accepted
    if seat in c.waiting:
        add(Action(seat, "pass"))
    elif seat == c.fighter and not c.waiting:
        for helper, gold, share, item, first in c.offers:
            if helper != c.fighter and _affordable(state, helper, gold, item):
                add(Action(seat, "accept", (helper,)))
        if c.rounds < HELP_ROUNDS and _wants(only, "counter"):
            _counters(state, c, seat, cards, add)
        add(Action(seat, "decline"))
    if _wants(only, *FIGHT_CARDS):  # Q-HELP-3, Q-CARD-6: anytime, while help is negotiated
        _fight_cards(state, seat, cards, add)  # (the dead too, Q-DEATH-2: on the fight, not on themselves)


def _counters(state, c, seat, cards, add) -> None:
    """Q-DIGI-3: the fighter's counter-offers to each bid, each cheaper for the fighter than the
    bid (asking to be paid is the bidders' call)."""
    for helper, gold, share, item, first in c.offers:
        bid = deal_cost(gold, share, item, cards, first)
        for g in HELP_GOLD:
            for sh in HELP_SHARES if g >= 0 else ():
                for fp in FIRSTS if sh else FIRSTS[:1]:
                    if deal_cost(g, sh, "", cards, fp) < bid and _affordable(state, helper, g, ""):
                        add(Action(seat, "counter", (helper,) + offer_args(g, sh, "", fp)))


def _die_changes(c, p, seat, cards, add) -> None:
    """Q-COMBAT-7: after the roll, a card that turns one die of either side to its value."""
    for card in combat.after_roll_cards(p, cards):
        to = next(e.number("to") for e in cards.card(card).effects if e.name == "change_die")
        for side, dice in ((MUNCHKINS, c.my_dice), (MONSTERS, tuple(x for d in c.their_dice for x in d))):
            for i, value in enumerate(dice):
                if value != to:
                    add(Action(seat, "set_die", (card, side, i)))


def _window_one_shots(state, c, p, seat, cards, add) -> None:
    """Q-COMBAT-7, Q-HELP-3: one-shots for either side in the interrupt window (the fighter only
    for their own side); throwables only from the fight's room or next door (Q-ITEM-9).  A dead
    munchkin plays them too, and enhancers and the like: they act on the fight, not on the dead
    (Q-DEATH-2)."""
    near = None  # whether p is in the fight's room or next door: asked only for a throwable
    for card in _one_shots(p, cards):
        defn = cards.card(card)
        if defn.bonus > 0 and getattr(defn, "throwable", False) and near is None:
            near = p.room == c.room or p.room in combat.run_options(state, cards)
        if defn.bonus > 0 and (near or not getattr(defn, "throwable", False)):
            if seat == c.fighter:
                add(Action(seat, "use", (card,)))
            else:
                add(Action(seat, "use", (card, MUNCHKINS)))
                add(Action(seat, "use", (card, MONSTERS)))


def _bids(state, seat, cards, add, old) -> None:
    """Q-HELP-2, Q-DIGI-3: the bids ``seat`` may make — gold (negative: the helper pays), first
    Treasure picks, either side picking first when the helper takes some, or one of the fighter's
    items in play — other than their bid ``old`` already on the table."""
    c = state.combat
    p = state.players[seat]
    for gold in HELP_GOLD:
        if gold < 0 and p.gold < -gold:
            continue  # a helper who pays must have the gold
        for share in HELP_SHARES:
            for first in FIRSTS if share else FIRSTS[:1]:
                if old is None or old[1:] != (gold, share, "", first):
                    add(Action(seat, "offer", offer_args(gold, share, "", first)))
    for it in state.players[c.fighter].items:
        if place_for(p, cards.card(it.card), cards, bool(it.cheat)) is not None \
                and (old is None or old[1:] != (0, 0, it.card, FirstPick.HELPER)):
            add(Action(seat, "offer", (0, 0, it.card)))  # or one of the fighter's items in play


def _affordable(state, helper: int, gold: int, item: str) -> bool:
    """Whether a deal can still be carried out: whoever pays has the gold, the item is in play."""
    c = state.combat
    f = state.players[c.fighter]
    if gold > f.gold or -gold > state.players[helper].gold:
        return False
    return not item or any(it.card == item for it in f.items)


def _fight_cards(state, seat, cards, add) -> None:
    """Cards anyone may add to a fight when it is their moment to act: enhancers on any monster of
    it (Q-COMBAT-13), Wandering Monsters (Q-CARD-6) and curses (Q-CARD-8)."""
    c = state.combat
    p = state.players[seat]
    for card in p.hand:
        kind = getattr(cards.card(card), "kind", None)
        if kind == CardKind.ENHANCER:
            for uid in c.monsters:
                add(Action(seat, "enhance", (card, uid)))
        elif kind == CardKind.WANDERING:  # also against the Boss (Q-BOSS-2)
            add(Action(seat, "wander", (card,)))
        elif kind == CardKind.MATE:  # Q-CARD-6: a copy of one monster of the fight joins it
            for uid in c.monsters:
                add(Action(seat, "mate", (card, uid)))
    _curses(state, seat, cards, add)


def _curses(state, seat, cards, add) -> None:
    """Q-CARD-8: curses, anytime, on any living munchkin, yourself included (seed 000 p.17)."""
    p = state.players[seat]
    for card in p.hand:
        if getattr(cards.card(card), "kind", None) == CardKind.CURSE:
            for q in state.players:
                if q.alive:
                    add(Action(seat, "curse", (card, q.seat)))


def _one_shots(p, cards) -> list[str]:
    """Q-COMBAT-11: one-shot cards from hand or belt, and throwable items in play (Q-ITEM-9)."""
    card = cards.card
    out = [c for c in p.hand if getattr(card(c), "kind", None) == CardKind.ONESHOT]
    for it in p.items:
        if it.place != BACKPACK:
            defn = card(it.card)
            if defn.kind == CardKind.ONESHOT and it.place == BELT or defn.throwable:
                out.append(it.card)
    return out


def _has(defn, effect: str) -> bool:
    return any(e.name == effect for e in defn.effects)
