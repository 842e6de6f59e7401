"""``step``: check an action against mq.classic.legal, run its handler, then ``flow.settle``.

Every handler assumes its action is legal (``step`` checked it) and changes only the Tx; an
illegal action raises IllegalAction with a reason code and leaves the state as it was: the engine
is the referee (C-DIGI-1).  Cards resolve in the order played, the log's (C-CARD-7)."""
from __future__ import annotations

from mq.cards.classic_defs import ClassicSet
from mq.cards.classic_vocab import FOLLOWERS, K
from mq.classic import character as ch
from mq.classic import combat as cb
from mq.classic import deals as dl
from mq.classic import dungeons, flow, legal, packs, picks, trades
from mq.classic import effects as fx
from mq.classic import pack_effects as pfx
from mq.classic.state import CItem, ClassicState, CMonster, Deal, DealKind, Out, Pending, PendingKind, Phase, Stage
from mq.classic.tx import DOOR, TREASURE, Tx
from mq.rules.actions import Action
from mq.rules.errors import IllegalAction


def is_legal(s: ClassicState, action: Action, cards: ClassicSet) -> bool:
    if action.kind == "buy":
        return legal.valid_sale(s, action.seat, cards, action.args)
    if action.kind == trades.TRADE:  # C-ITEM-6: any number of items each side (one for one listed)
        t = trades.parse(action)
        return t is not None and trades.may_offer(s, t, cards)
    if action.kind == "power" and action.args and action.args[0] in legal.DISCARD_ARGS \
            and legal.DISCARD_ARGS[action.args[0]] is None:  # (a discard of as many cards as named)
        listed = legal.canonical_power(s, action)
        return listed is not None and listed in legal.legal_actions(s, action.seat, cards)
    return action in legal.legal_actions(s, action.seat, cards)


def step(s: ClassicState, action: Action, cards: ClassicSet) -> tuple[ClassicState, tuple]:
    if not is_legal(s, action, cards):
        raise IllegalAction(_reason(s, action), str(action))
    tx = Tx(s, cards)
    HANDLERS[action.kind](tx, action)
    flow.settle(tx)
    trades.lapse(tx)  # C-ITEM-6: an offer whose items left play, or made before a combat, lapses
    return tx.commit(), tuple(tx.events)


# Kinds whose first argument is a card of the acting seat's hand.
_FROM_HAND = ("play", "fight", "curse", "enhance", "wander", "mate", "cheat")


def _reason(s: ClassicState, action: Action) -> str:
    """The reason code of a refused action (mq.rules.errors.REASONS, shared with Quest)."""
    seat = action.seat
    if s.phase == Phase.OVER:
        return "game/over"
    if not 0 <= seat < len(s.players):
        return "seat/unknown"
    if action.kind not in HANDLERS:
        return "action/unknown"
    if s.pending is not None:
        return "choice/invalid" if s.pending.seat == seat else "seat/not-your-turn"
    if s.curse is not None and seat not in s.curse.waiting:
        return "seat/not-your-turn"
    if s.combat is not None and dl.abstains(s.combat, seat) and action.kind == "offer":
        return "help/abstains"  # C-HELP-7: the engine refuses the abstainer's help offers
    if action.kind == "buy":
        return "buy/not-enough"
    if action.kind == trades.TRADE:
        return "combat/in-combat" if s.combat is not None else "trade/invalid"
    if action.kind in _FROM_HAND and (not action.args or action.args[0] not in s.players[seat].hand):
        return "card/not-in-hand"
    if s.combat is not None and action.kind in ("equip", "kick", "loot", "end_turn", "cheat"):
        return "combat/in-combat"
    if s.turn is not None and s.turn.seat != seat and seat not in _reactors(s):
        return "seat/not-your-turn"
    return "phase/wrong"


def _reactors(s: ClassicState) -> tuple[int, ...]:
    c = s.combat
    if c is None:
        return ()
    return c.waiting + c.runners[:1] + (c.fighter,)


