"""Fuzzing the log-file reader (net.gamelog) on a real game's log.

A short game is played through the real sequencer (one process: the host's bot and two table
bots), so the log is written by the real writer.  Then:

- (a) the log cut at every byte of its last three records, and at random offsets anywhere: the
  reader keeps exactly the complete records before the cut and reports the rest as a torn tail;
  opening it for writing truncates the tail and the lost entry, appended again, continues the chain;
- (b) bytes flipped in any record but the last: refused (LogCorrupt naming the record), never
  skipped; in the last record: a torn tail or a refusal, never the altered entry;
- (c) random files, random records with good CRCs, random headers: a Scan or LogCorrupt, nothing
  else, in bounded time; a crafted damaged tail that made the old reader search for minutes;
- kill -9 of a real writer process at random moments: every entry it acknowledged (synced) is there.

The hypothesis tests run ``MQ_FUZZ_EXAMPLES`` examples each if set (e.g. ``MQ_FUZZ_EXAMPLES=20000
python -m pytest tests/test_net_fuzz_log.py -p no:xdist -s``; ``-s`` prints how many inputs each
target got), otherwise a small default that keeps the file to a few seconds.
"""
from __future__ import annotations

import asyncio
import os
import random
import signal
import struct
import subprocess
import sys
import time
import zlib
from collections import Counter

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mq.rules import new_game
from mq.rules.state import COLOURS
from net import gamelog, wire
from net.client import NetTable, play_bot
from net.harness import ROOT
from net.peer import Config

EXAMPLES = int(os.environ.get("MQ_FUZZ_EXAMPLES", "0") or 0)
COUNTS: Counter = Counter()  # inputs per target (printed at the end with -s)


def fuzz(default: int):
    return settings(max_examples=EXAMPLES or default, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module", autouse=True)
def _report_counts():
    yield
    if COUNTS:
        print("\nfuzz inputs (log):", file=sys.stderr)
        for k, v in sorted(COUNTS.items()):
            print(f"  {v:8d}  {k}", file=sys.stderr)


# -- a real log -----------------------------------------------------------------------------------
def _play(path: str, entries: int = 60) -> None:
    """A real game through the sequencer, stopped after ``entries`` entries (or its end)."""
    async def main():
        table = await NetTable.host(Config(name="solo", log_path=path), seats=3, bots=2)
        bot = asyncio.create_task(play_bot(table))
        table.start()
        end = time.monotonic() + 30
        while table.peer.seq < entries and table.peer.phase not in ("ended", "desync", "closed"):
            assert time.monotonic() < end, "the bot game did not get going"
            await asyncio.sleep(0.01)
        bot.cancel()
        try:
            await bot
        except (asyncio.CancelledError, Exception):
            pass
        await table.close()
    asyncio.run(main())


def _frame(data: bytes) -> list[tuple[int, int]]:
    """(start, end) of each record: an independent reading of the framing (u32 len, u32 crc)."""
    assert data.startswith(gamelog.MAGIC)
    pos, out = len(gamelog.MAGIC), []
    while pos < len(data):
        length, crc = struct.unpack_from("<II", data, pos)
        end = pos + 8 + length
        assert end <= len(data) and zlib.crc32(data[pos + 8:end]) == crc
        out.append((pos, end))
        pos = end
    return out


class Real(tuple):
    """(log bytes, record spans), with a short repr for hypothesis' reports."""

    def __repr__(self) -> str:
        return f"<real log: {len(self[0])} bytes, {len(self[1])} records>"


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("fuzzlog") / "real.mqlog")
    _play(path)
    data = open(path, "rb").read()
    recs = _frame(data)
    s = gamelog.scan(data)
    assert s.torn == 0 and len(s.entries) == len(recs) - 1 >= 30
    return Real((data, recs))


def _expect_cut(data: bytes, recs, cut: int) -> None:
    """The reader on the first ``cut`` bytes: exactly the complete records, the rest torn."""
    s = gamelog.scan(data[:cut])
    complete = [r for r in recs if r[1] <= cut]
    if cut < len(gamelog.MAGIC):
        assert (s.header, s.entries, s.good_end, s.torn) == (None, [], 0, cut)
        return
    boundary = complete[-1][1] if complete else len(gamelog.MAGIC)
    assert s.good_end == boundary and s.torn == cut - boundary
    assert s.offsets == [a for a, _ in complete]
    assert (s.header is None) == (not complete)
    assert [e.raw for e in s.entries] == [data[a + 8:b] for a, b in complete[1:]]


