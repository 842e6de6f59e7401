"""A Classic bot (CLASSIC.md): it sees only its view and plays to win.

It kicks doors; looks for trouble only with a monster it beats alone; sells its hand's items and
the items it has set aside for levels; plays
its race, class, items and go-up-a-level cards; asks for help when losing and takes the cheapest
offer that wins, else promises an item it can spare to one whose help wins; helps others for a share of the Treasure, but never anyone to the winning level;
hinders a combat that would give the leader or anyone the winning level (monster-side one-shots,
enhancers, Wandering Monsters, backstabs, epic arrows); curses the leader, dodges curses and
picks pockets when epic; eats weak monsters as an epic orc and tames a monster that turns a lost
fight as a ranger (C-EPIC-8, C-PACK-6), keeping the best Treasure of a bard's luck; runs with its escape cards when the
Bad Stuff is worst; loses and gives away its least useful cards; trades items in play that make it
stronger, never to help a leader (mq.bots.classic_trades).  Deterministic: no randomness of
its own, ties broken by the legal order."""
from __future__ import annotations

from mq.bots import classic_dungeons as bot_dungeons
from mq.bots import classic_trades as bot_trades
from mq.cards.classic_defs import ClassicSet
from mq.cards.classic_vocab import FOLLOWERS, K
from mq.classic import cards_or_default
from mq.classic import character as ch
from mq.classic import combat as cb
from mq.classic import deals as dl
from mq.classic.legal import DISCARD_ARGS, legal_actions, sellable, valid_sale
from mq.classic.state import ClassicState, CMonster, Combat, DealKind, PendingKind, Phase, Picks, Stage
from mq.rules.actions import Action


def worth(cards: ClassicSet, card: str) -> int:
    """How much a card is worth keeping, roughly: items by value and bonus, the rest by kind."""
    if card == "?":
        return 0
    d = cards.card(card)
    if d.kind == K.ITEM:
        return d.value + 150 * d.bonus
    if d.kind == K.LEVEL:
        return 1200
    if d.kind == K.MONSTER:
        return 100
    if d.kind in (K.RACE, K.CLASS):
        return 300
    if d.kind == K.PORTAL:
        return 200
    return 400


def choose(v: ClassicState, seat: int, cards: ClassicSet | None = None) -> Action:
    cards = cards_or_default(cards, v)
    acts = legal_actions(v, seat, cards)
    if not acts:
        raise ValueError(f"seat {seat} has no legal action")
    return _spare(v, cards, acts, _choose(v, seat, cards, acts))


IN_PLAY = 2000  # what a card in play is worth beyond its card when paying for a power (C-CHAR-3)


def _spare(v: ClassicState, cards, acts, a: Action) -> Action:
    """A power that costs a discard (C-CHAR-3): the same use, discarding the least useful cards."""
    n = DISCARD_ARGS.get(a.args[0], 0) if a.kind == "power" and a.args else 0
    if not n:
        return a
    same = [b for b in acts if b.kind == "power" and b.args[0] == a.args[0] and b.args[1 + n:] == a.args[1 + n:]]
    hand = v.players[a.seat].hand
    # (a card in play works for me now; one in hand does nothing yet, C-ITEM-1: play pays last)
    return min(same, key=lambda b: sum(worth(cards, c) + (0 if c in hand else IN_PLAY) for c in b.args[1:1 + n]))


def _choose(v: ClassicState, seat: int, cards: ClassicSet, acts) -> Action:
    if v.pending is not None:
        return _pending(v, seat, cards, acts)
    if v.curse is not None:
        if v.curse.victim == seat:
            for a in acts:
                if a.kind in ("use", "power"):
                    return a  # C-CARD-8, C-EPIC-9: cancel or dodge a curse on myself
        return _first(acts, "pass")
    if v.claim is not None and v.claim.open:  # C-EPIC-14: a rich monster for a poor hand
        return _claim(v, seat, cards, acts) or _first(acts, "pass")
    if v.phase == Phase.SETUP:
        return _improve(v, seat, cards, acts) or _first(acts, "ready")
    c = v.combat
    a = bot_trades.answer(v, seat, cards, acts) if c is None else None  # C-ITEM-6
    if a:
        return a
    if c is None and v.turn.phase == Phase.CLOSING:  # C-DIGI-2 f: another's turn is over
        return _curse(v, seat, acts) or _first(acts, "pass")
    if c is None:
        return _own_turn(v, seat, cards, acts)
    a = _answer_deal(v, seat, cards, acts)
    if a:
        return a
    if c.stage == Stage.PREPARE:
        return _fighter(v, seat, cards, acts)
    if c.stage == Stage.HELP:
        return _help(v, seat, cards, acts)
    if c.stage == Stage.WINDOW:
        return _window(v, seat, cards, acts)
    return _run(v, seat, cards, acts)