# -- handlers --------------------------------------------------------------------------------------

def _take(tx: Tx, seat: int, card: str) -> None:
    """Take ``card`` out of ``seat``'s hand (the first copy)."""
    hand = tx.player(seat).hand
    i = hand.index(card)
    tx.set_player(seat, hand=hand[:i] + hand[i + 1:])


def h_ready(tx: Tx, a: Action) -> None:
    tx.set_player(a.seat, ready=True)  # C-SETUP-5


def h_play(tx: Tx, a: Action) -> None:
    seat, card = a.seat, a.text(0)
    d = tx.cards.card(card)
    p = tx.player(seat)
    _take(tx, seat, card)
    if d.kind in (K.RACE, K.CLASS):
        # C-CHAR-2, 7, 8: replaces the card in play, or joins it with a Half-Breed / Super Munchkin
        group, extra = (p.races, p.halfbreed) if d.kind == K.RACE else (p.classes, p.supermunchkin)
        if group and not (extra and len(group) == 1):
            fx.drop_race_or_class(tx, seat, group[-1], "replaced")
            p = tx.player(seat)
            group = p.races if d.kind == K.RACE else p.classes
        field = "races" if d.kind == K.RACE else "classes"
        tx.set_player(seat, **{field: group + (card,)})
        tx.event("played", seat, card, d.kind, "")
        fx.keep_pet(tx, seat)  # a race card: no longer human (C-EPIC-6)
        if tx.combat is not None:
            cb.auto_out(tx)
    elif d.kind == K.ITEM:
        # C-ITEM-2: in use at once when its slot is free
        tx.set_player(seat, items=p.items + (CItem(card, ch.slot_room(p, tx.cards, card, tx.params)),))
        tx.event("played", seat, card, d.kind, "")
    elif d.kind == K.LEVEL:
        tx.discard(card)  # C-CARD-3: never the winning level
        tx.event("played", seat, card, d.kind, "")
        fx.gain_levels(tx, seat, 1, "card")
    elif d.kind in FOLLOWERS:  # C-PACK-5
        packs.put_into_play(tx, seat, card, a.text(1) if len(a.args) > 1 else d.kind)
    elif d.kind in (K.HALFBREED, K.SUPERMUNCHKIN):
        tx.set_player(seat, **{"halfbreed" if d.kind == K.HALFBREED else "supermunchkin": card})
        tx.event("played", seat, card, d.kind, "")
    elif d.kind == K.PORTAL:  # C-PACK-7
        dungeons.open_portal(tx, seat, card, "play")
    else:
        _special(tx, seat, card, a.number(1) if len(a.args) > 1 else -1)


def _special(tx: Tx, seat: int, card: str, target: int = -1) -> None:
    """A Door or Treasure special out of combat: draw, search a discard pile, level up everyone of
    a class (C-LAW-2: this card may give the winning level)."""
    e = tx.cards.card(card).effects[0]
    tx.event("played", seat, card, K.SPECIAL, str(target) if target >= 0 else "")
    if e.name == "search_discards":  # the card joins the pile after the choice, not before it
        tx.pending = Pending(PendingKind.SEARCH, seat, 1, card)
        return
    tx.discard(card)
    if e.name == "draw":
        for _ in range(e.number("n")):
            fx.draw_to_hand(tx, seat, e.text("deck"))
    elif e.name == "send_monster":  # C-COMBAT-12: a combat outside the fighter's own turn
        drawn = tx.draw(DOOR)
        if drawn is None:
            return
        if tx.cards.card(drawn).kind == K.MONSTER and not cb.is_friendly(tx, tx.cards, target, drawn):
            cb.start(tx, target, drawn, "sent", by=seat)
        else:
            tx.set_player(target, hand=tx.player(target).hand + (drawn,))
            tx.event("draw", target, DOOR, drawn, True)
    elif e.name == "level_up_all":
        for q in tx.players:
            if e.get("who") in ch.who(q, tx.cards):
                fx.gain_levels(tx, q.seat, 1, "card", may_win=True)
        if tx.winners:
            tx.event("game_won", tx.winners)
            tx.phase = Phase.OVER
    else:
        raise NotImplementedError(f"the Classic engine has no code for the special {e.name!r}")


