"""The LAN protocol in the deterministic simulation (net.sim): real Peer code, a simulated network,
seeded faults.  Many seeds per fault class, each fault kind on its own, fixed nasty schedules, and
reproducibility.  ``python -m net.sim --seeds 5000`` (``make simnet``) runs the large version."""
from __future__ import annotations

import logging
from dataclasses import replace

import pytest

from mq.rules import is_over
from net.peer import ENDING_S
from net.sim import Faults, Options, Sim, SimFailure, run_seed

NONE = Faults.none()
MESSAGES = replace(NONE, drop=0.03, duplicate=0.03, reorder=0.04, delay=0.03)
CRASHES = replace(NONE, crash_rate=0.5, tear=0.5)
PARTITIONS = replace(NONE, partition_rate=0.6, oneway=0.3)
FAST = Options(entries=25, fault_s=3.0)


@pytest.fixture(autouse=True)
def _quiet():
    logging.getLogger("mq.net").setLevel(logging.CRITICAL)
    yield
    logging.getLogger("mq.net").setLevel(logging.NOTSET)


def _seeds(faults: Faults, seeds: range, options: Options = FAST) -> dict:
    totals: dict = {}
    for seed in seeds:
        out = run_seed(seed, replace(options, faults=faults))
        assert out.entries >= options.entries
        for k, v in out.faults.items():
            totals[k] = totals.get(k, 0) + v
        totals["acknowledged"] = totals.get("acknowledged", 0) + out.acknowledged
    return totals


@pytest.mark.parametrize("chunk", range(4))
def test_message_faults_on_many_seeds(chunk):
    totals = _seeds(MESSAGES, range(1000 + 15 * chunk, 1000 + 15 + 15 * chunk))
    assert min(totals.get(k, 0) for k in ("drop", "duplicate", "reorder", "delay")) > 20, totals


@pytest.mark.parametrize("chunk", range(4))
def test_crashes_and_restarts_on_many_seeds(chunk):
    totals = _seeds(CRASHES, range(2000 + 15 * chunk, 2000 + 15 + 15 * chunk))
    # About 15 crashes per 15 seeds; how many fall inside a game moves with the games themselves
    # (a rule change moves a chunk by several), so the floor only says that crashes do happen.
    assert totals["crash"] >= 8 and totals["restart"] + totals.get("resume", 0) >= totals["crash"], totals


@pytest.mark.parametrize("chunk", range(4))
def test_partitions_on_many_seeds(chunk):
    totals = _seeds(PARTITIONS, range(4000 + 15 * chunk, 4000 + 15 + 15 * chunk))
    assert totals["partition"] >= 10, totals


@pytest.mark.parametrize("chunk", range(4))
def test_every_fault_at_once_on_many_seeds(chunk):
    totals = _seeds(Faults(), range(5000 + 15 * chunk, 5000 + 15 + 15 * chunk))
    assert min(totals.get(k, 0) for k in ("drop", "duplicate", "reorder", "delay", "partition", "crash")) > 0, totals


def test_classic_games_survive_every_fault_at_once():
    """C-DIGI-1, C-DIGI-6: a Classic game is a log of actions like a Quest one: under every fault
    kind at once the peers stay in agreement and make progress (the mode is in the parameters)."""
    from mq.classic import is_classic

    totals = _seeds(Faults(), range(7000, 7008), replace(FAST, mode="classic"))
    assert min(totals.get(k, 0) for k in ("drop", "duplicate", "reorder", "delay", "crash")) > 0, totals
    sim = Sim(7000, replace(FAST, mode="classic", faults=NONE))
    sim.run()
    assert all(is_classic(p.state) for p in sim.peers if p is not None and p.state is not None)


@pytest.mark.parametrize("kind", ["drop", "duplicate", "reorder", "delay"])
def test_each_message_fault_alone(kind):
    totals = _seeds(replace(NONE, **{kind: 0.15}), range(3000, 3006))
    assert totals.get(kind, 0) > 50 and set(totals) <= {kind, "acknowledged"}, totals


def test_crashes_with_torn_tails():
    totals = _seeds(replace(NONE, crash_rate=0.8, tear=1.0), range(3100, 3110))
    assert totals.get("tear", 0) >= 1 and totals["crash"] >= 10, totals