def _first(acts, kind: str, pred=lambda a: True) -> Action | None:
    for a in acts:
        if a.kind == kind and pred(a):
            return a
    return None


def _pending(v, seat, cards, acts) -> Action:
    kind = v.pending.kind
    if kind == PendingKind.SALVAGE:  # C-CHAR-5: the top discard when it beats a card of the hand by far
        pile = v.door if v.pending.arg == "door" else v.treasure
        pay = min((a for a in acts if a.args[0] != "draw"), key=lambda a: worth(cards, a.args[0]))
        if worth(cards, pile.discard[-1]) >= worth(cards, pay.args[0]) + 400:
            return pay
        return next(a for a in acts if a.args[0] == "draw")
    if kind == PendingKind.PORTAL:  # C-PACK-7
        return bot_dungeons.choose_portal(v, seat, cards, acts)
    if kind in (PendingKind.LOOT, PendingKind.SEARCH, PendingKind.PICK):
        return max(acts, key=lambda a: worth(cards, a.args[0]))
    return min(acts, key=lambda a: worth(cards, a.args[0]))  # lose or give the least useful


def _improve(v, seat, cards, acts) -> Action | None:
    """Races and classes into an empty place, items into play and into use, Cheat! on the best."""
    p = v.players[seat]
    for a in acts:
        if a.kind == "play":
            d = cards.card(a.args[0])
            if (d.kind == K.RACE and not p.races) or (d.kind == K.CLASS and not p.classes) or d.kind == K.ITEM:
                return a
            if d.kind in (K.HALFBREED, K.SUPERMUNCHKIN):
                return a
            if d.kind in FOLLOWERS and _better_follower(p, cards, a):
                return a
        if a.kind == "equip" and not next(it.in_use for it in p.items if it.card == a.args[0]):
            return a
        if a.kind == "cheat":
            return a
    return None


def _better_follower(p, cards, a) -> bool:
    """C-PACK-5: a steed or hireling card into the role its action names, when it beats the one
    there (a card that may be either goes where it gains more)."""
    d = cards.card(a.args[0])
    role = a.args[1] if len(a.args) > 1 else d.kind
    now = ch.steed_bonus(p, cards) if role == K.STEED else ch.hireling_bonus(p, cards)
    return d.bonus > now


def _leader(v, seat) -> int:
    """The other munchkin with the highest level (lowest seat on ties), or -1 if none is ahead
    of or level with this one."""
    me = v.players[seat].level
    best = max((q for q in v.players if q.seat != seat), key=lambda q: (q.level, -q.seat))
    return best.seat if best.level >= me else -1


def _curse(v, seat, acts) -> Action | None:
    target = _leader(v, seat)
    if target >= 0 and v.players[target].level >= 4:
        return _first(acts, "curse", lambda a: a.args[1] == target)
    return None


def _own_turn(v, seat, cards, acts) -> Action:
    p = v.players[seat]
    a = _improve(v, seat, cards, acts)
    if a:
        return a
    for a in acts:
        if a.kind == "play" and cards.card(a.args[0]).kind in (K.LEVEL, K.SPECIAL) and len(a.args) == 1 \
                and _raises_me_not_a_rival(v, seat, cards, a.text(0)):
            return a
    a = _send_monster(v, seat, cards, acts) or bot_dungeons.portal_to_open(v, seat, cards, acts)
    if a:
        return a
    a = _sale(v, seat, cards) or _first(acts, "buy") or _curse(v, seat, acts)
    if a:
        return a
    for a in acts:
        if a.kind == "power" and a.args[0] == "theft" and p.level > 2:
            return a
        if a.kind == "power" and a.args[0] == "pickpocket":
            return a
    a = _first(acts, "kick")
    if a:
        return a
    if v.turn.phase == Phase.TROUBLE:
        for a in acts:
            if a.kind == "fight" and _beats_alone(v, seat, cards, a.args[0]):
                return a
        return _first(acts, "loot")
    return bot_trades.offer(v, seat, cards, acts) or _first(acts, "end_turn") or acts[-1]


