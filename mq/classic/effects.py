"""Low-level effects the Classic rules share: levels up and down (C-LAW-1/2), drawing, losing cards
(C-ITEM-8, C-COMP-7), death and its body (C-DEATH-1/2), and the queue of Bad Stuff and curse
effects, one of which may wait for its victim's choice (C-DIGI-5).  An effect changes the Tx and
emits its events; it never decides what comes next.  What the cards' effects say is done as they
say it, before any general rule (C-LAW-5)."""
from __future__ import annotations

from mq.classic import character as ch
from mq.classic import dungeons, picks
from mq.classic.state import Body, CItem, Effect, Pending, PendingKind
from mq.classic.tx import Tx

SALVAGE_DRAW = "draw"  # the option of a salvage decision that draws as usual (C-CHAR-5)
LUCK = "luck"  # queued after a cleric bard's luck draws: the discard among what they brought (C-PACK-4)
SEP = ","  # card ids never hold one: a list of cards in one string (Pending.arg, Effect.arg)


def win_level(tx: Tx) -> int:
    return tx.params.win_level


def gain_levels(tx: Tx, seat: int, n: int, why: str, may_win: bool = False) -> None:
    """C-LAW-2, C-CHAR-1: up ``n`` levels; only a kill (or a card that says so, ``may_win``) gives
    the winning level, which ends the game (C-WIN-1); other gains stop one short of it."""
    p = tx.player(seat)
    top = win_level(tx) if may_win else win_level(tx) - 1
    new = min(p.level + n, max(top, p.level))
    if new != p.level:
        tx.set_player(seat, level=new)
        tx.event("level", seat, p.level, new, why)
    if new >= win_level(tx) and seat not in tx.winners:
        tx.winners = tx.winners + (seat,)


def lose_levels(tx: Tx, seat: int, n: int, why: str) -> None:
    """C-LAW-1: never below 1."""
    p = tx.player(seat)
    new = max(1, p.level - n)
    if new != p.level:
        tx.set_player(seat, level=new)
        tx.event("level", seat, p.level, new, why)
        fit_big_items(tx, seat)  # C-EPIC-2: epic powers end below level 10
        keep_pet(tx, seat)


def draw_to_hand(tx: Tx, seat: int, deck: str, public: bool = False, salvage: bool = True) -> str | None:
    """A card of ``deck`` into ``seat``'s hand (the card; None when there is none, or when the
    draw waits: a face-down draw by a cleric who may salvage waits for their choice, queued,
    C-CHAR-5, C-DIGI-5)."""
    if salvage and not public and may_salvage(tx, seat, deck):
        tx.queue = tx.queue + (Effect(seat, "draw", 0, deck),)
        return None
    card = tx.draw(deck)
    if card is not None:
        tx.set_player(seat, hand=tx.player(seat).hand + (card,))
        tx.event("draw", seat, deck, card, public)
    return card


def may_salvage(tx: Tx, seat: int, deck: str) -> bool:
    """C-CHAR-5: a cleric drawing face-down may take the top card of that deck's discards instead,
    for a card of the hand."""
    p = tx.player(seat)
    return bool(p.hand and tx.decks[deck].discard) and ch.power(p, tx.cards, "salvage") is not None


def salvage(tx: Tx, seat: int, deck: str, card: str) -> None:
    """C-CHAR-5: the top card of ``deck``'s discards into the hand (face up), then ``card`` of the
    hand discarded for it."""
    pile = tx.decks[deck]
    taken = pile.discard[-1]
    tx.decks[deck] = pile.replace(discard=pile.discard[:-1])
    tx.set_player(seat, hand=tx.player(seat).hand + (taken,))
    tx.event("power", seat, "salvage", taken)
    tx.event("draw", seat, deck, taken, True)
    discard_from_hand(tx, seat, card, "power")


def discard_from_hand(tx: Tx, seat: int, card: str, why: str) -> None:
    p = tx.player(seat)
    i = p.hand.index(card)
    tx.set_player(seat, hand=p.hand[:i] + p.hand[i + 1:])
    tx.discard(card)
    tx.event("discard", seat, card, why)


