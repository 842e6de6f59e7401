"""Fights: when they start (Q-COMBAT-1..3), strength term by term (Q-COMBAT-4..6), the roll and
its interrupt window (Q-COMBAT-7, Q-DIGI-2), win and rewards (Q-COMBAT-9), loss (Q-COMBAT-10),
running away (Q-RUN) and the Boss (Q-BOSS)."""
from __future__ import annotations

from mq.rules import board, monsters
from mq.rules.character import effect_total, gain_levels, identity, item_bonus, lose_levels, max_hp
from mq.rules.state import OVER, Combat, Monster, Pending, Player
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
    """Q-COMBAT-5, 6: one die, +1 per matching green icon, −1 per matching red icon; a cleric
    rolls one more against undead (Q-CHAR-4; ``foes`` are the monsters' keywords)."""
    face = cards.face(rooms[index].face)
    ident = identity(p, cards)
    extra = 1 if "cleric" in ident and "undead" in foes else 0
    return 1 + extra + sum(1 for w in face.green if w in ident) - sum(1 for w in face.red if w in ident)


def foe_keywords(combat: Combat, monster_list, cards) -> tuple[str, ...]:
    return tuple(k for uid in combat.monsters for k in cards.card(find(monster_list, uid).card).keywords)


def munchkin_terms(p: Player, combat: Combat, monster_list, rooms, cards) -> tuple[tuple[str, int], ...]:
    """The munchkin side's fixed strength, term by term (dice come on top)."""
    keywords = foe_keywords(combat, monster_list, cards)
    ident = identity(p, cards)
    room_bonus = sum(e.get("amount", 0) for e in room_effects(rooms, cards, combat.room, "munchkin_bonus")
                     if e.get("who") in ident or e.get("who") == "any")
    return (("level", p.level), ("items", item_bonus(p, cards, keywords)),
            ("one-shots", combat.bonus), ("room", room_bonus))


def monster_terms(m: Monster, fighter_idents, rooms, cards, room: int) -> tuple[tuple[str, int], ...]:
    """One monster's fixed strength: level (20 for the Boss), bonuses against the fighters (each
    counted once, Q-COMBAT-4) and room bonuses."""
    d = cards.card(m.card)
    level = monsters.BOSS_LEVEL if m.boss else d.level
    vs = sum(amount for who, amount in d.bonuses if any(who in ident for ident in fighter_idents))
    room_bonus = sum(e.get("amount", 0) for e in room_effects(rooms, cards, room, "monster_bonus")
                     if e.get("keyword") in d.keywords or e.get("keyword") == "any")
    return (("level", level), ("vs", vs), ("room", room_bonus))


def total(terms) -> int:
    return sum(v for _, v in terms)


# -- starting --------------------------------------------------------------------------------
def hostile_in(state_or_tx, seat: int, cards, room: int) -> list[int]:
    """Monsters in ``room`` that fight ``seat`` (Q-COMBAT-2, 3: all of them together)."""
    ident = identity(state_or_tx.players[seat], cards)
    return [m.uid for m in state_or_tx.monsters if m.room == room and m.colour >= 0
            and (m.boss or not monsters.ignores_identity(cards.card(m.card), ident))]


def maybe_start(tx: Tx) -> bool:
    """Q-COMBAT-1: the active munchkin fights at once when sharing a room with monsters that do
    not ignore them (ignored munchkins may still choose to, via ``fight``)."""
    seat = tx.turn.seat
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


def declare_roll(tx: Tx) -> None:
    """Q-COMBAT-7: every other player gets an interrupt window before the dice."""
    waiting = others(tx.order, tx.combat.fighter)
    if waiting:
        tx.set_combat(stage="window", waiting=waiting)
    else:
        resolve(tx)


