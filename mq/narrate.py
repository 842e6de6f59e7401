"""Plain-sentence narration of engine events, showing only public information (a face-down draw
is "a Treasure card", never its name).  Used by ``mq play``, the client's event log, replays and
scenarios.

Narration is for people reading a game: a seat passed by the engine because it holds nothing
playable (Q-DIGI-2) is told once per fight and stage, not at every card played in the window, and
the cards given away for charity at the end of a turn are one sentence per receiver.

Events are read by name (mq.rules.events); the narrator is given them as a table sees them
(``mq.rules.view_events(events, TABLE)``) or unmasked, and names only public cards either way.
A Classic game's events (its state's parameters say so) are worded by mq.narrate_classic, with
the Classic card set, so one Narrator serves a game of either mode."""
from __future__ import annotations

from mq.cards import CardSet
from mq.classic import is_classic
from mq.narrate_classic import ClassicNarrator
from mq.rules import cards_for
from mq.rules.state import COLOURS, DIRS, FirstPick, Stage, State

KIND = {"dxm": "DxM", "treasure": "Treasure", "monster": "Monster"}
MARKS = {0: "", 1: " (Searched!)", 2: " (Looted!)"}
# Events of a card played or a power used in a fight: a seat the engine then passes has "nothing more to play".
_PLAYS = frozenset({"enhance", "mate", "wander", "curse", "use", "power", "die_changed"})


