"""What deals for help are worth to a bot, in gold (Q-HELP-2, Q-DIGI-3), and which to make.

A fight is worth its levels and Treasure when won and costs hits and Bad Stuff when lost; chances
come from mq.bots.odds.  A rival's level costs a munchkin something too, more the further that
rival is ahead, and a rival reaching the 10th level (a shot at the Boss, Q-BOSS-1) costs more
than any bribe on the table pays: so nobody is helped to the winning level for free.

Both sides of a deal are valued from what every seat can see (levels, items in play, gold, the
fight; never a hand), so a fighter can work out what a bidder will accept and a bidder what the
fighter will take, and the same view always gives the same valuation.  Against the Boss the stakes
are the game: a shared win counts half a win (Q-BOSS-4), gold and items only matter if the fight
is lost, and a level-10 munchkin helps only when that beats waiting for their own turn at it.

What the engine does not expose and is rebuilt here (a query the engine should offer: "the levels
a win gives each fighter"): the levels a kill gives (Q-COMBAT-9: one a monster, two for a Mighty
one killed alone; a helper on a Mighty monster one, an elf helper one, Q-CHAR-4)."""
from __future__ import annotations

from mq.bots import odds
from mq.cards import CardKind, TreasureDef
from mq.rules import combat, legal, monsters
from mq.rules.actions import Action
from mq.rules.character import MAX_LEVEL, identity, place_for, usable
from mq.rules.state import Combat, FirstPick, Player, State

LEVEL = legal.LEVEL_PRICE  # what a level is worth: its price (Q-CHAR-3)
WIN_LEVEL = 3 * LEVEL  # the 10th level: the right to fight the Boss
ENEMY = 2500  # what a rival's 10th level costs everyone else
LOSS = 400  # a lost fight, per monster: a hit and the chance of its Bad Stuff (Q-COMBAT-10, Q-RUN-2)
DEATH = 2000  # dying drops every item and a level (Q-DEATH-1)
COWIN = odds.PER // 2  # a shared win against the Boss, in per mille of a win (Q-BOSS-4)


def worth(card: str, p: Player, cards) -> int:
    """A rough value of a card to ``p``, in gold: levels are worth most, then what adds strength
    (items that work for ``p``, one-shots, enhancers to weaken a monster), curses to slow a rival."""
    d = cards.card(card)
    kind = getattr(d, "kind", None)
    if kind == CardKind.LEVEL:
        return LEVEL
    if isinstance(d, TreasureDef):
        if kind == CardKind.ITEM and not usable(d, identity(p, cards)):
            return d.value // 2
        return d.value + 100 * max(0, d.bonus)
    if kind in (CardKind.ONESHOT, CardKind.ENHANCER):
        return 150 * abs(d.bonus) + 200 * bool(d.effects)
    if kind in (CardKind.CURSE, CardKind.WANDERING, CardKind.MATE, CardKind.CHEAT, CardKind.HALFBREED,
                CardKind.SUPERMUNCHKIN):
        return 300
    return 100  # a race or class card we may not need


_PICKS: dict[int, tuple[object, int]] = {}


