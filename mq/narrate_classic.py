"""Plain-sentence narration of Classic events (mq.classic.events), showing only public information:
a face-down draw is "a Treasure card", a charity gift "a card", a picked pocket "a card".

mq.narrate.Narrator hands a Classic game's events to a :class:`ClassicNarrator` (one per game),
so ``mq play --narrate``, ``mq replay --narrate`` and a headless watcher word both modes.  Events
name combat monsters by their index in the combat: the narrator follows the combat's monsters as
they come in (``monster_in``) to name them.  A seat passed by the engine because it could do
nothing (``pass`` with ``auto``) is told once per window and stage, not at every card played.
"""
from __future__ import annotations

from mq.cards.classic_defs import ClassicSet
from mq.cards.classic_vocab import describe
from mq.classic.state import Phase, Picks, Stage
from mq.rules.state import COLOURS

DECK = {"door": "Door", "treasure": "Treasure"}
HOW_IN = {"kick": "kicked open", "trouble": "looked for", "wander": "wandered in", "mate": "its Mate"}
HOW_OUT = {"killed": "is slain", "defeated": "is defeated", "away": "is sent away", "pet": "becomes a pet",
           "steed": "is tamed"}
STAGE_WORDS = {"help": "cannot help", "window": "has nothing to play", "curse": "cannot stop the curse",
               "die": "has no card to change the die", "run": "has no card for the run", "claim": "claims no monster"}
LEVEL_WHY = {"kill": "monsters slain", "help": "helping", "card": "a card", "sale": "selling items",
             "theft": "a theft gone wrong", "bad stuff": "Bad Stuff"}
DISCARD_WHY = {"sold": "sells", "used": "uses up", "charity": "discards (charity)", "power": "discards",
               "big": "cannot carry", "replaced": "replaces", "pet": "loses the pet", "steed": "lets go of the steed",
               "luck": "discards (bard's luck)", "hireling": "lets the hireling go", "sacrifice": "sacrifices",
               "lost": "loses"}
TRADE_LAPSES = {"gone": "an item left play", "combat": "a fight began", "turn": "the turn is over"}  # C-ITEM-6
STEED_HOW = {"tame": "tames", "claim": "claims from the discards", "play": "saddles up", "deal": "takes over"}  # C-PACK-6, C-EPIC-14


ORDER_WORDS = {Picks.HELPER: "the helper picking first", Picks.FIGHTER: "the fighter picking first",
               Picks.TURNS: "picked in turns, the helper first"}  # C-HELP-3: who picks first


def listing(words) -> str:
    """Words as a list is said: "A", "A and B", "A, B and C"."""
    words = list(words)
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def terms_words(share: int, order: str, item_name: str) -> str:
    """A help deal's terms in words (C-HELP-3): "2 Treasure cards (the fighter picking first) and
    Battle Llama", "nothing"."""
    parts = [f"{_count(share, 'Treasure card')} ({ORDER_WORDS[order]})"] if share else []
    return " and ".join(parts + ([item_name] if item_name else [])) or "nothing"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