class Narrator:
    """Turns (state, events) into sentences; remembers which card each monster uid is."""

    def __init__(self, cards: CardSet) -> None:
        self.cards = cards
        self.classic: ClassicNarrator | None = None  # made for the first Classic state it is given
        self.monster_cards: dict[int, str] = {}
        self.bosses: set[int] = set()
        self._auto_passed: set[tuple[int, str]] = set()  # (seat, stage) already told this fight
        self._played: set[int] = set()  # seats that played a card in this fight (then: "nothing more")
        self._gifts: dict[tuple[int, int], int] = {}  # (giver, receiver): cards given, not yet told

    def who(self, seat: int) -> str:
        return COLOURS[seat].capitalize()

    def card(self, card: str) -> str:
        return self.cards.card(card).name

    def base(self, colour: int) -> str:
        if colour < 0:
            return "a base still to be chosen"
        name = COLOURS[colour]
        return f"{'an' if name[0] in 'aeiou' else 'a'} {name} base"

    def room(self, state: State, index: int) -> str:
        return "the Entrance" if index == 0 else self.cards.face(state.rooms[index].face).name

    def monster(self, uid: int) -> str:
        card = self.monster_cards.get(uid)
        if card is None:
            return "a monster"
        d = self.cards.card(card)
        return f"{d.name} (level {20 if uid in self.bosses else d.level})"

    def terms(self, gold: int, share: int, item: str, first: str = FirstPick.HELPER) -> str:
        """The terms of a deal for help (Q-HELP-2, Q-DIGI-3): negative gold is paid by the helper;
        who picks first among the Treasures, when the helper takes some."""
        price = " and ".join(x for x in (f"{gold} gold" if gold > 0 else "",
                                          f"{share} Treasure pick{'s' if share > 1 else ''}" if share else "",
                                          self.card(item) if item else "") if x)
        paying = f", paying {-gold} gold" if gold < 0 else ""
        order = ("" if not share else ", the fighter picking first" if first == FirstPick.FIGHTER
                 else ", the helper picking first")
        return (f"for {price}" if price else "for nothing") + paying + order

    def lines(self, state: State, events) -> list[str]:
        """The sentences of one action's events.  Charity is told once it is over: each card given
        is one action of the giver's, so the gifts are counted until the first event that is not
        one (the last gift's own events go on with the monster turn) and then told, one sentence
        per receiver (Q-CHARITY).  A Classic game's: mq.narrate_classic."""
        if is_classic(state):
            if self.classic is None:
                self.classic = ClassicNarrator(cards_for(state, self.cards))
            return self.classic.lines(state, events)
        out = []
        for e in events:
            if e.kind == "charity":
                self.count_gift(e)
                continue
            out += self.charity_told()
            line = self.line(state, e)
            if line:
                out.append(line)
        return out

    def count_gift(self, e: tuple) -> None:
        """One card given for charity (a ``charity`` event), to be told with the rest."""
        self._gifts[(e.seat, e.to)] = self._gifts.get((e.seat, e.to), 0) + 1

    def charity_told(self) -> list[str]:
        """The sentences of the charity counted so far (and forget it): who gave how many cards to
        whom, in the order of the first gift to each."""
        out = [f"{self.who(giver)} gives {plural(n, 'card')} to {self.who(to)} (charity)."
               for (giver, to), n in self._gifts.items()]
        self._gifts.clear()
        return out

    def line(self, state: State, e: tuple) -> str | None:  # noqa: C901 - one case per event kind
        kind = e.kind
        if kind in _PLAYS:
            self._played.add(e.by if kind == "curse" else e.seat)
        w = self.who
        if kind == "turn":
            return f"\n== Turn {e.number}: {w(e.seat)} =="
        if kind == "respawn":
            return f"{w(e.seat)} rises again in the Entrance."
        if kind == "draw":
            shown = f" ({self.card(e.card)})" if e.public else ""
            return f"{w(e.seat)} draws a {KIND[e.deck]} card{shown}."
        if kind == "reshuffle":
            return f"The {KIND[e.deck]} discards are shuffled into a new deck."
        if kind == "explore":
            return f"{w(e.seat)} explores ({e.x},{e.y}) and finds {self.cards.face(e.face).name}."
        if kind == "monster_appears":
            self.monster_cards[e.uid] = e.card
            d = self.cards.card(e.card)
            if e.boss:
                self.bosses.add(e.uid)
                return f"THE BOSS appears: {d.name}, at level 20, on {self.base(e.colour)}!"
            return f"{d.name} (level {d.level}) appears in {self.room(state, e.room)} on {self.base(e.colour)}."
        if kind == "colour_chosen":
            return f"{w(e.seat)} gives it {self.base(e.colour)}."
        if kind == "monster_evicted":
            return f"{self.monster(e.uid)} leaves the dungeon to make room."
        if kind == "monster_turn":
            return f"Monster turn: {w(e.roller)} rolls {COLOURS[e.colour]}."
        if kind == "door_smashed":
            return f"A door of {self.room(state, e.room)} ({DIRS[e.side]}) is smashed to splinters."
        if kind == "monster_moves":
            return f"  {self.monster(e.uid)} moves from {self.room(state, e.room)} to {self.room(state, e.dest)}."
        if kind == "move":
            how = "dashes" if e.dash else "moves"
            return f"{w(e.seat)} {how} from {self.room(state, e.room)} to {self.room(state, e.dest)}."
        if kind == "combat_starts":
            foes = ", ".join(self.monster(u) for u in e.monsters)
            self._auto_passed.clear()
            self._played.clear()
            return f"{w(e.seat)} fights {foes} in {self.room(state, e.room)}."
        if kind == "enhance":
            return f"  {w(e.seat)} plays {self.card(e.card)} on {self.monster(e.uid)}."
        if kind == "mate":
            return f"  {w(e.seat)} plays {self.card(e.card)}: {self.monster(e.uid)} brought its mate!"
        if kind == "wander":
            return f"  {w(e.seat)} plays {self.card(e.card)}: another monster joins the fight!"
        if kind == "curse":
            return f"{w(e.by)} curses {w(e.victim)}: {self.card(e.card)}."
        if kind == "power":
            if e.power == "backstab":
                return f"  {w(e.seat)} backstabs {w(e.detail)}: -2!"
            return f"  {w(e.seat)} discards a card: {e.power} +{e.detail}."
        if kind == "d10":
            return (f"  {w(e.seat)} tries {e.power.replace('_', ' ')}: rolls {e.roll} on the ten-sided die, "
                    f"{'it works' if e.ok else 'no luck'}.")
        if kind == "charmed":
            return f"  {self.monster(e.uid)} is charmed away."
        if kind == "stolen":
            return f"{w(e.seat)} steals {self.card(e.card)} from {w(e.victim)}!"
        if kind == "deal":
            return f"{w(e.seat)} {'buys Treasure for' if e.what == 'buy' else 'sells an item for'} {e.gold} gold."
        if kind == "cheat":
            return f"{w(e.seat)} cheats: {self.card(e.item)} now ignores every restriction."
        if kind == "curse_played":
            return f"{w(e.by)} plays {self.card(e.card)} on {w(e.victim)}..."
        if kind == "curse_cancelled":
            how = "Sanctuary" if e.shield == "sanctuary" else self.card(e.shield)
            return f"  ...but {w(e.seat)} cancels it with {how}!"
        if kind == "die_changed":
            return f"  {w(e.seat)} plays {self.card(e.card)}: a die of the {e.side} now shows {e.to}."
        if kind == "gift":
            thing = f"{e.what} gold" if isinstance(e.what, int) else self.card(e.what)
            return f"{w(e.seat)} gives {thing} to {w(e.to)}."
        if kind == "asks_help":
            return f"  {w(e.fighter)} asks for help."
        if kind == "offers_help":
            return f"  {w(e.seat)} offers to help {self.terms(e.gold, e.share, e.item, e.first)}."
        if kind == "counter_offer":
            return f"  {w(e.fighter)} answers {w(e.seat)}: help me {self.terms(e.gold, e.share, '', e.first)}?"
        if kind == "counter_refused":
            return f"  {w(e.seat)} refuses and withdraws the offer."
        if kind == "helps":
            # the terms last: they may run on ("..., the fighter picking first")
            return f"  Deal: {w(e.seat)} joins {w(e.fighter)}'s fight, helping {self.terms(e.gold, e.share, e.item, e.first)}."
        if kind == "treasure_laid_out":  # Q-HELP-2
            return "  The Treasures are laid out to be picked: " + ", ".join(self.card(c) for c in e.cards) + "."
        if kind == "pick":
            return f"  {w(e.seat)} takes {self.card(e.card)}."
        if kind == "no_help":
            return f"  {w(e.fighter)} fights alone."
        if kind == "resurrect":  # Q-CHAR-5: both cards are face up (the discard piles are public)
            return (f"{w(e.seat)} uses Resurrection: takes {self.card(e.card)} from the {KIND[e.deck]} discards, "
                    f"discarding {self.card(e.discarded)}.")
        if kind == "auto_pass":  # Q-DIGI-2: nothing that seat could play here
            if (e.seat, e.stage) in self._auto_passed:
                return None
            self._auto_passed.add((e.seat, e.stage))
            what = {Stage.HELP: "cannot offer help", Stage.OUTCOME: "has no card to change a die"}.get(
                e.stage, "has nothing more to play" if e.seat in self._played else "has nothing to play")
            return f"  {w(e.seat)} {what}: passes."
        if kind == "combat_result":
            parts = " + ".join(f"{n} {v}" for n, v in e.terms if v) or "0"
            their = " + ".join(str(sum(v for _, v in t)) for t in e.monster_terms)
            tdice = tuple(x for d in e.monster_dice for x in d)
            verdict = "wins" if e.won else "loses"
            return (f"  {w(e.fighter)}: {parts}, {rolled(e.dice)}: {e.total}  vs  monsters {their}, "
                    f"{rolled(tdice)}: {e.monster_total}: {w(e.fighter)} {verdict}.")
        if kind == "use":
            if e.side == "monsters":
                return f"  {w(e.seat)} plays {self.card(e.card)} for the monsters!"
            return f"  {w(e.seat)} uses {self.card(e.card)}."
        if kind == "monster_killed":
            return f"  {self.monster(e.uid)} is slain."
        if kind == "level":
            return f"{w(e.seat)} is now level {e.level} ({e.why})."
        if kind == "game_won":
            verb = "defeats the Boss and wins" if len(e.winners) == 1 else "defeat the Boss and win"
            return "*** " + " and ".join(w(s) for s in e.winners) + f" {verb} the game! ***"
        if kind == "monsters_win":  # Q-DEATH-5
            return "*** Every munchkin is dead: the monsters win the game! ***"
        if kind == "hit":
            return f"  {w(e.seat)} takes {e.n} hit{'s' if e.n > 1 else ''} ({e.hp} HP left)."
        if kind == "runs":
            return f"  {w(e.seat)} runs towards {self.room(state, e.room)}."
        if kind == "cornered":
            return f"  {w(e.seat)} has nowhere to run!"
        if kind == "escape_roll":
            m = f", {e.mod:+d}: {e.roll + e.mod}" if e.mod else ""
            return (f"  Escape roll against {self.monster(e.uid)}: rolled {e.roll}{m} — "
                    f"{'escaped' if e.escaped else 'caught'}.")
        if kind == "bad_stuff":
            return f"  Bad Stuff from {self.monster(e.uid)}!"
        if kind == "gold_lost":
            return f"  {w(e.seat)} loses {e.gold} gold."
        if kind == "item_lost":
            return f"  {w(e.seat)} loses {self.card(e.card)}."
        if kind == "arrives":
            return f"  {w(e.seat)} gets away to {self.room(state, e.room)}."
        if kind == "magic_escape":
            return f"  {w(e.seat)} vanishes with {self.card(e.card)}."
        if kind == "death":
            return f"{w(e.seat)} DIES in {self.room(state, e.room)} ({e.cause}); everything they carried lies there."
        if kind == "heal":
            return f"{w(e.seat)} heals {e.amount}."
        if kind == "room_hurts":
            return f"{self.room(state, e.room)} hurts {w(e.seat)}."
        if kind == "charity":
            return f"{w(e.seat)} gives a card to {w(e.to)} (charity)."
        if kind == "charity_discard":
            return f"{w(e.seat)} discards {self.card(e.card)} (charity)."
        if kind == "boss_arrives":
            return f"{w(e.seat)} stands in the Entrance at level 10 and calls out the Boss!"
        if kind == "pick_up":
            return f"{w(e.seat)} picks up {things(len(e.cards), e.gold)}."
        if kind in ("race", "class"):
            return f"{w(e.seat)} becomes {self.card(e.card)}."
        if kind == "item":
            return f"{w(e.seat)} puts {self.card(e.card)} into play ({e.place})."
        if kind == "search":
            total = f" = {e.result}" if len(e.dice) > 1 and e.result == sum(e.dice) else \
                ("" if e.result == sum(e.dice) else f", {e.result} with the modifiers")
            return f"{w(e.seat)} searches {self.room(state, e.room)}: {rolled(e.dice)}{total}."
        if kind == "search_found":
            found = [f"{e.gold} gold"] * bool(e.gold) + [f"{e.treasures} Treasure"] * bool(e.treasures)
            return f"  finds {' and '.join(found) or 'nothing'}{MARKS[e.mark]}."
        if kind == "buy":
            return f"{w(e.seat)} sells {things(len(e.items), e.gold, 'item')} for a level."
        if kind == "drop_gold":
            return f"{w(e.seat)} drops {e.gold} gold in {self.room(state, e.room)}."
        if kind == "drop":
            return f"{w(e.seat)} drops {self.card(e.card)}."
        if kind == "no_monster":
            return "The Monster deck is exhausted: nothing appears."
        if kind == "magic_move":  # Q-HELP-1
            return f"  {w(e.seat)} uses {self.card(e.card)} to join the fight by magic."
        if kind == "teleport":  # Q-CARD-3, Q-TURN-5
            return f"  {w(e.seat)} vanishes and reappears in {self.room(state, e.room)}."
        if kind == "reroll":  # the halfling's second chance to run
            return f"  {w(e.seat)} discards {self.card(e.card)} to roll again."
        if kind == "answer":  # Q-COMBAT-7: cards were played in the window; the fighter answers first
            return f"  {w(e.fighter)} may answer the cards played before rolling again."
        if kind == "no_answer":
            return f"  No more answers in this fight: {w(e.fighter)}'s dice roll."
        return None


def plural(n: int, noun: str, many: str | None = None) -> str:
    """ "1 card", "4 cards"; ``many`` for an irregular plural ("1 die", "2 dice")."""
    return f"{n} {noun if n == 1 else (many or noun + 's')}"


def rolled(dice) -> str:
    """Dice as a player says them: "rolled 4", "rolled 3 + 5", "no dice"."""
    return f"rolled {' + '.join(map(str, dice))}" if dice else "no dice"


def things(cards: int, gold: int, noun: str = "card") -> str:
    """'2 items and 300 gold', '1 card', '300 gold', 'nothing'."""
    parts = ([plural(cards, noun)] if cards else []) + ([f"{gold} gold"] if gold else [])
    return " and ".join(parts) or "nothing"
