"""A Classic combat (C-COMBAT, C-HELP, C-RUN): how it starts, strength term by term, monsters
taken out early, winning and its rewards, running away and Bad Stuff, and ending it.

The read-only questions (``monster_level``, ``strengths``, ``munchkin_wins``...) take anything with
``players`` and ``combat`` (a state, a view or a Tx), so bots and the client ask the same functions
the rules apply.  Nothing here decides who may act next: that is mq.classic.flow."""
from __future__ import annotations

from mq.cards.classic_defs import ClassicSet
from mq.cards.classic_vocab import TREASURE_CHANGES
from mq.classic import character as ch
from mq.classic import deals as dl
from mq.classic import dungeons as dg
from mq.classic import effects as fx
from mq.classic import pack_effects as pfx
from mq.classic import picks
from mq.classic.state import CMonster, Combat, Deal, Out, Phase, Picks, Stage
from mq.classic.tx import TREASURE, Tx

RUN_NEEDED = 5  # C-RUN-1: 5 or more escapes


def side(combat: Combat) -> tuple[int, ...]:
    """The munchkin side: the main fighter and the helper, if any (C-COMBAT-1)."""
    return (combat.fighter,) if combat.helper < 0 else (combat.fighter, combat.helper)


def fought(combat: Combat) -> tuple[int, ...]:
    """Indices of the monsters still in the combat."""
    return tuple(i for i, m in enumerate(combat.monsters) if not m.out)


def enhancers(combat: Combat, i: int) -> tuple[str, ...]:
    """A monster's enhancers; a Mate shares those of the monster it copies (C-COMBAT-6)."""
    m = combat.monsters[i]
    return m.enhancers + (combat.monsters[m.of].enhancers if m.of >= 0 else ())


def monster_keywords(s, cards: ClassicSet) -> tuple[str, ...]:
    c = s.combat
    return tuple(k for i in fought(c) for k in cards.monster_card(c.monsters[i].card).keywords)


def monster_level(s, cards: ClassicSet, i: int) -> int:
    """C-COMBAT-3, C-LAW-1: printed level + enhancers + its modifiers against the munchkin side
    (each once per monster, even if both fighters match), never below 1."""
    c = s.combat
    d = cards.monster_card(c.monsters[i].card)
    level = d.level + sum(cards.door_card(e).bonus for e in enhancers(c, i))
    seats = side(c)
    words = {w for seat in seats for w in ch.who(s.players[seat], cards)}
    level += sum(amount for w, amount in d.bonuses if w in words)
    for e in d.effects:
        if e.name == "bonus_vs_item" and any(
                e.get("keyword") in item.keywords for seat in seats for item in ch.working(s.players[seat], cards)):
            level += e.number("amount")
    if s.active:  # C-PACK-7: the dungeons' rules for monsters
        level += dg.monster_bonus(s, cards, c.monsters[i].card)
    return max(1, level)


def monster_treasure(s, cards: ClassicSet, i: int) -> int:
    """C-COMBAT-6: the printed Treasure of monster ``i`` of the combat changed by the enhancers and
    the active dungeons (C-PACK-7), never below 0 (``s``: a state, a view or a Tx)."""
    combat = s.combat
    n = cards.monster_card(combat.monsters[i].card).treasure
    for e in enhancers(combat, i):
        for eff in cards.card(e).effects:
            n += TREASURE_CHANGES.get(eff.name, 0) * (eff.number("n", 0))
    if s.active:
        n += dg.treasure_bonus(s, cards)
    return max(0, n)


def seat_strength(s, cards: ClassicSet, seat: int) -> int:
    """C-COMBAT-2: level + items in use + lasting curses + this munchkin's own extras; the packs'
    steed and hireling (C-PACK-5, 6) and an orc's bonus alone (C-PACK-2)."""
    p = s.players[seat]
    c = s.combat
    return (p.level + ch.item_strength(p, cards, monster_keywords(s, cards)) + ch.curse_strength(p, cards)
            + sum(a for who, a in c.extra if who == seat) + ch.steed_bonus(p, cards) + ch.hireling_bonus(p, cards)
            + alone_bonus(s, cards, seat) + dg.seat_bonus(s, cards, seat))  # C-PACK-7


def alone_bonus(s, cards: ClassicSet, seat: int) -> int:
    """C-PACK-2: an orc's bonus, as main fighter of a combat without a helper."""
    c = s.combat
    return ch.alone_bonus(s.players[seat], cards) if seat == c.fighter and c.helper < 0 else 0


