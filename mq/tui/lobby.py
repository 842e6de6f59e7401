"""The lobby screen: the table filling up and its options, full screen, before a LAN game starts.

Everyone at the table sees the same: who sits where (names, bots, open seats, each munchkin's
gender) and the table options (RULES Q-OPT), and the news of who joined or left.  The host chooses
the options (seats, bots, the interrupt timer, the away policy, the starting hand, the game: Quest,
Classic or Classic Epic, CLASSIC.md C-OPT-3) and starts the
game with Enter; each player chooses their own munchkin's gender (Q-SETUP-3); the others wait for
the host ("waiting for the host to start").  ``mq play`` shows it too, with the seats fixed (its
bot peers hold them) and its away policy its own.

Invariants:
- :class:`LobbyModel` is plain data and pure functions of it (tested without a terminal); the
  screen only draws it and turns keys into its requests.
- The lobby never decides a rule: a change is a request to the table (``set_options``,
  ``choose_gender``), which the engine checks (net.options, ``make_params``); a refusal is shown in
  its words and changes nothing.  What the table broadcasts back is what is shown.
- :func:`run` ends when the game starts (None) or when the person leaves (an exit code).
"""
from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from dataclasses import dataclass, field

from mq.cards.classic_packs import NAMES as PACK_NAMES
from mq.cards.classic_packs import packs_words
from mq.rules import IllegalAction
from mq.rules.newgame import GENDER_CHOICES, MAX_PLAYERS, MIN_PLAYERS, ROLLED
from mq.rules.state import COLOURS
from net import options
from net.peer import PeerError

# The values ←/→ step through (a flag may set any other the engine allows; it is shown in order).
WINDOW_MS = (0, 2600, 5000, 10_000, 20_000, 30_000, 60_000)  # Q-OPT-1: 2.6 s is the rulebook's
AWAY_S = (10, 30, 60, 120, 300)  # Q-OPT-2
AWAY = ("wait", "bot")
STARTS = {"quest": (3, 4), "classic": (2, 4)}  # Q-OPT-3, C-OPT-2
GAMES = (("quest", 0), ("classic", 0), ("classic", 1))  # (mode, epic): Quest, Classic, Classic Epic (C-OPT-3)
# C-OPT-4: the choices ←/→ step through: none, each pack alone, all of them.
PACK_CHOICES = tuple(dict.fromkeys(((),) + tuple((name,) for name in PACK_NAMES) + (PACK_NAMES,)))
# The option rows, top to bottom: (key, label).
ROWS = (("seats", "Players"), ("bots", "Bots"), ("window_ms", "Interrupt timer"), ("away", "Away player"),
        ("away_s", "Bot takes over after"), ("start", "Starting hand"), ("mode", "Game"), ("packs", "Packs"),
        ("gender", "Your munchkin"))
LOCAL_FIXED = ("seats", "bots", "away", "away_s")  # mq play: its bot peers hold the seats
NEWS_LINES = 6


def gender_words(choice: str) -> str:
    return "rolled at the start" if choice == ROLLED else choice


def option_words(key: str, opts: dict, bots: int) -> str:
    """An option's value as a person reads it (``bots``: how many seats bots play)."""
    if key == "seats":
        return str(opts.get("seats", 0))
    if key == "bots":
        return str(bots)
    if key == "window_ms":
        ms = opts.get("window_ms", 10_000)
        text = f"{ms / 1000:g} s"
        return text + (" (the rulebook's)" if ms == 2600 else " (bots never wait)" if ms == 0 else "")
    if key == "away":
        return "wait for them" if opts.get("away") == "wait" else "a bot plays for them"
    if key == "away_s":
        return f"{opts.get('away_s', 60)} s" + ("" if opts.get("away") == "bot" else " (when a bot plays for them)")
    if key == "start":
        n = opts.get("start", 3)
        return f"{n} Door + {n} Treasure cards" if options.mode_of(opts) == "classic" else f"{n} Treasure + {n} DxM cards"
    if key == "mode":
        if options.mode_of(opts) == "quest":
            return "Munchkin Quest (the board game)"
        return "Classic Epic (the card game to level 20)" if opts.get("epic") == 1 else "Classic (the card game)"
    if key == "packs":
        if options.mode_of(opts) == "quest":
            return "none (the packs are the card game's)"
        return packs_words(options.packs(opts))
    raise KeyError(key)


