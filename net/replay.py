"""``mq replay LOGFILE [--verify]``: re-apply a game log and check it.

Checks, in order: the file framing and CRCs, the hash chain and entry numbering (net.gamelog.scan;
damage before the last record is refused), the seed against the revealed nonces, then every entry
re-applied by net.replica (the check every peer makes too: chain, epochs, the signatures of its
author and its sequencer, who may author it, the engine, the state hash after it).  A log of
unsigned history (mq protocol 5 or older) replays and verifies as it did, and the verdict says it
is unsigned; a log of protocol 6 (signed, its reigns without certificates) too, and the verdict
says that its reigns carry none.  With ``--verify`` any failure exits non-zero; the final state's
incremental hash is also checked against a full recompute.  The verdict says what was dropped as a
torn tail and whether the game finished (:func:`verdict`): a log that passes may still be of a game
in progress, or have lost its last record to a crash.  A last record whose every byte is there but
whose check fails was not cut short by a crash: it is damage, and ``--verify`` fails on it.

:func:`reapply` (net.replica's) is the entry-by-entry check on its own: the client's replay viewer
(mq.tui.replay) loads a log with it, so a log it shows is one ``--verify`` would pass up to there.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from mq.cards import load_default
from mq.rules import full_hash, is_over, new_game, state_hash
from mq.rules.state import COLOURS
from net import gamelog
from net.replica import BadEntry, reapply
from net.wire import TABLE_AUTHOR

__all__ = ["BadEntry", "Result", "reapply", "replay", "verdict"]  # reapply, BadEntry: for mq.tui.replay


@dataclass
class Result:
    ok: bool  # everything checked out
    readable: bool = True  # the file could be read as a log at all
    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    entries: int = 0
    final_hash: int | None = None
    finished: bool = False  # the game in the log has ended
    dropped: str | None = None  # what was left out as a torn tail, in words
    unsigned: int | None = None  # the protocol of a log of unsigned history (None: signed)
    uncertified: int | None = None  # the protocol of a signed log whose reigns carry no certificates


def replay(path: str, narrate: bool = False) -> Result:
    res = Result(ok=True)
    try:
        with open(path, "rb") as f:
            data = f.read()
        s = gamelog.scan(data, path)
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
    mode = "" if h.params.mode == "quest" else "  Classic Epic" if getattr(h.params, "epic", False) else "  Classic"
    packs = getattr(h.params, "packs", ())  # C-OPT-4: a Classic game's
    if packs:
        mode += f" (packs: {', '.join(packs)})"
    res.lines.append(f"game {h.game.hex()}  seed {h.seed:016x}  {h.params.players} players{mode}  "
                     f"window {h.params.window_ms} ms  away: {h.params.away}/{h.params.away_s}s")
    for seat, (name, pub, kind) in enumerate(h.roster):
        res.lines.append(f"  seat {seat} {COLOURS[seat]:6} {name} ({kind}{', ' + pub[:8] if pub else ''})")
    if not h.signed:
        res.unsigned = h.version
        res.lines.append(f"unsigned history (mq protocol {h.version}, before signed logs): who made each entry "
                         "is checked against its seat, not proven by a signature")
    elif not h.certified:
        res.uncertified = h.version
        res.lines.append(f"reigns without certificates (mq protocol {h.version}, before certified reigns): "
                         "a new sequencer's reign is not proven to have a quorum's promises")
    if s.torn:
        if gamelog.damaged_not_torn(data, s.good_end):
            res.problems.append(f"the last record ({s.torn} bytes) is whole but fails its check: damage, "
                                "not a write cut short by a crash")
        else:
            res.dropped = f"{s.torn} bytes of a last record cut short (a crash while it was written) left out"
            res.lines.append(f"torn tail: {res.dropped}")
    state = new_game(h.params, h.seed, cards)
    table_entries = 0
    try:
        for entry, _, state, events in reapply(state, s.entries, cards, h):
            table_entries += entry.author == TABLE_AUTHOR
            res.entries = entry.n
            if narrator is not None:
                res.lines.extend(f"{entry.n:5} {line}" for line in narrator.lines(state, events))
    except BadEntry as err:
        res.problems.append(str(err))
    if not res.problems and full_hash(state) != state_hash(state):
        res.problems.append("the final state's incremental hash differs from its full recompute")
    res.final_hash = state_hash(state)
    winners = ",".join(COLOURS[w] for w in state.winners) or "none"
    res.lines.append(f"{len(s.entries)} entries ({table_entries} by the table), chain "
                     f"{'ok' if s.entries else 'empty'}, last id {(s.entries[-1].id if s.entries else h.id).hex()}")
    res.lines.append(f"phase {state.phase}, winners {winners}, final state hash {res.final_hash:016x}")
    res.finished = is_over(state)
    res.ok = not res.problems
    return res


def verdict(res: Result) -> str:
    """``--verify``'s last line: ok or FAILED, whether the game finished, what was left out."""
    if not res.ok:
        return "verify: FAILED"
    game = "the game finished" if res.finished else f"the game is unfinished (it stops at entry {res.entries})"
    unsigned = (f"; the log is unsigned (mq protocol {res.unsigned}): it replays, but a game goes on only from "
                "a signed log" if res.unsigned is not None else "")
    uncertified = (f"; the log's reigns carry no certificates (mq protocol {res.uncertified}): it replays, but a "
                   "game goes on only from a log of protocol 7" if res.uncertified is not None else "")
    return f"verify: ok: {game}" + (f"; {res.dropped}" if res.dropped else "") + unsigned + uncertified
