"""Key bindings of the terminal client.  Each binding is a small function whose docstring's first
line is what the help screen (``?``) says about it: the help is generated from the bindings
themselves (:func:`help_sections`), so it cannot fall out of date.

Every binding belongs to one mode of the model (mq.tui.model: NORMAL, MENU, CHAT, HELP, INFO,
QUIT, GOTO) or to all of them (Ctrl-C).  Bindings only ask the model what an intent means and hand
the result to the client's ``act`` (submit an action, or show a sentence); they never touch the
game.  A replay's client (``model.replaying``, mq.tui.replay) has no bindings that act on the game
(``playing=True``): its arrows, PgUp/PgDn, Home/End and ``g`` step through the log instead, and
the help lists only what works there.

The ``ui`` object they drive (mq.tui.app.Client) provides: ``model``; ``act(action_or_sentence,
confirmed=False)``; ``act_auto()`` (the automatic pass, if due); ``chat(text)``; ``quit(code=0)``; ``repaint()``;
``chat_buffer`` (the text being typed) and ``focus_chat(bool)``.  In a replay the model also steps (mq.tui.replay.ReplayModel).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings

from mq.tui.cli import DEFAULT_DELAY
from mq.tui.model import CHAT, CONFIRM, GOTO, HELP, INFO, MENU, NORMAL, QUIT, TRADE

ANY_MODE = "any"
MODE_TITLES = {NORMAL: "Playing", MENU: "In the action menu (a)", CHAT: "Chatting (t)",
               HELP: "In this help", INFO: "In the table overview (i)", QUIT: "Asked whether to quit",
               GOTO: "Typing a turn number (g)", TRADE: "Composing a trade (x)",
               CONFIRM: "Asked to confirm (y or not)",
               ANY_MODE: "Anywhere"}
REPLAY_TITLE = "Watching a replay"  # NORMAL's title in a replay
KEY_NAMES = {"left": "←", "right": "→", "up": "↑", "down": "↓", "s-left": "⇧←", "s-right": "⇧→",
             "s-up": "⇧↑", "s-down": "⇧↓", "c-c": "Ctrl-C", "c-l": "Ctrl-L", "escape": "Esc", "enter": "Enter",
             "c-m": "Enter", "tab": "Tab", "c-i": "Tab", "s-tab": "⇧Tab", " ": "Space", "pageup": "PgUp",
             "pagedown": "PgDn", "end": "End", "home": "Home", "backspace": "Backspace", "<any>": "any key"}
DIRECTION_KEYS = {"up": 0, "k": 0, "right": 1, "l": 1, "down": 2, "j": 2, "left": 3, "h": 3}
DASH_KEYS = {"K": 0, "L": 1, "J": 2, "H": 3}
SCROLL_KEYS = {"s-up": (0, -1), "s-right": (1, 0), "s-down": (0, 1), "s-left": (-1, 0)}


@dataclass(frozen=True)
class Help:
    keys: tuple[str, ...]  # as shown, e.g. ("←", "h")
    mode: str
    doc: str  # the first line of the handler's docstring
    handler: Callable


def pretty(key: str) -> str:
    return KEY_NAMES.get(key, key)


class Keys:
    """The client's KeyBindings plus the table of what each does (for the help screen)."""

    def __init__(self, model) -> None:
        self.model = model
        self.kb = KeyBindings()
        self.help: list[Help] = []
        self.replay = bool(getattr(model, "replaying", False))
        self.titles = dict(MODE_TITLES, **({NORMAL: REPLAY_TITLE} if self.replay else {}))
        # A Classic game has no map: its keys leave out the map's and word the rest for its game.
        self.classic = bool(getattr(model, "classic", False))
        self.skip: frozenset[str] = frozenset()
        self.docs: dict[str, str] = {}
        if self.classic:
            from mq.tui import classic_keys

            self.skip, self.docs = classic_keys.SKIP, classic_keys.DOCS

    def add(self, *keys: str, mode: str = NORMAL, eager: bool = False, label: str | None = None,
            playing: bool = False):
        """Bind ``keys`` (each alone) to the decorated handler in ``mode``; ``label`` is how the
        help writes the keys when listing them one by one would be too long.  ``playing``: the
        binding acts on the game (or uses keys a replay steps with), so a replay leaves it out."""
        def register(fn):
            if (playing and self.replay) or fn.__name__ in self.skip:
                return fn
            doc = self.docs.get(fn.__name__) or (fn.__doc__ or "").strip().splitlines()[0]
            if not doc:
                raise ValueError(f"binding {fn.__name__} has no docstring")
            flt = None if mode == ANY_MODE else self.in_mode(mode)
            for k in keys:
                if flt is None:
                    self.kb.add(k, eager=eager)(fn)
                else:
                    self.kb.add(k, filter=flt, eager=eager)(fn)
            shown = (label,) if label else tuple(pretty(k) for k in keys)
            self.help.append(Help(shown, mode, doc, fn))
            return fn
        return register

    def in_mode(self, mode: str) -> Condition:
        return Condition(lambda: self.model.mode == mode)


