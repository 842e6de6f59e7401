"""The full-screen client: the prompt_toolkit layout over the renderers, the Application, and
``run(table)``, which plays one seat of a :class:`mq.table.Table` until the person quits.

Layout (every panel is a window whose content is a pure renderer of mq.tui.render, given the
window's exact size; ``render.plan`` decides the sizes from the terminal's, from 80x24 up)::

    banners (only while there are any)
    map                         │ players
    combat (only during a fight)│ your hand
                                │ actions
    log                         │ chat (wide terminals; else chat is in the log)
    chat input (only while typing)
    status line: what the game waits for, or why a key was refused
    overlays: the help (?), the table overview (i) and a Classic trade being composed (x), over everything

Never blocks: keys submit through the table in background tasks; updates from the table are
pumped into the model by another task, each followed by a redraw.  Nothing waits on a bot or a
peer, so the screen keeps answering while the others think.  While an interrupt window is open a
third task redraws as its countdown ticks (nothing else would: no update arrives while everyone
thinks).  A replay (mq.tui.replay) is the same client over a ReplayTable and a ReplayModel.
"""
from __future__ import annotations

import asyncio
import contextlib
import math

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.layout import (
    ConditionalContainer,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl, UIContent, UIControl
from prompt_toolkit.layout.dimension import Dimension as D
from prompt_toolkit.styles import Style

from mq.classic import is_classic
from mq.rules import IllegalAction
from mq.table import LocalTable
from mq.tui import keys as keymod
from mq.tui import render, terminal
from mq.tui.model import CHAT, HELP, INFO, TRADE, Model


class PanelControl(UIControl):
    """A window's content from a pure renderer ``fn(width, height) -> lines``."""

    def __init__(self, fn, focusable: bool = False) -> None:
        self.fn = fn
        self.focusable = focusable

    def create_content(self, width: int, height: int) -> UIContent:
        lines = self.fn(width, height)
        return UIContent(get_line=lambda i: lines[i] if i < len(lines) else [], line_count=len(lines))

    def is_focusable(self) -> bool:
        return self.focusable


class Client:
    """Connects the model, the key bindings and a table: what the bindings call (keys.py)."""

    def __init__(self, table, model: Model) -> None:
        self.table = table
        self.model = model
        self.chat_buffer = Buffer(multiline=False)
        self.app: Application | None = None
        self.map_window: Window | None = None
        self.chat_window: Window | None = None
        self.keys: keymod.Keys | None = None
        self._tasks: set[asyncio.Task] = set()
        self._auto_seq = -1  # the state (seq) an automatic pass was last sent for

    # -- what the key bindings use -------------------------------------------------------------
    def act(self, intent, confirmed: bool = False) -> None:
        """Submit an Action (in the background), or show a sentence the model answered instead.
        An end of turn with too many cards asks first (Q-CHARITY), whichever key asked for it."""
        if isinstance(intent, str):
            self.model.say(intent, "error")
            self.redraw()
            return
        warning = None if confirmed else self.model.end_turn_warning(intent)
        if warning is not None:
            self.model.ask(intent, warning)
            self.redraw()
            return
        self._spawn(self.submit(intent))

    def act_auto(self) -> None:
        """Send the automatic pass the model asks for, once per state."""
        action = self.model.auto_action()
        if action is not None and self.model.seq != self._auto_seq:
            self._auto_seq = self.model.seq
            self._spawn(self.submit(action))

    async def submit(self, action) -> None:
        try:
            await self.table.submit(action)
            if getattr(self.table, "waiting_for_host", False):  # a LAN table that has lost its host
                self.model.say("Sent, but no host is reachable now: it goes through once one is.")
        except IllegalAction as err:
            self.model.explain(err)
        except Exception as err:  # a broken link must not take the client down: say so instead
            self.model.say(f"Could not send that: {err}", "error")
        self.redraw()

    def chat(self, text: str) -> None:
        self._spawn(self.table.say(text))

    def repaint(self) -> None:
        """Erase the terminal and draw every cell again (Ctrl-L: after something else wrote to it)."""
        if self.app is not None and self.app.is_running:
            self.app.renderer.clear()
            self.app.invalidate()

    def quit(self, code: int = 0) -> None:
        """Leave the client; ``run`` returns ``code`` (130 for Ctrl-C, as the shell has it)."""
        if self.app is not None and self.app.is_running:
            self.app.exit(result=code)

    def focus_chat(self, on: bool) -> None:
        if self.app is not None:
            self.app.layout.focus(self.chat_window if on else self.map_window)

    # -- the table's side ---------------------------------------------------------------------------
    async def pump(self) -> None:
        """Every update from the table into the model, each followed by a redraw."""
        try:
            self.model.set_seats(self.table.seats())
            self.model.recall(self.table.history())  # then updates() at once: nothing missed or twice
            async for item in self.table.updates():
                try:
                    self.model.set_seats(self.table.seats())  # names and bots, as the table has them now
                    self.model.update(item)  # the view comes first, so the next update mends the rest
                except Exception as err:  # one update the client cannot show must not stop the game
                    self.model.say(f"Could not show an update: {err!r}", "error")
                self.act_auto()
                self.redraw()
        except asyncio.CancelledError:
            raise
        except Exception as err:  # show it: a silent stop would look like a frozen game
            self.model.say(f"Lost the game's updates: {err!r}", "error")
            self.redraw()

    async def tick(self) -> None:
        """Redraw each time an open interrupt window's countdown (whole seconds) changes."""
        while True:
            left = self.model.window_left(self.model.clock())
            if left is None or left <= 0:
                await asyncio.sleep(1.0)  # no countdown running: look again in a second
                continue
            # sleep until just after the shown number of seconds drops (it is rounded up), then
            # draw it; each pass aligns anew, so a window that opened meanwhile is caught up
            await asyncio.sleep(((left - math.floor(left)) or 1.0) + 0.01)
            self.redraw()

    async def run(self) -> int:
        """Run the Application until the person quits; returns the exit code (0).  Starts a
        LocalTable's bots once the client listens, and closes the table at the end."""
        loop = asyncio.get_running_loop()
        pump = loop.create_task(self.pump())
        ticker = loop.create_task(self.tick())
        await asyncio.sleep(0)  # the pump subscribes to the table's updates before anything happens
        self.model.set_seats(self.table.seats())
        self.model.refresh(self.table.state)
        if isinstance(self.table, LocalTable):  # it drives its bots only once started
            self.table.start()
        try:
            with terminal.stderr_to(self.model.log_file):  # nothing else may write into the screen
                result = await self.app.run_async()
        finally:
            for task in (pump, ticker):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await self.settle()
            await self.table.close()
        return result or 0

    def redraw(self) -> None:
        if self.app is not None:
            self.app.invalidate()

    def _spawn(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self) -> None:
        """Wait for the submits and chat lines in flight (tests use it)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


def _plan(model: Model) -> render.Plan:
    size = get_app().output.get_size()
    return render.plan(model, size.columns, size.rows)


def build_layout(client: Client) -> Layout:
    m = client.model
    sections = keymod.help_sections(client.keys)

    def panel(fn, focusable=False, **kw) -> Window:
        return Window(PanelControl(fn, focusable), **kw)

    def render_help(w, h):
        body = h - 1 - render.legend_rows(w, m)
        most = max(0, render.help_rows(sections, w, body) - body)
        m.overlay_top = min(m.overlay_top, most)
        return render.render_help(sections, w, h, m.overlay_top, m)

    client.map_window = panel(lambda w, h: render.render_map(m, w, h), focusable=True)
    combat = ConditionalContainer(
        panel(lambda w, h: render.render_combat(m, w, h, now=m.clock()), height=lambda: D.exact(_plan(m).combat)),
        filter=Condition(lambda: render.combat_shown(m)))
    left = HSplit([client.map_window, combat])
    right = HSplit([
        panel(lambda w, h: render.render_players(m, w, h), height=lambda: D.exact(_plan(m).players)),
        panel(lambda w, h: render.render_hand(m, w, h)),
        panel(lambda w, h: render.render_actions(m, w, h), height=lambda: D.exact(_plan(m).actions)),
    ], width=lambda: D.exact(_plan(m).right))
    sep = Window(width=1, char="│", style="class:sep")
    wide = Condition(lambda: _plan(m).chat > 0)
    bottom = VSplit([
        panel(lambda w, h: render.render_log(m, w, h, with_chat=_plan(m).chat == 0)),
        ConditionalContainer(VSplit([
            Window(width=1, char="│", style="class:sep"),
            panel(lambda w, h: render.render_chat(m, w, h), width=lambda: D.exact(_plan(m).chat)),
        ]), filter=wide),
    ], height=lambda: D.exact(_plan(m).log))
    client.chat_window = Window(BufferControl(buffer=client.chat_buffer), height=1)
    chat_input = ConditionalContainer(
        VSplit([Window(FormattedTextControl([("class:title", " Say: ")]), width=6, height=1),
                client.chat_window]),
        filter=Condition(lambda: m.mode == CHAT))
    banners = ConditionalContainer(
        panel(lambda w, h: render.render_banners(m, w, h), height=lambda: D.exact(len(m.banners))),
        filter=Condition(lambda: bool(m.banners)))
    body = HSplit([
        banners,
        VSplit([left, sep, right]),
        bottom,
        chat_input,
        panel(lambda w, h: render.render_status(m, w, h),
              height=lambda: D.exact(render.status_rows(m, get_app().output.get_size().columns))),
    ])
    overlays = [
        Float(ConditionalContainer(panel(render_help), filter=Condition(lambda: m.mode == HELP)),
              top=0, bottom=0, left=0, right=0),
        Float(ConditionalContainer(panel(lambda w, h: render.render_info(m, w, h)),
                                   filter=Condition(lambda: m.mode == INFO)),
              top=0, bottom=0, left=0, right=0),
        Float(ConditionalContainer(panel(lambda w, h: render.render_trade(m, w, h)),
                                   filter=Condition(lambda: m.mode == TRADE)),
              top=0, bottom=0, left=0, right=0),
    ]
    def small() -> bool:
        size = get_app().output.get_size()
        return render.too_small(size.columns, size.rows)

    def render_small(w, h):
        return render.render_too_small(m, w, h)

    # Below 80x24 the panels would overlap: one notice instead, until the window grows.
    root = HSplit([
        ConditionalContainer(FloatContainer(body, floats=overlays), filter=~Condition(small)),
        ConditionalContainer(panel(render_small), filter=Condition(small)),
    ])
    return Layout(root, focused_element=client.map_window)


def build_application(client: Client, input=None, output=None) -> Application:
    """The Application for ``client`` (``input``/``output`` default to the terminal; tests pass a
    pipe input and DummyOutput)."""
    client.keys = keymod.build(client)
    app = Application(
        layout=build_layout(client), key_bindings=client.keys.kb, style=Style.from_dict(render.STYLE),
        full_screen=True, mouse_support=False, enable_page_navigation_bindings=False,
        input=input, output=output)
    app.ttimeoutlen = 0.05  # Esc answers at once instead of waiting half a second for a sequence
    client.app = app
    return app


def model_for(seat: int | None, state) -> Model:
    """The model of ``seat`` for the game's mode: a Classic game's (mq.tui.classic_model) or Quest's."""
    if is_classic(state):
        from mq.tui.classic_model import ClassicModel

        return ClassicModel(seat, state)
    return Model(seat, state)


def connect(table, input=None, output=None, model: Model | None = None, log_file: str | None = None) -> Client:
    """A client for ``table``'s seat with its Application built (not yet running); ``model``
    defaults to a plain Model of that seat (a replay passes its ReplayModel).  ``log_file``: where
    the command sends its protocol log (mq.tui.terminal); stderr goes there too while the client
    runs, and the ``i`` screen names it."""
    client = Client(table, model if model is not None else model_for(table.seat, table.state))
    client.model.log_file = log_file
    build_application(client, input=input, output=output)
    return client


async def run(table, input=None, output=None, model: Model | None = None, log_file: str | None = None) -> int:
    """Play ``table``'s seat until the person quits; returns the exit code (0)."""
    return await connect(table, input=input, output=output, model=model, log_file=log_file).run()
