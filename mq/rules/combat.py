"""Fights: when they start (Q-COMBAT-1..3), strength term by term (Q-COMBAT-4..6), help and its
terms (Q-HELP, Q-DIGI-3), the dice (Q-COMBAT-5), win and rewards (Q-COMBAT-9), loss (Q-COMBAT-10),
running away (Q-RUN), curses (Q-CARD-8) and the Boss (Q-BOSS).  The reaction windows of a fight
(who may still act, passing, when the dice are rolled) are mq.rules.windows, above this module."""
from __future__ import annotations

from mq.cards import CardKind
from mq.rules import board, conditions, draws, effects, monsters
from mq.rules.character import (
    effect_total,
    exposed,
    identity,
    item_bonus,
    lasting,
    place_for,
)
from mq.rules.effects import fighters
from mq.rules.state import BELT, OVER, Combat, FirstPick, Monster, Pending, PendingKind, Player, Stage
from mq.rules.tx import Tx

ESCAPE_TARGET = 5  # Q-RUN-2


def find(monster_list, uid: int) -> Monster:
    for m in monster_list:
        if m.uid == uid:
            return m
    raise KeyError(uid)


def room_effects(rooms, cards, index: int, name: str):
    return [e for e in cards.face(rooms[index].face).effects if e.name == name]


# -- strength (Q-COMBAT-4..6) -------------------------------------------------------------------
def dice_count(p: Player, rooms, cards, index: int, foes: tuple[str, ...] = ()) -> int:
    """Q-COMBAT-5, 6: one die, +1 per green icon that holds for the munchkin, −1 per red one
    (mq.rules.conditions); a cleric rolls one more against undead (Q-CHAR-4; ``foes`` are the
    monsters' keywords)."""
    extra = 1 if "cleric" in identity(p, cards) and "undead" in foes else 0
    return 1 + extra + sum(die for _, die in conditions.icons(p, cards.face(rooms[index].face), cards))


def foe_keywords(combat: Combat, monster_list, cards) -> tuple[str, ...]:
    return tuple(k for uid in combat.monsters for k in cards.card(find(monster_list, uid).card).keywords)


BERSERK_BONUS = 1  # each card a warrior discards to Berserk (Q-CHAR-5, mq.rules.powers)
BACKSTAB_PENALTY = -2  # each Backstab on the fight's munchkin side (Q-CHAR-5, mq.rules.powers)


def power_terms(c: Combat) -> tuple[tuple[str, int], ...]:
    """What the class powers used so far in fight ``c`` add to its one-shot bonus (``Combat.bonus``),
    power by power: Berserk and Backstab (Q-CHAR-5).  The rest of the bonus is one-shots and curses."""
    names = [u.split(":")[1] for u in c.powers]
    return (("berserk", BERSERK_BONUS * names.count("berserk")),
            ("backstab", BACKSTAB_PENALTY * names.count("backstab")))


def munchkin_terms(p: Player, combat: Combat, monster_list, rooms, cards) -> tuple[tuple[str, int], ...]:
    """The munchkin side's fixed strength, term by term (dice come on top)."""
    keywords = foe_keywords(combat, monster_list, cards)
    room_bonus = sum(e.number("amount", 0) for e in room_effects(rooms, cards, combat.room, "munchkin_bonus")
                     if conditions.holds(e.condition("who"), p, cards))
    terms = (("level", p.level), ("items", item_bonus(p, cards, keywords)),
             ("one-shots", combat.bonus), ("room", room_bonus))
    cursed = p.cursed + lasting(p, cards, "lasting_strength")
    return terms + (("curse", cursed),) if cursed else terms


def monster_terms(m: Monster, fighter_idents, rooms, cards, room: int, helped=None) -> tuple[tuple[str, int], ...]:
    """One monster's fixed strength: level (20 for the Boss), its enhancers (Q-COMBAT-13) and
    bonuses against the fighters (each counted once, Q-COMBAT-4) make its fight level, never below
    1 (Q-LAW-1: a "floor" term lifts it); room bonuses come on top of that level, as one-shots and
    dice do.  ``fighter_idents``: what the monster's bonuses see (``exposed``); ``helped``: the
    fighters' whole identities, which its penalties see — a Half-Breed keeps every benefit of its
    race, so "−2 against elves" still counts for a Half-Breed elf (Q-CARD-5); default
    ``fighter_idents``."""
    d = cards.card(m.card)
    level = monsters.BOSS_LEVEL if m.boss else d.level
    weak = fighter_idents if helped is None else helped
    vs = sum(amount for who, amount in d.bonuses
             if any(who in ident for ident in (fighter_idents if amount > 0 else weak)))
    room_bonus = sum(e.number("amount", 0) for e in room_effects(rooms, cards, room, "monster_bonus")
                     if e.get("keyword") in d.keywords or e.get("keyword") == "any")
    enhanced = monsters.enhancement(m, cards)
    terms = (("level", level),) + ((("enhancers", enhanced),) if enhanced else ()) + (("vs", vs),)
    floor = 1 - (level + enhanced + vs)
    if floor > 0:
        terms += (("floor", floor),)
    return terms + (("room", room_bonus),)