def _send_monster(v, seat, cards, acts) -> Action | None:
    """C-COMBAT-12: a card that makes another fight the top Door card off their turn: at the
    weakest rival whom no kill can take to the winning level (a monster gives at most 2)."""
    win = v.params.win_level
    targets = [a for a in acts if a.kind == "play" and len(a.args) == 2 and _sends_monster(cards, a.text(0))
               and v.players[a.number(1)].level < win - 2]
    return min(targets, key=lambda a: (_might(v, a.args[1], cards), a.args[1])) if targets else None


def _raises_me_not_a_rival(v, seat, cards, card: str) -> bool:
    """A card that raises every munchkin of a kind a level (every cleric, say): only when it raises
    this bot and takes no rival to the winning level (it was played for the leader alone)."""
    d = cards.playable_card(card)
    if d.kind != K.SPECIAL or not d.effects or d.effects[0].name != "level_up_all":
        return True
    up = [q for q in v.players if d.effects[0].get("who") in ch.who(q, cards)]
    win = v.params.win_level
    return any(q.seat == seat for q in up) and all(q.level + 1 < win for q in up if q.seat != seat)


def _sends_monster(cards, card: str) -> bool:
    """Whether ``card`` is one that sends the top Door card at another munchkin (C-COMBAT-12); a
    play of two arguments may also be a steed played as a hireling (C-PACK-6)."""
    d = cards.playable_card(card)
    return d.kind == K.SPECIAL and bool(d.effects) and d.effects[0].name == "send_monster"


def _might(v, seat, cards) -> int:
    """A munchkin's strength in a fight as every seat can see it: level and items in use."""
    p = v.players[seat]
    return p.level + sum(cards.treasure_card(it.card).bonus for it in p.items if it.in_use)


def _sale(v, seat, cards) -> Action | None:
    """C-ITEM-7: sell the hand's items and the items in play set aside, when they buy a level."""
    if v.combat is not None or v.turn is None or v.turn.seat != seat:
        return None
    p = v.players[seat]
    aside = {it.card for it in p.items if not it.in_use}
    sold = tuple(c for c in sellable(p, cards) if c in p.hand or c in aside)
    if sold and valid_sale(v, seat, cards, sold):
        return Action(seat, "buy", sold)
    return None


def _beats_alone(v, seat, cards, card) -> bool:
    trial = v.replace(combat=Combat(fighter=seat, monsters=(CMonster(card),)))
    mine, theirs = cb.strengths(trial, cards)
    return mine > theirs + 1


def _fighter(v, seat, cards, acts) -> Action:
    c = v.combat
    a = _first(acts, "power", lambda a: a.args[0] == "eat")  # C-EPIC-8: a sure level, at once
    if a:
        return a
    if cb.munchkin_wins(v, cards):
        return _first(acts, "roll")
    for a in acts:
        if a.kind == "play" and cards.card(a.args[0]).kind in (K.RACE, K.CLASS) and not _has_kind(v, seat, cards, a):
            return a
    for a in acts:
        if a.kind == "use" and (a.args[1:] == ("munchkins",) or type(a.args[-1]) is int):
            d = cards.card(a.args[0])
            if d.effects and d.effects[0].name in ("send_away", "end_combat") and len(cb.fought(c)) > 1:
                continue
            return a
        if a.kind == "power" and a.args[0] == "discard_bonus":
            return a
    a = _ask(v, seat, cards, acts)
    if a:
        return a
    a = _tame(v, seat, cards, acts) or _bribe(v, seat, cards, acts)
    if a:
        return a
    a = _first(acts, "power", lambda a: a.args[0] == "pet")  # C-EPIC-6: a weak monster as a pet
    if a:
        return a
    a = _first(acts, "power", lambda a: a.args[0] == "sacrifice" and a.args[1] == seat)
    if a:
        return a
    a = _first(acts, "power", lambda a: a.args[0] == "enthral")
    if a and len(cb.fought(c)) == 1:
        return a
    return _first(acts, "roll")


