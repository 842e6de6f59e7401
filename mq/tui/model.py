"""The UI model of the terminal client: what one seat sees and what the person has selected.

The model is a plain object that the key bindings change and the renderers (mq.tui.render) read;
it knows nothing of prompt_toolkit, so it is tested and benchmarked without a terminal.

Invariants:
- The model never holds a full game state.  ``update(Applied)`` and ``refresh(state)`` pass every
  state through ``mq.rules.view(state, seat)`` at once and keep only the view (Q-DIGI-4); events
  are turned into sentences right away by the public :class:`mq.narrate.Narrator`.  The only
  sentences added beyond it name cards the seat itself holds (its own draws, charity it gives or
  receives) or public happenings the narrator leaves out (an item moved, a race discarded).
- What the person may do comes from ``legal_actions(view, seat)`` only (the menu, the keys).  A
  key that asks for something the engine forbids is still submitted to the table, so the
  explanation is the engine's own reason code (``reason_words``), never a guess of the client's; the
  exceptions are where the client can say more than "no": a move only a dash can make, a run
  where there is no room to run to, a number with no menu entry.
- Everything here is deterministic given the sequence of updates, key intents and the readings of
  ``clock`` (only the interrupt window's countdown reads it, Q-DIGI-2).
- Nothing costs the player a card by surprise: a number key names one action for as long as it
  stays possible (``_renumber``), Enter on a card asks before an action that gives, discards,
  drops or sells it (``costs_a_card``), and an end of turn over the hand limit says first where
  the excess goes, as the engine itself works it out (``end_turn_warning``, Q-CHARITY).
- Sentences come from a :class:`Scribe`, which sees one entry at a time (the seat's view after it,
  the action and the events), so a replay (mq.tui.replay) words a log exactly as a live game does.
"""
from __future__ import annotations

import math
import re
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable

from mq.cards import CardKind, CardSet, DxmDef, MonsterDef, TreasureDef, load_default
from mq.narrate import KIND as DECK_NAMES
from mq.narrate import Narrator, plural, things
from mq.refusals import reason_words
from mq.rules import IllegalAction, board, combat, legal_actions, query, view, view_events
from mq.rules import step as engine_step
from mq.rules.actions import Action
from mq.rules.character import active_items, hand_limit, item_value, move_total, place_for
from mq.rules.legal import HELP_ROUNDS, LEVEL_PRICE, sale_value
from mq.rules.monsters import BASES_PER_COLOUR
from mq.rules.state import COLOURS, DIRS, DX, DY, OVER, SETUP, TURN, FirstPick, PendingKind, Stage, State
from mq.rules.view import TABLE

# Modes: which key bindings are live (mq.tui.keys) and which overlay shows.  GOTO is a replay's
# "g": a turn number is being typed (mq.tui.replay).
NORMAL, MENU, CHAT, HELP, INFO, QUIT, GOTO = "normal", "menu", "chat", "help", "info", "quit", "goto"
CONFIRM = "confirm"  # a question about an action that costs a card or ends a turn: y or not
TRADE = "trade"  # a Classic trade being composed (mq.tui.classic_trade): its overlay shows

LOG_LINES = 400  # the log keeps this many sentences; older ones scroll away for good
CHAT_LINES = 100

# Action kinds in the order the menu lists them: what the game waits for first, then moving,
# then the room, then cards and gear, and the irreversible ones last.
MENU_ORDER = ("ready", "choose", "give", "accept", "decline", "counter", "offer", "set_die", "roll", "pass", "ask", "run",
              "escape", "use", "enhance", "wander", "mate", "curse", "power", "cheat", "uncurse", "move", "dash",
              "search", "pickup", "deal", "fight", "summon", "end_turn", "play", "buy", "heal", "equip", "drop",
              "discard", "suicide")
_MENU_RANK = {k: i for i, k in enumerate(MENU_ORDER)}
# The kinds describe() has words for (a test checks the engine offers no other; add words there
# when the engine grows a kind, until then such actions show with generic words).
WORDED_KINDS = frozenset((
    "ready", "move", "dash", "search", "pickup", "summon", "fight", "buy", "heal", "suicide",
    "end_turn", "roll", "pass", "ask", "offer", "accept", "decline", "enhance", "wander", "mate", "curse",
    "deal", "cheat", "power", "run", "escape", "choose", "give", "set_die", "discard", "use",
    "equip", "drop", "play", "uncurse", "counter"))
CARD_KINDS = ("play", "use", "equip", "drop", "discard", "give", "choose", "enhance", "wander", "mate", "curse",
              "power", "set_die", "cheat", "uncurse")
KIND_NAMES = board.KIND_NAMES
PLACE_VERBS = {"worn": "Wear", "carried": "Carry", "belt": "Belt", "backpack": "Pack"}  # Q-ITEM-1
# Events whose first field is not a seat (see mq/narrate.py for every kind's fields).
NOT_SEAT_EVENTS = frozenset(("monster_appears", "monster_evicted", "door_smashed", "monster_moves",
                             "reshuffle", "no_monster", "game_won", "monsters_win"))
COLOUR_WORD = re.compile(r"\b(" + "|".join(c.capitalize() for c in COLOURS) + r")\b")
# Combat stages in which ``waiting`` seats hold an interrupt window open (Q-DIGI-2): they act or
# pass, or the window timer (params.window_ms, Q-OPT-1) ends it.
WINDOW_STAGES = ("window", "outcome", "help")


def who(seat: int) -> str:
    return COLOURS[seat].capitalize()


@dataclass(frozen=True)
class LogLine:
    text: str
    kind: str = "event"  # "event" | "turn" | "alert" | "mine" | "chat" | "info"
    seat: int | None = None


@dataclass(frozen=True)
class Entry:
    """One line of the action menu; ``number`` is the key (1..10, 10 being 0) that does it, kept
    while the action stays possible (None: only the menu reaches it)."""

    action: Action
    label: str
    number: int | None = None


NUMBERS = tuple(range(1, 11))  # the number keys 1-9 and 0 (= 10)
# A number pressed again this soon after it answered another question (the last of a run of
# prompts, say) is asked about first: a key pressed on through the prompts must not use a card.
RENUMBERED_GUARD_S = 1.5
# Powers that cost the player a card of their own (Q-CHAR-5): Enter on the card asks first.
CARD_COST_POWERS = frozenset(("berserk", "flight", "backstab", "charm"))


@dataclass(frozen=True)
class Banner:
    kind: str  # a Notice kind: "away" | "back" | "bot" | "desync" | "closed" | "info" | "over"
    seat: int | None
    text: str


@dataclass(frozen=True)
class Selectable:
    """A card of the seat's own that Tab can select: in hand, or in play (item, race, class)."""

    card: str
    where: str  # "hand" | "worn" | "carried" | "belt" | "backpack" | "race" | "class"


@dataclass(frozen=True)
class MonsterSide:
    uid: int
    name: str
    colour: int
    boss: bool
    terms: tuple[tuple[str, int], ...]
    dice: int


@dataclass(frozen=True)
class CombatInfo:
    """A fight as its public numbers (Q-COMBAT-4..6): both sides term by term, before the dice."""

    fighter: int
    helper: int  # -1: fighting alone (Q-HELP-1)
    room: int
    stage: str
    waiting: tuple[int, ...]
    offers: tuple[tuple[int, int, int, str, str], ...]  # (seat, gold, Treasure picks, item, first pick) (Q-HELP-2)
    runner: int  # who runs or escapes now (the fighter first, then the helper, Q-HELP-4)
    terms: tuple[tuple[str, int], ...]  # Berserk and Backstab as terms of their own (query.munchkin_terms)
    dice: int
    monsters: tuple[MonsterSide, ...]
    to_escape: tuple[int, ...]
    run_to: int
    ties_win: bool = False  # a warrior wins ties (Q-CHAR-4, Q-COMBAT-8)
    monster_bonus: int = 0  # one-shots others played for the monsters, counted once (Q-HELP-3)
    my_dice: tuple[int, ...] = ()  # rolled, in the ``outcome`` stage (die changers may still act)
    their_dice: tuple[tuple[int, ...], ...] = ()
    # The room's icons that count, as the engine answers (query.room_icons, Q-COMBAT-6):
    # (seat, "good for odd level", die), the fighter's first.
    icons: tuple[tuple[int, str, int], ...] = ()
    dice_terms: tuple[tuple[str, int], ...] = ()  # dice from powers: a battle cry's (query.power_dice)

    @property
    def rolled(self) -> tuple[int, int, bool] | None:
        """(munchkin total, monster total, munchkins win) once the dice are on the table."""
        if self.stage != Stage.OUTCOME:
            return None
        me = self.fixed + sum(self.my_dice)
        them = self.monster_fixed + sum(sum(d) for d in self.their_dice)
        return me, them, me > them or (me == them and self.ties_win)

    @property
    def fixed(self) -> int:
        return combat.total(self.terms)

    @property
    def monster_fixed(self) -> int:
        return sum(combat.total(m.terms) for m in self.monsters) + self.monster_bonus

    @property
    def monster_dice(self) -> int:
        return sum(m.dice for m in self.monsters)

    @property
    def need(self) -> int:
        """The munchkin's dice must beat the monsters' dice by at least this."""
        return self.monster_fixed - self.fixed + (0 if self.ties_win else 1)

    @property
    def chance(self) -> float:
        """The chance to win if rolled now (mq.rules.query.win_chance, as a float for display)."""
        return float(query.win_chance(self.fixed, self.dice, self.monster_fixed, self.monster_dice, self.ties_win))


