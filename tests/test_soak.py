"""``python -m mq.soak``: the invariants over bot games, with counts (mq/soak.py)."""
from __future__ import annotations

import io
import subprocess
import sys

from mq import soak
from mq.rules import invariants


def test_soak_prints_every_invariant_and_the_counts():
    out = io.StringIO()
    status = soak.main(["--games", "3", "--seed", "5"], out=out)
    lines = out.getvalue().splitlines()
    assert [line.split(":")[0] for line in lines[:-1]] == list(invariants.NAMES)
    broken = [line for line in lines[:-1] if "broken in" in line]
    assert status == (1 if broken else 0)
    report = soak.check_games(3, 5)
    assert lines[-1].startswith(f"3 games, {report.steps} steps, ")
    assert sorted(report.broken) == sorted(line.split(":")[0] for line in broken)


def test_soak_refuses_a_bad_count_in_words():
    done = subprocess.run([sys.executable, "-m", "mq.soak", "--games", "0"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--games must be at least 1" in done.stderr and "Traceback" not in done.stderr