def h_equip(tx: Tx, a: Action) -> None:
    """C-ITEM-2: an item in play into use or out of it (outside combat only)."""
    seat, card = a.seat, a.text(0)
    p = tx.player(seat)
    items = tuple(it.replace(in_use=not it.in_use) if it.card == card else it for it in p.items)
    tx.set_player(seat, items=items)
    tx.event("equip", seat, card, next(it.in_use for it in items if it.card == card))


def h_cheat(tx: Tx, a: Action) -> None:
    """C-ITEM-5: the Cheat! card goes on an item of yours in play."""
    seat, card, item = a.seat, a.text(0), a.text(1)
    _take(tx, seat, card)
    p = tx.player(seat)
    tx.set_player(seat, items=tuple(it.replace(cheat=card, in_use=True) if it.card == item else it
                                    for it in p.items))
    tx.event("played", seat, card, K.CHEAT, item)


def h_discard(tx: Tx, a: Action) -> None:
    seat, card = a.seat, a.text(0)
    pend = tx.pending
    if pend is not None and pend.kind == PendingKind.CHARITY:
        fx.discard_from_hand(tx, seat, card, "charity")  # C-CHARITY-2
        tx.event("charity", seat, -1, card)
        _charity_done(tx)
        return
    if pend is not None and pend.kind == PendingKind.BIG_GIFT:  # C-ITEM-4, as C-CHARITY-2
        fx.discard_item(tx, seat, card, "charity")
        tx.event("charity", seat, -1, card)
        _charity_done(tx)
        return
    fx.drop_race_or_class(tx, seat, card, "dropped")  # C-CHAR-2


def h_give(tx: Tx, a: Action) -> None:
    """C-CHARITY-1, 3: a card face-down to one of the lowest-level players; outside charity, an
    item in play to another player (C-ITEM-6)."""
    seat, card, to = a.seat, a.text(0), a.number(1)
    if tx.pending is None and card in (tx.player(seat).steed, tx.player(seat).hireling):
        packs.give(tx, seat, card, to)  # C-PACK-5: they trade like items
        return
    if tx.pending is None:
        item = fx.remove_item(tx, seat, card)
        tx.set_player(to, items=tx.player(to).items + (item.replace(in_use=False, fresh=True),))
        tx.event("gift", seat, to, card)
        return
    if tx.pending.kind == PendingKind.BIG_GIFT:  # C-ITEM-4: a big item given up, as charity gives cards
        fx.remove_item(tx, seat, card)
    else:
        _take(tx, seat, card)
    tx.set_player(to, hand=tx.player(to).hand + (card,))
    tx.event("charity", seat, to, card)
    gifts = dict(tx.pending.gifts)
    gifts[to] = gifts.get(to, 0) + 1
    tx.pending = tx.pending.replace(gifts=tuple(sorted(gifts.items())))
    _charity_done(tx)


def _charity_done(tx: Tx) -> None:
    n = tx.decision.n - 1
    if n > 0:
        tx.pending = tx.decision.replace(n=n)
        return
    kind, tx.pending = tx.decision.kind, None
    if kind == PendingKind.CHARITY:  # (the big items of C-ITEM-4 are given on any turn)
        flow.close_turn(tx)


def h_reveal(tx: Tx, a: Action) -> None:
    """C-ITEM-10: the hand shown to another player, who sees it (new cards too) until the turn ends."""
    seat, to = a.seat, a.number(0)
    p = tx.player(seat)
    tx.set_player(seat, shown=tuple(sorted(p.shown + (to,))))
    tx.event("reveal", seat, to, p.hand)


