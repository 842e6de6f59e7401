"""Illegal, foreign-seat, duplicate, badly signed and malformed proposals are refused with reasons and change
nothing (a host and a guest peer in one process, talking over real loopback sockets)."""
from __future__ import annotations

import asyncio
import os
import time

import pytest

from mq.rules import Action, IllegalAction, state_hash
from net import transport, wire
from net.client import NetTable
from net.peer import Config
from net.signing import Signer


def _send_up(p, msg: dict) -> None:
    """What a modified client sends on its own DEALER, past its Peer's checks (the transport)."""
    assert p.rt.send(p.dealer, [wire.pack(msg)])


def _send_down(p, rid: bytes, msg: dict) -> None:
    """What a broken sequencer sends on its ROUTER to routing id ``rid`` (the transport)."""
    assert p.rt.send(p.router, [rid, wire.pack(msg)])


def _proposal(p, pid: int, x: list, seat: int | None = None, signer=None) -> dict:
    """A ``propose`` as a modified client sends it, signed with its key (or ``signer``'s) for ``seat``
    (default: its own)."""
    seat = p.seat if seat is None else seat
    sig = (signer or p.signer).sign_action(p.game, seat, (p.inc, pid), x)
    return {"t": "propose", "pid": pid, "x": x, "sig": sig}


async def _until(cond, timeout=5.0):
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.005)