def _ask(v, seat, cards, acts) -> Action | None:
    """C-HELP-1: ask one player at a time the one likeliest to accept for the least: one whose
    help wins (a bot helps only then), not an elf (an elf helper goes up levels, C-HELP-5), the
    lowest level first; nobody when the win would give me the winning level (nobody helps to it)."""
    if v.players[seat].level + cb.levels_won(v, cards) >= v.params.win_level:
        return None
    asks = [a for a in acts if a.kind == "ask" and cb.munchkin_wins(_with_helper(v, a.args[0]), cards)]
    elf = {q.seat for q in v.players if ch.power(q, cards, "help_levels") is not None}
    return min(asks, key=lambda a: (a.args[0] in elf, v.players[a.args[0]].level, asks.index(a)), default=None)


def _tame(v, seat, cards, acts) -> Action | None:
    """C-PACK-6: losing and unhelped, tame the monster whose going turns the fight (or the only
    one), when it makes a better steed than the one ridden."""
    c = v.combat
    ridden = ch.steed_bonus(v.players[seat], cards)
    for a in acts:
        if a.kind != "power" or a.args[0] != "tame":
            continue
        i = a.args[-1]
        if cards.monster_card(c.monsters[i].card).treasure <= ridden:
            continue
        rest = c.replace(monsters=tuple(m.replace(out="steed") if k == i else m for k, m in enumerate(c.monsters)))
        if len(cb.fought(c)) == 1 or cb.munchkin_wins(v.replace(combat=rest), cards):
            return a
    return None


def _claim(v, seat, cards, acts) -> Action | None:
    """C-EPIC-14: the whole hand for a discarded monster, when its Treasure (its bonus as steed) is
    at least 3, beats the steed ridden, and the hand is small."""
    p = v.players[seat]
    best = max((a for a in acts if a.kind == "power" and a.args[0] == "claim"),
               key=lambda a: cards.monster_card(a.args[1]).treasure, default=None)
    if best is None:
        return None
    bonus = cards.monster_card(best.args[1]).treasure
    return best if bonus >= 3 and bonus > ch.steed_bonus(p, cards) and len(p.hand) <= bonus + 1 else None


def _with_helper(v, helper: int) -> ClassicState:
    return v.replace(combat=v.combat.replace(helper=helper))


def _answer_deal(v, seat, cards, acts) -> Action | None:
    """C-HELP-3, 7: a deal offered to me: help on the fighter's terms when the side then wins and
    the fighter does not reach the winning level; sell my abstention for any item; as the
    fighter, of the offers of help, the cheapest fair one that wins (C-HELP-1: several may bid).
    Else decline."""
    c = v.combat
    fair = [d for d in dl.open_to(c, seat) if d.what == DealKind.HELPER and Action(seat, "accept", ("deal", d.by)) in acts
            and _fair(v, seat, cards, d)]
    if fair:
        best = min(fair, key=lambda d: (d.share, worth(cards, d.item) if d.item else 0, d.by))
        return Action(seat, "accept", ("deal", best.by))
    for a in acts:
        if a.kind != "decline":
            continue
        d = next(x for x in c.proposed if x.by == a.args[1] and x.to == seat)
        take = Action(seat, "accept", ("deal", d.by))
        if take in acts:
            if d.what == DealKind.ABSTAIN:
                return take
            if d.what == DealKind.HELP and _helps_safely(v, seat, cards):
                return take
        return a
    return None


