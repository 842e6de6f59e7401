"""Behaviour fingerprint of the engine: a refactoring or performance change must not change a single game.

``python -m bench.fingerprint check [FILE]`` plays a fixed set of games and compares, for each game,
one short digest per step with the record (default: the golden record tests/golden/fingerprint.json);
it reports the first step that differs (exit status 1), or that all are identical.
``python -m bench.fingerprint record [FILE]`` writes a new record.  Check in both core modes
(``MQ_PUREPYTHON=1``).  tests/test_golden_fingerprint.py checks a fixed subset of the games against
the golden record in every ``make test`` pass.

The golden record changes only when a game is *meant* to change: a rule fix re-records it in its own
commit (``python -m bench.fingerprint record``, then say why in the message); a refactoring commit
never does.

Each step's digest chains the previous one with everything observable about the step:
- the action taken, the events it caused and the new state's incremental *and* full hash;
- ``actors``, and for every seat its ``legal_actions`` and the hash of its ``view``;
- in the random games, a few probe actions (random kinds and arguments): whether ``is_legal``
  accepts them, and the reason code ``apply`` rejects them with.

The digest covers a canonical plain form, never Python reprs: an action is its wire form
(``actions.encode``), an event the list of its fields (kind first), a hash its integer.  So a change
in how actions or events are *represented* (their classes) keeps the fingerprint; a change in what
they *say* does not.

Games: bot games (mq.sim) for 2..6 players, and random-choice games, which wander into corners
bots avoid; Quest's and Classic's (base, Epic, Epic with every pack: ``classic-...``), each with its
own card set.  The random choices come from ``random.Random(seed)`` here in the harness only; the
engine itself draws nothing but its own RNG.
"""
from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

from mq.bots import choose
from mq.bots import classic as classic_bot
from mq.cards import load_default
from mq.classic import cards_or_default
from mq.rules import (
    CLASSIC,
    IllegalAction,
    actors,
    apply,
    full_hash,
    is_legal,
    is_over,
    legal_actions,
    make_params,
    new_game,
    state_hash,
    step,
    view,
)
from mq.rules.actions import KINDS, Action, encode
from mq.sim import game_seed

PROBE_ARGS = ((), (0,), (1,), (3,), (99,), (300,), ("nope",), ("worn",), (0, 1), ("buy",))
BOT_GAMES = tuple((players, k) for players in range(2, 7) for k in range(3))
RANDOM_GAMES = tuple(range(16))
RANDOM_STEPS = 400
MAX_STEPS = 20_000


def _observe(h, s, cards) -> str:
    parts = [state_hash(s), full_hash(s), list(actors(s))]
    for seat in range(len(s.players)):
        parts.append([encode(a) for a in legal_actions(s, seat, cards)])
        parts.append(state_hash(view(s, seat)))
    return _chain(h, parts)


