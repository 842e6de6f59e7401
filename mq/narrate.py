"""Plain-sentence narration of engine events, showing only public information (a face-down draw
is "a Treasure card", never its name).  Used by ``mq play``, the client's event log, replays and
scenarios.

Narration is for people reading a game: a seat passed by the engine because it holds nothing
playable (Q-DIGI-2) is told once per fight and stage, not at every card played in the window, and
a run of cards given away for charity is one sentence."""
from __future__ import annotations

from mq.cards import CardSet
from mq.rules.state import COLOURS, DIRS, State

KIND = {"dxm": "DxM", "treasure": "Treasure", "monster": "Monster"}
MARKS = {0: "", 1: " (Searched!)", 2: " (Looted!)"}


class Narrator:
    """Turns (state, events) into sentences; remembers which card each monster uid is."""

    def __init__(self, cards: CardSet) -> None:
        self.cards = cards
        self.monster_cards: dict[int, str] = {}
        self.bosses: set[int] = set()
        self._auto_passed: set[tuple[int, str]] = set()  # (seat, stage) already told this fight

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

    def terms(self, gold: int, share: int, item: str) -> str:
        """The terms of a deal for help (Q-HELP-2, Q-DIGI-3): negative gold is paid by the helper."""
        price = " and ".join(x for x in (f"{gold} gold" if gold > 0 else "",
                                          f"{share} Treasure pick{'s' if share > 1 else ''}" if share else "",
                                          self.card(item) if item else "") if x)
        paying = f", paying {-gold} gold" if gold < 0 else ""
        return (f"for {price}" if price else "for nothing") + paying

    def lines(self, state: State, events) -> list[str]:
        out = []
        events = list(events)
        i = 0
        while i < len(events):
            e = events[i]
            if e[0] == "charity":  # Q-CHARITY: one sentence per giver and receiver
                n = 1
                while i + n < len(events) and events[i + n] == e:
                    n += 1
                out.append(f"{self.who(e[1])} gives {plural(n, 'card')} to {self.who(e[2])} (charity).")
                i += n
                continue
            line = self.line(state, e)
            if line:
                out.append(line)
            i += 1
        return out

    def line(self, state: State, e: tuple) -> str | None:  # noqa: C901 - one case per event kind
        kind, args = e[0], e[1:]
        w = self.who
        if kind == "turn":
            return f"\n== Turn {args[1]}: {w(args[0])} =="
        if kind == "respawn":
            return f"{w(args[0])} rises again in the Entrance."
        if kind == "draw":
            seat, deck, card, public = args
            shown = f" ({self.card(card)})" if public else ""
            return f"{w(seat)} draws a {KIND[deck]} card{shown}."
        if kind == "reshuffle":
            return f"The {KIND[args[0]]} discards are shuffled into a new deck."
        if kind == "explore":
            seat, j, face, x, y = args
            return f"{w(seat)} explores ({x},{y}) and finds {self.cards.face(face).name}."
        if kind == "monster_appears":
            uid, card, room, colour, boss = args
            self.monster_cards[uid] = card
            d = self.cards.card(card)
            if boss:
                self.bosses.add(uid)
                return f"THE BOSS appears: {d.name}, at level 20, on {self.base(colour)}!"
            return f"{d.name} (level {d.level}) appears in {self.room(state, room)} on {self.base(colour)}."
        if kind == "colour_chosen":
            return f"{w(args[0])} gives it {self.base(args[2])}."
        if kind == "monster_evicted":
            return f"{self.monster(args[0])} leaves the dungeon to make room."
        if kind == "monster_turn":
            return f"Monster turn: {w(args[0])} rolls {COLOURS[args[1]]}."
        if kind == "door_smashed":
            return f"A door of {self.room(state, args[0])} ({DIRS[args[1]]}) is smashed to splinters."
        if kind == "monster_moves":
            return f"  {self.monster(args[0])} moves from {self.room(state, args[1])} to {self.room(state, args[2])}."
        if kind == "move":
            seat, a, b, dash = args
            how = "dashes" if dash else "moves"
            return f"{w(seat)} {how} from {self.room(state, a)} to {self.room(state, b)}."
        if kind == "combat_starts":
            seat, room, uids = args
            foes = ", ".join(self.monster(u) for u in uids)
            self._auto_passed.clear()
            return f"{w(seat)} fights {foes} in {self.room(state, room)}."
        if kind == "enhance":
            seat, card, uid = args
            return f"  {w(seat)} plays {self.card(card)} on {self.monster(uid)}."
        if kind == "mate":
            seat, card, uid = args
            return f"  {w(seat)} plays {self.card(card)}: {self.monster(uid)} brought its mate!"
        if kind == "wander":
            return f"  {w(args[0])} plays {self.card(args[1])}: another monster joins the fight!"
        if kind == "curse":
            seat, victim, card = args
            return f"{w(seat)} curses {w(victim)}: {self.card(card)}."
        if kind == "power":
            seat, name, detail = args
            if name == "backstab":
                return f"  {w(seat)} backstabs {w(detail)}: -2!"
            return f"  {w(seat)} discards a card: {name} +{detail}."
        if kind == "d10":
            seat, name, roll, ok = args
            return f"  {w(seat)} tries {name.replace('_', ' ')}: d10 = {roll}, {'it works' if ok else 'no luck'}."
        if kind == "charmed":
            return f"  {self.monster(args[1])} is charmed away."
        if kind == "stolen":
            seat, victim, card = args
            return f"{w(seat)} steals {self.card(card)} from {w(victim)}!"
        if kind == "deal":
            seat, what, gold = args
            return f"{w(seat)} {'buys Treasure for' if what == 'buy' else 'sells an item for'} {gold} gold."
        if kind == "cheat":
            seat, card, item = args
            return f"{w(seat)} cheats: {self.card(item)} now ignores every restriction."
        if kind == "curse_played":
            seat, victim, card = args
            return f"{w(seat)} plays {self.card(card)} on {w(victim)}..."
        if kind == "curse_cancelled":
            seat, card, shield = args
            how = "Sanctuary" if shield == "sanctuary" else self.card(shield)
            return f"  ...but {w(seat)} cancels it with {how}!"
        if kind == "die_changed":
            seat, card, side, index, to = args
            return f"  {w(seat)} plays {self.card(card)}: a die of the {side} now shows {to}."
        if kind == "gift":
            seat, to, what = args
            thing = f"{what} gold" if isinstance(what, int) else self.card(what)
            return f"{w(seat)} gives {thing} to {w(to)}."
        if kind == "asks_help":
            return f"  {w(args[0])} asks for help."
        if kind == "offers_help":
            seat, fighter, gold, share, item = args
            return f"  {w(seat)} offers to help {self.terms(gold, share, item)}."
        if kind == "counter_offer":
            fighter, seat, gold, share = args
            return f"  {w(fighter)} answers {w(seat)}: help me {self.terms(gold, share, '')}?"
        if kind == "counter_refused":
            return f"  {w(args[0])} refuses and withdraws the offer."
        if kind == "helps":
            seat, fighter, gold, share, item = args
            return f"  Deal: {w(seat)} helps {w(fighter)} {self.terms(gold, share, item)} and joins the fight."
        if kind == "no_help":
            return f"  {w(args[0])} fights alone."
        if kind == "resurrect":  # Q-CHAR-5: both cards are face up (the discard piles are public)
            seat, deck, card, gone = args
            return (f"{w(seat)} uses Resurrection: takes {self.card(card)} from the {KIND[deck]} discards, "
                    f"discarding {self.card(gone)}.")
        if kind == "auto_pass":  # Q-DIGI-2: nothing that seat could play here
            seat, stage = args
            if (seat, stage) in self._auto_passed:
                return None
            self._auto_passed.add((seat, stage))
            what = {"help": "cannot offer help", "outcome": "has no card to change a die"}.get(stage, "has nothing to play")
            return f"  {w(seat)} {what}: passes."
        if kind == "combat_result":
            seat, mine, my_dice, theirs, their_dice, me, them, won = args
            parts = " + ".join(f"{n} {v}" for n, v in mine if v) or "0"
            dice = "+".join(map(str, my_dice)) or "no dice"
            their = " + ".join(str(sum(v for _, v in t)) for t in theirs)
            tdice = "+".join(str(x) for d in their_dice for x in d) or "no dice"
            verdict = "wins" if won else "loses"
            return f"  {w(seat)}: {parts}, dice {dice} = {me}  vs  monsters {their}, dice {tdice} = {them}: {w(seat)} {verdict}."
        if kind == "use":
            seat, card, side = args
            if side == "monsters" :
                return f"  {w(seat)} plays {self.card(card)} for the monsters!"
            return f"  {w(seat)} uses {self.card(card)}."
        if kind == "monster_killed":
            return f"  {self.monster(args[1])} is slain."
        if kind == "level":
            seat, level, why = args
            return f"{w(seat)} is now level {level} ({why})."
        if kind == "game_won":
            winners = args[0]
            verb = "defeats the Boss and wins" if len(winners) == 1 else "defeat the Boss and win"
            return "*** " + " and ".join(w(s) for s in winners) + f" {verb} the game! ***"
        if kind == "hit":
            return f"  {w(args[0])} takes {args[1]} hit{'s' if args[1] > 1 else ''} ({args[2]} HP left)."
        if kind == "runs":
            return f"  {w(args[0])} runs towards {self.room(state, args[1])}."
        if kind == "cornered":
            return f"  {w(args[0])} has nowhere to run!"
        if kind == "escape_roll":
            seat, uid, roll, mod, ok = args
            m = f"{mod:+d}" if mod else ""
            return f"  Escape roll against {self.monster(uid)}: {roll}{m} — {'escaped' if ok else 'caught'}."
        if kind == "bad_stuff":
            return f"  Bad Stuff from {self.monster(args[1])}!"
        if kind == "gold_lost":
            return f"  {w(args[0])} loses {args[1]} gold."
        if kind == "item_lost":
            return f"  {w(args[0])} loses {self.card(args[1])}."
        if kind == "arrives":
            return f"  {w(args[0])} gets away to {self.room(state, args[1])}."
        if kind == "magic_escape":
            return f"  {w(args[0])} vanishes with {self.card(args[1])}."
        if kind == "death":
            seat, room, cause = args
            return f"{w(seat)} DIES in {self.room(state, room)} ({cause}); everything they carried lies there."
        if kind == "heal":
            return f"{w(args[0])} heals {args[1]}."
        if kind == "room_hurts":
            return f"{self.room(state, args[1])} hurts {w(args[0])}."
        if kind == "charity":
            return f"{w(args[0])} gives a card to {w(args[1])} (charity)."
        if kind == "charity_discard":
            return f"{w(args[0])} discards {self.card(args[1])} (charity)."
        if kind == "boss_arrives":
            return f"{w(args[0])} stands in the Entrance at level 10 and calls out the Boss!"
        if kind == "pick_up":
            seat, cards, gold = args
            return f"{w(seat)} picks up {things(len(cards), gold)}."
        if kind in ("race", "class"):
            return f"{w(args[0])} becomes {self.card(args[1])}."
        if kind == "item":
            return f"{w(args[0])} puts {self.card(args[1])} into play ({args[2]})."
        if kind == "search":
            seat, room, dice, result = args
            return f"{w(seat)} searches {self.room(state, room)}: rolls {list(dice)} -> {result}."
        if kind == "search_found":
            seat, gold, treasures, mark = args
            return f"  finds {gold} gold and {treasures} Treasure{MARKS[mark]}."
        if kind == "buy":
            return f"{w(args[0])} sells {things(len(args[1]), args[2], 'item')} for a level."
        if kind == "drop_gold":
            return f"{w(args[0])} drops {args[1]} gold in {self.room(state, args[2])}."
        if kind == "drop":
            return f"{w(args[0])} drops {self.card(args[1])}."
        if kind == "no_monster":
            return "The Monster deck is exhausted: nothing appears."
        return None


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def things(cards: int, gold: int, noun: str = "card") -> str:
    """'2 items and 300 gold', '1 card', '300 gold', 'nothing'."""
    parts = ([plural(cards, noun)] if cards else []) + ([f"{gold} gold"] if gold else [])
    return " and ".join(parts) or "nothing"
