"""Catching up (net.catchup): a follower's buffer of entries ahead of its log, the head it knows of,
when it asks again, the batches a peer answers with; and over the wire, a rejoining peer fetches
batch after batch without waiting for the sequencer's heartbeat between them (docs/net.md)."""
import asyncio

from bench.net import build_log, header_only
from net import catchup, gamelog
from net.catchup import CatchUp, records_from
from net.peer import Config, Peer


def test_a_peer_far_behind_fetches_the_next_batch_at_once(tmp_path, monkeypatch):
    # Heartbeats every 30 s: without asking again at once after each full batch, 300 entries in
    # batches of 60 would take two minutes; the wait below is bounded well under one heartbeat.
    batch = 60
    monkeypatch.setattr(catchup, "FETCH_BATCH", batch)
    full, empty = str(tmp_path / "full.mqlog"), str(tmp_path / "empty.mqlog")
    n = 5 * batch
    header, keys, got = build_log(full, entries=n)
    assert got == n
    header_only(header, empty)
    slow = dict(bind="127.0.0.1", ping_s=30.0, dead_s=90.0)

    async def main():
        leader = Peer(Config(name="p0", key=keys[0], log_path=full, settle_s=600, **slow))
        joiner = Peer(Config(name="p1", key=keys[1], log_path=empty, **slow))
        try:
            await leader.resume(full)
            await joiner.join("127.0.0.1", leader.port, timeout=10)
            for _ in range(2000):  # 20 s at most
                if joiner.seq >= n or joiner.phase != "game":
                    break
                await asyncio.sleep(0.01)
            return joiner.seq, joiner.phase
        finally:
            await joiner.close()
            await leader.close()

    assert asyncio.run(main()) == (n, "game")


def test_entries_ahead_are_buffered_and_taken_in_order(tmp_path):
    path = str(tmp_path / "g.mqlog")
    build_log(path, entries=30)
    entries = gamelog.read(path).entries
    c = CatchUp()
    for e in (entries[4], entries[2], entries[3], entries[1]):  # entry 2 is the next one after 1
        c.offer(e, 1)
    c.offer(entries[0], 1)  # already in our log: not kept
    assert sorted(c.buffer) == [2, 3, 4, 5]
    assert [c.next(1).n, c.next(2).n, c.next(3).n, c.next(4).n] == [2, 3, 4, 5]
    assert c.next(5) is None and c.buffer == {}


def test_a_follower_asks_when_behind_at_most_once_a_period_or_when_forced():
    c = CatchUp()
    assert not c.should_fetch(10, 5.0, 0.25)  # not behind
    c.heard(12)
    assert c.should_fetch(10, 5.0, 0.25) and not c.should_fetch(10, 5.1, 0.25)
    assert c.should_fetch(10, 5.3, 0.25)
    assert c.should_fetch(12, 5.31, 0.25, force=True)  # a welcome, a header, an end
    c.heard(3)
    assert c.head == 12  # never goes down
    c.full_batch(20)  # more is likely waiting: ask again at once
    assert c.head == 21 and c.should_fetch(20, 5.32, 0.25)


def test_a_gap_in_the_buffer_is_behind_too(tmp_path):
    path = str(tmp_path / "g.mqlog")
    build_log(path, entries=10)
    entries = gamelog.read(path).entries
    c = CatchUp()
    c.offer(entries[6], 3)  # entry 7 arrived, 4..6 did not
    assert c.next(3) is None and c.should_fetch(3, 1.0, 0.25)


def test_records_come_in_batches_from_where_asked(tmp_path, monkeypatch):
    path = str(tmp_path / "g.mqlog")
    build_log(path, entries=25)
    lg = gamelog.read(path)
    monkeypatch.setattr(catchup, "FETCH_BATCH", 10)
    assert records_from(lg, 1) == [e.raw for e in lg.entries[:10]]
    assert [gamelog.decode_entry(r).n for r in records_from(lg, 21)] == [21, 22, 23, 24, 25]
    assert records_from(lg, 26) == []
