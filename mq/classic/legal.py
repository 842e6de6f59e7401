"""The single source of Classic legality: every action a seat may take now, in a stable order.

Who may act (C-TURN-6..8, C-DIGI-2): the seat of a pending decision alone; in a curse window the
seats still waiting; otherwise the active player on their turn (or the main fighter while
preparing, or the runner), the seats waiting in a call for help or a last-chance window, and every
seat for the cards of any moment (go up a level, curses, Half-Breed and Super Munchkin, dropping a
race or class card).  In a combat nobody puts items into play, sells, trades or changes which are
in use (C-COMBAT-11).  The open-ended sale (``buy``) is listed once, as the sale of the hand's
items; ``is_legal`` accepts any valid choice (C-ITEM-7)."""
from __future__ import annotations

from mq.cards.classic_defs import ClassicMonsterDef, ClassicSet, ClassicTreasureDef
from mq.cards.classic_vocab import K, Timing
from mq.classic import character as ch
from mq.classic import combat as cb
from mq.classic import deals as dl
from mq.classic import dungeons, packs, trades
from mq.classic.effects import pending_options
from mq.classic.state import ClassicState, CPlayer, DealKind, PendingKind, Phase, Stage
from mq.rules.actions import Action

SIDES = ("munchkins", "monsters")
SALE = 1000  # gold per level (C-ITEM-7)


def legal_actions(s: ClassicState, seat: int, cards: ClassicSet) -> tuple[Action, ...]:
    out: list[Action] = []
    enumerate_actions(s, seat, cards, out.append)
    return tuple(out)


def can_act(s: ClassicState, seat: int, cards: ClassicSet) -> bool:
    """Whether ``seat`` has anything to do but pass in the window it waits in (auto-pass, as
    Q-DIGI-2): cards of any moment that cannot change the combat (dropping a race or class card,
    showing the hand, offering or declining a deal: a deal offered to the seat does count) do not
    count, nor offering a trade, nor, in the turn-end window (C-DIGI-2 f), giving an item away: a
    gift or an offer may be made whenever no window waits, so nobody is waited for only because
    they have an item in play (a trade offered to the seat does count: its answer)."""
    found: list[Action] = []
    idle = ("pass", "discard", "reveal", "deal", "decline", "offer", "trade") + (
        ("give",) if s.combat is None and s.turn is not None and s.turn.phase == Phase.CLOSING else ())

    def keep(a: Action) -> None:
        if a.kind not in idle:
            found.append(a)
            raise _Found

    try:
        enumerate_actions(s, seat, cards, keep)
    except _Found:
        return True
    return bool(found)


class _Found(Exception):
    pass


def enumerate_actions(s: ClassicState, seat: int, cards: ClassicSet, add) -> None:  # noqa: C901
    if s.phase == Phase.OVER or not 0 <= seat < len(s.players):
        return
    p = s.players[seat]
    if s.pending is not None:
        if s.pending.seat == seat:
            _pending(s, seat, cards, add)
        return
    if s.curse is not None:
        if seat in s.curse.waiting:
            for card in dict.fromkeys(p.hand):
                if _has_effect(cards, card, "cancel_curse"):
                    add(Action(seat, "use", (card,)))
            if seat == s.curse.victim and p.hand and ch.power(p, cards, "dodge_curses", s.params) is not None:
                for card in dict.fromkeys(p.hand):  # C-EPIC-9, C-CHAR-3: the card to discard is yours to choose
                    add(Action(seat, "power", ("dodge", card)))
            add(Action(seat, "pass"))
        return
    if s.claim is not None and s.claim.open:  # C-EPIC-14, C-DIGI-2 (e): only the claim window
        if seat in s.claim.waiting:
            packs.claim_actions(s, p, cards, add)
            add(Action(seat, "pass"))
        return
    if s.phase == Phase.SETUP:
        if not p.ready:
            _own_play(s, p, cards, add, setup=True)
            add(Action(seat, "ready"))
        return
    c = s.combat
    active = s.current_turn.seat == seat
    if c is None:
        if s.current_turn.phase == Phase.CLOSING:  # C-DIGI-2 f: the turn is over; the others may play or pass
            if seat in s.current_turn.waiting:
                add(Action(seat, "pass"))
        elif active:
            _own_play(s, p, cards, add)
            _own_turn(s, p, cards, add)
    elif c.stage == Stage.PREPARE and seat == c.fighter:
        _fighter(s, p, cards, add)
    elif c.stage == Stage.HELP and seat in c.waiting:  # C-HELP-1: the seat asked offers (its terms) or refuses
        _offers(s, seat, cards, add)
        add(Action(seat, "pass"))
    elif c.stage == Stage.WINDOW and seat in c.waiting:
        _combat_cards(s, p, cards, add)
        add(Action(seat, "pass"))
    elif c.stage == Stage.RUN and c.die:
        if seat in c.waiting:  # C-DIGI-2 c, C-RUN-3: a die changer turns the die just rolled
            for card in dict.fromkeys(p.hand):
                if _has_effect(cards, card, "change_die"):
                    add(Action(seat, "use", (card,)))
            add(Action(seat, "pass"))
        return
    elif c.stage == Stage.RUN and c.waiting:  # C-RUN-3, C-DIGI-2 b: the run-away window, before the rolls
        if seat in c.waiting:
            for card in dict.fromkeys(p.hand):  # a card that affects running, played on the runner
                if _has_effect(cards, card, "escape") or _has_effect(cards, card, "runaway"):
                    add(Action(seat, "use", (card,)))
            add(Action(seat, "pass"))
    elif c.stage == Stage.RUN and c.runners and c.runners[0] == seat:
        _runner(s, p, cards, add)
    _any_moment(s, p, cards, add)