def _fair(v, seat, cards, d) -> bool:
    """An offer of help I take as the fighter: it wins a fight I lose alone, for at most half the
    Treasure (rounded up) and no item of mine in use."""
    total = sum(cb.monster_treasure(v, cards, i) for i in cb.fought(v.combat))
    in_use = {it.card for it in v.players[seat].items if it.in_use}
    return (cb.munchkin_wins(_with_helper(v, d.by), cards) and not cb.munchkin_wins(v, cards)
            and d.share <= (total + 1) // 2 and d.item not in in_use)


def _helps_safely(v, seat, cards) -> bool:
    """Helping wins a fight the fighter loses alone and gives nobody the winning level (C-LAW-2,
    C-HELP-5): a fighter who wins alone is not helped (no share of a fight they need no help in)."""
    c = v.combat
    if v.players[c.fighter].level + cb.levels_won(v, cards) >= v.params.win_level:
        return False
    return cb.munchkin_wins(_with_helper(v, seat), cards) and not cb.munchkin_wins(_with_helper(v, -1), cards)


def _bribe(v, seat, cards, acts) -> Action | None:
    """C-HELP-3: losing alone with nobody's offer winning, the fighter offers the least it can to
    one whose help would win: a share of the Treasure (the helper picking first), else its least
    useful card in play, if the fight is won."""
    bribes = [a for a in acts if a.kind == "deal" and a.args[1] == DealKind.HELP
              and cb.munchkin_wins(_with_helper(v, a.args[0]), cards)]
    if not bribes:
        return None
    in_use = {it.card for it in v.players[seat].items if it.in_use}
    return min(bribes, key=lambda a: (a.args[2] in in_use, bool(a.args[2]), worth(cards, a.args[2]) if a.args[2] else 0,
                                      a.args[3], a.args[4] != Picks.HELPER, a.args[0]))


def _abstention(v, seat, cards, acts) -> Action | None:
    """C-HELP-7: a fighter who would reach the winning level if helped: pay one whose help would
    win the fight, with my least useful item, not to help."""
    c = v.combat
    if v.players[c.fighter].level + cb.levels_won(v, cards) < v.params.win_level or cb.munchkin_wins(v, cards):
        return None
    buys = [a for a in acts if a.kind == "deal" and a.args[1] == DealKind.ABSTAIN
            and cb.munchkin_wins(_with_helper(v, a.args[0]), cards)]
    return min(buys, key=lambda a: (worth(cards, a.args[2]), a.args[0])) if buys else None


def _has_kind(v, seat, cards, a) -> bool:
    p = v.players[seat]
    return bool(p.races if cards.card(a.args[0]).kind == K.RACE else p.classes)


def _help(v, seat, cards, acts) -> Action:
    """C-HELP-3: help for half the Treasure when it wins, never to the winning level."""
    c = v.combat
    if not _helps_safely(v, seat, cards):
        return _abstention(v, seat, cards, acts) or _first(acts, "pass")
    total = sum(cb.monster_treasure(v, cards, i) for i in cb.fought(c))
    want = (total + 1) // 2
    return _first(acts, "offer", lambda a: a.args == (want, Picks.HELPER, "")) or _first(acts, "pass")


def _window(v, seat, cards, acts) -> Action:
    c = v.combat
    win = v.params.win_level
    if seat == c.helper:
        if not cb.munchkin_wins(v, cards):
            a = _first(acts, "use", lambda a: a.args[1:] == ("munchkins",)) or _first(
                acts, "power", lambda a: a.args[0] == "discard_bonus")
            if a:
                return a
        return _first(acts, "pass")
    fighter = v.players[c.fighter]
    dangerous = (fighter.level + cb.levels_won(v, cards) >= win or _leader(v, seat) == c.fighter
                 or (c.helper >= 0 and v.players[c.helper].level + len(cb.fought(c)) >= win))
    if dangerous and cb.munchkin_wins(v, cards):
        for a in acts:
            if a.kind == "use" and a.args[1:] == ("monsters",):
                return a
            if a.kind in ("enhance", "wander", "mate"):
                if a.kind == "enhance" and cards.card(a.args[0]).bonus < 0:
                    continue
                return a
            if a.kind == "power" and (a.args[0] == "backstab" or a.args[:1] + a.args[2:] == ("arrows", "monsters")):
                return a
    return _curse(v, seat, acts) or _first(acts, "pass")


def _run(v, seat, cards, acts) -> Action:
    c = v.combat
    if c.die:  # C-DIGI-2 c: turn my own failed roll
        i, roll = c.die
        if seat == c.runners[0] and roll < cb.needed(v, cards, seat, i):
            return _first(acts, "use") or _first(acts, "pass")
        return _first(acts, "pass")
    if seat != c.runners[0]:  # C-RUN-3: another's run-away window: a rival's escape is no gain of mine
        return _first(acts, "pass")
    worst = any(e.name == "death" for i in cb.to_escape(c) for e in cards.card(c.monsters[i].card).bad_stuff)
    for a in acts:
        if a.kind == "use" and (worst or len(cb.to_escape(c)) > 1 or v.players[seat].level >= v.params.win_level - 2):
            if a.args[0] == v.players[seat].hireling and not worst:
                continue  # C-PACK-5: the hireling is sacrificed only to escape death
            return a
        if a.kind == "power" and a.args[0] == "escape_boost" and len(v.players[seat].hand) > 2:
            return a
    return _first(acts, "escape")
