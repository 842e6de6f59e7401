"""``mq replay LOGFILE [--verify]``: re-apply a game log and check it.

Checks, in order: the file framing and CRCs, the hash chain and entry numbering (net.gamelog.scan;
damage before the last record is refused), the seed against the revealed nonces, then every entry
re-applied with the engine: its author may act for its seat, it is legal, and the state hash after it
equals the one recorded.  With ``--verify`` any failure exits non-zero; the final state's incremental
hash is also checked against a full recompute.

:func:`reapply` is the entry-by-entry check on its own: the client's replay viewer
(mq.tui.replay) loads a log with it, so a log it shows is one ``--verify`` would pass up to there.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from mq.cards import load_default
from mq.cards import CardSet
from mq.rules import Action, IllegalAction, State, full_hash, new_game, state_hash, step
from mq.rules.actions import decode as decode_action
from mq.rules.state import COLOURS
from net import gamelog
from net.wire import TABLE_AUTHOR


@dataclass
class Result:
    ok: bool  # everything checked out
    readable: bool = True  # the file could be read as a log at all
    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    entries: int = 0
    final_hash: int | None = None


class BadEntry(Exception):
    """An entry that does not re-apply: its author may not act for that seat, the engine refuses
    it, or the state after it does not have the hash the log recorded."""


def reapply(state: State, entries: list[gamelog.Entry], cards: CardSet
            ) -> Iterator[tuple[gamelog.Entry, Action, State, tuple]]:
    """Apply ``entries`` to ``state`` (the game the header describes) one by one, yielding each
    entry, its action, the state after it and the engine's events; raises :class:`BadEntry` at the
    first entry that does not check out (everything yielded before it did)."""
    for e in entries:
        try:
            action = decode_action(e.action)
            if e.author != TABLE_AUTHOR and e.author != action.seat:
                raise IllegalAction("seat/not-your-turn", f"author {e.author} acted for seat {action.seat}")
            state, events = step(state, action, cards)
        except IllegalAction as err:
            raise BadEntry(f"entry {e.n}: {err}") from None
        got = state_hash(state)
        if got != e.hash:
            raise BadEntry(f"entry {e.n}: state hash {got:016x}, the log says {e.hash:016x}")
        yield e, action, state, events


def replay(path: str, narrate: bool = False) -> Result:
    res = Result(ok=True)
    try:
        s = gamelog.read(path)
    except (gamelog.LogCorrupt, OSError) as e:
        return Result(False, False, problems=[str(e)])
    if s.header is None:
        return Result(False, False, problems=[f"{path}: no header record"])
    h = s.header
    cards = load_default()
    narrator = None
    if narrate:
        from mq.narrate import Narrator

        narrator = Narrator(cards)
    res.lines.append(f"game {h.game.hex()}  seed {h.seed:016x}  {h.params.players} players  "
                     f"window {h.params.window_ms} ms  away: {h.params.away}/{h.params.away_s}s")
    for seat, (name, pub, kind) in enumerate(h.roster):
        res.lines.append(f"  seat {seat} {COLOURS[seat]:6} {name} ({kind}{', ' + pub[:8] if pub else ''})")
    if s.torn:
        res.lines.append(f"torn tail: {s.torn} bytes after the last intact record (ignored)")
    state = new_game(h.params, h.seed, cards)
    table_entries = 0
    try:
        for e, _, state, events in reapply(state, s.entries, cards):
            table_entries += e.author == TABLE_AUTHOR
            res.entries = e.n
            if narrator is not None:
                res.lines.extend(f"{e.n:5} {line}" for line in narrator.lines(state, events))
    except BadEntry as err:
        res.problems.append(str(err))
    if not res.problems and full_hash(state) != state_hash(state):
        res.problems.append("the final state's incremental hash differs from its full recompute")
    res.final_hash = state_hash(state)
    winners = ",".join(COLOURS[w] for w in state.winners) or "none"
    res.lines.append(f"{len(s.entries)} entries ({table_entries} by the table), chain "
                     f"{'ok' if s.entries else 'empty'}, last id {(s.entries[-1].id if s.entries else h.id).hex()}")
    res.lines.append(f"phase {state.phase}, winners {winners}, final state hash {res.final_hash:016x}")
    res.ok = not res.problems
    return res
