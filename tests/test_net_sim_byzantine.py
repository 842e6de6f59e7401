"""The simulation with a Byzantine seat (net.sim ``--byzantine``, net.byzantine): one seat per game,
drawn from the seed, that forges, replays and equivocates while the faults of net.sim go on.
Honest peers never adopt a record the entry check refuses, never lose an acknowledged entry, and
a game either ends as usual or stops with an honest peer saying why (issue 13; docs/net.md,
"Simulation").  ``python -m net.sim --seeds 2000 --byzantine`` is the large version."""
from __future__ import annotations

import logging
from collections import Counter
from dataclasses import replace

import pytest

from net import election, wire
from net.sim import Faults, Options, Sim, SimFailure, run_seed

BYZ = Options(byzantine=True)


@pytest.fixture(autouse=True)
def _quiet():
    logging.getLogger("mq.net").setLevel(logging.CRITICAL)
    yield
    logging.getLogger("mq.net").setLevel(logging.NOTSET)


def test_byzantine_seeds_refuse_every_forgery():
    attacks: Counter = Counter()
    stopped = 0
    for seed in range(1, 11):
        out = run_seed(seed, BYZ)
        attacks.update(out.attacks)
        stopped += out.refusal is not None
        if out.refusal is None:
            assert out.entries >= BYZ.entries
    # Each forgery is tried and refused by the check that names it (net.replica.apply_entry).
    assert attacks[("forge-seat", "by signature")] > 50
    assert attacks[("alter", "by signature")] > 50
    assert attacks[("forge-table", "by authorship")] > 20
    assert attacks[("replay-entry", "by replay")] > 20
    assert attacks[("own-reign", "by certificate")] > 0  # a reign made up: refused by its certificate
    assert not any(outcome == "by other" for _, outcome in attacks)
    # A forged entry from the sequencer pauses its followers, in words.
    assert 0 < stopped < 10


def test_an_equivocating_sequencer_is_refused_in_words():
    """Seed 5 (6 peers, the Byzantine seat the host): its entry 12 goes to some followers as one
    entry and to the others as another, both validly signed by the sequencer of epoch 8.  The
    followers that hold the first were then told to rewind it for the second, and did, although a
    quorum held it (the simulation: "entry 12 acknowledged twice").  Now a follower refuses to drop
    an entry for another one of the same epoch and seq: the proof that its sequencer equivocates."""
    out = run_seed(5, BYZ)
    assert out.attacks[("equivocate", "valid")] >= 1
    assert out.refusal is not None and "signed two different entries" in out.refusal
    assert "equivocates" in out.refusal


def test_an_entry_the_sequencer_did_not_number_itself_pauses_its_follower_in_words():
    """Seed 1442 (2 peers, the Byzantine seat is seat 0, the host, in an away-bot game): it sends
    seat 1 entry 13, the table playing seat 1's bot move (a move the table may make there, so it
    checks out), without numbering it in its own log.  Seat 1 then waits for seat 0 and seat 0's
    own peer for seat 1: the run stalled, and no one said why.  An honest sequencer keeps every
    entry it numbered in its epoch, so its ticks saying its log ends at entry 12 (for longer than a
    reordering explains) are the proof: seat 1 stops in words."""
    out = run_seed(1442, BYZ)
    assert out.attacks[("forge-table", "valid")] >= 1
    assert out.refusal == ("paused: the host's entry 13: the sequencer of epoch 8 signed it, but says its log "
                           "ends at entry 12 (it equivocates)")


def test_a_follower_told_to_drop_an_entry_of_the_reign_it_follows_refuses():
    """The same run, seat 1 saying hello again once it holds that entry 13: the sequencer (its
    own log ends at 12) welcomes it with a rewind to 12 and says it holds nothing after.  Seat 1
    rewound, dropping an entry the sequencer of its reign had signed (with more followers, one a
    quorum may hold); now it refuses, in words, and keeps it."""
    sim = Sim(1442, BYZ)

    def ask_again(sim: Sim, seat: int, peer, n: int) -> None:
        if seat == 1 and n == 13:
            sim.at(0.0, peer.follower._hello_again, sim.rts[1])

    sim.on_applied.append(ask_again)
    out = sim.run()
    assert out.refusal is not None and "signed it, but says its log ends at entry 12" in out.refusal
    assert sim.peers[1].seq == 13


def test_a_reign_of_seat_0_of_two_players_is_one_the_rules_allow():
    """Seed 104 (2 peers, the Byzantine seat is seat 0): its made-up reign has its own promise
    alone, which is a quorum of 2 players by the tie rule (net.membership.quorum), so its entries
    check out and the other seat may take them (docs/net.md, "Promise certificates": seat 0 of 2
    can sequence without seat 1).  The run failed while the attacker marked them forged anyway."""
    out = run_seed(104, BYZ)
    assert out.attacks[("own-reign", "valid")] >= 1 and out.attacks[("own-reign", "offered")] >= 1


