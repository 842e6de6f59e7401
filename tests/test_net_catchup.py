"""Catching up over the wire: a rejoining peer fetches batch after batch without waiting for the
sequencer's heartbeat between them (docs/net.md, catch-up)."""
import asyncio

from bench.net import build_log, header_only
from net import peer as peermod
from net.peer import Config, Peer


def test_a_peer_far_behind_fetches_the_next_batch_at_once(tmp_path, monkeypatch):
    # Heartbeats every 30 s: without asking again at once after each full batch, 300 entries in
    # batches of 60 would take two minutes; the wait below is bounded well under one heartbeat.
    batch = 60
    monkeypatch.setattr(peermod, "FETCH_BATCH", batch)
    full, empty = str(tmp_path / "full.mqlog"), str(tmp_path / "empty.mqlog")
    n = 5 * batch
    header, keys = build_log(full, entries=n)
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
