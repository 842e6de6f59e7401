"""Engine benchmarks: whole bot games, replay throughput with hashing, and what the incremental
state hash costs per action against a full recompute and against ``apply`` itself.

Hash scaling: the incremental hash should not grow with the dungeon or the hands.  States with 8,
16, 32 and 48 placed rooms are built with the engine's own code (``board.place_room`` on a Tx,
rooms placed by a seeded random walk, the room deck holding every tile twice so that 48 fit) and
every hand is topped up to ``rooms // 4`` cards more than it held (drawn from the decks); then the
bots play on from there (up to 250 actions, several seeds) and, as for whole games, apply and
hash are timed separately per action (the median of several replays of the same actions).  The rows give the median hash and apply per action for
each size, and the largest / smallest ratio of the hash (target: at most 1.5x, and the hash at
most 5% of apply).

Targets (from the project's performance notes): at least 20,000 applied actions/s with hashing,
at most 0.3 s per 4-bot game.  All figures are medians over repeats measured in this run; the
core in use is printed."""
from __future__ import annotations

import statistics
import time

from mq import core
from mq.bots import choose
from mq.cards import load_default
from mq.rules import actors, apply, board, full_hash, is_over, make_params, new_game, state_hash, view
from mq.rules.actions import Action
from mq.rules.monsters import draw_to_hand
from mq.rules.state import DX, DY, Deck
from mq.rules.tx import Tx
from mq.sim import game_seed, play_game

SIZES = (8, 16, 32, 48)  # placed rooms, the Entrance included
PASSES = {True: 3, False: 5}  # replays of each game or seed timed (median), by --quick


def _games(n: int, players: int):
    walls, played = [], []
    for i in range(n):
        t0 = time.perf_counter()
        result, _, taken = play_game(players, game_seed(2024, i))
        walls.append(time.perf_counter() - t0)
        played.append((result, taken))
    return walls, played


def _apply_then_hash(s0, taken, cards, passes: int):
    """Seconds per action to apply ``taken`` from ``s0``, then to hash every state reached
    incrementally (in that order, as a peer does), each the median over ``passes`` replays from
    ``s0`` (already hashed; every replay builds new states, so each pass hashes the same new
    nodes); and the states of the last pass.  A pass hashes for ~0.2 ms only: one preemption
    by another process on a shared machine can double it, so one pass is not a measurement."""
    applies, hashes = [], []
    for _ in range(passes):
        t0 = time.perf_counter()
        s, states = s0, []
        for a in taken:
            s = apply(s, a, cards)
            states.append(s)
        t1 = time.perf_counter()
        for st in states:
            state_hash(st)
        t2 = time.perf_counter()
        applies.append((t1 - t0) / len(taken))
        hashes.append((t2 - t1) / len(taken))
    return statistics.median(applies), statistics.median(hashes), states


def _replay(played, players: int, passes: int):
    """Per game: seconds for apply alone, apply + incremental hash, and full hashes of the same states."""
    cards = load_default()
    apply_s, hash_s, full_s, actions = [], [], [], 0
    for result, taken in played:
        s0 = new_game(make_params(players), result.seed, cards)
        state_hash(s0)
        per_apply, per_hash, states = _apply_then_hash(s0, taken, cards, passes)
        sampled = states[:: max(1, len(states) // 200)]
        t0 = time.perf_counter()
        for st in sampled:
            full_hash(st)
        apply_s.append(per_apply)
        hash_s.append(per_hash)
        full_s.append((time.perf_counter() - t0) / len(sampled))
        actions += len(taken)
    return apply_s, hash_s, full_s, actions


def grown_state(rooms: int, seed: int, players: int = 4, cards=None):
    """A game just past setup with ``rooms`` placed rooms and every hand ``rooms // 4`` cards
    larger, built deterministically through the engine's own Tx and board code."""
    cards = cards or load_default()
    s = new_game(make_params(players), seed, cards)
    for seat in s.order:
        s = apply(s, Action(seat, "ready"), cards)
    tx = Tx(s, cards)
    tiles = tuple(t.id for t in cards.rooms)
    tx.room_deck = Deck(tx.room_deck.draw + tiles + tiles)  # every tile twice more: room for 48
    while len(tx.rooms) < rooms:
        i = tx.below(len(tx.rooms))
        d = tx.below(4)
        r = tx.rooms[i]
        x, y = r.x + DX[d], r.y + DY[d]
        if r.sides[d] != board.WALL and board.room_at(tx.rooms, x, y) < 0:
            board.place_room(tx, x, y, d, r.sides[d])
    for seat in range(players):
        for k in range(rooms // 4):
            draw_to_hand(tx, seat, "treasure" if k % 2 else "dxm")
    return tx.commit()


def _scaling(quick: bool) -> list[tuple[str, str]]:
    """Per size: median over seeds of (hash, apply) per action while bots play on."""
    cards = load_default()
    seeds = range(3 if quick else 8)
    steps = 120 if quick else 250
    passes = PASSES[quick]
    per_size = {}
    for n in SIZES:
        hashes, applies = [], []
        for k in seeds:
            s0 = grown_state(n, game_seed(31, k), cards=cards)
            s, taken = s0, []
            while not is_over(s) and len(taken) < steps:
                seat = actors(s)[0]
                a = choose(view(s, seat), seat, cards)
                s = apply(s, a, cards)
                taken.append(a)
            state_hash(s0)  # the starting position is hashed once; the actions are measured
            per_apply, per_hash, _ = _apply_then_hash(s0, taken, cards, passes)
            applies.append(per_apply)
            hashes.append(per_hash)
        hand = statistics.median(len(p.hand) for p in grown_state(n, game_seed(31, 0), cards=cards).players)
        per_size[n] = (statistics.median(hashes), statistics.median(applies), hand)
    rows = []
    for n, (h, a, hand) in per_size.items():
        rows.append((f"hash per action, {n} rooms, hands ~{hand:.0f}",
                     f"{h * 1e6:.2f} us ({h / a:.1%} of apply, {a * 1e6:.1f} us)"))
    small, large = per_size[SIZES[0]][0], per_size[SIZES[-1]][0]
    rows.append((f"hash growth {SIZES[-1]} / {SIZES[0]} rooms", f"{large / small:.2f}x (target <= 1.5x)"))
    return rows


def main(quick: bool = False) -> list[tuple[str, str]]:
    players = 4
    walls, played = _games(4 if quick else 20, players)
    apply_s, hash_s, full_s, actions = _replay(played, players, PASSES[quick])
    per_game = [len(t) for _, t in played]
    a_med, h_med, f_med = (statistics.median(x) for x in (apply_s, hash_s, full_s))
    rows = [
        ("core", core.IMPLEMENTATION),
        ("4-bot game, median wall time", f"{statistics.median(walls) * 1000:.1f} ms (target <= 300 ms)"),
        ("actions per game, median", f"{statistics.median(per_game):.0f}"),
        ("apply, per action (median of games)", f"{a_med * 1e6:.1f} us"),
        ("throughput: apply + hash", f"{1 / (a_med + h_med):,.0f} actions/s (target >= 20,000)"),
        ("incremental hash, per action", f"{h_med * 1e6:.2f} us ({h_med / a_med:.1%} of apply; target <= 5%)"),
        ("full hash recompute, per state", f"{f_med * 1e6:.1f} us (incremental is {f_med / h_med:.1f}x cheaper)"),
    ]
    return rows + _scaling(quick)


def print_table(rows) -> None:
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k:<{width}}  {v}")


if __name__ == "__main__":
    import sys

    print_table(main("--quick" in sys.argv))
