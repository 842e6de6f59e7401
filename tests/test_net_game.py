"""Whole LAN games between real peer processes on loopback (net.harness)."""
from __future__ import annotations

import filecmp
import subprocess
import sys

import pytest

from mq.cards.classic_packs import NAMES
from net import gamelog
from net.harness import ROOT, Cluster
from net.replay import replay


def test_four_headless_bot_peers_play_a_whole_game_with_identical_logs_and_hashes(tmp_path):
    with Cluster(str(tmp_path)) as c:
        c.host("--seats", "4")
        for i in (1, 2, 3):
            c.join(i)
        c.watch(4)  # a spectator follows with public information only
        codes = c.wait_all(40)
        assert codes == {0: 0, 1: 0, 2: 0, 3: 0, 4: 0}, {i: c.procs[i].err()[-2000:] for i in codes}
        results = {i: c.summary(i) for i in range(5)}
    assert len(set(results.values())) == 1, results
    n, final = results[0]
    assert n > 50
    for i in (1, 2, 3, 4):
        assert filecmp.cmp(c.log(0), c.log(i), shallow=False), f"log {i} differs"
    s = gamelog.read(c.log(0))
    assert [e.n for e in s.entries] == list(range(1, n + 1))
    assert {e.author for e in s.entries} == {0, 1, 2, 3}  # every seat played from its own process
    assert s.header.roster[1][2] == "peer" and s.header.nonces and len(s.header.nonces) == 4
    res = replay(c.log(2))
    assert res.ok and f"{res.final_hash:016x}" == final


def test_bots_fill_seats_and_the_host_alone_plays_a_game(tmp_path):
    with Cluster(str(tmp_path)) as c:
        c.host("--seats", "3", "--bots", "1")
        c.join(1)
        codes = c.wait_all(40)
        assert codes == {0: 0, 1: 0}
        assert c.summary(0) == c.summary(1)
    s = gamelog.read(c.log(0))
    assert s.header.roster[2][2] == "bot"
    assert any(e.author == -1 and e.action[0] == 2 for e in s.entries)  # the table plays the bot seat


@pytest.mark.parametrize("epic, packs", [(False, ()), (True, ()), (True, ("all",))],
                         ids=["classic", "classic-epic", "classic-epic-packs"])
def test_four_headless_bot_peers_play_a_whole_classic_game_with_identical_logs_and_hashes(tmp_path, epic, packs):
    """C-OPT-3, C-OPT-4, C-DIGI-1: ``mq host --mode classic [--epic] [--packs all]`` and three ``mq
    join`` bot peers, each a process of its own, play a whole Classic game to a winner (C-WIN): every
    peer's log is the same bytes and ends on the same hash; the joiners learned the mode, Epic and
    the packs from the host alone."""
    with Cluster(str(tmp_path)) as c:
        c.host("--seats", "4", "--mode", "classic", *(["--epic"] if epic else []),
               *(["--packs", ",".join(packs)] if packs else []))
        for i in (1, 2, 3):
            c.join(i)
        codes = c.wait_all(180)  # a bound, not a speed target: an Epic game in the pure core under load took over 60 s
        assert codes == {0: 0, 1: 0, 2: 0, 3: 0}, {i: c.procs[i].err()[-2000:] for i in codes}
        results = {i: c.summary(i) for i in range(4)}
    assert len(set(results.values())) == 1, results
    n, final = results[0]
    for i in (1, 2, 3):
        assert filecmp.cmp(c.log(0), c.log(i), shallow=False), f"log {i} differs"
    s = gamelog.read(c.log(0))
    assert s.header.params.mode == "classic" and s.header.params.epic == epic
    assert s.header.params.packs == (NAMES if packs else ())
    assert [e.n for e in s.entries] == list(range(1, n + 1)) and n > 50
    assert {0, 1, 2, 3} <= {e.author for e in s.entries}  # every seat played from its own process
    res = replay(c.log(3))
    assert res.ok and f"{res.final_hash:016x}" == final and "winners none" not in res.lines[-1]
    _replay_commands_on_a_classic_log(c.log(1), n, final, epic, tmp_path, packs)