def test_no_faults_every_peer_count_plays_to_the_end_of_the_run():
    for peers in range(2, 7):
        out = run_seed(peers, replace(FAST, peers=peers, faults=NONE))
        assert out.peers == peers and out.entries >= FAST.entries and not out.faults
        assert out.acknowledged >= FAST.entries  # a quorum had every entry


def test_a_seed_reproduces_exactly():
    runs = []
    for _ in range(2):
        s = Sim(4242, replace(FAST, faults=Faults(), trace=10_000))
        out = s.run()
        runs.append((out.entries, out.events, out.acknowledged, dict(out.faults), out.virtual_s, s.trace_text()))
    assert runs[0] == runs[1]
    assert runs[0][1] > 1000 and runs[0][3]


def _crash_once(when):
    """A hook crashing the peer that ``when(sim, seat, peer, n)`` picks, once, right after it applied
    entry n: before its fdatasync; a sequencer has sent the entry, and the copies still in flight
    are lost with its machine."""
    done = []

    def hook(sim, seat, peer, n):
        if not done and when(sim, seat, peer, n):
            done.append((seat, n))
            sim.at(0.0, lambda: sim.crash(seat))
    return hook, done


def test_the_sequencer_crashes_mid_commit_and_its_undelivered_entry_is_replaced():
    for seed in range(5):
        s = Sim(seed, replace(FAST, peers=3, faults=NONE, trace=10_000))
        hook, done = _crash_once(lambda sim, seat, p, n: p.leader and n == 8)
        s.on_applied.append(hook)
        s.run()
        assert done == [(0, 8)]
        assert "crash seat 0" in s.trace_text() and "restart seat 0" in s.trace_text()


def test_the_sequencer_crashes_while_it_syncs_entries_it_already_sent():
    """The sequencer sends an entry before its own fdatasync returns: with a slow disk, both
    followers apply and sync entry 8 while the sequencer's sync still runs, and it crashes then,
    tearing its unsynced copy.  The followers' quorum acknowledged the entry; the game goes on
    with it, and the restarted sequencer gets it back (the checks of every run hold)."""
    for seed in range(4):
        s = Sim(seed, replace(FAST, peers=3, faults=NONE, sync_s=(0.02, 0.02), trace=10_000))
        seen = []

        def crash_mid_sync(sim, seat, p, n):
            lead = sim.peers[0]
            if n == 8 and seat != 0 and not seen and lead is not None and lead.leader:
                seen.append(seat)
                if len(seen) == 1:
                    sim.at(0.005, lambda: sim.crash(0, tear=True))  # both followers have it by then
        s.on_applied.append(crash_mid_sync)
        s.run()
        trace = s.trace_text()
        assert "crash seat 0 (tore" in trace and "restart seat 0" in trace, trace
        assert 8 in s.acked and s.out.faults["tear"] == 1
        assert all(p.log.entries[7].id == s.acked[8] for p in s.peers)


def test_a_follower_crashes_during_catch_up():
    for seed in range(5):
        s = Sim(seed, replace(FAST, peers=4, faults=NONE, trace=10_000))
        first, done2 = _crash_once(lambda sim, seat, p, n: seat == 3 and n == 5)
        # Started again, it catches up from entry 5: crash it again in the middle of that.
        again, done = _crash_once(lambda sim, seat, p, n: seat == 3 and sim.incarnations[3] == 2
                                  and n == p.seq and n < sim.peers[0].seq - 2)
        s.on_applied += [first, again]
        s.run()
        assert done2 and done and s.incarnations[3] == 3, (done2, done, s.incarnations)


def test_a_failure_names_the_seed_and_shows_a_trace():
    s = Sim(7, replace(FAST, faults=NONE))

    def broken(sim, seat, p, n):
        if n == 3:
            sim.fail("a planted failure")
    s.on_applied.append(broken)
    with pytest.raises(SimFailure, match=r"(?s)seed 7 .*a planted failure.*game starts"):
        s.run()


def test_the_checker_catches_a_sequencer_that_writes_over_an_acknowledged_entry():
    """The epoch rule for "acknowledged" (a quorum holds the entry in its own epoch) still has
    teeth: a live sequencer made to drop acknowledged entries and number new ones in their place
    fails the run."""
    s = Sim(3, replace(FAST, peers=3, faults=NONE, entries=40))
    done = []

    def sabotage(sim, seat, p, n):
        if not done and p.sequencing and n >= 12 and 8 in sim.acked:
            done.append(n)
            p.sequencer.truncate(6, "test: dropping acknowledged entries")
            p.sequencer.schedule_drive()
    s.on_applied.append(sabotage)
    with pytest.raises(SimFailure, match="acknowledged"):
        s.run()
    assert done