# -- (a) torn tails -------------------------------------------------------------------------------
def test_a_cut_at_every_byte_of_the_last_three_records_keeps_exactly_the_records_before_it(real, tmp_path):
    data, recs = real
    start = recs[-3][0]
    for cut in range(start, len(data) + 1):
        _expect_cut(data, recs, cut)
        COUNTS["log (a): cut at every byte of the last 3 records"] += 1
    # Through the writer, for a sample of cuts: the torn tail is truncated (and synced), and the
    # entry that was torn, sent again, continues the chain: nothing before it was lost.
    cuts = sorted({start, start + 1, start + 7, start + 8, start + 9, len(data) - 1}
                  | set(range(start, len(data), 17)))
    for cut in cuts:
        p = str(tmp_path / f"cut{cut}.mqlog")
        with open(p, "wb") as f:
            f.write(data[:cut])
        complete = [r for r in recs if r[1] <= cut]
        lg = gamelog.GameLog.open(p)
        assert lg.truncated == cut - complete[-1][1] and lg.last_seq == len(complete) - 1
        if len(complete) < len(recs):
            a, b = recs[len(complete)]
            lg.append(gamelog.decode_entry(data[a + 8:b]))
        lg.close()
        assert open(p, "rb").read() == data[:recs[len(complete)][1] if len(complete) < len(recs) else len(data)]
        COUNTS["log (a): GameLog.open after a cut, then append"] += 1


@fuzz(300)
@given(st.data())
def test_a_cut_at_a_random_offset_keeps_exactly_the_records_before_it(real, data):
    raw, recs = real
    cut = data.draw(st.integers(0, len(raw)))
    _expect_cut(raw, recs, cut)
    COUNTS["log (a): cut at a random offset"] += 1