def card_of(a: Action) -> str | None:
    """The card of one's own an action plays, moves or discards (what Tab + Enter works on); a
    class power names it last (mq.rules.powers)."""
    if a.kind not in CARD_KINDS or not a.args:
        return None
    if a.kind == "power":
        card = a.args[-1] if len(a.args) > 1 else None
    else:
        card = a.args[0]
    return card if isinstance(card, str) else None


def room_words(cards: CardSet, v: State, index: int) -> str:
    """A room as a sentence names it: "the Entrance", or its face's name."""
    return "the Entrance" if index == 0 else cards.face(v.rooms[index].face).name


def deal_words(gold: int, picks: int, item: str = "", cards=None, first: str = FirstPick.HELPER) -> str:
    """A price of help (Q-HELP-2) in words: "300 gold + 1 pick" (picks: Treasure picks, the helper
    picking first unless the deal says the fighter does), or an item of the fighter's."""
    parts = ([f"{gold} gold"] if gold > 0 else []) + ([plural(picks, "pick")] if picks else [])
    if picks and first == FirstPick.FIGHTER:
        parts[-1] += " (the fighter picks first)"
    if item:
        parts.append(cards.card(item).name if cards is not None else item)
    words = " + ".join(parts) or "nothing"
    return f"{words}, the helper paying {-gold} gold" if gold < 0 else words


SMALL_WORDS = frozenset(("the", "of", "a", "an", "and", "in", "on", "to", "for", "with", "from"))


def _significant(name: str) -> list[str]:
    words = name.replace("(", "").replace(")", "").split()
    return [w for w in words if w.lower() not in SMALL_WORDS] or words


GENDER_MARKS = {"male": "♂", "female": "♀"}  # Q-SETUP-3, in the panels


def restriction_words(d) -> str:
    """An item's restrictions (Q-ITEM-4) in words: "only elf or dwarf", "not for wizard"."""
    parts = []
    if getattr(d, "only", ()):
        parts.append("only " + " or ".join(d.only))
    if getattr(d, "not_for", ()):
        parts.append("not for " + " or ".join(d.not_for))
    return ", ".join(parts)


def abbreviate(name: str, width: int) -> str:
    """A name in at most ``width`` characters: whole if it fits (a leading "The" dropped first);
    else all its significant words, small words dropped ("Amulet Second Wind"); else its leading
    words cut with an ellipsis ("Ring of Reluctant…": a name cut short reads as cut, never as
    another name made of some of its words); else its first word cut."""
    if len(name) <= width:
        return name
    words = name.split()
    if len(words) > 1 and words[0].lower() in ("the", "a", "an"):
        words = words[1:]
        if len(" ".join(words)) <= width:
            return " ".join(words)
    significant = " ".join(_significant(" ".join(words)))
    if len(significant) <= width:
        return significant
    kept: list[str] = []
    for w in words:
        if len(" ".join(kept + [w])) + 1 > width:
            break
        kept.append(w)
    while len(kept) > 1 and kept[-1].lower() in SMALL_WORDS:
        kept.pop()  # "Shield…", not "Shield of…"
    if kept:
        return " ".join(kept) + "…"
    return words[0][: max(1, width - 1)] + "…" if width > 1 else words[0][:width]


def name_lines(name: str, width: int, rows: int) -> list[str]:
    """A name wrapped into at most ``rows`` lines of ``width`` (small words dropped when it does
    not fit as it is), the last line abbreviated."""
    words = name.split() if len(name) <= width * rows else _significant(name)
    lines: list[str] = []
    while words and len(lines) < rows:
        if len(lines) == rows - 1:
            lines.append(abbreviate(" ".join(words), width))
            break
        line = ""
        while words and len(f"{line} {words[0]}".strip()) <= width:
            line = f"{line} {words.pop(0)}".strip()
        if not line:  # a single word longer than the line
            line = abbreviate(words.pop(0), width)
        lines.append(line)
    return lines


def latest_result(last: tuple | None, events) -> tuple | None:
    """The combat_result event the combat panel keeps showing after ``events``: a new result
    replaces it, and it goes once the game has moved on (a turn, a new fight, a move, a search)."""
    for e in events:
        if e.kind == "combat_result":
            last = e
        elif e.kind in ("turn", "combat_starts", "move", "explore", "search"):
            last = None
    return last


class Scribe:
    """Turns one seat's updates into log lines: the public :class:`mq.narrate.Narrator`, plus the
    sentences only this seat may read (its own draws, charity it gives or receives) and public
    happenings the narrator leaves out.  It remembers which card each monster is, so it must see
    every entry once, in order."""

    def __init__(self, seat: int | None, cards: CardSet) -> None:
        self.seat = seat
        self.cards = cards
        self.narrator = Narrator(cards)
        self.names: dict[int, str] = {}  # the players' names by seat, when the table knows them

    def card_name(self, card: str) -> str:
        return self.cards.card(card).name

    def remember(self, v: State) -> None:
        # The narrator names monsters from their appearance; a client that joins late still
        # knows every monster on the board (they are public, Q-MON-4).
        for m in v.monsters:
            self.narrator.monster_cards.setdefault(m.uid, m.card)
            if m.boss:
                self.narrator.bosses.add(m.uid)

    def lines(self, v: State, action: Action, events) -> list[LogLine]:
        """The sentences of one applied entry; ``v`` is the seat's view of the state after it."""
        self.remember(v)
        out = []
        if action.kind == "pass":
            out.append(LogLine(f"{who(action.seat)} passes.", "event", action.seat))
        for e in events:
            if e.kind == "charity" and not self._own_line(e):
                self.narrator.count_gift(e)  # Q-CHARITY: told once the giving is over, per receiver
                continue
            out += [LogLine(t, "event") for t in self.narrator.charity_told()]
            line = self._event(v, e, action)
            if line is not None:
                out.append(line)
            if e.kind == "explore" and board.is_complete(v):  # the last room tile: Q-EXPLORE-6, 7
                out.append(LogLine("The dungeon is complete: every way out of it is a wall for munchkins now, and "
                                   "a munchkin in a room without monsters may draw one to fight.", "alert"))
        return out

    def _event(self, v: State, e: tuple, action: Action) -> LogLine | None:
        kind = e.kind
        try:
            line = (self._own_line(e) or self._where_line(v, e, action) or self.narrator.line(v, e)
                    or self._extra_line(e))
        except (AttributeError, KeyError, IndexError, TypeError, ValueError):
            # an event the client cannot word yet (the engine grew one): say that something
            # happened rather than stop following the game
            line = f"({kind})"
        if not line:
            return None
        text = line.strip("\n")
        if kind == "turn":
            name = self.names.get(e.seat)
            return LogLine(text.strip("= ").strip() + (f" ({name})" if name else ""), "turn", e.seat)
        if kind in ("death", "game_won", "monsters_win", "boss_arrives") or "BOSS" in text:
            return LogLine(text.strip(), "alert", e[1] if len(e) > 1 and isinstance(e[1], int) else None)
        mine = self.seat is not None and kind not in NOT_SEAT_EVENTS and len(e) > 1 and e[1] == self.seat
        return LogLine(text.rstrip(), "mine" if mine else "event")

    def _own_line(self, e: tuple) -> str | None:
        """Sentences that name a card only this seat may know of (the events are this seat's
        ``view_events``): its own draws and charity."""
        if self.seat is None:
            return None
        if e.kind == "draw" and e.seat == self.seat:
            return f"You draw {self.card_name(e.card)} ({DECK_NAMES[e.deck]})."
        if e.kind == "charity" and self.seat in (e.seat, e.to):
            if e.seat == self.seat:
                return f"You give {self.card_name(e.card)} to {who(e.to)} (charity)."
            return f"{who(e.seat)} gives you {self.card_name(e.card)} (charity)."
        return None

    def _where_line(self, v: State, e: tuple, action: Action) -> str | None:
        """An exploration said by its room names and direction, as a player at the table would
        ("Green explores north of the Entrance and finds …"), not by grid coordinates."""
        if e.kind != "explore" or action.kind not in ("move", "dash") or not action.args:
            return None
        d = action.args[0]
        x, y = e.x - DX[d], e.y - DY[d]
        came = next((i for i, r in enumerate(v.rooms) if (r.x, r.y) == (x, y)), None)
        where = f" of {room_words(self.cards, v, came)}" if came is not None else ""
        return f"{who(e.seat)} explores {DIRS[d]}{where} and finds {self.cards.face(e.face).name}."

    def _extra_line(self, e: tuple) -> str | None:
        """Public events the narrator leaves out but a player at the table would see."""
        kind = e.kind
        if kind == "equip":
            return f"{who(e.seat)} moves {self.card_name(e.card)} to {e.place}."
        if kind == "discard":
            return f"{who(e.seat)} discards {self.card_name(e.card)}."
        if kind == "window_closed":
            return "  Everyone has passed."  # the dice, or the fighter's answer (Q-COMBAT-7), come next
        if kind == "power":
            return f"  {who(e.seat)} uses the {str(e.power).replace('_', ' ')} power."
        return None