# -- the parts -------------------------------------------------------------------------------------

def _pending(s: ClassicState, seat: int, cards: ClassicSet, add) -> None:
    from_options = _options(s, cards)
    pend = s.decision
    if pend.kind in (PendingKind.CHARITY, PendingKind.BIG_GIFT):
        receivers = charity_receivers(s, cards)
        for card in from_options:
            for to in receivers:
                add(Action(seat, "give", (card, to)))
            if not receivers:
                add(Action(seat, "discard", (card,)))
        return
    for card in dict.fromkeys(from_options):  # a card listed once even if it appears twice
        add(Action(seat, "choose", (card,)))


def _options(s: ClassicState, cards: ClassicSet) -> tuple[str, ...]:
    return pending_options(s, s.decision, cards)


def charity_receivers(s: ClassicState, cards: ClassicSet) -> tuple[int, ...]:
    """C-CHARITY-1, 2: the lowest-level other living players not dead; none when the giver's level
    is the lowest (ties included); the split as even as possible (the fewest gifts so far)."""
    pend = s.decision
    giver = s.players[pend.seat]
    others = [q for q in s.players if q.seat != giver.seat and not q.dead]
    if not others:
        return ()
    low = min(q.level for q in others)
    if giver.level <= low:
        return ()
    group = [q.seat for q in others if q.level == low]
    got = dict(pend.gifts)
    fewest = min(got.get(x, 0) for x in group)
    return tuple(x for x in group if got.get(x, 0) == fewest)


def _own_play(s: ClassicState, p: CPlayer, cards: ClassicSet, add, setup: bool = False) -> None:
    """C-SETUP-5, C-CARD-3, 6, C-ITEM-2: races, classes and items into play; items in and out of
    use; a Cheat! on an item (only outside combat)."""
    seat = p.seat
    for card in dict.fromkeys(p.hand):
        d = cards.card(card)
        if d.kind in (K.RACE, K.CLASS):
            if _may_play_race_class(p, cards, card):
                add(Action(seat, "play", (card,)))
        elif isinstance(d, ClassicTreasureDef) and d.kind == K.ITEM:
            if not d.big or ch.may_add_big(p, cards, s.params):
                add(Action(seat, "play", (card,)))
        elif d.kind == K.CHEAT:
            for it in p.items:
                if not it.cheat:
                    add(Action(seat, "cheat", (card, it.card)))
    packs.own_play_actions(s, p, cards, add)  # C-PACK-5
    for it in p.items:
        if not it.over and (it.in_use or ch.slot_room(p, cards, it.card, s.params)):
            add(Action(seat, "equip", (it.card,)))


def _may_play_race_class(p: CPlayer, cards: ClassicSet, card: str) -> bool:
    """C-CHAR-2, 7, 8: a new card replaces the one in play (its old card is discarded), or joins it
    as the second with a Half-Breed / Super Munchkin; never the same key twice."""
    d = cards.door_card(card)
    group = p.races if d.kind == K.RACE else p.classes
    return d.key not in tuple(cards.door_card(c).key for c in group)