def test_a_torn_tail_followed_by_zeros_is_still_a_torn_tail(real):
    data, recs = real
    a, b = recs[-1]
    for cut in (a + 3, a + 8, (a + b) // 2):
        for zeros in (1, 8, 100, 5000):
            s = gamelog.scan(data[:cut] + b"\x00" * zeros)
            assert len(s.entries) == len(recs) - 2 and s.good_end == a
    s = gamelog.scan(data + b"\x00" * (2 << 20))  # a file that grew before its data landed
    assert len(s.entries) == len(recs) - 1 and s.torn == 2 << 20


# -- (b) damage -----------------------------------------------------------------------------------
@fuzz(300)
@given(st.data())
def test_b_a_flipped_byte_before_the_last_record_is_refused_never_skipped(real, data):
    raw, recs = real
    i = data.draw(st.integers(-1, len(recs) - 2), label="record (-1: the magic)")
    a, b = (0, len(gamelog.MAGIC)) if i < 0 else recs[i]
    pos = data.draw(st.integers(a, b - 1), label="byte")
    bad = bytearray(raw)
    bad[pos] ^= data.draw(st.integers(1, 255), label="xor")
    with pytest.raises(gamelog.LogCorrupt) as e:
        gamelog.scan(bytes(bad), "x")
    if i < 0:
        assert "bad magic" in str(e.value)
    else:
        assert f"damaged record at byte {a} (record {i})" in str(e.value)
    COUNTS["log (b): one byte flipped before the last record"] += 1


@fuzz(200)
@given(st.data())
def test_b_damage_in_the_last_record_is_a_torn_tail_or_refused_never_kept(real, data):
    raw, recs = real
    a, b = recs[-1]
    bad = bytearray(raw)
    for _ in range(data.draw(st.integers(1, 4))):
        bad[data.draw(st.integers(a, b - 1))] ^= data.draw(st.integers(1, 255))
    try:
        s = gamelog.scan(bytes(bad))
    except gamelog.LogCorrupt:
        COUNTS["log (b): damage in the last record (refused)"] += 1
        return
    if bytes(bad) == raw:
        return
    assert s.torn == b - a and s.good_end == a and len(s.entries) == len(recs) - 2
    COUNTS["log (b): damage in the last record (torn tail)"] += 1


@fuzz(300)
@given(st.data())
def test_b_several_damaged_bytes_before_the_last_record_are_refused(real, data):
    """Flips, inserted and deleted bytes anywhere before the last record: refused."""
    raw, recs = real
    last = recs[-1][0]  # where the (intact) last record starts, as edits shift it
    bad = bytearray(raw)
    edits = sorted({data.draw(st.integers(0, last - 1)) for _ in range(data.draw(st.integers(1, 6)))}, reverse=True)
    for pos in edits:  # from the end, so the offsets before each edit stay as they were
        kind = data.draw(st.sampled_from(["flip", "insert", "delete"]))
        if kind == "flip":
            bad[pos] ^= data.draw(st.integers(1, 255))
        elif kind == "insert":
            ins = data.draw(st.binary(min_size=1, max_size=8))
            bad[pos:pos] = ins
            last += len(ins)
        else:
            k = min(data.draw(st.integers(1, 8)), last - pos)
            del bad[pos:pos + k]
            last -= k
    assert bytes(bad[last:]) == raw[recs[-1][0]:]
    if bytes(bad) == raw:
        return
    with pytest.raises(gamelog.LogCorrupt):
        gamelog.scan(bytes(bad))
    COUNTS["log (b): flips/inserts/deletes before the last record"] += 1


@fuzz(200)
@given(st.data())
def test_b_damage_in_the_last_two_records_is_refused(real, data):
    """Not one torn record: the one before the last is complete and data follows it."""
    raw, recs = real
    (a, b), (c, d) = recs[-2], recs[-1]
    bad = bytearray(raw)
    bad[data.draw(st.integers(a + 8, b - 1))] ^= data.draw(st.integers(1, 255))  # its payload
    bad[data.draw(st.integers(c, d - 1))] ^= data.draw(st.integers(1, 255))  # anything in the last
    with pytest.raises(gamelog.LogCorrupt, match=f"record {len(recs) - 2}"):
        gamelog.scan(bytes(bad))
    COUNTS["log (b): damage in the last two records"] += 1


def test_b_records_dropped_repeated_or_swapped_in_the_middle_are_refused(real):
    raw, recs = real
    body = [raw[a:b] for a, b in recs]
    mid = len(body) // 2
    variants = {
        "dropped": body[:mid] + body[mid + 1:],
        "repeated": body[:mid + 1] + body[mid:],
        "swapped": body[:mid] + [body[mid + 1], body[mid]] + body[mid + 2:],
        "header twice": body[:1] + body,
        "no header": body[1:],
    }
    for what, parts in variants.items():
        with pytest.raises(gamelog.LogCorrupt, match="hash chain|holds entry|not an entry|not a log header"):
            gamelog.scan(gamelog.MAGIC + b"".join(parts))
        COUNTS["log (b): records dropped/repeated/swapped"] += 1


# -- (c) random files -----------------------------------------------------------------------------
def _check_scan(data: bytes) -> None:
    """Only a Scan or LogCorrupt; a Scan is self-consistent: numbered, chained, tail accounted."""
    t0 = time.perf_counter()
    try:
        s = gamelog.scan(data)
    except gamelog.LogCorrupt:
        return
    finally:
        assert time.perf_counter() - t0 < 5.0, "the reader took too long"
    assert s.good_end + s.torn == len(data)
    if s.header is not None:
        assert s.header.params.players == len(s.header.roster) <= len(COLOURS)
    prev = s.header.id if s.header else None
    for i, e in enumerate(s.entries, 1):
        assert e.n == i and e.prev == prev
        prev = e.id


def _record(payload: bytes) -> bytes:
    return struct.pack("<II", len(payload), zlib.crc32(payload)) + payload


_leaf = (st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1) | st.floats() | st.text(max_size=20)
         | st.binary(max_size=40) | st.sampled_from(["H", "Params", "male", "female", "peer", "bot", "wait"]))
_obj = st.recursive(_leaf, lambda c: st.lists(c, max_size=8) | st.dictionaries(st.text(max_size=4), c, max_size=4),
                    max_leaves=30)


@fuzz(300)
@given(st.binary(max_size=3000))
def test_c_random_bytes_are_refused_or_read(data):
    _check_scan(data)
    _check_scan(gamelog.MAGIC + data)
    COUNTS["log (c): random files (x2: with and without the magic)"] += 2


@fuzz(300)
@given(st.lists(st.binary(min_size=1, max_size=300), max_size=8), st.binary(max_size=40))
def test_c_random_records_with_good_crcs_are_refused_or_read(real, payloads, tail):
    raw, recs = real
    header = raw[:recs[0][1]]
    _check_scan(header + b"".join(_record(p) for p in payloads) + tail)
    COUNTS["log (c): real header + random CRC-valid records"] += 1


@fuzz(200)
@given(st.lists(_obj, min_size=1, max_size=6))
def test_c_random_msgpack_records_are_refused_or_read(real, objs):
    raw, recs = real
    payloads = []
    for o in objs:
        try:
            payloads.append(msgpack.packb(o, use_bin_type=True))
        except (ValueError, OverflowError, TypeError):
            continue
    header = raw[:recs[0][1]]
    _check_scan(header + b"".join(_record(p) for p in payloads))
    _check_scan(gamelog.MAGIC + b"".join(_record(p) for p in payloads))
    COUNTS["log (c): random msgpack records (x2: after the real header, and as the header)"] += 2


