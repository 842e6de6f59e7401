"""``apply``: validate an action against legal_actions and carry it out (the reducer).

Every branch cites the rule it implements.  After the action, ``flow.settle`` lets the rules
act by themselves (fights starting, the Boss arriving).  An illegal action raises IllegalAction
with a reason code and the input state is untouched (it is immutable anyway)."""
from __future__ import annotations

from mq.cards import CardKind, CardSet, DxmDef, TreasureDef
from mq.rules import board, combat, draws, effects, flow, monsters, powers, windows
from mq.rules.actions import Action
from mq.rules.character import MAX_LEVEL, gain_levels, identity, move_total, place_for
from mq.rules.errors import IllegalAction
from mq.rules.legal import LEVEL_PRICE, MONSTERS, MUNCHKINS, has_action, legal_actions, sale_value, valid_buy
from mq.rules.state import LOOTED, OVER, SEARCHED, SETUP, TURN, FirstPick, Item, PendingKind, Player, Stage, State
from mq.rules.tx import Tx

SEARCH_TABLE = {  # Q-SEARCH-1: result -> (gold, treasures, mark, monster)
    2: (300, 0, 0, False), 3: (400, 0, 0, False), 4: (500, 0, 0, False),
    5: (100, 1, SEARCHED, False), 6: (300, 1, SEARCHED, False), 7: (0, 0, 0, True),
    8: (500, 1, SEARCHED, False), 9: (0, 2, LOOTED, False), 10: (500, 2, LOOTED, False),
    11: (0, 3, LOOTED, False),
}


def step(state: State, action: Action, cards: CardSet) -> tuple[State, tuple]:
    """Apply ``action``; returns the new state and the events it caused (for narration/UI)."""
    check(state, action, cards)
    tx = Tx(state, cards)
    HANDLERS[action.kind](tx, action)
    flow.settle(tx)
    return tx.commit(), tuple(tx.events)


def check(state: State, action: Action, cards: CardSet) -> None:
    if not is_legal(state, action, cards):
        if state.phase == OVER:
            raise IllegalAction("game/over")
        if not 0 <= action.seat < len(state.players):
            raise IllegalAction("seat/unknown", str(action.seat))
        raise IllegalAction(*why(state, action, cards))


def is_legal(state: State, action: Action, cards: CardSet) -> bool:
    """Exactly the listed legal actions, plus the open-ended ones: any valid ``buy`` combination
    (Q-CHAR-3) and any amount of gold to ``drop`` (Q-SEARCH-4)."""
    if state.phase == OVER or not 0 <= action.seat < len(state.players):
        return False
    if action.kind == "buy" and state.phase == TURN and state.combat is None and state.pending is None \
            and state.current_turn.seat == action.seat and valid_buy(state.players[action.seat], cards, action.args, state.current_turn.double_sale):
        return True
    if action.kind == "drop" and len(action.args) == 1 and type(action.args[0]) is int \
            and 0 < action.args[0] <= state.players[action.seat].gold \
            and Action(action.seat, "drop", (state.players[action.seat].gold,)) \
            in legal_actions(state, action.seat, cards, "drop"):
        return True  # any amount of gold, where dropping all of it is legal (Q-SEARCH-4)
    if action.kind == "give" and len(action.args) == 2 and type(action.args[0]) is int \
            and state.pending is None and 0 < action.args[0] <= state.players[action.seat].gold \
            and Action(action.seat, "give", (state.players[action.seat].gold, action.args[1])) \
            in legal_actions(state, action.seat, cards, "give"):
        return True  # any amount of gold to a neighbour who may receive it (Q-ITEM-7)
    if powers.is_legal_charm(state, action, cards):
        return True
    # only that kind is listed, up to the action itself
    return has_action(state, action.seat, cards, action.__eq__, action.kind)


def why(state: State, action: Action, cards: CardSet) -> tuple[str, str]:
    """The most specific reason code for an action that is not legal: a decision pending, the
    setup, then what the turn's actions, the cards and the fight each need."""
    seat = action.seat
    if state.pending is not None:
        if state.pending.seat != seat:
            return "seat/not-your-turn", "another player must decide first"
        return "choice/invalid", str(action)
    if state.phase == SETUP:
        return "phase/wrong", "the game has not started"
    p = state.players[seat]
    return _why_turn(state, action, p, cards) or _why_card(state, action, p, cards) or _why_fight(state, action)


