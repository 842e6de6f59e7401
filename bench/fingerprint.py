"""Behaviour fingerprint of the engine, for performance work that must not change a single game.

``python -m bench.fingerprint record FILE`` plays a fixed set of games and writes, for each game,
one short digest per step; ``python -m bench.fingerprint check FILE`` plays them again and reports
the first step that differs (exit status 1), or that all are identical.  Record before a change,
check after it (in both core modes: ``MQ_PUREPYTHON=1``).

Each step's digest chains the previous one with everything observable about the step:
- the action taken, the events it caused and the new state's incremental *and* full hash;
- ``actors``, and for every seat its ``legal_actions`` and the hash of its ``view``;
- in the random games, a few probe actions (random kinds and arguments): whether ``is_legal``
  accepts them, and the reason code ``apply`` rejects them with.

Games: bot games (mq.sim) for 2..6 players, and random-choice games, which wander into corners
bots avoid.  The random choices come from ``random.Random(seed)`` here in the harness only; the
engine itself draws nothing but its own RNG.
"""
from __future__ import annotations

import hashlib
import json
import random
import sys

from mq.bots import choose
from mq.cards import load_default
from mq.rules import (
    IllegalAction, actors, apply, full_hash, is_legal, legal_actions, make_params, new_game,
    state_hash, step, view,
)
from mq.rules.actions import KINDS, Action
from mq.sim import game_seed

PROBE_ARGS = ((), (0,), (1,), (3,), (99,), (300,), ("nope",), ("worn",), (0, 1), ("buy",))
BOT_GAMES = tuple((players, k) for players in range(2, 7) for k in range(3))
RANDOM_GAMES = tuple(range(16))
RANDOM_STEPS = 400
MAX_STEPS = 20_000


def _observe(h, s, cards) -> str:
    parts = [state_hash(s), full_hash(s), actors(s)]
    for seat in range(len(s.players)):
        parts.append(legal_actions(s, seat, cards))
        parts.append(state_hash(view(s, seat)))
    return _chain(h, parts)


def _chain(h: str, parts) -> str:
    return hashlib.sha256((h + repr(parts)).encode()).hexdigest()[:16]


def _probe(s, rnd, cards) -> list:
    out = []
    for _ in range(4):
        a = Action(rnd.randrange(len(s.players)), rnd.choice(KINDS), rnd.choice(PROBE_ARGS))
        legal = is_legal(s, a, cards)
        reason = None
        if not legal:
            try:
                apply(s, a, cards)
                reason = "accepted!"
            except IllegalAction as exc:
                reason = (exc.reason, str(exc))
        out.append((str(a), legal, reason))
    return out


def bot_game(players: int, k: int, cards) -> list[str]:
    s = new_game(make_params(players), game_seed(77, players * 10 + k), cards)
    h = _observe("", s, cards)
    steps = [h]
    while s.phase != "over" and len(steps) < MAX_STEPS:
        seat = actors(s)[0]
        a = choose(view(s, seat), seat, cards)
        s, events = step(s, a, cards)
        h = _observe(_chain(h, (str(a), events)), s, cards)
        steps.append(h)
    return steps


def random_game(seed: int, cards) -> list[str]:
    rnd = random.Random(seed)
    s = new_game(make_params(2 + seed % 5), game_seed(78, seed), cards)
    h = _observe("", s, cards)
    steps = [h]
    for _ in range(RANDOM_STEPS):
        if s.phase == "over":
            break
        probes = _probe(s, rnd, cards)
        seat = rnd.choice(actors(s))
        options = legal_actions(s, seat, cards)
        calm = [a for a in options if a.kind not in ("suicide", "heal")] or list(options)
        a = rnd.choice(options if rnd.random() < 0.02 else calm)
        s, events = step(s, a, cards)
        h = _observe(_chain(h, (probes, str(a), events)), s, cards)
        steps.append(h)
    return steps


def fingerprint() -> dict[str, list[str]]:
    cards = load_default()
    out = {}
    for players, k in BOT_GAMES:
        out[f"bots-{players}p-{k}"] = bot_game(players, k, cards)
    for seed in RANDOM_GAMES:
        out[f"random-{seed}"] = random_game(seed, cards)
    return out


def compare(expected: dict, got: dict) -> list[str]:
    problems = []
    for name in sorted(set(expected) | set(got)):
        a, b = expected.get(name), got.get(name)
        if a is None or b is None:
            problems.append(f"{name}: only in {'the record' if b is None else 'this run'}")
            continue
        first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
        if first is None and len(a) != len(b):
            first = min(len(a), len(b))
        if first is not None:
            problems.append(f"{name}: differs from step {first} (recorded {len(a)} steps, now {len(b)})")
    return problems


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("record", "check"):
        print("usage: python -m bench.fingerprint record|check FILE", file=sys.stderr)
        return 2
    got = fingerprint()
    steps = sum(len(v) for v in got.values())
    if argv[0] == "record":
        with open(argv[1], "w") as f:
            json.dump(got, f)
        print(f"recorded {len(got)} games, {steps} steps")
        return 0
    with open(argv[1]) as f:
        expected = json.load(f)
    problems = compare(expected, got)
    for p in problems:
        print(p)
    print(f"{len(got)} games, {steps} steps: " + ("identical" if not problems else f"{len(problems)} differ"))
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
