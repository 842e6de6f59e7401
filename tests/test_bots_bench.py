"""bench/bots.py: the per-100-game figures of bot play add up and depend only on the arguments."""
from __future__ import annotations

import io
import json

from bench.bots import KINDS, ROWS, main, measure, terms_kind


def test_offer_kinds_name_every_shape_of_terms():
    assert [terms_kind(300, 1), terms_kind(-300, 0), terms_kind(0, 0, "T01"), terms_kind(0, 2),
            terms_kind(0, 0)] == list(KINDS)


def test_figures_add_up_over_a_few_games():
    tally = measure(games=3, seed=5)
    assert {k: v for k, _, v in tally.rows()}["games"] == 100  # per 100 games
    rows = {k: tally.counts.get(k, 0) for k, _ in ROWS} | {k: sum(v) for k, v in tally.samples.items()}
    assert rows["games"] == 3
    assert rows["won"] + rows["monsters_won"] + rows["unfinished"] == 3
    assert rows["helped"] == sum(rows[f"deal_{k}"] for k in KINDS) <= rows["fights"]
    assert rows["fights_won"] <= rows["fights"] and rows["boss_won"] <= rows["boss_fights"]
    assert rows["helped_won"] <= rows["helped"] and rows["boss_helped"] <= rows["helped"]
    assert rows["summons_lost"] <= rows["summons"] and rows["suicides"] <= rows["deaths"]
    assert rows["turns"] > 0 and rows["actions"] > rows["turns"]
    assert rows["co_wins"] <= rows["won"]


def test_the_command_prints_the_same_json_for_the_same_seed():
    first, second = io.StringIO(), io.StringIO()
    assert main(["--games", "2", "--seed", "3", "--json"], out=first) == 0
    assert main(["--games", "2", "--seed", "3", "--json"], out=second) == 0
    assert first.getvalue() == second.getvalue()
    assert json.loads(first.getvalue())["per_100"]["games"] == 100


def test_bad_arguments_are_refused_in_words(capsys):
    assert main(["--games", "0"], out=io.StringIO()) == 2
    assert "--games must be at least 1" in capsys.readouterr().err