Reason = tuple[str, str]
TURN_KINDS = ("move", "dash", "search", "pickup", "end_turn", "buy", "summon", "suicide")


def _why_turn(state: State, action: Action, p: Player, cards: CardSet) -> Reason | None:
    """The actions of one's own turn out of combat (Q-TURN-1): moving, searching, picking up,
    buying a level."""
    if action.kind in TURN_KINDS:
        if state.current_turn.seat != action.seat:
            return "seat/not-your-turn", ""
        if state.combat is not None:
            return "combat/in-combat", ""
        if not p.alive:
            return "dead", ""
    if action.kind in ("move", "dash") and action.args and action.args[0] in range(4):
        return _why_move(state, action, p)
    if action.kind == "search":
        here = state.rooms[p.room]
        if any(m.room == p.room for m in state.monsters):
            return "search/monster", ""
        if p.room in state.current_turn.searched:
            return "search/done", ""
        if cards.face(here.face).no_search or here.mark == LOOTED:
            return "search/forbidden", ""
        return "search/not-enough", ""
    if action.kind == "pickup":
        return "pickup/nothing", ""
    if action.kind == "buy":
        if p.level >= MAX_LEVEL - 1:
            return "level/tenth", ""  # Q-LAW-2, Q-CHAR-3
        held = {it.card for it in p.items}
        for card in action.args:  # Q-CHAR-3, Q-CARD-9: cards in hand are not in play
            if card not in held:
                return "card/not-in-play", str(card)
        return "buy/not-enough", ""
    return None


def _why_move(state: State, action: Action, p: Player) -> Reason:
    """Crossing a connector (Q-MOVE-1, 2, Q-EXPLORE-6)."""
    d = action.number(0)
    kind = state.rooms[p.room].sides[d]
    if kind == board.WALL:
        return "move/wall", ""
    if action.kind == "dash" and state.current_turn.dashed:
        return "move/dash-used", ""
    if board.beyond(state.rooms, p.room, d)[2] < 0 and board.is_complete(state):
        return "move/dungeon-complete", ""
    return "move/not-enough", ""


def _why_card(state: State, action: Action, p: Player, cards: CardSet) -> Reason | None:
    """A card played, used, equipped, dropped or discarded, and healing: whose it is, who may
    play it when, and where it fits."""
    if action.kind in ("play", "use") and action.args and action.args[0] not in p.hand \
            and not any(it.card == action.args[0] for it in p.items):
        return "card/not-in-hand", str(action.args[0])
    if action.kind in ("equip", "drop") and action.args \
            and not any(it.card == action.args[0] for it in p.items):
        return "card/not-in-play", str(action.args[0])
    if action.kind == "discard" and action.args and action.args[0] not in p.races + p.classes:
        return "card/not-in-play", str(action.args[0])
    if action.kind in ("play", "heal", "equip", "drop", "discard") and not p.alive:
        return "dead", ""  # Q-DEATH-2
    if action.kind == "heal" and p.level <= 1:
        return "level/too-low", ""  # Q-LAW-1, Q-CHAR-6
    if action.kind == "play" and action.args and action.args[0] in p.hand:
        return _why_play(state, action, p, cards)
    if action.kind == "use" and state.combat is None and action.args \
            and getattr(cards.card(action.text(0)), "kind", None) == CardKind.ONESHOT:
        defn = cards.playable_card(action.text(0))
        if any(e.name in ("heal", "teleport") for e in defn.effects):
            return "card/no-effect", ""  # Q-CARD-3: full HP, or already in the Entrance
        return "combat/none", "that one-shot works only in a fight"
    return None