def fight_monster_terms(state_or_tx, cards, m: Monster) -> tuple[tuple[str, int], ...]:
    """Monster ``m``'s fixed strength against the munchkins of the fight (``monster_terms``: its
    bonuses see what they are exposed as, its penalties all they are, Q-COMBAT-4, Q-CARD-5)."""
    c = state_or_tx.combat
    players = state_or_tx.players
    seats = fighters(c)
    return monster_terms(m, [exposed(players[s], cards) for s in seats], state_or_tx.rooms, cards, c.room,
                         [identity(players[s], cards) for s in seats])


def total(terms) -> int:
    return sum(v for _, v in terms)


# -- starting --------------------------------------------------------------------------------
def hostile_in(state_or_tx, seat: int, cards, room: int) -> list[int]:
    """Monsters in ``room`` that fight ``seat`` (Q-COMBAT-2, 3: all of them together)."""
    here = [m for m in state_or_tx.monsters if m.room == room and m.colour >= 0]
    if not here:
        return []  # (the usual case after an action: who the munchkin is need not be worked out)
    ident = identity(state_or_tx.players[seat], cards)
    return [m.uid for m in here if m.boss or not monsters.ignores_identity(cards.card(m.card), ident)]


def maybe_start(tx: Tx) -> bool:
    """Q-COMBAT-1: the active munchkin fights at once when sharing a room with monsters that do
    not ignore them (ignored munchkins may still choose to, with ``fight``)."""
    seat = tx.current_turn.seat
    p = tx.player(seat)
    if not p.alive:
        return False
    uids = hostile_in(tx, seat, tx.cards, p.room)
    if not uids:
        return False
    start(tx, seat, p.room, uids)
    return True


def start(tx: Tx, seat: int, room: int, uids: list[int]) -> None:
    boss = any(tx.monster(u).boss for u in uids)
    tx.combat = Combat(fighter=seat, room=room, monsters=tuple(uids), boss=boss)
    tx.event("combat_starts", seat, room, tuple(uids))