def others(order: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """Every seat but ``seat``, in turn order starting after it."""
    i = order.index(seat)
    return order[i + 1:] + order[:i]


def reopen_window(tx: Tx, seat: int) -> None:
    """A card played in the window: everyone else may answer it (Q-DIGI-2), the fighter too."""
    tx.set_combat(waiting=others(tx.order, seat))


def pass_window(tx: Tx, seat: int) -> None:
    waiting = tuple(s for s in tx.combat.waiting if s != seat)
    tx.set_combat(waiting=waiting)
    if not waiting:
        tx.event("window_closed", tx.combat.fighter)
        resolve(tx)


def resolve(tx: Tx) -> None:
    """Roll the dice and compare (Q-COMBAT-5, 8)."""
    c = tx.combat
    p = tx.player(c.fighter)
    mine = munchkin_terms(p, c, tx.monsters, tx.rooms, tx.cards)
    n_dice = dice_count(p, tx.rooms, tx.cards, c.room, foe_keywords(c, tx.monsters, tx.cards))
    my_dice = tuple(tx.d6() for _ in range(max(0, n_dice)))
    idents = [identity(p, tx.cards)]
    theirs = []
    their_dice = []
    for uid in c.monsters:
        m = tx.monster(uid)
        theirs.append(monster_terms(m, idents, tx.rooms, tx.cards, c.room))
        their_dice.append(tuple(tx.d6() for _ in range(tx.cards.card(m.card).dice)))
    if c.monster_bonus:  # one-shots played for the monster side count once, for all of them
        theirs.append((("one-shots", c.monster_bonus),))
        their_dice.append(())
    me = total(mine) + sum(my_dice)
    them = sum(total(t) for t in theirs) + sum(sum(d) for d in their_dice)
    won = me > them or (me == them and "warrior" in idents[0])  # Q-COMBAT-8; warriors win ties (Q-CHAR-4)
    tx.event("combat_result", c.fighter, mine, my_dice, tuple(theirs), tuple(their_dice), me, them, won)
    if won:
        win(tx)
    else:
        lose(tx)


# -- outcome ---------------------------------------------------------------------------------
def win(tx: Tx) -> None:
    """Q-COMBAT-9 and Q-BOSS-4."""
    c = tx.combat
    seat = c.fighter
    treasures = 0
    levels = 0
    for uid in c.monsters:
        m = tx.monster(uid)
        d = tx.cards.card(m.card)
        if m.colour == seat:
            monsters.draw_to_hand(tx, seat, "dxm")
        for e in d.rewards:
            if e.name == "extra_treasure":
                treasures += e.get("n", 1)
            elif e.name == "gold":
                tx.set_player(seat, gold=tx.player(seat).gold + e.get("amount", 0))
            elif e.name == "heal":
                heal(tx, seat, e.get("amount", 1))
        treasures += d.treasure
        levels += 2 if d.mighty else 1
        tx.event("monster_killed", seat, uid, m.card)
        tx.remove_monster(uid)
    public = len(tx.seats_in(c.room)) > 1  # Q-SEARCH-3
    for _ in range(treasures):
        monsters.draw_to_hand(tx, seat, "treasure", public)
    p = tx.player(seat)
    new_level = gain_levels(p, levels, by_kill=True)
    if new_level != p.level:
        tx.set_player(seat, level=new_level)
        tx.event("level", seat, new_level, "kill")
    end(tx, result=True)
    if c.boss:
        tx.winners = (seat,)
        tx.phase = OVER
        tx.event("game_won", (seat,))


def lose(tx: Tx) -> None:
    """Q-COMBAT-10: one hit per monster, then run away (Q-RUN); Q-BOSS-5 for the Boss."""
    from mq.rules import flow

    c = tx.combat
    seat = c.fighter
    hits = len(c.monsters)
    if c.boss:
        hits = 1
        p = tx.player(seat)
        tx.set_player(seat, level=lose_levels(p, 1))
        tx.event("level", seat, tx.player(seat).level, "boss")
        if tx.player(seat).hp <= hits:  # Q-BOSS-5: the Boss is discarded even if the hit kills
            for uid in c.monsters:
                tx.remove_monster(uid)
    flow.hit(tx, seat, hits)
    if tx.combat is None or not tx.player(seat).alive:
        return
    if run_options(tx.rooms, tx.cards, c):
        tx.set_combat(stage="run")
    elif c.boss:
        finish_boss_run(tx, -1)
    else:
        # Q-RUN-5: nowhere to run: every Bad Stuff applies, then the turn ends.
        tx.set_combat(stage="escape", run_to=-1, to_escape=c.monsters)
        tx.event("cornered", seat)


def run_options(rooms, cards, combat: Combat) -> tuple[int, ...]:
    """Q-RUN-1: adjacent explored rooms through a non-wall connector."""
    return tuple(r for _, r in board.neighbours(rooms, cards, combat.room))


def choose_run(tx: Tx, room: int) -> None:
    """Q-RUN-1: the direction is chosen before rolling."""
    if tx.combat.boss:
        finish_boss_run(tx, room)
        return
    tx.set_combat(stage="escape", run_to=room, to_escape=tx.combat.monsters)
    tx.event("runs", tx.combat.fighter, room)


def finish_boss_run(tx: Tx, room: int) -> None:
    """Q-BOSS-5: run away ignoring other Bad Stuff; the Boss and its company are discarded."""
    from mq.rules import flow

    c = tx.combat
    for uid in c.monsters:
        if any(m.uid == uid for m in tx.monsters):
            tx.remove_monster(uid)
    end(tx, result=True)
    if room >= 0:  # Q-RUN-3: the runner arrives, and the room's rule applies (Q-EXPLORE-4)
        tx.set_player(c.fighter, room=room)
        tx.event("arrives", c.fighter, room)
        flow.enter_room(tx, c.fighter, room)


def escape_roll(tx: Tx, uid: int) -> None:
    """Q-RUN-2: 5+ escapes that monster; otherwise its Bad Stuff."""
    c = tx.combat
    seat = c.fighter
    tx.set_combat(to_escape=tuple(u for u in c.to_escape if u != uid))
    m = tx.monster(uid)
    if c.run_to >= 0:
        p = tx.player(seat)
        elf = 1 if "elf" in identity(p, tx.cards) else 0  # Q-CHAR-4
        mod = (tx.cards.card(m.card).runaway + effect_total(p, tx.cards, "runaway") + c.run_bonus + elf
               + sum(e.get("amount", 0) for e in room_effects(tx.rooms, tx.cards, c.room, "runaway")))
        roll = tx.d6()
        escaped = roll + mod >= ESCAPE_TARGET
        tx.event("escape_roll", seat, uid, roll, mod, escaped)
        if escaped:
            after_escape_step(tx)
            return
    bad_stuff(tx, seat, uid, 0)


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
        return any(worn_in_slot(p, cards, e.get("slot")))
    raise ValueError(f"unknown bad stuff {e.name}")


def worn_in_slot(p: Player, cards, slot: str) -> list[str]:
    """Q-ITEM-6: "lose your footgear" means the worn (or carried) one, never the backpack."""
    return [it.card for it in p.items if it.place in ("worn", "carried") and cards.card(it.card).slot == slot]


def bad_stuff(tx: Tx, seat: int, uid: int, start: int) -> None:
    """Apply a monster's Bad Stuff from effect ``start`` on; pauses on a victim's choice."""
    from mq.rules import flow

    effects = tx.cards.card(tx.monster(uid).card).bad_stuff
    p = tx.player(seat)
    if start == 0:
        tx.event("bad_stuff", seat, uid)
        if not any(can_affect(e, p, tx.cards) for e in effects):
            flow.hit(tx, seat, 1)
            after_escape_step(tx)
            return
    for i in range(start, len(effects)):
        p = tx.player(seat)
        if not p.alive:
            return
        e = effects[i]
        if e.name == "hits":
            flow.hit(tx, seat, e.get("n", 1))
        elif e.name == "death":
            flow.die(tx, seat, "bad stuff")
        elif e.name == "lose_levels":
            tx.set_player(seat, level=lose_levels(p, e.get("n", 1)))
            tx.event("level", seat, tx.player(seat).level, "bad stuff")
        elif e.name == "lose_gold":
            amount = e.get("amount", 0)
            lost = p.gold if amount == 0 else min(p.gold, amount)
            tx.set_player(seat, gold=p.gold - lost)
            tx.event("gold_lost", seat, lost)
        elif e.name == "lose_slot":
            for card in worn_in_slot(p, tx.cards, e.get("slot"))[:1]:
                flow.lose_item(tx, seat, card)
        elif e.name == "lose_item":
            n = e.get("n", 1)
            if p.items:
                tx.pending = Pending(seat=seat, kind="lose_item",
                                     options=tuple(sorted(it.card for it in p.items)), data=(uid, i, n))
                return
    if tx.combat is not None:
        after_escape_step(tx)


def lose_item_chosen(tx: Tx, card: str) -> None:
    """The victim picked the item to lose (Q-ITEM-6); go on with the rest of the Bad Stuff."""
    from mq.rules import flow

    pend = tx.pending
    uid, index, n = pend.data
    tx.pending = None
    flow.lose_item(tx, pend.seat, card)
    p = tx.player(pend.seat)
    if n > 1 and p.items:
        tx.pending = Pending(seat=pend.seat, kind="lose_item",
                             options=tuple(sorted(it.card for it in p.items)), data=(uid, index, n - 1))
        return
    bad_stuff(tx, pend.seat, uid, index + 1)


def after_escape_step(tx: Tx) -> None:
    """After one escape roll: when every monster is done, the runner arrives (Q-RUN-3) or, cornered,
    ends the turn (Q-RUN-5)."""
    from mq.rules import flow

    c = tx.combat
    if c is None or c.to_escape or tx.pending is not None:
        return
    seat = c.fighter
    end(tx, result=True)
    if not tx.player(seat).alive:
        return
    if c.run_to >= 0:
        tx.set_player(seat, room=c.run_to)
        tx.event("arrives", seat, c.run_to)
        flow.enter_room(tx, seat, c.run_to)
    else:
        flow.finish_turn(tx)


def magic_exit(tx: Tx, card: str, to_room: int) -> None:
    """Leave the fight by a card: before the roll it ends without a result (Q-COMBAT-12: the other
    one-shots go back to their owners); after a loss it replaces the run-away rolls (Q-RUN-4).
    Either way the munchkin ends up in ``to_room``."""
    from mq.rules import flow

    seat = tx.combat.fighter
    result = tx.combat.stage != "prepare"
    tx.event("magic_escape", seat, card)
    tx.set_combat(used=tuple(c for c in tx.combat.used if c != card))
    tx.discard(card)  # the card that did it is spent
    end(tx, result=result)
    tx.set_player(seat, room=to_room)
    if result:
        tx.event("arrives", seat, to_room)
    flow.enter_room(tx, seat, to_room)


def end(tx: Tx, result: bool) -> None:
    """Close the fight.  Without a result (everyone left by magic) one-shots go back to their
    owners' hands (Q-COMBAT-12); otherwise they are discarded."""
    c = tx.combat
    tx.combat = None
    if result:
        for card in c.used:
            tx.discard(card)
    else:
        p = tx.player(c.fighter)
        tx.set_player(c.fighter, hand=p.hand + c.used)
    tx.event("combat_ends", c.fighter, result)


def heal(tx: Tx, seat: int, amount: int) -> None:
    p = tx.player(seat)
    hp = min(max_hp(p, tx.cards), p.hp + amount)
    if hp != p.hp:
        tx.set_player(seat, hp=hp)
        tx.event("heal", seat, hp - p.hp)