def _why_play(state: State, action: Action, p: Player, cards: CardSet) -> Reason | None:
    """A card of the hand put into play (Q-LAW-2, Q-CARD-3, Q-TURN-4, Q-ITEM-1)."""
    defn = cards.card(action.text(0))
    if getattr(defn, "kind", None) == CardKind.LEVEL and p.level >= MAX_LEVEL - 1:
        return "level/tenth", ""  # Q-LAW-2
    if isinstance(defn, DxmDef) and defn.kind == CardKind.ONESHOT:
        return "card/wrong-kind", "a DxM one-shot is used, never put into play"
    if isinstance(defn, TreasureDef) and defn.kind in (CardKind.ITEM, CardKind.ONESHOT):  # Q-CARD-3, Q-TURN-4, Q-ITEM-1
        if state.current_turn.seat != action.seat:
            return "seat/not-your-turn", ""
        if state.combat is not None:
            return "combat/in-combat", ""
        if place_for(p, defn, cards) is None:
            return "card/no-room", ""
    return None


def _why_fight(state: State, action: Action) -> Reason:
    """What needs a fight, or none; otherwise the action is not for this moment."""
    if action.kind in ("roll", "use", "run", "escape", "pass") and state.combat is None:
        return "combat/none", ""
    if state.combat is not None and action.kind in ("equip", "heal"):
        return "combat/in-combat", ""
    return "phase/wrong", str(action)


# -- handlers --------------------------------------------------------------------------------
def _ready(tx: Tx, a: Action) -> None:
    """Q-SETUP-3, 4: when everyone is ready the first player in turn order starts."""
    tx.set_player(a.seat, ready=True)
    if all(p.ready for p in tx.players):
        tx.phase = TURN
        flow.start_turn(tx, tx.order[0], 1)


def _play(tx: Tx, a: Action) -> None:
    card = a.text(0)
    p = tx.player(a.seat)
    tx.set_player(a.seat, hand=tuple(c for c in p.hand if c != card))
    defn = tx.cards.playable_card(card)
    if defn.kind == CardKind.LEVEL:  # Q-CHAR-1, Q-LAW-2
        effects.level_up(tx, a.seat, 1, "card")
        tx.discard(card)
    elif isinstance(defn, DxmDef) and defn.kind == CardKind.RACE:  # Q-CHAR-4
        tx.set_player(a.seat, races=p.races + (card,))
        tx.event("race", a.seat, card)
    elif isinstance(defn, DxmDef) and defn.kind == CardKind.CLASS:
        tx.set_player(a.seat, classes=p.classes + (card,))
        tx.event("class", a.seat, card)
    elif isinstance(defn, DxmDef) and defn.kind in (CardKind.HALFBREED, CardKind.SUPERMUNCHKIN):  # Q-CARD-5
        tx.set_player(a.seat, hybrids=p.hybrids + (card,))
        tx.event("class", a.seat, card)
    else:  # an item into play (Q-CARD-3, Q-ITEM-1, 3)
        place = place_for(p, tx.cards.treasure_card(card), tx.cards)
        if place is None:  # (legal_actions lists only items with room for them)
            raise IllegalAction("card/no-room")
        tx.set_player(a.seat, items=p.items + (Item(card, place),))
        tx.event("item", a.seat, card, place)
    if len(a.args) > 1:  # in place of a race (class) in play: the Half-Breed (Super Munchkin) stays (Q-CARD-5)
        effects.discard_in_play(tx, a.seat, a.text(1))
    effects.clamp_hp(tx, a.seat)
    if tx.pending is not None and tx.pending.kind == PendingKind.CHARITY:  # played during charity: the hand may be within the limit now
        flow.charity_done(tx)


def _discard(tx: Tx, a: Action) -> None:
    card = a.text(0)
    if tx.pending is not None:  # Q-CHARITY: the lowest-level giver discards the excess
        flow.charity_step(tx, card, None)
        return
    effects.discard_in_play(tx, a.seat, card)  # Q-CHAR-4: race or class cards anytime


def _equip(tx: Tx, a: Action) -> None:
    """Q-TURN-3: move an item between backpack and worn/carried/belt; a Cheat! on it stays on it
    (Q-ITEM-4)."""
    card, place = a.args
    p = tx.player(a.seat)
    tx.set_player(a.seat, items=tuple(it.replace(place=place) if it.card == card else it for it in p.items))
    tx.event("equip", a.seat, card, place)
    effects.clamp_hp(tx, a.seat)


