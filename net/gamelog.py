"""The action log on disk: one file per peer, appended as entries are applied.

File format (docs/net.md has the byte layout)::

    b"MQLOG\\x00\\x01\\n"                       8-byte magic + format version
    record*                                   u32 length, u32 CRC32 of payload (little endian), payload

Record 0 is the *header* (msgpack list: "H", protocol, game id, seed, params, nonces, roster,
signers); record n >= 1 is *entry n* (msgpack list: n, author, pid, action, state hash, prev, epoch,
action signature, entry signature, certificate).  ``prev`` of entry 1 is the header's id; the id of a record is
BLAKE2b-128 of its payload bytes.  So the ids form a hash chain: two logs that agree on the id of
their last entry agree on everything before it.  ``epoch`` is the reign of the sequencer that
numbered the entry (net.peer, docs/net.md "Epochs"); entries of protocol-2 logs have none and read
as epoch 0.

Signed history (protocol 6 on, :attr:`Header.signed`; net.signing): ``signers`` holds each seat's
Ed25519 public key (empty for a seat the table plays), bound to the seat when the header is made;
each entry carries its author's signature of the action (nil for the table's) and the signature
of the sequencer of its epoch (the seat ``epoch % 8``, net.election).  Logs of protocols 2 to 5
have neither and read as unsigned (net.replica takes them as they are; ``mq replay`` says so).
Certified reigns (protocol 7 on, :attr:`Header.certified`): every entry has a tenth field, nil but
in the first entry of a reign, where it is the reign's certificate: ``[[seat, promise signature],
...]``, a quorum's signed promises of its epoch (net.signing, net.replica.check_certificate).
Protocol-6 entries have nine fields.  This module checks their shape only; net.replica checks the
signatures and the certificates.

Beside the log, ``<log>.epoch`` holds the peer's *promise*: the highest sequencer epoch it has
followed or been.  It is replaced atomically (write, fsync, rename, fsync of the directory), so it
is either the old value or the new one after a crash, never torn.

Invariants:
- Payloads are lists, never maps, so every peer writes the same bytes for the same entry; entries
  travel over the wire as these exact payload bytes and are stored verbatim (logs are byte-identical).
- Opening a log checks every record's CRC, the entry numbering, the chain, that epochs never go
  back (a later reign appends after an earlier one), and that the header's parameters are ones a
  host could have made.  A damaged *last* record with nothing valid after it
  is a torn write: it is reported and (when opened for writing) truncated away.  Damage with valid
  records after it, or more damage than one torn record can leave, is corruption: :class:`LogCorrupt`,
  never skipped, because a gap in the middle would silently change the game (:func:`_check_torn`).
  Reading any file costs time linear in its size: looking past damage is bounded (SEARCH_BUDGET).
- fsync policy: :meth:`GameLog.append` writes the whole record with one ``write`` (in the OS page cache
  at once); :meth:`GameLog.sync` makes everything appended so far durable with ``fdatasync``.  The
  sequencer syncs once per batch it sends, right after sending it (an entry is acknowledged once a
  quorum holds it, so its machine alone can lose nothing acknowledged); other peers sync once per
  received batch before reporting their hash (group commit).
"""
from __future__ import annotations

import hashlib
import os
import struct
import zlib
from dataclasses import dataclass
from typing import Any

import msgpack

from mq.rules import IllegalAction, Params, check_params, decode_params
from mq.rules import codec as state_codec
from net import wire

MAGIC = b"MQLOG\x00\x01\n"
READABLE = (2, 3, 4, 5, 6, wire.PROTOCOL)  # header protocols this reader accepts (2: entries without an epoch)
SIGNED = 6  # the first header protocol whose logs are signed (signers in the header, signatures in entries)
CERTIFIED = 7  # the first whose reigns carry certificates (a quorum's signed promises, in their first entry)
_PROMISE = struct.Struct("<QI")  # <log>.epoch: the promise, CRC-32 of those 8 bytes
_REC = struct.Struct("<II")
MAX_RECORD = wire.MAX_MESSAGE


