"""Where a player's mq files live, who the player is, and join codes.

``MQ_HOME`` (if set) is the directory; otherwise ``$XDG_CONFIG_HOME/mq`` or ``~/.config/mq``
(created mode 0700).  It holds:

- ``identity``: the player's long-term **CURVE secret key**, 32 random bytes as hex, created on
  first use, mode 0600 (a looser mode is tightened, with a warning).  The public key
  (:func:`public_id`, Z85 text, 40 characters) is derived from it; it is what other peers see, what
  the sequencer binds a seat to (the ZAP ``User-Id`` of the connection, never a message field), and
  what the log roster stores.  A peer that comes back with the same identity gets its seat back;
  another key cannot take it.
- ``signing``: the player's long-term **Ed25519 signing key** (its 32-byte seed as hex, created
  and kept like ``identity``, mode 0600): it signs the player's actions and, while the player's
  peer sequences the game, the entries it numbers (net.signing).  It is a separate key: the CURVE
  key stays for the transport alone.
- ``identity.lock``: held (``flock``, exclusive) by the one process that plays with this identity
  (:func:`hold_seat`), the process id in it; the kernel lets go of it when that process ends, so a
  lock left behind by a process that died blocks nobody.
- ``known_keys``: public keys of peers this player has played with (one per line, mode 0600), so
  that ``mq join HOST`` without a code can check the key of a host it knows (net.peer).
- ``logs/``: one action log per game, named by the game id.

Tests point ``MQ_HOME`` at a temporary directory so they never touch a real user's files.

Join codes (:func:`make_code`): ``SSSS-SSSS-TTTT`` in Crockford base32.  ``S`` (8 symbols, 40 bits)
is the admission secret: the joiner sends it *inside* the encrypted channel, after the CurveZMQ
handshake, so a captured handshake says nothing about it, and the sequencer limits wrong guesses
(net.peer).  ``T`` (4 symbols, 20 bits) is a tag of the host's public key under ``S``
(HMAC-SHA256): the joiner fetches the host's public key over the plain key service
(net.transport) and checks it against ``T`` before it sends ``S``, so a machine in the middle that
hands out its own key gets nothing (it cannot compute ``T`` without ``S``; a blind guess passes
once in 2**20 joins).  ``T`` never travels on the network.  The CURVE keys are never derived from
the code.
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import logging
import os
import secrets
import stat

import zmq
from zmq.utils import z85

log = logging.getLogger("mq.net")

CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base32: no I, L, O, U
SECRET_LEN = 8  # symbols of the admission secret (40 bits)
TAG_LEN = 4  # symbols of the host key's tag (20 bits)


def home() -> str:
    explicit = os.environ.get("MQ_HOME")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "mq")


def _private_file(path: str) -> None:
    """Make sure nobody but the owner can read or write ``path`` (mode 0600)."""
    mode = stat.S_IMODE(os.stat(path).st_mode)
    if mode & 0o077:
        log.warning("%s was readable or writable by others (mode %o): set to 0600", path, mode)
        os.chmod(path, 0o600)


def identity() -> str:
    """This user's identity: the CURVE secret key as hex, created on first use (mode 0600)."""
    return _secret_file("identity", "an mq identity")


def signing_seed() -> str:
    """This user's Ed25519 signing key (its seed as hex), created on first use (mode 0600)."""
    return _secret_file("signing", "an mq signing key")


def _secret_file(name: str, what: str) -> str:
    """32 random bytes as hex in ``name`` under home(): read, or created on first use (mode 0600,
    a looser mode is tightened); anything else in the file is an error that says what to do."""
    path = os.path.join(home(), name)
    try:
        with open(path, encoding="ascii") as f:
            key = f.read().strip()
        if valid_secret(key):
            _private_file(path)
            return key
        raise ValueError(f"{path} is not {what}; move it away to make a new one")
    except FileNotFoundError:
        pass
    os.makedirs(home(), mode=0o700, exist_ok=True)
    key = secrets.token_hex(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key + "\n")
    return key


def valid_secret(key) -> bool:
    return type(key) is str and len(key) == 64 and all(c in "0123456789abcdef" for c in key)


def valid_public(pub) -> bool:
    """A CURVE public key as Z85 text (40 characters, 32 bytes)."""
    if type(pub) is not str or len(pub) != 40:
        return False
    try:
        return len(z85.decode(pub.encode("ascii"))) == 32
    except (ValueError, UnicodeEncodeError, KeyError, IndexError, TypeError):
        return False


