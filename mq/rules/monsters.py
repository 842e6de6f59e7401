"""Monsters on the board: spawning with a base colour (Q-MON-1, 2), who they ignore (Q-COMBAT-2)
and the monster turn (Q-MT), which the native core resolves for all monsters at once."""
from __future__ import annotations

from mq import core
from mq.rules import board, effects
from mq.rules.draws import draw_to_hand
from mq.rules.state import COLOURS, Monster, Pending, PendingKind
from mq.rules.tx import Tx

BASES_PER_COLOUR = 3  # Q-COMP-5
MOVEMENT = {"normal": core.NORMAL, "fast": core.FAST, "slow": core.SLOW,
            "lurking": core.LURKING, "backwards": core.BACKWARDS}
PASS_BITS = {"locked": 1 << board.LOCKED, "secret": 1 << board.SECRET, "wall": 1 << board.WALL}
BOSS_LEVEL = 20  # Q-BOSS-1


def level_of(m: Monster, cards) -> int:
    """A monster's level with its modifiers (Q-MON-2), never below 1 (Q-LAW-1)."""
    return max(1, (BOSS_LEVEL if m.boss else cards.card(m.card).level) + enhancement(m, cards))


def enhancement(m: Monster, cards) -> int:
    """What its enhancer cards add (Q-COMBAT-13)."""
    return sum(cards.card(c).bonus for c in m.enhancers)


def treasure_count(m: Monster, cards) -> int:
    """The Treasures killing it draws (Q-COMBAT-9): the card's count, plus its enhancers' extra
    Treasures, minus those of enhancers that make it poorer (Q-COMBAT-13; the rulebook's example:
    2, +2, +1, −1 = 4), never below zero."""
    n = cards.card(m.card).treasure
    for card in m.enhancers:
        for e in cards.card(card).effects:
            if e.name == "extra_treasure":
                n += e.number("n", 1)
            elif e.name == "fewer_treasure":
                n -= e.number("n", 1)
    return max(0, n)


def free_bases(tx: Tx, colour: int) -> int:
    if colour >= tx.params.players:
        return 0  # nobody plays that colour (Q-MON-1)
    return BASES_PER_COLOUR - sum(1 for m in tx.monsters if m.colour == colour)


def spawn(tx: Tx, room: int, spawner: int, boss: bool = False, like: str = "", mate: str = "") -> int | None:
    """Draw a Monster card into ``room`` — or, for a Mate, copy the monster card ``like`` — and
    roll its base (Q-EXPLORE-5, Q-MON-1, Q-CARD-6).  Returns the uid, or None when both Monster
    piles are empty.  The player of the rolled colour draws a DxM whether or not one of their bases
    is free: the draw depends only on the die.  When the rolled colour has no free base the spawner
    must choose one (nobody draws for it): the state then holds a ``colour`` pending decision."""
    card = like or tx.draw("monster")
    if card is None:
        tx.event("no_monster", room)
        return None
    if not any(free_bases(tx, c) for c in range(6)):
        evict_highest(tx)
    uid = tx.next_uid
    tx.next_uid += 1
    colour = tx.colour_roll()
    tx.event("monster_appears", uid, card, room, colour, boss)
    standee = standee_for(tx.monsters, tx.cards, tx.cards.monster_card(card).size)
    draw_dxm_for_colour(tx, colour)
    if free_bases(tx, colour):
        tx.monsters.append(Monster(uid=uid, card=card, room=room, colour=colour, boss=boss, mate=mate, standee=standee))
    else:
        tx.monsters.append(Monster(uid=uid, card=card, room=room, colour=-1, boss=boss, mate=mate, standee=standee))
        options = tuple(c for c in range(6) if free_bases(tx, c))
        tx.pending = Pending(seat=spawner, kind=PendingKind.COLOUR, options=options, data=(uid,))
    return uid


def standee_for(monster_list, cards, size: str) -> str:
    """Q-COMP-4: a free standee of the monster card's size; with none of that size free, any free
    one — our rule: the nearest size, the larger first.  The card data holds enough standees for
    every monster the bases allow (mq.cards.loader), so one is always free; a set without standee
    counts gives every monster a figure of its own size."""
    if not cards.standees:
        return size
    sizes = tuple(s for s, _ in cards.standees)
    i = sizes.index(size)
    for j in sorted(range(len(sizes)), key=lambda j: (abs(j - i), -j)):
        if sum(1 for m in monster_list if m.standee == sizes[j]) < cards.standees[j][1]:
            return sizes[j]
    return size  # (unreachable with the loader's counts)


def evict_highest(tx: Tx) -> None:
    """Q-MON-2: with no free base at all, every monster tied for the highest level leaves play."""
    others = [m for m in tx.monsters if not m.boss]  # the Boss never leaves (Q-LAW-5)
    top = max(level_of(m, tx.cards) for m in others)
    for m in others:
        if level_of(m, tx.cards) == top:
            tx.event("monster_evicted", m.uid, m.card)
            tx.remove_monster(m.uid)
    if tx.combat is not None and not tx.combat.monsters:
        effects.end_fight(tx, result=False)  # Q-COMBAT-12: no monster left, no result


def draw_dxm_for_colour(tx: Tx, colour: int) -> None:
    """Q-MON-1, Q-MT-1, Q-CARD-1: the player of the rolled colour draws a DxM."""
    if colour < tx.params.players:
        draw_to_hand(tx, colour, "dxm")


def ignores_identity(defn, ident: tuple[str, ...]) -> bool:
    """Q-COMBAT-2: a monster card may ignore some munchkins (the Boss never does, Q-BOSS-2)."""
    return any(w in ident for w in defn.ignores)


def monster_turn(tx: Tx, roller: int) -> None:
    """Q-MT-1..8: roll the movement colour, the player of that colour draws, then every monster
    moves at once (the core resolves arrows, passes, smashing, wrap-around and the Entrance), each
    on its own: monsters sharing a room split up when their moves differ (Q-MT-9)."""
    colour = tx.colour_roll()
    tx.last_colour = colour
    tx.event("monster_turn", roller, colour)
    draw_dxm_for_colour(tx, colour)
    movers = [m for m in tx.monsters if not m.boss]
    if not movers:
        return
    specs = []
    for m in movers:
        d = tx.cards.monster_card(m.card)
        mask = core.PASS_NORMAL
        for kind in d.passes:
            mask |= PASS_BITS[kind]
        target = -1
        if 0 <= m.colour < tx.params.players and tx.player(m.colour).alive:
            target = tx.player(m.colour).room
        specs.append((m.room, MOVEMENT[d.movement], mask, 1 if d.smashes else 0, target))
    dests, smashed = core.monster_turn(board.encoded(tx, tx.cards), tuple(specs), colour)
    for room, d in smashed:
        board.set_side(tx, room, d, board.CORRIDOR)
        tx.event("door_smashed", room, d)
    for m, dest in zip(movers, dests):
        if dest != m.room:
            tx.set_monster(m.uid, room=dest)
            tx.event("monster_moves", m.uid, m.room, dest)


def colour_name(c: int) -> str:
    return COLOURS[c] if 0 <= c < 6 else "none"