class LogCorrupt(Exception):
    """The log is damaged before its last record, or is not an mq log: refused."""


def record_id(payload: bytes) -> bytes:
    return hashlib.blake2b(payload, digest_size=16).digest()


@dataclass(frozen=True)
class Header:
    version: int
    game: bytes
    seed: int
    params: Params
    nonces: tuple[bytes, ...]
    roster: tuple[tuple[str, str, str], ...]  # per seat: (name, identity, "human" | "bot")
    raw: bytes
    id: bytes
    signers: tuple[bytes, ...] = ()  # per seat: its Ed25519 public key (b"": the table's seat); () unsigned

    @property
    def signed(self) -> bool:
        """A log of signed history (protocol 6 on): every entry must carry valid signatures."""
        return self.version >= SIGNED

    @property
    def certified(self) -> bool:
        """A log whose reigns carry certificates (protocol 7 on): every entry has the certificate
        field, and the first entry of every reign but the host's first holds a quorum's promises."""
        return self.version >= CERTIFIED


@dataclass(frozen=True)
class Entry:
    n: int
    author: int
    pid: tuple[bytes, int] | None  # (proposer incarnation, its counter); None for table entries
    action: list  # mq.rules.actions.encode form
    hash: int  # state hash after applying this entry (the sequencer's)
    prev: bytes
    raw: bytes
    id: bytes
    epoch: int = 0  # the reign of the sequencer that numbered it (0: a protocol-2 log)
    asig: bytes | None = None  # the author's signature of the action (None: the table's, or unsigned)
    ssig: bytes | None = None  # the signature of the sequencer that numbered it (None: unsigned)
    cert: tuple[tuple[int, bytes], ...] | None = None  # the reign's certificate: (seat, promise signature)
    fields: int = 10  # how many fields the record has (6, 7: older logs; 9: protocol 6; 10: protocol 7 on)


def seed_from(nonces) -> int:
    """The game seed: SHA-256 of all revealed nonces in seat order, first 64 bits."""
    return int.from_bytes(hashlib.sha256(b"".join(nonces)).digest()[:8], "big")


def encode_header(game: bytes, seed: int, params: Params, nonces, roster, signers) -> bytes:
    return msgpack.packb(["H", wire.PROTOCOL, game, seed, state_codec.encode(params), list(nonces),
                          [list(r) for r in roster], list(signers)], use_bin_type=True)


def decode_header(raw: bytes) -> Header:
    """Parse and check a header payload; raises wire.Malformed."""
    d = wire.unpack_any(raw)
    if type(d) is not list or len(d) not in (7, 8) or d[0] != "H":
        raise wire.Malformed("not a log header")
    _, version, game, seed, params, nonces, roster = d[:7]
    if version not in READABLE:
        raise wire.Malformed(f"log protocol {version!r}, this mq speaks {wire.PROTOCOL}")
    if len(d) != (8 if version >= SIGNED else 7):
        raise wire.Malformed("header: signers where they do not belong, or none where they do")
    if type(game) is not bytes or len(game) != 8 or not wire.U64(seed):
        raise wire.Malformed("header: bad game id or seed")
    try:
        p = decode_params(params)
    except Exception:
        raise wire.Malformed("header: bad params") from None
    if not _valid_params(p):
        raise wire.Malformed("header: bad params")
    if (type(nonces) is not list or not all(type(x) is bytes and len(x) == 32 for x in nonces)
            or type(roster) is not list or len(roster) != p.players
            or not all(type(r) is list and len(r) == 3 and all(type(f) is str for f in r) for r in roster)):
        raise wire.Malformed("header: bad nonces or roster")
    if seed_from(nonces) != seed:
        raise wire.Malformed("header: the seed is not the hash of the nonces")
    signers = d[7] if len(d) == 8 else []
    if type(signers) is not list or (version >= SIGNED and (len(signers) != len(roster) or not all(
            type(k) is bytes and len(k) == (32 if r[2] == "peer" else 0) for k, r in zip(signers, roster)))):
        raise wire.Malformed("header: every player's seat needs its signing key (32 bytes), no other seat one")
    return Header(version, game, seed, p, tuple(nonces), tuple(tuple(r) for r in roster), raw, record_id(raw),
                  tuple(signers))


