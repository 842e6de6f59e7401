"""The actions of the packs' races and classes (CLASSIC.md C-PACK-2, 3, 4, 6, C-EPIC-8, 14): what they
may do (listed for mq.classic.legal) and what doing it does (for mq.classic.reducer's ``power``).

- **Eating the weak** (epic orc, C-EPIC-8): ``power eat 0`` as main fighter, at once, before any
  card, help or window: the lone monster kicked open or played for trouble, of printed level
  ``max_level`` or less, is discarded; the orc goes up 1 level as for a kill (it may be the winning
  level, C-LAW-2); the combat counts as won, with no Treasure.
- **Claiming** (epic ranger, C-EPIC-14): ``power claim CARD`` in the claim window (C-DIGI-2 e):
  the whole hand (at least ``min_cards``) for a monster card just discarded, as the steed.
- **Steeds and hirelings** (C-PACK-5): played from the hand like items (a card marked as both in
  either role), one of each in play; a hireling whose card names an escape is sacrificed to run.
- **Taming** (ranger, C-PACK-6): ``power tame CARD... i`` once per combat as main fighter: as many
  hand cards as monster ``i``'s Treasure count (at least 1) are discarded; the monster leaves with
  no levels, Treasure or Bad Stuff and becomes the ranger's steed (mq.classic.pack_effects).

The layer of mq.classic.combat: it reads and changes the combat, never the flow of windows (the
reducer and mq.classic.flow do that)."""
from __future__ import annotations

from mq.cards.classic_defs import ClassicSet
from mq.cards.classic_vocab import FOLLOWERS, K
from mq.classic import character as ch
from mq.classic import combat as cb
from mq.classic import effects as fx
from mq.classic import pack_effects as pfx
from mq.classic.state import ClassicState, CPlayer, Out, Phase
from mq.classic.tx import Tx
from mq.rules.actions import Action

POWERS = ("eat", "tame", "claim")


def tame_cost(s, cards: ClassicSet, i: int) -> int:
    """C-PACK-6: the hand cards taming monster ``i`` costs: its Treasure count, at least 1."""
    return max(1, cb.monster_treasure(s, cards, i))


def may_eat(s: ClassicState, p: CPlayer, cards: ClassicSet) -> bool:
    """C-EPIC-8: an epic orc's own combat, just begun by kicking the door or looking for trouble:
    one monster of printed level ``max_level`` or less, nothing played, no help, no window yet."""
    e = ch.power(p, cards, "eat_weak", s.params)
    c = s.fight
    if e is None or c.fighter != s.current_turn.seat or len(c.monsters) != 1 or c.monsters[0].out:
        return False
    fresh = not c.played and not c.extra and c.helper < 0 and not c.asked and c.windows == 0 and not c.monsters[0].enhancers
    return fresh and cards.monster_card(c.monsters[0].card).level <= e.number("max_level")


def fighter_actions(s: ClassicState, p: CPlayer, cards: ClassicSet, add) -> None:
    """The main fighter's pack powers in the prepare stage (C-EPIC-8, C-PACK-6)."""
    c = s.fight
    if may_eat(s, p, cards):
        add(Action(p.seat, "power", ("eat", 0)))
    if ch.power(p, cards, "tame") is not None and (p.seat, "tame") not in c.used:
        for i in cb.fought(c):
            n = tame_cost(s, cards, i)
            if c.monsters[i].of < 0 and len(p.hand) >= n:  # (a Mate is a copy: nothing to ride)
                add(Action(p.seat, "power", ("tame",) + p.hand[:n] + (i,)))


def claim_actions(s: ClassicState, p: CPlayer, cards: ClassicSet, add) -> None:
    """C-EPIC-14: in the claim window, each monster card still to be claimed."""
    if s.claim is not None and p.seat in pfx.claimers(s, cards):
        for card in s.claim.cards:
            add(Action(p.seat, "power", ("claim", card)))