def h_kick(tx: Tx, a: Action) -> None:
    """C-TURN-2, 3: the top Door face-up: a monster is fought (unless friendly to you), a curse hits
    you, anything else goes to your hand."""
    seat = a.seat
    card = tx.draw(DOOR)
    if card is None:  # C-SETUP-2: nothing to draw: as if nothing was met
        tx.set_turn(phase=Phase.TROUBLE)
        return
    tx.event("kick", seat, card)
    d = tx.cards.card(card)
    tx.set_turn(phase=Phase.TROUBLE)
    if d.kind == K.MONSTER and not cb.is_friendly(tx, tx.cards, seat, card):
        tx.set_turn(phase=Phase.END)
        cb.start(tx, seat, card, "kick")
    elif d.kind == K.CURSE:
        flow.cast_curse(tx, card, -1, seat)
    elif d.kind == K.PORTAL:  # C-PACK-7: resolved at once
        dungeons.open_portal(tx, seat, card, "kick")
    else:
        if d.kind == K.MONSTER:
            tx.event("friendly", seat, card)
        tx.set_player(seat, hand=tx.player(seat).hand + (card,))
        tx.event("draw", seat, DOOR, card, True)


def h_fight(tx: Tx, a: Action) -> None:
    """C-TURN-3: look for trouble with a monster from your hand."""
    seat, card = a.seat, a.text(0)
    _take(tx, seat, card)
    tx.set_turn(phase=Phase.END)
    cb.start(tx, seat, card, "trouble")


def h_loot(tx: Tx, a: Action) -> None:
    """C-TURN-4: no monster met: one Door card face-down."""
    tx.set_turn(phase=Phase.END)
    fx.draw_to_hand(tx, a.seat, DOOR)


def h_buy(tx: Tx, a: Action) -> None:
    """C-ITEM-7: items sold for levels; no change; never the winning level."""
    seat, sold = a.seat, a.texts()
    s = tx.commit()
    gold, levels = legal.sale_levels(s, s.players[seat], tx.cards, sold)
    double = ch.double_sale(tx.player(seat), tx.cards, tx.params)
    if double:
        tx.set_turn(doubled=min(double, tx.current_turn.doubled + len(sold)))
    for card in sold:
        if card in tx.player(seat).hand:
            fx.discard_from_hand(tx, seat, card, "sold")
        else:
            fx.discard_item(tx, seat, card, "sold")
    tx.event("sell", seat, tuple(sold), gold, levels)
    fx.gain_levels(tx, seat, levels, "sale")


def h_end_turn(tx: Tx, a: Action) -> None:
    flow.end_turn(tx)


def h_curse(tx: Tx, a: Action) -> None:
    seat, card, victim = a.seat, a.text(0), a.number(1)
    _take(tx, seat, card)
    flow.card_in_window(tx)
    flow.cast_curse(tx, card, seat, victim)