def _valid_params(p: Any) -> bool:
    """Parameters a host could have made, in either mode (mq.rules.check_params: so every log
    reader can start the game from them: 2 to 6 players, valid options, ints where ints belong)."""
    try:
        check_params(p)
    except IllegalAction:
        return False
    return True


Cert = list[tuple[int, bytes]]  # a reign's certificate as it is written: (seat, promise signature), by seat


def encode_entry(n: int, author: int, pid, action: list, h: int, prev: bytes, epoch: int,
                 asig: bytes | None = None, ssig: bytes | None = None, cert: Cert | None = None,
                 certified: bool = True) -> bytes:
    """An entry's payload; with ``ssig`` (a signed log's entry) the signatures too, and then, in a
    log of certified reigns (``certified``: protocol 7 on), the certificate (nil but in the first
    entry of a reign)."""
    fields = [n, author, list(pid) if pid else None, action, h, prev, epoch]
    if ssig is not None:
        fields += [asig, ssig]
        if certified:
            fields.append(None if cert is None else [[s, sig] for s, sig in cert])
    return msgpack.packb(fields, use_bin_type=True)


def signed_entry(sequencer, game: bytes, n: int, author: int, pid, action: list, h: int, prev: bytes, epoch: int,
                 asig: bytes | None, cert: Cert | None = None) -> bytes:
    """A signed log's entry payload: with ``asig``, its author's signature of the action (None for
    the table's), signed by ``sequencer`` (a net.signing.Signer) as the sequencer of ``epoch``;
    ``cert``: the reign's certificate, in its first entry."""
    ssig = sequencer.sign_entry(game, n, epoch, prev, action, author)
    return encode_entry(n, author, pid, action, h, prev, epoch, asig, ssig, cert)


def decode_entry(raw: bytes) -> Entry:
    """Parse and check the shape of an entry payload; raises wire.Malformed (the action's shape is
    checked here, wire.ACTION; its meaning by mq.rules.actions.decode where it is applied)."""
    d = wire.unpack_any(raw)
    if type(d) is not list or len(d) not in (6, 7, 9, 10) or type(d[0]) is not int:
        raise wire.Malformed("not an entry")
    n, author, pid, action, h, prev = d[:6]
    epoch = d[6] if len(d) >= 7 else 0
    asig, ssig = d[7:9] if len(d) >= 9 else (None, None)
    if len(d) >= 9 and not (type(ssig) is bytes and len(ssig) == 64 and (asig is None or (
            type(asig) is bytes and len(asig) == 64))):
        raise wire.Malformed("entry: a signature is not 64 bytes")
    cert = _cert(d[9]) if len(d) == 10 else None
    if not (wire.SEQ(n) and n >= 1 and wire.AUTHOR(author) and wire.U64(h) and wire.ID16(prev)
            and wire.EPOCH(epoch)):
        raise wire.Malformed("entry: bad seq, author, hash, prev or epoch")
    if pid is not None:
        if not (type(pid) is list and len(pid) == 2 and type(pid[0]) is bytes and len(pid[0]) == 8
                and wire.PID(pid[1])):  # the same bound as a proposal's on the wire
            raise wire.Malformed("entry: bad pid")
        pid = (pid[0], pid[1])
    if not wire.ACTION(action):
        raise wire.Malformed("entry: bad action")
    return Entry(n, author, pid, action, h, prev, raw, record_id(raw), epoch, asig, ssig, cert, len(d))


def _cert(c: Any) -> tuple[tuple[int, bytes], ...] | None:
    """A certificate's shape: nil, or [seat, 64-byte signature] pairs, seats ascending (so one set
    of promises has one encoding); what they prove is net.replica's to check."""
    if c is None:
        return None
    if not (type(c) is list and 1 <= len(c) <= wire.MAX_SEATS and all(
            type(x) is list and len(x) == 2 and wire.SEAT(x[0]) and type(x[1]) is bytes and len(x[1]) == 64
            for x in c) and all(a[0] < b[0] for a, b in zip(c, c[1:]))):
        raise wire.Malformed("entry: a certificate is [seat, 64-byte signature] pairs, seats ascending")
    return tuple((s, sig) for s, sig in c)