def _own_turn(s: ClassicState, p: CPlayer, cards: ClassicSet, add) -> None:  # noqa: C901
    seat = p.seat
    phase = s.current_turn.phase
    if phase == Phase.KICK:
        add(Action(seat, "kick"))
    elif phase == Phase.TROUBLE:
        for card in dict.fromkeys(p.hand):
            d = cards.card(card)
            if d.kind == K.MONSTER and not cb.is_friendly(s, cards, seat, card):
                add(Action(seat, "fight", (card,)))
        add(Action(seat, "loot"))
    sale = canonical_sale(s, p, cards)
    if sale:
        add(Action(seat, "buy", sale))
    for card in dict.fromkeys(p.hand):
        d = cards.card(card)
        if not isinstance(d, ClassicMonsterDef) and d.kind == K.SPECIAL and d.when == Timing.OWN_TURN:
            e = d.effects[0]
            if e.name == "draw" or (s.door if e.get("deck") == "door" else s.treasure).discard:
                add(Action(seat, "play", (card,)))
    if ch.payable(p) and ch.power(p, cards, "theft") is not None:
        for q in s.players:  # (C-CHAR-3: any card of the hand or in play may be the one discarded)
            for it in q.items if q.seat != seat else ():
                if not cards.treasure_card(it.card).big:
                    for card in ch.payable(p):
                        add(Action(seat, "power", ("theft", card, q.seat, it.card)))
    if p.hand and not s.current_turn.picked and ch.power(p, cards, "pickpocket", s.params) is not None:
        for q in s.players:
            if q.seat != seat and q.hand:
                for card in dict.fromkeys(p.hand):
                    add(Action(seat, "power", ("pickpocket", card, q.seat)))  # C-EPIC-12
    dungeons.portal_actions(s, p, cards, add)  # C-PACK-7
    if phase == Phase.END:
        add(Action(seat, "end_turn"))


def _fighter(s: ClassicState, p: CPlayer, cards: ClassicSet, add) -> None:
    """C-COMBAT-8, C-HELP-1: the main fighter prepares: cards, powers, help, then resolve."""
    seat = p.seat
    c = s.fight
    for card in dict.fromkeys(p.hand) if s.current_turn.seat == seat else ():  # C-COMBAT-12: not off your turn
        d = cards.card(card)
        if d.kind in (K.RACE, K.CLASS) and _may_play_race_class(p, cards, card):
            add(Action(seat, "play", (card,)))  # C-CARD-6: in your own combat too
    _combat_cards(s, p, cards, add)
    enthral = ch.power(p, cards, "enthral")
    if enthral is not None and len(p.hand) >= enthral.number("min_cards"):
        for i in cb.fought(c):
            add(Action(seat, "power", ("enthral", i)))
    pet = ch.power(p, cards, "pet", s.params)
    if pet is not None and not p.pet and not c.played:  # C-EPIC-6: before any card is played on it
        for i in cb.fought(c):
            m = c.monsters[i]
            if not m.enhancers and m.of < 0 and cards.monster_card(m.card).level <= pet.number("max_level"):
                add(Action(seat, "power", ("pet", i)))
    packs.fighter_actions(s, p, cards, add)  # C-EPIC-8, C-PACK-6
    for q in dl.askable(s):  # C-HELP-1: one player at a time, each once until the next window
        add(Action(seat, "ask", (q,)))
    add(Action(seat, "roll"))