def h_use(tx: Tx, a: Action) -> None:
    """One-shots (C-CARD-4), combat specials, cancelling a curse (C-CARD-8), running (C-RUN-3)."""
    seat, card = a.seat, a.text(0)
    target = a.args[1] if len(a.args) > 1 else ""
    if tx.curse is not None:  # C-CARD-8: cancelled in its window
        _take(tx, seat, card)
        tx.discard(card)
        tx.discard(tx.curse.card)
        tx.event("curse_cancelled", tx.curse.card, seat, card)
        tx.curse = None
        return
    c = tx.fight
    in_hand = card in tx.player(seat).hand
    d = tx.cards.playable_card(card)
    if c.stage == Stage.RUN and c.die:  # C-RUN-3: the die just rolled is turned; all pass again
        _take(tx, seat, card)
        tx.discard(card)
        roll = d.effects[0].number("to")
        tx.event("die_changed", seat, card, roll)
        tx.set_combat(die=(c.die[0], roll), waiting=tuple(range(len(tx.players))))
        return
    if c.stage == Stage.RUN and card == tx.player(seat).hireling:  # C-PACK-5: sacrificed to run
        packs.sacrifice(tx, seat)
        return
    if c.stage == Stage.RUN:  # cards on the runner: their own, or another's in the run-away window (C-RUN-3)
        runner = c.runners[0]
        if in_hand:
            _take(tx, seat, card)
            tx.discard(card)
        else:
            fx.discard_item(tx, seat, card, "used")
        effects = d.effects if in_hand else tx.cards.treasure_card(card).use
        tx.event("played", seat, card, d.kind, "run" if seat == runner else f"run{runner}")
        for e in effects:
            if e.name == "escape":
                cb.escape_all(tx, runner)
            elif e.name == "runaway":
                tx.set_combat(boost=tx.fight.boost + e.number("amount"))
        flow.card_in_window(tx)
        return
    _take(tx, seat, card)
    tx.set_combat(played=c.played + ((seat, card),))
    tx.event("played", seat, card, d.kind, str(target))
    names = tuple(e.name for e in d.effects)
    if not names:
        if target == "munchkins":
            tx.set_combat(munchkin_bonus=tx.fight.munchkin_bonus + d.bonus)
        else:
            tx.set_combat(monster_bonus=tx.fight.monster_bonus + d.bonus)
    elif names[0] == "kill":
        cb.take_out(tx, a.number(1), Out.KILLED)
    elif names[0] == "defeat":
        cb.take_out(tx, a.number(1), Out.DEFEATED)
    elif names[0] == "send_away":
        cb.take_out(tx, a.number(1), Out.AWAY)
    elif names[0] == "end_combat":
        flow.card_in_window(tx)
        cb.no_result(tx)
        return
    flow.card_in_window(tx)


def h_enhance(tx: Tx, a: Action) -> None:
    """C-COMBAT-6: an enhancer on one monster (its Mate shares it)."""
    seat, card, i = a.seat, a.text(0), a.number(1)
    _take(tx, seat, card)
    m = tx.fight.monsters[i]
    ms = tx.fight.monsters
    tx.set_combat(monsters=ms[:i] + (m.replace(enhancers=m.enhancers + (card,)),) + ms[i + 1:])
    tx.event("played", seat, card, K.ENHANCER, str(i))
    flow.card_in_window(tx)


def h_wander(tx: Tx, a: Action) -> None:
    """C-COMBAT-5: a Wandering Monster brings a monster from your hand into the combat."""
    seat, card, monster = a.seat, a.text(0), a.text(1)
    _take(tx, seat, card)
    _take(tx, seat, monster)
    tx.discard(card)
    tx.event("played", seat, card, K.WANDERING, monster)
    cb.add_monster(tx, CMonster(monster), "wander", seat)
    flow.card_in_window(tx)


def h_mate(tx: Tx, a: Action) -> None:
    """C-COMBAT-5: a Mate, a copy of a monster with its level, text, Treasure and enhancers."""
    seat, card, i = a.seat, a.text(0), a.number(1)
    _take(tx, seat, card)
    tx.event("played", seat, card, K.MATE, str(i))
    cb.add_monster(tx, CMonster(tx.fight.monsters[i].card, mate=card, of=i), "mate", seat)
    flow.card_in_window(tx)


