"""The client's model for a Classic game (CLASSIC.md): the card game without a board.

A :class:`ClassicModel` is the Quest :class:`mq.tui.model.Model` (the same log, chat, banners,
menu, stable number keys, selection, questions and window countdown, and the same invariants: it
keeps only the seat's view, and what the person may do comes from ``legal_actions`` alone) with
the Classic parts in place of Quest's: the Classic cards, a :class:`ClassicScribe` for the log,
the words of every Classic action kind, the prompts, the Classic windows (last chance, call for
help, curse, die) and the fight's numbers, which come from :mod:`mq.classic.query` only, so the
client re-implements no rule.  mq.tui.classic_render draws it; mq.tui.classic_keys adds its keys.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from mq.cards.classic_vocab import K
from mq.cards.classic_vocab import describe as describe_effect
from mq.classic import cards_or_default, dungeons, query, trades
from mq.classic import combat as cb
from mq.classic import deals as dl
from mq.classic.legal import DISCARD_ARGS
from mq.classic.state import DealKind, Out, PendingKind, Phase, Picks, Stage
from mq.narrate import plural
from mq.narrate_classic import ORDER_WORDS, TRADE_LAPSES, listing, terms_words
from mq.rules.actions import Action
from mq.rules.errors import REASONS, IllegalAction
from mq.rules.view import HIDDEN
from mq.tui import classic_trade as ct
from mq.tui.model import GENDER_MARKS, NORMAL, NUMBERS, TRADE, LogLine, Model, who

# Action kinds in the order the menu lists them: what the game waits for first, then the turn's
# steps, then the fight's cards, then cards and gear, and what costs a card last ("drop" is no
# Classic kind: the shared menu ranks a gift outside charity as Quest's drop).
MENU_ORDER = ("ready", "choose", "kick", "loot", "fight", "accept", "decline", "offer", "roll", "escape", "pass", "ask",
              "use", "enhance", "wander", "mate", "curse", "power", "play", "equip", "cheat", "buy", "end_turn", "drop",
              "give", "trade", "discard", "deal", "reveal")
MENU_RANK = {k: i for i, k in enumerate(MENU_ORDER)}
# Every action kind the Classic engine offers (mq.classic.reducer.HANDLERS); describe() words each.
WORDED_KINDS = frozenset(MENU_ORDER) - {"drop"}
# Kinds whose first argument is one of the seat's own cards (what Tab + Enter works on).
CARD_KINDS = ("play", "use", "equip", "cheat", "discard", "give", "choose", "enhance", "wander", "mate", "curse",
              "fight")
STAGE_WORDS = {Stage.PREPARE: "fighting", Stage.HELP: "asking for help", Stage.WINDOW: "last chance",
               Stage.RUN: "running away"}
PENDING_WORDS = {PendingKind.SALVAGE: "a cleric's salvage", PendingKind.LOSE_ITEM: "losing an item", PendingKind.LOSE_HAND: "discarding from the hand",
                 PendingKind.LOOT: "looting a body", PendingKind.CHARITY: "charity",
                 PendingKind.SEARCH: "searching a discard pile", PendingKind.LUCK: "the bard's luck",
                 PendingKind.PICK: "picking the fight's Treasure",
                 PendingKind.BIG: "too many big items", PendingKind.BIG_GIFT: "giving big items away"}
OUT_WORDS = {Out.KILLED: "is killed", Out.DEFEATED: "is defeated (Treasure, no level)",
             Out.AWAY: "is sent away (no reward)", Out.PET: "becomes a pet", Out.STEED: "is tamed as a steed"}
ENDS = {"won": "won", "fled": "over: everyone has run", "no_result": "over without a result"}
EPIC_WORDS = {"arrows": "arrows (−2 to one in others' fights)", "no_hand_limit": "no hand limit",
              "double_sale": "two items sold double", "pet": "may take a small monster as a pet",
              "clean_escape": "ignores run-away penalties", "eat": "eats level-1 monsters",
              "dodge_curses": "dodges curses", "prayer": "prays for Treasure", "pickpocket": "steals from hands",
              "giant_grip": "two-handers take one hand", "big_items": "two big items",
              "eat_weak": "eats level-1 monsters", "luck": "draws and discards 2 more Treasure",
              "claim": "may claim discarded monsters as steeds"}
DEATH = "\u2620"
# A trade offered longer than this in words is told in short on the status line (3 rows at 80x24)
# and on its menu entries (3 lines of the 80x24 pane); the table pane shows it whole (C-ITEM-6).
TRADE_PROMPT, TRADE_LABEL = 170, 90


def card_of(a: Action) -> str | None:
    """The seat's own card an action plays, uses, moves or discards (None for other actions); a
    power that costs a discard names the card it discards (C-CHAR-3: Tab to a card, Enter lists
    the powers it may pay for)."""
    if a.kind in CARD_KINDS and a.args and isinstance(a.args[0], str):
        return a.args[0]
    if a.kind == "power" and a.args and a.args[0] in DISCARD_ARGS:
        return a.args[1]
    if a.kind == "trade" and len(a.args) > 2:  # C-ITEM-6: the first item of one's own it offers
        return str(a.args[2])
    return None


def chance_words(p: Fraction) -> str:
    return "sure" if p >= 1 else "no escape" if p <= 0 else f"{round(100 * p)}%"


@dataclass(frozen=True)
class Fighter:
    seat: int
    terms: tuple[tuple[str, int], ...]

    @property
    def total(self) -> int:
        return sum(v for _, v in self.terms)


@dataclass(frozen=True)
class Foe:
    index: int
    name: str
    terms: tuple[tuple[str, int], ...]
    treasure: int
    out: str  # "" while fought (C-COMBAT-7)
    mate: bool

    @property
    def total(self) -> int:
        return sum(v for _, v in self.terms)


@dataclass(frozen=True)
class ClassicCombat:
    """A Classic fight as its public numbers, all from mq.classic.query (C-COMBAT-2..4)."""
    fighter: int
    helper: int
    stage: str
    waiting: tuple[int, ...]
    side: tuple[Fighter, ...]
    munchkin_bonus: int
    foes: tuple[Foe, ...]
    monster_bonus: int
    odds: query.Odds
    chance: Fraction  # of a win if it resolved now (query.win_chance: no dice, so 0 or 1)
    ties_win: bool
    rewards: tuple[int, int]
    windows: int
    max_windows: int
    runner: int  # -1 until the munchkins lost
    escapes: tuple[tuple[int, int, Fraction], ...]  # (monster, need, chance) for the runner (or the fighter)
    die: tuple[int, ...]


class ClassicScribe:
    """One seat's log sentences for Classic events (the seat's ``view_events``): public happenings
    for everyone, and the cards only this seat may know (its own face-down draws, charity it gives
    or receives)."""

    narrator = None  # (Quest's public narrator has no Classic words)

    def __init__(self, seat: int | None, cards) -> None:
        self.seat = seat
        self.cards = cards
        self.names: dict[int, str] = {}

    def name(self, card: str) -> str:
        return "a card" if card == HIDDEN else self.cards.card(card).name

    def you(self, seat: int) -> str:
        return "you" if seat == self.seat else who(seat)

    def lines(self, v, action: Action, events) -> list[LogLine]:
        out: list[LogLine] = []
        prev = None
        for e in events:
            kicked, prev = prev, e
            if e[0] == "draw" and kicked is not None and kicked[0] == "kick" and kicked.card == e.card:
                if out and out[-1].text.endswith("."):  # the card kicked open goes to the hand (C-TURN-2)
                    whose = "your" if e.seat == self.seat else "their"
                    out[-1] = replace(out[-1], text=f"{out[-1].text[:-1]}, into {whose} hand.")
                continue
            if e[0] == "draw" and kicked is not None and kicked[0] == "power" and kicked.power == "salvage" \
                    and kicked.target == e.card:
                continue  # the salvage said which card came to the hand (C-CHAR-5)
            if e[0] == "lost" and kicked is not None and kicked[0] == "discard" and kicked.card == e.card:
                continue  # the discard of a lost card said it (C-ITEM-8)
            try:
                text = self.sentence(v, e)
            except (AttributeError, KeyError, IndexError, TypeError, ValueError):
                text = f"({e[0]})"  # an event the client cannot word yet: say that something happened
            if not text:
                continue
            if e[0] == "turn":
                name = self.names.get(e.seat)
                out.append(LogLine(text + (f" ({name})" if name else ""), "turn", e.seat))
            elif e[0] in ("death", "game_won", "curse", "result"):
                out.append(LogLine(text, "alert"))
            else:
                mine = self.seat is not None and len(e) > 1 and e[1] == self.seat and e[0] != "monster_out"
                out.append(LogLine(text, "mine" if mine else "event"))
        return out

    def sentence(self, v, e) -> str:  # noqa: C901 - one case per event kind
        k = e[0]
        n = self.name
        if k == "turn":
            return f"Turn {e.number}: {who(e.seat)}"
        if k == "respawn":
            return f"{who(e.seat)} is back from the dead and draws 2 Door + 2 Treasure."
        if k == "draw":
            deck = "Door" if e.deck == "door" else "Treasure"
            if e.seat == self.seat:
                return f"You draw {n(e.card)} ({deck}{', face up' if e.public else ''})."
            return f"{who(e.seat)} draws {n(e.card)} ({deck}, face up)." if e.public else \
                f"{who(e.seat)} draws a {deck} card face down."
        if k == "reshuffle":
            return f"The {e.deck} discards are shuffled into a new deck."
        if k == "kick":
            return f"{who(e.seat)} kicks open the door: {n(e.card)}."
        if k == "monster_in":
            d = self.cards.card(e.card)
            if e.how == "trouble":  # C-TURN-3
                whose = "your" if e.fighter == self.seat else "their"
                return f"{who(e.fighter)} looks for trouble: {d.name} (level {d.level}) from {whose} hand."
            if e.how == "kick":
                return f"{who(e.fighter)} fights {d.name} (level {d.level})."
            if e.how == "mate":
                return f"{who(e.by)} doubles a monster: a copy of {d.name} joins {who(e.fighter)}'s fight."
            return f"{who(e.by)} sends {d.name} (level {d.level}) into {who(e.fighter)}'s fight."
        if k == "friendly":
            return f"{n(e.card)} is friendly to {self.you(e.seat)}: no fight."
        if k == "played":
            return self._played(v, e)
        if k == "discard":
            if e.why == "lost":  # Bad Stuff or a curse (C-ITEM-8)
                return f"{who(e.seat)} loses {n(e.card)}."
            why = {"replaced": " (replaced)", "power": " (for a power)", "charity": " (charity)"}.get(
                e.why, "")
            return f"{who(e.seat)} discards {n(e.card)}{why}."
        if k == "equip":
            return f"{who(e.seat)} {'puts' if e.in_use else 'sets'} {n(e.card)} {'in use' if e.in_use else 'aside'}."
        if k == "level":
            way = "up" if e.new > e.old else "down"
            why = {"kill": " for the kill", "help": " for helping (elf)", "card": "", "sale": " by selling"}.get(
                e.why, "")
            return f"{who(e.seat)} goes {way} to level {e.new}{why}."
        if k == "sell":
            return (f"{who(e.seat)} sells {', '.join(n(c) for c in e.cards)} ({e.gold} gold) for "
                    f"{plural(e.levels, 'level')}.")
        if k == "power":
            return self._power(e)
        if k == "theft":
            got = f"steals {n(e.card)}" if e.stolen else f"fails to steal {n(e.card)} and loses a level"
            return f"{who(e.seat)} rolls {e.roll} and {got} from {who(e.victim)}."
        if k == "asks_help":
            return f"{who(e.seat)} asks {self.you(e.to)} for help."
        if k == "offer":
            return f"{who(e.seat)} offers to help for {self.terms(e.share, e.order, e.item)}."
        if k == "helps":
            return f"{who(e.helper)} helps {who(e.fighter)} for {self.terms(e.share, e.order, e.item)}."
        if k == "laid_out":  # C-HELP-3: face-up, picked as the deal says
            cards = ", ".join(n(c) for c in e.cards) or "no card"
            return (f"The fight's Treasure, face up: {cards}; {plural(e.share, 'card')} for {self.you(e.helper)}, "
                    f"{ORDER_WORDS[e.order]}.")
        if k == "pick":
            return f"{self.you(e.seat).capitalize()} take{'' if e.seat == self.seat else 's'} {n(e.card)}."
        if k == "pass":
            if e.auto or e.stage == Phase.CLOSING:  # the turn-end window's passes would fill the log every turn
                return ""
            return f"{who(e.seat)} " + ("will not help." if e.stage == Stage.HELP else "passes.")
        if k == "turn_ends":
            return ""  # the prompt says it while the window is open; the next turn's line follows
        if k == "window":
            last = "; the final one: no more answers" if e.final else ""
            return f"{who(e.fighter)} is ready to settle the fight: last chance {e.number} for cards on it{last}."
        if k == "answer":
            return f"A card was played: {who(e.fighter)} may answer."
        if k == "monster_out":
            return f"{n(e.card)} {OUT_WORDS.get(e.how, 'leaves the fight')}."
        if k == "result":
            verdict = "wins" if e.won else "loses and must run"
            return f"{who(e.fighter)}'s side {e.strength} against {e.monster_strength}: {verdict}."
        if k == "combat_ends":
            return f"The fight is {ENDS.get(e.how, e.how)}."
        if k == "escape":
            if e.roll == 0:
                return f"{who(e.seat)} escapes {n(e.card)} without rolling."
            got = "escapes" if e.escaped else "is caught by"
            return f"{who(e.seat)} rolls {e.roll} (needs {max(1, e.needed)}+) and {got} {n(e.card)}."
        if k == "rolled":  # the die window (C-DIGI-2 c): the fight panel shows it; its close says the roll
            return ""
        if k == "die_changed":
            return f"{who(e.seat)} plays {n(e.card)}: the die now shows {e.roll}."
        if k == "gift":
            return f"{who(e.seat)} gives {n(e.card)} to {self.you(e.to)}."
        if k == "deal":
            return self.deal_words(e.by, e.to, e.what, e.item, e.share, e.order, offered=True)
        if k in ("trade", "trade_done", "trade_closed"):
            return self.trade_sentence(e)
        if k == "deal_made":  # (a help deal: the helps line that follows says it)
            return "" if e.what != DealKind.ABSTAIN else f"Deal: {self.deal_words(e.by, e.to, e.what, e.item)}"
        if k == "deal_declined":
            return f"{self.you(e.to).capitalize()} decline{'' if e.to == self.seat else 's'} {who(e.by)}'s deal."
        if k == "deal_done":
            if not e.passed:
                return f"{n(e.item)} was promised by {who(e.giver)}, who no longer has it: that part of the deal is void."
            return f"As promised, {n(e.item)} passes from {who(e.giver)} to {self.you(e.receiver)}."
        if k == "reveal":  # C-ITEM-10: the cards only for the two of them (view_events masks them)
            if e.to == self.seat:
                shown = ", ".join(n(c) for c in e.cards) or "no cards"
                return f"{who(e.seat)} shows you their hand: {shown}."
            return f"{self.you(e.seat).capitalize()} show{'' if e.seat == self.seat else 's'} " \
                   f"{'your' if e.seat == self.seat else 'their'} hand to {who(e.to)}."
        if k == "bad_stuff":
            return f"Bad Stuff of {n(e.card)} hits {self.you(e.seat)}" + (" even so." if e.escaped else ".")
        if k == "lost":
            return f"{who(e.seat)} loses {n(e.card)}."
        if k == "gender":
            return f"{who(e.seat)} is {e.gender} now."
        if k == "death":
            return f"{DEATH} {who(e.seat)} dies: {plural(len(e.cards), 'card')} to loot, highest level first."
        if k == "loot":
            return f"{who(e.seat)} takes {n(e.card)} from {who(e.dead)}'s body."
        if k == "curse":
            by = "The door" if e.by < 0 else who(e.by)
            return f"{by} curses {self.you(e.victim)} with {n(e.card)}: anyone may cancel it now."
        if k == "curse_acts":
            if e.how == "nothing":
                return f"{n(e.card)} finds nothing to hit on {who(e.victim)}."
            when = {"next_combat": " in this fight", "lasting": " and stays"}.get(e.how, "")
            return f"{n(e.card)} hits {who(e.victim)}{when}."
        if k == "curse_cancelled":
            if not e.card:  # an epic wizard's dodge (C-EPIC-9)
                return f"{who(e.seat)} dodges {n(e.curse)}."
            return f"{who(e.seat)} cancels {n(e.curse)} with {n(e.card)}."
        if k == "charity":
            if e.to < 0:  # discarded: the discard event says so (C-CHARITY-2)
                return ""
            if self.seat in (e.seat, e.to):
                return f"{self.you(e.seat).capitalize()} give{'' if e.seat == self.seat else 's'} " \
                       f"{n(e.card)} to {self.you(e.to)} (charity)."
            return f"{who(e.seat)} gives a card to {who(e.to)} (charity)."
        if k in ("steed", "hireling"):  # C-PACK-5, 6, C-EPIC-14
            return f"{who(e.seat)} has a new {k}: {n(e.card)}."
        if k == "portal":  # C-PACK-7
            return f"{who(e.seat)} {'kicks open' if e.how == 'kick' else 'opens'} the portal {n(e.card)}."
        if k == "dungeon":
            if e.replaced:
                return f"The dungeon {self.dungeon_words(e.card)} replaces {self.cards.dungeon_card(e.replaced).name}."
            return f"The dungeon {self.dungeon_words(e.card)} is active now."
        if k == "game_won":
            return "Game over: " + " and ".join(who(s) for s in e.seats) + " reached the winning level!"
        return ""

    def terms(self, share: int, order: str, item: str) -> str:
        """A help deal's terms (C-HELP-3), as the narrator words them."""
        return terms_words(share, order, self.name(item) if item else "")

    def deal_words(self, by: int, to: int, what: str, item: str, share: int = 0, order: str = Picks.HELPER,
                   offered: bool = False) -> str:
        """A deal in a sentence (mq.classic.deals): "Red offers Green 1 Treasure card (the helper
        picking first) if Green helps (an item: if the fight is won)"; ``offered``: an offer, else
        the deal that binds."""
        verb = "offers" if offered else "gives"
        terms = self.terms(share, order, item)
        if what == DealKind.HELP:
            return f"{who(by)} {verb} {who(to)} {terms} if {who(to)} helps" + (
                " (the item if the fight is won)." if item else ".")
        if what == DealKind.HELPER:
            return f"{who(by)} {'offers to help' if offered else 'helps'} {who(to)} for {terms}" + (
                " (the item won or lost)." if item else ".")
        return f"{who(by)} {verb} {who(to)} {self.name(item)} for staying out of this fight."

    def items_words(self, cards) -> str:
        return listing([self.name(c) for c in cards])

    def trade_words(self, by: int, to: int, gives, takes) -> str:
        """A trade in a sentence (C-ITEM-6): "Red offers Blue Helm for their Socks"."""
        theirs = "your" if to == self.seat else "their"
        return (f"{self.you(by).capitalize()} offer{'' if by == self.seat else 's'} {self.you(to)} "
                f"{self.items_words(gives)} for {theirs} {self.items_words(takes)}")

    def trade_sentence(self, e) -> str:
        """The log's words for a trade offered, made, or closed unaccepted (mq.classic.trades)."""
        if e.kind == "trade":
            return self.trade_words(e.by, e.to, e.gives, e.takes) + "."
        if e.kind == "trade_done":
            return (f"Trade: {self.you(e.by)} get{'' if e.by == self.seat else 's'} {self.items_words(e.takes)}, "
                    f"{self.you(e.to)} get{'' if e.to == self.seat else 's'} {self.items_words(e.gives)} "
                    "(into play, not in use).")
        if e.why == "declined":
            return f"{self.you(e.to).capitalize()} decline{'' if e.to == self.seat else 's'} {who(e.by)}'s trade."
        why = TRADE_LAPSES.get(e.why, e.why)
        return f"{who(e.by)}'s offer of a trade to {self.you(e.to)} lapses: {why}."

    def _power(self, e) -> str:
        """A power used (mq.classic.reducer: the target is a monster index, a seat, an amount or
        "monsters", as a string)."""
        name, target, by = e.power, e.target, who(e.seat)
        seat = who(int(target)) if target.isdigit() else "the monsters"
        words = {
            "discard_bonus": f"{by} discards a card for +{target} strength.",
            "backstab": f"{by} backstabs {seat} (−2).",
            "escape_boost": f"{by} discards a card: +{target} to run away.",
            "arrows": f"{by} shoots an arrow at {seat} (−2).",
            "pickpocket": f"{by} picks {seat}'s pocket.",
            "prayer": f"{by} prays: two cards for a Treasure card.",
            "salvage": f"{by} salvages {self.name(target)} from the discards instead of drawing." if target.startswith(
                ("CD", "CT")) else "",
            "enthral": f"{by} discards the whole hand to enthral a monster.",
            "pet": f"{by} takes a monster as a pet.",
            "sacrifice": f"{by} sacrifices the pet" + (" to the monsters." if target == "monsters" else f" for {seat}."),
            "eat": f"{by} eats the monster: up a level, as for a kill.",
            "tame": f"{by} discards cards to tame a monster as a steed.",
            "clean_escape": f"{by} escapes cleanly: {target} Treasure cards.",
        }
        return words.get(name, f"{by} uses the {name.replace('_', ' ')} power.")

    def _played(self, v, e) -> str:
        n = self.name
        what, target = e.what, e.target
        if what in (K.RACE, K.CLASS):
            return f"{who(e.seat)} becomes {n(e.card)} ({what})."
        if what == K.ITEM:
            return f"{who(e.seat)} puts {n(e.card)} into play."
        if what == K.LEVEL:
            return f"{who(e.seat)} plays {n(e.card)}: up a level."
        if what in (K.WANDERING, K.MATE):  # the monster's entry says it (C-COMBAT-5)
            return ""
        if what == K.SPECIAL and target.isdigit():  # a special played on a player (C-COMBAT-12)
            return f"{who(e.seat)} plays {n(e.card)} on {self.you(int(target))}."
        if target in ("munchkins", "monsters"):
            return f"{who(e.seat)} plays {n(e.card)} for the {target}."
        if target == "run":
            return f"{who(e.seat)} plays {n(e.card)} to run away."
        if isinstance(target, str) and target.startswith("run"):  # C-RUN-3: on another's run
            return f"{who(e.seat)} plays {n(e.card)} on {self.you(int(target[3:]))}'s run."
        if isinstance(target, int) or (isinstance(target, str) and target.isdigit()):
            c = v.combat
            on = n(c.monsters[int(target)].card) if c is not None and int(target) < len(c.monsters) else "a monster"
            return f"{who(e.seat)} plays {n(e.card)} on {on}."
        if isinstance(target, str) and target.startswith(("CT", "CD")):
            return f"{who(e.seat)} plays {n(e.card)} on {n(target)}."
        return f"{who(e.seat)} plays {n(e.card)}."


