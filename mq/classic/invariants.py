"""What every step of every Classic game must keep, checked from outside the rules (as Quest's
mq.rules.invariants) for the conformance tests: ``check(state, cards)`` after every step and
``check_step(before, after, events, cards)`` for what a step may change.  Each returns the list of
broken invariants in words (empty when all hold).  Nothing in the engine imports this module."""
from __future__ import annotations

from collections import Counter

from mq.cards.classic_defs import ClassicSet, ClassicTreasureDef
from mq.cards.classic_vocab import K
from mq.classic import character as ch
from mq.classic import dungeons
from mq.classic.state import ClassicState, Phase

SLOTS = dict(ch.SLOT_CAPACITY)


def zones(s: ClassicState) -> Counter:
    """Every card of the game wherever it is: decks, hands, cards in play, the combat, a curse on
    its way, bodies (C-SETUP-2, C-DEATH-2)."""
    seen: Counter = Counter()
    seen.update(s.door.draw + s.door.discard + s.treasure.draw + s.treasure.discard)
    for p in s.players:
        seen.update(p.hand + p.races + p.classes + p.curses + p.next_combat)
        seen.update(c for c in (p.halfbreed, p.supermunchkin, p.pet, p.steed, p.hireling) if c)
        for it in p.items:
            seen.update((it.card, it.cheat) if it.cheat else (it.card,))
    c = s.combat
    if c is not None:
        for m in c.monsters:
            if m.out not in ("pet", "steed"):  # (counted as its owner's pet or steed)
                seen.update((m.mate or m.card,))  # a Mate's card is the Mate, not a copy
            seen.update(m.enhancers)
        seen.update(card for _, card in c.played)
    if s.curse is not None:
        seen[s.curse.card] += 1
    for b in s.bodies:
        seen.update(b.cards)
    if s.pending is not None and s.pending.kind == "search":
        seen[s.pending.arg] += 1  # the search special, until its choice is made
    seen.update(s.dungeons.draw + s.dungeons.discard + s.active)  # C-PACK-7
    if s.pending is not None and s.pending.kind == "pick":
        seen.update(s.pending.arg.split(","))  # a helped win's Treasure laid out, until picked (C-HELP-3)
    if s.pending is not None and s.pending.kind == "portal":
        seen[s.pending.arg] += 1  # the dungeon a portal turned up, until its player chooses
    return seen


def check(s: ClassicState, cards: ClassicSet) -> list[str]:
    problems: list[str] = []
    every = Counter(c.id for c in cards.door + cards.treasure + cards.dungeon)
    seen = zones(s)
    if seen != every:
        extra, missing = seen - every, every - seen
        problems.append(f"card conservation: extra {sorted(extra)} missing {sorted(missing)}")
    problems += _dungeons(s, cards)
    win = s.params.win_level
    for p in s.players:
        if not 1 <= p.level <= win:
            problems.append(f"seat {p.seat} at level {p.level} (C-LAW-1, C-WIN-1)")
        if p.level >= win and p.seat not in s.winners:
            problems.append(f"seat {p.seat} at the winning level without winning")
        if len(p.races) > (2 if p.halfbreed else 1) or len(p.classes) > (2 if p.supermunchkin else 1):
            problems.append(f"seat {p.seat}: too many race or class cards (C-CHAR-2)")
        if (p.halfbreed and not p.races) or (p.supermunchkin and not p.classes):
            problems.append(f"seat {p.seat}: a Half-Breed or Super Munchkin without its kind (C-CHAR-7/8)")
        # (while giving up the big items over the limit, C-ITEM-4, a munchkin may be over it)
        choosing = (s.pending is not None and s.pending.seat == p.seat and s.pending.kind == "big") or any(
            e.seat == p.seat and e.name == "fit_big" for e in s.queue)
        for slot, capacity in SLOTS.items():
            used = sum(ch.hands_needed(p, cards, it.card, s.params) if slot == "hands" else 1 for it in p.items
                       if it.in_use and not it.cheat and cards.treasure_card(it.card).slot == slot)
            if used > capacity and not choosing:
                problems.append(f"seat {p.seat}: {used} in use in the {slot} slot (C-ITEM-2)")
        if ch.big_count(p, cards) > ch.big_limit(p, cards, s.params) and not choosing:
            problems.append(f"seat {p.seat}: {ch.big_count(p, cards)} big items (C-ITEM-4)")
        problems += _followers(p, cards)
        if any(cards.card(c).kind != K.CURSE for c in p.curses + p.next_combat):
            problems.append(f"seat {p.seat}: a non-curse among the curses")
    if bool(s.winners) != (s.phase == Phase.OVER):
        problems.append("the game is over exactly when someone has won (C-WIN-1, C-DEATH-5)")
    c = s.combat
    if c is not None and (c.helper == c.fighter or c.helper >= len(s.players)):
        problems.append("the helper is another player (C-HELP-1)")
    if s.queue and s.pending is None:
        problems.append("effects queued while nothing is pending")
    return problems


