"""Where a player's mq files live and who the player is.

``MQ_HOME`` (if set) is the directory; otherwise ``$XDG_CONFIG_HOME/mq`` or ``~/.config/mq``.
It holds ``identity`` (a random 32-byte key, hex, created on first use, mode 0600) and ``logs/``
(one action log per game, named by the game id).  The identity is what binds a seat to a player:
a peer that comes back with the same identity gets its seat back.  Tests point ``MQ_HOME`` at a
temporary directory so they never touch a real user's files.

Today the identity is a bearer secret sent in ``hello``; with CurveZMQ (a later issue) it becomes
the long-term key pair and the seat is bound to the public key the ZAP handler reports.
"""
from __future__ import annotations

import os
import secrets


def home() -> str:
    explicit = os.environ.get("MQ_HOME")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "mq")


def identity() -> str:
    """This user's identity (hex), created on first use."""
    path = os.path.join(home(), "identity")
    try:
        with open(path, encoding="ascii") as f:
            key = f.read().strip()
        if len(key) == 64 and all(c in "0123456789abcdef" for c in key):
            return key
        raise ValueError(f"{path} is not an mq identity; move it away to make a new one")
    except FileNotFoundError:
        pass
    os.makedirs(home(), exist_ok=True)
    key = secrets.token_hex(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key + "\n")
    return key


def public_id(key: str) -> str:
    """What other peers see and store in the log roster: a digest of the key, never the key."""
    import hashlib

    return hashlib.sha256(bytes.fromhex(key)).hexdigest()[:32]


def log_path(game: bytes) -> str:
    """Default log file of a game for this user."""
    return os.path.join(home(), "logs", f"{game.hex()}.mqlog")