def pick_value(cards) -> int:
    """What one Treasure drawn blind is worth: the mean printed value of the Treasure deck."""
    hit = _PICKS.get(id(cards))
    if hit is None or hit[0] is not cards:
        hit = (cards, sum(d.value for d in cards.treasures) // max(1, len(cards.treasures)))
        _PICKS[id(cards)] = hit
    return hit[1]


def gold_worth(p: Player, gold: int) -> int:
    """Gold buys levels, but never the 10th (Q-CHAR-3, Q-LAW-2): from level 9 on it is worth half."""
    return gold if p.level < MAX_LEVEL - 1 else gold // 2


def level_worth(level: int, n: int) -> int:
    """Going up ``n`` levels by a kill from ``level``."""
    return sum(LEVEL if lv < MAX_LEVEL else WIN_LEVEL for lv in range(level + 1, min(MAX_LEVEL, level + n) + 1))


def rival_cost(me: Player, other: Player, n: int) -> int:
    """What ``me`` loses when ``other`` goes up ``n`` levels: a third of a level between equals,
    up to a level when they are far ahead, and ENEMY for the 10th."""
    if n <= 0 or other.level >= MAX_LEVEL:
        return 0
    if other.level + n >= MAX_LEVEL:
        return ENEMY
    weight = min(6, max(1, 2 + other.level - me.level))
    return n * LEVEL * weight // 6


def threatens(view: State, seat: int, cards, c: Combat | None = None) -> bool:
    """Whether ``seat`` is everyone's enemy: at level 10, or one kill (this fight's, when given)
    from it."""
    p = view.players[seat]
    if p.level >= MAX_LEVEL:
        return True
    gain = kill_levels(view, c, cards)[0] if c is not None and c.fighter == seat else 1
    return p.level + gain >= MAX_LEVEL


def kill_levels(view: State, c: Combat, cards) -> tuple[int, int]:
    """(fighter's, helper's) levels if fight ``c`` is won (Q-COMBAT-9, Q-CHAR-4)."""
    helped = c.helper >= 0
    mine = helper = 0
    for uid in c.monsters:
        mighty = cards.card(combat.find(view.monsters, uid).card).mighty
        mine += 1 if helped or not mighty else 2
        helper = helper or int(mighty and helped)
    if helped and "elf" in identity(view.players[c.helper], cards):
        helper = 1
    return mine, helper


def treasures(view: State, c: Combat, cards) -> int:
    return sum(monsters.treasure_count(combat.find(view.monsters, uid), cards) for uid in c.monsters)


def loss_cost(p: Player, c: Combat) -> int:
    n = len(c.monsters)
    return LOSS * n + (DEATH if p.hp <= n else 0)


def boss_value(p_win: int, own_chance: int, alone: bool) -> int:
    """A Boss fight to one of its fighters, in per mille squared of a win: a kill is a win (half a
    win when shared, Q-BOSS-4); a loss costs a level (Q-BOSS-5) and leaves them a later try at
    half their own chance against a Boss."""
    return p_win * (odds.PER if alone else COWIN) + (odds.PER - p_win) * own_chance // 2


# -- one fight's haggling ---------------------------------------------------------------------
class Haggle:
    """The deals on offer for the fight in ``view`` and what each is worth to either side.  Chances
    are worked out once per helper and item (``extra``: strength the fighter adds from one-shots
    in hand, known to the fighter alone; 0 for what the table can see)."""

    def __init__(self, view: State, cards, extra: int = 0) -> None:
        self.view, self.cards, self.extra = view, cards, extra
        self.c = view.combat.replace(helper=-1)
        self.fighter = view.players[self.c.fighter]
        self.loot = treasures(view, self.c, cards)
        self.p_alone = odds.chance(odds.what_if(view, self.c), cards, extra)
        self._helped: dict[tuple[int, str], tuple[State, int]] = {}
        self._boss: dict[int, int] = {}

    def helped(self, helper: int, item: str) -> tuple[State, int]:
        """The fight with ``helper`` (after ``item`` changed hands) and its chance."""
        key = (helper, item)
        if key not in self._helped:
            s = odds.with_helper(self.view, self.c, helper, item, self.cards)
            self._helped[key] = (s, odds.chance(s, self.cards, self.extra))
        return self._helped[key]

    def own_boss_chance(self, seat: int) -> int:
        """``seat``'s chance alone against this fight's monsters (what a Boss of their own might be)."""
        if seat not in self._boss:
            solo = Combat(fighter=seat, room=self.c.room, monsters=self.c.monsters, boss=True)
            self._boss[seat] = odds.chance(odds.what_if(self.view, solo), self.cards)
        return self._boss[seat]

    def _value(self, c: Combat, share: int, p_win: int) -> int:
        """The fighter's expected gain from fight ``c`` (per mille times gold), ``share`` of its
        Treasures going to the helper first (Q-HELP-2)."""
        f = self.fighter
        levels, helper_levels = kill_levels(self.view, c, self.cards)
        won = level_worth(f.level, levels) + max(0, self.loot - share) * pick_value(self.cards)
        if c.helper >= 0:
            won -= rival_cost(f, self.view.players[c.helper], helper_levels)
        return p_win * won - (odds.PER - p_win) * loss_cost(f, c)

    def fighter_gain(self, helper: int, gold: int, share: int, item: str = "", first: str = FirstPick.HELPER) -> int:
        """What the deal (``helper`` helps for ``gold``, ``share`` Treasure picks, ``first``
        picking first, and ``item``) is worth to the fighter, in gold, against fighting alone."""
        f = self.fighter
        s, p_help = self.helped(helper, item)
        paid = gold_worth(f, gold) + (worth(item, f, self.cards) if item else 0)
        if self.c.boss:
            mine = self.own_boss_chance(f.seat)
            gain = boss_value(p_help, mine, False) - boss_value(self.p_alone, mine, True)
            return gain // odds.PER - paid * (odds.PER - p_help) // odds.PER  # what is paid matters after a loss
        gain = self._value(s.combat, min(share, self.loot), p_help) - self._value(self.c, 0, self.p_alone)
        return gain // odds.PER - paid + self._first_pick(share, first == FirstPick.FIGHTER, p_help)

    def _first_pick(self, share: int, mine: bool, p_win: int) -> int:
        """Picking first among shared Treasures (Q-HELP-2): the better card, if the fight is won."""
        shared = 0 < min(share, self.loot) < self.loot
        return legal.FIRST_PICK_VALUE * p_win // odds.PER if shared and mine else 0

    def reserve(self, helper: int, item: str = "") -> int:
        """The least ``helper`` must get to help, in gold: the risk of a loss and what the
        fighter's levels cost them, less their own levels (an elf's, Q-CHAR-4; a Mighty monster's,
        Q-COMBAT-9).  Against the Boss (only level-10 helpers, Q-BOSS-3): nothing when a shared
        chance beats waiting for their own turn at it, else more than any deal pays."""
        h = self.view.players[helper]
        s, p_help = self.helped(helper, item)
        if self.c.boss:
            mine = self.own_boss_chance(helper)
            return 0 if boss_value(p_help, mine, False) >= (odds.PER - self.p_alone) * mine else 10 * ENEMY
        levels, helper_levels = kill_levels(s, s.combat, self.cards)
        gain = rival_cost(h, self.fighter, levels) - level_worth(h.level, helper_levels)
        return (p_help * gain + (odds.PER - p_help) * loss_cost(h, self.c)) // odds.PER

    def helper_gets(self, helper: int, gold: int, share: int, item: str = "", first: str = FirstPick.HELPER) -> int:
        """What the terms are worth to ``helper``, in gold (Treasure picks only if the fight is
        won; against the Boss only what is left if it is lost: a kill ends the game)."""
        h = self.view.players[helper]
        _, p_help = self.helped(helper, item)
        value = gold_worth(h, gold) + (worth(item, h, self.cards) if item else 0)
        if self.c.boss:
            return value * (odds.PER - p_help) // odds.PER
        return value + min(share, self.loot) * pick_value(self.cards) * p_help // odds.PER \
            + self._first_pick(share, first == FirstPick.HELPER, p_help)

    def acceptable(self, helper: int, gold: int, share: int, item: str = "", first: str = FirstPick.HELPER) -> bool:
        """Whether ``helper`` would help on these terms.  Against the Boss, when helping is worth
        it at all, never for nothing from a fighter who has gold or an item to give (Treasure
        picks are no pay there: a kill ends the game)."""
        if self.c.boss:
            return self.reserve(helper, item) <= 0 and (gold > 0 or bool(item) or not self._can_pay(helper))
        return self.helper_gets(helper, gold, share, item, first) >= self.reserve(helper, item)

    def _can_pay(self, helper: int) -> bool:
        h = self.view.players[helper]
        return self.fighter.gold >= min(g for g in legal.HELP_GOLD if g > 0) \
            or any(place_for(h, self.cards.card(it.card), self.cards, bool(it.cheat)) is not None
                   for it in self.fighter.items)


def terms_of(a: Action) -> tuple[int, int, str, str]:
    """(gold, picks, item, who picks first) of an ``offer`` action."""
    args = a.args + ("", FirstPick.HELPER)[len(a.args) - 2:]
    return args[0], args[1], args[2], args[3]


def bid(view: State, seat: int, cards, offers: list[Action]) -> Action | None:
    """A bidder's offer (Q-HELP-2): the terms worth most to them among those they would help for
    and the fighter would still take, beating every other bid on the table for the fighter."""
    h = Haggle(view, cards)
    rivals = [h.fighter_gain(*o) for o in view.combat.offers if o[0] not in (seat, h.c.fighter)]
    floor = max(rivals) if rivals else 0
    best = None
    for a in offers:
        gold, share, item, first = terms_of(a)
        if gold > h.fighter.gold or not h.acceptable(seat, gold, share, item, first):
            continue
        gain = h.fighter_gain(seat, gold, share, item, first)
        if gain <= floor:
            continue
        key = (h.helper_gets(seat, gold, share, item, first), legal.deal_cost(gold, share, item, cards, first))
        if best is None or key > best[0]:
            best = (key, a)
    return best[1] if best else None


def answer(view: State, cards, accepts: list[Action], counters: list[Action], extra: int = 0) -> Action | None:
    """The fighter's answer to the bids (Q-DIGI-3): the bid, or a cheaper counter-offer the bidder
    will take, that is worth most to the fighter; None when no deal is worth having."""
    h = Haggle(view, cards, extra)
    c = view.combat
    best = None
    for a in accepts:
        gain = h.fighter_gain(*next(o for o in c.offers if o[0] == a.args[0]))
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, a)
    for a in counters:
        helper, (gold, share, item, first) = a.args[0], terms_of(Action(a.seat, "offer", a.args[1:]))
        gain = h.fighter_gain(helper, gold, share, item, first)
        if gain > 0 and (best is None or gain > best[0]) and h.acceptable(helper, gold, share, item, first):
            best = (gain, a)
    return best[1] if best else None