def discard_paid(tx: Tx, seat: int, card: str, why: str) -> None:
    """C-CHAR-3: a card paid for a power, from the hand or from play (``ch.payable``)."""
    p = tx.player(seat)
    if card in p.hand:
        discard_from_hand(tx, seat, card, why)
    elif any(it.card == card for it in p.items):
        discard_item(tx, seat, card, why)
    elif card in p.races + p.classes:
        drop_race_or_class(tx, seat, card, why)
    elif card in (p.steed, p.hireling):
        lose_follower(tx, seat, "steed" if card == p.steed else "hireling", why)
    else:  # a Half-Breed or Super Munchkin: the race or class cards stay (C-CHAR-7, 8)
        tx.set_player(seat, **{"halfbreed" if card == p.halfbreed else "supermunchkin": ""})
        tx.discard(card)
        tx.event("discard", seat, card, why)
        fit_big_items(tx, seat)


def remove_item(tx: Tx, seat: int, card: str) -> CItem:
    """Take an item out of ``seat``'s play (with its Cheat! card, which travels with it, C-ITEM-5)."""
    p = tx.player(seat)
    item = next(it for it in p.items if it.card == card)
    tx.set_player(seat, items=tuple(it for it in p.items if it.card != card))
    return item


def discard_item(tx: Tx, seat: int, card: str, why: str) -> None:
    item = remove_item(tx, seat, card)
    tx.discard(card)
    if item.cheat:
        tx.discard(item.cheat)
    tx.event("discard", seat, card, why)


def drop_race_or_class(tx: Tx, seat: int, card: str, why: str) -> None:
    """C-CHAR-2, 7, 8: discard a race or class card; a Half-Breed (Super Munchkin) goes with the
    last card of its kind."""
    p = tx.player(seat)
    if card in p.races:
        tx.set_player(seat, races=tuple(c for c in p.races if c != card))
        if p.halfbreed and len(p.races) == 1:
            tx.discard(p.halfbreed)
            tx.set_player(seat, halfbreed="")
    else:
        tx.set_player(seat, classes=tuple(c for c in p.classes if c != card))
        if p.supermunchkin and len(p.classes) == 1:
            tx.discard(p.supermunchkin)
            tx.set_player(seat, supermunchkin="")
    tx.discard(card)
    tx.event("discard", seat, card, why)
    fit_big_items(tx, seat)


def lose_follower(tx: Tx, seat: int, field: str, why: str) -> None:
    """C-PACK-5: the steed (``field`` "steed") or the hireling discarded, if there is one; a rider
    who loses an epic steed's extra big item keeps what the limit allows (C-EPIC-15)."""
    card = getattr(tx.player(seat), field)
    if not card:
        return
    tx.set_player(seat, **{field: ""})
    tx.discard(card)
    tx.event("discard", seat, card, why)
    fit_big_items(tx, seat)


def keep_pet(tx: Tx, seat: int) -> None:
    """C-EPIC-6: the pet is discarded when its owner is no longer an epic human (or dies)."""
    p = tx.player(seat)
    if p.pet and (p.dead or ch.power(p, tx.cards, "pet", tx.params) is None):
        tx.discard(p.pet)
        tx.event("discard", seat, p.pet, "pet")
        tx.set_player(seat, pet="")


def fit_big_items(tx: Tx, seat: int) -> None:
    """C-ITEM-4, C-EPIC-15: who has more big items than the limit allows gives up the excess at
    once, their choice (queued: a decision, C-DIGI-5); the items given up are sold or given right
    after the current combat (``settle_big_items``)."""
    if not any(e.seat == seat and e.name == "fit_big" for e in tx.queue):
        tx.queue = tx.queue + (Effect(seat, "fit_big"),)


def fit_hands(tx: Tx, seat: int) -> None:
    """C-ITEM-2, C-EPIC-13: who loses the giant's grip (an epic warrior no longer epic, or no
    longer a warrior) may have more hand items in use than two hands hold; those worth least in
    combat go out of use until the rest fit (our rule: the engine keeps the strongest, as the
    player would; outside combat the player may change it, C-ITEM-2)."""
    p = tx.player(seat)
    held = sorted((it for it in p.items if it.in_use and not it.cheat and tx.cards.treasure_card(it.card).slot == "hands"),
                  key=lambda it: (-tx.cards.treasure_card(it.card).bonus, p.items.index(it)))
    keep: list[str] = []
    room = dict(ch.SLOT_CAPACITY)["hands"]
    for it in held:
        need = ch.hands_needed(p, tx.cards, it.card, tx.params)
        if need <= room:
            room -= need
            keep.append(it.card)
    for it in held:
        if it.card not in keep:
            tx.set_player(seat, items=tuple(x.replace(in_use=False) if x.card == it.card else x
                                            for x in tx.player(seat).items))
            tx.event("equip", seat, it.card, False)


