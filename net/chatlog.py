"""The table's chat lines a peer keeps, in memory and beside its game log (``<log>.chat``), so that
they outlive the process: ``mq host --resume LOG`` gives them back to the players who rejoin, as a
running sequencer does (net.peer, the ``past`` notices of a welcome).

File format: one JSON list ``[seat, text]`` a line (``seat`` null for the table itself), appended
as lines are heard.  Chat is not game state: the file is never synced, a torn or unreadable line is
skipped, and a missing or unwritable file only costs the history (a warning, never an error).

Invariants:
- At most ``keep`` lines are kept, the latest; the file is rewritten to those once it holds twice as
  many, so it stays bounded however long the game.
- Lines heard before the log exists (the lobby, a welcome's past chat) are written when it is
  attached, so the file holds what memory holds.
"""
from __future__ import annotations

import json
import logging
import os
from collections import deque
from typing import Iterator

log = logging.getLogger("mq.net")

Line = tuple[int | None, str]


class ChatLog:
    """The latest ``keep`` chat lines, appended to a file once :meth:`attach` names one."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self._lines: deque[Line] = deque(maxlen=keep)
        self.path: str | None = None
        self._written = 0  # lines in the file now (rewritten at 2 * keep)

    def __iter__(self) -> Iterator[Line]:
        return iter(self._lines)

    def __len__(self) -> int:
        return len(self._lines)

    def attach(self, path: str, fresh: bool = False) -> None:
        """Keep the lines in ``path`` from now on.  ``fresh``: a new game's log, so whatever the file
        held is dropped; otherwise the lines it holds come first (a resumed or reopened log) and the
        ones heard meanwhile follow.  Attaching the same file again changes nothing."""
        if path == self.path:
            return
        heard = list(self._lines)
        self._lines.clear()
        if not fresh:
            self._lines.extend(read(path))
        self._lines.extend(heard)
        self.path = path
        self._rewrite()

    def append(self, line: Line) -> None:
        """Keep ``(seat, text)`` (as a deque would: the oldest line beyond ``keep`` goes)."""
        seat, text = line
        self._lines.append(line)
        if self.path is None:
            return
        if self._written >= 2 * self.keep:
            self._rewrite()
            return
        try:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(_line(seat, text))
            self._written += 1
        except OSError as e:
            log.warning("could not keep the chat in %s: %s", self.path, e)

    def _rewrite(self) -> None:
        assert self.path is not None
        tmp = self.path + ".tmp"
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                f.writelines(_line(s, t) for s, t in self._lines)
            os.replace(tmp, self.path)
            self._written = len(self._lines)
        except OSError as e:
            log.warning("could not keep the chat in %s: %s", self.path, e)


def _line(seat: int | None, text: str) -> str:
    return json.dumps([seat, text], ensure_ascii=False) + "\n"


def read(path: str) -> list[Line]:
    """The chat lines in ``path``, oldest first; none when it is missing; bad lines skipped."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            rows = f.readlines()
    except OSError:
        return []
    out: list[Line] = []
    for row in rows:
        try:
            seat, text = json.loads(row)
        except (ValueError, TypeError):
            continue
        if (seat is None or type(seat) is int) and type(text) is str:
            out.append((seat, text))
    return out
