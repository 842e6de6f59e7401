"""The forged-log attack on failover, on real peer processes (issue 13; docs/net.md, "Signed
history"): a player keeps its log, appends moves of its choosing (for another seat, as "the table"
or as that seat; hashes, chain, CRCs and its own signatures recomputed with the engine) in a reign
of its own making, and, once the host is killed with SIGKILL, offers that log to the peer taking
over while it reconciles.  No honest peer adopts a forged entry or gives up an entry the honest
quorum holds; the refusal names the entry in words; the game goes on and ends with one hash.
Whether the forged tail starts with a move for another seat or with the forger's own moves (which
every other check accepts), the made-up reign is refused by its certificate: it holds the forger's
promise alone, not a quorum's (docs/net.md, "Promise certificates").

Five seats: the host (seat 0) and three honest players are ``mq`` processes; seat 4 is a real ``mq
join`` process at first (so its key and signing key are in the roster), killed with SIGKILL to keep
its log, then tests/forger.py (its MQ_HOME, its log, the code) plays the cheat.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from net import gamelog
from net.harness import ROOT, Cluster
from net.replay import replay

HERE = os.path.dirname(os.path.abspath(__file__))
EPOCH = 8 * 3 + 4  # a reign of seat 4 no peer ever promised: later than any honest log's


def _ids(c: Cluster, i: int) -> list[bytes]:
    return [e.id for e in gamelog.read(c.log(i)).entries]


@pytest.mark.parametrize("first", ["table", "seat", "own"])
def test_a_forged_log_offered_in_a_failover_is_refused_and_the_game_goes_on(tmp_path, first):
    with Cluster(str(tmp_path)) as c:
        c.host("--seats", "5", "--away", "bot", "--away-s", "1", "--bot-delay", "0.02")
        c.join(1)
        assert c.seat(1) == 1
        for i in (2, 3):  # slow to give the host up: seat 1 reconciles alone first, and the forger is there
            c.join(i, "--dead-ms", "3000")
            assert c.seat(i) == i
        c.join(4)
        assert c.seat(4) == 4
        seat1 = c.peer_port(1)
        c.wait_entries(4, 40, 30)
        c.procs[4].kill9()  # the cheater keeps its log
        kept_at = c.entries(4)
        c.wait_entries(1, kept_at + 20, 30)  # the honest game goes on, seat 4 played by the table's bot
        held = min((_ids(c, i) for i in (1, 2, 3)), key=len)  # entries the honest quorum holds (with the host)
        out = str(tmp_path / "forger.json")
        forger = subprocess.Popen([sys.executable, os.path.join(HERE, "forger.py"), c.log(4), c.home(4), str(seat1),
                                   first, str(EPOCH), out], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        try:
            assert forger.stdout.readline().strip() == "ready", forger.stderr.read()[-3000:]
            c.procs[0].kill9()  # the host, with SIGKILL: seat 1 takes over and reconciles
            forger.stdin.write("go\n")
            forger.stdin.flush()
            _, err = forger.communicate(timeout=60)
        finally:
            if forger.poll() is None:
                forger.kill()
                forger.wait(5)
        assert forger.returncode == 0, err[-3000:]
        seen = json.load(open(out))
        kept, victim = seen["kept"], seen["victim"]
        assert (victim == 4) == (first == "own") and seen["first_author"] == (-1 if first == "table" else victim)
        # Offered while seat 1 reconciled: asked for the forged entries, then told to rewind to
        # what the logs share.
        assert seen.get("fetch_req") == kept + 1, seen
        assert seen.get("welcome", {}).get("rewind") == kept, seen
        codes = c.wait_all(60, which=(1, 2, 3))
        assert codes == {1: 0, 2: 0, 3: 0}, {i: c.procs[i].err()[-2000:] for i in codes}
        assert c.summary(1) == c.summary(2) == c.summary(3)  # one game, one hash
        forged = {bytes.fromhex(h) for h in seen["forged"]}
        logs = [_ids(c, i) for i in (1, 2, 3)]
        assert logs[0] == logs[1] == logs[2]
        assert not forged & set(logs[0])  # no forged entry adopted
        assert logs[0][:len(held)] == held  # nothing the honest quorum held was given up
        for i in (1, 2, 3):
            assert replay(c.log(i)).ok
        # Five player seats: a quorum is 3, the made-up reign has the forger's promise alone.
        want = f"not adopting p4's log: entry {kept + 1}: the reign of epoch {EPOCH} has no quorum of promises (1 of 3)"
        err = c.procs[1].err()
        line = next((ln for ln in err.splitlines() if want in ln), None)
        assert line is not None, err[-3000:]
        assert "Traceback" not in err
        print(f"forged from entry {kept + 1} ({len(forged)} entries, epoch {EPOCH}); honest quorum held "
              f"{len(held)}; the game ended after {c.summary(1)[0]} entries; {line.strip()}")