def test_a_partition_with_the_sequencer_in_the_minority():
    """Seats 0 and 1 (the sequencer among them) are cut from 2, 3, 4: the sequencer stops within
    its lease (it no longer reaches a quorum), the majority fails over to seat 2 and plays on; once
    healed, seats 0 and 1 follow seat 2, and anything the old sequencer made alone is replaced."""
    for seed in range(4):
        s = Sim(seed, replace(FAST, peers=5, faults=NONE, entries=40, fault_s=8.0, trace=10_000))
        seen: dict = {}

        def split(sim, seat, p, n):
            if p.leader and n == 10 and not seen:
                seen["at"] = (sim.now, n)
                # Long enough for the majority, which tries seats 0 and 1 first (2 x 2 x dead_s).
                sim.partition({0: 0, 1: 0, 2: 1, 3: 1, 4: 1}, heal_after=6.0)
            if "at" in seen and sim.groups is not None and seat in (0, 1):
                seen["minority"] = max(seen.get("minority", 0), n)
            if "at" in seen and sim.groups is not None and seat == 2 and p.leader:
                seen["majority"] = max(seen.get("majority", 0), n)
        s.on_applied.append(split)
        s.run()
        t0, n0 = seen["at"]
        # The majority went on without the old sequencer; the minority could add only what its
        # lease let it (its bots act every ~60 ms, the lease is dead_s / 2 = 0.35 s).
        assert seen["majority"] > n0 and seen.get("minority", n0) <= n0 + 8, seen
        assert all(p.leader_seat == 2 for p in s.peers), [p.leader_seat for p in s.peers]


def test_a_one_way_cut_from_the_sequencer():
    """The sequencer's messages are lost but it still hears the others (until the heartbeats time
    out and the link drops both ways): the others fail over; whatever it made alone is replaced."""
    for seed in range(3):
        s = Sim(seed, replace(FAST, peers=3, faults=NONE, entries=40, fault_s=6.0, trace=10_000))

        def cut(sim, seat, p, n):
            if p.leader and n == 10 and not sim.partitions:
                sim.partition({0: 0, 1: 1, 2: 1}, heal_after=4.0, oneway=0)
        s.on_applied.append(cut)
        s.run()
        trace = s.trace_text()
        assert "partition [0] -> [1, 2]" in trace and "now both ways" in trace and "heal" in trace
        assert s.peers[0].leader_seat == s.peers[1].leader_seat == s.peers[2].leader_seat


def test_a_two_peer_game_goes_on_without_seat_1_but_not_without_seat_0():
    """The tie rule: half of the peer seats is a quorum only with the lowest seat."""
    for lost in (1, 0):
        s = Sim(11, replace(FAST, peers=2, faults=NONE, entries=40, trace=10_000))
        alone: list = []
        live: set = set()

        def watch(sim, seat, p, n, lost=lost):
            if n == 10 and seat == lost and sim.incarnations[lost] == 1:
                sim.at(0.0, lambda: sim.crash(lost))
            if sim.peers[lost] is None and seat != lost:
                alone.append(n)

        def probe():
            s.at(0.05, probe)
            other = s.peers[1 - lost]
            if s.peers[lost] is None and s.incarnations[lost] == 1 and other is not None:
                live.add(other.sequencing)
        s.on_applied.append(watch)
        s.at(0.05, probe)
        s.run()
        assert live, "the crash never happened"
        if lost == 1:
            assert live == {True}  # seat 0 sequenced on its own while seat 1 was down
        else:
            assert live == {False} and alone == []  # seat 1 alone never sequenced
            assert s.peers[0].leader_seat == s.peers[1].leader_seat