class ClassicNarrator:
    """Turns a Classic game's (state, events) into sentences."""

    def __init__(self, cards: ClassicSet) -> None:
        self.cards = cards
        self.monsters: list[str] = []  # the current combat's monsters, by index
        self._passed: set[tuple[int, str]] = set()  # auto-passes told in this window

    def who(self, seat: int) -> str:
        return COLOURS[seat].capitalize()

    def card(self, card: str) -> str:
        return "a card" if card == "?" else self.cards.card(card).name

    def monster(self, index: str | int) -> str:
        i = int(index)
        return self.card(self.monsters[i]) if 0 <= i < len(self.monsters) else "a monster"

    def target(self, target: str) -> str:
        """A one-shot's or a power's target: a side, a seat or a monster of the combat."""
        if target == "munchkins":
            return "the munchkins"
        if target == "monsters":
            return "the monsters"
        return self.monster(target) if target.isdigit() else target

    def lines(self, state, events) -> list[str]:
        """The sentences of one action's events; the game's end is told last (its winning fight
        ends in the same step). Face-down draws in a row by one seat from one deck are one sentence
        ("Red draws 3 Treasure cards.")."""
        out, end = [], []
        prev, hidden = None, 0  # hidden: face-down draws told by the last line of ``out``
        for e in events:
            before, prev = prev, e
            if e.kind == "draw" and _salvaged(before, e):
                continue  # the salvage said which card came to the hand (C-CHAR-5)
            face_down = e.kind == "draw" and not (e.public and e.card != "?")
            if face_down and hidden and (before.seat, before.deck) == (e.seat, e.deck):
                hidden += 1
                out[-1] = f"{self.who(e.seat)} draws {hidden} {DECK.get(e.deck, e.deck)} cards."
                continue
            line = self.line(e)
            hidden = 1 if face_down and line else 0
            if line:
                (end if e.kind == "game_won" else out).append(line)
        return out + end

    def line(self, e: tuple) -> str | None:  # noqa: C901 - one case per event kind
        kind, w = e.kind, self.who
        if kind == "turn":
            return f"\n== Turn {e.number}: {w(e.seat)} =="
        if kind == "respawn":
            return f"{w(e.seat)} is back in the game and draws 2 Door and 2 Treasure cards."
        if kind == "draw":
            shown = f" ({self.card(e.card)})" if e.public and e.card != "?" else ""
            return f"{w(e.seat)} draws a {DECK.get(e.deck, e.deck)} card{shown}."
        if kind == "kick":
            return f"{w(e.seat)} kicks open the door: {self.card(e.card)}."
        if kind == "reshuffle":
            return f"The {DECK.get(e.deck, e.deck)} discards are shuffled into a new deck."
        if kind == "monster_in":
            if e.how in ("kick", "trouble") and not self.monsters:
                self._passed.clear()
            self.monsters.append(e.card)
            d = self.cards.card(e.card)
            if e.how == "trouble":
                return f"{w(e.fighter)} looks for trouble: {d.name} (level {d.level}) from the hand."
            how = {"sent": f", sent by {w(e.by)}", "wander": f", a Wandering Monster from {w(e.by)}",
                   "mate": ", a Mate"}.get(e.how, "")
            return f"{w(e.fighter)} fights {d.name} (level {d.level}){how}."
        if kind == "friendly":
            return f"{self.card(e.card)} is friendly to {w(e.seat)}: no fight."
        if kind == "played":
            return self._played(e)
        if kind == "discard":
            if e.why in ("lost", "charity"):
                return None  # told by the ``lost`` or ``charity`` event of the same card
            return f"  {w(e.seat)} {DISCARD_WHY.get(e.why, 'discards')} {self.card(e.card)}."
        if kind == "equip":
            return f"{w(e.seat)} {'puts' if e.in_use else 'sets'} {self.card(e.card)} {'in use' if e.in_use else 'aside'}."
        if kind == "level":
            why = LEVEL_WHY.get(e.why, e.why)
            return f"{w(e.seat)} goes {'up' if e.new > e.old else 'down'} to level {e.new} ({why})."
        if kind == "sell":
            return f"{w(e.seat)} sells {len(e.cards)} card{'s' if len(e.cards) != 1 else ''} worth {e.gold} gold."
        if kind == "power":
            return self._power(e)
        if kind == "theft":
            verdict = "and steals it" if e.stolen else "and is caught"
            return f"  {w(e.seat)} tries to steal {self.card(e.card)} from {w(e.victim)}: rolls {e.roll} {verdict}."
        if kind == "asks_help":
            return f"  {w(e.seat)} asks {w(e.to)} for help."
        if kind == "offer":
            return f"  {w(e.seat)} offers to help for {self._terms(e.share, e.order, e.item)}."
        if kind == "helps":
            return f"  Deal: {w(e.helper)} helps {w(e.fighter)} for {self._terms(e.share, e.order, e.item)}."
        if kind == "laid_out":  # C-HELP-3
            cards = ", ".join(self.card(c) for c in e.cards) or "no card"
            return f"  The Treasure, face up: {cards}; {_count(e.share, 'card')} for {w(e.helper)}, {ORDER_WORDS[e.order]}."
        if kind == "pick":
            return f"  {w(e.seat)} takes {self.card(e.card)}."
        if kind == "turn_ends":
            return None  # the turn-end window (C-DIGI-2 f): the next turn's line says enough
        if kind == "pass":
            if e.stage == Stage.HELP and not e.auto:  # C-HELP-1: the seat asked refuses
                return f"  {w(e.seat)} refuses to help."
            if not e.auto or e.stage == Phase.CLOSING:
                return None  # a pass by choice, or at a turn's end (every turn), says nothing to a reader
            if (e.seat, e.stage) in self._passed:
                return None
            self._passed.add((e.seat, e.stage))
            return f"  {w(e.seat)} {STAGE_WORDS.get(e.stage, 'has nothing to play')}: passes."
        if kind == "window":
            self._passed.clear()
            final = " (the last one)" if e.final else ""
            return f"  Last chance to change {w(e.fighter)}'s fight{final}."
        if kind == "answer":
            return f"  {w(e.fighter)} may answer the cards just played."
        if kind == "monster_out":
            return f"  {self.card(e.card)} {HOW_OUT.get(e.how, 'leaves')}."
        if kind == "result":
            verdict = "win" if e.won else "lose"
            return f"  The munchkins ({e.strength}) against the monsters ({e.monster_strength}): the munchkins {verdict}."
        if kind == "combat_ends":
            self.monsters = []
            self._passed.clear()
            return {"won": f"{w(e.fighter)} wins the fight.", "fled": f"{w(e.fighter)} loses the fight.",
                    "no_result": "The fight ends without a result."}.get(e.how, "The fight ends.")
        if kind == "rolled":
            return f"  {w(e.seat)} rolls {e.roll} to run away from {self.card(e.card)}."
        if kind == "die_changed":
            return f"  {w(e.seat)} plays {self.card(e.card)}: the die now shows {e.roll}."
        if kind == "escape":
            if e.roll == 0:
                return f"  {w(e.seat)} gets away from {self.card(e.card)}."
            verdict = "gets away" if e.escaped else "is caught"
            return f"  {w(e.seat)} rolls {e.roll} (needs {e.needed}) against {self.card(e.card)} and {verdict}."
        if kind == "gift":
            return f"{w(e.seat)} gives {self.card(e.card)} to {w(e.to)}."
        if kind == "trade":  # C-ITEM-6
            return f"{w(e.by)} offers {w(e.to)} {self._items(e.gives)} for {self._items(e.takes)}."
        if kind == "trade_done":
            return f"Trade: {w(e.by)} gets {self._items(e.takes)}, {w(e.to)} gets {self._items(e.gives)}."
        if kind == "trade_closed":
            if e.why == "declined":
                return f"{w(e.to)} declines {w(e.by)}'s trade."
            why = TRADE_LAPSES.get(e.why, e.why)
            return f"{w(e.by)}'s offer of a trade to {w(e.to)} lapses: {why}."
        if kind == "deal":
            return f"  {self._deal(e.by, e.to, e.what, e.item, e.share, e.order, True)}"
        if kind == "deal_made":  # (a help deal: told by the ``helps`` event right after)
            return None if e.what != "abstain" else f"  Deal: {self._deal(e.by, e.to, e.what, e.item, 0, '', False)}"
        if kind == "deal_declined":
            return f"  {w(e.to)} declines {w(e.by)}'s deal."
        if kind == "deal_done":
            if not e.passed:
                return f"  {self.card(e.item)}, promised by {w(e.giver)}, is gone: that part of the deal is void."
            return f"  As promised, {self.card(e.item)} passes from {w(e.giver)} to {w(e.receiver)}."
        if kind == "reveal":
            return f"{w(e.seat)} shows {w(e.to)} their hand."
        if kind == "bad_stuff":
            return f"  {'Escaped, but ' if e.escaped else ''}Bad Stuff from {self.card(e.card)} hits {w(e.seat)}!"
        if kind == "lost":
            return f"  {w(e.seat)} loses {self.card(e.card)}."
        if kind == "gender":
            return f"  {w(e.seat)} is now {e.gender}."
        if kind == "death":
            n = len(e.cards)
            return f"{w(e.seat)} DIES; {n} {'card lies' if n == 1 else 'cards lie'} on the body to be looted."
        if kind == "loot":
            return f"  {w(e.seat)} takes {self.card(e.card)} from {w(e.dead)}'s body."
        if kind == "curse":
            self._passed = {(seat, stage) for seat, stage in self._passed if stage != "curse"}  # a new window
            by = "The door holds a curse" if e.by < 0 else f"{w(e.by)} curses {w(e.victim)}"
            return f"{by}: {self.card(e.card)}" + (f" on {w(e.victim)}." if e.by < 0 else ".")
        if kind == "curse_acts":
            how = {"lasting": " and stays", "next_combat": " at the next fight", "nothing": ", but finds nothing"}
            return f"  {self.card(e.card)} strikes {w(e.victim)}{how.get(e.how, '')}."
        if kind == "curse_cancelled":
            how = f" with {self.card(e.card)}" if e.card else ""
            return f"  {w(e.seat)} cancels {self.card(e.curse)}{how}!"
        if kind == "charity":
            if e.to < 0:
                return f"{w(e.seat)} discards {self.card(e.card)} (charity)."
            return f"{w(e.seat)} gives a card to {w(e.to)} (charity)."
        if kind == "steed":
            indent = "  " if e.how == "tame" else ""  # taming is a fight's move (C-PACK-6)
            return f"{indent}{w(e.seat)} {STEED_HOW.get(e.how, 'gets')} {self.card(e.card)} as a steed."
        if kind == "hireling":  # C-PACK-5
            return f"{w(e.seat)} hires {self.card(e.card)}."
        if kind == "portal":  # C-PACK-7
            how = "kicks open" if e.how == "kick" else "opens"
            return f"{w(e.seat)} {how} the portal {self.card(e.card)}: the next dungeon turns up."
        if kind == "dungeon":
            return self._dungeon(e)
        if kind == "game_won":
            verb = "wins" if len(e.seats) == 1 else "win"
            return "*** " + " and ".join(w(s) for s in e.seats) + f" {verb} the game! ***"
        return None

    def _dungeon(self, e: tuple) -> str:
        """C-PACK-7: a dungeon turned up, with its rule."""
        d = self.cards.dungeon_card(e.card)
        rule = "; ".join(describe(x) for x in d.effects)
        if e.replaced:
            return f"  {d.name} replaces {self.cards.dungeon_card(e.replaced).name} ({rule})."
        if e.seat < 0:
            return f"The game begins in {d.name} ({rule})."
        return f"  {d.name} is now active too ({rule})."

    def _items(self, cards) -> str:
        return listing([self.card(c) for c in cards])

    def _terms(self, share: int, order: str, item: str) -> str:
        return terms_words(share, order, self.card(item) if item else "")

    def _deal(self, by: int, to: int, what: str, item: str, share: int, order: str, offered: bool) -> str:
        w = self.who
        if what == "help":
            return f"{w(by)} {'offers' if offered else 'gives'} {w(to)} {self._terms(share, order, item)} if {w(to)} " \
                   "helps" + (" (the item if the fight is won)." if item else ".")
        return f"{w(by)} {'offers' if offered else 'gives'} {w(to)} {self.card(item)} for staying out of this fight."

    def _played(self, e: tuple) -> str | None:
        w, name = self.who, self.card(e.card)
        what, target = e.what, e.target
        if target in ("steed", "hireling"):
            return None  # told by the ``steed`` or ``hireling`` event right after (C-PACK-5)
        if what in ("race", "class", "halfbreed", "supermunchkin"):
            return f"{w(e.seat)} becomes {name}."
        if what == "item":
            return f"{w(e.seat)} puts {name} into play."
        if what == "level":
            return f"{w(e.seat)} plays {name}."
        if what == "enhancer":
            return f"  {w(e.seat)} plays {name} on {self.monster(target)}."
        if what == "mate":
            return f"  {w(e.seat)} plays {name}: {self.monster(target)} brings its mate!"
        if what == "wandering":
            return f"  {w(e.seat)} plays {name}: another monster wanders in!"
        if what == "cheat":
            return f"{w(e.seat)} cheats: {self.card(target)} now ignores every restriction."
        if what == "special" and target.isdigit():  # on a player (C-COMBAT-12)
            return f"{w(e.seat)} plays {name} on {w(int(target))}."
        if target == "run":
            return f"  {w(e.seat)} uses {name} to run away."
        if target.startswith("run"):  # C-RUN-3: on another's run, in the run-away window
            return f"  {w(e.seat)} plays {name} on {w(int(target[3:]))}'s run."
        if target:
            return f"  {w(e.seat)} plays {name} on {self.target(target)}."
        return f"{w(e.seat)} plays {name}."

    def _power(self, e: tuple) -> str:
        w, power, target = self.who, e.power, e.target
        if power == "pet":
            return f"  {w(e.seat)} tames {self.monster(target)} as a pet."
        if power == "sacrifice":
            return f"  {w(e.seat)} sacrifices their pet for {self.target(target) if not target.isdigit() else w(int(target))}."
        if power == "enthral":
            return f"  {w(e.seat)} discards their hand to enthral {self.monster(target)}."
        if power == "prayer":
            return f"{w(e.seat)} prays: two cards for a Treasure."
        if power == "salvage":  # C-CHAR-5: the card taken is the top of a discard pile, public
            return f"{w(e.seat)} salvages {self.card(target)} from the discards instead of drawing."
        if power == "discard_bonus":
            return f"  {w(e.seat)} discards a card: +{target}."
        if power == "backstab":
            return f"  {w(e.seat)} backstabs {w(int(target))}!"
        if power == "escape_boost":
            return f"  {w(e.seat)} gets +{target} to run away."
        if power == "arrows":
            return f"  {w(e.seat)} shoots arrows at {self.target(target) if not target.isdigit() else w(int(target))}."
        if power == "pickpocket":
            return f"{w(e.seat)} picks {w(int(target))}'s pocket."
        if power == "dodge":
            return f"  {w(e.seat)} tries to dodge the curse."
        if power == "eat":  # C-EPIC-8
            return f"  {w(e.seat)} eats {self.monster(target)} in one bite!"
        if power == "tame":  # C-PACK-6
            return f"  {w(e.seat)} discards cards to tame {self.monster(target)}."
        if power == "clean_escape":  # C-EPIC-7
            return f"  {w(e.seat)} escapes cleanly and draws {target} Treasure cards."
        return f"  {w(e.seat)} uses the power {power.replace('_', ' ')}."


def _salvaged(before, draw) -> bool:
    """Whether ``draw`` is the card a salvage just took (C-CHAR-5: the engine tells both)."""
    return (before is not None and before.kind == "power" and before.power == "salvage"
            and before.target == draw.card)