def h_power(tx: Tx, a: Action) -> None:  # noqa: C901
    """Race and class powers (C-CHAR-5): berserk and undead bane, backstab, enthral, escape boost,
    theft."""
    seat, name = a.seat, a.text(0)
    p = tx.player(seat)
    if name in packs.POWERS:  # the packs' races and classes (C-PACK-2, 3, 4, 6)
        packs.apply(tx, a)
        return
    if name == "pet":  # C-EPIC-6: the monster becomes the epic human's pet, no reward
        i = a.number(1)
        cb.take_out(tx, i, Out.PET)
        tx.set_player(seat, pet=tx.fight.monsters[i].card)
        tx.event("power", seat, name, str(i))
        return
    if name == "sacrifice":  # C-EPIC-6: a bonus of its printed level to one munchkin, or a foe
        target, pet = a.args[1], p.pet
        tx.set_player(seat, pet="")
        tx.event("power", seat, name, str(target))
        if target == "monsters":
            cb.add_monster(tx, CMonster(pet), "pet", seat)
        else:
            tx.discard(pet)
            tx.set_combat(extra=tx.fight.extra + ((target, tx.cards.monster_card(pet).level),))
        flow.card_in_window(tx)
        return
    if name == "enthral":  # discard the whole hand: one monster defeated, no levels (C-COMBAT-7)
        for card in p.hand:
            fx.discard_from_hand(tx, seat, card, "power")
        tx.event("power", seat, name, str(a.args[1]))
        cb.take_out(tx, a.number(1), Out.DEFEATED)
        return
    fx.discard_paid(tx, seat, a.text(1), "power")  # C-CHAR-3: from the hand or from play
    if name == "prayer":  # C-EPIC-11: two cards for a Treasure face-down
        fx.discard_paid(tx, seat, a.text(2), "power")
        tx.event("power", seat, name, "")
        fx.draw_to_hand(tx, seat, TREASURE)
        return
    if name == "discard_bonus":
        best = max((e.number("amount") for e in ch.powers(p, tx.cards) if e.name == "discard_bonus" and (
            e.get("keyword") == "any" or e.get("keyword") in cb.monster_keywords(tx, tx.cards))))
        tx.set_combat(extra=tx.fight.extra + ((seat, best),), used=tx.fight.used + ((seat, name),))
        tx.event("power", seat, name, str(best))
        flow.card_in_window(tx)
    elif name == "backstab":
        victim = a.number(2)
        amount = ch.own_power(p, tx.cards, "backstab").number("amount")
        tx.set_combat(extra=tx.fight.extra + ((victim, amount),),
                      used=tx.fight.used + ((seat, f"backstab{victim}"),))
        tx.event("power", seat, name, str(victim))
        flow.card_in_window(tx)
    elif name == "escape_boost":
        amount = ch.own_power(p, tx.cards, "escape_boost").number("amount")
        tx.set_combat(boost=tx.fight.boost + amount, used=tx.fight.used + ((seat, name),))
        tx.event("power", seat, name, str(amount))
    elif name == "theft":  # C-ITEM-9: items change hands only by powers and cards
        victim, item = a.number(2), a.text(3)
        need = ch.own_power(p, tx.cards, "theft").number("roll")
        roll = tx.d6()
        stolen = roll >= need
        tx.event("theft", seat, victim, item, roll, stolen)
        if stolen:
            taken = fx.remove_item(tx, victim, item)
            tx.set_player(seat, items=tx.player(seat).items + (taken.replace(in_use=False),))
            fx.fit_big_items(tx, seat)
        else:
            fx.lose_levels(tx, seat, 1, "theft")
    elif name == "arrows":  # C-EPIC-3: -2 to the monsters or to one munchkin, a card an arrow
        amount = ch.own_power(p, tx.cards, "arrows", tx.params).number("amount")
        target = a.args[2]
        if target == "monsters":
            tx.set_combat(monster_bonus=tx.fight.monster_bonus + amount)
        else:
            tx.set_combat(extra=tx.fight.extra + ((target, amount),))
        tx.set_combat(used=tx.fight.used + ((seat, name),))
        tx.event("power", seat, name, str(target))
        flow.card_in_window(tx)
    elif name == "pickpocket":  # C-EPIC-12: a random card of another's hand (the engine's RNG)
        victim = a.number(2)
        hand = tx.player(victim).hand
        picked = hand[tx.below(len(hand))]
        i = hand.index(picked)
        tx.set_player(victim, hand=hand[:i] + hand[i + 1:])
        tx.set_player(seat, hand=tx.player(seat).hand + (picked,))
        tx.set_turn(picked=True)
        tx.event("power", seat, name, str(victim))
    elif name == "dodge":  # C-EPIC-9: a run-away roll, 5+, cancels the curse on you
        roll = tx.d6()
        need = cb.RUN_NEEDED - ch.runaway(p, tx.cards)
        tx.event("escape", seat, tx.casting.card, roll, need, roll >= need)
        if roll >= need:
            tx.discard(tx.casting.card)
            tx.event("curse_cancelled", tx.casting.card, seat, "")
            tx.curse = None
    else:
        raise NotImplementedError(f"the Classic engine has no code for the power {name!r}")