def strengths(s, cards: ClassicSet) -> tuple[int, int]:
    """(munchkin side, monster side) strengths of this moment; either may be below 1 (C-LAW-1)."""
    c = s.combat
    mine = sum(seat_strength(s, cards, seat) for seat in side(c)) + c.munchkin_bonus
    theirs = sum(monster_level(s, cards, i) for i in fought(c)) + c.monster_bonus
    return mine, theirs


def munchkin_wins(s, cards: ClassicSet) -> bool:
    """C-COMBAT-4: strictly greater, or equal with a warrior on the munchkin side."""
    mine, theirs = strengths(s, cards)
    return mine > theirs or (mine == theirs and any(ch.wins_ties(s.players[x], cards) for x in side(s.combat)))


def levels_won(s, cards: ClassicSet) -> int:
    """C-COMBAT-9 (a), C-LAW-3: the printed levels of the monsters killed (beaten in the fight or
    killed by a card); defeated monsters give none (C-COMBAT-7)."""
    c = s.combat
    killed = [cards.monster_card(m.card).levels for m in c.monsters if m.out in ("", Out.KILLED)]
    return sum(killed) + len(killed) * dg.kill_levels(s, cards)  # C-PACK-7


# -- starting and joining -------------------------------------------------------------------------

def start(tx: Tx, fighter: int, card: str, how: str, by: int = -1) -> None:
    """C-COMBAT-5, C-TURN-10: a combat begins when a monster is kicked open or played (or sent by
    a card at someone off their turn, C-COMBAT-12)."""
    tx.combat = Combat(fighter=fighter)
    tx.event("monster_in", fighter, card, how, fighter if by < 0 else by)
    tx.set_combat(monsters=(CMonster(card),))
    waiting_curses(tx, fighter)
    auto_out(tx)


def add_monster(tx: Tx, monster: CMonster, how: str, by: int) -> None:
    """C-COMBAT-5: a Wandering Monster's monster or a Mate joins the combat."""
    tx.event("monster_in", tx.fight.fighter, monster.card, how, by)
    tx.set_combat(monsters=tx.fight.monsters + (monster,))
    auto_out(tx)


def join(tx: Tx, helper: int, d: Deal | None = None) -> None:
    """C-HELP-1, 3: the accepted deal ``d`` (None: a what-if, mq.classic.query): the helper joins on
    its terms; every other offer of help lapses."""
    tx.set_combat(helper=helper)
    dl.close_help_offers(tx)
    terms = (d.share, d.order, d.item) if d is not None else (0, Picks.HELPER, "")
    tx.event("helps", tx.fight.fighter, helper, *terms)
    waiting_curses(tx, helper)
    auto_out(tx)


def waiting_curses(tx: Tx, seat: int) -> None:
    """C-CARD-8: next-combat curses act in the victim's next combat, as a strength change."""
    p = tx.player(seat)
    for card in p.next_combat:
        amount = sum(e.number("amount") for e in tx.cards.card(card).effects if e.name == "next_combat")
        tx.set_combat(extra=tx.fight.extra + ((seat, amount),))
        tx.discard(card)
        tx.event("curse_acts", card, seat, "next_combat")
    if p.next_combat:
        tx.set_player(seat, next_combat=())


def take_out(tx: Tx, i: int, how: str) -> None:
    m = tx.fight.monsters[i]
    tx.set_combat(monsters=tx.fight.monsters[:i] + (m.replace(out=how),) + tx.fight.monsters[i + 1:])
    tx.event("monster_out", i, m.card, how)


def auto_out(tx: Tx) -> None:
    """C-COMBAT-7, C-HELP-2: a monster's own text beats it for a munchkin side with a cleric (say);
    C-TURN-3: a monster friendly to the main fighter leaves without reward."""
    c = tx.fight
    words = {w for seat in side(c) for w in ch.who(tx.player(seat), tx.cards)}
    fighter_words = ch.who(tx.player(c.fighter), tx.cards)
    for i in fought(c):
        for e in tx.cards.card(c.monsters[i].card).effects:
            if e.name == "friendly" and e.get("who") in fighter_words:
                take_out(tx, i, Out.AWAY)
                break
            if e.name in ("auto_kill", "auto_defeat") and e.get("who") in words:
                take_out(tx, i, Out.KILLED if e.name == "auto_kill" else Out.DEFEATED)
                break


