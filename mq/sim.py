"""Headless bot games: ``mq sim`` and the narrated ``mq play`` before the terminal client.

Every seat is played by mq.bots from its own view.  Output depends only on the arguments (timings
go to stderr), so the same seed prints the same bytes, in either core mode."""
from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass
from typing import Callable

from mq import core
from mq.bots import choose
from mq.bots import classic as classic_bot
from mq.cards import load_default
from mq.classic import cards_or_default, is_classic
from mq.rules import CLASSIC, QUEST, Params, actors, is_over, make_params, new_game, state_hash, step, view
from mq.rules.state import COLOURS, State

MAX_ACTIONS = 50_000  # a bound on every game loop; bot games end long before it


# What the sim counts, from the events of every game (card interactions; per-100-game rates are
# printed with the totals).  Keys are event kinds, or an event kind and a qualifier.
COUNTED = (
    ("asks_help", "help asked"), ("offers_help", "help offered"), ("helper_pays", "offers where the helper pays"),
    ("counter_offer", "counter-offers"), ("helps", "deals made"), ("curse", "curses taking effect"),
    ("curse_cancelled", "curses cancelled"), ("sanctuary", "Sanctuary rolls"), ("enhance", "enhancers"),
    ("auto_pass", "seats auto-passed"), ("auto_pass_window", "windows closed by auto-pass"),
    ("resurrect", "Resurrections"), ("heal_oneshot", "healing one-shots"), ("cheat", "Cheat! cards"),
    ("monsters_win", "games the monsters won"),
)


def count_events(counts: dict[str, int], events, actions_kind: str = "") -> None:
    """Add one step's events to ``counts`` (keys of COUNTED)."""
    closed = False
    for e in events:
        kind = e.kind
        if kind in ("asks_help", "offers_help", "counter_offer", "helps", "curse", "curse_cancelled", "enhance",
                    "auto_pass", "resurrect", "cheat", "monsters_win"):
            counts[kind] = counts.get(kind, 0) + 1
        if kind == "offers_help" and e.gold < 0:
            counts["helper_pays"] = counts.get("helper_pays", 0) + 1
        if kind == "d10" and e.power == "sanctuary":
            counts["sanctuary"] = counts.get("sanctuary", 0) + 1
        if kind == "heal" and actions_kind == "use":
            counts["heal_oneshot"] = counts.get("heal_oneshot", 0) + 1
        if kind == "auto_pass":
            closed = True
        elif closed and kind in ("window_closed", "combat_result", "no_help"):
            counts["auto_pass_window"] = counts.get("auto_pass_window", 0) + 1
            closed = False


# What the sim counts in Classic games (CLASSIC.md): fights, help, deals, curses, deaths...
CLASSIC_COUNTED = (
    ("fights", "fights"), ("won", "fights won"), ("fled", "fights lost"), ("no_result", "fights without result"),
    ("asks_help", "help asked"), ("offer", "help offered"), ("helps", "fights helped"), ("deal_made", "deals made"),
    ("laid_out", "shares picked"), ("curse_acts", "curses taking effect"), ("curse_cancelled", "curses cancelled"), ("death", "deaths"),
    ("loot", "cards looted"), ("sell", "sales"), ("theft", "thefts tried"), ("answer", "windows answered"),
    ("caught", "caught running away"), ("charity", "charity cards"), ("trade", "trades offered"),
    ("trade_done", "trades made"),
)


def count_classic_events(counts: dict[str, int], events) -> None:
    """Add one Classic step's events to ``counts`` (keys of CLASSIC_COUNTED)."""
    for e in events:
        kind = e.kind
        if kind == "combat_ends":
            counts["fights"] = counts.get("fights", 0) + 1
            counts[e.how] = counts.get(e.how, 0) + 1
        elif kind == "bad_stuff" and not e.escaped:
            counts["caught"] = counts.get("caught", 0) + 1
        elif kind in ("asks_help", "offer", "helps", "deal_made", "laid_out", "curse_acts", "curse_cancelled", "death",
                      "loot", "sell", "theft", "answer", "charity", "trade", "trade_done"):
            counts[kind] = counts.get(kind, 0) + 1


