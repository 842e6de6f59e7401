"""The log file (net.gamelog) on real files, and ``mq replay --verify`` on a real game's log."""
from __future__ import annotations

import os
import struct
import subprocess
import sys
import zlib

import msgpack
import pytest
from drive import play_lan_game

from mq.rules import make_params
from net import gamelog
from net.harness import ROOT


def _header(players=2):
    nonces = [bytes([i]) * 32 for i in range(players)]
    raw = gamelog.encode_header(b"G" * 8, gamelog.seed_from(nonces), make_params(players), nonces,
                                [["a", "x" * 32, "peer"], ["b", "", "bot"]][:players], [bytes(32), b""][:players])
    return gamelog.decode_header(raw)


def _write_log(path, n=5):
    lg = gamelog.GameLog.create(path)
    lg.write_header(_header())
    for i in range(1, n + 1):
        lg.append(gamelog.decode_entry(gamelog.encode_entry(i, 0, None, [0, "ready", []], i, lg.last_id, 8)))
    lg.sync()
    lg.close()


def _records(path):
    """(offset, payload) of each record."""
    data = open(path, "rb").read()
    pos, out = len(gamelog.MAGIC), []
    while pos < len(data):
        length, _ = struct.unpack_from("<II", data, pos)
        out.append((pos, data[pos + 8:pos + 8 + length]))
        pos += 8 + length
    return out


def _rewrite(path, index, payload):
    """Replace record ``index`` with ``payload`` and a correct CRC (a deliberate, well-formed edit)."""
    data = bytearray(open(path, "rb").read())
    off, old = _records(path)[index]
    rec = struct.pack("<II", len(payload), zlib.crc32(payload)) + payload
    data[off:off + 8 + len(old)] = rec
    open(path, "wb").write(bytes(data))


def test_a_log_round_trips_header_entries_and_chain(tmp_path):
    p = str(tmp_path / "a.mqlog")
    _write_log(p, 5)
    s = gamelog.read(p)
    assert s.torn == 0 and [e.n for e in s.entries] == [1, 2, 3, 4, 5]
    assert s.entries[0].prev == s.header.id
    assert all(b.prev == a.id for a, b in zip(s.entries, s.entries[1:], strict=False))
    lg = gamelog.GameLog.open(p)
    lg.truncate_after(3)
    lg.close()
    assert [e.n for e in gamelog.read(p).entries] == [1, 2, 3]


@pytest.mark.parametrize("cut", [1, 7, 9, 20])
def test_a_torn_tail_is_dropped_when_opened(tmp_path, cut):
    p = str(tmp_path / "t.mqlog")
    _write_log(p, 5)
    size = os.path.getsize(p)
    last_off = _records(p)[-1][0]
    with open(p, "r+b") as f:
        f.truncate(max(last_off + 1, size - cut))
    assert gamelog.read(p).torn > 0  # reading reports it and changes nothing
    lg = gamelog.GameLog.open(p)
    assert lg.truncated > 0 and lg.last_seq == 4
    # Appending after the truncation continues the chain.
    lg.append(gamelog.decode_entry(gamelog.encode_entry(5, 1, None, [1, "ready", []], 9, lg.last_id, 8)))
    lg.close()
    assert os.path.getsize(p) > last_off and gamelog.read(p).torn == 0


def test_garbage_after_the_last_record_is_a_torn_tail(tmp_path):
    p = str(tmp_path / "g.mqlog")
    _write_log(p, 3)
    with open(p, "ab") as f:
        f.write(b"\x00" * 40)  # e.g. a crash after the file grew but before the data landed
    assert gamelog.GameLog.open(p).last_seq == 3