@dataclass
class Scan:
    """What reading a log file found."""

    header: Header | None
    entries: list[Entry]
    good_end: int  # file offset just after the last good record
    offsets: list[int]  # offsets[i] = start of record i (0 = header)
    torn: int  # bytes of torn tail after good_end (0 when clean)


# Looking past a damaged record for intact ones costs a CRC per plausible start; a torn tail is one
# record at most, so a real one needs little of this.  A damaged region that would need more is
# refused rather than searched for ever.
SEARCH_BUDGET = 64 << 20  # bytes of CRC


def _record_at(data: bytes, pos: int) -> tuple[bytes, int] | None:
    """The payload at ``pos`` and the offset after it, or None if no intact record starts there."""
    if pos + _REC.size > len(data):
        return None
    length, crc = _REC.unpack_from(data, pos)
    end = pos + _REC.size + length
    if length == 0 or length > MAX_RECORD or end > len(data):
        return None
    payload = data[pos + _REC.size:end]
    if zlib.crc32(payload) != crc:
        return None
    return payload, end


def _check_torn(data: bytes, pos: int, what: str) -> None:
    """The record at ``pos`` is not intact: return if it can be a torn tail, else raise LogCorrupt.

    Each record is one ``pwrite`` appended after the last, so a crash (kill -9, or power loss on a
    file system that zero-fills what did not land) leaves at most the last record torn: a prefix of
    it, perhaps with zeros in place of bytes that did not land.  So: all zero bytes are torn; a
    damaged region longer than one record, a length no record has, an intact record anywhere after
    ``pos``, or bytes other than zeros after the end its length field names are corruption."""
    rest = len(data) - pos
    if data.count(0, pos) == rest:
        return
    length = _REC.unpack_from(data, pos)[0] if rest >= _REC.size else 0
    end = pos + _REC.size + length
    sane = 0 < length <= MAX_RECORD
    if sane and end < len(data) and _record_at(data, end) is not None:
        raise LogCorrupt(f"{what} with intact records after it")
    if length > MAX_RECORD:
        raise LogCorrupt(f"{what}: a length of {length} bytes, more than any record")
    if rest > _REC.size + MAX_RECORD:
        raise LogCorrupt(f"{what} with {rest} bytes after it: more than one record, not a torn write")
    view = memoryview(data)
    budget = SEARCH_BUDGET
    for q in range(pos + 1, len(data) - _REC.size):
        n, crc = _REC.unpack_from(data, q)
        e = q + _REC.size + n
        if n == 0 or n > MAX_RECORD or e > len(data):
            continue
        budget -= n
        if budget < 0:
            raise LogCorrupt(f"{what}: too much damage to tell a torn tail from corruption")
        if zlib.crc32(view[q + _REC.size:e]) == crc:
            raise LogCorrupt(f"{what} with intact records after it")
    if sane and end < len(data) and data.count(0, end) != len(data) - end:
        raise LogCorrupt(f"{what} with {len(data) - end} more bytes after it: not a torn write")


def damaged_not_torn(data: bytes, pos: int) -> bool:
    """Whether the not-intact record at ``pos`` (a torn tail, as far as :func:`scan` can tell) is
    more likely damage than a write a crash cut short: its length field and every byte it names are
    there, with no run of zeros where a block did not land, yet its check fails."""
    if len(data) - pos < _REC.size:
        return False
    length = _REC.unpack_from(data, pos)[0]
    end = pos + _REC.size + length
    return 0 < length <= MAX_RECORD and end <= len(data) and bytes(16) not in data[pos:end]