def test_a_forged_entry_held_by_an_honest_peer_fails_the_run():
    """The check itself: a record marked as refused by the entry check, once an honest peer holds
    it, stops the simulation."""
    sim = Sim(3, replace(BYZ, entries=12))

    def mark(sim: Sim, seat: int, peer, n: int) -> None:
        if n == 6 and sim.honest(seat):
            sim.forged.setdefault(peer.log.id_at(n), "marked by the test")

    sim.on_applied.append(mark)
    with pytest.raises(SimFailure, match="a forged entry was adopted"):
        sim.run()


def test_honest_runs_draw_no_byzantine_seat():
    sim = Sim(7, Options())
    assert sim.attacker is None and all(sim.honest(s) for s in range(sim.n))


# -- a promise or a welcome of an epoch far ahead (docs/net.md, "Epochs") -----------------------------
FAIR = replace(Options(), faults=Faults.none(), peers=3, entries=60)


def _promise_from_seat_2(sim: Sim, epoch_of, period: float | None = None) -> list[int]:
    """After seat 2 applied entry 10, it sends the sequencer a ping promising ``epoch_of(sim)``,
    signed with its own key (a player's word), once or every ``period`` s; the promises sent."""
    sent: list[int] = []

    def hook(sim: Sim, seat: int, peer, n: int) -> None:
        if seat != 2 or n != 10 or sent:
            return
        rt = sim.rts[2]

        def ping() -> None:
            e = epoch_of(sim)
            sent.append(e)
            psig = peer.signer.sign_promise(peer.game, e) if e <= wire.MAX_PROMISE else bytes(64)
            peer.rt.send(peer.dealer, [wire.pack({"t": "ping", "seq": peer.seq, "epoch": e, "psig": psig})])
            if period is not None:
                sim.at(period, ping, rt)

        sim.at(0.0, ping, rt)

    sim.on_applied.append(hook)
    return sent


@pytest.mark.parametrize("epoch", [wire.MAX_PROMISE, 2**62, election.FIRST_EPOCH + election.MAX_JUMP])
def test_a_promise_too_far_ahead_is_not_taken(epoch):
    """A promise of the wire's largest epoch (2**40) made the sequencer raise its epoch above it,
    where no follower can promise it on the wire: their pings were dropped and the table never
    went live again (the run stalled at entry 10).  Now the sequencer raises for a promise only
    to an epoch within reach of its log (net.election.within_reach): one further ahead is dropped,
    counted, and the game goes on in its epoch.  (2**62 is past the wire's bound: dropped there.)"""
    sim = Sim(3, FAIR)
    sent = _promise_from_seat_2(sim, lambda sim: epoch)
    out = sim.run()
    assert sent == [epoch] and out.entries >= FAIR.entries
    assert all(p.epoch == election.FIRST_EPOCH for p in sim.peers)


def test_promises_raised_as_far_as_allowed_on_every_ping_do_not_stop_the_game():
    """Seat 2 promises, every 20 ms, the highest epoch the sequencer still raises to: one jump
    above its log's last entry.  Each raise is a new welcome to every member; the game goes on,
    and the epochs grow by one jump per entry at most, far from the wire's end."""
    sim = Sim(3, replace(FAIR, entries=120))
    sent = _promise_from_seat_2(sim, lambda sim: sim.peers[0].log.last_epoch + election.MAX_JUMP - 16, 0.02)
    out = sim.run()
    assert len(sent) > 100 and out.entries >= 120
    top = max(p.epoch for p in sim.peers)
    assert election.MAX_JUMP < top < (out.entries + 1) * election.MAX_JUMP


def test_a_welcome_too_far_ahead_is_not_followed():
    """The sequencer (seat 0) welcomes seat 1 again in an epoch near the end of the wire's (as a
    Byzantine one could): seat 1 promised it, and then could promise nothing on the wire (its pings
    dropped: 'no heartbeat').  Now it takes no welcome more than two jumps ahead of its log, says
    hello again, and the game goes on in the epoch it had."""
    sim = Sim(3, FAIR)
    far = election.next_epoch(wire.MAX_PROMISE - 64, 0)
    sent = []

    def hook(sim: Sim, seat: int, peer, n: int) -> None:
        if seat == 1 and n == 10 and not sent:
            host = sim.peers[0]
            rid = next(r for r, m in host.sequencer.membership.members.items() if m.seat == 1)
            msg = dict(host.sequencer.welcome(1, -1), epoch=far)
            sent.append(far)
            sim.at(0.0, lambda: host.send_to(rid, msg), sim.rts[0])

    sim.on_applied.append(hook)
    out = sim.run()
    assert sent and out.entries >= FAIR.entries
    assert sim.peers[1].promise() == election.FIRST_EPOCH