def _drop(tx: Tx, a: Action) -> None:
    """Q-SEARCH-4: a dropped item or gold joins the room's pile."""
    card = a.args[0]
    p = tx.player(a.seat)
    if type(card) is int:
        r = tx.rooms[p.room]
        tx.set_player(a.seat, gold=p.gold - card)
        tx.set_room(p.room, pile_gold=r.pile_gold + card)
        tx.event("drop_gold", a.seat, card, p.room)
        return
    tx.set_player(a.seat, items=tuple(it for it in p.items if it.card != card))
    r = tx.rooms[p.room]
    tx.set_room(p.room, pile=r.pile + (card,))
    tx.event("drop", a.seat, card, p.room)
    effects.clamp_hp(tx, a.seat)


def _move(tx: Tx, a: Action) -> None:
    """Q-MOVE-1, 2, 5: cross a connector (or dash across it); into darkness means exploring."""
    seat, d = a.seat, a.number(0)
    p = tx.player(seat)
    kind = tx.rooms[p.room].sides[d]
    if a.kind == "dash":
        tx.set_turn(spent=move_total(p, tx.cards), dashed=True)
    else:
        tx.set_turn(spent=tx.current_turn.spent + board.MOVE_COST[kind])
    x, y, j = board.beyond(tx.rooms, p.room, d)
    if j < 0:
        explore(tx, seat, x, y, d, kind)
        return
    tx.set_player(seat, room=j)
    tx.event("move", seat, p.room, j, a.kind == "dash")
    effects.enter_room(tx, seat, j)


def explore(tx: Tx, seat: int, x: int, y: int, d: int, kind: int) -> None:
    """Q-EXPLORE-1..5: place a room, draw a DxM, the room's rule, then a monster appears."""
    j = board.place_room(tx, x, y, d, kind)
    tx.set_player(seat, room=j)
    tx.event("explore", seat, j, tx.rooms[j].face, x, y)
    draws.draw_to_hand(tx, seat, "dxm")
    effects.enter_room(tx, seat, j)
    monsters.spawn(tx, j, seat)  # even if the room's rule killed the explorer (Q-EXPLORE-5)
    tx.set_turn(summon_room=-1)  # Q-EXPLORE-7: it was not entered monster-free, even if it completes the dungeon


def _search(tx: Tx, a: Action) -> None:
    """Q-SEARCH-1..4."""
    seat = a.seat
    p = tx.player(seat)
    room = tx.rooms[p.room]
    face = tx.cards.face(room.face)
    tx.set_turn(spent=tx.current_turn.spent + 1, searched=tx.current_turn.searched + (p.room,))
    n_dice = combat.dice_count(p, tx.rooms, tx.cards, p.room)
    dice = tuple(tx.d6() for _ in range(max(0, n_dice)))
    result = sum(dice) + face.search  # a Searched! room searches as any other (Q-SEARCH-1)
    tx.event("search", seat, p.room, dice, result)
    if result <= 1 or result == 7:
        if room.pile or room.pile_gold:
            tx.set_turn(free_pickup=p.room)
        monsters.spawn(tx, p.room, seat)
        return
    gold, treasures, mark, _ = SEARCH_TABLE[min(result, 11)]
    tx.set_player(seat, gold=p.gold + gold)
    public = len(tx.seats_in(p.room)) > 1  # Q-SEARCH-3
    for _ in range(treasures):
        draws.draw_to_hand(tx, seat, "treasure", public)
    if mark:
        new_mark = LOOTED if room.mark == SEARCHED or mark == LOOTED else SEARCHED  # Q-SEARCH-2
        tx.set_room(p.room, mark=new_mark)
    tx.event("search_found", seat, gold, treasures, tx.rooms[p.room].mark)
    if room.pile or room.pile_gold:
        effects.pick_up(tx, seat)


def _pickup(tx: Tx, a: Action) -> None:
    tx.set_turn(spent=tx.current_turn.spent + 1)
    effects.pick_up(tx, a.seat)


def _fight(tx: Tx, a: Action) -> None:
    """Q-COMBAT-2: an ignored munchkin may choose to fight the monsters in the room."""
    room = tx.player(a.seat).room
    combat.start(tx, a.seat, room, [m.uid for m in tx.monsters_in(room)])


def _summon(tx: Tx, a: Action) -> None:
    """Q-EXPLORE-7."""
    tx.set_turn(summon_room=-1)
    monsters.spawn(tx, tx.player(a.seat).room, a.seat)