def others(order: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """Every seat but ``seat``, in turn order starting after it."""
    i = order.index(seat)
    return order[i + 1:] + order[:i]


# -- help (Q-HELP-1, 2) ------------------------------------------------------------------------
def may_be_asked(state_or_tx, cards, seat: int) -> bool:
    """Q-HELP-1, from what every seat sees: a live munchkin in the fight's room or next to it
    through a non-wall connector, or anywhere when a card that moves by magic could bring them in
    (``magic_ride``: which cards a hand holds is not public); against the Boss only a level-10
    munchkin (Q-BOSS-3).  The fighter may ask for help when someone may be asked; the call waits
    for those who can come (``can_help``)."""
    c = state_or_tx.combat
    p = state_or_tx.players[seat]
    if seat == c.fighter or not p.alive or (c.boss and p.level < 10):
        return False
    return c.room == TELEPORT_ROOM or _walks_in(state_or_tx, cards, p)


def can_help(state_or_tx, cards, seat: int) -> bool:
    """Q-HELP-1: ``seat`` may be asked and can come: they walk in, or hold a card that moves them
    in by magic (their own hand: asked of their own legal actions)."""
    p = state_or_tx.players[seat]
    return may_be_asked(state_or_tx, cards, seat) and (
        _walks_in(state_or_tx, cards, p) or magic_ride(p, cards, state_or_tx.combat.room) is not None)


def _walks_in(state_or_tx, cards, p: Player) -> bool:
    c = state_or_tx.combat
    return p.room == c.room or p.room in run_options(state_or_tx, cards)


TELEPORT_ROOM = 0  # where a one-shot that moves magically ("teleport") takes a munchkin: the Entrance


def magic_ride(p: Player, cards, room: int) -> str | None:
    """A card of ``p``'s (hand or belt) that would move them into ``room`` by magic (Q-HELP-1):
    a teleport one-shot, when the fight is in the Entrance (the Boss's, Q-BOSS-1); else None."""
    if room != TELEPORT_ROOM:
        return None
    own = list(p.hand) + [it.card for it in p.items if it.place == BELT]
    return next((card for card in own if getattr(cards.card(card), "kind", None) == CardKind.ONESHOT
                 and any(e.name == "teleport" for e in cards.card(card).effects)), None)


def ask_help(tx: Tx) -> None:
    """Q-HELP-1: every munchkin who could help may bid; asking again (after every offer was
    declined) starts the bidding afresh.  Calls and counter-offers are counted (Combat.rounds).
    Nobody able to come (the fighter could not know: a magic card is in a hand): no help."""
    c = tx.fight
    waiting = tuple(s for s in others(tx.order, c.fighter) if can_help(tx, tx.cards, s))
    tx.set_combat(stage=Stage.HELP, waiting=waiting, asked=True, offers=(), rounds=c.rounds + 1)
    tx.event("asks_help", c.fighter)
    _help_answered(tx)


def _without(offers, *seats: int) -> tuple:
    return tuple(o for o in offers if o[0] not in seats)


def offer_help(tx: Tx, seat: int, gold: int, share: int, item: str = "", first: str = FirstPick.HELPER) -> None:
    """Q-HELP-2, Q-DIGI-3: a bid: "I help you for this much gold (or: I pay you, when negative),
    these Treasure picks, you (or I) picking first, and that item of yours".  A new bid replaces
    the bidder's old one: as the answer to a counter-offer made to them, or unasked at any time
    before a bid is accepted (counted: ``rebids``)."""
    c = tx.fight
    if seat in c.waiting:
        tx.set_combat(offers=_without(c.offers, seat, c.fighter) + ((seat, gold, share, item, first),),
                      waiting=tuple(s for s in c.waiting if s != seat))
    else:
        tx.set_combat(offers=_without(c.offers, seat) + ((seat, gold, share, item, first),), rebids=c.rebids + 1)
    tx.event("offers_help", seat, c.fighter, gold, share, item, first)
    _help_answered(tx)


def refuse_help(tx: Tx, seat: int) -> None:
    """Not bidding; after a counter-offer, refusing it withdraws the bid too."""
    c = tx.fight
    countered = any(o[0] == c.fighter for o in c.offers)
    offers = _without(c.offers, seat, c.fighter) if countered else c.offers
    tx.set_combat(waiting=tuple(s for s in c.waiting if s != seat), offers=offers)
    if countered:
        tx.event("counter_refused", seat, c.fighter)
    _help_answered(tx)


def _help_answered(tx: Tx) -> None:
    if not tx.fight.waiting and not tx.fight.offers:
        tx.set_combat(stage=Stage.PREPARE)
        tx.event("no_help", tx.fight.fighter)


def counter_offer(tx: Tx, seat: int, gold: int, share: int, item: str = "", first: str = FirstPick.HELPER) -> None:
    """Q-DIGI-3: the fighter answers ``seat``'s bid with other terms (never an item: ``item`` is
    always ""); that bidder alone must now accept them, bid again or pass.  The other bids stay on
    the table."""
    c = tx.fight
    tx.set_combat(offers=_without(c.offers, seat) + ((c.fighter, gold, share, item, first),), waiting=(seat,),
                  rounds=c.rounds + 1)
    tx.event("counter_offer", c.fighter, seat, gold, share, first)


def accept(tx: Tx, by: int, seat: int) -> None:
    """``accept``: the fighter takes ``seat``'s bid, or a bidder (``by``) takes the fighter's
    counter-offer (``seat`` is then the fighter)."""
    c = tx.fight
    if by == c.fighter:
        accept_help(tx, seat)
    else:
        _, gold, share, item, first = next(o for o in c.offers if o[0] == c.fighter)
        accept_help(tx, by, (by, gold, share, item, first))


def accept_help(tx: Tx, seat: int, terms: tuple | None = None) -> None:
    """The accepted deal is binding and the engine carries it out (Q-HELP-2, Q-DIGI-3): the gold
    changes hands now (from the helper, when they offered to pay), the helper moves in for free
    (Q-HELP-1; moves outside one's own turn cost nothing, Q-MOVE-4) and takes their Treasure picks
    if the fight is won, picking first or second as agreed."""
    c = tx.fight
    _, gold, share, item, first = terms or next(o for o in c.offers if o[0] == seat)
    f = tx.player(c.fighter)
    tx.set_player(c.fighter, gold=f.gold - gold)
    h = tx.player(seat)
    if not _walks_in(tx, tx.cards, h):  # Q-HELP-1: the helper comes by magic, spending the card
        ride = magic_ride(h, tx.cards, c.room)
        if ride is not None:  # (it is: they could bid only holding it, and nothing takes it meanwhile)
            h = tx.set_player(seat, hand=tuple(x for x in h.hand if x != ride),
                              items=tuple(it for it in h.items if it.card != ride))
            tx.discard(ride)
            tx.event("magic_move", seat, ride, c.room)
    tx.set_player(seat, gold=h.gold + gold, room=c.room)
    if item:  # the item changes hands in play (Q-ITEM-7); a Cheat! on it goes along
        given = next(it for it in f.items if it.card == item)
        h = tx.player(seat)
        tx.set_player(seat, items=h.items + (given.replace(place=place_for(h, tx.cards.treasure_card(item), tx.cards,
                                                                            bool(given.cheat))),))
        tx.set_player(c.fighter, items=tuple(it for it in tx.player(c.fighter).items if it.card != item))
    tx.set_combat(stage=Stage.PREPARE, helper=seat, share=share, first=first, offers=())
    tx.event("helps", seat, c.fighter, gold, share, item, first)


def decline_help(tx: Tx) -> None:
    tx.set_combat(stage=Stage.PREPARE, offers=())
    tx.event("no_help", tx.fight.fighter)


# -- the roll ----------------------------------------------------------------------------------
def helper_term(h: Player, c: Combat, monster_list, rooms, cards) -> tuple[str, int]:
    """Q-COMBAT-4: the helper's level, items and room bonuses join the munchkin side."""
    terms = munchkin_terms(h, c.replace(bonus=0), monster_list, rooms, cards)
    return ("helper", total(terms))


def munchkin_dice(state_or_tx, cards) -> int:
    """How many dice the munchkin side rolls (Q-COMBAT-5, 6): the fighter's (with a battle cry's
    extra die, Q-CHAR-5) and the helper's, each never fewer than none."""
    c = state_or_tx.combat
    players = state_or_tx.players
    foes = foe_keywords(c, state_or_tx.monsters, cards)
    n_dice = max(0, dice_count(players[c.fighter], state_or_tx.rooms, cards, c.room, foes) + c.extra_dice)
    if c.helper >= 0:
        n_dice += max(0, dice_count(players[c.helper], state_or_tx.rooms, cards, c.room, foes))
    return n_dice


def roll_dice(tx: Tx) -> None:
    """Roll the dice (Q-COMBAT-5); the after-roll window follows (mq.rules.windows.roll)."""
    c = tx.fight
    my_dice = tuple(tx.d6() for _ in range(munchkin_dice(tx, tx.cards)))
    their_dice = tuple(tuple(tx.d6() for _ in range(tx.cards.monster_card(tx.monster(uid).card).dice))
                       for uid in c.monsters)
    tx.set_combat(stage=Stage.OUTCOME, my_dice=my_dice, their_dice=their_dice, waiting=())


def after_roll_cards(p: Player, cards) -> list[str]:
    """One-shots that may be used after the roll (Q-COMBAT-7): they change a die."""
    own = list(p.hand) + [it.card for it in p.items if it.place == "belt"]
    return [c for c in own if getattr(cards.card(c), "kind", None) == CardKind.ONESHOT
            and any(e.name == "change_die" for e in cards.card(c).effects)]


def change_die(tx: Tx, seat: int, card: str, side: str, index: int) -> None:
    """Turn one die of either side to the card's value (the window reopens, mq.rules.windows.set_die)."""
    c = tx.fight
    to = next(e.number("to") for e in tx.cards.playable_card(card).effects if e.name == "change_die")
    if side == "munchkins":
        dice = list(c.my_dice)
        dice[index] = to
        tx.set_combat(my_dice=tuple(dice))
    else:
        flat = [(m, k) for m, d in enumerate(c.their_dice) for k in range(len(d))]
        m, k = flat[index]
        monster_dice = list(c.their_dice[m])
        monster_dice[k] = to
        tx.set_combat(their_dice=c.their_dice[:m] + (tuple(monster_dice),) + c.their_dice[m + 1:])
    tx.event("die_changed", seat, card, side, index, to)


def outcome(state_or_tx, cards, my_dice=None, their_dice=None):
    """The result the dice give (Q-COMBAT-4, 8): (munchkin terms, monster terms, monster dice,
    munchkin total, monster total, won).  Pure: bots and clients may ask "what if"."""
    c = state_or_tx.combat
    players = state_or_tx.players
    my_dice = c.my_dice if my_dice is None else my_dice
    their_dice = list(c.their_dice if their_dice is None else their_dice)
    mine = munchkin_terms(players[c.fighter], c, state_or_tx.monsters, state_or_tx.rooms, cards)
    if c.helper >= 0:
        mine += (helper_term(players[c.helper], c, state_or_tx.monsters, state_or_tx.rooms, cards),)
    idents = [identity(players[s], cards) for s in fighters(c)]
    theirs = [fight_monster_terms(state_or_tx, cards, find(state_or_tx.monsters, uid)) for uid in c.monsters]
    if c.monster_bonus:  # one-shots played for the monster side count once, for all of them
        theirs.append((("one-shots", c.monster_bonus),))
        their_dice.append(())
    me = total(mine) + sum(my_dice)
    them = sum(total(t) for t in theirs) + sum(sum(d) for d in their_dice)
    warrior = any("warrior" in ident for ident in idents)
    won = me > them or (me == them and warrior)  # Q-COMBAT-8; warriors win ties (Q-CHAR-4)
    return mine, tuple(theirs), tuple(their_dice), me, them, won


def settle_outcome(tx: Tx) -> None:
    """Compare the totals with the dice as they now show and apply the result."""
    c = tx.fight
    mine, theirs, their_dice, me, them, won = outcome(tx, tx.cards)
    tx.event("combat_result", c.fighter, mine, c.my_dice, theirs, their_dice, me, them, won)
    for seat in fighters(c):  # a next-fight curse is spent (Q-CARD-8)
        if tx.player(seat).cursed:
            tx.set_player(seat, cursed=0)
    if won:
        win(tx)
    else:
        lose(tx)


# -- outcome ---------------------------------------------------------------------------------
def win(tx: Tx) -> None:
    """Q-COMBAT-9 and Q-BOSS-4."""
    c = tx.fight
    seat = c.fighter
    treasures = 0
    levels = 0
    helper_levels = 0
    for uid in c.monsters:
        m = tx.monster(uid)
        d = tx.cards.monster_card(m.card)
        if m.colour in fighters(c):
            draws.draw_to_hand(tx, m.colour, "dxm")
        for e in d.rewards:
            if e.name == "extra_treasure":
                treasures += e.number("n", 1)
            elif e.name == "gold":
                tx.set_player(seat, gold=tx.player(seat).gold + e.number("amount", 0))
            elif e.name == "heal":
                effects.heal(tx, seat, e.number("amount", 1))
        treasures += monsters.treasure_count(m, tx.cards)  # never below zero (Q-COMBAT-13)
        if d.mighty and c.helper >= 0:
            levels += 1
            helper_levels += 1  # a helper gains 1 for each Mighty monster, the fighter 1 less
        else:
            levels += 2 if d.mighty else 1
        tx.event("monster_killed", seat, uid, m.card)
        tx.remove_monster(uid)
    public = len(tx.seats_in(c.room)) > 1  # Q-SEARCH-3
    if c.helper >= 0 and 0 < c.share < treasures and not c.boss:
        _lay_out(tx, c, treasures)  # Q-HELP-2: picked in turn, as the deal says
    else:
        for i in range(treasures):  # Q-CARD-2; the helper's picks (all of them, or none) first
            draws.draw_to_hand(tx, c.helper if i < c.share else seat, "treasure", public)
    effects.level_up(tx, seat, levels, "kill", by_kill=True)  # Q-LAW-2: a kill may give the 10th level
    if c.helper >= 0:
        if "elf" in identity(tx.player(c.helper), tx.cards):
            helper_levels = max(1, helper_levels)  # an elf who helps win goes up a level (Q-CHAR-4), not on top
        effects.level_up(tx, c.helper, helper_levels, "kill", by_kill=True)
    effects.end_fight(tx, result=True)
    if c.boss:
        tx.winners = tuple(s for s in fighters(c) if tx.player(s).level >= 10)
        tx.phase = OVER
        tx.event("game_won", tx.winners)


def _lay_out(tx: Tx, c: Combat, treasures: int) -> None:
    """Q-HELP-2 (seed 000 p.11: who picks first is agreed with the deal): the Treasures of a fight
    won with a helper who takes some but not all of them are drawn face up and picked one at a
    time, the deal's first picker first, in turn while both are still due one (a ``pick``
    decision); then the rest go to whoever is still due them."""
    pool = []
    for _ in range(treasures):
        card = tx.draw("treasure")
        if card is None:
            break
        pool.append(card)
    tx.event("treasure_laid_out", c.fighter, tuple(pool))
    due = ((c.helper, min(c.share, len(pool))), (c.fighter, len(pool) - min(c.share, len(pool))))
    _next_pick(tx, c.helper if c.first == FirstPick.HELPER else c.fighter, tuple(pool), due)


def _next_pick(tx: Tx, seat: int, pool: tuple[str, ...], due: tuple) -> None:
    if all(n > 0 for _, n in due):
        tx.pending = Pending(seat=seat, kind=PendingKind.PICK, options=pool, data=due)
        return
    for to, n in due:  # one side is done: the rest are the other's, in the order they were drawn
        for card in pool if n > 0 else ():
            draws.to_hand(tx, to, "treasure", card)
            tx.event("pick", to, card)


def pick_chosen(tx: Tx, card: str) -> None:
    """The picker takes ``card`` of the Treasures laid out; the other side picks next."""
    pend = tx.decision
    tx.pending = None
    draws.to_hand(tx, pend.seat, "treasure", card)
    tx.event("pick", pend.seat, card)
    due = tuple((s, n - 1 if s == pend.seat else n) for s, n in pend.data)
    other = next(s for s, _ in due if s != pend.seat)
    _next_pick(tx, other, tuple(c for c in pend.options if c != card), due)


def lose(tx: Tx) -> None:
    """Q-COMBAT-10: every fighter takes one hit per monster, then runs away on their own (Q-RUN,
    Q-HELP-4); against the Boss one hit and one level each (Q-BOSS-5)."""
    c = tx.fight
    tx.set_combat(stage=Stage.RUN)  # a munchkin the hits kill dies while running (Q-DEATH-1)
    hits = 1 if c.boss else len(c.monsters)
    for seat in fighters(c):
        if c.boss:
            effects.level_down(tx, seat, 1, "boss")
        effects.hit(tx, seat, hits)
    _next_runner(tx, None)


def _next_runner(tx: Tx, done: int | None) -> None:
    """Start the next live munchkin's run (the fighter, then the helper), or finish the fight."""
    c = tx.fight
    order = fighters(c)
    rest = order if done is None else order[order.index(done) + 1:]
    for seat in rest:
        if tx.player(seat).alive:
            if run_options(tx, tx.cards):
                tx.set_combat(stage=Stage.RUN, runner=seat, run_to=-1, to_escape=(), run_bonus=0)
            elif c.boss:
                _next_runner(tx, seat)
            else:
                # Q-RUN-5: nowhere to run: every Bad Stuff applies (and the fighter's turn ends).
                tx.set_combat(stage=Stage.ESCAPE, runner=seat, run_to=-1, to_escape=c.monsters, run_bonus=0,
                              cornered=c.cornered or seat == c.fighter)
                tx.event("cornered", seat)
            return
    _finish_run(tx)


def _finish_run(tx: Tx) -> None:
    """Everyone has run: the fight ends; survivors arrive where they ran (Q-RUN-3) and the
    room's rule applies to the active munchkin; a cornered fighter's turn ends (Q-RUN-5)."""
    c = tx.fight
    if c.boss:  # Q-BOSS-5: the Boss and its company are discarded
        for uid in c.monsters:
            if any(m.uid == uid for m in tx.monsters):
                tx.remove_monster(uid)
    effects.end_fight(tx, result=True)
    for seat, room in c.dests:
        if tx.player(seat).alive:
            tx.set_player(seat, room=room)
            tx.event("arrives", seat, room)
            effects.enter_room(tx, seat, room)
    if c.cornered and tx.player(c.fighter).alive:
        tx.set_turn(over=True)  # the monster turn comes once this action is done (mq.rules.flow.settle)


def run_options(state_or_tx, cards) -> tuple[int, ...]:
    """Q-RUN-1: explored rooms next to the fight's room through a non-wall connector."""
    return tuple(r for _, r in board.neighbours(state_or_tx, cards, state_or_tx.combat.room))


def choose_run(tx: Tx, room: int) -> None:
    """Q-RUN-1: the direction is chosen before rolling (from the Boss: no rolls, Q-BOSS-5)."""
    c = tx.fight
    tx.event("runs", c.runner, room)
    if c.boss:
        tx.set_combat(dests=c.dests + ((c.runner, room),))
        _next_runner(tx, c.runner)
        return
    tx.set_combat(stage=Stage.ESCAPE, run_to=room, to_escape=c.monsters)


def escape_modifier(state_or_tx, cards, seat: int, uid: int) -> int:
    """What is added to ``seat``'s escape die against monster ``uid`` (Q-RUN-2): the monster's
    run-away modifier, the munchkin's items and the run's bonuses (Flight, one-shots), an elf's +1
    (Q-CHAR-4) and the fight room's rule."""
    c = state_or_tx.combat
    p = state_or_tx.players[seat]
    elf = 1 if "elf" in identity(p, cards) else 0
    return (cards.card(find(state_or_tx.monsters, uid).card).runaway + effect_total(p, cards, "runaway")
            + c.run_bonus + elf + sum(e.number("amount", 0) for e in room_effects(state_or_tx.rooms, cards, c.room, "runaway")))


def escape_roll(tx: Tx, uid: int) -> None:
    """Q-RUN-2: 5+ escapes that monster; otherwise its Bad Stuff — unless it was a halfling's
    first roll of the fight, which they may roll again (``reroll``: the halfling card's text)."""
    c = tx.fight
    seat = c.runner
    first = c.to_escape == c.monsters  # this runner has rolled against none of them yet
    tx.set_combat(to_escape=tuple(u for u in c.to_escape if u != uid))
    if c.run_to >= 0:
        if _escape_die(tx, seat, uid):
            after_escape_step(tx)
            return
        if first and "halfling" in identity(tx.player(seat), tx.cards):
            tx.set_combat(stage=Stage.REROLL, failed=uid)  # a decision before the Bad Stuff
            return
    bad_stuff(tx, seat, uid, 0)


def _escape_die(tx: Tx, seat: int, uid: int) -> bool:
    """Roll one escape die against monster ``uid``: whether it escapes (Q-RUN-2)."""
    mod = escape_modifier(tx, tx.cards, seat, uid)
    roll = tx.d6()
    escaped = roll + mod >= ESCAPE_TARGET
    tx.event("escape_roll", seat, uid, roll, mod, escaped)
    return escaped


def reroll_escape(tx: Tx) -> None:
    """The halfling discarded a card (mq.rules.powers): the failed roll is rolled again, with the
    modifiers as they are now; a second failure brings that monster's Bad Stuff."""
    c = tx.fight
    tx.set_combat(stage=Stage.ESCAPE, failed=-1)
    if _escape_die(tx, c.runner, c.failed):
        after_escape_step(tx)
    else:
        bad_stuff(tx, c.runner, c.failed, 0)


def let_roll_stand(tx: Tx) -> None:
    """The halfling keeps the failed roll: that monster's Bad Stuff (Q-RUN-2)."""
    c = tx.fight
    tx.set_combat(stage=Stage.ESCAPE, failed=-1)
    bad_stuff(tx, c.runner, c.failed, 0)


def can_affect(e, p: Player, cards) -> bool:
    """Whether one Bad Stuff effect would change anything (Q-RUN-2: if none can, one hit)."""
    if e.name in ("hits", "death"):
        return True
    if e.name == "lose_levels":
        return p.level > 1
    if e.name == "lose_gold":
        return p.gold > 0
    if e.name == "lose_item":
        return bool(p.items)
    if e.name == "lose_slot":
        return any(worn_in_slot(p, cards, e.text("slot")))
    raise ValueError(f"unknown bad stuff {e.name}")


def worn_in_slot(p: Player, cards, slot: str) -> list[str]:
    """Q-ITEM-6: "lose your footgear" means the worn (or carried) one, never the backpack."""
    return [it.card for it in p.items if it.place in ("worn", "carried") and cards.card(it.card).slot == slot]


def bad_stuff(tx: Tx, seat: int, uid: int, start: int) -> None:
    """A monster's Bad Stuff on a runner who failed to escape it (Q-RUN-2): when none of it could
    affect them, one hit instead.  Pauses on a victim's choice; then the run goes on."""
    harm = tx.cards.monster_card(tx.monster(uid).card).bad_stuff
    if start == 0:
        tx.event("bad_stuff", seat, uid)
        if not any(can_affect(e, tx.player(seat), tx.cards) for e in harm):
            effects.hit(tx, seat, 1)
            after_escape_step(tx)
            return
    if apply_effects(tx, seat, harm, start, ("monster", uid)):
        after_escape_step(tx)


def apply_effects(tx: Tx, seat: int, harm, start: int, source: tuple) -> bool:
    """Apply Bad Stuff or curse effects from ``start`` on; False when paused on the victim's
    choice of an item (Q-ITEM-6: the victim chooses), which resumes through lose_item_chosen."""
    for i in range(start, len(harm)):
        p = tx.player(seat)
        if not p.alive:
            break
        e = harm[i]
        if e.name == "hits":
            effects.hit(tx, seat, e.number("n", 1))
        elif e.name == "death":
            effects.die(tx, seat, "bad stuff")
        elif e.name == "lose_levels":
            effects.level_down(tx, seat, e.number("n", 1), "bad stuff" if source[0] == "monster" else "curse")
        elif e.name == "lose_gold":
            amount = e.number("amount", 0)
            lost = p.gold if amount == 0 else min(p.gold, amount)
            tx.set_player(seat, gold=p.gold - lost)
            tx.event("gold_lost", seat, lost)
        elif e.name == "lose_slot":
            for card in worn_in_slot(p, tx.cards, e.text("slot"))[:1]:
                effects.lose_item(tx, seat, card)
        elif e.name == "lose_item":
            if p.items:
                tx.pending = Pending(seat=seat, kind=PendingKind.LOSE_ITEM, options=tuple(sorted(it.card for it in p.items)),
                                     data=source + (i, e.number("n", 1)))
                return False
        elif e.name == "next_combat":
            _curse_next_fight(tx, seat, e.number("amount"))
    return True


def _curse_next_fight(tx: Tx, seat: int, amount: int) -> None:
    """Q-CARD-8: a next-fight curse applies now if the victim is fighting, else it waits."""
    c = tx.combat
    if c is not None and seat in fighters(c) and c.stage in (Stage.PREPARE, Stage.HELP, Stage.WINDOW):
        tx.set_combat(bonus=c.bonus + amount)
    else:
        tx.set_player(seat, cursed=tx.player(seat).cursed + amount)


def curse_cancellers(p: Player, cards) -> list[str]:
    """Cards in hand or on the belt that cancel a curse as it is played (Q-CARD-8)."""
    own = list(p.hand) + [it.card for it in p.items if it.place == "belt"]
    return [c for c in own if any(e.name == "cancel_curse" for e in getattr(cards.card(c), "effects", ()))]


ACCEPT = "accept"  # the option that lets a curse act
SANCTUARY = "sanctuary"  # a cleric's option: try the d10 power against it (Q-CHAR-5)


def curse_guards(state_or_tx, cards, by: int, victim: int) -> tuple[int, ...]:
    """Who may answer a curse as it is played (Q-CARD-8), in this order: the victim, when they
    hold a card that cancels curses or are a cleric; then every other cleric in the victim's
    room, in turn order after the victim (Sanctuary covers "you or a munchkin in your room", the
    cleric card's text, mq/data/dxm.toml).  The one who played the curse never guards against it,
    not even a munchkin who cursed themselves (Q-CARD-8 allows it)."""
    players = state_or_tx.players
    v = players[victim]
    out = []
    if victim != by and (curse_cancellers(v, cards) or draws.is_cleric(v, cards)):
        out.append(victim)
    for seat in others(state_or_tx.order, victim):
        q = players[seat]
        if seat != by and q.room == v.room and draws.is_cleric(q, cards):
            out.append(seat)
    return tuple(out)


def play_curse(tx: Tx, card: str, by: int, victim: int) -> None:
    """Q-CARD-8: a curse acts at once, unless someone may answer it first (``curse_guards``):
    then they decide in turn (a ``curse`` pending decision with data (card, by, victim))."""
    guards = curse_guards(tx, tx.cards, by, victim)
    if guards:
        tx.event("curse_played", by, victim, card)
        _ask_guard(tx, card, by, victim, guards[0])
    else:
        curse(tx, card, by, victim)


def _ask_guard(tx: Tx, card: str, by: int, victim: int, seat: int) -> None:
    shields = tuple(curse_cancellers(tx.player(seat), tx.cards)) if seat == victim else ()
    options = shields + ((SANCTUARY,) if draws.is_cleric(tx.player(seat), tx.cards) else ()) + (ACCEPT,)
    tx.pending = Pending(seat=seat, kind=PendingKind.CURSE, options=options, data=(card, by, victim))


def answer_curse(tx: Tx, seat: int, option: str) -> None:
    """A guard's answer: a cancelling card (the victim's own), Sanctuary (d10 no more than the
    cleric's level, Q-CHAR-5), or let it pass to the next guard; the last one lets it act."""
    card, by, victim = tx.decision.data
    tx.pending = None
    if option == SANCTUARY:
        if effects.d10(tx, seat, "sanctuary"):
            tx.discard(card)
            tx.event("curse_cancelled", seat, card, SANCTUARY)
            return
    elif option != ACCEPT:
        p = tx.player(seat)
        tx.set_player(seat, hand=tuple(c for c in p.hand if c != option),
                      items=tuple(it for it in p.items if it.card != option))
        tx.discard(option)
        tx.discard(card)
        tx.event("curse_cancelled", seat, card, option)
        return
    guards = curse_guards(tx, tx.cards, by, victim)
    rest = guards[guards.index(seat) + 1:] if seat in guards else ()
    if rest:
        _ask_guard(tx, card, by, victim, rest[0])
    else:
        curse(tx, card, by, victim)


def curse(tx: Tx, card: str, by: int, victim: int) -> None:
    """Q-CARD-8: a curse takes effect at once and is discarded (a lasting one stays on its victim
    until removed); one with nothing to hit does nothing."""
    if any(e.name.startswith("lasting_") for e in tx.cards.playable_card(card).effects):
        tx.set_player(victim, curses=tx.player(victim).curses + (card,))
    else:
        tx.discard(card)
    tx.event("curse", by, victim, card)
    apply_effects(tx, victim, tx.cards.playable_card(card).effects, 0, ("curse", card))


def lose_item_chosen(tx: Tx, card: str) -> None:
    """The victim picked the item to lose (Q-ITEM-6); go on with the rest of the effects."""
    pend = tx.decision
    kind, ref, index, n = pend.data
    tx.pending = None
    effects.lose_item(tx, pend.seat, card)
    p = tx.player(pend.seat)
    if n > 1 and p.items:
        tx.pending = Pending(seat=pend.seat, kind=PendingKind.LOSE_ITEM,
                             options=tuple(sorted(it.card for it in p.items)), data=(kind, ref, index, n - 1))
        return
    if kind == "monster":
        if apply_effects(tx, pend.seat, tx.cards.monster_card(tx.monster(ref).card).bad_stuff, index + 1, (kind, ref)):
            after_escape_step(tx)
    else:
        apply_effects(tx, pend.seat, tx.cards.playable_card(ref).effects, index + 1, (kind, ref))


def after_escape_step(tx: Tx) -> None:
    """After one escape roll: when the runner is done with every monster (or died, Q-DEATH-1: no
    more rolls), they will arrive where they ran; then the next runner goes."""
    c = tx.combat
    if c is None or tx.pending is not None:
        return
    seat = c.runner
    alive = tx.player(seat).alive
    if c.to_escape and alive:
        return
    if alive and c.run_to >= 0:
        tx.set_combat(dests=c.dests + ((seat, c.run_to),))
    _next_runner(tx, seat)


def magic_exit(tx: Tx, card: str, to_room: int) -> None:
    """Leave the fight by a card: before the roll it ends the fight without a result (Q-COMBAT-12:
    the other one-shots go back to their owners); after a loss it replaces the runner's run-away
    rolls (Q-RUN-4).  Either way the munchkin ends up in ``to_room``."""
    c = tx.fight
    tx.set_combat(used=c.used[:-1], used_by=c.used_by[:-1])  # the card that did it is spent
    tx.discard(card)
    if c.stage == Stage.PREPARE:
        seat = c.fighter
        tx.event("magic_escape", seat, card)
        effects.end_fight(tx, result=False)
        tx.set_player(seat, room=to_room)
        effects.enter_room(tx, seat, to_room)
        return
    tx.event("magic_escape", c.runner, card)
    tx.set_combat(dests=c.dests + ((c.runner, to_room),), to_escape=())
    _next_runner(tx, c.runner)
