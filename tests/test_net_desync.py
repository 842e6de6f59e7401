"""A peer whose state is deliberately perturbed (MQ_TEST_PERTURB, test-only) is caught on the next
entry; every peer writes a desync report naming the first differing field."""
from __future__ import annotations

import glob
import json

from net.harness import Cluster


def test_a_perturbed_peer_is_caught_on_the_next_entry_and_the_report_names_the_field(tmp_path):
    with Cluster(str(tmp_path)) as c:
        c.host("--seats", "4")
        c.join(1)
        c.join(2, env={"MQ_TEST_PERTURB": "30:players.1.gold"})
        c.join(3)
        codes = c.wait_all(90)  # bounded; generous for a loaded machine
        assert codes == {0: 3, 1: 3, 2: 3, 3: 3}, {i: c.procs[i].err()[-2000:] for i in codes}
    reports = {}
    for i in range(4):
        files = glob.glob(c.log(i) + ".desync-*.json")
        assert len(files) == 1, files
        reports[i] = json.load(open(files[0]))
    for r in reports.values():
        assert r["seq"] == 31  # perturbed after entry 30, caught by the hash after entry 31
        assert r["first_difference"] == "state.players[1].gold"
        assert r["entry"][0] == 31 and r["last_actions"][-1]["seq"] == 31
        hashes = {p["seat"]: p["hash"] for p in r["peers"]}
        assert sorted(hashes) == [0, 1, 2, 3] and len(set(hashes.values())) == 2
    bad_seat = reports[2]["me"]["seat"]
    assert reports[0]["peers"][0]["seat"] == 0
    assert {p["hash"] for p in reports[0]["peers"] if p["seat"] == bad_seat} == {reports[2]["me"]["hash"]}
    assert reports[2]["me"]["hash"] != reports[0]["me"]["hash"]