def build(ui) -> Keys:  # noqa: C901 - one small function per binding
    """All bindings for ``ui`` (see the module docstring for what ``ui`` provides)."""
    keys = Keys(ui.model)
    add = keys.add
    m = ui.model

    def fresh() -> None:
        m.clear_message()

    if keys.replay:
        _replay_bindings(keys, m)
    if keys.classic:
        from mq.tui import classic_keys

        classic_keys.bind(keys, ui)

    # -- playing ----------------------------------------------------------------------------------
    @add(*DIRECTION_KEYS, label="←↓↑→ hjkl", playing=True)
    def direction(event) -> None:
        """Move or explore that way (after a lost fight: run that way)."""
        fresh()
        ui.act(m.direction(DIRECTION_KEYS[event.key_sequence[0].key]))

    @add(*DASH_KEYS, label="HJKL", playing=True)
    def dash(event) -> None:
        """Dash that way: spend all your move to cross one connector (once a turn)."""
        fresh()
        ui.act(m.direction(DASH_KEYS[event.key_sequence[0].key], dash=True))

    @add("s", playing=True)
    def search(event) -> None:
        """Search this room (1 move)."""
        fresh()
        ui.act(m.simple("search"))

    @add("p", playing=True)
    def pickup(event) -> None:
        """Pick up the dropped pile here (1 move)."""
        fresh()
        ui.act(m.simple("pickup"))

    @add("f", playing=True)
    def summon(event) -> None:
        """Fight the monsters here that ignore you, or summon one (complete dungeon)."""
        fresh()
        ui.act(m.simple("summon"))

    @add("r", playing=True)
    def roll(event) -> None:
        """Roll the combat dice, or the next escape roll after a lost fight."""
        fresh()
        ui.act(m.roll())

    @add(" ", ".", playing=True)
    def pass_(event) -> None:
        """Pass: let the dice roll (or stand, after the roll); refuse to help."""
        fresh()
        ui.act(m.simple("pass"))

    @add("A", playing=True)
    def auto_pass(event) -> None:
        """Pass every interrupt window by yourself (on/off) until you turn it off."""
        fresh()
        m.auto_pass = not m.auto_pass
        m.say("Auto-pass on: interrupt windows pass by themselves. A turns it off." if m.auto_pass
              else "Auto-pass off: Space passes an interrupt window.")
        ui.act_auto()

    @add("e", playing=True)
    def end_turn(event) -> None:
        """End your turn (in setup: you are ready to start)."""
        fresh()
        ui.act(m.simple("end_turn"))

    @add("tab")
    def next_card(event) -> None:
        """Select the next of your cards (hand, then in play)."""
        fresh()
        m.select(+1)

    @add("s-tab")
    def previous_card(event) -> None:
        """Select the previous of your cards."""
        fresh()
        m.select(-1)

    @add("enter", playing=True)
    def play_selected(event) -> None:
        """Play or use the selected card (several ways: pick one); no card selected: the menu."""
        fresh()
        card = m.selected
        if card is None:
            if m.menu():
                m.open_menu()
            else:
                ui.act(m.entry(1))
            return
        options = m.card_actions(card)
        if len(options) == 1 and m.costs_a_card(options[0]):  # never silently (Q-CHARITY, powers)
            m.ask(options[0], f"{m.describe(options[0])}? y = yes, any other key = no")
        elif len(options) == 1:
            ui.act(options[0])
        elif options:
            m.open_menu(card)
        else:
            ui.act(m.natural(card))  # not allowed now: the engine says why

    @add(*"1234567890", label="1-9 0", playing=True)
    def number(event) -> None:
        """Do the action with that number in the action list."""
        fresh()
        ui.act(m.entry(int(event.key_sequence[0].key)))

    @add("a", playing=True)
    def menu(event) -> None:
        """Open the action menu (every action allowed now)."""
        fresh()
        if m.menu():
            m.open_menu()
        else:
            m.say("There is nothing for you to do right now.")

    @add("v")
    def reach(event) -> None:
        """Show or hide the rooms you can still reach this turn and their cost."""
        fresh()
        m.show_reach = not m.show_reach
        if m.show_reach and not m.reach():
            m.say("Reach shows on your own turn, outside combat.")

    @add(*SCROLL_KEYS, label="⇧←↓↑→")
    def scroll(event) -> None:
        """Scroll the map."""
        dx, dy = SCROLL_KEYS[event.key_sequence[0].key]
        m.scroll = (m.scroll[0] + dx, m.scroll[1] + dy)

    @add("z")
    def recentre(event) -> None:
        """Centre the map on your room again."""
        m.scroll = (0, 0)

    @add("pageup", playing=True)
    def log_back(event) -> None:
        """Read the log back."""
        m.scroll_log(+5)

    @add("pagedown", playing=True)
    def log_forward(event) -> None:
        """Read the log forward."""
        m.scroll_log(-5)

    @add("end", playing=True)
    def log_latest(event) -> None:
        """Back to the latest lines of the log."""
        m.scroll_log(-m.log_back)

    @add("escape", eager=True)
    def clear(event) -> None:
        """Clear the selection, the message and dismissable banners."""
        m.selected = None
        m.clear_message()
        m.dismiss_banners()

    @add("t", playing=True)
    def talk(event) -> None:
        """Chat: type a line, Enter sends it to the table."""
        fresh()
        m.mode = CHAT
        ui.focus_chat(True)

    @add("?")
    def show_help(event) -> None:
        """Show this help."""
        m.overlay_top = 0
        m.mode = HELP

    @add("i")
    def show_table(event) -> None:
        """The table in full: everyone's gear, this room's rules, the monsters in sight."""
        m.overlay_top = 0
        m.mode = INFO

    @add("q")
    def quit_(event) -> None:
        """Quit (asks first)."""
        m.mode = QUIT

    # -- the action menu ---------------------------------------------------------------------------
    @add("down", "j", mode=MENU, playing=True)
    def menu_down(event) -> None:
        """Next entry."""
        m.move_cursor(+1)

    @add("up", "k", mode=MENU, playing=True)
    def menu_up(event) -> None:
        """Previous entry."""
        m.move_cursor(-1)

    @add("pagedown", mode=MENU, playing=True)
    def menu_page_down(event) -> None:
        """Ten entries down."""
        m.move_cursor(+10)

    @add("pageup", mode=MENU, playing=True)
    def menu_page_up(event) -> None:
        """Ten entries up."""
        m.move_cursor(-10)

    @add("enter", mode=MENU, playing=True)
    def menu_do(event) -> None:
        """Do the entry under the cursor."""
        entries = m.menu()
        if entries:
            action = entries[m.menu_cursor].action
            m.close_menu()
            ui.act(action)

    @add(*"1234567890", mode=MENU, label="1-9 0", playing=True)
    def menu_number(event) -> None:
        """Do the entry with that number."""
        intent = m.entry(int(event.key_sequence[0].key))
        m.close_menu()
        ui.act(intent)

    @add("escape", "a", "q", mode=MENU, eager=True, playing=True)
    def menu_close(event) -> None:
        """Close the menu."""
        m.close_menu()

    # -- chat -----------------------------------------------------------------------------------------
    @add("enter", mode=CHAT, playing=True)
    def chat_send(event) -> None:
        """Send the line."""
        text = ui.chat_buffer.text.strip()
        ui.chat_buffer.reset()
        m.mode = NORMAL
        ui.focus_chat(False)
        if text:
            ui.chat(text)

    @add("escape", mode=CHAT, eager=True, playing=True)
    def chat_cancel(event) -> None:
        """Stop typing; nothing is sent."""
        ui.chat_buffer.reset()
        m.mode = NORMAL
        ui.focus_chat(False)

    # -- the help and the table overview --------------------------------------------------------
    for mode, what in ((HELP, "help"), (INFO, "overview")):
        def down(event) -> None:
            m.overlay_top += 1

        def up(event) -> None:
            m.overlay_top = max(0, m.overlay_top - 1)

        def close(event) -> None:
            m.mode = NORMAL

        down.__doc__ = f"Scroll the {what} down (when it does not fit)."
        up.__doc__ = f"Scroll the {what} up."
        close.__doc__ = f"Close the {what}."
        add("down", "j", mode=mode)(down)
        add("up", "k", mode=mode)(up)
        add("<any>", mode=mode)(close)

    # -- a question before an action that costs a card or ends the turn ----------------------------
    @add("y", "Y", mode=CONFIRM, playing=True)
    def confirm_yes(event) -> None:
        """Yes: do it."""
        action = m.answer(True)
        if action is not None:
            ui.act(action, confirmed=True)

    @add("<any>", mode=CONFIRM, playing=True)
    def confirm_no(event) -> None:
        """No: nothing is done."""
        m.answer(False)

    # -- quitting -------------------------------------------------------------------------------------
    @add("y", "Y", mode=QUIT)
    def quit_yes(event) -> None:
        """Yes: leave the game."""
        ui.quit()

    @add("<any>", mode=QUIT)
    def quit_no(event) -> None:
        """No: go on playing."""
        m.mode = NORMAL

    @add("c-c", mode=ANY_MODE)
    def interrupt(event) -> None:
        """Quit at once (the command exits with 130)."""
        ui.quit(130)

    @add("c-l", mode=ANY_MODE)
    def repaint(event) -> None:
        """Repaint the whole screen."""
        ui.repaint()

    return keys


