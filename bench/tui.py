"""Terminal client benchmarks: how long a key press takes to become a redrawn frame at 120x40.

A mid-game position (a 4-bot game played to turn 8 or later, its log and map filled) is loaded
into the client's model for seat 0.  Then, per frame:

- *model -> text*: every panel rendered by mq.tui.render at 120x40 (what the layout asks for);
- *key -> frame*: a key press fed to the running Application's key processor (Tab, which
  selects the next card; or v, which toggles the reach overlay on the map), its handler run, and
  the whole screen rendered by prompt_toolkit's renderer to a 120x40 VT100 output in memory
  (layout, styles, the diff against the previous frame and the escape codes it writes).

Figures are the median and the 99th percentile over all frames of this run.
"""
from __future__ import annotations

import asyncio
import io
import statistics
import time

from mq.bots import choose
from mq.cards import load_default
from mq.rules import actors, make_params, new_game, step, view
from mq.table import Applied
from mq.tui import render
from mq.tui.model import Model

WIDTH, HEIGHT = 120, 40


def mid_game(seed: int = 7, turn: int = 8) -> Model:
    """Seat 0's model after a bot game reached ``turn`` (fed every update, as a client is)."""
    cards = load_default()
    s = new_game(make_params(4), seed, cards)
    m = Model(0, s, cards)
    n = 0
    while actors(s) and not (s.turn is not None and s.turn.number >= turn and s.combat is None):
        seat = actors(s)[0]
        a = choose(view(s, seat), seat, cards)
        s, events = step(s, a, cards)
        n += 1
        m.update(Applied(n, a, events, s))
    if m.selectables():
        m.selected = m.selectables()[0].card
    return m


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def model_frames(m: Model, frames: int) -> list[float]:
    out = []
    for i in range(frames):
        m.show_reach = bool(i % 2)
        t0 = time.perf_counter()
        render.render_screen(m, WIDTH, HEIGHT)
        out.append(time.perf_counter() - t0)
    return out


def key_frames(m: Model, frames: int) -> tuple[list[float], int]:
    """Seconds from a key press to its frame written; and the bytes of the last frame."""
    return asyncio.run(_key_frames(m, frames))


async def _key_frames(m: Model, frames: int) -> tuple[list[float], int]:
    # inside an event loop, as in the running client (the key processor arms its timeouts there)
    from prompt_toolkit.application.current import set_app
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.key_binding.key_processor import KeyPress
    from prompt_toolkit.keys import Keys
    from prompt_toolkit.output.color_depth import ColorDepth
    from prompt_toolkit.output.vt100 import Vt100_Output

    from mq.tui.app import Client, build_application

    sink = io.StringIO()
    output = Vt100_Output(sink, lambda: Size(rows=HEIGHT, columns=WIDTH), term="xterm-256color",
                          default_color_depth=ColorDepth.DEPTH_8_BIT, enable_cpr=False)
    out = []
    written = 0
    with create_pipe_input() as pipe:
        client = Client(table=None, model=m)
        app = build_application(client, input=pipe, output=output)
        with set_app(app):
            app.renderer.render(app, app.layout)  # the first, full frame
            for i in range(frames):
                key = "v" if i % 4 == 3 else Keys.Tab
                sink.seek(0)
                sink.truncate()
                t0 = time.perf_counter()
                app.key_processor.feed(KeyPress(key))
                app.key_processor.process_keys()
                app.renderer.render(app, app.layout)
                out.append(time.perf_counter() - t0)
                written = len(sink.getvalue())
    return out, written


def main(quick: bool = False) -> list[tuple[str, str]]:
    m = mid_game()
    frames = 200 if quick else 2000
    pure = model_frames(m, frames)
    keyed, last_bytes = key_frames(m, frames)
    p50, p99 = _percentiles(pure)
    k50, k99 = _percentiles(keyed)
    return [
        ("position", f"seed 7, turn {m.view.turn.number}, {len(m.view.rooms)} rooms, {len(m.log)} log lines"),
        ("frames", f"{frames} at {WIDTH}x{HEIGHT}"),
        ("model -> text (all panels), median", f"{p50 * 1000:.2f} ms"),
        ("model -> text (all panels), p99", f"{p99 * 1000:.2f} ms"),
        ("key press -> frame written, median", f"{k50 * 1000:.2f} ms"),
        ("key press -> frame written, p99", f"{k99 * 1000:.2f} ms"),
        ("bytes written for the last frame", f"{last_bytes}"),
    ]


def print_table(rows) -> None:
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k:<{width}}  {v}")


if __name__ == "__main__":
    import sys

    print_table(main("--quick" in sys.argv))
