"""Whole LAN games between real peer processes on loopback (net.harness)."""
from __future__ import annotations

import filecmp

from net import gamelog
from net.harness import Cluster
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