def h_ask(tx: Tx, a: Action) -> None:
    """C-HELP-1: the main fighter asks one player, who accepts with an offer, answers with a deal
    or refuses (a pass); the fighter may then ask the next one (mq.classic.deals.askable)."""
    to = a.number(0)
    tx.set_combat(stage=Stage.HELP, asked=tx.fight.asked + (to,), waiting=(to,))
    tx.event("asks_help", a.seat, to)


def h_offer(tx: Tx, a: Action) -> None:
    """C-HELP-1, 3, C-DIGI-3: help offered to the main fighter, asked or unasked (once a combat),
    for a share of the Treasure picked in an order and an item of the fighter's; it binds once
    the fighter accepts it (mq.classic.deals)."""
    c = tx.fight
    if not (c.stage == Stage.HELP and a.seat in c.waiting):
        tx.set_combat(dealt=c.dealt + ((a.seat, c.fighter),))
    dl.propose(tx, Deal(a.seat, c.fighter, DealKind.HELPER, a.text(2), share=a.number(0), order=a.text(1)))


def h_accept(tx: Tx, a: Action) -> None:
    """C-HELP-1, 3: a deal offered binds (mq.classic.deals): a helper joins at once (an answered
    call for help is over), and in a last-chance window everyone may answer the new side; or a
    trade offered is carried out (C-ITEM-6)."""
    if a.args[0] == trades.TRADE:
        trades.accept(tx, a.number(1), a.seat)
        return
    d = dl.accept(tx, a.number(1), a.seat)
    h = dl.helper(d)
    if h >= 0:
        cb.join(tx, h, d)
        if tx.fight.stage == Stage.HELP:  # the call for help is answered
            tx.set_combat(stage=Stage.PREPARE, waiting=())
        flow.card_in_window(tx)


def h_deal(tx: Tx, a: Action) -> None:
    """C-DIGI-3: an offer of a deal to one seat (mq.classic.deals): the fighter's terms for help
    (its item passing only on a win, our rule), or an item for abstaining."""
    to, what = a.number(0), a.text(1)
    tx.set_combat(dealt=tx.fight.dealt + ((a.seat, to),))
    d = Deal(a.seat, to, what, a.text(2), won_only=what == DealKind.HELP)
    dl.propose(tx, d.replace(share=a.number(3), order=a.text(4)) if what == DealKind.HELP else d)


def h_decline(tx: Tx, a: Action) -> None:
    if a.args[0] == trades.TRADE:  # C-ITEM-6
        trades.decline(tx, a.number(1), a.seat)
        return
    d = dl.take_back(tx, a.number(1), a.seat)
    tx.event("deal_declined", d.by, d.to)