def _buy(tx: Tx, a: Action) -> None:
    """Q-CHAR-3: items at their printed value plus gold, 1000 a level, no change (a halfling's
    dearest item counts double once per turn, Q-CHAR-4)."""
    p = tx.player(a.seat)
    sold = a.texts()
    value = sale_value(p, tx.cards, sold, tx.current_turn.double_sale)
    if sold and "halfling" in identity(p, tx.cards):
        tx.set_turn(double_sale=True)
    for card in sold:
        tx.discard(card)
    gold = max(0, LEVEL_PRICE - value)
    tx.set_player(a.seat, items=tuple(it for it in p.items if it.card not in sold),
                  gold=p.gold - gold, level=gain_levels(p, 1, by_kill=False))
    tx.event("buy", a.seat, a.args, gold)
    tx.event("level", a.seat, tx.player(a.seat).level, "bought")
    effects.clamp_hp(tx, a.seat)


def _heal(tx: Tx, a: Action) -> None:
    """Q-CHAR-6: lose a level to heal 3."""
    effects.level_down(tx, a.seat, 1, "heal")
    effects.heal(tx, a.seat, 3)


def _suicide(tx: Tx, a: Action) -> None:
    effects.die(tx, a.seat, "suicide")  # Q-DEATH-4


def _end_turn(tx: Tx, a: Action) -> None:
    flow.end_turn(tx)


def _use(tx: Tx, a: Action) -> None:
    """Q-COMBAT-11: a one-shot from hand or belt.  Before the roll it adds its bonus, heals, or
    leaves by magic (Q-TURN-5); after a loss it helps the escape, before any roll (Q-RUN-4)."""
    card = a.text(0)
    p = tx.player(a.seat)
    tx.set_player(a.seat, hand=tuple(c for c in p.hand if c != card),
                  items=tuple(it for it in p.items if it.card != card))
    defn = tx.cards.playable_card(card)
    if tx.combat is None:
        _use_outside_combat(tx, a.seat, card, defn)
        return
    stage = tx.combat.stage
    running = stage in (Stage.RUN, Stage.ESCAPE)
    side = a.args[1] if len(a.args) > 1 else MUNCHKINS
    c = tx.combat
    tx.set_combat(used=c.used + (card,), used_by=c.used_by + (a.seat,))
    if side == MONSTERS:
        tx.set_combat(monster_bonus=c.monster_bonus + defn.bonus)
    elif not running:
        tx.set_combat(bonus=c.bonus + defn.bonus)
    tx.event("use", a.seat, card, side)
    windows.card_played(tx, a.seat)
    for e in defn.effects:
        if e.name == "heal":
            effects.heal(tx, a.seat, e.number("amount", 1))
        elif e.name == "runaway" and running:
            tx.set_combat(run_bonus=tx.combat.run_bonus + e.number("amount", 0))
        elif e.name == "escape" and running:  # Q-RUN-4: arrive where you chose to run
            combat.magic_exit(tx, card, tx.combat.run_to)
            return
        elif e.name == "teleport":  # magic movement to the Entrance (Q-TURN-5, Q-COMBAT-12)
            combat.magic_exit(tx, card, 0)
            return


def _use_outside_combat(tx: Tx, seat: int, card: str, defn) -> None:
    """Q-CARD-3, 4: a one-shot outside combat does what means something there (legal lists it only
    then): it heals, or moves its user by magic to the Entrance (Q-TURN-5); then it is discarded."""
    tx.discard(card)
    tx.event("use", seat, card, MUNCHKINS)
    for e in defn.effects:
        if e.name == "heal":
            effects.heal(tx, seat, e.number("amount", 1))
        elif e.name == "teleport":
            tx.set_player(seat, room=0)
            tx.event("teleport", seat, 0)
            effects.enter_room(tx, seat, 0)


def _roll(tx: Tx, a: Action) -> None:
    windows.declare_roll(tx)


def _pass(tx: Tx, a: Action) -> None:
    windows.pass_seat(tx, a.seat)


def _set_die(tx: Tx, a: Action) -> None:
    """Q-COMBAT-7: a card that may be used after the roll changes one die."""
    card, side, index = a.text(0), a.text(1), a.number(2)
    p = tx.player(a.seat)
    tx.set_player(a.seat, hand=tuple(c for c in p.hand if c != card),
                  items=tuple(it for it in p.items if it.card != card))
    tx.discard(card)
    windows.set_die(tx, a.seat, card, side, index)


