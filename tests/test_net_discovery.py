"""LAN beacons (net.discovery) go only out of the interfaces the game listens on, and a loopback
game sends none.  Checked on made-up interface lists, then for real: ``mq host`` in a private
network namespace of its own (``unshare -n``) with two veth pairs, the beacons counted with packet
sockets on the far ends; that namespace has no link to anything, so nothing leaves the machine."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from net import discovery
from net.discovery import Interface, targets

ROOT = Path(__file__).resolve().parent.parent
LO = Interface("lo", "127.0.0.1", "", loopback=True, up=True)
ETH = Interface("eth0", "192.168.1.20", "192.168.1.255", loopback=False, up=True)
WIFI = Interface("wlan0", "10.0.0.7", "10.0.0.255", loopback=False, up=True)
DOWN = Interface("eth1", "172.16.0.2", "172.16.0.255", loopback=False, up=False)
PPP = Interface("tun0", "10.8.0.2", "", loopback=False, up=True)  # point-to-point: no broadcast
ALL = [LO, ETH, WIFI, DOWN, PPP]


def test_beacons_go_out_of_the_interfaces_the_game_listens_on(monkeypatch):
    monkeypatch.delenv("MQ_BEACON_ADDR", raising=False)
    assert targets("0.0.0.0", ALL) == [("192.168.1.20", "192.168.1.255"), ("10.0.0.7", "10.0.0.255")]
    assert targets("10.0.0.7", ALL) == [("10.0.0.7", "10.0.0.255")]
    assert targets("172.16.0.2", ALL) == []  # that interface is down
    for loopback in ("127.0.0.1", "127.3.4.5", "::1", "localhost"):
        assert targets(loopback, ALL) == []  # mq play, --bind 127.0.0.1: never a LAN beacon


def test_the_beacon_address_override_never_takes_a_loopback_game_onto_the_lan(monkeypatch):
    monkeypatch.setenv("MQ_BEACON_ADDR", "127.0.0.1")  # what the tests use
    assert targets("127.0.0.1", ALL) == [("", "127.0.0.1")]
    assert targets("0.0.0.0", ALL) == [("", "127.0.0.1")]
    monkeypatch.setenv("MQ_BEACON_ADDR", "192.168.1.255")
    assert targets("127.0.0.1", ALL) == []
    assert targets("0.0.0.0", ALL) == [("", "192.168.1.255")]


def test_this_machines_interfaces_are_read():
    found = discovery.local_interfaces()
    assert found is not None and any(i.loopback and i.address == "127.0.0.1" for i in found), found


# Runs inside the private namespace: two veth pairs (va-vb on 10.77.0.0/24, vc-vd on
# 10.78.0.0/24), packet sockets on vb, vd and lo counting UDP datagrams to the beacon port while
# `mq host --bind BIND` runs for a few seconds; prints {bind: {device: [(source, destination)]}}.
LAB = r"""
import json, os, select, socket, struct, subprocess, sys, time
def ip(*a): subprocess.run(["ip", *a], check=True)
ip("link", "set", "lo", "up")
for a, b, net in (("va", "vb", "10.77.0"), ("vc", "vd", "10.78.0")):
    ip("link", "add", a, "type", "veth", "peer", "name", b)
    ip("addr", "add", f"{net}.1/24", "brd", "+", "dev", a)
    ip("link", "set", a, "up"); ip("link", "set", b, "up")
time.sleep(0.5)  # the links come up
env = {k: v for k, v in os.environ.items() if k != "MQ_BEACON_ADDR"}
out = {}
for bind in sys.argv[1:]:
    socks = {}
    for dev in ("vb", "vd", "lo"):
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
        s.bind((dev, 0)); s.setblocking(False); socks[s] = dev
    host = subprocess.Popen([sys.executable, "-m", "mq.cli", "host", "--bind", bind, "--port", "0",
                             "--seats", "2", "--headless", "--bot", "--timeout", "3.5"],
                            env=dict(env, MQ_HOME=os.path.join(os.getcwd(), bind)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen = {dev: [] for dev in socks.values()}
    # Counted over the host's whole life (it gives up after its --timeout), not a fixed window from
    # its start: a loaded machine can spend seconds importing before the first beacon.
    end = time.monotonic() + 60  # a bound, should the host never give up
    while time.monotonic() < end and host.poll() is None:
        for s in select.select(list(socks), [], [], 0.1)[0]:
            frame, addr = s.recvfrom(65535)
            if addr[2] == socket.PACKET_OUTGOING and socks[s] != "lo":
                continue  # on vb and vd: what arrives from the game's side
            pkt = frame[14:] if frame[12:14] == b"\x08\x00" else b""  # an Ethernet frame of IPv4
            if len(pkt) >= 28 and pkt[9] == 17:  # IPv4, UDP
                ihl = (pkt[0] & 15) * 4
                if struct.unpack("!H", pkt[ihl + 2:ihl + 4])[0] == 47401:
                    seen[socks[s]].append((socket.inet_ntoa(pkt[12:16]), socket.inet_ntoa(pkt[16:20])))
    host.wait(20)
    for s in socks: s.close()
    out[bind] = seen
print(json.dumps(out))
"""


def test_a_real_host_beacons_only_where_it_listens(tmp_path):
    unshare = shutil.which("unshare")
    if unshare is None or shutil.which("ip") is None:
        pytest.skip("needs unshare and ip (util-linux, iproute2)")
    probe = subprocess.run([unshare, "-n", "true"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"cannot make a network namespace here: {probe.stderr.strip()}")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.run([unshare, "-n", sys.executable, "-c", LAB, "127.0.0.1", "10.77.0.1", "0.0.0.0"],
                         cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout)
    assert seen["127.0.0.1"] == {"vb": [], "vd": [], "lo": []}, seen  # a loopback game: not one beacon
    one = seen["10.77.0.1"]
    assert one["vb"] and set(map(tuple, one["vb"])) == {("10.77.0.1", "10.77.0.255")}, one
    assert one["vd"] == [], one  # not out of the interface it does not listen on
    every = seen["0.0.0.0"]
    assert set(map(tuple, every["vb"])) == {("10.77.0.1", "10.77.0.255")}, every
    assert set(map(tuple, every["vd"])) == {("10.78.0.1", "10.78.0.255")}, every