@fuzz(300)
@given(st.data())
def test_c_mutated_headers_are_refused_or_give_a_game_that_can_start(real, data):
    """A header with any field changed (CRC fixed): refused, or one a game can be started from."""
    raw, recs = real
    h = msgpack.unpackb(raw[recs[0][0] + 8:recs[0][1]])
    players = h[4]["f"][0]
    where = data.draw(st.sampled_from(["version", "game", "seed", "params", "field", "nonces", "roster"]))
    value = data.draw(_obj)
    if where == "version":
        h[1] = value
    elif where == "game":
        h[2] = value
    elif where == "seed":
        h[3] = value
    elif where == "params":
        h[4] = value
    elif where == "field":
        h[4]["f"][data.draw(st.integers(0, len(h[4]["f"]) - 1))] = data.draw(_obj | st.integers(-10, 200_000))
    elif where == "nonces":
        h[5] = value
    else:
        h[6] = data.draw(st.lists(st.lists(st.text(max_size=3), min_size=3, max_size=3), min_size=players - 1,
                                  max_size=players + 2))
    try:
        payload = msgpack.packb(h, use_bin_type=True)
    except (ValueError, OverflowError, TypeError):
        return
    try:
        header = gamelog.decode_header(payload)
    except wire.Malformed:
        COUNTS["log (c): mutated headers (refused)"] += 1
        return
    new_game(header.params, header.seed)  # a reader can start the game it describes
    assert len(header.roster) == header.params.players <= len(COLOURS)
    COUNTS["log (c): mutated headers (accepted, game starts)"] += 1


def test_c_a_crafted_damaged_tail_is_refused_in_bounded_time(real):
    """Lengths that all fit and never check out: the old reader CRCed ~every offset's 512 KiB
    (about 20 s for a 1 MiB tail, minutes for more); now the work is bounded."""
    raw, _ = real
    junk = struct.pack("<I", 512 << 10) * ((1 << 20) // 4 - 4)
    for tail in (junk[: 64 << 10], junk, junk * 8):
        t0 = time.perf_counter()
        with pytest.raises(gamelog.LogCorrupt):
            gamelog.scan(raw + b"\x07\x00\x00\x00" + tail)
        assert time.perf_counter() - t0 < 2.0
        COUNTS["log (c): crafted damaged tails"] += 1


# -- kill -9 of a real writer ---------------------------------------------------------------------
_WRITER = r"""
import sys
from net import gamelog
path, header_raw = sys.argv[1], bytes.fromhex(sys.argv[2])
lg = gamelog.GameLog.create(path)
lg.write_header(gamelog.decode_header(header_raw))
lg.sync()
n = 0
while True:
    n += 1
    lg.append(gamelog.decode_entry(gamelog.encode_entry(n, -1, None, [n % 3, "ready", ["x" * (n % 50)]], n,
                                                        lg.last_id, 8)))
    if n % 3 == 0:  # group commit: sync, then acknowledge
        lg.sync()
        print(n, flush=True)
"""


def test_kill_9_at_random_moments_loses_nothing_acknowledged(real, tmp_path):
    raw, recs = real
    header = raw[recs[0][0] + 8:recs[0][1]].hex()
    rng = random.Random(EXAMPLES or 7)
    for k in range(max(3, EXAMPLES // 2000)):
        p = str(tmp_path / f"kill{k}.mqlog")
        proc = subprocess.Popen([sys.executable, "-c", _WRITER, p, header], cwd=ROOT, stdout=subprocess.PIPE,
                                text=True)
        try:
            first = proc.stdout.readline()
            assert first.strip(), "the writer did not start"
            time.sleep(rng.uniform(0.0, 0.15))
        finally:
            proc.send_signal(signal.SIGKILL)
            out, _ = proc.communicate(timeout=10)
        acked = int((first + out).split()[-1])
        s = gamelog.read(p)
        assert len(s.entries) >= acked, (acked, len(s.entries), s.torn)
        lg = gamelog.GameLog.open(p)  # truncates a torn tail; the chain goes on
        lg.append(gamelog.decode_entry(gamelog.encode_entry(lg.last_seq + 1, -1, None, [0, "ready", []], 1,
                                                            lg.last_id, 8)))
        lg.close()
        assert gamelog.read(p).torn == 0
        COUNTS["log: kill -9 of a writer process"] += 1
