"""Commit latency of this tree against a baseline commit, measured in one run.

``python -m bench.net_baseline COMMIT [--rounds R] [--peers 2,4,6]``

The machine is shared and noisy, so two figures measured minutes apart say little about a change.
This bench checks COMMIT out into a temporary git worktree (its native core built there), then,
for each peer count, plays R rounds; a round is one traced bot game (``bench.net.commit_game``:
real peer processes on loopback, no beacon) in each tree, back to back, in alternating order (this
tree first in even rounds, the baseline first in odd ones), so both trees see the same load.  Each
tree's games run its own code: the game is driven by that tree's ``bench.net`` in a child process
whose ``PYTHONPATH`` is the tree, and every peer process it starts runs from there too.

Printed per peer count: commit to all peers (every proposal that became an entry, the host's and
the joiners') p50 and p99 over all samples, per tree; and the *paired ratio*: for each round, this
tree's p50 over the baseline's in that round, then the median over the rounds (below 1: this tree
is faster).  A game the bots never finish within ``bench.net.GAME_S`` is played again (at most
twice a round, then the round is dropped and the row says so).  The load average at the start and
the end is printed: quote the figures with it.  The worktree is removed at the end, whatever happens.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from typing import Iterator

from bench.net import pct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RETRIES = 2  # games played again in a round when the bots never finish one (bench.net.commit_game)
_GAME = ("import json, sys; from bench.net import commit_game; "
         "print(json.dumps(commit_game(sys.argv[1], int(sys.argv[2]))))")


class BenchError(Exception):
    """Something the bench cannot do, said in words (a commit git does not know, a failed build)."""


def _git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True)


def resolve(commit: str) -> str:
    """The full hash of ``commit``, or BenchError if git does not know it."""
    r = _git("rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}")
    if r.returncode != 0:
        raise BenchError(f"git knows no commit {commit!r} in {ROOT}")
    return r.stdout.strip()


@contextlib.contextmanager
def worktree(commit: str, parent: str) -> Iterator[str]:
    """A detached worktree of ``commit`` under ``parent``, removed (and pruned) on the way out."""
    path = os.path.join(parent, "baseline")
    r = _git("worktree", "add", "--detach", path, commit)
    if r.returncode != 0:
        raise BenchError(f"git worktree add failed: {r.stderr.strip()}")
    try:
        yield path
    finally:
        _git("worktree", "remove", "--force", path)
        _git("worktree", "prune")


def build(tree: str) -> None:
    """Build the native core in place in ``tree`` (the baseline has no build of its own)."""
    r = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tree,
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise BenchError(f"building the native core in {tree} failed:\n{r.stderr[-2000:]}")


def game(tree: str, work: str, seats: int) -> dict[str, list]:
    """One traced game of ``seats`` peers, run by ``tree``'s own code (see the module docstring)."""
    env = dict(os.environ, PYTHONPATH=tree)
    env.pop("MQ_PUREPYTHON", None)
    r = subprocess.run([sys.executable, "-c", _GAME, work, str(seats)], cwd=tree, env=env,
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise BenchError(f"a {seats}-peer game in {tree} failed:\n{r.stderr[-3000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def samples(one: dict[str, list]) -> list[float] | None:
    """Commit to all of every proposal of one game (ms), or None for a game that never ended."""
    if one.get("stuck"):
        return None
    return one["host"] + one["to_all"]


def paired_ratio(rounds: list[tuple[list[float], list[float]]]) -> float:
    """The median over rounds of (this tree's p50) / (the baseline's p50) in the same round."""
    return statistics.median(pct(mine, 50) / pct(base, 50) for mine, base in rounds)


def measure(trees: dict[str, str], work: str, seats: int, rounds: int) -> tuple[list, int]:
    """``rounds`` paired rounds for ``seats`` peers; returns [(this, baseline) samples] and how
    many rounds were dropped because a game never ended even when played again."""
    paired: list[tuple[list[float], list[float]]] = []
    dropped = 0
    for r in range(rounds):
        order = ("this", "baseline") if r % 2 == 0 else ("baseline", "this")
        got: dict[str, list[float]] = {}
        for name in order:
            for attempt in range(1 + RETRIES):
                one = samples(game(trees[name], os.path.join(work, f"{name}-{seats}-{r}-{attempt}"), seats))
                if one:
                    got[name] = one
                    break
        if len(got) == 2:
            paired.append((got["this"], got["baseline"]))
        else:
            dropped += 1
    return paired, dropped


def rows_for(seats: int, paired: list, dropped: int) -> list[tuple[str, str]]:
    if not paired:
        return [(f"commit to all {seats} peers", f"no round had a game end in both trees ({dropped} dropped)")]
    mine = [x for m, _ in paired for x in m]
    base = [x for _, b in paired for x in b]
    note = f", {dropped} dropped" if dropped else ""
    return [
        (f"commit to all {seats} peers, this tree ({len(paired)} rounds{note}, {len(mine)} proposals)",
         f"p50 {pct(mine, 50):.2f} ms, p99 {pct(mine, 99):.2f} ms"),
        (f"commit to all {seats} peers, baseline ({len(base)} proposals)",
         f"p50 {pct(base, 50):.2f} ms, p99 {pct(base, 99):.2f} ms"),
        (f"  paired ratio this/baseline (median of {len(paired)} rounds' p50 ratios)",
         f"{paired_ratio(paired):.2f}"),
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.net_baseline",
                                 description="Commit latency of this tree against COMMIT, in one run.")
    ap.add_argument("commit", help="the baseline commit (any name git knows)")
    ap.add_argument("--rounds", type=int, default=6, help="paired rounds per peer count (default 6)")
    ap.add_argument("--peers", default="2,4,6", help="peer counts, comma-separated (default 2,4,6)")
    args = ap.parse_args(argv)
    try:
        peers = [int(p) for p in args.peers.split(",")]
    except ValueError:
        ap.error(f"--peers takes numbers separated by commas, not {args.peers!r}")
    if args.rounds < 1 or any(not 2 <= p <= 6 for p in peers):
        ap.error("--rounds must be at least 1 and every peer count 2 to 6")
    from bench.engine import print_table

    try:
        base = resolve(args.commit)
        with tempfile.TemporaryDirectory(prefix="mq-bench-baseline-") as tmp, worktree(base, tmp) as tree:
            build(tree)
            trees = {"this": ROOT, "baseline": tree}
            load0 = os.getloadavg()
            rows = [("baseline", base[:12]), ("this tree", _git("rev-parse", "--short=12", "HEAD").stdout.strip()
                                               + (" (with uncommitted changes)" if _git("status", "--porcelain",
                                                                                        "--untracked-files=no").stdout else ""))]
            for seats in peers:
                paired, dropped = measure(trees, os.path.join(tmp, "work"), seats, args.rounds)
                rows += rows_for(seats, paired, dropped)
            load1 = os.getloadavg()
            rows.append(("load average (1 min) at start, end", f"{load0[0]:.1f}, {load1[0]:.1f}"))
    except BenchError as e:
        print(f"bench.net_baseline: {e}", file=sys.stderr)
        return 2
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