def test_corruption_in_the_middle_is_refused_not_skipped(tmp_path):
    p = str(tmp_path / "m.mqlog")
    _write_log(p, 5)
    off, payload = _records(p)[2]
    with open(p, "r+b") as f:
        f.seek(off + 8 + len(payload) // 2)
        f.write(b"\xff")
    with pytest.raises(gamelog.LogCorrupt, match="intact records after it"):
        gamelog.GameLog.open(p)
    with pytest.raises(gamelog.LogCorrupt):
        gamelog.read(p)


def test_a_well_formed_edit_breaks_the_hash_chain(tmp_path):
    p = str(tmp_path / "c.mqlog")
    _write_log(p, 5)
    _, payload = _records(p)[2]
    e = msgpack.unpackb(payload)
    e[3] = [0, "end_turn", []]
    _rewrite(p, 2, msgpack.packb(e))
    with pytest.raises(gamelog.LogCorrupt, match="hash chain"):
        gamelog.read(p)


def test_a_file_that_is_not_a_log_is_refused(tmp_path):
    p = tmp_path / "x.mqlog"
    p.write_bytes(b"hello world, not a log")
    with pytest.raises(gamelog.LogCorrupt, match="magic"):
        gamelog.read(str(p))


def _replay_cli(path):
    return subprocess.run([sys.executable, "-m", "net.cli", "replay", path, "--verify"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_replay_verify_passes_on_a_real_log_and_fails_on_tampered_ones(tmp_path):
    p = str(tmp_path / "real.mqlog")
    play_lan_game(p)
    out = _replay_cli(p)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "verify: ok" in out.stdout and "phase over" in out.stdout
    n = len(gamelog.read(p).entries)
    assert f"{n} entries" in out.stdout

    # The last entry's recorded hash changed (CRC fixed, so only the hash check can see it).
    last = str(tmp_path / "last.mqlog")
    open(last, "wb").write(open(p, "rb").read())
    _, payload = _records(last)[-1]
    e = msgpack.unpackb(payload)
    e[4] ^= 1
    _rewrite(last, len(_records(last)) - 1, msgpack.packb(e))
    out = _replay_cli(last)
    assert out.returncode == 1 and "state hash" in out.stdout and "verify: FAILED" in out.stdout

    # An action in the middle changed (chain broken after it).
    mid = str(tmp_path / "mid.mqlog")
    open(mid, "wb").write(open(p, "rb").read())
    _, payload = _records(mid)[n // 2]
    e = msgpack.unpackb(payload)
    kind = "pass" if e[3][1] == "end_turn" else "end_turn"  # a different action, whatever was there
    e[1], e[3] = -1, [e[3][0], kind, []]
    _rewrite(mid, n // 2, msgpack.packb(e))
    out = _replay_cli(mid)
    assert out.returncode == 1 and "hash chain" in out.stdout

    # A flipped bit in the middle, CRC untouched: refused as corruption.
    bit = str(tmp_path / "bit.mqlog")
    data = bytearray(open(p, "rb").read())
    data[len(data) // 2] ^= 0x10
    open(bit, "wb").write(bytes(data))
    out = _replay_cli(bit)
    assert out.returncode == 1 and "damaged record" in out.stdout


def test_replay_verify_says_whether_the_game_finished_and_what_it_left_out(tmp_path):
    """Issue 13 item 7: a log that passes may be of an unfinished game or have lost its last record
    to a crash, and the verdict says so; a last record whose every byte is there but whose check
    fails is damage (a flipped bit), not a torn write, and fails."""
    p = str(tmp_path / "real.mqlog")
    play_lan_game(p)
    data = open(p, "rb").read()
    n = len(gamelog.read(p).entries)
    out = _replay_cli(p)
    assert out.returncode == 0 and out.stdout.strip().endswith("verify: ok: the game finished"), out.stdout

    offsets = [off for off, _ in _records(p)]
    early = str(tmp_path / "early.mqlog")  # the same game stopped 10 entries before its end
    open(early, "wb").write(data[:offsets[n - 9]])
    out = _replay_cli(early)
    assert out.returncode == 0 and f"the game is unfinished (it stops at entry {n - 10})" in out.stdout, out.stdout

    torn = str(tmp_path / "torn.mqlog")  # the last record cut short, as by a crash while writing it
    open(torn, "wb").write(data[:-7])
    out = _replay_cli(torn)
    assert out.returncode == 0, out.stdout
    assert f"the game is unfinished (it stops at entry {n - 1})" in out.stdout
    assert "bytes of a last record cut short (a crash while it was written) left out" in out.stdout

    flip = str(tmp_path / "flip.mqlog")  # one bit flipped inside the last record: every byte is there
    damaged = bytearray(data)
    damaged[offsets[n] + 12] ^= 0x04
    open(flip, "wb").write(bytes(damaged))
    out = _replay_cli(flip)
    assert out.returncode == 1 and "whole but fails its check: damage" in out.stdout
    assert "verify: FAILED" in out.stdout


def test_entries_carry_their_epoch_and_protocol_2_entries_read_as_epoch_0(tmp_path):
    p = str(tmp_path / "e.mqlog")
    _write_log(p, 2)
    s = gamelog.read(p)
    assert [e.epoch for e in s.entries] == [8, 8]
    # The same entry numbered in another reign is another record: another id, so the chain parts.
    e1 = s.entries[0]
    other = gamelog.decode_entry(gamelog.encode_entry(1, e1.author, None, e1.action, e1.hash, e1.prev, 16))
    assert other.epoch == 16 and other.id != e1.id
    old = gamelog.decode_entry(msgpack.packb([1, 0, None, [0, "ready", []], 1, e1.prev], use_bin_type=True))
    assert old.epoch == 0 and old.n == 1
    with pytest.raises(gamelog.wire.Malformed):
        gamelog.decode_entry(gamelog.encode_entry(1, 0, None, [0, "ready", []], 1, e1.prev, -1))


def test_the_promise_beside_the_log_only_rises_and_survives_reopening(tmp_path):
    p = str(tmp_path / "p.mqlog")
    _write_log(p, 3)
    lg = gamelog.GameLog.open(p)
    assert lg.promise == 0 and lg.last_epoch == 8
    lg.raise_promise(17)
    lg.raise_promise(9)  # lower: no change
    assert lg.promise == 17
    lg.close()
    assert not os.path.exists(p + ".epoch.tmp")
    lg = gamelog.GameLog.open(p)
    assert lg.promise == 17
    lg.close()
    # A damaged promise is refused, never guessed at (a lower one could follow an old sequencer).
    with open(p + ".epoch", "r+b") as f:
        f.write(b"\x99")
    with pytest.raises(gamelog.LogCorrupt, match="epoch"):
        gamelog.GameLog.open(p)
    # A new log at that path starts without the old game's promise.
    lg = gamelog.GameLog.create(p)
    assert lg.promise == 0 and not os.path.exists(p + ".epoch")
    lg.close()


def test_a_log_whose_epochs_go_back_is_refused(tmp_path):
    p = str(tmp_path / "back.mqlog")
    lg = gamelog.GameLog.create(p)
    lg.write_header(_header())
    for n, epoch in ((1, 8), (2, 16), (3, 8)):  # entry 3 is of an older reign than entry 2
        lg.append(gamelog.decode_entry(gamelog.encode_entry(n, 0, None, [0, "ready", []], n, lg.last_id, epoch)))
    lg.close()
    with pytest.raises(gamelog.LogCorrupt, match="entry 3 is of an older epoch"):
        gamelog.read(p)


@pytest.mark.parametrize("version", [2, 3])
def test_logs_of_earlier_protocols_still_replay_and_verify(tmp_path, version):
    """Logs written before epochs (protocol 2: a 6-field entry) read as epoch 0 and replay; so do
    protocol-3 logs (the same records; protocol 4 changed a message, not the log)."""
    from mq.bots import choose
    from mq.cards import load_default
    from mq.rules import actors, codec, new_game, state_hash, step, view
    from mq.rules.actions import encode
    from net.replay import replay

    cards = load_default()
    nonces = [bytes([7]) * 32, bytes([9]) * 32]
    params = make_params(2)
    raw_header = msgpack.packb(["H", version, b"V" * 8, gamelog.seed_from(nonces), codec.encode(params), nonces,
                                [["a", "x" * 40, "peer"], ["b", "y" * 40, "peer"]]], use_bin_type=True)
    header = gamelog.decode_header(raw_header)
    assert header.version == version
    state = new_game(params, header.seed, cards)
    p = str(tmp_path / "v2.mqlog")
    lg = gamelog.GameLog.create(p)
    lg.write_header(header)
    for n in range(1, 31):
        seat = actors(state)[0]
        action = choose(view(state, seat), seat, cards)
        state, _ = step(state, action, cards)
        fields = [n, seat, None, encode(action), state_hash(state), lg.last_id] + ([8] if version == 3 else [])
        raw = msgpack.packb(fields, use_bin_type=True)
        lg.append(gamelog.decode_entry(raw))
    lg.close()
    s = gamelog.read(p)
    assert len(s.entries) == 30 and {e.epoch for e in s.entries} == {0 if version == 2 else 8}
    assert replay(p).ok


def test_a_classic_header_carries_its_mode_and_refuses_parameters_no_host_could_make():
    """C-OPT-3, C-OPT-2: a Classic game's parameters (the mode, Epic, the starting hand) are in the
    log header, so in every replay and hash; parameters make_params would not make are refused."""
    from mq.classic.state import ClassicParams
    from mq.rules import codec
    from net import wire

    nonces = [bytes([i]) * 32 for i in range(2)]
    roster = [["a", "x" * 32, "peer"], ["b", "", "bot"]]

    def header(params):
        raw = gamelog.encode_header(b"C" * 8, gamelog.seed_from(nonces), params, nonces, roster, [bytes(32), b""])
        return gamelog.decode_header(raw)

    for epic in (False, True):
        params = make_params(2, ("female", "rolled"), 2, mode="classic", epic=epic)
        assert header(params).params == params and wire.PARAMS(codec.encode(params))
    good = make_params(2, mode="classic")
    for bad in (good.replace(players=True), good.replace(start_door=3), good.replace(windows=2),
                good.replace(epic=1), ClassicParams(players=2, genders=("male", "robot"))):
        with pytest.raises(wire.Malformed):
            header(bad)