class ClassicModel(Model):
    """The model of one seat of a Classic game (see the module docstring)."""

    classic = True
    menu_rank = MENU_RANK

    def default_cards(self, state):
        return cards_or_default(None, state)  # the default set with the game's packs (C-OPT-4)

    def card_ids(self) -> frozenset[str]:
        return frozenset(d.id for d in self.cards.door + self.cards.treasure)

    def make_scribe(self) -> ClassicScribe:
        return ClassicScribe(self.seat, self.cards)

    def card_of(self, a: Action) -> str | None:
        return card_of(a)

    def _in_menu_order(self, acts) -> list[Action]:
        """As Quest's, with the gambles outside a fight (a thief's theft costs a level when it
        fails) after the rest, and a curse on oneself last of all: a low number never risks a
        level or curses you by surprise."""
        ordered = super()._in_menu_order(acts)
        fight = self.view.combat is not None

        def late(a: Action) -> int:
            if a.kind == "curse" and a.args[1] == self.seat:
                return 2
            return 1 if a.kind == "power" and not fight else 0

        return sorted(ordered, key=late)

    def __init__(self, *args, **kwargs) -> None:
        self._turn: tuple | None = None  # (phase, turn number): a new one numbers afresh
        self._kept: dict[Action, int] = {}  # numbers of actions gone this turn, for when they come back
        self._done: dict[int, Action] = {}  # this seat's own actions this turn: their numbers go to no other
        self.draft: ct.Draft | None = None  # the trade being composed (TRADE mode)
        super().__init__(*args, **kwargs)

    def _recompute(self) -> None:
        super()._recompute()
        if self.draft is not None:  # the game moved on while a trade was composed
            to, self.draft = self.draft.to, ct.settle(self.view, self.seat, self.draft)
            if self.draft is None:
                why = ct.why_not(self.view, self.seat) if not ct.partners(self.view, self.seat) else \
                    f"{who(to)} may not be offered one now."
                self.close_trade(f"The trade was not sent. {why}")

    def menu(self):
        """As Quest's, but the whole menu lists no trade: one for each pair of items would bury
        the rest; x composes a trade of any items, and Tab to an item, Enter, lists its trades
        one for one (C-ITEM-6)."""
        entries = super().menu()
        if self.menu_card is None:
            entries = [e for e in entries if e.action.kind != "trade"]
        return entries

    def _renumber(self) -> None:
        """Number keys (as Quest's promise: pressing a number twice never does two different
        things), given per turn: an action keeps its number while possible and gets the same one
        back when it returns (a fight's cards after a call for help); the number of an action this
        seat did is not given to another this turn; and numbers are handed out only while the
        game waits for this seat, so cards of any moment (curses, levels), possible nearly
        always, do not take the low numbers before a window's pass or a fight's cards appear."""
        v = self.view
        turn = (v.phase, v.turn.number if v.turn is not None else -1)
        # A decision the game asks of this seat (charity, a body's loot, an item to lose) numbers
        # its choices afresh, 1 on: the turn's spent numbers would leave them without keys. A
        # number pressed again at once asks first (Model.entry: the question has changed).
        mine = v.pending.kind if v.pending is not None and v.pending.seat == self.seat else None
        if mine is None and self._asked_for_help():
            mine = Stage.HELP  # a call for help is such a question too: its offers take 1 on (C-HELP-1)
        elif mine is None and any(a.kind == "accept" for a in self.legal):
            # and so are offers to accept (C-HELP-1, C-DIGI-3); a new bid asks afresh, from 1
            mine = "offers " + " ".join(str(a.args[-1]) for a in self.legal if a.kind == "accept")
        if turn != self._turn or (turn, mine) != self._decision:
            self._turn, self._decision = turn, (turn, mine)
            self.numbers, self._kept, self._done = {}, {}, {}
        for action, n in list(self.numbers.items()):
            if action not in self._legal_set:
                del self.numbers[action]
                self._kept[action] = n
        self._retired = (set(self._kept.values()) | set(self._done)) - set(self.numbers.values())
        if self.seat is None or (self.seat not in self.waiting_for() and v.phase != Phase.OVER):
            return
        taken = set(self.numbers.values())
        order = sorted((a for a in self._in_menu_order(self.legal) if a not in self.numbers and self._keyed(a)),
                       key=lambda a: not self._asked(a))  # what the prompt asks for takes the low numbers
        for action in order:  # an action back again: its own number, unless another holds it
            n = self._kept.get(action)
            if n is not None and n not in taken and self._done.get(n, action) == action:
                self.numbers[action] = n
                taken.add(n)
        taken |= set(self._done)
        gone = set(self._kept.values())
        free = [n for n in NUMBERS if n not in taken and n not in gone] + [n for n in NUMBERS
                                                                           if n not in taken and n in gone]
        for action in order:
            if action not in self.numbers and free:
                self.numbers[action] = free.pop(0)
        self._retired -= set(self.numbers.values())

    # The turn's steps by letter (mq.tui.classic_keys, mq.tui.keys): shown where a number is lacking.
    LETTERS = {"kick": "d", "loot": "l", "ask": "h", "end_turn": "e", "ready": "e", "roll": "r"}

    def _asked(self, a: Action) -> bool:
        """The prompt says "accept one (1-9)" (offers of help, C-HELP-1, or a deal offered to this
        seat, C-DIGI-3), or "offer it (1-9)" (a call for help to this seat): those entries come
        first, where the eye goes."""
        if a.kind in ("accept", "decline"):
            return True
        return self._asked_for_help() and a.kind == "offer"

    def _asked_for_help(self) -> bool:
        c = self.view.combat if self.view is not None else None
        return c is not None and c.stage == Stage.HELP and self.seat in c.waiting

    def letter_key(self, a: Action) -> str | None:
        return self.LETTERS.get(a.kind) if not a.args else None

    def _against_own_side(self, a: Action) -> bool:
        """A card that would make the seat's own fight harder: a one-shot for the monsters or an
        enhancer raising a monster (C-COMBAT-5; one lowering it helps) while the seat fights or
        helps (no number: a key pressed for the card's other use must not find it; the menu
        keeps it)."""
        c = self.view.combat
        if c is None or self.seat not in cb.side(c) or a.kind not in ("enhance", "use") or not a.args:
            return False
        raises = self.cards.card(a.args[0]).bonus > 0
        return raises and (a.kind == "enhance" or (len(a.args) > 1 and a.args[1] == "monsters"))

    def _keyed(self, a: Action) -> bool:
        """Whether an action gets a number key: not showing the hand (C-ITEM-10, one entry per
        player), discarding or giving away a card unasked (a race or class card's power goes; an
        item goes to another), setting an item in use aside, a curse on oneself, nor a curse in
        one's own turn: possible all turn long, they took the low numbers at the turn's start and
        pushed a fight's cards, or looking for trouble and looting, below the pane. They stay on the menu (a) and on the card
        (Tab, Enter); a discard or gift the game asks for (charity, C-CHARITY) keeps its number.
        Nor the terms of a deal (C-DIGI-3: dozens of shares, pick orders and cards), but for the
        offers of the seat a call for help asks (C-HELP-1), nor a thief's theft (C-CHAR-5: one
        for each item of the others and card to discard, possible all the own turn long, and a
        gamble: it stays on the menu and on the card, and asks first), nor a card against the
        seat's own side in its fight (``_against_own_side``)."""
        if a.kind == "curse":  # on another: a number in their turn (its windows), the menu in one's own
            return a.args[1] != self.seat and (self.view.turn is None or self.view.turn.seat != self.seat)
        if a.kind == "equip":
            return not any(it.card == a.args[0] and it.in_use for it in self.me().items)
        if a.kind in ("deal", "offer"):
            return a.kind == "offer" and self._asked_for_help()
        if a.kind == "power" and a.args and a.args[0] == "theft":  # one per item and card: all turn long
            return False
        if self._against_own_side(a):
            return False
        asked = self.view.pending is not None and self.view.pending.seat == self.seat
        return a.kind not in ("reveal", "trade") and (a.kind not in ("discard", "give") or asked)

    def _applied(self, item) -> None:
        if self.seat is not None and item.action.seat == self.seat and item.action in self.numbers:
            self._done[self.numbers[item.action]] = item.action
        last = self.last_result
        super()._applied(item)
        self.last_result = latest_result(last, item.events)

    # -- what the seat sees ------------------------------------------------------------------
    def selectables(self):
        from mq.tui.model import Selectable
        p = self.me()
        if p is None:
            return []
        out = [Selectable(c, "hand") for c in p.hand]
        out += [Selectable(it.card, "in use" if it.in_use else "aside") for it in p.items]
        out += [Selectable(c, "race") for c in p.races] + [Selectable(c, "class") for c in p.classes]
        return out

    def identity_words(self, seat: int, gender: bool = True) -> str:
        """Race(s), class(es) and gender (C-CHAR-2, 6): "Half-elf Warrior ♀", "Human ♂"."""
        p = self.view.players[seat]
        races = [self.cards.card(c).key.capitalize() for c in p.races] or ["Human"]
        if p.halfbreed and len(p.races) == 1:
            races = [f"Half-{races[0].lower()}"]
        classes = [self.cards.card(c).key.capitalize() for c in p.classes]
        marks = [GENDER_MARKS.get(p.gender, p.gender)] if gender else []
        return " ".join(races + classes + marks)

    def card_info(self, card: str) -> str:
        """A card's kind in a few words: "+3 head, 600g", "monster L9", "one-shot +3"."""
        d = self.cards.card(card)
        kind = d.kind
        if kind == K.MONSTER:
            return f"monster L{d.level}"
        if kind == K.ITEM:
            slot = {"hands": f"{d.hands} hand{'s' if d.hands != 1 else ''}", "none": ""}.get(d.slot, d.slot)
            bits = [f"{d.bonus:+d}", slot, "big" if d.big else "", f"{d.value}g" if d.value else ""]
            limits = ", ".join(([f"only {'/'.join(d.only)}"] if d.only else [])
                               + ([f"not {'/'.join(d.not_for)}"] if d.not_for else []))
            return " ".join(b for b in bits if b) + (f", {limits}" if limits else "")
        if kind == K.ONESHOT:
            return f"one-shot {d.bonus:+d}" if d.bonus else "one-shot"
        if kind == K.ENHANCER:
            return f"enhancer {d.bonus:+d}"
        if kind == K.LEVEL:
            return "+1 level"
        if kind in (K.STEED, K.HIRELING):  # C-PACK-5
            return f"{kind}{' or ' + ({K.STEED: K.HIRELING, K.HIRELING: K.STEED}[kind]) if d.both else ''} {d.bonus:+d}"
        if kind in (K.RACE, K.CLASS):
            return f"{kind}: {d.key}"
        return {K.WANDERING: "wandering monster", K.HALFBREED: "half-breed", K.SUPERMUNCHKIN: "super munchkin"}.get(
            kind, kind)

    def card_text(self, card: str) -> str:
        return self.cards.card(card).text

    def phase_words(self) -> str:
        v = self.view
        if v.phase == Phase.SETUP:
            return "setup"
        if v.phase == Phase.OVER:
            return "game over"
        if v.pending is not None:
            return PENDING_WORDS.get(v.pending.kind, v.pending.kind)
        if v.curse is not None:
            return "a curse"
        if v.combat is not None:
            return STAGE_WORDS.get(v.combat.stage, v.combat.stage)
        return {Phase.KICK: "kick open the door", Phase.TROUBLE: "trouble or loot", Phase.END: "end of turn",
                Phase.CLOSING: "turn over"}.get(
            v.turn.phase, v.turn.phase)

    def hand_limit(self, seat: int) -> int:
        return query.hand_limit(self.view, self.cards, seat)

    # -- the fight ----------------------------------------------------------------------------
    def combat_info(self) -> ClassicCombat | None:  # type: ignore[override]
        v = self.view
        c = v.combat
        if c is None:
            return None
        cards = self.cards
        foes = tuple(Foe(i, cards.card(m.card).name,
                         query.monster_terms(v, cards, i) if not m.out else (("level", cards.card(m.card).level),),
                         cb.monster_treasure(v, cards, i), m.out, m.of >= 0)
                     for i, m in enumerate(c.monsters))
        runner = c.runners[0] if c.stage == Stage.RUN and c.runners else -1
        who_runs = runner if runner >= 0 else c.fighter
        # the monsters still to escape (C-RUN-1); before the fight is lost, those a loss would chase
        chasing = cb.to_escape(c) if runner >= 0 else cb.fought(c)
        escapes = tuple((i, query.escape_need(v, cards, who_runs, i), query.escape_chance(v, cards, who_runs, i))
                        for i in chasing)
        return ClassicCombat(
            fighter=c.fighter, helper=c.helper, stage=c.stage, waiting=c.waiting,
            side=tuple(Fighter(s, query.munchkin_terms(v, cards, s)) for s in cb.side(c)),
            munchkin_bonus=c.munchkin_bonus, foes=foes, monster_bonus=c.monster_bonus,
            odds=query.odds(v, cards), chance=query.win_chance(v, cards), ties_win=query.ties_win(v, cards), rewards=query.rewards(v, cards),
            windows=c.windows, max_windows=v.params.windows, runner=runner, escapes=escapes, die=c.die)

    def monster_label(self, i: int) -> str:  # type: ignore[override]
        """Monster ``i`` of the fight with its level now: "Sulking Hydra (level 8)"."""
        v = self.view
        m = v.combat.monsters[i]
        d = self.cards.card(m.card)
        twins = [j for j, x in enumerate(v.combat.monsters) if x.card == m.card]
        nth = f" {twins.index(i) + 1}" if len(twins) > 1 else ""
        level = cb.monster_level(v, self.cards, i) if not m.out else d.level
        return f"{d.name}{nth} (level {level})"

    def ask_help(self) -> Action | str | None:
        """`h` (C-HELP-1): with one player to ask, that ask; with several, None once the message
        says which number asks whom (the fighter chooses, one player at a time); else why nobody
        can be asked."""
        if (msg := self._no_seat()) is not None:
            return msg
        asks = [a for a in self.legal if a.kind == "ask"]
        if len(asks) == 1:
            return asks[0]
        if not asks:
            return self.help_missing() or "You cannot ask for help now."
        keyed = [f"{self.numbers[a] % 10}: {who(a.args[0])}" for a in asks if a in self.numbers]  # 10 is the 0 key
        self.say("Ask whom? " + ", ".join(keyed + (["a: menu"] if len(keyed) < len(asks) else [])) + ".")
        return None

    def help_missing(self) -> str:
        c = self.view.combat
        if c is None or self.seat != c.fighter or c.stage != Stage.PREPARE or c.helper >= 0:
            return ""
        if any(a.kind in ("ask", "accept") for a in self.legal):
            return ""
        return "Everyone was asked already (a card played in a window lets you ask again)."

    # -- the windows (C-DIGI-2) ---------------------------------------------------------------
    def open_window(self) -> tuple | None:
        """The window the game waits on now: a call for help, a last-chance window, a die window
        (C-COMBAT-8, C-DIGI-2 c), a curse window (C-CARD-8) or the turn-end window (C-DIGI-2 f)."""
        v = self.view
        if v.phase == Phase.OVER or v.pending is not None:
            return None
        if v.curse is not None:
            return ("curse", v.curse.card, v.curse.victim, v.curse.waiting) if v.curse.waiting else None
        c = v.combat
        if c is None:
            t = v.turn
            if t is not None and t.phase == Phase.CLOSING and t.waiting:
                return (t.seat, Phase.CLOSING, 0, (), t.waiting)
            return None
        if not c.waiting:
            return None
        if c.stage in (Stage.HELP, Stage.WINDOW, Stage.RUN):  # (C-RUN-3: the run-away window too)
            return (c.fighter, c.stage, c.windows, c.die, c.waiting)
        return None

    def window_waiting(self) -> tuple[int, ...]:
        w = self.open_window()
        return w[-1] if w is not None else ()

    def auto_action(self) -> Action | None:
        """With auto-pass on, the pass of a last-chance, die or curse window that waits for us (a
        call for help is answered by the person: a pass refuses help; and so is a curse on us
        that a card of ours could cancel, C-CARD-8: auto-pass never takes it for us)."""
        if not self.auto_pass or self.seat is None or self.seat not in self.window_waiting():
            return None
        c, curse = self.view.combat, self.view.curse
        if curse is None and c is not None and c.stage == Stage.HELP:
            return None
        if curse is not None and curse.victim == self.seat and any(a.kind != "pass" for a in self.legal):
            return None
        action = Action(self.seat, "pass")
        return action if self.is_legal(action) else None

    # -- questions before what costs a card or ends the turn -----------------------------------
    def costs_a_card(self, a: Action) -> bool:
        if a.kind in ("discard", "give", "buy"):
            return True
        if a.kind == "power":
            return bool(a.args) and a.args[0] in ("discard_bonus", "backstab", "theft", "escape_boost", "arrows",
                                                  "pickpocket", "dodge", "prayer", "enthral", "sacrifice")
        if a.kind == "choose":
            pend = self.view.pending
            return pend is not None and pend.kind in (PendingKind.LOSE_ITEM, PendingKind.LOSE_HAND)
        return False

    def end_turn_warning(self, a: Action) -> str | None:
        """The question the client asks before ``a``, whichever key asked for it: ending the turn
        over the hand limit (where the excess goes, as the engine works it out, C-CHARITY), giving
        an item away for nothing (C-ITEM-6), a theft that costs a level when it fails (C-CHAR-5)."""
        if self.seat is None:
            return None
        if a.kind == "give" and self.view.pending is None:
            return (f"Give {self.card_name(a.args[0])} to {who(a.args[1])} for nothing (into their play)? "
                    "y = give it, any other key = no")
        if a.kind == "power" and a.args and a.args[0] == "theft":
            return f"{self.describe(a)}? y = try it, any other key = no"
        if a.kind != "end_turn":
            return None
        after = query.charity_after_end(self.view, self.cards, self.seat)
        if after is None:
            return None
        excess, to = after
        limit = self.hand_limit(self.seat)
        verb = "goes" if excess == 1 else "go"
        where = (("is" if excess == 1 else "are") + " discarded (nobody is below your level)" if not to
                 else f"{verb} to " + " or ".join(who(s) for s in to) + " (the lowest level)")
        return (f"You hold {len(self.me().hand)} cards, the limit is {limit}: {plural(excess, 'card')} {where}. "
                "Play cards first, or end the turn? y = end it, any other key = not yet")

    def explain(self, err: IllegalAction) -> None:
        """An action the engine refused: its reason in words (the Classic engine's detail is the
        action itself, which says nothing more to a player)."""
        words = REASONS.get(err.reason, err.reason)
        self.say(f"{words[:1].upper()}{words[1:]}.", "error")

    # -- composing a trade (C-ITEM-6, mq.tui.classic_trade) -------------------------------------
    def start_trade(self) -> str | None:
        """`x`: compose a trade with the first player who may be offered one (the selected item
        of one's own marked); a sentence says why when nobody may."""
        if (msg := self._no_seat()) is not None:
            return msg
        draft = ct.start(self.view, self.seat, self.selected)
        if draft is None:
            return ct.why_not(self.view, self.seat)
        self.draft, self.mode = draft, TRADE
        return None

    def trade_rows(self) -> tuple[tuple[int, str], ...]:
        return ct.rows(self.view, self.seat, self.draft) if self.draft is not None else ()

    def trade_mark(self, number: int | None = None) -> None:
        """Mark or unmark the card numbered ``number`` (1-9, 0 = 10), or the one under the cursor."""
        row = self.draft.cursor if number is None else (10 if number == 0 else number) - 1
        if not 0 <= row < len(self.trade_rows()):
            self.say(f"There is no item {number} to mark." if number is not None else "Nothing to mark.", "error")
            return
        self.draft = ct.toggle(self.view, self.seat, self.draft, row)

    def trade_move(self, step: int) -> None:
        self.draft = ct.move(self.view, self.seat, self.draft, step)

    def trade_switch(self, step: int) -> None:
        self.draft = ct.switch(self.view, self.seat, self.draft, step)

    def trade_offer(self) -> Action | None:
        """Enter: the trade marked, to send (the composer closes); None, and why, when the engine
        would not take it (the composer stays open)."""
        why = ct.problem(self.view, self.seat, self.draft, self.cards)
        if why:
            self.say(why, "error")
            return None
        action = ct.action(self.seat, self.draft)
        self.close_trade()
        return action

    def trade_summary(self) -> str:
        """The trade marked, in words: "You offer Green Helm and Socks for their Sword"."""
        d = self.draft
        mine = self.scribe.items_words(d.gives) if d.gives else "(none marked yet)"
        theirs = self.scribe.items_words(d.takes) if d.takes else "(none marked yet)"
        return f"You offer {who(d.to)} your {mine} for their {theirs}."

    def close_trade(self, why: str = "") -> None:
        self.draft = None
        if self.mode == TRADE:
            self.mode = NORMAL
        if why:
            self.say(why)

    # -- intents ------------------------------------------------------------------------------
    def simple(self, kind: str) -> Action | str:
        """A key for one action: kick (d), look for trouble (f), loot (l), pass, end the turn."""
        if (msg := self._no_seat()) is not None:
            return msg
        if kind == "end_turn" and self.is_legal(Action(self.seat, "ready")):
            return Action(self.seat, "ready")  # `e` also ends the setup (C-SETUP-5)
        if kind in ("summon", "fight"):  # look for trouble (C-TURN-3): a monster from the hand
            fights = [a for a in self.legal if a.kind == "fight"]
            if self.selected is not None and Action(self.seat, "fight", (self.selected,)) in fights:
                return Action(self.seat, "fight", (self.selected,))
            if len(fights) == 1:
                return fights[0]
            if fights:
                return "Several monsters to look for trouble with: Tab to one and press f, or pick its number."
            if self.view.turn is not None and self.view.turn.phase == Phase.TROUBLE and self.view.combat is None:
                return "No monster in your hand to look for trouble with: l loots the room instead."
            return Action(self.seat, "fight")  # the engine says why not
        return Action(self.seat, kind)

    def direction(self, d: int, dash: bool = False) -> Action | str:
        return "There is no map in a Classic game: d kicks open the door, a shows every action."

    def natural(self, card: str) -> Action:
        d = self.cards.card(card)
        me = self.me()
        if card in me.races + me.classes:
            return Action(self.seat, "discard", (card,))
        if any(it.card == card for it in me.items):
            return Action(self.seat, "equip", (card,))
        if d.kind == K.MONSTER:
            return Action(self.seat, "fight", (card,))
        if d.kind == K.ONESHOT and self.view.combat is not None:
            return Action(self.seat, "use", (card, "munchkins"))
        return Action(self.seat, "play", (card,))

    # -- words ---------------------------------------------------------------------------------
    def prompt(self) -> str:  # noqa: C901 - one case per situation
        v = self.view
        if v.phase == Phase.OVER:
            return "The game is over. q quits."
        if self.seat is None:
            return "Watching. ? help · q quit"
        waiting = self.waiting_for()
        mine = self.seat in waiting
        if v.phase == Phase.SETUP:
            if mine:
                return "Setup: put a race, a class and items into play (Tab, Enter or 1-9); e when ready."
            return "Waiting for the others to get ready…"
        if v.pending is not None:
            pend = v.pending
            if not mine:
                return f"Waiting for {who(pend.seat)} ({self.phase_words()})…"
            if pend.kind == PendingKind.LOSE_ITEM:
                return "Bad luck: choose the item you lose (1-9, a: menu)."
            if pend.kind == PendingKind.LOSE_HAND:
                return f"Bad luck: choose {plural(pend.n, 'card')} of your hand to discard (1-9, a: menu)."
            if pend.kind == PendingKind.LOOT:
                return f"Loot {who(v.bodies[0].seat)}'s body: take one card into your hand (1-9, a: menu)."
            if pend.kind == PendingKind.CHARITY:
                to = query.charity_receivers(v, self.cards)
                where = ("give it to " + " or ".join(who(s) for s in to)) if to else "discard it"
                return f"Charity: {plural(pend.n, 'card')} too many: for each, {where} (1-9, a: menu)."
            if pend.kind == PendingKind.SEARCH:
                return "Take a card of the discard pile (1-9, a: menu)."
            if pend.kind == PendingKind.LUCK:
                return (f"Bard's luck: discard {plural(pend.n, 'card')} of the Treasure drawn for the fight "
                        "(1-9, a: menu).")
            if pend.kind == PendingKind.PICK:  # C-HELP-3: as the deal says
                mine_due = dict(pend.gifts)[self.seat]
                return (f"The fight's Treasure: pick a card ({mine_due} yours, "
                        f"{ORDER_WORDS[pend.order]}) (1-9, a: menu).")
            if pend.kind == PendingKind.SALVAGE:
                pile = v.door if pend.arg == "door" else v.treasure
                deck = "Door" if pend.arg == "door" else "Treasure"
                return (f"Salvage: draw a {deck} card face down, or take {self.card_name(pile.discard[-1])} from "
                        "the discards for a card of your hand (1-9, a: menu).")
            if pend.kind == PendingKind.BIG:
                return (f"More big items than you may carry: give up {plural(pend.n, 'of them', 'of them')}; "
                        "it is sold or given away after the fight (1-9, a: menu).")
            if pend.kind == PendingKind.PORTAL:  # C-PACK-7
                what = "join the active one or replace it" if len(v.active) < dungeons.MAX_ACTIVE else \
                    "replace one of the two active"
                return f"Portal: {self.dungeon_words(pend.arg)} turns up: {what} (1-9, a: menu)."
            if pend.kind == PendingKind.BIG_GIFT:
                to = query.charity_receivers(v, self.cards)
                where = ("give it to " + " or ".join(who(s) for s in to)) if to else "discard it"
                return f"Big items given up, not your turn: for each, {where} (1-9, a: menu)."
            return f"Your decision ({pend.kind}): 1-9, a: menu."
        if v.claim is not None and v.claim.open:  # C-EPIC-14, C-DIGI-2 (e)
            if not mine:
                return f"Claim window: waiting for {', '.join(who(s) for s in v.claim.waiting)}…"
            return "Claim window: discard your whole hand to take a discarded monster as your steed, or pass " \
                   "(1-9, a: menu)."
        if v.curse is not None:
            cur = v.curse
            curse = self.card_name(cur.card)
            if not mine:
                return f"{curse} is on its way to {who(cur.victim)}: waiting for " + \
                    ", ".join(who(s) for s in cur.waiting) + "…"
            if cur.victim == self.seat:
                return f"{curse} is cursing you: cancel it with a card (1-9), or Space to take it."
            return f"{curse} is on its way to {who(cur.victim)}: cancel it with a card (1-9), or Space to let it be."
        c = v.combat
        if c is not None:
            return self._combat_prompt(c, mine)
        offered = tuple(t for t in v.turn.trades if t.to == self.seat)
        if offered:  # C-ITEM-6: a trade offered to this seat, answered first
            t = offered[0]
            what = f"A trade: {self.scribe.trade_words(t.by, t.to, t.gives, t.takes)}."
            if len(what) > TRADE_PROMPT:  # (the status line wraps to 3 rows: the table shows it whole)
                what = f"A trade from {who(t.by)} of {plural(len(t.gives), 'item')} for {len(t.takes)} of yours " \
                       "(the table shows them)."
            arrive = "Both arrive" if len(t.gives) + len(t.takes) == 2 else "They arrive"
            return f"{what} {arrive} not in use. Accept or decline it (1-9, a: menu)."
        if v.turn.phase == Phase.CLOSING:  # C-DIGI-2 f
            if mine:
                return (f"{who(v.turn.seat)}'s turn is over: play a card now (a curse, a level: 1-9, a: menu), "
                        "or Space to pass (A: always).")
            if v.turn.seat == self.seat:
                return "Your turn is over: the others may play cards before the next turn…"
            return f"{who(v.turn.seat)}'s turn is over: waiting for " + ", ".join(who(s) for s in v.turn.waiting) + "…"
        if v.turn.seat == self.seat:
            phase = v.turn.phase
            if phase == Phase.KICK:
                return "Your turn: d kicks open the door (first play cards: Tab, Enter; a: all)."
            if phase == Phase.TROUBLE:
                return "No monster: f looks for trouble (a monster from your hand), or l loots the room."
            trade = ", x trades items" if ct.partners(v, self.seat) else ""
            return f"Play cards or sell items for levels (a: menu){trade}, then e ends your turn."
        auto = " · auto-pass on (A)" if self.auto_pass else ""
        trade = ", x trade" if ct.partners(v, self.seat) else ""
        return f"{who(v.turn.seat)}'s turn… (? help, i table, t chat{trade}{auto})"

    def _combat_prompt(self, c, mine: bool) -> str:
        fighter = who(c.fighter)
        offered = dl.open_to(c, self.seat) if self.seat is not None else ()
        bids = [d for d in offered if d.what == DealKind.HELPER]  # C-HELP-1: several may bid
        if offered and not (bids and c.stage == Stage.PREPARE):
            d = offered[0]
            return (f"A deal: {self.scribe.deal_words(d.by, d.to, d.what, d.item, d.share, d.order, offered=True)} "
                    "Accept or decline it (1-9, a: menu).")
        if c.stage == Stage.PREPARE:
            if c.fighter == self.seat:
                o = query.odds(self.view, self.cards)
                now = "you win as it stands" if o.wins else f"you lack {o.short}"
                if bids:
                    return f"Fight, {now}: offers of help are in: accept one (1-9), or r: fight alone."
                ask = ", h: ask for help" if any(a.kind == "ask" for a in self.legal) else ""
                return f"Fight, {now}: play cards (Tab, Enter){ask}, r: ready."
            return f"{fighter} is preparing to fight…"
        if c.stage == Stage.HELP:
            if mine:
                total = query.treasure_at_stake(self.view, self.cards)
                return (f"{fighter} asks you for help: offer it for up to {plural(total, 'Treasure card')} (1-9), "
                        "or Space to refuse.")
            return f"{fighter} asks " + ", ".join(who(s) for s in c.waiting) + " for help: waiting for the answer…"
        if c.stage == Stage.WINDOW:
            final = " (the last)" if c.windows > self.view.params.windows else ""
            if mine:
                return (f"Last chance{final}: play a card on this fight (1-9, Tab, Enter), or Space to pass "
                        "(A: always).")
            auto = " (auto-pass on: A)" if self.auto_pass else ""
            return f"Last chance{final}: waiting for " + ", ".join(who(s) for s in c.waiting) + "…" + auto
        if c.stage == Stage.RUN:
            return self._run_prompt(c, mine, fighter)
        return f"{fighter} is fighting…"

    def _run_prompt(self, c, mine: bool, fighter: str) -> str:
        """C-RUN: the die window, the run-away window (C-RUN-3), the runner's rolls."""
        if c.die:
            i, roll = c.die
            if mine:
                return f"{who(c.runners[0])} rolled {roll} against {self.monster_label(i)}: change the die " \
                       "with a card (1-9), or Space to let it stand."
            return f"{who(c.runners[0])} rolled {roll}: waiting for " + ", ".join(who(s) for s in c.waiting) + "…"
        if c.waiting and c.runners:  # C-RUN-3: the run-away window before the rolls
            if mine:
                return (f"{who(c.runners[0])} must run away: play a card on the run (1-9, Tab, Enter), "
                        "or Space to pass (A: always).")
            return f"{who(c.runners[0])} must run away: waiting for " + ", ".join(who(s) for s in c.waiting) + "…"
        if c.runners and c.runners[0] == self.seat:
            chasing = cb.to_escape(c)  # the monsters still to escape, the next roll against the first
            if chasing:
                i = chasing[0]
                need = query.escape_need(self.view, self.cards, self.seat, i)
                others = " (1-9: roll against another of them first)" if len(chasing) > 1 else ""
                return f"You lost: run! r rolls against {self.monster_label(i)}: {need}+ escapes it{others}."
        return f"{who(c.runners[0]) if c.runners else fighter} is running away…"

    def sale_words(self, items: tuple[str, ...]) -> str:
        gold, levels = query.sale(self.view, self.cards, self.seat, items)
        sold = ", ".join(f"{self.card_name(c)} ({self.cards.card(c).value})" for c in items)
        return f"Sell {sold}: {gold} gold buys {plural(levels, 'level')}"

    def describe(self, a: Action) -> str:  # noqa: C901 - one case per action kind
        """The menu's words for a Classic action, from the seat's view."""
        v, k = self.view, a.kind
        name = self.card_name
        if k == "ready":
            return "Ready: start the game"
        if k == "kick":
            return "Kick open the door (draw a Door card face up)"
        if k == "fight":
            d = self.cards.card(a.args[0])
            return f"Look for trouble: fight {d.name} (level {d.level}) from your hand" + self._after(a)
        if k == "loot":
            return "Loot the room: draw a Door card face down"
        if k == "end_turn":
            return "End your turn"
        if k == "buy":
            return self.sale_words(a.args)
        if k == "roll":
            o = query.odds(v, self.cards)
            now = f"{o.mine} vs {o.theirs}: " + ("you win as it stands" if o.wins else "you lose as it stands")
            return f"Ready to fight ({now}); the others get a last chance"
        if k == "escape":
            need = query.escape_need(v, self.cards, self.seat, a.args[0])
            return f"Roll to run from {self.monster_label(a.args[0])}: {need}+ escapes"
        if k == "pass":
            return self._pass_words()
        if k == "ask":
            o = query.with_helper(v, self.cards, a.args[0])
            verdict = "munchkins win" if o.wins else "still short"
            return f"Ask {who(a.args[0])} for help (with them: {o.mine} vs {o.theirs}, {verdict})"
        if k == "offer":
            share, order, item = a.args
            o = query.with_helper(v, self.cards, self.seat)
            return f"Offer to help for {self.scribe.terms(share, order, item)} (with you: {o.mine} vs {o.theirs})"
        if k == "deal":
            return self._deal_words(a)
        if k == "trade":
            to, n = a.args[0], a.args[1]
            mine, theirs = a.args[2:2 + n], a.args[2 + n:]
            return (f"Offer {who(to)} a trade: your {self.scribe.items_words(mine)} for their "
                    f"{self.scribe.items_words(theirs)}")
        if k in ("accept", "decline") and a.args[0] == trades.TRADE:
            t = trades.open_offer(v, a.args[1], self.seat)
            verb = "Accept" if k == "accept" else "Decline"
            words = (f"{verb} {who(t.by)}'s trade: their {self.scribe.items_words(t.gives)} for your "
                     f"{self.scribe.items_words(t.takes)}")
            if len(words) > TRADE_LABEL:  # (a menu entry wraps to 3 lines at 80x24: the table shows it whole)
                words = f"{verb} {who(t.by)}'s trade: {len(t.gives)} of theirs for {len(t.takes)} of yours (see the table)"
            return words
        if k == "decline":
            return f"Decline {who(a.args[1])}'s deal"
        if k == "accept" and a.args[0] == "deal":
            d = next(x for x in v.combat.proposed if x.by == a.args[1] and x.to == self.seat)
            words = self.scribe.deal_words(d.by, d.to, d.what, d.item, d.share, d.order, offered=True)
            h = dl.helper(d)
            if h < 0:
                return f"Accept: {words}"
            o = query.with_helper(v, self.cards, h)  # the verdict first: a label cut at 80x24 keeps it
            verdict = f"{o.mine} vs {o.theirs}, " + ("munchkins win" if o.wins else "still short")
            terms = self.scribe.terms(d.share, d.order, d.item)
            if d.what == DealKind.HELPER:
                return f"Accept {who(d.by)}'s help ({verdict}) for {terms}"
            return f"Accept: help {who(d.by)} ({verdict}) for {terms}" + (", paid on a win" if d.item else "")
        if k == "enhance":
            d = self.cards.card(a.args[0])
            return f"Enhance {self.monster_label(a.args[1])} with {d.name} ({d.bonus:+d})" + self._after(a)
        if k == "wander":
            m = self.cards.card(a.args[1])
            return f"Play {name(a.args[0])}: send {m.name} (level {m.level}) into the fight"
        if k == "mate":
            return f"Play {name(a.args[0])}: a copy of {self.monster_label(a.args[1])} joins the fight"
        if k == "curse":
            target = "yourself" if a.args[1] == self.seat else who(a.args[1])
            return f"Curse {target} with {name(a.args[0])}"
        if k == "cheat":
            return f"Play {name(a.args[0])} on {name(a.args[1])} (no restrictions, no limits)"
        if k == "use":
            return self._use_words(a)
        if k == "power":
            return self._power_words(a)
        if k == "play":
            return self._play_words(a)
        if k == "equip":
            it = next(i for i in self.me().items if i.card == a.args[0])
            return f"Set {name(a.args[0])} aside" if it.in_use else f"Put {name(a.args[0])} in use"
        if k == "give":
            card, to = a.args
            if v.pending is not None and v.pending.kind in (PendingKind.CHARITY, PendingKind.BIG_GIFT):
                return f"Give {name(card)} to {who(to)} (charity)"
            return f"Give {name(card)} to {who(to)} (into their play)"
        if k == "discard":
            if v.pending is not None:
                return f"Discard {name(a.args[0])} (charity)"  # the prompt says why nobody receives it
            kind = "race" if a.args[0] in self.me().races else "class"
            return f"Discard {name(a.args[0])} (your {kind}: its power goes)"
        if k == "choose":
            return self._choose_words(a)
        if k == "reveal":
            return f"Show your hand to {who(a.args[0])} (they see it until the turn ends)"
        return self._generic_words(a)

    def _deal_words(self, a: Action) -> str:
        to, what, item = a.args[:3]
        if what == DealKind.HELP:
            o = query.with_helper(self.view, self.cards, to)
            terms = terms_words(a.args[3], a.args[4], f"your {self.card_name(item)}" if item else "")
            return f"Offer {who(to)} {terms} for help" + (", paid on a win" if item else "") + \
                f" ({o.mine} vs {o.theirs} with them)"
        return f"Offer {who(to)} your {self.card_name(item)} to stay out of this fight (they may not help)"

    def _after(self, a: Action) -> str:
        """What the fight would stand at after ``a`` (the engine's own what-if)."""
        o = query.after(self.view, self.cards, a)
        if o is None:
            return ""
        return f": {o.mine} vs {o.theirs}, " + ("munchkins win" if o.wins else "monsters win")

    def _pass_words(self) -> str:
        v = self.view
        if v.curse is not None:
            return "Take the curse" if v.curse.victim == self.seat else "Pass: let the curse act"
        c = v.combat
        if c is not None and c.stage == Stage.HELP:
            return "Do not offer help"
        if c is not None and c.die:
            return "Pass: let the die stand"
        if c is not None and c.stage == Stage.RUN and c.runners and self.seat != c.runners[0]:
            return f"Pass: play nothing on {who(c.runners[0])}'s run"
        return "Pass: play nothing"

    def _use_words(self, a: Action) -> str:
        card, rest = a.args[0], a.args[1:]
        d = self.cards.card(card)
        if rest and rest[0] in ("munchkins", "monsters"):
            return f"Play {d.name} for the {rest[0]} ({d.bonus:+d})" + self._after(a)
        if rest and isinstance(rest[0], int):
            effect = d.effects[0].name if d.effects else ""
            verb = {"kill": "kill", "defeat": "defeat", "send_away": "send away"}.get(effect, "play on")
            return f"Play {d.name}: {verb} {self.monster_label(rest[0])}"
        effect = d.effects[0].name if d.effects else (d.use[0].name if getattr(d, "use", ()) else "")
        words = {"escape": "escape every monster", "runaway": "a better run-away roll", "cancel_curse": "cancel the curse",
                 "change_die": "change the die", "end_combat": "end the fight without a result"}.get(effect, "")
        c = self.view.combat
        if c is not None and c.stage == Stage.RUN and c.runners and c.runners[0] != self.seat and not c.die:
            return f"Play {d.name} on {who(c.runners[0])}'s run" + (f": {words}" if words else "")  # C-RUN-3
        return f"Use {d.name}" + (f": {words}" if words else "")

    def _power_words(self, a: Action) -> str:  # noqa: C901 - one case per power
        name, rest = a.args[0], a.args[1:]
        n = self.card_name
        hand = self.me().hand

        def paid(card: str) -> str:  # C-CHAR-3: a card paid from play says so
            return n(card) + ("" if card in hand else " (in play)")
        if name == "discard_bonus":
            return f"Power: discard {paid(rest[0])} for extra strength" + self._after(a)
        if name == "backstab":
            return f"Backstab {who(rest[1])} (−2): discard {paid(rest[0])}" + self._after(a)
        if name == "theft":
            return f"Steal {n(rest[2])} from {who(rest[1])}: roll 4+, a miss costs a level; discard {paid(rest[0])}"
        if name == "pickpocket":
            return f"Pick {who(rest[1])}'s pocket: discard {n(rest[0])}, take a random card of their hand"
        if name == "escape_boost":
            return f"Discard {paid(rest[0])}: +1 to all your run-away rolls this fight"
        if name == "enthral":
            return f"Enthral {self.monster_label(rest[0])}: discard your whole hand (Treasure, no level)"
        if name == "pet":
            return f"Take {self.monster_label(rest[0])} as your pet instead of fighting it (epic human)"
        if name == "sacrifice":
            target = rest[0]
            pet = n(self.me().pet)
            if target == "monsters":
                return f"Sacrifice your pet {pet}: it joins the monsters"
            return f"Sacrifice your pet {pet}: its level as a bonus to {who(target)}" + self._after(a)
        if name == "arrows":
            target = "the monsters" if rest[1] == "monsters" else who(rest[1])
            return f"Shoot an arrow at {target} (−2): discard {n(rest[0])}" + self._after(a)
        if name == "prayer":
            return f"Pray: discard {paid(rest[0])} and {paid(rest[1])} for a Treasure card (epic cleric)"
        if name == "dodge":
            return f"Dodge the curse: discard {n(rest[0])}, roll 5+ to cancel it (epic wizard)"
        if name == "claim":
            bonus = self.cards.monster_card(rest[0]).treasure
            return f"Claim {n(rest[0])} as your steed (+{bonus} in fights): discard your whole hand (epic ranger)"
        if name == "eat":
            return f"Eat {self.monster_label(rest[0])}: up a level as for a kill, no Treasure (epic orc)"
        if name == "tame":
            bonus = self.cards.monster_card(self.view.combat.monsters[rest[-1]].card).treasure
            paid = ", ".join(n(c) for c in rest[:-1])
            return f"Tame {self.monster_label(rest[-1])} as your steed (+{bonus} in fights): discard {paid}"
        return f"Use the {name.replace('_', ' ')} power"

    def _play_words(self, a: Action) -> str:
        card = a.args[0]
        d = self.cards.card(card)
        me = self.me()
        if d.kind in (K.RACE, K.CLASS):
            group = me.races if d.kind == K.RACE else me.classes
            extra = me.halfbreed if d.kind == K.RACE else me.supermunchkin
            swap = f" in place of {self.card_name(group[-1])}" if group and not (extra and len(group) == 1) else ""
            return f"Become {d.name} ({d.kind}: {d.key}){swap}"
        if d.kind == K.ITEM:
            in_use, works = query.item_in_play(self.view, self.cards, self.seat, card)
            note = "" if in_use and works else ": it gives you nothing" if not works else \
                ": set aside, its slot is taken"
            return f"Put {d.name} into play ({self.card_info(card)}){note}"
        if d.kind == K.LEVEL:
            return f"Play {d.name}: go up a level (to {me.level + 1})"
        if d.kind == K.PORTAL:  # C-PACK-7
            return f"Open the portal {d.name}: turn up the next dungeon (join or replace, your choice)"
        if d.kind in (K.STEED, K.HIRELING):  # C-PACK-5
            role = a.args[1] if len(a.args) > 1 else d.kind
            now = me.steed if role == K.STEED else me.hireling
            swap = f" in place of {self.card_name(now)}" if now else ""
            return f"Put {d.name} into play as your {role} (+{d.bonus}){swap}"
        if d.kind == K.HALFBREED:
            return f"Play {d.name}: a second race, or a race's powers without its drawbacks"
        if d.kind == K.SUPERMUNCHKIN:
            return f"Play {d.name}: a second class, or a class's powers without its drawbacks"
        if len(a.args) > 1:  # a special played on a player (C-COMBAT-12)
            return f"Play {d.name} on {who(a.args[1])}: the top Door card; a monster there fights them now"
        return f"Play {d.name}" + (f": {d.text}" if len(d.text) < 60 else "")

    def dungeon_words(self, card: str) -> str:
        """A dungeon's name and rule in words (C-PACK-7)."""
        d = self.cards.dungeon_card(card)
        return f"{d.name} ({'; '.join(describe_effect(e) for e in d.effects)})"

    def _choose_words(self, a: Action) -> str:
        pend = self.view.pending
        if pend is not None and pend.kind == PendingKind.PORTAL:  # C-PACK-7
            new = self.cards.dungeon_card(pend.arg).name
            if a.args[0] == dungeons.JOIN:
                return f"Let {new} join {self.cards.dungeon_card(self.view.active[0]).name} (two dungeons)"
            return f"{new} replaces {self.cards.dungeon_card(a.args[0]).name}"
        if pend is not None and pend.kind == PendingKind.SALVAGE:  # C-CHAR-5
            pile = self.view.door if pend.arg == "door" else self.view.treasure
            if a.args[0] == "draw":
                return f"Draw a {'Door' if pend.arg == 'door' else 'Treasure'} card face down"
            return (f"Discard {self.card_name(a.args[0])} to take {self.card_name(pile.discard[-1])} from the "
                    "discards (salvage)")
        card = self.card_name(a.args[0])
        if pend is None:
            return f"Choose {card}"
        if pend.kind == PendingKind.LOSE_ITEM:
            return f"Lose {card}"
        if pend.kind == PendingKind.LOSE_HAND:
            return f"Discard {card} from your hand"
        if pend.kind == PendingKind.LOOT:
            return f"Take {card} ({self.card_info(a.args[0])}) from {who(self.view.bodies[0].seat)}'s body"
        if pend.kind == PendingKind.SEARCH:
            return f"Take {card} from the discard pile"
        if pend.kind == PendingKind.LUCK:
            return f"Discard {card} ({self.card_info(a.args[0])}; bard's luck)"
        if pend.kind == PendingKind.PICK:  # C-HELP-3
            return f"Take {card} ({self.card_info(a.args[0])})"
        if pend.kind == PendingKind.BIG:
            return f"Give up {card} (big: sold or given away after the fight)"

        return f"Choose {card}"

    def epic_words(self, seat: int) -> str:
        """The epic powers acting for ``seat`` (C-EPIC-2), in words; "" when not epic."""
        names = query.epic_powers(self.view, self.cards, seat)
        return ", ".join(EPIC_WORDS.get(x, x.replace("_", " ")) for x in names)


def latest_result(last, events):
    """The last fight the combat panel keeps showing once it is over: (fighter, strength, monster
    strength, won, how); it goes when a new turn or fight begins."""
    for e in events:
        if e[0] == "result":
            last = (e.fighter, e.strength, e.monster_strength, e.won, "")
        elif e[0] == "combat_ends":
            if last is not None and last[0] == e.fighter:
                last = last[:4] + (e.how,)
            else:
                last = (e.fighter, None, None, e.how == "won", e.how)
        elif e[0] in ("turn", "monster_in") and not (e[0] == "monster_in" and e.how in ("wander", "mate")):
            last = None
    return last