def _replay_bindings(keys: Keys, m) -> None:
    """Stepping through a log (``m`` is a mq.tui.replay.ReplayModel); NORMAL mode, listed first."""
    add = keys.add

    @add("right", "l")
    def next_entry(event) -> None:
        """Next entry of the log."""
        m.step_entry(+1)

    @add("left", "h")
    def previous_entry(event) -> None:
        """Previous entry of the log."""
        m.step_entry(-1)

    @add("pagedown", "]")
    def next_turn(event) -> None:
        """Next turn (its first entry)."""
        m.step_turn(+1)

    @add("pageup", "[")
    def previous_turn(event) -> None:
        """Back to the start of this turn (of the previous one when already there)."""
        m.step_turn(-1)

    @add("g")
    def goto(event) -> None:
        """Jump to a turn: type its number, then Enter."""
        m.start_goto()

    @add("home")
    def first(event) -> None:
        """The start of the game (before the first entry)."""
        m.seek_entry(0)

    @add("end")
    def last(event) -> None:
        """The last entry of the log."""
        m.seek_entry(m.table.n)

    @add(*"0123456789", mode=GOTO, label="0-9")
    def goto_digit(event) -> None:
        """Type the turn number."""
        m.goto_type(event.key_sequence[0].key)

    @add("backspace", mode=GOTO)
    def goto_erase(event) -> None:
        """Erase the last digit."""
        m.goto_type("")

    @add("enter", mode=GOTO)
    def goto_jump(event) -> None:
        """Jump to the start of that turn."""
        m.goto_jump()

    @add("escape", "g", mode=GOTO, eager=True)
    def goto_cancel(event) -> None:
        """Stay where you are."""
        m.goto_cancel()


# How a person spends less time waiting (bench/pace.py measures it): the help screen's last section.
PACE_TIPS = [
    ("A", "auto-pass: interrupt windows pass by themselves; otherwise each one you could answer waits for "
          "Space or the table's window timer"),
    ("--delay S", f"mq play --delay 0.1: the bots act sooner (they think {DEFAULT_DELAY:g} s before every action "
                  "so that you can follow them)"),
]


def help_sections(keys: Keys) -> list[tuple[str, list[tuple[str, str]]]]:
    """The help screen's contents: per mode, each binding's keys and docstring, in the order
    they were added."""
    out = []
    for mode in (NORMAL, GOTO, MENU, TRADE, CHAT, CONFIRM, HELP, INFO, QUIT, ANY_MODE):
        items = [(" ".join(h.keys), h.doc) for h in keys.help if h.mode == mode]
        if items:
            out.append((keys.titles[mode], items))
    if not keys.replay:
        out.append(("Playing faster", PACE_TIPS))
    return out
