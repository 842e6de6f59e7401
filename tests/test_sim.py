"""``mq sim``: whole bot games to a winner, byte-identical for a seed, identical in both core modes."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys

from mq.sim import game_seed, play_game, run


def sim_output(*args, env_extra=None):
    env = dict(os.environ, **(env_extra or {}))
    out = subprocess.run([sys.executable, "-m", "mq.cli", "sim", *args], capture_output=True, env=env,
                         check=False, timeout=300)
    return out.returncode, out.stdout


def test_same_seed_same_bytes_and_both_cores_agree():
    code, first = sim_output("--players", "4", "--games", "4", "--seed", "3")
    assert code == 0
    assert sim_output("--players", "4", "--games", "4", "--seed", "3")[1] == first
    assert sim_output("--players", "4", "--games", "4", "--seed", "3", env_extra={"MQ_PUREPYTHON": "1"})[1] == first
    assert sim_output("--players", "4", "--games", "4", "--seed", "4")[1] != first


def test_every_game_has_a_winner_and_a_hash():
    out = io.StringIO()
    assert run(players=3, games=5, seed=11, as_json=True, out=out, err=io.StringIO()) == 0
    data = json.loads(out.getvalue())
    assert data["totals"]["games"] == 5 and data["totals"]["finished"] == 5
    for g in data["games"]:
        assert g["winners"] and len(g["hash"]) == 16 and g["actions"] > 0 and g["turns"] > 0


def test_replaying_the_actions_of_a_game_gives_its_hash():
    from mq.rules import apply, make_params, new_game, state_hash

    result, final, taken = play_game(2, game_seed(9, 0))
    s = new_game(make_params(2), result.seed)
    for a in taken:
        s = apply(s, a)
    assert f"{state_hash(s):016x}" == result.hash == f"{state_hash(final):016x}"


def test_games_of_every_size_finish():
    """Each game ends: a munchkin kills the Boss, or every munchkin is dead and the monsters win
    (Q-DEATH-5)."""
    for players in range(2, 7):
        result, state, _ = play_game(players, game_seed(21, players))
        assert state.phase == "over", f"{players}-player game did not end"
        assert bool(result.winners) != bool(dict(result.counts)["monsters_win"]), result


def test_a_once_endless_two_player_game_now_ends():
    """Both bots once sat in the Entrance too weak to move for 7,500 turns; they now grow bolder."""
    result, _, _ = play_game(2, 10020187043821319314, max_actions=5_000)
    assert result.winners