@functools.lru_cache(maxsize=64)
def keypair(key: str) -> tuple[bytes, bytes]:
    """(public, secret) CURVE keys in Z85 (as ZeroMQ's socket options take them) of a hex identity.
    Any 32 bytes are a valid Curve25519 secret key."""
    secret = z85.encode(bytes.fromhex(key))
    return zmq.curve_public(secret), secret


def public_id(key: str) -> str:
    """What other peers see and the log roster stores: the CURVE public key (Z85), never the secret."""
    return keypair(key)[0].decode("ascii")


def log_path(game: bytes) -> str:
    """Default log file of a game for this user."""
    return os.path.join(home(), "logs", f"{game.hex()}.mqlog")


# -- one seat, one live process ----------------------------------------------------------------------
class InUse(Exception):
    """Another live process on this machine plays with this identity (its words say which)."""


_held: dict[str, int] = {}  # lock file -> the descriptor this process holds it by (till it ends)


def hold_seat() -> None:
    """Make this process the one that plays with this ``MQ_HOME``'s identity (issue 13, "one seat,
    one live process"): an exclusive ``flock`` on ``identity.lock``, held until the process ends,
    with its pid in the file.  InUse, naming the other process's pid, while another live process
    holds it.  (A copied key on another machine is refused by the sequencer: net.sequencer.)"""
    path = os.path.join(home(), "identity.lock")
    if path in _held:
        return
    import fcntl

    os.makedirs(home(), mode=0o700, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        other = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        os.close(fd)
        who = f"pid {other}" if other.isdigit() else "its pid not written yet"
        raise InUse(f"another mq process ({who}) is playing with this identity ({home()}): one seat, "
                    "one live process. Wait for it to end, or give this player an MQ_HOME of its own") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
    _held[path] = fd


# -- known keys ------------------------------------------------------------------------------------
def known_keys_path() -> str:
    return os.path.join(home(), "known_keys")


def known_keys(path: str) -> set[str]:
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            return {w for line in f for w in line.split()[:1] if valid_public(w)}
    except FileNotFoundError:
        return set()


def remember_keys(path: str, keys) -> None:
    """Add public keys to the known-keys file (created mode 0600)."""
    new = [k for k in dict.fromkeys(keys) if valid_public(k)]
    new = [k for k in new if k not in known_keys(path)]
    if not new:
        return
    os.makedirs(os.path.dirname(path) or ".", mode=0o700, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    with os.fdopen(fd, "a", encoding="ascii") as f:
        f.write("".join(k + "\n" for k in new))
    _private_file(path)


# -- join codes ------------------------------------------------------------------------------------
def _tag(secret: str, server_pub: str) -> str:
    mac = hmac.new(secret.encode("ascii"), b"mq-join-code-v1:" + server_pub.encode("ascii"), hashlib.sha256)
    n = int.from_bytes(mac.digest()[:8], "big")
    return "".join(CODE_ALPHABET[(n >> (5 * i)) & 31] for i in range(TAG_LEN))


def new_secret() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(SECRET_LEN))


def make_code(server_pub: str, secret: str | None = None) -> str:
    """A join code for the host whose public key is ``server_pub`` (``secret``: a fresh one)."""
    s = secret or new_secret()
    raw = s + _tag(s, server_pub)
    return "-".join(raw[i:i + 4] for i in range(0, len(raw), 4))


def normalize_code(code: str) -> str | None:
    """The code's symbols (upper case, no dashes or spaces, O read as 0, I and L as 1), or None if
    it is not a well-formed code."""
    raw = "".join(code.split()).replace("-", "").upper().replace("O", "0").replace("I", "1").replace("L", "1")
    if len(raw) != SECRET_LEN + TAG_LEN or any(c not in CODE_ALPHABET for c in raw):
        return None
    return raw


def code_secret(code: str) -> str | None:
    """The admission secret of a code (what the joiner sends, inside the encrypted channel)."""
    raw = normalize_code(code)
    return raw[:SECRET_LEN] if raw else None


def code_matches_key(code: str, server_pub: str) -> bool:
    """Whether ``code`` was made for the host whose public key is ``server_pub``."""
    raw = normalize_code(code)
    return raw is not None and hmac.compare_digest(raw[SECRET_LEN:], _tag(raw[:SECRET_LEN], server_pub))