class Model:
    """Everything the client shows.  ``seat`` is None for a spectator (no hand, no actions).

    ``clock`` gives monotonic seconds: when an interrupt window opens the model notes the time, so
    the combat panel can count down to the window timer (tests pass a fake clock)."""

    replaying = False  # a replay's model (mq.tui.replay) steps through a log instead of playing

    def __init__(self, seat: int | None, state: State, cards: CardSet | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.seat = seat
        self.viewer = TABLE if seat is None else seat
        self.cards = cards or self.default_cards(state)
        self._card_ids = self.card_ids()
        self.clock = clock
        self.scribe = self.make_scribe()
        self.narrator = self.scribe.narrator
        self.log: deque[LogLine] = deque(maxlen=LOG_LINES)
        self.chat: deque[LogLine] = deque(maxlen=CHAT_LINES)
        self.banners: list[Banner] = []
        self.names: dict[int, str] = {}  # the players' names by seat (set_seats), shared with the scribe
        self.bots: frozenset[int] = frozenset()  # seats a bot plays
        self.known_bots: frozenset[int] = frozenset()  # seats a front end knows are bots (mq play's bot peers)
        self.rolled: dict[int, int] = {}  # monster uid -> the base colour its die rolled
        self.scribe.names = self.names
        self.message = ""  # the status line's explanation or notice; cleared by the next key
        self.message_kind = "info"  # "info" | "error"
        self.mode = NORMAL
        self.selected: str | None = None  # card id (see Selectable)
        self._selected_in_hand = False
        self._selected_index = 0
        self.menu_card: str | None = None  # the menu narrowed to this card's actions
        self.menu_cursor = 0
        self.menu_top = 0
        self.show_reach = False
        self.auto_pass = False  # pass interrupt windows by ourselves (until the engine has a timer)
        self.overlay_top = 0  # the help or table overlay's scroll position
        self.log_back = 0  # log entries hidden below the log panel while reading back (PgUp)
        self.scroll = (0, 0)  # map offset from the seat's room, in grid cells
        self.last_result: tuple | None = None  # the latest combat_result event, while relevant
        self.seq = 0
        self._window: tuple | None = None  # the open interrupt window: (fighter, stage, waiting)
        self._window_opened: float | None = None  # the clock when this client first saw it so
        self._noticed: set[tuple] = set()  # notices shown since the last applied entry
        self.numbers: dict[Action, int] = {}  # each possible action's number key (stable, see _renumber)
        self._retired: set[int] = set()  # numbers of actions done or gone, not reused until the next decision
        self._numbering: tuple | None = None  # (turn, phase): a new one numbers afresh
        self._decision: tuple | None = None  # what the game waits for: a new one frees retired numbers
        self._pressed: tuple[int, tuple | None, float] | None = None  # the last number done: (n, decision, clock)
        self.asking: Action | None = None  # the action the CONFIRM question is about
        self.question = ""
        self.log_file: str | None = None  # where the protocol log goes (the ``i`` screen names it)
        self.view: State = view(state, self.viewer)
        self._recompute()
        self._log(LogLine(self._greeting(), "info"))

    # The mode's parts: a Classic game's model (mq.tui.classic_model) supplies its own.
    classic = False
    menu_rank = _MENU_RANK

    def default_cards(self, state):
        return load_default()

    def card_ids(self) -> frozenset[str]:
        return frozenset(d.id for deck in (self.cards.monsters, self.cards.treasures, self.cards.dxm) for d in deck)

    def make_scribe(self) -> Scribe:
        return Scribe(self.seat, self.cards)

    def card_of(self, a: Action) -> str | None:
        return card_of(a)

    # -- updates from the table ------------------------------------------------------------
    def recall(self, items) -> None:
        """What happened before this client came (mq.table.Table.history: a player who rejoins, a
        host resumed from its log): the log's sentences and the chat lines, each entry worded once
        and in order as a live client words it, without the rest of an update (banners, prompts)."""
        for item in items:
            if hasattr(item, "events"):
                v = view(item.state, self.viewer)
                for line in self.scribe.lines(v, item.action, view_events(item.events, self.viewer)):
                    self._log(line)
                self.seq = item.seq
            elif item.kind == "chat":
                self._notice(item)

    def refresh(self, state: State) -> None:
        """Take a (full) state without events, e.g. the table's state at start."""
        self.view = view(state, self.viewer)
        self._recompute()

    def update(self, item) -> None:
        """Apply one :class:`mq.table.Applied` or :class:`mq.table.Notice`."""
        if hasattr(item, "events"):
            self._applied(item)
        else:
            self._notice(item)

    def _applied(self, item) -> None:
        waited_for = self.waiting_for()
        self.seq = item.seq
        self._noticed.clear()
        # the game moved on: what the network said before (a sequencer sought, a seat joined) is
        # old news; the log keeps it
        self.banners = [b for b in self.banners if b.kind != "info"]
        self.view = view(item.state, self.viewer)  # the full state goes no further than this line
        for line in self.scribe.lines(self.view, item.action, view_events(item.events, self.viewer)):
            self._log(line)
        self.last_result = latest_result(self.last_result, item.events)
        for e in item.events:
            if e.kind == "monster_appears":
                self.rolled[e.uid] = e.colour  # what the die said, before any base was chosen (Q-MON-1)
        self._recompute()
        if self.waiting_for() != waited_for:
            self.message = ""  # the game moved on to someone or something else: the prompt says what
        self._over_banner()

    def _over_banner(self) -> None:
        """The game-over banner while the view is of a finished game (a replay steps back out)."""
        over = self.view.phase == OVER
        if over and not any(b.kind == "over" for b in self.banners):
            if self.view.winners:
                names = " and ".join(who(s) for s in self.view.winners)
                text = f"Game over: {names} won. Press q to quit."
            else:  # Q-DEATH-5: every munchkin died
                text = "Game over: every munchkin is dead, the monsters won. Press q to quit."
            self.banners.append(Banner("over", None, text))
        elif not over:
            self.banners = [b for b in self.banners if b.kind != "over"]

    def _notice(self, n) -> None:
        if n.kind == "chat":
            name = self.person(n.seat) if n.seat is not None else "table"
            line = LogLine(f"<{name}> {n.text}", "chat", n.seat)
            self.chat.append(line)
            self._log(line)  # a narrow screen shows chat inside the log
            return
        # A peer repeats a notice while it keeps trying (looking for a sequencer, say): it is news
        # once, until the game moves on.
        key = (n.kind, n.seat, n.text)
        if key in self._noticed:
            return
        self._noticed.add(key)
        if n.kind != "lobby":  # who sits where is log news, not a banner
            if n.kind == "back":  # the matching "away" banner has served its purpose
                self.banners = [b for b in self.banners if not (b.kind == "away" and b.seat == n.seat)]
            self.banners = [b for b in self.banners if (b.kind, b.seat, b.text) != key]
            self.banners.append(Banner(n.kind, n.seat, n.text))
            self.banners = self.banners[-4:]
        self._log(LogLine(n.text[:1].upper() + n.text[1:], "info", n.seat))

    def set_seats(self, seats) -> None:
        """Who sits where, from the table (mq.table.Table.seats): (name, played by a bot) per seat."""
        names = {i: name for i, (name, _) in enumerate(seats) if name}
        if names != self.names:
            self.names.clear()
            self.names.update(names)
        self.bots = frozenset(i for i, (_, bot) in enumerate(seats) if bot) | self.known_bots

    def person(self, seat: int) -> str:
        """A seat as the chat and the panels name it: "Green ann", "Blue bot2 (bot)", "Red"."""
        name = self.names.get(seat)
        return who(seat) + (f" {name}" if name else "") + (" (bot)" if seat in self.bots else "")

    def _log(self, line: LogLine) -> None:
        self.log.append(line)
        if self.log_back:  # reading back: keep the same lines in view as new ones arrive
            self.log_back = min(self.log_back + 1, len(self.log) - 1)

    def scroll_log(self, entries: int) -> None:
        """Read the log back (positive) or forward (negative); 0 lines back is the latest."""
        self.log_back = max(0, min(len(self.log) - 1, self.log_back + entries))

    def dismiss_banners(self) -> None:
        """Drop the banners that are news, keeping those that still hold (desync, closed, over)."""
        self.banners = [b for b in self.banners if b.kind in ("desync", "closed", "over")]

    def _recompute(self) -> None:
        v = self.view
        self._watch_window()
        before = self.menu() if self.mode == MENU else []
        under_cursor = before[self.menu_cursor].action if self.menu_cursor < len(before) else None
        self.legal: tuple[Action, ...] = (
            legal_actions(v, self.seat, self.cards) if self.seat is not None else ())
        self._legal_set = set(self.legal)
        self._renumber()
        if self.asking is not None and self.asking not in self._legal_set:
            self.cancel_question("That is no longer possible: nothing was done.")
        items = self.selectables()
        names = {s.card for s in items}
        hand = [s.card for s in items if s.where == "hand"]
        if self.selected is not None and self.selected not in hand and self._selected_in_hand:
            # the selected card just left the hand (played, used, given): select its neighbour,
            # so Tab-Enter-Enter plays through a hand without re-selecting
            self.selected = hand[min(self._selected_index, len(hand) - 1)] if hand else None
        elif self.selected not in names:
            self.selected = None
        self._remember_selection()
        if self.menu_card is not None and self.menu_card not in names:
            self.menu_card = None
        entries = self.menu()
        if self.mode == MENU and not entries:
            self.mode = NORMAL
            self.menu_card = None
        # an open menu keeps its cursor on the same action when the others' moves change the
        # list, so Enter never does something the person did not point at
        actions = [e.action for e in entries]
        if under_cursor in actions:
            self.menu_cursor = actions.index(under_cursor)
        self.menu_cursor = min(self.menu_cursor, max(0, len(entries) - 1))
        self.menu_top = min(self.menu_top, self.menu_cursor)

    def _renumber(self) -> None:
        """Give number keys to the possible actions so that a number keeps naming one action:
        an action keeps its number while it stays possible; the number of one done or gone is
        not given to another until the game waits for something else (pressing 7 twice never
        does two different things); a new turn numbers everything afresh, in menu order."""
        v = self.view
        numbering = (v.phase, v.turn.number if v.turn is not None else -1)
        decision = (numbering, v.pending.kind if v.pending is not None else None,
                    v.combat.stage if v.combat is not None else None, self.waiting_for())
        # A question the game asks this seat (a call for help to it, offers for it to take) numbers
        # its answers afresh, 1 on, as the prompt says: numbers kept from the window before would
        # leave "offer it (1-9)" over a 1 that plays a card.  A number pressed again at once asks
        # first (entry: the question has changed).
        asked = decision != self._decision and any(self._asked(a) for a in self.legal)
        if numbering != self._numbering or asked:
            self._numbering, self.numbers, self._retired = numbering, {}, set()
        for action, n in list(self.numbers.items()):
            if action not in self._legal_set:
                del self.numbers[action]
                self._retired.add(n)
        if decision != self._decision:
            self._decision, self._retired = decision, set()
        if self.seat is not None and self.seat not in self.waiting_for():
            # Numbers go out only while the game waits for this seat: a card of any moment (a
            # class, a level) or dropping gold, possible nearly always, would otherwise take the
            # low numbers on another's turn, before a window's pass or an offer of help appears.
            return
        taken = set(self.numbers.values()) | self._retired
        free = [n for n in NUMBERS if n not in taken]
        for action in sorted(self._in_menu_order(self.legal), key=lambda a: not self._asked(a)):
            if not free:
                break
            if action not in self.numbers:
                self.numbers[action] = free.pop(0)

    # -- questions before an action that costs a card or ends the turn ---------------------------
    def costs_a_card(self, a: Action) -> bool:
        """Whether ``a`` gives away, discards, drops or sells a card of the player's own, or
        ends them: what Enter on a card never does without asking."""
        if a.kind in ("discard", "give", "drop", "buy", "suicide"):
            return True
        if a.kind == "deal":
            return bool(a.args) and a.args[0] == "sell"
        if a.kind == "power":
            return bool(a.args) and a.args[0] in CARD_COST_POWERS
        if a.kind == "choose":
            pend = self.view.pending
            return pend is not None and (pend.kind == PendingKind.LOSE_ITEM or (pend.kind == PendingKind.RESURRECT and a.args[0] != "draw"))
        return False

    def end_turn_warning(self, a: Action) -> str | None:
        """The question the client asks before ``a``, whichever key asked for it: before a
        suicide (Q-DEATH-4: at once, for good this turn) or a curse on yourself; before an end of turn with more cards
        than the hand limit (Q-CHARITY), what will happen to the excess, as the engine would do
        it, and that cards may still be played."""
        if a.kind == "suicide" and self.seat is not None:
            return ("Commit suicide? You die at once: your hand is discarded, your gold and items drop here "
                    "and you lose a level (Q-DEATH-1). y = die, any other key = no")
        if a.kind == "curse" and self.seat is not None and a.args[1] == self.seat:
            return (f"Curse yourself with {self.card_name(a.args[0])}? It strikes you, not another player. "
                    "y = do it, any other key = no")
        if a.kind != "end_turn" or self.seat is None:
            return None
        me = self.me()
        limit = hand_limit(me, self.cards, self.view.params.hand_limit)
        excess = len(me.hand) - limit
        if excess <= 0:
            return None
        try:  # ask the engine: the seat's view after the end of turn holds the charity decision
            pend = engine_step(self.view, a, self.cards)[0].pending
            to = pend.options if pend is not None and pend.kind == PendingKind.CHARITY else None
        except (IllegalAction, KeyError, IndexError, TypeError, ValueError):
            to = None
        if to is None:
            where = "must go to the lowest-level munchkins"
        elif not to:
            where = "will be discarded (you are the lowest level)"
        else:
            where = "will go to " + " and ".join(who(s) for s in to) + (" (split)" if len(to) > 1 else "")
        return (f"You hold {plural(len(me.hand), 'card')}, the limit is {limit}: {plural(excess, 'card')} {where}. "
                "Play cards first, or end the turn? y = end it, any other key = not yet")

    def ask(self, action: Action, question: str) -> None:
        """Hold ``action`` until the person answers ``question`` (CONFIRM mode)."""
        self.asking, self.question, self.mode = action, question, CONFIRM
        self.menu_card = None

    def answer(self, yes: bool) -> Action | None:
        """The held action if the answer is yes; None (and a word saying so) otherwise."""
        action = self.asking
        self.cancel_question("" if yes else "Not done.")
        return action if yes else None

    def cancel_question(self, why: str = "") -> None:
        self.asking, self.question = None, ""
        if self.mode == CONFIRM:
            self.mode = NORMAL
        if why:
            self.say(why)

    # -- the interrupt window's countdown (Q-DIGI-2, Q-OPT-1) ----------------------------------
    def open_window(self) -> tuple | None:
        """The interrupt window the game waits on now, as (fighter, stage, waiting), or None."""
        c = self.view.combat
        if c is None or c.stage not in WINDOW_STAGES or not c.waiting or self.view.phase == OVER:
            return None
        return (c.fighter, c.stage, c.waiting)

    def _watch_window(self) -> None:
        # A window is timed from when this client first saw it, by its own clock (clocks of
        # different machines are not comparable); a seat acting or passing changes ``waiting``
        # and starts the count again.
        window = self.open_window()
        if window != self._window:
            self._window = window
            self._window_opened = self.clock() if window is not None else None

    def window_left(self, now: float | None) -> float | None:
        """Seconds until the open interrupt window's timer ends (0 once it has), measured from
        when this client saw it open; None with no window open or no ``now``."""
        if now is None or self._window_opened is None:
            return None
        return max(0.0, self.view.params.window_ms / 1000 - (now - self._window_opened))

    def window_words(self, now: float | None) -> str | None:
        """The countdown as the combat panel says it: "closes in 7 s" (whole seconds, rounded up,
        so it reads 10 s as it opens and 1 s in its last second)."""
        left = self.window_left(now)
        if left is None:
            return None
        return f"closes in {math.ceil(left)} s" if left > 0 else "closing…"

    def _remember_selection(self) -> None:
        hand = self.hand_cards()
        self._selected_in_hand = self.selected in hand
        self._selected_index = hand.index(self.selected) if self._selected_in_hand else 0

    def _greeting(self) -> str:
        if self.seat is None:
            return "You are watching this game."
        return f"You play {who(self.seat)}. Press ? for the keys."

    # -- what the seat sees ------------------------------------------------------------------
    def me(self):
        return self.view.players[self.seat] if self.seat is not None else None

    def focus_room(self) -> int:
        """The room the map centres on: the seat's own, or the active munchkin's for a spectator."""
        if self.seat is not None:
            return self.view.players[self.seat].room
        if self.view.turn is not None:
            return self.view.players[self.view.turn.seat].room
        return 0

    def card_name(self, card: str) -> str:
        return self.cards.card(card).name

    def room_name(self, index: int) -> str:
        return "Entrance" if index == 0 else self.cards.face(self.view.rooms[index].face).name

    def room_text(self, index: int) -> str:
        return self.cards.face(self.view.rooms[index].face).text

    def identity_words(self, seat: int, gender: bool = True) -> str:
        """Race, class and (a mark for) gender, Q-SETUP-3: "Elf Thief ♀"."""
        p = self.view.players[seat]
        races = [self.cards.card(c).key for c in p.races] or ["human"]
        classes = [self.cards.card(c).key for c in p.classes]
        marks = [GENDER_MARKS.get(p.gender, p.gender)] if gender else []
        return " ".join([w.capitalize() for w in races + classes] + marks)

    def colour_prompt(self) -> str:
        """The base-colour decision (Q-MON-1) with its reason: the colour rolled has no free base."""
        rolled = self.rolled.get(self.view.pending.data[0])
        why = ""
        if rolled is not None and 0 <= rolled < len(COLOURS):
            name = COLOURS[rolled]
            why = (f"The die rolled {name}, but nobody plays {name}: " if rolled >= len(self.view.players)
                   else f"The die rolled {name}, but all {BASES_PER_COLOUR} {name} bases are in use: ")
        return why + "choose the new monster's base colour (nobody draws for it): 1-9 (a: menu)."

    def help_missing(self) -> str:
        """Why this seat's own fight offers no "Ask for help" (Q-HELP-1), where a player looks for
        it: "" when it is offered or does not apply."""
        c = self.view.combat
        if (c is None or self.seat != c.fighter or c.stage != Stage.PREPARE or c.helper >= 0
                or any(a.kind == "ask" for a in self.legal)):
            return ""
        if c.rounds >= HELP_ROUNDS:
            return f"No more asking for help this fight: {HELP_ROUNDS} calls and counter-offers are the most"
        return "Nobody to ask for help: no other munchkin is here or one move away"  # Q-HELP-1

    def sale_words(self, items: tuple[str, ...]) -> str:
        """A way to buy a level (Q-CHAR-3) with each item's gold value and the gold paid on top, as
        the engine counts the sale (a halfling's dearest item counts double once a turn)."""
        if not items:
            return f"Buy a level for {LEVEL_PRICE} gold"
        turn = self.view.turn
        worth = sale_value(self.me(), self.cards, items, bool(turn and turn.double_sale))
        sold = ", ".join(f"{self.card_name(c)} ({item_value(c, self.cards)})" for c in items)
        doubled = " (the dearest counts double)" if worth > sum(item_value(c, self.cards) for c in items) else ""
        rest = (f" + {LEVEL_PRICE - worth} gold" if worth < LEVEL_PRICE
                else f", {worth - LEVEL_PRICE} gold wasted" if worth > LEVEL_PRICE else "")
        return f"Buy a level: sell {sold}{doubled}{rest}"

    def item_note(self, seat: int, card: str) -> str:
        """Why an item in play gives nothing (Q-ITEM-4): "" when it works, or is not meant to yet
        (backpacked, a one-shot waiting on the belt)."""
        p = self.view.players[seat]
        it = next((i for i in p.items if i.card == card), None)
        d = self.cards.card(card)
        if it is None or it.place == "backpack" or not isinstance(d, TreasureDef) or d.kind != CardKind.ITEM:
            return ""
        if any(x is d for x in active_items(p, self.cards)):
            return ""
        return "gives nothing: " + restriction_words(d)

    def move_left(self, seat: int) -> int | None:
        t = self.view.turn
        if t is None or t.seat != seat:
            return None
        return max(0, move_total(self.view.players[seat], self.cards) - t.spent)

    def waiting_for(self) -> tuple[int, ...]:
        from mq.rules import actors

        return actors(self.view)

    def phase_words(self) -> str:
        v = self.view
        if v.phase == SETUP:
            return "setup"
        if v.phase == OVER:
            return "game over"
        if v.pending is not None:
            return {PendingKind.COLOUR: "choosing a base colour", PendingKind.LOSE_ITEM: "losing an item",
                    PendingKind.CHARITY: "charity", PendingKind.CURSE: "cursed",
                    PendingKind.PICK: "picking Treasure"}.get(v.pending.kind, v.pending.kind)
        if v.combat is not None:
            return {Stage.PREPARE: "combat", Stage.WINDOW: "interrupt window", Stage.RUN: "running away",
                    Stage.ESCAPE: "escaping", Stage.REROLL: "escaping", Stage.HELP: "help", Stage.OUTCOME: "dice rolled"}.get(v.combat.stage, v.combat.stage)
        return "movement"

    def reach(self) -> dict[int, int]:
        """Rooms the seat can still reach this turn and their cost (only on its own, quiet turn)."""
        v = self.view
        if (self.seat is None or v.turn is None or v.turn.seat != self.seat or v.combat is not None
                or v.pending is not None or v.phase != TURN or not v.players[self.seat].alive):
            return {}
        return dict(board.reachable(v, self.cards, self.seat))

    def selectables(self) -> list[Selectable]:
        p = self.me()
        if p is None:
            return []
        out = [Selectable(c, "hand") for c in p.hand]
        out += [Selectable(it.card, it.place) for it in p.items]
        out += [Selectable(c, "race") for c in p.races] + [Selectable(c, "class") for c in p.classes]
        return out

    def hand_cards(self) -> tuple[str, ...]:
        """The seat's own hand (the only hand the client ever shows)."""
        p = self.me()
        return p.hand if p is not None else ()

    def combat_info(self) -> CombatInfo | None:
        """The fight's public numbers, worked out as combat.roll_dice and combat.outcome work them
        out (the helper's strength and dice join the munchkin side; monsters' bonuses count against
        either fighter; a warrior on the munchkin side wins ties)."""
        v = self.view
        c = v.combat
        if c is None:
            return None
        cards = self.cards
        present = [m for m in v.monsters if m.uid in c.monsters]
        sides = tuple(
            MonsterSide(m.uid, cards.card(m.card).name, m.colour, m.boss,
                        query.monster_terms(v, cards, m.uid), cards.card(m.card).dice)
            for m in present)
        return CombatInfo(
            fighter=c.fighter, helper=c.helper, room=c.room, stage=c.stage, waiting=c.waiting,
            offers=c.offers, runner=query.runner(v),
            terms=query.munchkin_terms(v, cards), dice=query.munchkin_dice(v, cards),
            dice_terms=query.power_dice(v), monsters=sides, to_escape=c.to_escape,
            run_to=c.run_to, ties_win=query.ties_win(v, cards),
            monster_bonus=c.monster_bonus,
            my_dice=getattr(c, "my_dice", ()), their_dice=getattr(c, "their_dice", ()),
            icons=tuple((s, f"{'good' if die > 0 else 'bad'} for {cond.text}", die)
                        for s in (c.fighter, c.helper) if s >= 0 for cond, die in query.room_icons(v, cards, s)))

    def escape_need(self, uid: int) -> int:
        """The lowest die face that escapes monster ``uid`` of the fight (mq.rules.query.escape_need)."""
        return query.escape_need(self.view, self.cards, uid)

    def monster_label(self, uid: int) -> str:
        """A monster's name and level; "Mime of Menace 2 (level 4)" when several of that name
        are on the board (a mate's copy, say), numbered by when they appeared."""
        for m in self.view.monsters:
            if m.uid == uid:
                d = self.cards.card(m.card)
                twins = sorted(x.uid for x in self.view.monsters if self.cards.card(x.card).name == d.name)
                nth = f" {twins.index(uid) + 1}" if len(twins) > 1 else ""
                return f"{d.name}{nth} (level {20 if m.boss else d.level})"
        return self.narrator.monster(uid)

    # -- actions and their words -------------------------------------------------------------
    def is_legal(self, action: Action) -> bool:
        return action in self._legal_set

    def is_legal_kind(self, kind: str) -> bool:
        return any(a.kind == kind for a in self.legal)

    def describe(self, a: Action) -> str:  # noqa: C901 - one case per action kind
        """The menu's words for an action, from the seat's view."""
        v, k = self.view, a.kind
        me = self.me()
        if k == "ready":
            return "Ready: start the game"
        if k in ("move", "dash"):
            d = a.args[0]
            kind = v.rooms[me.room].sides[d]
            _, _, j = board.beyond(v.rooms, me.room, d)
            if k == "dash":
                where = f"to {self.room_name(j)}" if j >= 0 else "and explore"
                return f"Dash {DIRS[d]} {where} (the {KIND_NAMES[kind]}: all your move)"
            cost = f"{KIND_NAMES[kind]}, {board.MOVE_COST[kind]} move"
            if j < 0:
                return f"Explore {DIRS[d]} ({cost})"
            return f"Go {DIRS[d]} to {self.room_name(j)} ({cost})"
        if k == "search":
            if combat.dice_count(me, v.rooms, self.cards, me.room) > 0:
                return "Search this room (1 move)"
            bonus = self.cards.face(v.rooms[me.room].face).search  # Q-SEARCH-1: dice + the room's number
            comes = ": a monster comes" if bonus <= 1 or bonus == 7 else ""
            return f"Search this room (1 move; you roll no dice here, only the room's {bonus:+d} counts{comes})"
        if k == "pickup":
            r = v.rooms[me.room]
            return f"Pick up the pile ({things(len(r.pile), r.pile_gold)}; 1 move)"
        if k == "summon":
            return "Summon a monster here and fight it"
        if k == "fight":
            return "Fight the monsters here that ignore you"
        if k == "buy":
            return self.sale_words(a.args)
        if k == "heal":
            return "Lose a level to heal 3"
        if k == "suicide":
            return "Commit suicide (die at once)"
        if k == "end_turn":
            return "End your turn"
        if k == "roll":
            return "Roll the dice (after the others' window)"
        if k == "pass":
            if v.combat is not None and v.combat.stage == Stage.HELP:
                return "Do not offer help"
            if v.combat is not None and v.combat.stage == Stage.OUTCOME:
                return "Pass: let the dice stand"
            if v.combat is not None and v.combat.stage == Stage.REROLL:
                return "Let the failed roll stand: take the Bad Stuff"
            return "Pass: let the dice roll"
        if k == "ask":
            return "Ask for help (the others may offer, for a price)"
        if k == "offer":
            gold, picks, item, first = (a.args + ("", FirstPick.HELPER)[len(a.args) - 2:])[:4]
            words = deal_words(gold, picks, item, self.cards, first)
            if a.args[0] < 0:  # the helper pays (Q-DIGI-3)
                share = deal_words(0, picks, "", self.cards, first)
                return f"Offer to pay {-a.args[0]} gold to help" + ("" if share == "nothing" else f", for {share}")
            return "Offer help " + ("for free" if words == "nothing" else f"for {words}")
        if k == "accept":
            deal = next((o for o in v.combat.offers if o[0] == a.args[0]), None)
            terms = f" for {deal_words(deal[1], deal[2], deal[3], self.cards, deal[4])}" if deal else ""
            if v.combat is not None and a.args[0] == v.combat.fighter:  # a bidder takes the counter-offer
                return f"Agree to {who(a.args[0])}'s terms: help{terms}"
            c = v.combat  # what this helper would add to the fight, as the engine counts it (Q-COMBAT-4)
            adds = combat.helper_term(v.players[a.args[0]], c, v.monsters, v.rooms, self.cards)[1]
            return f"Accept {who(a.args[0])}'s help (+{adds} to your side){terms}"
        if k == "counter":  # Q-DIGI-3: the fighter's own terms to one bidder
            seat, gold, picks = a.args[:3]
            first = a.args[4] if len(a.args) > 4 else FirstPick.HELPER
            return f"Counter {who(seat)}'s offer: help me for {deal_words(gold, picks, '', self.cards, first)}"
        if k == "decline":
            return "Decline every offer: fight alone"
        if k == "enhance":  # Q-COMBAT-13
            d = self.cards.card(a.args[0])
            bonus = f" ({d.bonus:+d})" if getattr(d, "bonus", 0) else ""
            return f"Enhance {self.monster_label(a.args[1])} with {d.name}{bonus}"
        if k == "wander":  # Q-CARD-6
            return f"Play {self.card_name(a.args[0])}: a wandering monster joins the fight"
        if k == "mate":  # Q-CARD-6
            # monster_label numbers two monsters of one name, so two mates never read the same
            return f"Play {self.card_name(a.args[0])}: a copy of {self.monster_label(a.args[1])} joins the fight"
        if k == "curse":  # Q-CARD-8
            target = "yourself" if a.args[1] == self.seat else who(a.args[1])
            return f"Curse {target} with {self.card_name(a.args[0])}"
        if k == "deal":  # Q-SEARCH-5: the room's own deal
            face = self.cards.face(v.rooms[me.room].face)
            if a.args[0] == "buy":
                e = next((e for e in face.effects if e.name == "deal_buy"), None)
                price = f"{e.get('n', 1)} Treasure for {e.get('price')} gold" if e is not None else "Treasure"
                return f"Room deal: buy {price} (1 move)"
            e = next((e for e in face.effects if e.name == "deal_sell"), None)
            share = f" at {e.get('percent')}% of its value" if e is not None else ""
            return f"Room deal: sell {self.card_name(a.args[1])}{share} (1 move)"
        if k == "uncurse":  # Q-CARD-8: a lasting curse removed
            return f"Remove {self.card_name(a.args[1])} with {self.card_name(a.args[0])}"
        if k == "cheat":  # Q-ITEM-4
            return f"Play {self.card_name(a.args[0])} on {self.card_name(a.args[1])} (Cheat!)"
        if k == "power":  # Q-CHAR-5 (mq.rules.powers)
            return self._power_words(a.args)
        if k == "run":
            d = self._direction_to(v.combat.room, a.args[0])
            return f"Run away to {self.room_name(a.args[0])}" + (f" ({DIRS[d]})" if d is not None else "")
        if k == "escape":
            return f"Roll to escape {self.monster_label(a.args[0])}"
        if k == "choose":
            pend = v.pending
            if pend is not None and pend.kind == PendingKind.COLOUR:  # Q-MON-1
                return f"Give the monster a {COLOURS[a.args[0]]} base"
            if pend is not None and pend.kind == PendingKind.RESURRECT:  # Q-CHAR-5: the cleric's Resurrection
                deck = DECK_NAMES[pend.data[0]]
                if a.args[0] == "draw":
                    return f"Draw from the {deck} deck as usual"
                return (f"Resurrection: take {self.card_name(pend.data[1])} from the {deck} discards, "
                        f"discarding {self.card_name(a.args[0])}")
            if pend is not None and pend.kind == PendingKind.PICK:  # Q-HELP-2: the Treasures won together
                return f"Take {self.card_name(a.args[0])}"
            if pend is not None and pend.kind == PendingKind.CURSE:  # Q-CARD-8: cancel it, or take it
                curse = self.card_name(pend.data[0])
                victim = pend.data[2]
                if a.args[0] == "accept":
                    if victim != self.seat:
                        return f"Let {curse} hit {who(victim)}"
                    return f"Take the curse ({curse})"
                if a.args[0] == "sanctuary":  # the cleric's d10 power (Q-CHAR-5)
                    on = "" if victim == self.seat else f" on {who(victim)}"
                    return f"Try Sanctuary against {curse}{on} (d10, no more than your level)"
                return f"Cancel {curse} with {self.card_name(a.args[0])}"
            return f"Lose {self.card_name(a.args[0])}"
        if k == "give":
            what, to = a.args
            if isinstance(what, int):  # gold to a neighbour (Q-ITEM-7)
                return f"Give {what} gold to {who(to)}"
            if v.pending is not None and v.pending.kind == PendingKind.CHARITY:
                return f"Give {self.card_name(what)} to {who(to)} (charity)"
            return f"Give {self.card_name(what)} to {who(to)}"
        if k == "set_die":  # Q-COMBAT-7: after the roll
            card, side, index = a.args
            c = v.combat
            dice = c.my_dice if side == "munchkins" else tuple(x for d in c.their_dice for x in d)
            whose = f"{who(c.fighter)}'s" if side == "munchkins" else "the monsters'"
            now = f" (a {dice[index]})" if index < len(dice) else ""
            return f"Use {self.card_name(card)} on {whose} die {index + 1}{now}"
        card = a.args[0] if a.args else ""
        if k == "discard":
            if v.pending is not None:
                return f"Discard {self.card_name(card)} (charity)"
            kind = "race" if card in me.races else "class"
            return f"Discard {self.card_name(card)} (your {kind})"
        if k == "use":
            d = self.cards.card(card)
            bonus = f" (+{d.bonus})" if getattr(d, "bonus", 0) else ""
            if len(a.args) > 1 and a.args[1] == "monsters":  # Q-HELP-3: for the other side
                return f"Play {d.name} for the monsters{bonus}"
            if len(a.args) > 1:
                return f"Play {d.name} for {who(v.combat.fighter)}{bonus}"
            return f"Use {d.name}{bonus}"
        if k == "equip":
            return f"{PLACE_VERBS[a.args[1]]} {self.card_name(card)}" + (" away" if a.args[1] == "backpack" else "")
        if k == "drop":
            if isinstance(card, int):  # gold (Q-SEARCH-4)
                return f"Drop {card} gold here"
            return f"Drop {self.card_name(card)} here"
        if k == "play":
            d = self.cards.card(card)
            if getattr(d, "kind", None) == CardKind.LEVEL:
                return f"Play {d.name} (+1 level)"
            if isinstance(d, DxmDef) and len(a.args) > 1:  # Q-CARD-5: the swap that keeps the hybrid card
                return f"Play {d.name} in place of {self.card_name(a.args[1])} ({d.kind})"
            if isinstance(d, DxmDef):
                return f"Play {d.name} ({d.kind})"
            place = place_for(me, d, self.cards) if isinstance(d, TreasureDef) else None
            return f"{PLACE_VERBS.get(place, 'Play')} {d.name}" + (" away" if place == "backpack" else "")
        return self._generic_words(a)

    def _generic_words(self, a: Action) -> str:
        """Words for an action kind the client does not know yet: its name and its arguments,
        card ids as card names (only names of cards the seat is offered to act with)."""
        words = []
        for x in a.args:
            try:
                words.append(self.card_name(x) if isinstance(x, str) else str(x))
            except KeyError:
                words.append(str(x))
        return f"{a.kind.replace('_', ' ').capitalize()}: " + ", ".join(words) if words else \
            a.kind.replace("_", " ").capitalize()

    def _power_words(self, args: tuple) -> str:
        name, rest = args[0], args[1:]
        if name == "steal":
            return f"Steal {self.card_name(rest[1])} from {who(rest[0])} (d10; a miss costs 1 hit)"
        if name == "berserk":
            return f"Berserk: discard {self.card_name(rest[0])} for +1"
        if name == "battle_cry":
            return "Battle cry: roll the d10 for one more combat die"
        if name == "charm":
            return f"Charm {self.monster_label(rest[0])} away: discard 3 cards, roll the d10"
        if name == "flight":
            return f"Flight: discard {self.card_name(rest[0])} for +1 to run away"
        if name == "reroll":
            return f"Roll the escape again: discard {self.card_name(rest[0])}"
        if name == "backstab":
            return f"Backstab {who(rest[0])} (-2): discard {self.card_name(rest[1])}"
        return f"Use your {name.replace('_', ' ')} power"

    def _direction_to(self, room: int, other: int) -> int | None:
        for d in range(4):
            if board.beyond(self.view.rooms, room, d)[2] == other:
                return d
        return None

    def _copy_key(self, a: Action) -> tuple:
        """The same for two actions that differ only in which copy of a card they use ("X" and
        "X.2", mq.cards.loader): the menu lists such twins once."""
        def base(x):
            if isinstance(x, str) and "." in x and x in self._card_ids:
                return x.split(".", 1)[0]
            return x
        return (a.seat, a.kind, tuple(base(x) for x in a.args))

    def _distinct(self, acts) -> list[Action]:
        seen: set[tuple] = set()
        out = []
        for a in acts:
            key = self._copy_key(a)
            if key not in seen:
                seen.add(key)
                out.append(a)
        return out

    def _in_menu_order(self, acts) -> list[Action]:
        acts = self._distinct(acts)
        urgent = self.view is not None and self.view.pending is not None

        def rank(a: Action) -> float:
            if a.kind == "give" and not urgent:  # a gift to a neighbour, not charity: with the gear
                return self.menu_rank["drop"]
            if a.kind == "curse" and a.args[1] == self.seat:  # a curse on yourself: last but a suicide
                return max(self.menu_rank.values()) - 0.5
            if a.kind in ("enhance", "curse") and (self.view is None or self.view.combat is None):
                return self.menu_rank["play"]  # anytime cards outside a fight (Q-CARD-6, 8): with the cards
            return self.menu_rank.get(a.kind, 99)

        def paying(a: Action) -> int:  # an offer to help that costs the helper gold (Q-HELP-2): last of the offers
            return int(a.kind == "offer" and isinstance(a.args[0], int) and a.args[0] < 0)

        return [a for _, a in sorted(enumerate(acts), key=lambda ia: (rank(ia[1]), paying(ia[1]), ia[0]))]

    def menu(self) -> list[Entry]:
        """The legal actions as menu entries (narrowed to one card when asked): those with a
        number key in number order, then the others in MENU_ORDER."""
        acts = self.legal
        if self.menu_card is not None:
            acts = [a for a in acts if self.card_of(a) == self.menu_card]
        ordered = self._in_menu_order(acts)
        rank = {a: i for i, a in enumerate(ordered)}
        ordered.sort(key=lambda a: (not self._asked(a), self.numbers.get(a, 99), rank[a]))
        return [Entry(a, self._label(a), self.numbers.get(a)) for a in ordered]

    def _asked(self, a: Action) -> bool:
        """Whether ``a`` answers what the prompt asks right now (listed and numbered first): an
        offer of help when the fighter asks this seat (Q-HELP-2), taking or declining an offer
        (or answering it with other terms, Q-DIGI-3) when this seat is the fighter."""
        c = self.view.combat if self.view is not None else None
        if c is None or c.stage != Stage.HELP:
            return False
        if self.seat in c.waiting:
            return a.kind in ("offer", "accept")
        return a.kind in ("accept", "decline", "counter")

    def letter_key(self, a: Action) -> str | None:
        """The letter key that does ``a`` as well (shown in place of a number the action lacks);
        None here: the Quest menu numbers its steps."""
        return None

    def _label(self, a: Action) -> str:
        # The engine may grow action kinds or argument shapes before the client learns their
        # words: such an entry shows in its raw form rather than taking the client down.
        try:
            return self.describe(a)
        except (KeyError, IndexError, TypeError, AttributeError):
            return str(a)

    def card_actions(self, card: str) -> list[Action]:
        return [a for a in self.legal if self.card_of(a) == card]

    def card_info(self, card: str) -> str:
        """A card's kind in a few words: '+2 head item', 'one-shot +3', 'race', 'level'; an item's
        restrictions too ('+3 hands, only elf')."""
        d = self.cards.card(card)
        if isinstance(d, MonsterDef):
            return f"monster L{d.level}"
        if isinstance(d, DxmDef):
            if d.kind == CardKind.ONESHOT:
                return f"one-shot +{d.bonus}" if d.bonus else "one-shot"
            return d.kind
        if d.kind == CardKind.ITEM:
            bits = [f"+{d.bonus}" if d.bonus >= 0 else str(d.bonus), d.slot or ""]
            if d.big:
                bits.append("big")
            limits = restriction_words(d)
            return " ".join(b for b in bits if b) + (f", {limits}" if limits else "")
        if d.kind == CardKind.ONESHOT:
            return f"one-shot +{d.bonus}" if d.bonus else "one-shot"
        return d.kind

    def card_text(self, card: str) -> str:
        d = self.cards.card(card)
        return d.text

    def fresh_now(self) -> tuple[str, ...]:
        """Newly gained Treasure in the hand (``Player.fresh`` of the seat's view) that may go into
        play now although it is another's turn (Q-CARD-3, Q-TURN-3): the engine offers its play."""
        me = self.me()
        v = self.view
        fresh = getattr(me, "fresh", ())  # a Quest rule: Classic players (mq.classic) have none
        if not fresh or v.turn is None or v.turn.seat == self.seat:
            return ()
        plays = {a.args[0] for a in self.legal if a.kind == "play"}
        return tuple(c for c in me.hand if c in fresh and c in plays)

    # -- intents: what a key asks for ----------------------------------------------------------
    # Each returns the Action to submit, or a sentence when the client can say more than the
    # engine would (see the module docstring).

    def _no_seat(self) -> str | None:
        return "You are watching: you cannot act." if self.seat is None else None

    def direction(self, d: int, dash: bool = False) -> Action | str:
        """Arrows/hjkl: cross the connector that way (exploring into darkness), or, after a lost
        fight, run that way (Q-RUN-1)."""
        if (msg := self._no_seat()) is not None:
            return msg
        v = self.view
        c = v.combat
        if c is not None and self.seat in (c.runner, c.fighter) and c.stage == Stage.RUN and self.is_legal_kind("run"):
            j = board.beyond(v.rooms, c.room, d)[2]
            run = Action(self.seat, "run", (j,))
            if j >= 0 and self.is_legal(run):
                return run
            return f"You cannot run {DIRS[d]}: no explored room that way through a passable connector."
        if dash:
            return Action(self.seat, "dash", (d,))
        move = Action(self.seat, "move", (d,))
        if not self.is_legal(move) and self.is_legal(Action(self.seat, "dash", (d,))):
            kind = v.rooms[v.players[self.seat].room].sides[d]
            return (f"Not enough move left for the {KIND_NAMES[kind]} ({board.MOVE_COST[kind]}): "
                    f"press {'KLJH'[d]} (shift) to dash across it with all your move.")
        return move

    def simple(self, kind: str) -> Action | str:
        """Keys for one argument-less action (search, pickup, end_turn, summon, pass)."""
        if (msg := self._no_seat()) is not None:
            return msg
        if kind == "end_turn" and self.is_legal(Action(self.seat, "ready")):
            return Action(self.seat, "ready")  # `e` also ends the setup phase
        if kind == "summon" and self.is_legal(Action(self.seat, "fight")):
            return Action(self.seat, "fight")  # `f` fights what is here, ignoring us or not
        return Action(self.seat, kind)

    def roll(self) -> Action | str:
        """`r`: roll the combat dice, or the next escape roll (Q-RUN-2)."""
        if (msg := self._no_seat()) is not None:
            return msg
        roll = Action(self.seat, "roll")
        if self.is_legal(roll):
            return roll
        escapes = [a for a in self.legal if a.kind == "escape"]
        return escapes[0] if escapes else roll

    def auto_action(self) -> Action | None:
        """The pass to send by ourselves when auto-pass is on and an interrupt window (before the
        dice, or after them for die changers, Q-DIGI-2) waits for this seat."""
        if not self.auto_pass or self.seat is None:
            return None
        c = self.view.combat
        if c is None or c.stage not in (Stage.WINDOW, Stage.OUTCOME) or self.seat not in c.waiting:
            return None
        action = Action(self.seat, "pass")
        return action if self.is_legal(action) else None

    def natural(self, card: str) -> Action:
        """The action a person most likely means by Enter on a card (to get the engine's reason
        when it is not allowed)."""
        d = self.cards.card(card)
        me = self.me()
        if card in me.races + me.classes:
            return Action(self.seat, "discard", (card,))
        if any(it.card == card for it in me.items):
            if getattr(d, "kind", None) == CardKind.ONESHOT:
                return Action(self.seat, "use", (card,))
            return Action(self.seat, "drop", (card,))
        if getattr(d, "kind", None) == CardKind.ONESHOT and self.view.combat is not None:
            return Action(self.seat, "use", (card,))
        return Action(self.seat, "play", (card,))

    # -- selection and menu ---------------------------------------------------------------------
    def select(self, step: int) -> None:
        items = self.selectables()
        if not items:
            self.selected = None
            self.say("You hold no cards.")
            return
        ids = [s.card for s in items]
        if self.selected in ids:
            i = (ids.index(self.selected) + step) % len(ids)
        else:
            i = 0 if step > 0 else len(ids) - 1
        self.selected = ids[i]
        self._remember_selection()

    def open_menu(self, card: str | None = None) -> None:
        self.menu_card = card
        self.mode = MENU
        self.menu_cursor = 0
        self.menu_top = 0

    def close_menu(self) -> None:
        self.mode = NORMAL
        self.menu_card = None
        self.menu_cursor = 0
        self.menu_top = 0

    def move_cursor(self, step: int) -> None:
        n = len(self.menu())
        if n:
            self.menu_cursor = max(0, min(n - 1, self.menu_cursor + step))

    def entry(self, number: int) -> Action | str:
        """Number keys: the action numbered ``number`` (1..9, 0 = 10), whatever rows the list
        shows it on (see _renumber)."""
        n = 10 if number == 0 else number
        if not self.legal:
            return self._no_seat() or "There is nothing for you to do right now."
        for action, k in self.numbers.items():
            if k == n:
                last, now = self._pressed, self.clock()
                self._pressed = (n, self._decision, now)
                if last is not None and last[0] == n and last[1] != self._decision and now - last[2] < RENUMBERED_GUARD_S:
                    return (f"The question has changed: {number} is now: {self.describe(action)}. "
                            f"Press {number} again to do it.")
                return action
        if n in self._retired:
            left = " ".join(str(k % 10) for k in sorted(self.numbers.values()))
            return (f"Action {number} is done or no longer possible (nothing else takes its number until the "
                    f"game moves on)" + (f"; now: {left}." if left else "."))
        if self.seat is not None and self.seat not in self.waiting_for() and not self.numbers:
            return "The game is not waiting for you: a opens the menu of what you may do now."
        return f"There is no action {number} on the menu."

    # -- messages -----------------------------------------------------------------------------------
    def say(self, text: str, kind: str = "info") -> None:
        self.message = text
        self.message_kind = kind

    def explain(self, err: IllegalAction) -> None:
        """An action the engine refused: its reason in words (reason_words), the detail when useful."""
        words = reason_words(err.reason, err.detail, self.card_name)
        self.say(f"{words[:1].upper()}{words[1:]}.", "error")  # the red status line says "no"

    def clear_message(self) -> None:
        if self.message:
            self.message = ""

    def prompt(self) -> str:  # noqa: C901
        """What the game waits for, in words, for the status line."""
        v = self.view
        if v.phase == OVER:
            return "The game is over. q quits."
        if self.seat is None:
            return "Watching. ? help · q quit"
        waiting = self.waiting_for()
        mine = self.seat in waiting
        if v.phase == SETUP:
            if mine:
                return "Setup: Tab selects a card, Enter puts it into play; e when ready."
            return "Waiting for the others to get ready…"
        if v.pending is not None:
            if not mine:
                return f"Waiting for {who(v.pending.seat)} ({self.phase_words()})…"
            if v.pending.kind == PendingKind.COLOUR:
                return self.colour_prompt()
            if v.pending.kind == PendingKind.LOSE_ITEM:
                return "Bad Stuff: choose an item to lose: 1-9 (a: menu)."
            if v.pending.kind == PendingKind.RESURRECT:
                return (f"Resurrection: draw as usual, or take {self.card_name(v.pending.data[1])} from the "
                        "discard pile for a card of your hand (1-9, a: menu).")
            if v.pending.kind == PendingKind.PICK:
                return "Pick one of the Treasures won together: 1-9 (a: menu)."
            if v.pending.kind == PendingKind.CURSE:
                card, by, victim = v.pending.data
                if victim != self.seat:  # a cleric next to the victim (Sanctuary, Q-CHAR-5)
                    return (f"{who(by)} curses {who(victim)} in your room with {self.card_name(card)}: "
                            "roll Sanctuary against it or let it be (1-9, a: menu).")
                return (f"{who(by)} curses you with {self.card_name(card)}: "
                        "cancel it or take it (1-9, a: menu).")
            me = v.players[self.seat]
            excess = len(me.hand) - hand_limit(me, self.cards, v.params.hand_limit)
            return (f"Charity: {plural(excess, 'card')} too many: give or discard {'it' if excess == 1 else 'them'} "
                    "(1-9, a: menu).")
        c = v.combat
        if c is not None:
            if c.stage == Stage.WINDOW:
                if mine:
                    return "Interrupt window: a one-shot for either side (Tab, Enter), or Space to pass (A: always)."
                auto = " (auto-pass on: A)" if self.auto_pass else ""
                return "Interrupt window: waiting for " + ", ".join(who(s) for s in c.waiting) + "…" + auto
            if c.stage == Stage.OUTCOME:
                if mine:
                    return "The dice are rolled: change a die with a card (Tab, Enter), or Space to let them stand."
                return "The dice are rolled: waiting for " + ", ".join(who(s) for s in c.waiting) + "…"
            if c.stage == Stage.HELP:
                if self.seat in c.waiting:
                    return (f"{who(c.fighter)} asks for help: offer it for gold and/or first Treasure picks "
                            "(1-9, a: menu), or Space to refuse.")
                if mine:
                    return "Offers of help are in: accept one or decline (1-9, a: menu)."
                return "Waiting for offers of help from " + ", ".join(who(s) for s in c.waiting) + "…"
            runner = c.runner if c.runner >= 0 else c.fighter
            if mine and c.stage == Stage.PREPARE:
                ask = next((k for a, k in self.numbers.items() if a.kind == "ask"), None)
                if ask is None:
                    return "Fight! One-shots (Tab, Enter), then r to roll."
                return f"Fight! One-shots (Tab, Enter), {ask % 10} asks for help, then r to roll."
            if mine and runner == self.seat and c.stage == Stage.RUN:
                return "You lost: run away — arrows or 1-9 pick the room."
            if mine and runner == self.seat and c.stage == Stage.ESCAPE and c.to_escape:
                uid = c.to_escape[0]
                need = self.escape_need(uid)
                return f"Escape: r rolls against {self.monster_label(uid)}: {need}+ escapes it."
            if runner == self.seat and c.stage == Stage.REROLL:  # the halfling's second chance
                return "The roll failed: discard a card to roll again (1-9, a: menu), or Space to take the Bad Stuff."
            return f"{who(c.fighter)} is fighting…"
        if v.turn is not None and v.turn.seat == self.seat:
            if not v.players[self.seat].alive:
                return "You are dead: e ends the turn."
            left = self.move_left(self.seat)
            return f"Your turn, {left} move left · arrows/hjkl move · s search · e end turn · ? help"
        if v.turn is not None:
            auto = " · auto-pass on (A)" if self.auto_pass else ""
            new = self.fresh_now()
            if new:  # Q-CARD-3: until the next turn starts
                return (f"{who(v.turn.seat)}'s turn: your new Treasure may go into play now "
                        f"(+ in your hand: Tab, Enter), until the next turn{auto}")
            return f"{who(v.turn.seat)}'s turn… (? help, t chat{auto})"
        return ""