def _step(values: tuple, current, d: int):
    """The value ``d`` steps from ``current`` in ``values`` (a value not among them sits in order)."""
    ordered = sorted(set(values) | {current})
    i = ordered.index(current) + d
    return ordered[max(0, min(len(ordered) - 1, i))]


@dataclass
class LobbyModel:
    """What one person's lobby screen shows, and the row the cursor is on."""

    seat: int | None  # None: a spectator
    host: bool  # this person hosts the table
    leader: int | None = 0  # the host's seat
    local: bool = False  # mq play: LOCAL_FIXED rows are not for changing here
    known_bots: frozenset = frozenset()  # seats bot peers hold (mq play's): shown as bots
    seats: list = field(default_factory=list)  # net.peer.SeatInfo
    opts: dict = field(default_factory=dict)  # net.options
    row: int = 0
    note: str = ""  # the last refusal or hint, in words
    news: deque = field(default_factory=lambda: deque(maxlen=NEWS_LINES))
    starting: bool = False
    joining: str = ""  # the host's screen: how friends join (the join code is shown to the host only)

    def rows(self) -> list[tuple[str, str, str, bool]]:
        """(key, label, value in words, whether this person may change it) per option row."""
        out = []
        for key, label in ROWS:
            if key == "gender":
                if self.seat is None:
                    continue
                out.append((key, label, gender_words(self.genders()[self.seat]), True))
                continue
            may = self.host and not (self.local and key in LOCAL_FIXED)
            bots = sum(1 for s in range(len(self.seats)) if self.is_bot(s))
            out.append((key, label, option_words(key, self.opts, bots), may))
        return out

    def is_bot(self, seat: int) -> bool:
        return self.seats[seat].kind == "bot" or seat in self.known_bots

    def first_row(self) -> None:
        """The cursor on the first row this person may change."""
        self.row = next((i for i, r in enumerate(self.rows()) if r[3]), 0)

    def genders(self) -> tuple[str, ...]:
        """Each seat's gender as the game will get it: bots' are rolled (Q-SETUP-3)."""
        chosen = options.genders(self.opts)
        return tuple(ROLLED if s < len(self.seats) and (self.seats[s].kind != "peer" or self.is_bot(s)) else g
                     for s, g in enumerate(chosen))

    def update(self, seats: list, opts: dict) -> None:
        self.seats, self.opts = list(seats), dict(opts)
        self.row = min(self.row, len(self.rows()) - 1)

    def move(self, d: int) -> None:
        self.row = max(0, min(len(self.rows()) - 1, self.row + d))
        self.note = ""

    def change(self, d: int):
        """What ←/→ (``d`` -1/+1) on the current row asks the table for: ``("gender", choice)``,
        ``("options", opts, bots)`` or None (``note`` says why)."""
        key, label, _, may = self.rows()[self.row]
        if not may:
            self.note = (f"{label}: mq play sets it (see mq play --help)" if self.host
                         else f"{label}: the host chooses it")
            return None
        if key == "gender":
            mine = options.genders(self.opts)[self.seat]
            return ("gender", GENDER_CHOICES[(GENDER_CHOICES.index(mine) + d) % len(GENDER_CHOICES)])
        opts, bots = dict(self.opts), self.bot_seats()
        if key == "seats":
            n = max(MIN_PLAYERS, min(MAX_PLAYERS, opts["seats"] + d))
            opts["seats"] = n
            bots = tuple(s for s in bots if s < n)
        elif key == "bots":
            free = [s for s in range(opts["seats"]) if s >= len(self.seats) or self.seats[s].kind != "peer"]
            want = max(0, min(len(free), len(bots) + d))
            bots = tuple(free[len(free) - want:])  # the last free seats are the bots
        elif key == "window_ms":
            opts[key] = _step(WINDOW_MS, opts[key], d)
        elif key == "away":
            opts[key] = AWAY[(AWAY.index(opts[key]) + d) % len(AWAY)]
        elif key == "away_s":
            opts[key] = _step(AWAY_S, opts[key], d)
        elif key == "start":
            opts[key] = _step(STARTS[options.mode_of(opts)], opts.get(key, 3), d)
        elif key == "mode":  # a mode's own starting hand with it (Q-OPT-3, C-OPT-2)
            now = (options.mode_of(opts), 1 if opts.get("epic") == 1 else 0)
            mode, epic = GAMES[(GAMES.index(now) + d) % len(GAMES)] if now in GAMES else GAMES[0]
            if mode != now[0]:
                opts["start"] = STARTS[mode][-1] if mode == "classic" else STARTS[mode][0]
            opts["mode"], opts["epic"] = mode, epic
            if mode == "quest":
                opts = options.with_packs(opts, ())
        elif key == "packs":  # C-OPT-4
            if options.mode_of(opts) == "quest":
                self.note = "Packs: they add cards to the card game; choose Classic first"
                return None
            now = options.packs(opts)
            i = PACK_CHOICES.index(now) if now in PACK_CHOICES else 0
            opts = options.with_packs(opts, PACK_CHOICES[(i + d) % len(PACK_CHOICES)])
        return ("options", opts, bots)

    def bot_seats(self) -> tuple[int, ...]:
        return tuple(s for s, info in enumerate(self.seats) if info.kind == "bot")

    def hint(self) -> str:
        """The bottom line: what the keys do here."""
        own = " · ←→ your munchkin's gender" if self.seat is not None and not self.host else ""
        if self.host:
            return "↑↓ option · ←→ change · Enter start (open seats get bots) · q leave"
        return f"Waiting for the host to start the game{own} · q leave"