def _mq(*args):
    return subprocess.run([sys.executable, "-m", "mq.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)


def _replay_commands_on_a_classic_log(path, n, final, epic, tmp_path, packs=()):
    """``mq replay --verify`` and ``--narrate`` on a real Classic log (C-DIGI-1): every hash checked
    and the game told in sentences; a changed hash in it is found; ``--as``, which does not step
    without a terminal, says it needs one (tests/test_tui_replay_classic.py steps through one)."""
    out = _mq("replay", path, "--verify")
    assert out.returncode == 0 and "verify: ok" in out.stdout, out.stdout + out.stderr
    assert f"{n} entries" in out.stdout and f"final state hash {final}" in out.stdout
    assert ("Classic Epic" if epic else "Classic  window") in out.stdout.splitlines()[0]
    assert ("(packs: " in out.stdout.splitlines()[0]) == bool(packs)
    told = _mq("replay", path, "--narrate")
    assert told.returncode == 0 and "kicks open the door" in told.stdout and " the game! ***" in told.stdout
    tampered = str(tmp_path / "tampered.mqlog")
    lg = gamelog.read(path)
    out_log = gamelog.GameLog.create(tampered)
    out_log.write_header(lg.header)
    for e in lg.entries[:-1]:
        out_log.append(e)
    last = lg.entries[-1]  # its recorded state hash changed, the chain and CRC made good
    out_log.append(gamelog.decode_entry(gamelog.encode_entry(last.n, last.author, last.pid, list(last.action),
                                                             last.hash ^ 1, out_log.last_id, last.epoch,
                                                             last.asig, last.ssig)))
    out_log.sync()
    out_log.close()
    bad = _mq("replay", tampered, "--verify")
    assert bad.returncode == 1 and "verify: FAILED" in bad.stdout
    seat = _mq("replay", path, "--as", "green")  # no terminal here: said in words
    assert seat.returncode == 2 and "needs a terminal" in seat.stderr
    assert "Traceback" not in seat.stderr


def _out_of_turn_plays(path: str) -> int:
    """Entries of the log at ``path`` where a seat put newly gained Treasure into play on
    another's turn (Q-CARD-3, Q-TURN-3)."""
    from mq.cards import load_default
    from net.replica import Tip, reapply

    log = gamelog.read(path)
    cards = load_default()
    before, found = Tip.start(log.header, cards).state, 0
    for _, action, after, _ in reapply(before, log.entries, cards, log.header):
        t = before.turn
        if action.kind == "play" and t is not None and t.seat != action.seat and before.combat is None \
                and action.args[0] in before.players[action.seat].fresh:
            found += 1
        before = after
    return found


def test_bot_peers_put_new_treasure_into_play_on_anothers_turn(tmp_path):
    """mq.bots.policy.out_of_turn in real bot peer processes (net.client.play_bot): over a few
    games (seeds whose bots gain Treasure on others' turns) some such play is in the log, and
    every peer's log is the same."""
    found = 0
    for seed in ("1", "3", "5"):
        (tmp_path / seed).mkdir()
        with Cluster(str(tmp_path / seed)) as c:
            c.host("--seats", "3", "--local-seed", seed)
            for i in (1, 2):
                c.join(i, "--local-seed", seed)
            codes = c.wait_all(60)
            assert codes == {0: 0, 1: 0, 2: 0}, {i: c.procs[i].err()[-2000:] for i in codes}
            assert all(filecmp.cmp(c.log(0), c.log(i), shallow=False) for i in (1, 2))
            found += _out_of_turn_plays(c.log(0))
        if found:
            break
    assert found, "no bot put new Treasure into play on another's turn in three games"