def test_refused_proposals_carry_reasons_and_change_nothing(tmp_path):
    async def main():
        fast = dict(ping_s=0.1, dead_s=2.0)
        host = await NetTable.host(Config(name="host", log_path=str(tmp_path / "h.mqlog"), **fast), seats=2)
        guest = await NetTable.join(Config(name="guest", log_path=str(tmp_path / "g.mqlog"), **fast),
                                    "127.0.0.1", host.peer.port)
        watcher = await NetTable.join(Config(name="w", role="watch", log_path=str(tmp_path / "w.mqlog"), **fast),
                                      "127.0.0.1", host.peer.port)
        await _until(lambda: host.peer.open_seats() == 0)
        host.start()
        assert await guest.wait_started(5) and await watcher.wait_started(5)
        hp, gp = host.peer, guest.peer
        assert gp.seat == 1 and watcher.seat is None
        rejects = []
        gp.subscribe(lambda item: rejects.append(item[1:]) if isinstance(item, tuple) and item[0] == "reject" else None)

        def same():
            return (hp.seq, state_hash(hp.state)) == (gp.seq, state_hash(gp.state))

        start = (hp.seq, state_hash(hp.state))
        # The client contract refuses at once what the current state does not allow.
        with pytest.raises(IllegalAction):
            await guest.submit(Action(1, "end_turn"))
        with pytest.raises(IllegalAction):
            await guest.submit(Action(0, "ready"))
        with pytest.raises(IllegalAction):
            await watcher.submit(Action(0, "ready"))
        # Sent anyway (a modified client): the sequencer refuses them with the same reasons.
        p_illegal = gp.propose(Action(1, "end_turn"))
        p_foreign = gp.propose(Action(0, "ready"))
        # A proposal id of gp's own whose proposal never leaves (the fault seam), sent with an
        # action the engine does not know.
        gp.rt.faults.lose_sent = lambda msg: msg["t"] == "propose" and msg["x"][1] == "ready"
        p_unknown = gp.propose(Action(1, "ready"))
        gp.rt.faults.lose_sent = None
        _send_up(gp, _proposal(gp, p_unknown, [1, "fly", []]))
        await _until(lambda: len(rejects) == 3)
        by_pid = {pid: reason for pid, reason, _ in rejects}
        assert by_pid[p_illegal] == "phase/wrong"
        assert by_pid[p_foreign] == "net/not-your-seat"
        assert by_pid[p_unknown] == "action/unknown"
        assert (hp.seq, state_hash(hp.state)) == start and same()

        # A legal proposal is applied once; the same proposal again (a resend) is a duplicate.
        pid = gp.propose(Action(1, "ready"))
        await _until(lambda: gp.seq == start[0] + 1)
        gp.outstanding[pid] = (Action(1, "ready"), time.monotonic())
        _send_up(gp, _proposal(gp, pid, [1, "ready", []]))
        await _until(lambda: len(rejects) == 4)
        assert rejects[-1][:2] == (pid, "net/duplicate")
        # An old proposal id is refused too, even with a different action.
        gp.outstanding[p_illegal] = (Action(1, "ready"), time.monotonic())
        _send_up(gp, _proposal(gp, p_illegal, [1, "ready", []]))
        await _until(lambda: len(rejects) == 5)
        assert rejects[-1][:2] == (p_illegal, "net/duplicate")
        assert hp.seq == start[0] + 1 and hp.log.entries[-1].author == 1
        # A proposal signed with another key than the seat's (the header binds seat 1 to the
        # guest's), or not for what it says, is refused in words (net.signing) and changes nothing.
        gp.rt.faults.lose_sent = lambda msg: msg["t"] == "propose"  # the fault seam: they never leave
        p_forged, p_altered = gp.propose(Action(1, "end_turn")), gp.propose(Action(1, "end_turn"))
        gp.rt.faults.lose_sent = None
        _send_up(gp, _proposal(gp, p_forged, [1, "end_turn", []], signer=Signer(os.urandom(32).hex())))
        await _until(lambda: len(rejects) == 6)
        assert rejects[-1][:2] == (p_forged, "net/unsigned") and "the signature is not seat 1's" in rejects[-1][2]
        _send_up(gp, dict(_proposal(gp, p_altered, [1, "ready", []]), x=[1, "end_turn", []]))
        await _until(lambda: len(rejects) == 7)
        assert rejects[-1][:2] == (p_altered, "net/unsigned") and "or the action was altered" in rejects[-1][2]
        assert hp.seq == start[0] + 1 and same()

        # A spectator's proposal, sent by hand, is refused: it has no seat.
        wp = watcher.peer
        wrejects = []
        wp.subscribe(lambda item: wrejects.append(item[2]) if isinstance(item, tuple) and item[0] == "reject" else None)
        wp.outstanding[1] = (Action(0, "ready"), time.monotonic())
        _send_up(wp, _proposal(wp, 1, [0, "ready", []], seat=0))
        await _until(lambda: wrejects == ["net/watcher"])

        # Malformed input is dropped and counted; nothing changes and the game goes on.
        seq = hp.seq
        junk = [[b"\xc1\xc1"], [b"\x93\x01\x02"], [wire.pack({"t": "nope"})],
                [wire.pack({"t": "propose", "pid": "x", "x": []})],
                [wire.pack({"t": "propose", "pid": 99, "x": [1, "ready", [1.5]]})],
                [wire.pack({"t": "report", "hs": [["a", 1]]})], [b"a", b"b"],
                [wire.pack({"t": "kids", "seq": 1, "path": [], "ok": "leaf", "d": []})],
                [wire.pack({"t": "hello", "v": wire.PROTOCOL})]]
        dropped = sum(hp.drops.values())
        for parts in junk:
            transport.send(gp.dealer, parts)
        await _until(lambda: sum(hp.drops.values()) >= dropped + 7)
        await asyncio.sleep(0.05)
        assert hp.seq == seq and same()
        await host.submit(Action(0, "ready"))
        await _until(lambda: gp.seq == seq + 1 and wp.seq == seq + 1)
        assert same() and state_hash(wp.state) == state_hash(hp.state)
        for t in (watcher, guest, host):
            await t.close()

    asyncio.run(main())


def test_a_malformed_entry_from_the_sequencer_is_dropped_by_a_follower(tmp_path):
    async def main():
        host = await NetTable.host(Config(name="host", log_path=str(tmp_path / "h.mqlog")), seats=2)
        guest = await NetTable.join(Config(name="guest", log_path=str(tmp_path / "g.mqlog")), "127.0.0.1",
                                    host.peer.port)
        await _until(lambda: host.peer.open_seats() == 0)
        host.start()
        assert await guest.wait_started(5)
        hp, gp = host.peer, guest.peer
        rid = hp.seat_rid[1]
        before = sum(gp.drops.values())
        for msg in ({"t": "entries", "recs": [b"\x01\x02"]}, {"t": "entries", "recs": ["text"]},
                    {"t": "notice", "kind": "desync", "seat": None, "text": "fake"},
                    {"t": "tick", "head": -1}):
            _send_down(hp, rid, msg)
        await _until(lambda: sum(gp.drops.values()) >= before + 4)
        assert gp.phase == "game" and gp.seq == hp.seq
        for t in (guest, host):
            await t.close()

    asyncio.run(main())