def joining_words(code: str | None, port: int, bind: str = "0.0.0.0", interfaces=None) -> str:
    """The host's line for friends: the command that joins this table from another machine, with
    the address it listens on — the one bound, or, bound to all, this machine's first network
    address (net.discovery.local_interfaces, read from the system: nothing is sent), others after
    it; "<this machine's address>" where none can be read.  ``interfaces``: for tests."""
    from net.discovery import WILDCARD, local_interfaces

    if bind not in WILDCARD:
        addresses = [bind]
    else:
        found = local_interfaces() if interfaces is None else interfaces
        addresses = [i.address for i in found or () if i.up and not i.loopback]
    where = addresses[0] if addresses else "<this machine's address>"
    command = f"mq join {where}:{port}" + (f" --code {code}" if code else "")
    also = f"\n  (or {', '.join(addresses[1:3])} in place of {where})" if len(addresses) > 1 else ""
    return "Friends join with:\n  " + command + also  # (no code on an open loopback table, --open)


def render(m: LobbyModel, width: int, height: int) -> list[list[tuple[str, str]]]:
    """The lobby as lines of (style, text) for a ``width`` x ``height`` screen."""
    from mq.tui.render import clip, coloured_words, wrap

    lines: list[list[tuple[str, str]]] = []
    title = " mq · the lobby" + (" · you host this table" if m.host else "")
    lines.append([("class:title", title.ljust(width))])
    lines.extend([("class:bold", " " + t)] for t in m.joining.splitlines())  # the command never wraps
    lines.append([])
    lines.append([("class:bold", " At the table")])
    genders = m.genders()
    for s, info in enumerate(m.seats):
        # (mq play's bot peers are named in the order they joined, not by seat: "a bot" says it all)
        who = "a bot" if m.is_bot(s) else {"open": "open seat"}.get(info.kind, info.name or "a player")
        marks = [w for w, on in (("you", s == m.seat and who != "you"), ("host", s == m.leader and s != m.seat),
                                 ("away", info.away)) if on]
        who += f" ({', '.join(marks)})" if marks else ""
        gender = gender_words(genders[s]) if s < len(genders) else ""
        lines.append([(f"class:seat{s}", f"   {COLOURS[s].capitalize():8}"), ("", f"{who[:30]:32}"),
                      ("class:dim", gender)])
    lines.append([])
    lines.append([("class:bold", " Table options")])
    for i, (_, label, value, may) in enumerate(m.rows()):
        cursor = i == m.row
        style = "class:menu.cursor" if cursor else ("" if may else "class:dim")
        lines.append([("", " > " if cursor else "   "), (style, f"{label:22}"), (style, value)])
    lines.append([])
    if m.note:
        lines.extend([("class:log.alert", " " + t)] for t in wrap(m.note, width - 2))
    if m.starting:
        lines.append([("class:bold", " Starting: the seed exchange runs...")])
    room = height - len(lines) - 2
    news = list(m.news)[-max(0, room):] if room > 0 else []
    lines.extend(coloured_words(" " + t, "class:log.event") for t in news)
    lines = lines[: height - 1]
    lines.extend([] for _ in range(height - 1 - len(lines)))
    lines.append([("class:title", (" " + m.hint())[:width].ljust(width))])
    return [clip(line, width) for line in lines]


