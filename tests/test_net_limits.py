"""Connection limits (net.limits, net.transport; issue 13, "Connection limits"): the policy on its
own, and a real host whose ROUTER one address floods with connections while a player from another
address joins and plays."""
from __future__ import annotations

import os
import socket
import threading
import time

import pytest

from net import limits, transport
from net.harness import Cluster
from net.limits import ConnectionLimits


def test_an_address_gets_at_most_its_share():
    c = ConnectionLimits(per_address=2, total=10)
    assert [c.accepted(fd, "10.0.0.9") for fd in (3, 4, 5, 6)] == [None, None, 5, 6]
    assert c.accepted(7, "10.0.0.2") is None  # another address is not counted with it
    c.closed(3)
    assert c.accepted(8, "10.0.0.9") is None  # a slot freed by a close is free again
    assert sorted(c.open) == [4, 7, 8] and c.shut == 2


def test_at_the_total_the_busiest_address_gives_way_to_a_new_one():
    c = ConnectionLimits(per_address=3, total=4)
    for fd in (1, 2, 3):
        assert c.accepted(fd, "a") is None
    assert c.accepted(4, "b") is None
    assert c.accepted(5, "c") == 3  # the newest of the address holding the most
    assert c.accepted(6, "d") == 2
    assert c.open == {1: "a", 4: "b", 5: "c", 6: "d"}
    assert c.accepted(7, "e") == 7  # every address holds one: the newcomer waits
    assert len(c.open) == 4 and c.most == 4


def test_a_descriptor_number_seen_again_is_a_new_connection():
    c = ConnectionLimits(per_address=1, total=4)
    assert c.accepted(5, "a") is None
    assert c.accepted(5, "a") is None  # its close was not seen (reused number): not two from "a"
    assert c.open == {5: "a"} and c.by_address == {"a": 1}


def test_the_total_stays_below_the_descriptor_limit():
    assert limits.total_for(1024) == 1024 - limits.RESERVE
    assert limits.total_for(65_536) == limits.TOTAL_MAX
    assert limits.total_for(100) == limits.PER_ADDRESS
    assert limits.total_for(-1) == limits.TOTAL_MAX


class _Flood:
    """Keeps ``n`` idle TCP connections from ``source`` to 127.0.0.1:``port`` open, opening a new
    one for each that the host shuts (for at most ``seconds``); counts what it saw."""

    def __init__(self, source: str, port: int, n: int, seconds: float) -> None:
        self.source, self.port, self.n, self.until = source, port, n, time.monotonic() + seconds
        self.opened = self.shut = self.refused = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _connect(self) -> socket.socket | None:
        s = socket.socket()
        try:
            s.bind((self.source, 0))
            s.settimeout(5)
            s.connect(("127.0.0.1", self.port))
        except OSError:  # the host's listen backlog is full: again at the next round
            s.close()
            self.refused += 1
            return None
        s.setblocking(False)
        self.opened += 1
        return s

    def _run(self) -> None:
        socks = [self._connect() for _ in range(self.n)]
        try:
            while not self.stop.is_set() and time.monotonic() < self.until:
                for i, s in enumerate(socks):
                    if s is None:
                        socks[i] = self._connect()
                        continue
                    try:
                        while data := s.recv(4096):  # the ZMTP greeting, and then nothing
                            del data
                        gone = True  # b"": the host shut it
                    except BlockingIOError:
                        gone = False
                    except OSError:
                        gone = True
                    if gone:
                        self.shut += 1
                        s.close()
                        socks[i] = self._connect()
                time.sleep(0.05)
        finally:
            for s in socks:
                if s is not None:
                    s.close()


def _fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def _flooded_game(work: str, offset: int, what: str) -> None:
    """A host, 127.0.0.2 keeping 2,000 idle connections to its port + ``offset`` (0: the game's
    ROUTER, 1: the key service) open and reopening each one the host shuts, and a player from
    127.0.0.1 who joins (the key fetched with the join code) and plays a whole game meanwhile: the
    player gets in at once, and the host's descriptors stay within the caps."""
    if transport.raise_fd_limit(4096) < 2100:
        pytest.fail("this machine allows fewer than 2100 open files: the test cannot hold its connections")
    try:
        with socket.create_connection(("127.0.0.1", 9), timeout=1, source_address=("127.0.0.2", 0)):
            pass
    except ConnectionRefusedError:
        pass
    except OSError as e:
        pytest.fail(f"cannot connect from 127.0.0.2 ({e}): loopback is not 127.0.0.0/8 here")
    with Cluster(work) as c:
        host = c.host("--seats", "2", "--bot-delay", "0.01")
        assert c.code is not None  # the joiner learns the key from the key service and checks it
        quiet = _fds(host.p.pid)
        flood = _Flood("127.0.0.2", c.port + offset, 2000, 90)
        flood.thread.start()
        try:
            end = time.monotonic() + 30
            while flood.opened < 2000 and time.monotonic() < end and flood.thread.is_alive():
                time.sleep(0.05)
            assert flood.opened >= 2000, flood.opened
            samples = []
            t0 = time.monotonic()
            c.join(1)
            c.seat(1)  # welcomed: "joined game ... (seat 1)"
            joined_s = time.monotonic() - t0
            while c.procs[1].p.poll() is None and time.monotonic() < t0 + 90:
                samples.append(_fds(host.p.pid))
                time.sleep(0.1)
            assert flood.thread.is_alive()  # the flood went on all game long
        finally:
            flood.stop.set()
            flood.thread.join(10)
        codes = c.wait_all(30)
        assert codes == {0: 0, 1: 0}, {i: c.procs[i].err()[-2000:] for i in codes}
        assert c.summary(0) == c.summary(1)
        # The host keeps PER_ADDRESS flood connections (a descriptor each) and shuts the rest as
        # it hears of them: a burst is over its limit only for as long as that takes.
        samples.sort()
        median, most = samples[len(samples) // 2], samples[-1]
        # (+16: the player's own connection, the game log, the monitor's sockets come with the game)
        assert median - quiet <= limits.PER_ADDRESS + 16, (quiet, samples)
        assert most < limits.total_for(4096), samples
        assert flood.shut >= 2000 - limits.PER_ADDRESS  # (each counted when the flood next looks at it)
        assert joined_s < 10
        print(f"{what} flood: {flood.opened} connections opened ({flood.refused} refused by a full backlog), "
              f"{flood.shut} shut by the host; host descriptors {quiet} before, during the game median "
              f"{median}, at most {most}; the player joined in {joined_s:.2f} s")


def test_one_address_flooding_connections_keeps_no_player_from_another_out(tmp_path):
    """Issue 13 item 3: 2,000 idle connections from 127.0.0.2 to the game's port, reopened as fast
    as the host shuts them, while a player from 127.0.0.1 joins and plays a whole game: the host
    keeps at most PER_ADDRESS of them (its descriptors stay far below its limit) and the player gets
    in at once."""
    _flooded_game(str(tmp_path), 0, "game port")


def test_the_key_service_keeps_the_same_caps_under_a_flood(tmp_path):
    """Issue 13 item 3, the key service (port + 1): the same flood on it (each connection reopened
    as soon as it has its answer or is shut), while the player asks it for the host's key."""
    _flooded_game(str(tmp_path), 1, "key service")