def _take_from_hand(tx: Tx, seat: int, card: str) -> None:
    p = tx.player(seat)
    tx.set_player(seat, hand=tuple(c for c in p.hand if c != card))


def _enhance(tx: Tx, a: Action) -> None:
    """Q-COMBAT-13, Q-CARD-6: the enhancer stays on the monster while it survives."""
    card, uid = a.text(0), a.number(1)
    _take_from_hand(tx, a.seat, card)
    tx.set_monster(uid, enhancers=tx.monster(uid).enhancers + (card,))
    tx.event("enhance", a.seat, card, uid)
    windows.card_played(tx, a.seat)


def _wander(tx: Tx, a: Action) -> None:
    """Q-CARD-6: the top Monster card joins the fight, on a base rolled as usual (Q-MON-1)."""
    card = a.text(0)
    _take_from_hand(tx, a.seat, card)
    tx.discard(card)
    tx.event("wander", a.seat, card)
    uid = monsters.spawn(tx, tx.fight.room, a.seat)
    if uid is not None and tx.combat is not None:  # (making room for it may have ended the fight)
        tx.set_combat(monsters=tx.combat.monsters + (uid,))
    windows.card_played(tx, a.seat)


def _mate(tx: Tx, a: Action) -> None:
    """Q-CARD-6: the monster's Mate, a copy of it on a base rolled as usual, joins the fight."""
    card, uid = a.text(0), a.number(1)
    _take_from_hand(tx, a.seat, card)
    tx.event("mate", a.seat, card, uid)
    new = monsters.spawn(tx, tx.fight.room, a.seat, like=tx.monster(uid).card, mate=card)
    if new is not None and tx.combat is not None:
        tx.set_combat(monsters=tx.combat.monsters + (new,))
    windows.card_played(tx, a.seat)


def _curse(tx: Tx, a: Action) -> None:
    """Q-CARD-8: a curse acts at once, unless its victim holds a card that cancels it or a cleric
    may roll Sanctuary against it (Q-CHAR-5): then they decide first (mq.rules.combat.play_curse)."""
    card, victim = a.text(0), a.number(1)
    _take_from_hand(tx, a.seat, card)
    combat.play_curse(tx, card, a.seat, victim)
    windows.card_played(tx, a.seat)


def _deal(tx: Tx, a: Action) -> None:
    """Q-SEARCH-5: a deal printed on the room, 1 move, once per turn here."""
    p = tx.player(a.seat)
    face = tx.cards.face(tx.rooms[p.room].face)
    tx.set_turn(spent=tx.current_turn.spent + 1, deals=tx.current_turn.deals + (p.room,))
    if a.args[0] == "buy":
        e = next(e for e in face.effects if e.name == "deal_buy")
        tx.set_player(a.seat, gold=p.gold - e.number("price"))
        tx.event("deal", a.seat, "buy", e.number("price"))
        for _ in range(e.number("n")):
            draws.draw_to_hand(tx, a.seat, "treasure", len(tx.seats_in(p.room)) > 1)
    else:
        card = a.text(1)
        e = next(e for e in face.effects if e.name == "deal_sell")
        gold = tx.cards.treasure_card(card).value * e.number("percent") // 100
        effects.discard_in_play(tx, a.seat, card)  # an item in play, never a card in hand (Q-CARD-9)
        tx.set_player(a.seat, gold=tx.player(a.seat).gold + gold)
        tx.event("deal", a.seat, "sell", gold)


def _uncurse(tx: Tx, a: Action) -> None:
    """Q-CARD-8: a card that cancels curses removes a lasting one; both are discarded."""
    shield, card = a.text(0), a.text(1)
    p = tx.player(a.seat)
    tx.set_player(a.seat, hand=tuple(c for c in p.hand if c != shield),
                  items=tuple(it for it in p.items if it.card != shield),
                  curses=tuple(c for c in p.curses if c != card))
    tx.discard(shield)
    tx.discard(card)
    tx.event("curse_cancelled", a.seat, card, shield)