def _combat_cards(s: ClassicState, p: CPlayer, cards: ClassicSet, add) -> None:  # noqa: C901
    """C-TURN-6, C-CARD-4, 5, C-HELP-6: one-shots and combat specials for either side, enhancers,
    Wandering Monster, Mate; powers that act in a combat (berserk, undead bane, backstab)."""
    seat = p.seat
    c = s.fight
    fought = cb.fought(c)
    originals = tuple(i for i in fought if c.monsters[i].of < 0)
    for card in dict.fromkeys(p.hand):
        d = cards.card(card)
        kind = d.kind
        if not isinstance(d, ClassicMonsterDef) and (kind == K.ONESHOT or (kind == K.SPECIAL and d.when == Timing.COMBAT)):
            names = tuple(e.name for e in d.effects)
            if not names and d.bonus:
                for side in SIDES:
                    add(Action(seat, "use", (card, side)))
            elif names and names[0] in ("kill", "defeat"):
                top = d.effects[0].number("max_level")
                for i in fought:
                    if cards.monster_card(c.monsters[i].card).level <= top:
                        add(Action(seat, "use", (card, i)))
            elif names and names[0] == "send_away":
                for i in fought:
                    add(Action(seat, "use", (card, i)))
            elif names and names[0] == "end_combat":
                add(Action(seat, "use", (card,)))
        elif kind == K.ENHANCER:
            for i in originals:
                add(Action(seat, "enhance", (card, i)))
        elif kind == K.WANDERING:
            for m in dict.fromkeys(p.hand):
                if cards.card(m).kind == K.MONSTER:
                    add(Action(seat, "wander", (card, m)))
        elif kind == K.MATE:
            for i in originals:
                add(Action(seat, "mate", (card, i)))
    fighting = seat in cb.side(c)
    choices = ch.payable(p)  # C-CHAR-3: the card a power discards is any of the hand or in play
    if choices:
        if fighting:
            keywords = cb.monster_keywords(s, cards)
            for e in ch.powers(p, cards):
                if e.name == "discard_bonus" and (e.get("keyword") == "any" or e.get("keyword") in keywords):
                    used = sum(1 for who, what in c.used if who == seat and what == "discard_bonus")
                    if used < e.number("max_cards"):
                        for card in choices:
                            add(Action(seat, "power", ("discard_bonus", card)))
                    break
        if ch.power(p, cards, "backstab") is not None:
            for victim in cb.side(c):
                if victim != seat and (seat, f"backstab{victim}") not in c.used:
                    for card in choices:
                        add(Action(seat, "power", ("backstab", card, victim)))
        arrows = ch.power(p, cards, "arrows", s.params)
        if arrows is not None and not fighting and sum(w == (seat, "arrows") for w in c.used) < arrows.number("n"):
            for target in ("monsters",) + cb.side(c):
                for card in dict.fromkeys(p.hand):  # (C-EPIC-3: an arrow costs a card of the hand)
                    add(Action(seat, "power", ("arrows", card, target)))  # C-EPIC-3
    if p.pet:  # C-EPIC-6: sacrifice the pet for a munchkin's bonus or as a foe
        for target in cb.side(c) + ("monsters",):
            add(Action(seat, "power", ("sacrifice", target)))


def _offers(s: ClassicState, seat: int, cards: ClassicSet, add) -> None:
    """C-HELP-1, 3, C-DIGI-3: an offer of help, asked or not (mq.classic.deals.may_offer), on terms:
    a share of the Treasure picked in an order, an item (steed, hireling) of the fighter's, or both."""
    c = s.fight
    if dl.may_offer(c, seat):  # (C-HELP-7: an abstainer offers no help)
        for share, order, item in dl.terms(_at_stake(s, cards), dl.tradeable(s.players[c.fighter])):
            add(Action(seat, "offer", (share, order, item)))


def _at_stake(s: ClassicState, cards: ClassicSet) -> int:
    """The Treasure of the monsters still fought: what a share is of (C-HELP-3)."""
    return sum(cb.monster_treasure(s, cards, i) for i in cb.fought(s.fight))


def _runner(s: ClassicState, p: CPlayer, cards: ClassicSet, add) -> None:
    """C-RUN-1..3: the runner's one-shots and powers for running, then a roll per monster in the
    order the runner chooses."""
    seat = p.seat
    c = s.fight
    for card in dict.fromkeys(p.hand):
        d = cards.card(card)
        if d.kind == K.ONESHOT and any(e.name in ("escape", "runaway") for e in d.effects):
            add(Action(seat, "use", (card,)))
    for it in p.items:
        if any(e.name == "escape" for e in cards.treasure_card(it.card).use):
            add(Action(seat, "use", (it.card,)))
    packs.runner_actions(s, p, cards, add)  # C-PACK-5
    boost = ch.power(p, cards, "escape_boost")
    if boost is not None and ch.payable(p):
        used = sum(1 for who, what in c.used if who == seat and what == "escape_boost")
        if used < boost.number("max_cards"):
            for card in ch.payable(p):  # C-CHAR-3
                add(Action(seat, "power", ("escape_boost", card)))
    for i in cb.to_escape(c):
        add(Action(seat, "escape", (i,)))