def scan(data: bytes, where: str = "log") -> Scan:
    """Check a whole log image; raises LogCorrupt for anything but a torn last record."""
    if not data.startswith(MAGIC):
        if len(data) < len(MAGIC) and MAGIC.startswith(data):
            return Scan(None, [], 0, [], len(data))  # torn while writing the magic itself
        raise LogCorrupt(f"{where}: not an mq log (bad magic)")
    pos = len(MAGIC)
    header: Header | None = None
    entries: list[Entry] = []
    offsets: list[int] = []
    while pos < len(data):
        rec = _record_at(data, pos)
        if rec is None:
            _check_torn(data, pos, f"{where}: damaged record at byte {pos} (record {len(offsets)})")
            return Scan(header, entries, pos, offsets, len(data) - pos)
        payload, end = rec
        index = len(offsets)
        try:
            if index == 0:
                header = decode_header(payload)
            else:
                e = decode_entry(payload)
                if header is None:  # index 0 decoded a header or raised
                    raise LogCorrupt(f"{where}: entry before the header")
                prev_id = entries[-1].id if entries else header.id
                if e.n != index:
                    raise LogCorrupt(f"{where}: record {index} holds entry {e.n}")
                if e.prev != prev_id:
                    raise LogCorrupt(f"{where}: entry {e.n} breaks the hash chain")
                if entries and e.epoch < entries[-1].epoch:
                    raise LogCorrupt(f"{where}: entry {e.n} is of an older epoch than entry {e.n - 1}")
                entries.append(e)
        except wire.Malformed as m:
            raise LogCorrupt(f"{where}: record {index}: {m}") from None
        offsets.append(pos)
        pos = end
    return Scan(header, entries, pos, offsets, 0)


def read(path: str) -> Scan:
    """Read-only check of a log file (a torn tail is reported in ``Scan.torn``, not removed)."""
    with open(path, "rb") as f:
        return scan(f.read(), path)