def own_play_actions(s: ClassicState, p: CPlayer, cards: ClassicSet, add) -> None:
    """C-PACK-5: steeds and hirelings from the hand into play, when items may be (C-CARD-3): as
    their kind (``play CARD``), and a card marked as both in the other role too (``play CARD
    hireling`` / ``play CARD steed``)."""
    for card in dict.fromkeys(p.hand):
        d = cards.card(card)
        if d.kind in FOLLOWERS:
            add(Action(p.seat, "play", (card,)))
            if cards.treasure_card(card).both:
                add(Action(p.seat, "play", (card, K.HIRELING if d.kind == K.STEED else K.STEED)))


def give_actions(s: ClassicState, p: CPlayer, cards: ClassicSet, add) -> None:
    """C-PACK-5 (trading like items, C-ITEM-6): outside combat, a steed or hireling card in play
    given to another player who has none in that role (a tamed monster stays with its ranger)."""
    for role, card in ((K.STEED, p.steed), (K.HIRELING, p.hireling)):
        if card.startswith("CT"):
            for q in s.players:
                if q.seat != p.seat and not getattr(q, role):
                    add(Action(p.seat, "give", (card, q.seat)))


def give(tx: Tx, seat: int, card: str, to: int) -> None:
    role = K.STEED if tx.player(seat).steed == card else K.HIRELING
    tx.set_player(seat, **{role: ""})
    tx.set_player(to, **{role: card})
    tx.event("gift", seat, to, card)
    fx.fit_big_items(tx, seat)  # C-EPIC-15: the giver's extra big item goes with the steed


def runner_actions(s: ClassicState, p: CPlayer, cards: ClassicSet, add) -> None:
    """C-PACK-5: a hireling whose card names an escape may be sacrificed to run."""
    if p.hireling and any(e.name == "escape" for e in cards.treasure_card(p.hireling).use):
        add(Action(p.seat, "use", (p.hireling,)))


def put_into_play(tx: Tx, seat: int, card: str, role: str) -> None:
    """C-PACK-5: a steed or hireling card into play in ``role`` (replacing the one there)."""
    tx.event("played", seat, card, tx.cards.card(card).kind, role)
    if role == K.STEED:
        pfx.set_steed(tx, seat, card, "play")
    else:
        pfx.set_hireling(tx, seat, card)


def sacrifice(tx: Tx, seat: int) -> None:
    """C-PACK-5: the hireling discarded for what its card names (escaping, while running, C-RUN-3)."""
    card = tx.player(seat).hireling
    tx.event("played", seat, card, K.HIRELING, "run")
    fx.lose_follower(tx, seat, "hireling", "sacrifice")
    if any(e.name == "escape" for e in tx.cards.treasure_card(card).use):
        cb.escape_all(tx, seat)


def discards(action: Action) -> int:
    """How many of a pack power's arguments, after its name, are the hand cards it discards."""
    return len(action.args) - 2 if action.args[:1] == ("tame",) else 0


def apply(tx: Tx, a: Action) -> None:
    seat, name = a.seat, a.text(0)
    if name == "eat":  # C-EPIC-8: no card may prevent it; a won combat and a kill, no Treasure
        i = a.number(1)
        tx.event("power", seat, name, str(i))
        cb.take_out(tx, i, Out.KILLED)
        fx.gain_levels(tx, seat, 1, "kill", may_win=True)
        if tx.winners:
            tx.event("game_won", tx.winners)
        cb.end(tx, "won")
        if tx.winners:
            tx.phase = Phase.OVER
    elif name == "tame":  # C-PACK-6
        i = a.number(len(a.args) - 1)
        for k in range(1, len(a.args) - 1):
            fx.discard_from_hand(tx, seat, a.text(k), "power")
        tx.set_combat(used=tx.fight.used + ((seat, name),))
        tx.event("power", seat, name, str(i))
        cb.take_out(tx, i, Out.STEED)
        pfx.set_steed(tx, seat, tx.fight.monsters[i].card, "tame")
    elif name == "claim":  # C-EPIC-14
        pfx.claim(tx, seat, a.text(1))
    else:
        raise NotImplementedError(f"the Classic engine has no code for the pack power {name!r}")