def _any_moment(s: ClassicState, p: CPlayer, cards: ClassicSet, add) -> None:  # noqa: C901
    """C-TURN-6: go up a level (C-CARD-3), curses on anyone (C-CARD-8), Half-Breed and Super
    Munchkin (C-CHAR-7/8), specials marked anytime, dropping a race or class card (C-CHAR-2),
    showing the hand to someone (C-ITEM-10)."""
    seat = p.seat
    win = s.params.win_level
    _deals(s, p, cards, add)
    c = s.combat
    # C-COMBAT-12: a main fighter off their own turn puts no card from hand into play
    into_play = not (c is not None and c.fighter == seat and s.current_turn.seat != seat)
    for card in dict.fromkeys(p.hand):
        d = cards.card(card)
        if d.kind == K.LEVEL:
            if p.level < win - 1:
                add(Action(seat, "play", (card,)))
        elif d.kind == K.CURSE:
            for victim in range(len(s.players)):
                add(Action(seat, "curse", (card, victim)))
        elif d.kind == K.HALFBREED:
            if p.races and not p.halfbreed and into_play:
                add(Action(seat, "play", (card,)))
        elif d.kind == K.SUPERMUNCHKIN:
            if p.classes and not p.supermunchkin and into_play:
                add(Action(seat, "play", (card,)))
        elif not isinstance(d, ClassicMonsterDef) and d.kind == K.SPECIAL and d.effects[0].name == "send_monster":
            if c is None and s.phase == Phase.PLAY and s.door.draw + s.door.discard:
                for q in s.players:  # (C-COMBAT-12: someone whose turn it is not)
                    if q.seat not in (seat, s.current_turn.seat) and not q.dead:
                        add(Action(seat, "play", (card, q.seat)))
        elif not isinstance(d, ClassicMonsterDef) and d.kind == K.SPECIAL and d.when == Timing.ANYTIME \
                and d.effects[0].name == "level_up_all":
            add(Action(seat, "play", (card,)))
    if s.combat is None:  # C-ITEM-6: items in play given on any turn, never in combat
        packs.give_actions(s, p, cards, add)  # C-PACK-5: steeds and hirelings too
        for it in p.items:
            for q in s.players if not it.over else ():
                if q.seat != seat and (not cards.treasure_card(it.card).big or it.cheat or ch.may_add_big(q, cards, s.params)):
                    add(Action(seat, "give", (it.card, q.seat)))
        trades.actions(s, p, cards, add)  # C-ITEM-6: trades too
    prayer = ch.power(p, cards, "prayer", s.params)
    if prayer is not None and len(ch.payable(p)) >= prayer.number("discards"):
        for pair in _pairs(ch.payable(p)):  # C-EPIC-11: two cards of your choice, hand and/or play
            add(Action(seat, "power", ("prayer",) + pair))
    for card in p.races + p.classes:
        add(Action(seat, "discard", (card,)))
    if p.hand:  # C-ITEM-10: show the hand to another player
        for q in s.players:
            if q.seat != seat and q.seat not in p.shown:
                add(Action(seat, "reveal", (q.seat,)))


def _deals(s: ClassicState, p: CPlayer, cards: ClassicSet, add) -> None:
    """C-DIGI-3, C-HELP-1, 3, 7 (mq.classic.deals): in a combat before its outcome, answering the
    offers made to you (accepting only while they still hold); offering help unasked (not in a
    window: the fighter answers there only what was played); the main fighter's terms for
    another's help (a share picked in an order, a card in play, or both), and an item in play
    from anyone off the munchkin side for another's not helping.  One offer per pair of seats a
    combat (our rule: deals end)."""
    c = s.combat
    if c is None or c.stage not in dl.OPEN_STAGES:
        return
    seat = p.seat
    if c.stage != Stage.WINDOW and not (c.stage == Stage.HELP and seat in c.waiting):
        _offers(s, seat, cards, add)
    for d in dl.open_to(c, seat):
        if dl.valid(s, d):
            add(Action(seat, "accept", ("deal", d.by)))
        add(Action(seat, "decline", ("deal", d.by)))
    mine = dl.tradeable(p)
    side = cb.side(c)
    for q in s.players:
        y = q.seat
        if y == seat or (seat, y) in c.dealt or not dl.may_help(c, y):
            continue
        if seat == c.fighter:
            for share, order, item in dl.terms(_at_stake(s, cards), mine):
                if share or item:  # (help for nothing is asked, not dealt)
                    add(Action(seat, "deal", (y, DealKind.HELP, item, share, order)))
        elif seat not in side:
            for item in mine:
                add(Action(seat, "deal", (y, DealKind.ABSTAIN, item)))