def give_up_big(tx: Tx, seat: int, card: str) -> None:
    """C-ITEM-4: a big item over the limit is set aside, to be sold or given after the combat."""
    p = tx.player(seat)
    tx.set_player(seat, items=tuple(it.replace(in_use=False, over=True) if it.card == card else it for it in p.items))
    tx.event("equip", seat, card, False)


def settle_big_items(tx: Tx, seat: int) -> None:
    """C-ITEM-4, right after the combat (or at once outside one): the big items given up are sold
    on one's own turn (C-ITEM-7: levels for each 1000 gold, never the winning level), else given
    to the lowest-level players as charity gives cards (a decision, C-CHARITY-1, 2)."""
    over = tuple(it.card for it in tx.player(seat).items if it.over)
    if tx.turn is not None and tx.turn.seat == seat:
        gold = sum(tx.cards.treasure_card(c).value for c in over)
        for card in over:
            discard_item(tx, seat, card, "sold")
        top = max(0, win_level(tx) - 1 - tx.player(seat).level)
        levels = min(gold // 1000, top)
        tx.event("sell", seat, over, gold, levels)
        gain_levels(tx, seat, levels, "sale")
    else:
        tx.pending = Pending(PendingKind.BIG_GIFT, seat, len(over))


def hand_items_in(tx: Tx, seat: int, slot: str) -> tuple[str, ...]:
    p = tx.player(seat)
    return tuple(it.card for it in p.items if it.in_use and tx.cards.treasure_card(it.card).slot == slot)


def die(tx: Tx, seat: int) -> None:
    """C-DEATH-1: keep level, race, class, Half-Breed, Super Munchkin and curses; lose the hand and
    every item (with their Cheat! cards), the steed and the hireling (C-PACK-5), laid out face-up as
    the body to loot (C-DEATH-2)."""
    p = tx.player(seat)
    lost = p.hand + tuple(c for it in p.items for c in ((it.card, it.cheat) if it.cheat else (it.card,)))
    lost += tuple(c for c in (p.steed, p.hireling) if c)
    tx.set_player(seat, hand=(), items=(), steed="", hireling="", dead=True)
    keep_pet(tx, seat)
    tx.queue = tuple(e for e in tx.queue if e.seat != seat)  # C-RUN-5: the dead suffer no more
    tx.event("death", seat, lost)
    if lost:
        tx.bodies = tx.bodies + (Body(seat, lost),)


def push(tx: Tx, seat: int, effects, front: bool = True) -> None:
    """Queue Bad Stuff or curse effects for ``seat`` (before what is already queued)."""
    items = tuple(Effect(seat, e.name, e.number("n", 0), e.text("slot", "")) for e in effects)
    tx.queue = items + tx.queue if front else tx.queue + items


def apply_next(tx: Tx) -> None:  # noqa: C901 - one case per effect
    """Apply the head of the effect queue; one that needs the victim's choice becomes a pending
    decision (C-DIGI-5, C-ITEM-8) and is not queued again."""
    e, tx.queue = tx.queue[0], tx.queue[1:]
    seat, p = e.seat, tx.player(e.seat)
    if e.name == "lose_levels":
        lose_levels(tx, seat, e.n, "bad stuff")
    elif e.name == "death":
        die(tx, seat)
    elif e.name == "lose_item":
        if p.items:
            tx.pending = Pending(PendingKind.LOSE_ITEM, seat, min(e.n, len(p.items)))
    elif e.name == "lose_slot":
        # C-ITEM-8: the item in use there; with two hand items in use, the victim's choice.
        inuse = hand_items_in(tx, seat, e.arg)
        if len(inuse) == 1:
            discard_item(tx, seat, inuse[0], "lost")
            tx.event("lost", seat, inuse[0], "item")
        elif inuse:
            tx.pending = Pending(PendingKind.LOSE_ITEM, seat, 1, e.arg)
    elif e.name == "lose_hand":
        if p.hand:
            tx.pending = Pending(PendingKind.LOSE_HAND, seat, min(e.n, len(p.hand)))
    elif e.name == "lose_whole_hand":
        for card in p.hand:
            discard_from_hand(tx, seat, card, "lost")
    elif e.name in ("lose_race", "lose_class"):
        group = p.races if e.name == "lose_race" else p.classes
        for card in group:
            drop_race_or_class(tx, seat, card, "lost")
            tx.event("lost", seat, card, "race" if e.name == "lose_race" else "class")
    elif e.name in ("lose_steed", "lose_hireling"):  # C-PACK-5: none in play, nothing happens
        field = "steed" if e.name == "lose_steed" else "hireling"
        lose_follower(tx, seat, field, "lost")
    elif e.name == "draw":  # C-CHAR-5: the cleric's choice, if salvage still may be
        if may_salvage(tx, seat, e.arg):
            tx.pending = Pending(PendingKind.SALVAGE, seat, 1, e.arg)
        else:
            draw_to_hand(tx, seat, e.arg, salvage=False)
    elif e.name == LUCK:  # C-PACK-4 after draws a cleric bard may have salvaged: the cards they brought
        before = set(e.arg.split(SEP)) if e.arg else set()
        drawn = tuple(c for c in p.hand if c not in before)
        if drawn:
            tx.pending = Pending(PendingKind.LUCK, seat, min(e.n, len(drawn)), SEP.join(drawn))
    elif e.name == "fit_big":  # C-ITEM-4: the victim chooses what to give up
        fit_hands(tx, seat)
        excess = ch.big_count(p, tx.cards) - ch.big_limit(p, tx.cards, tx.params)
        if excess > 0:
            tx.pending = Pending(PendingKind.BIG, seat, excess)
    elif e.name == "change_gender":
        gender = "female" if p.gender == "male" else "male"
        tx.set_player(seat, gender=gender)
        tx.event("gender", seat, gender)
    else:  # the loader admits only the vocabulary; an effect without engine code is a bug
        raise NotImplementedError(f"the Classic engine has no code for the effect {e.name!r}")


def pending_options(tx_or_state, pend: Pending, cards) -> tuple[str, ...]:
    """The cards a pending decision chooses among (C-DIGI-5)."""
    s = tx_or_state
    p = s.players[pend.seat]
    if pend.kind == PendingKind.LOSE_ITEM:
        if pend.arg:
            return tuple(it.card for it in p.items if it.in_use and cards.card(it.card).slot == pend.arg)
        return tuple(it.card for it in p.items)
    if pend.kind in (PendingKind.LOSE_HAND, PendingKind.CHARITY):
        return p.hand
    if pend.kind == PendingKind.LOOT:
        return s.bodies[0].cards
    if pend.kind == PendingKind.SEARCH:
        return (s.door if search_deck(cards, pend.arg) == "door" else s.treasure).discard
    if pend.kind == PendingKind.LUCK:  # C-PACK-4: the Treasure drawn for the combat, still in hand
        return tuple(c for c in pend.arg.split(SEP) if c in p.hand)
    if pend.kind == PendingKind.BIG:
        return ch.counted_bigs(p, cards)
    if pend.kind == PendingKind.SALVAGE:  # ("draw", or the card of the hand to discard for the top discard)
        return (SALVAGE_DRAW,) + p.hand
    if pend.kind == PendingKind.BIG_GIFT:
        return tuple(it.card for it in p.items if it.over)
    if pend.kind == PendingKind.PORTAL:  # C-PACK-7
        return dungeons.options(s)
    if pend.kind == PendingKind.PICK:  # C-HELP-3: the Treasure laid out (mq.classic.picks)
        return picks.options(pend)
    return ()


def search_deck(cards, special: str) -> str:
    """The deck whose discard pile a search_discards special looks through."""
    return cards.card(special).effects[0].text("deck")


def start_looting(tx: Tx) -> None:
    """C-DEATH-2: the first body's looters, highest level first, ties rolled (highest first,
    re-rolling ties); the dead do not loot."""
    body = tx.bodies[0]
    seats = [p.seat for p in tx.players if p.seat != body.seat and not p.dead]
    order: list[int] = []
    for level in sorted({tx.player(s).level for s in seats}, reverse=True):
        order += roll_off(tx, [s for s in seats if tx.player(s).level == level])
    tx.bodies = (body.replace(looters=tuple(order), started=True),) + tx.bodies[1:]


def roll_off(tx: Tx, seats: list[int]) -> list[int]:
    """Order tied seats by d6, highest first, re-rolling ties among the tied (bounded: the RNG
    ends every tie with probability one; a seat list is at most six long)."""
    if len(seats) <= 1:
        return seats
    rolls = [(tx.d6(), s) for s in seats]
    out: list[int] = []
    for value in sorted({r for r, _ in rolls}, reverse=True):
        out += roll_off(tx, [s for r, s in rolls if r == value])
    return out