def _cheat(tx: Tx, a: Action) -> None:
    """Q-ITEM-4: Cheat! on an item in play: it ignores its restrictions and needs no hands."""
    card, item = a.text(0), a.text(1)
    _take_from_hand(tx, a.seat, card)
    p = tx.player(a.seat)
    tx.set_player(a.seat, items=tuple(it.replace(cheat=card) if it.card == item else it for it in p.items))
    tx.event("cheat", a.seat, card, item)


def _ask(tx: Tx, a: Action) -> None:
    combat.ask_help(tx)


def _offer(tx: Tx, a: Action) -> None:
    combat.offer_help(tx, a.seat, a.number(0), a.number(1), a.text(2, ""), a.text(3, FirstPick.HELPER))


def _accept(tx: Tx, a: Action) -> None:
    combat.accept(tx, a.seat, a.number(0))


def _counter(tx: Tx, a: Action) -> None:
    combat.counter_offer(tx, a.number(0), a.number(1), a.number(2), a.text(3, ""), a.text(4, FirstPick.HELPER))


def _decline(tx: Tx, a: Action) -> None:
    combat.decline_help(tx)


def _run(tx: Tx, a: Action) -> None:
    combat.choose_run(tx, a.number(0))


def _escape(tx: Tx, a: Action) -> None:
    combat.escape_roll(tx, a.number(0))


def _choose(tx: Tx, a: Action) -> None:
    pend = tx.decision
    if pend.kind == PendingKind.COLOUR:  # Q-MON-1
        uid = pend.data[0]
        tx.pending = None
        tx.set_monster(uid, colour=a.number(0))
        tx.event("colour_chosen", a.seat, uid, a.number(0))
    elif pend.kind == PendingKind.CURSE:  # Q-CARD-8: cancel it with a card or Sanctuary, or let it act
        combat.answer_curse(tx, a.seat, a.text(0))
    elif pend.kind == PendingKind.RESURRECT:  # Q-CHAR-5: the cleric's Resurrection
        draws.resurrect_chosen(tx, a.text(0))
    elif pend.kind == PendingKind.PICK:  # Q-HELP-2: a Treasure of the fight won together
        combat.pick_chosen(tx, a.text(0))
    else:
        combat.lose_item_chosen(tx, a.text(0))


def _power(tx: Tx, a: Action) -> None:
    """Q-CHAR-5: a class power (mq.rules.powers); in the interrupt window everyone may answer it."""
    powers.use(tx, a)
    windows.card_played(tx, a.seat)


def _give(tx: Tx, a: Action) -> None:
    """Charity (Q-CHARITY) while it is pending; otherwise a gift of an item or gold (Q-ITEM-7)."""
    what, to = a.args[0], a.number(1)
    if tx.pending is not None:
        flow.charity_step(tx, a.text(0), to)
        return
    p = tx.player(a.seat)
    q = tx.player(to)
    if isinstance(what, int):
        tx.set_player(a.seat, gold=p.gold - what)
        tx.set_player(to, gold=q.gold + what)
    else:
        item = next(it for it in p.items if it.card == what)  # a Cheat! on it goes along (Q-ITEM-4)
        place = place_for(q, tx.cards.treasure_card(what), tx.cards, bool(item.cheat))
        tx.set_player(to, items=q.items + (item.replace(place=place),))
        tx.set_player(a.seat, items=tuple(it for it in p.items if it.card != what))
        effects.clamp_hp(tx, a.seat)
    tx.event("gift", a.seat, to, what)


HANDLERS = {
    "ready": _ready, "play": _play, "discard": _discard, "equip": _equip, "drop": _drop,
    "move": _move, "dash": _move, "search": _search, "pickup": _pickup, "summon": _summon,
    "buy": _buy, "heal": _heal, "suicide": _suicide, "end_turn": _end_turn, "use": _use,
    "roll": _roll, "pass": _pass, "run": _run, "escape": _escape, "choose": _choose, "give": _give,
    "fight": _fight, "ask": _ask, "offer": _offer, "accept": _accept, "decline": _decline,
    "enhance": _enhance, "wander": _wander, "curse": _curse, "mate": _mate, "power": _power, "set_die": _set_die,
    "cheat": _cheat, "deal": _deal, "uncurse": _uncurse, "counter": _counter,
}