# The arguments of a power action that name the cards it discards (C-CHAR-3: any card of the hand,
# the player's choice, so legal_actions lists each card there); None: as many as the action names
# (a ranger's taming, mq.classic.packs.discards: listed with the hand's first cards, and is_legal
# accepts any cards of the hand, canonical_power).
DISCARD_ARGS = {"discard_bonus": 1, "backstab": 1, "theft": 1, "escape_boost": 1, "arrows": 1, "pickpocket": 1,
                "dodge": 1, "prayer": 2, "tame": None}


def canonical_power(s: ClassicState, action: Action) -> Action | None:
    """The listed form of a power action naming any cards of the seat's hand to discard (None when
    they are not distinct cards of that hand)."""
    n = DISCARD_ARGS.get(action.text(0) if action.args else "", 0)
    if n is None:
        n = packs.discards(action)
    named = action.args[1:1 + n]
    hand = list(s.players[action.seat].hand) if 0 <= action.seat < len(s.players) else []
    for card in named:
        if card not in hand:
            return None
        hand.remove(card)
    listed = s.players[action.seat].hand[:n]
    return Action(action.seat, action.kind, action.args[:1] + listed + action.args[1 + n:])


def _pairs(hand: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Every two cards of a hand, each pair once, in hand order (card ids are unique)."""
    return tuple((a, b) for i, a in enumerate(hand) for b in hand[i + 1:])


def _has_effect(cards: ClassicSet, card: str, name: str) -> bool:
    d = cards.card(card)
    return d.kind in (K.ONESHOT, K.SPECIAL) and any(e.name == name for e in d.effects)


# -- selling (C-ITEM-7) ----------------------------------------------------------------------------

def sellable(p: CPlayer, cards: ClassicSet) -> tuple[str, ...]:
    """Items of value in hand and in play (C-ITEM-7: hand items may be sold in this mode)."""
    hand = tuple(c for c in p.hand if ch.is_item(cards, c) and cards.treasure_card(c).value > 0)
    return hand + tuple(it.card for it in p.items if cards.treasure_card(it.card).value > 0 and not it.fresh)


def sale_levels(s: ClassicState, p: CPlayer, cards: ClassicSet, sold: tuple[str, ...]) -> tuple[int, int]:
    """(gold, levels) of a sale: a halfling doubles the most valuable item once per turn (C-CHAR-4);
    no change; never the winning level (C-LAW-2)."""
    values = sorted((dungeons.sale_value(s, cards, cards.treasure_card(c).value) for c in sold), reverse=True)
    n = ch.double_sale(p, cards, s.params) - (s.turn.doubled if s.turn is not None else 0)
    if n > 0:
        values = [v * 2 for v in values[:n]] + values[n:]
    gold = sum(values)
    return gold, min(gold // SALE, max(0, s.params.win_level - 1 - p.level))


def canonical_sale(s: ClassicState, p: CPlayer, cards: ClassicSet) -> tuple[str, ...]:
    """The sale listed among the legal actions: every item of value in hand, when it buys a level."""
    hand = tuple(c for c in p.hand if ch.is_item(cards, c) and cards.treasure_card(c).value > 0)
    if hand and sale_levels(s, p, cards, hand)[1] >= 1:
        return hand
    return ()


def valid_sale(s: ClassicState, seat: int, cards: ClassicSet, sold: tuple) -> bool:
    """C-ITEM-7: on your own turn outside combat, distinct items of value you hold, buying a level."""
    if (s.phase in (Phase.SETUP, Phase.OVER) or s.pending is not None or s.curse is not None or s.queue
            or s.bodies or s.combat is not None or s.current_turn.seat != seat or not sold):
        return False
    if any(type(c) is not str for c in sold) or len(set(sold)) != len(sold):
        return False
    p = s.players[seat]
    if not set(sold) <= set(sellable(p, cards)):
        return False
    return sale_levels(s, p, cards, sold)[1] >= 1