def h_pass(tx: Tx, a: Action) -> None:
    if tx.claim is not None and tx.claim.open:  # C-EPIC-14: no claim
        tx.claim = tx.claim.replace(waiting=tuple(x for x in tx.claim.waiting if x != a.seat))
        tx.event("pass", a.seat, "claim", False)
        return
    if tx.curse is not None:
        tx.curse = tx.curse.replace(waiting=tuple(x for x in tx.curse.waiting if x != a.seat))
        tx.event("pass", a.seat, "curse", False)
        return
    if tx.combat is None:  # C-DIGI-2 f: the turn-end window (legal offers a pass only there)
        tx.set_turn(waiting=tuple(x for x in tx.current_turn.waiting if x != a.seat))
        tx.event("pass", a.seat, Phase.CLOSING, False)
        return
    c = tx.fight
    tx.set_combat(waiting=tuple(x for x in c.waiting if x != a.seat))
    tx.event("pass", a.seat, c.stage, False)


def h_roll(tx: Tx, a: Action) -> None:
    flow.open_window(tx)  # C-COMBAT-8: resolve


def h_escape(tx: Tx, a: Action) -> None:
    cb.roll_escape(tx, a.number(0))


def h_choose(tx: Tx, a: Action) -> None:
    """A pending decision (C-DIGI-5): the item or hand card lost, the body's card, the discard."""
    pend = tx.decision
    seat, card = a.seat, a.text(0)
    if pend.kind == PendingKind.LUCK:  # C-PACK-4: one Treasure drawn for the combat discarded
        pfx.choose_luck(tx, card)
        return
    if pend.kind == PendingKind.PORTAL:  # C-PACK-7: join or replace
        dungeons.choose(tx, card)
        return
    if pend.kind == PendingKind.PICK:  # C-HELP-3: a helped win's Treasure, as the deal says
        picks.choose(tx, card)
        return
    if pend.kind == PendingKind.LOSE_ITEM:
        fx.discard_item(tx, seat, card, "lost")
        tx.event("lost", seat, card, "item")
    elif pend.kind == PendingKind.LOSE_HAND:
        fx.discard_from_hand(tx, seat, card, "lost")
        tx.event("lost", seat, card, "hand")
    elif pend.kind == PendingKind.LOOT:
        body = tx.bodies[0]
        i = body.cards.index(card)
        tx.bodies = (body.replace(cards=body.cards[:i] + body.cards[i + 1:], looters=body.looters[1:]),) + tx.bodies[1:]
        tx.set_player(seat, hand=tx.player(seat).hand + (card,))
        tx.event("loot", seat, body.seat, card)
    elif pend.kind == PendingKind.BIG:
        fx.give_up_big(tx, seat, card)
    elif pend.kind == PendingKind.SALVAGE:  # C-CHAR-5
        if card == fx.SALVAGE_DRAW:
            fx.draw_to_hand(tx, seat, pend.arg, salvage=False)
        else:
            fx.salvage(tx, seat, pend.arg, card)
    elif pend.kind == PendingKind.SEARCH:
        name = fx.search_deck(tx.cards, pend.arg)
        deck = tx.decks[name]
        i = deck.discard.index(card)
        tx.decks[name] = deck.replace(discard=deck.discard[:i] + deck.discard[i + 1:])
        tx.set_player(seat, hand=tx.player(seat).hand + (card,))
        tx.event("draw", seat, name, card, True)
        tx.discard(pend.arg)
    n = pend.n - 1
    tx.pending = pend.replace(n=n) if n > 0 and fx.pending_options(tx.commit(), pend, tx.cards) else None


HANDLERS = {
    "ready": h_ready, "play": h_play, "equip": h_equip, "cheat": h_cheat, "discard": h_discard, "give": h_give,
    "kick": h_kick, "fight": h_fight, "loot": h_loot, "buy": h_buy, "end_turn": h_end_turn, "curse": h_curse,
    "use": h_use, "enhance": h_enhance, "wander": h_wander, "mate": h_mate, "power": h_power, "ask": h_ask,
    "offer": h_offer, "accept": h_accept, "pass": h_pass, "roll": h_roll, "escape": h_escape, "choose": h_choose, "reveal": h_reveal,
    "deal": h_deal, "decline": h_decline, "trade": trades.offer,
}