# Seeds (default options: all faults, 2-6 peers) that failed before a fix, with the engine of the
# commit that added them (another engine plays other games from the same seed, so they may stop
# exercising the bug; the many-seed tests above keep covering its kind):
# - without the quorum rule, two sequencers at once: acknowledged entries replaced (41, 57) or two
#   games that never join again (4, 17, 25, 35, 39, 56);
# - a sequencer that stepped down kept itself among the dead seats and could never be elected again:
#   nobody sequenced (25, 35, 85, 107);
# - a new sequencer that went live before it had adopted a longer log (the answer to its fetch_req
#   was lost) left that peer's extra entries in place: the next entry did not chain, and the game
#   stopped on a desync (100823).
# Seeds 101570, 102774, 103059 and 104553 failed with the simulation of commit 2131de1 (no one-way
# cuts, which draw differently): a sequencer that lost its quorum kept the entries of its lease
# that reached nobody and, elected again, made them win over entries a quorum held; and a new
# sequencer went live before the longer log it had asked for arrived (its answer lost) and rewound
# it.  Their fixes (docs/net.md, "Quorum") are covered by the many-seed tests.
# With epochs (docs/net.md, "Epochs", "Failover"): every peer restarted, or stepped down, and each
# pointed at another with nobody sequencing (200445, before the rendezvous); two restarted peers
# met, sequenced in turn without a quorum and never tried the seats whose addresses they had lost
# (200188, 201299, before ``<log>.peers``).  With the sequencer sending before it syncs and the
# simulated fdatasync: a new sequencer compared a follower's report about a stale entry (which it
# had served while reconciling, then replaced) with its own entry at that number, a false desync
# (701108, before reports named entries by id).
REGRESSION_SEEDS = (4, 17, 25, 35, 39, 41, 56, 57, 85, 107, 100823, 200188, 200445, 201299, 701108)


def test_regression_seeds():
    for seed in REGRESSION_SEEDS:
        out = run_seed(seed, Options())
        assert out.entries >= Options().entries


def test_a_follower_cut_off_at_the_end_of_the_game_ends_by_itself():
    """Seat 2 applies the game's last entry and is then cut off from the others: it never hears the
    sequencer's ``end`` (seats 0 and 1 end without it), and ends by itself ENDING_S + dead_s after
    that entry rather than looking for a sequencer until it gives up."""
    for seed in range(3):
        s = Sim(seed, replace(FAST, peers=3, faults=NONE, entries=10**6, fault_s=1.0, settle_s=200.0,
                              trace=10_000))
        seen: dict = {}

        def cut(sim, seat, p, n):
            if seat == 2 and is_over(p.state) and "cut" not in seen:
                seen["cut"] = sim.now
                sim.partition({0: 0, 1: 0, 2: 1}, heal_after=150.0)
        s.on_applied.append(cut)
        s.run()
        assert "cut" in seen, seen
        p2 = s.peers[2]
        assert ENDING_S + p2.cfg.dead_s < p2.ended_at - seen["cut"] < ENDING_S + p2.cfg.dead_s + 0.2, seen
        assert p2.ended_at > max(s.peers[0].ended_at, s.peers[1].ended_at)
        assert s.incarnations[2] == 1 and s.groups is not None  # never restarted; still cut off
        assert "heal" not in s.trace_text()
        assert [p.phase for p in s.peers] == ["ended"] * 3
        assert all(p.seq == s.peers[0].seq for p in s.peers)


def test_a_peer_restarted_from_the_log_of_a_game_that_is_over_ends_by_itself():
    """A two-peer game ends; then seat 0 (the sequencer) stops and starts again from its log, at
    the game's last entry.  The only other peer has ended: it follows nobody any more and points
    seat 0's hello back at seat 0.  Seat 0 sees that its own logged game is over and ends by
    itself (as a peer cut off at the end does, ENDING_S + dead_s later), instead of looking for a
    host and giving up with "no answer from the host", over and over."""
    for seed in range(3):
        s = Sim(seed, replace(FAST, peers=2, faults=NONE, entries=10**6, fault_s=60.0, settle_s=60.0,
                              trace=10_000))
        seen: dict = {}

        def stop_when_over():
            p0, p1 = s.peers
            if "crash" not in seen:
                s.at(0.05, stop_when_over)
                if p0 is not None and p1 is not None and p0.phase == p1.phase == "ended":
                    seen["crash"] = s.now
                    s.crash(0)
        s.at(0.05, stop_when_over)
        s.run()
        assert "crash" in seen, "the game never ended"
        trace = s.trace_text()
        assert trace.count("restart seat 0") == 1, trace  # one restart: it never gave up and closed
        assert "closed" not in trace, trace
        p0 = s.peers[0]
        assert p0.phase == "ended" and is_over(p0.state) and p0.seq == s.peers[1].seq
        assert p0.ended_at - seen["crash"] < 3.0 + ENDING_S + p0.cfg.dead_s + 1.0
