"""Race and class powers that a player uses (Q-CHAR-5): discard powers (discard any card from hand or
play, the class card itself included) and d10 powers (roll the d10: it works if the roll is no
more than your level).  The powers are the class cards' texts in mq/data/dxm.toml:

- warrior: Berserk — in your fight, discard up to 3 cards for +1 each; Battle cry — once per
  fight, d10: one extra combat die;
- wizard: Flight — when running away, discard up to 3 cards for +1 each to the run-away rolls;
  Charm — once per fight, discard 3 cards from hand and roll: one monster leaves the fight, its
  Treasure is yours but no level;
- thief: Backstab — discard a card: a munchkin fighting in your room or next door gets −2, once
  per fight for each munchkin; Steal — once per turn, on your own turn outside combat, roll to
  take an item in play from a munchkin in your room, or take 1 hit;
- halfling (a race, not a class): if the first run-away roll of a fight fails, discard a card to
  roll it again (the ``reroll`` stage, mq.rules.combat.escape_roll); its double-value sale is
  part of buying levels (mq.rules.legal.sale_value);
- cleric: the extra die against undead works by itself (mq.rules.combat.dice_count); Sanctuary
  — a cleric may roll the d10 against a curse as it is played on them or on a munchkin in their
  room (the ``curse`` pending decision, mq.rules.combat.play_curse); Resurrection — a face-down
  draw of a cleric with a card in hand is put off until the action is done, then the cleric
  decides: draw as usual, or discard a card from hand for the top card of that deck's discard
  pile (the ``resurrect`` pending decision, mq.rules.draws.offer_resurrections).

Action: ``power (name, *args)``; the card to discard is the last argument of discard powers."""
from __future__ import annotations

from mq.rules import combat, effects, monsters
from mq.rules.actions import Action
from mq.rules.effects import fighters
from mq.rules.state import Player, Stage
from mq.rules.tx import Tx

MAX_DISCARDS = 3


def discardable(p: Player) -> list[str]:
    """Q-CHAR-5: any card from hand or play, the class card itself included."""
    return list(p.hand) + [it.card for it in p.items] + list(p.races) + list(p.classes) + list(p.hybrids)


def _used(c, seat: int, name: str) -> int:
    return sum(1 for u in c.powers if u.split(":")[:2] == [str(seat), name])


def _classes(p: Player, cards) -> tuple[str, ...]:
    return tuple(cards.card(c).key for c in p.classes)


def legal(state, seat: int, cards, add) -> None:
    """Every power ``seat`` may use now."""
    p = state.players[seat]
    if not p.alive or state.pending is not None:
        return
    mine = _classes(p, cards)
    c = state.combat
    if c is None:
        if "thief" in mine:
            _steals(state, p, seat, add)
        return
    if seat in fighters(c) and c.stage in (Stage.PREPARE, Stage.WINDOW):
        _fighter_powers(c, p, seat, mine, add)
    if c.runner == seat:
        _runner_powers(c, p, seat, mine, add)
    if "thief" in mine and c.stage == Stage.WINDOW and seat in c.waiting:
        for target in fighters(c):
            if target != seat and not _used_on(c, seat, target) and _near(state, cards, seat, c.room):
                for card in discardable(p):
                    add(Action(seat, "power", ("backstab", target, card)))


def _steals(state, p: Player, seat: int, add) -> None:
    """The thief's steal, once on their own turn, from a munchkin in the same room."""
    t = state.turn
    if t is not None and t.seat == seat and not t.stole:
        for q in state.players:
            if q.seat != seat and q.alive and q.room == p.room:
                for it in q.items:
                    add(Action(seat, "power", ("steal", q.seat, it.card)))


def _fighter_powers(c, p: Player, seat: int, mine: tuple[str, ...], add) -> None:
    """A fighter's powers before the roll: the warrior's berserk and battle cry, the wizard's
    charm (never on the Boss)."""
    if "warrior" in mine:
        if _used(c, seat, "berserk") < MAX_DISCARDS:
            for card in discardable(p):
                add(Action(seat, "power", ("berserk", card)))
        if not _used(c, seat, "battle_cry"):
            add(Action(seat, "power", ("battle_cry",)))
    if "wizard" in mine and not _used(c, seat, "charm") and len(p.hand) >= 3 and not c.boss \
            and len(c.monsters) > 0:
        three = tuple(sorted(p.hand)[:3])
        for uid in c.monsters:
            add(Action(seat, "power", ("charm", uid) + three))


def _runner_powers(c, p: Player, seat: int, mine: tuple[str, ...], add) -> None:
    """A runner's powers: the halfling's second chance after a failed first escape roll
    (mq.rules.combat.escape_roll), the wizard's flight before the escape rolls."""
    if c.stage == Stage.REROLL:
        for card in discardable(p):
            add(Action(seat, "power", ("reroll", card)))
    if "wizard" in mine and c.stage == Stage.ESCAPE and c.to_escape == c.monsters \
            and c.run_to >= 0 and _used(c, seat, "flight") < MAX_DISCARDS:
        for card in discardable(p):
            add(Action(seat, "power", ("flight", card)))