def is_friendly(tx_or_state, cards: ClassicSet, seat: int, card: str) -> bool:
    words = ch.who(tx_or_state.players[seat], cards)
    return any(e.name == "friendly" and e.get("who") in words for e in cards.card(card).effects)


# -- the outcome ----------------------------------------------------------------------------------

def resolve(tx: Tx) -> None:
    """C-COMBAT-8: the strengths of the final moment decide: a win (C-COMBAT-9) or, for the whole
    munchkin side, running (C-COMBAT-10, C-RUN).
    With every monster taken out, it is won if one was defeated or killed, else C-COMBAT-13."""
    c = tx.fight
    if c.proposed:  # open offers lapse at the outcome (mq.classic.deals)
        tx.set_combat(proposed=())
    if not fought(c):
        if any(m.out in (Out.KILLED, Out.DEFEATED) for m in c.monsters):
            win(tx)
        else:
            no_result(tx)
        return
    mine, theirs = strengths(tx, tx.cards)
    won = munchkin_wins(tx, tx.cards)
    tx.event("result", c.fighter, mine, theirs, won)
    if won:
        win(tx)
    else:
        tx.set_combat(stage=Stage.RUN, runners=side(c), rolled=(), boost=0, waiting=())
        begin_runner(tx)


def win(tx: Tx) -> None:
    """C-COMBAT-9, C-LAW-4 (no reward before the combat is over): (a) levels: the main fighter the
    printed levels of the monsters killed, an elf helper 1 a monster killed (C-HELP-5), and C-WIN
    at once, both winning if both reach it (C-WIN-2); (c) the Treasure of the killed and
    defeated monsters, face-down if alone, face-up if helped and shared as the deal says
    (C-HELP-3, 4); (d) the cards are discarded."""
    c = tx.fight
    cards = tx.cards
    levels = levels_won(tx, cards)
    kills = sum(1 for m in c.monsters if m.out in ("", Out.KILLED))
    fx.gain_levels(tx, c.fighter, levels, "kill", may_win=True)
    if c.helper >= 0 and ch.power(tx.player(c.helper), cards, "help_levels") is not None and kills:
        fx.gain_levels(tx, c.helper, kills, "help", may_win=True)
    if tx.winners:
        tx.event("game_won", tx.winners)
        end(tx, "won")
        tx.phase = Phase.OVER
        return
    # (a monster sent away, taken as a pet or tamed leaves with no reward: C-COMBAT-7, C-EPIC-6, C-PACK-6)
    total = sum(monster_treasure(tx, cards, i) for i, m in enumerate(c.monsters)
                if m.out not in (Out.AWAY, Out.PET, Out.STEED))
    share, order = dl.help_terms(c)
    if pfx.treasure(tx, c, total, share, order):  # C-PACK-4: a bard's luck draws and shares it
        end(tx, "won")
        return
    if c.helper >= 0:  # face-up, shared as the deal says (C-HELP-3, mq.classic.picks)
        picks.draw(tx, c.fighter, c.helper, share, order, total)
    else:
        for _ in range(total):
            fx.draw_to_hand(tx, c.fighter, TREASURE)
    end(tx, "won")


def no_result(tx: Tx) -> None:
    """C-COMBAT-13: no levels, Treasure or Bad Stuff; one-shots go back to their owners' hands."""
    for seat, card in tx.fight.played:
        tx.set_player(seat, hand=tx.player(seat).hand + (card,))
    tx.set_combat(played=())
    end(tx, "no_result")


def end(tx: Tx, how: str) -> None:
    """C-COMBAT-9 (d), C-RUN-6: monster cards, Mates, enhancers and used one-shots are discarded;
    no loot the room after a combat (C-TURN-4), nor after one off the fighter's turn (C-COMBAT-12:
    the turn of the active player goes on where it was)."""
    c = tx.fight
    for m in c.monsters:
        if m.out not in (Out.PET, Out.STEED):  # (its card lies before its owner now, C-EPIC-6, C-PACK-6)
            tx.discard(m.mate or m.card)
        for e in m.enhancers:
            tx.discard(e)
    for _, card in c.played:
        tx.discard(card)
    if how == "fled":
        pfx.clean_escapes(tx, c)  # C-EPIC-7
    tx.event("combat_ends", c.fighter, how)
    dl.carry_out(tx, how == "won")  # C-HELP-3: promised items pass once the combat is over
    tx.combat = None
    if tx.current_turn.seat == c.fighter:  # (C-COMBAT-12: another's turn goes on where it was)
        tx.set_turn(phase=Phase.END)


# -- running away (C-RUN) -------------------------------------------------------------------------

