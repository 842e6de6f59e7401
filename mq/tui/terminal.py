"""The terminal belongs to the full-screen client while it is up: nothing else writes to it.

A protocol warning, a stray ``print(file=sys.stderr)`` or an unretrieved task exception written
into a prompt_toolkit screen garbles it until the next full repaint.  So a command that opens the
client first sends its logging to a file under ``MQ_HOME/logs`` (:func:`log_to_file`; the client's
``i`` screen names it), and while the Application runs, file descriptor 2 itself points at that
file (:func:`stderr_to`), which also catches what bypasses ``logging`` (C libraries, Python's
last-resort handler).  Afterwards the terminal gets its stderr back for the command's last words.
"""
from __future__ import annotations

import contextlib
import logging
import os
import sys
import time


def protocol_log_path(role: str) -> str:
    """A new file under MQ_HOME/logs for this run's protocol log: ``<date>-<time>-<role>-<pid>.txt``
    (the game logs beside it are ``<game id>.mqlog``)."""
    from net import identity

    stamp = time.strftime("%Y%m%d-%H%M%S")
    return os.path.join(identity.home(), "logs", f"{stamp}-{role}-{os.getpid()}.txt")


def log_to_file(path: str, verbose: bool = False, who: str = "mq") -> str:
    """Route every logger (the root's handlers replaced) to ``path``, INFO and up when
    ``verbose``, else WARNING and up; returns ``path``."""
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter(f"%(asctime)s {who} %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
        old.close()
    root.addHandler(handler)
    root.setLevel(logging.INFO if verbose else logging.WARNING)
    logging.captureWarnings(True)  # warnings.warn goes through logging, so to the file too
    return path


@contextlib.contextmanager
def stderr_to(path: str | None):
    """While the block runs, file descriptor 2 (and ``sys.stderr``) write to ``path`` (appending);
    ``None``: leave stderr alone."""
    if path is None:
        yield
        return
    sys.stderr.flush()
    saved = os.dup(2)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.dup2(fd, 2)
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
        os.close(fd)
