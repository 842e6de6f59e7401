"""A player's peer killed mid-game comes back with the same identity and catches up."""
from __future__ import annotations

import filecmp

import pytest

from net import gamelog
from net.harness import Cluster


@pytest.mark.parametrize("mode,at", [((), 80), (("--mode", "classic"), 40)], ids=["quest", "classic"])
def test_a_killed_player_restarts_catches_up_from_the_log_and_the_game_finishes(tmp_path, mode, at):
    """Q-DIGI-5, Q-OPT-2 (C-DIGI-6 in Classic): with away = wait, the table waits for the
    disconnected player."""
    with Cluster(str(tmp_path)) as c:
        c.host("--seats", "4", "--window-ms", "300", *mode)  # the table waits for the away seat (away=wait)
        for i in (1, 2, 3):
            c.join(i)
        seat = c.seat(2)
        c.wait_entries(2, at, 30)
        c.procs[2].kill9()
        had = c.entries(2)
        colour = ("red", "green", "blue", "yellow")[seat]
        c.procs[0].wait_for(rf"\({colour}\) is away", 10, "err")  # the host sees the seat go away
        c.join(2)
        codes = c.wait_all(40)
        assert codes == {0: 0, 1: 0, 2: 0, 3: 0}, {i: c.procs[i].err()[-2000:] for i in codes}
        assert len({c.summary(i) for i in range(4)}) == 1
        assert "is back" in c.procs[0].err()
    s = gamelog.read(c.log(2))
    assert len(s.entries) > had
    assert any(e.author == seat and e.n > had for e in s.entries)  # seat 2 played again after its restart
    for i in (1, 2, 3):
        assert filecmp.cmp(c.log(0), c.log(i), shallow=False)