def to_escape(c: Combat) -> tuple[int, ...]:
    """The monsters the current runner has still to roll against."""
    return tuple(i for i in fought(c) if i not in c.rolled)


def begin_runner(tx: Tx) -> None:
    """The next runner (C-HELP-8: the helper rolls separately); monsters that do not pursue them
    are escaped without rolling (C-RUN-3).  With no runner left, the combat ends (C-RUN-6)."""
    while tx.fight.runners:
        seat = tx.fight.runners[0]
        if not tx.player(seat).dead:
            for i in to_escape(tx.fight):
                m = tx.fight.monsters[i]
                limit = max((e.number("max_level") for e in tx.cards.card(m.card).effects if e.name == "no_pursuit"),
                            default=0)
                if tx.player(seat).level <= limit:
                    tx.event("escape", seat, m.card, 0, 0, True)
                    tx.set_combat(rolled=tx.fight.rolled + (i,))
            if to_escape(tx.fight):
                open_run_window(tx, seat)
                return
        tx.set_combat(runners=tx.fight.runners[1:], rolled=(), boost=0)
    end(tx, "fled")


def open_run_window(tx: Tx, runner: int) -> None:
    """C-RUN-3, C-DIGI-2 (b): before the runner's first roll, every other live player may play a
    card that affects running on the runner, or pass (the auto-pass drops those who hold none);
    the runner rolls once it has closed."""
    n = len(tx.players)
    waiting = tuple(x for x in ((runner + k) % n for k in range(1, n)) if not tx.player(x).dead)
    tx.set_combat(waiting=waiting)


def needed(s, cards: ClassicSet, seat: int, i: int) -> int:
    """The die roll the runner needs against monster ``i``: 5 less every run-away modifier."""
    c = s.combat
    p = s.players[seat]
    terms = ch.runaway_terms(p, cards) + (c.boost, dg.runaway_bonus(s, cards))  # C-PACK-7
    terms += tuple(e.number("amount") for e in cards.card(c.monsters[i].card).effects if e.name == "runaway")
    if ch.power(p, cards, "clean_escape", s.params) is not None:  # C-EPIC-7: no penalty counts
        terms = tuple(t for t in terms if t > 0)
    return RUN_NEEDED - sum(terms)


def die_changers(cards: ClassicSet) -> bool:
    """C-DIGI-2 c: whether the card set has die-changing cards (a property of the set, not of any
    hand): only then does a die window follow each run-away roll."""
    return any(e.name == "change_die" for d in cards.treasure for e in d.effects)


def roll_escape(tx: Tx, i: int) -> None:
    """C-RUN-1: a d6 against monster ``i``; with die changers in the set, a die window first
    (C-DIGI-2 c), else the roll counts at once."""
    seat = tx.fight.runners[0]
    roll = tx.d6()
    tx.set_combat(rolled=tx.fight.rolled + (i,))
    if die_changers(tx.cards):
        tx.event("rolled", seat, tx.fight.monsters[i].card, roll)
        tx.set_combat(die=(i, roll), waiting=tuple(range(len(tx.players))))
    else:
        count_roll(tx, i, roll)


def count_roll(tx: Tx, i: int, roll: int) -> None:
    """C-RUN-1, 4, 5: 5 or more (with the modifiers) escapes monster ``i``, else its Bad Stuff
    (queued: a choice may be needed); what acts even on escapers acts too."""
    c = tx.fight
    seat = c.runners[0]
    card = c.monsters[i].card
    need = needed(tx, tx.cards, seat, i)
    tx.set_combat(die=(), waiting=())
    escaped = roll >= need
    tx.event("escape", seat, card, roll, need, escaped)
    d = tx.cards.monster_card(card)
    if escaped:
        if d.on_escape:
            tx.event("bad_stuff", seat, card, True)
            fx.push(tx, seat, d.on_escape, front=False)
    else:
        tx.event("bad_stuff", seat, card, False)
        pfx.mark_caught(tx, seat)
        fx.push(tx, seat, d.bad_stuff + dg.bad_stuff(tx, tx.cards), front=False)  # C-PACK-7: a dungeon's extra


def escape_all(tx: Tx, seat: int) -> None:
    """C-RUN-3 (as Q-RUN-4): an automatic escape replaces the runner's remaining rolls."""
    for i in to_escape(tx.fight):
        tx.event("escape", seat, tx.fight.monsters[i].card, 0, 0, True)
        tx.set_combat(rolled=tx.fight.rolled + (i,))