async def run(table, input=None, output=None, local: bool = False, start=None,  # noqa: C901
              log_file: str | None = None) -> int | None:
    """The lobby of ``table`` (a net.client.NetTable) until the game starts (returns None) or the
    person leaves (returns the exit code: 0, or 130 for Ctrl-C).  ``start``: what Enter does for
    the host (a coroutine function; default ``table.start``); ``local``: mq play's lobby;
    ``log_file``: where stderr goes while the screen is up (mq.tui.terminal)."""
    from prompt_toolkit.application import Application
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.layout import Layout, Window
    from prompt_toolkit.styles import Style

    from mq.table import Notice
    from mq.tui import render as tui_render
    from mq.tui import terminal
    from mq.tui.app import PanelControl

    m = LobbyModel(table.seat, bool(table.peer.leader), table.peer.leader_seat, local,
                   frozenset(range(1, len(table.peer.seats))) if local else frozenset())
    m.update(*(table.lobby if table.lobby[0] else (table.peer.seats, table.peer.opts)))
    m.joining = joining_words(table.peer.join_code, table.peer.port, table.peer.cfg.bind) if m.host and not local else ""
    m.first_row()
    kb = KeyBindings()
    app: Application | None = None
    tasks: set[asyncio.Task] = set()

    def redraw() -> None:
        if app is not None:
            app.invalidate()

    def ask(request) -> None:
        try:
            if request is None:
                pass
            elif request[0] == "gender":
                table.choose_gender(request[1])
                m.opts = options.with_gender(m.opts, m.seat, request[1])  # a second key goes on from it
            else:
                table.set_options(request[1], request[2])
                m.update(table.peer.seats, table.peer.opts)
        except (IllegalAction, PeerError, ValueError) as err:  # the table's refusal, in its words
            m.note = f"Not changed: {getattr(err, 'detail', '') or err}"
        redraw()

    async def starting() -> None:
        m.starting, m.note = True, ""
        redraw()
        try:
            if start is not None:
                await start()
            else:
                table.start()
        except Exception as err:  # PeerError and the like: say it, stay in the lobby
            m.note = f"Not started: {err}"
        m.starting = table.phase != "lobby"  # back in the lobby: the seed exchange missed a seat
        redraw()

    @kb.add("up")
    @kb.add("k")
    def _(e):
        m.move(-1)
        redraw()

    @kb.add("down")
    @kb.add("j")
    def _(e):
        m.move(1)
        redraw()

    @kb.add("left")
    @kb.add("h")
    def _(e):
        ask(m.change(-1))

    @kb.add("right")
    @kb.add("l")
    @kb.add(" ")
    def _(e):
        ask(m.change(1))

    @kb.add("enter")
    def _(e):
        if not m.host:
            m.note = "The host starts the game"
        elif not m.starting:
            task = asyncio.get_running_loop().create_task(starting())
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        redraw()

    @kb.add("q")
    def _(e):
        e.app.exit(result=0)

    @kb.add("c-c")
    def _(e):
        e.app.exit(result=130)

    @kb.add("c-l")
    def _(e):
        e.app.renderer.clear()

    app = Application(layout=Layout(Window(PanelControl(lambda w, h: render(m, w, h)))), key_bindings=kb,
                      style=Style.from_dict(tui_render.STYLE), full_screen=True, mouse_support=False,
                      input=input, output=output)

    async def pump() -> None:
        async for item in table.updates():
            if isinstance(item, Notice) and item.kind in ("info", "away", "back", "chat"):
                m.news.append(item.text if item.kind != "chat" or item.seat is None
                              else f"{COLOURS[item.seat].capitalize()}: {item.text}")
            if table.lobby[0]:
                m.update(*table.lobby)
                m.leader = table.peer.leader_seat
            if table.phase == "lobby" and not tasks:
                m.starting = False
            redraw()

    async def started() -> None:
        await table.wait_started()
        if app.is_running:
            app.exit(result=None)

    loop = asyncio.get_running_loop()
    helpers = [loop.create_task(pump()), loop.create_task(started())]
    try:
        with terminal.stderr_to(log_file):  # nothing else may write into the screen
            return await app.run_async()
    finally:
        for t in [*helpers, *tasks]:
            t.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