@dataclass(frozen=True)
class GameResult:
    seed: int
    turns: int
    actions: int
    winners: tuple[str, ...]
    hash: str
    counts: tuple[tuple[str, int], ...] = ()


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run: a draw of the run's seed, so games are independent."""
    return core.rng_u64(seed % 2**64, index)


def play_game(players: int, seed: int, on_step: Callable[[State, tuple], None] | None = None,
              max_actions: int = MAX_ACTIONS, params: Params | None = None) -> tuple[GameResult, State, list]:
    """Play one bot game (``params``: its table options and mode, default make_params(players));
    returns its result, final state and the list of actions taken.  Every seat is played by the
    mode's bot (mq.bots for Quest, mq.bots.classic for Classic) from its own view."""
    classic = params is not None and is_classic(params)
    cards = cards_or_default(None, params) if classic else load_default()
    bot = classic_bot.choose if classic else choose
    state = new_game(params or make_params(players), seed, cards)
    if on_step is not None:
        on_step(state, ())
    taken = []
    counts: dict[str, int] = {}
    while not is_over(state) and len(taken) < max_actions:
        seat = actors(state)[0]
        action = bot(view(state, seat), seat, cards)
        state, events = step(state, action, cards)
        taken.append(action)
        if classic:
            count_classic_events(counts, events)
        else:
            count_events(counts, events, action.kind)
        if on_step is not None:
            on_step(state, events)
    turns = state.turn.number if state.turn else 0
    result = GameResult(seed, turns, len(taken), tuple(COLOURS[s] for s in state.winners),
                        f"{state_hash(state):016x}",
                        tuple((k, counts.get(k, 0)) for k, _ in (CLASSIC_COUNTED if classic else COUNTED)))
    return result, state, taken


def run(players: int, games: int, seed: int, as_json: bool, out=None, err=None,
        mode: str = QUEST, epic: bool = False, packs: tuple[str, ...] = ()) -> int:
    out = out or sys.stdout  # (looked up now, not at import: a test's capture may have replaced them)
    err = err or sys.stderr
    results = []
    started = time.perf_counter()
    params = make_params(players, mode=mode, epic=epic, packs=packs) if mode == CLASSIC else None
    counted_kinds = CLASSIC_COUNTED if mode == CLASSIC else COUNTED
    for i in range(games):
        t0 = time.perf_counter()
        result, _, _ = play_game(players, game_seed(seed, i), params=params)
        results.append(result)
        print(f"game {i + 1}/{games}: {time.perf_counter() - t0:.2f}s", file=err)
        if not as_json:
            won = ",".join(result.winners) or "none"
            print(f"game {i + 1} seed={result.seed} turns={result.turns} actions={result.actions} "
                  f"winners={won} hash={result.hash}", file=out)
    elapsed = time.perf_counter() - started
    monsters = sum(dict(r.counts).get("monsters_win", 0) for r in results)  # Q-DEATH-5: over, no winner
    finished = sum(1 for r in results if r.winners) + monsters
    actions = sum(r.actions for r in results)
    totals = {"games": games, "finished": finished, "actions": actions,
              "mean_actions": actions // max(1, games),
              "mean_turns": sum(r.turns for r in results) // max(1, games)}
    counted = {k: sum(dict(r.counts).get(k, 0) for r in results) for k, _ in counted_kinds}
    totals["counts"] = counted
    if as_json:
        json.dump({"mode": mode, "epic": epic, "packs": list(packs), "players": players, "seed": seed, "games": [asdict(r) for r in results],
                   "totals": totals}, out, indent=1)
        out.write("\n")
    else:
        by_monsters = f", {monsters} won by the monsters" if mode == QUEST else ""  # Q-DEATH-5; none in Classic
        print(f"total: {games} games, {finished - monsters} with a winner{by_monsters}, "
              f"{actions} actions "
              f"({totals['mean_actions']} per game, {totals['mean_turns']} turns per game)", file=out)
        per100 = ", ".join(f"{label} {counted[k] * 100 // max(1, games)}" for k, label in counted_kinds)
        print(f"per 100 games: {per100}", file=out)
    print(f"{elapsed:.2f}s, {games / elapsed:.2f} games/s, {actions / elapsed:.0f} actions/s "
          f"[{core.IMPLEMENTATION} core]", file=err)
    return 0 if finished == games else 1
