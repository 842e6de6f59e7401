"""bench.net_baseline: the paired ratio, a baseline worktree made and removed, and bad arguments in words."""
import os
import subprocess

import pytest

from bench import net_baseline as nb


def test_the_paired_ratio_is_the_median_of_each_rounds_p50_ratio():
    rounds = [([2.0, 2.0, 2.0], [1.0, 1.0, 1.0]),   # 2.0
              ([1.0, 3.0, 3.0], [3.0, 3.0, 3.0]),   # 1.0 (p50 nearest-rank of [1, 3, 3] is 3)
              ([1.0, 1.0, 1.0], [4.0, 4.0, 4.0])]   # 0.25
    assert nb.paired_ratio(rounds) == 1.0


def test_a_game_the_bots_never_finished_gives_no_samples():
    assert nb.samples({"host": [1.0], "to_all": [2.0], "at_proposer": [], "stuck": [900]}) is None
    assert nb.samples({"host": [1.0], "to_all": [2.0], "at_proposer": [], "stuck": []}) == [1.0, 2.0]


def test_rows_say_when_no_round_could_be_paired():
    (row,) = nb.rows_for(4, [], 3)
    assert "no round" in row[1] and "3 dropped" in row[1]


def test_the_baseline_worktree_is_removed_even_when_the_run_fails(tmp_path):
    head = nb.resolve("HEAD")
    with pytest.raises(RuntimeError):
        with nb.worktree(head, str(tmp_path)) as tree:
            assert os.path.isfile(os.path.join(tree, "Makefile"))
            raise RuntimeError("the games failed")
    assert not os.path.exists(os.path.join(tmp_path, "baseline"))
    listed = subprocess.run(["git", "-C", nb.ROOT, "worktree", "list"], capture_output=True, text=True).stdout
    assert str(tmp_path) not in listed


def test_an_unknown_commit_is_refused_in_words(capsys):
    assert nb.main(["no-such-commit-anywhere"]) == 2
    err = capsys.readouterr().err
    assert "git knows no commit 'no-such-commit-anywhere'" in err and "Traceback" not in err


@pytest.mark.parametrize("args, words", [(["--peers", "two"], "--peers takes numbers"),
                                         (["--peers", "7"], "every peer count 2 to 6"),
                                         (["--rounds", "0"], "--rounds must be at least 1")])
def test_bad_arguments_are_refused_in_words(args, words, capsys):
    with pytest.raises(SystemExit) as e:
        nb.main(["HEAD", *args])
    assert e.value.code == 2 and words in capsys.readouterr().err