class GameLog:
    """An open, writable log: :meth:`create` a new one or :meth:`open` an existing one (which
    truncates a torn tail)."""

    def __init__(self, path: str, fd: int, s: Scan, promise: int = 0) -> None:
        self.path = path
        self._fd = fd
        self.header = s.header
        self.entries = s.entries
        self._offsets = s.offsets
        self._end = s.good_end
        self._dirty = False
        self.truncated = s.torn  # bytes of torn tail removed when opened
        self.promise = promise  # the highest sequencer epoch followed or been (``<log>.epoch``)

    @property
    def last_epoch(self) -> int:
        """The epoch of the last entry (0 for none): with ``last_seq``, how up to date the log is."""
        return self.entries[-1].epoch if self.entries else 0

    def raise_promise(self, epoch: int) -> None:
        """Durably promise ``epoch``: never follow a sequencer of a lower one (no-op if not higher)."""
        if epoch <= self.promise:
            return
        tmp = self.path + ".epoch.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            data = epoch.to_bytes(8, "little")
            os.write(fd, _PROMISE.pack(epoch, zlib.crc32(data)))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, self.path + ".epoch")
        _sync_dir(self.path)
        self.promise = epoch

    @classmethod
    def create(cls, path: str) -> "GameLog":
        """A new, empty log (an existing file at ``path`` is replaced)."""
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        if os.path.exists(path + ".epoch"):  # a promise about the game this file held before
            os.unlink(path + ".epoch")
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
        os.write(fd, MAGIC)
        os.fsync(fd)
        return cls(path, fd, Scan(None, [], len(MAGIC), [], 0))

    @classmethod
    def open(cls, path: str) -> "GameLog":
        """Open an existing log for appending; a torn tail is truncated (and fsynced) first."""
        fd = os.open(path, os.O_RDWR)
        try:
            size = os.fstat(fd).st_size
            data = os.pread(fd, size, 0)
            s = scan(data, path)
            if s.torn:
                if s.good_end == 0:  # even the magic was torn
                    os.pwrite(fd, MAGIC, 0)
                    s.good_end = len(MAGIC)
                os.ftruncate(fd, s.good_end)
                os.fsync(fd)
            promise = _read_promise(path)
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd, s, promise)

    @property
    def last_seq(self) -> int:
        return len(self.entries)

    @property
    def last_id(self) -> bytes:
        """The id the next entry must name as ``prev``."""
        return self.entries[-1].id if self.entries else self.header_id

    @property
    def header_id(self) -> bytes:
        """The header's id: what entry 1 names as ``prev``."""
        if self.header is None:
            raise ValueError("the log has no header yet")
        return self.header.id

    def id_at(self, seq: int) -> bytes:
        return self.header_id if seq == 0 else self.entries[seq - 1].id

    def _write(self, payload: bytes) -> None:
        rec = _REC.pack(len(payload), zlib.crc32(payload)) + payload
        # One pwrite per record: a crash leaves at most this record torn.
        written = os.pwrite(self._fd, rec, self._end)
        if written != len(rec):
            raise OSError(f"{self.path}: short write")
        self._offsets.append(self._end)
        self._end += len(rec)
        self._dirty = True

    def write_header(self, header: Header) -> None:
        if self.header is not None or self.entries:
            raise ValueError("the log already has a header")
        self._write(header.raw)
        self.header = header

    def append(self, entry: Entry) -> None:
        """Append entry ``last_seq + 1``; its chain link must match (checked, never trusted)."""
        if entry.n != self.last_seq + 1 or entry.prev != self.last_id:
            raise ValueError(f"entry {entry.n} does not follow entry {self.last_seq}")
        self._write(entry.raw)
        self.entries.append(entry)

    def sync(self) -> None:
        """Make every appended record durable (fdatasync), if anything was appended since."""
        if self._dirty:
            os.fdatasync(self._fd)
            self._dirty = False

    def truncate_after(self, seq: int) -> None:
        """Drop entries after ``seq`` (a peer rewinding to the sequencer's history)."""
        if seq >= self.last_seq:
            return
        self._end = self._offsets[seq + 1]
        del self._offsets[seq + 1:]
        del self.entries[seq:]
        os.ftruncate(self._fd, self._end)
        os.fsync(self._fd)
        self._dirty = False

    @property
    def synced(self) -> bool:
        """Every appended record is durable (no fdatasync owed)."""
        return not self._dirty

    def abandon(self, cut=None) -> int:
        """Close without a sync, as a process that dies does (the simulation's crashes): what was
        written stays in the page cache.  ``cut(start, end)``: power is lost too, and the last
        record, if not synced yet, is cut at the offset it returns (start <= offset < end).
        Returns the bytes cut off."""
        if self._fd < 0:
            return 0
        torn = 0
        if cut is not None and self._dirty and self.entries:
            at = cut(self._offsets[-1], self._end)
            torn = self._end - at
            os.ftruncate(self._fd, at)
        os.close(self._fd)
        self._fd = -1
        return torn

    def close(self) -> None:
        if self._fd >= 0:
            try:
                self.sync()
            finally:
                os.close(self._fd)
                self._fd = -1


def _read_promise(path: str) -> int:
    """The promise stored beside the log at ``path`` (0 if there is none); LogCorrupt if damaged
    (it is replaced atomically, so damage is not a crash's doing)."""
    try:
        with open(path + ".epoch", "rb") as f:
            data = f.read(_PROMISE.size + 1)
    except FileNotFoundError:
        return 0
    if len(data) != _PROMISE.size:
        raise LogCorrupt(f"{path}.epoch: {len(data)} bytes, not {_PROMISE.size}")
    epoch, crc = _PROMISE.unpack(data)
    if zlib.crc32(data[:8]) != crc or not wire.EPOCH(epoch):
        raise LogCorrupt(f"{path}.epoch: damaged")
    return epoch


def _sync_dir(path: str) -> None:
    fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def entry_summary(e: Entry) -> dict[str, Any]:
    """A JSON-friendly form of an entry (desync reports, replay output)."""
    return {"seq": e.n, "author": e.author, "action": e.action, "hash": f"{e.hash:016x}",
            "id": e.id.hex(), "prev": e.prev.hex(), "epoch": e.epoch}