def _followers(p, cards: ClassicSet) -> list[str]:
    """C-PACK-5, 6: one steed (a steed card, a tamed monster, or a card that may be either) and one
    hireling (a hireling card, or a steed that may be either) per munchkin: the fields hold one."""
    out = []
    def either(card: str) -> bool:  # a card marked as both (C-PACK-5)
        d = cards.card(card)
        return isinstance(d, ClassicTreasureDef) and d.both

    steed, hireling = (cards.card(c) if c else None for c in (p.steed, p.hireling))
    if steed is not None and not (steed.kind in (K.MONSTER, K.STEED) or (steed.kind == K.HIRELING and either(p.steed))):
        out.append(f"seat {p.seat}: the steed {p.steed} is no steed (C-PACK-5, 6)")
    if hireling is not None and not (hireling.kind == K.HIRELING or (hireling.kind == K.STEED and either(p.hireling))):
        out.append(f"seat {p.seat}: the hireling {p.hireling} is no hireling (C-PACK-5)")
    if p.steed and p.steed == p.hireling:
        out.append(f"seat {p.seat}: one card as steed and hireling (C-PACK-5)")
    return out


def _dungeons(s: ClassicState, cards: ClassicSet) -> list[str]:
    """C-PACK-7: at most two active dungeons, each once; with the pack, always one at least."""
    problems = []
    if len(s.active) > dungeons.MAX_ACTIVE or len(set(s.active)) != len(s.active):
        problems.append(f"active dungeons {s.active}: at most two, each once (C-PACK-7)")
    if cards.dungeon and not s.active:
        problems.append("no active dungeon with the dungeons pack (C-PACK-7)")
    if not cards.dungeon and (s.active or s.dungeons.draw or s.dungeons.discard):
        problems.append("dungeons without the dungeons pack (C-PACK-7)")
    return problems


def check_step(before: ClassicState, after: ClassicState, events, cards: ClassicSet) -> list[str]:
    problems: list[str] = []
    win = after.params.win_level
    for e in events:
        if e.kind == "level" and e.new >= win and e.why not in ("kill", "help", "card"):
            problems.append(f"seat {e.seat} reached the winning level by {e.why} (C-LAW-2)")
        if e.kind == "level" and e.new >= win and e.why == "card" and not _level_up_all(events):
            problems.append(f"seat {e.seat} reached the winning level by a card that does not allow it")
        if e.kind == "charity" and e.to >= 0 and before.players[e.to].dead:
            problems.append(f"charity reached seat {e.to}, who is dead (C-CHARITY-1, C-DEATH-3)")
        if e.kind == "death" and (after.players[e.seat].hand or after.players[e.seat].items):
            problems.append(f"seat {e.seat} died and kept cards (C-DEATH-1)")
        if e.kind == "turn" and before.turn is not None and before.turn.seat != e.seat:
            prev = after.players[before.turn.seat]
            if len(prev.hand) > dungeons.hand_limit(after, cards, prev.seat):  # (C-PACK-7 too)
                problems.append(f"seat {prev.seat} ended the turn holding {len(prev.hand)} cards (C-TURN-9)")
    return problems


def _level_up_all(events) -> bool:
    return any(e.kind == "played" and e.what == K.SPECIAL for e in events)