def _chain(h: str, parts) -> str:
    text = json.dumps(parts, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256((h + text).encode()).hexdigest()[:16]


def _plain(value):
    """The canonical plain form of an event field: ints, strings, booleans, None and lists."""
    if value is None or type(value) in (int, str, bool):
        return value
    if isinstance(value, tuple):
        return [_plain(x) for x in value]
    raise TypeError(f"no plain form for {type(value).__name__} in an event")


def _events(events) -> list:
    """Each event as the list of its fields, kind first."""
    return [_plain(tuple(e)) for e in events]


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
                reason = [exc.reason, str(exc)]
        out.append([encode(a), legal, reason])
    return out


def bot_game(players: int, k: int, cards) -> list[str]:
    s = new_game(make_params(players), game_seed(77, players * 10 + k), cards)
    h = _observe("", s, cards)
    steps = [h]
    while not is_over(s) and len(steps) < MAX_STEPS:
        seat = actors(s)[0]
        a = choose(view(s, seat), seat, cards)
        s, events = step(s, a, cards)
        h = _observe(_chain(h, [encode(a), _events(events)]), s, cards)
        steps.append(h)
    return steps


def random_game(seed: int, cards) -> list[str]:
    rnd = random.Random(seed)
    s = new_game(make_params(2 + seed % 5), game_seed(78, seed), cards)
    h = _observe("", s, cards)
    steps = [h]
    for _ in range(RANDOM_STEPS):
        if is_over(s):
            break
        probes = _probe(s, rnd, cards)
        seat = rnd.choice(actors(s))
        options = legal_actions(s, seat, cards)
        calm = [a for a in options if a.kind not in ("suicide", "heal")] or list(options)
        a = rnd.choice(options if rnd.random() < 0.02 else calm)
        s, events = step(s, a, cards)
        h = _observe(_chain(h, [probes, encode(a), _events(events)]), s, cards)
        steps.append(h)
    return steps


def classic_params(variant: str, players: int):
    """A Classic table (C-OPT): ``base``, ``epic`` (C-EPIC) or ``packs`` (Epic with every pack, C-OPT-4)."""
    return make_params(players, mode=CLASSIC, epic=variant != "base", packs=("all",) if variant == "packs" else ())


def classic_bot_game(variant: str, players: int, k: int) -> list[str]:
    """A Classic bot game (mq.bots.classic), as mq.sim plays it."""
    params = classic_params(variant, players)
    cards = cards_or_default(None, params)
    s = new_game(params, game_seed(79, players * 10 + k), cards)
    h = _observe("", s, cards)
    steps = [h]
    while not is_over(s) and len(steps) < MAX_STEPS:
        seat = actors(s)[0]
        a = classic_bot.choose(view(s, seat), seat, cards)
        s, events = step(s, a, cards)
        h = _observe(_chain(h, [encode(a), _events(events)]), s, cards)
        steps.append(h)
    return steps


def classic_random_game(variant: str, seed: int) -> list[str]:
    """A Classic game of random legal choices (random.Random here, never in the engine)."""
    rnd = random.Random(seed)
    params = classic_params(variant, 2 + seed % 5)
    cards = cards_or_default(None, params)
    s = new_game(params, game_seed(80, seed), cards)
    h = _observe("", s, cards)
    steps = [h]
    for _ in range(RANDOM_STEPS):
        if is_over(s):
            break
        seat = rnd.choice(actors(s))
        a = rnd.choice(legal_actions(s, seat, cards))
        s, events = step(s, a, cards)
        h = _observe(_chain(h, [encode(a), _events(events)]), s, cards)
        steps.append(h)
    return steps


CLASSIC_BOT_GAMES = (("base", 3, 0), ("base", 4, 0), ("base", 6, 0), ("epic", 4, 0), ("packs", 4, 0), ("packs", 5, 0))
CLASSIC_RANDOM_GAMES = (("base", 0), ("base", 1), ("epic", 2), ("packs", 3), ("packs", 4))
GAMES = (tuple(f"bots-{players}p-{k}" for players, k in BOT_GAMES) + tuple(f"random-{seed}" for seed in RANDOM_GAMES)
         + tuple(f"classic-{v}-bots-{players}p-{k}" for v, players, k in CLASSIC_BOT_GAMES)
         + tuple(f"classic-{v}-random-{seed}" for v, seed in CLASSIC_RANDOM_GAMES))
GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden" / "fingerprint.json"


def play(name: str, cards) -> list[str]:
    """The step digests of one game of GAMES, by name."""
    kind, _, rest = name.partition("-")
    if kind == "classic":  # classic-VARIANT-bots-Np-K, classic-VARIANT-random-SEED
        variant, _, game = rest.partition("-")
        if game.startswith("bots-"):
            players, k = game.removeprefix("bots-").split("p-")
            return classic_bot_game(variant, int(players), int(k))
        return classic_random_game(variant, int(game.removeprefix("random-")))
    if kind == "bots":
        players, k = rest.split("p-")
        return bot_game(int(players), int(k), cards)
    if kind == "random":
        return random_game(int(rest), cards)
    raise ValueError(f"no fingerprint game named {name!r}")


def fingerprint(names=GAMES) -> dict[str, list[str]]:
    cards = load_default()
    return {name: play(name, cards) for name in names}


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


def write(path, record: dict[str, list[str]]) -> None:
    """One game per line, so that a re-record reads as a diff of the games that changed."""
    lines = [f"{json.dumps(name)}: {json.dumps(steps)}" for name, steps in record.items()]
    Path(path).write_text("{\n" + ",\n".join(lines) + "\n}\n")


def read(path) -> dict[str, list[str]]:
    return json.loads(Path(path).read_text())


def main(argv: list[str]) -> int:
    if not 1 <= len(argv) <= 2 or argv[0] not in ("record", "check"):
        print("usage: python -m bench.fingerprint record|check [FILE]  (default FILE: the golden record "
              f"{GOLDEN})", file=sys.stderr)
        return 2
    path = argv[1] if len(argv) == 2 else GOLDEN
    got = fingerprint()
    steps = sum(len(v) for v in got.values())
    if argv[0] == "record":
        write(path, got)
        print(f"recorded {len(got)} games, {steps} steps in {path}")
        return 0
    problems = compare(read(path), got)
    for p in problems:
        print(p)
    print(f"{len(got)} games, {steps} steps: " + ("identical" if not problems else f"{len(problems)} differ"))
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