def _used_on(c, seat: int, target: int) -> bool:
    return f"{seat}:backstab:{target}" in c.powers


def _near(state, cards, seat: int, room: int) -> bool:
    """In the fight's room or next to it (Q-HELP-3)."""
    here = state.players[seat].room
    return here == room or here in combat.run_options(state, cards)


def is_legal_charm(state, action: Action, cards) -> bool:
    """Charm names the three cards to discard; any three of the hand will do."""
    if action.kind != "power" or not action.args or action.args[0] != "charm" or len(action.args) != 5:
        return False
    seat, (_, uid, *three) = action.seat, action.args
    p = state.players[seat]
    canonical = (("charm", uid) + tuple(sorted(p.hand)[:3]))
    return (Action(seat, "power", canonical) in _options(state, seat, cards)
            and len(set(three)) == 3 and all(c in p.hand for c in three))


def _options(state, seat, cards) -> list[Action]:
    out: list[Action] = []
    legal(state, seat, cards, out.append)
    return out


def use(tx: Tx, a: Action) -> None:
    """Carry out a power (in the interrupt window, everyone may answer it afterwards:
    mq.rules.windows.card_played, called by the reducer)."""
    name = a.text(0)
    seat = a.seat
    if name == "berserk":  # +1 for a discarded card, up to 3 in a fight
        c = tx.fight
        _discard_any(tx, seat, a.text(1))
        tx.set_combat(bonus=c.bonus + combat.BERSERK_BONUS, powers=c.powers + (f"{seat}:berserk",))
        tx.event("power", seat, "berserk", combat.BERSERK_BONUS)
    elif name == "battle_cry":
        ok = effects.d10(tx, seat, "battle_cry")
        tx.set_combat(powers=tx.fight.powers + (f"{seat}:battle_cry",),
                      extra_dice=tx.fight.extra_dice + (1 if ok else 0))
    elif name == "reroll":
        c = tx.fight
        _discard_any(tx, seat, a.text(1))
        tx.event("reroll", seat, c.failed, a.args[1])
        combat.reroll_escape(tx)
    elif name == "flight":
        c = tx.fight
        _discard_any(tx, seat, a.text(1))
        tx.set_combat(run_bonus=c.run_bonus + 1, powers=c.powers + (f"{seat}:flight",))
        tx.event("power", seat, "flight", 1)
    elif name == "charm":
        uid, three = a.number(1), a.texts(2)
        for card in three:
            _discard_any(tx, seat, card)
        tx.set_combat(powers=tx.fight.powers + (f"{seat}:charm",))
        if effects.d10(tx, seat, "charm"):
            _charm(tx, seat, uid)
    elif name == "backstab":
        target, card = a.number(1), a.text(2)
        c = tx.fight
        _discard_any(tx, seat, card)
        tx.set_combat(bonus=c.bonus + combat.BACKSTAB_PENALTY, powers=c.powers + (f"{seat}:backstab:{target}",))
        tx.event("power", seat, "backstab", target)
    elif name == "steal":
        victim, card = a.number(1), a.text(2)
        tx.set_turn(stole=True)
        if effects.d10(tx, seat, "steal"):
            q = tx.player(victim)
            item = next(it for it in q.items if it.card == card)
            tx.set_player(victim, items=tuple(it for it in q.items if it.card != card))
            p = tx.player(seat)
            tx.set_player(seat, hand=p.hand + (item.card,))
            tx.event("stolen", seat, victim, card)
        else:
            effects.hit(tx, seat, 1)


def _discard_any(tx: Tx, seat: int, card: str) -> None:
    p = tx.player(seat)
    if card in p.hand:
        tx.set_player(seat, hand=tuple(c for c in p.hand if c != card))
        tx.discard(card)
    else:
        effects.discard_in_play(tx, seat, card)


def _charm(tx: Tx, seat: int, uid: int) -> None:
    """The charmed monster leaves the fight: discarded, no level; its Treasure is the wizard's
    once the fight ends (Q-COMBAT-12: the fight goes on while any monster remains, and rewards of
    removed monsters wait for its end, mq.rules.effects.end_fight)."""
    m = tx.monster(uid)
    n = monsters.treasure_count(m, tx.cards)  # enhancers included (Q-COMBAT-13)
    tx.remove_monster(uid)
    tx.event("charmed", seat, uid, m.card)
    if n:
        tx.set_combat(owed=tx.fight.owed + ((seat, n),))
    if not tx.fight.monsters:
        effects.end_fight(tx, result=False)  # no monster left: the fight ends without a result
