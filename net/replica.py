"""A peer's copy of the game (:class:`Replica`), and taking a log entry: the one check-and-apply that
every path re-applying a log goes through.

A peer re-applies its own log when it starts from it (``mq host --resume``, a restart, a rewind),
applies the sequencer's entries as a follower, and adopts another peer's entries when it reconciles
as a new sequencer; ``mq replay`` (and the client's replay viewer) re-applies a file.  Each of them
takes every entry through :func:`apply_entry`, so they accept and refuse exactly the same logs.

Entry n is checked against the log before it (:class:`Tip`: entry n - 1, or the header), in order:

- numbering and chain: n is the next number and ``prev`` is the id of entry n - 1;
- epochs never go back along a log (docs/net.md, "Epochs");
- the reign's certificate, in a log of certified reigns (:func:`check_certificate`): an entry that
  starts a reign (its epoch later than entry n - 1's) carries a quorum of the game's player seats'
  signed promises of that epoch, but for the host's first reign (net.election.FIRST_EPOCH); no
  other entry carries one;
- signatures, in a log of signed history (:func:`check_signatures`; net.signing): the sequencer of
  the entry's epoch signed the entry, its author (unless the table) signed the action, and the
  proposal's id is new to the log (no replay);
- authorship (:func:`may_author`): a seat's entry acts for that seat; the table's (author -1) makes
  only what the game layer allows the table at that entry (net.port.table_may_act: the bot's own
  move for a bot seat, or for any seat in a game that hands away seats to a bot; a pass for a seat
  the open window waits for) — what a sequencer makes the table do, and nothing else;
- legality: the engine applies it (``net.port.apply``);
- the state hash after it is the one the entry records.

Invariants: :func:`apply_entry` and :func:`reapply` write and keep nothing; the state passed in is
not changed.  A refused entry raises :class:`BadEntry` naming it, and nothing after it is taken.
:class:`HashMismatch` (a BadEntry) carries the state the engine computed: a follower keeps that
state to find the first field where it differs from the sequencer's (net.desync); every other
path refuses the entry.  A :class:`Replica`'s state is always the state after its log's last entry
(but for the test-only perturbation of net.desync), and changes only by an entry appended to it.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Iterator

from mq.cards import CardSet
from mq.rules import Action, IllegalAction, State
from mq.rules.actions import decode as decode_action
from mq.table import Applied
from net import election, membership, port, signing
from net.gamelog import Entry, GameLog, Header
from net.wire import TABLE_AUTHOR

log = logging.getLogger("mq.net")

RING = 256  # recent states a replica keeps (a desync search walks the state after any of them)


class BadEntry(Exception):
    """An entry that does not follow the log, may not be made by its author, is illegal, or leads
    to another state than the one it records.  The message names the entry."""


class HashMismatch(BadEntry):
    """The engine's state after the entry has another hash than the one recorded; ``applied`` is
    what the engine made of it (a follower keeps it for the desync search)."""

    def __init__(self, text: str, applied: Applied) -> None:
        super().__init__(text)
        self.applied = applied


@dataclass(frozen=True)
class Tip:
    """The end of a log as the next entry must follow it: the number, id and epoch of its last
    entry (0, the header's id and 0 before the first) and the state after it."""

    n: int
    id: bytes
    epoch: int
    state: State
    proposals: signing.Proposals = signing.Proposals()  # the proposal ids taken so far

    @classmethod
    def start(cls, header: Header, cards: CardSet) -> "Tip":
        """Before entry 1: the game the header describes."""
        return cls(0, header.id, 0, port.start(header.params, header.seed, cards))

    def after(self, e: Entry, state: State) -> "Tip":
        return Tip(e.n, e.id, e.epoch, state, _proposals_after(self.proposals, e))


def _proposals_after(proposals: signing.Proposals, e: Entry) -> signing.Proposals:
    return proposals if e.pid is None else proposals.taken(e.author, e.pid)


def sequencer_of(epoch: int) -> int:
    """The seat whose reign ``epoch`` is (net.election.next_epoch: counter * 8 + seat)."""
    return epoch & 7


def check_signatures(header: Header | None, tip: Tip, e: Entry) -> None:
    """Signed history (net.signing): raises BadEntry naming entry ``e`` unless the sequencer of its
    epoch signed it (as the header's signers hold that seat's key) and, for a seat's entry, that
    seat signed the action under a proposal id new to the log (the table's entries carry no
    proposal).  A log of unsigned history (protocol 5 or older, :attr:`Header.signed`) has no
    signatures to check and may carry none; ``header`` None: the caller has no roster (nothing
    checked)."""
    if header is None:
        return
    if not header.signed:
        if e.ssig is not None or e.asig is not None:
            raise BadEntry(f"entry {e.n}: signed, in a log of unsigned history")
        return
    try:
        if e.ssig is None:
            raise signing.Refused("not signed, in a log of signed history")
        seat = sequencer_of(e.epoch)
        key = header.signers[seat] if seat < len(header.signers) else b""
        if not key:
            raise signing.Refused(f"epoch {e.epoch} is no player's reign (seat {seat} holds no signing key)")
        signing.verify_entry(key, header.game, e.n, e.epoch, e.prev, e.action, e.author, e.ssig)
        if e.author == TABLE_AUTHOR:
            if e.pid is not None or e.asig is not None:
                raise signing.Refused("the table's entry carries a player's proposal")
            return
        key = header.signers[e.author] if e.author < len(header.signers) else b""
        if e.pid is None or e.asig is None or not key:
            raise signing.Refused(f"seat {e.author}'s action is not signed by seat {e.author}")
        signing.verify_action(key, header.game, e.author, e.pid, e.action, e.asig)
        why = tip.proposals.refuses(e.author, e.pid)
        if why is not None:
            raise signing.Refused(why)
    except signing.Refused as err:
        text = str(err)
        raise BadEntry(text if text.startswith(f"entry {e.n}:") else f"entry {e.n}: {text}") from None


def check_certificate(header: Header | None, tip: Tip, e: Entry) -> None:
    """Certified reigns (protocol 7 on, :attr:`Header.certified`): raises BadEntry naming entry
    ``e`` unless, if it starts a reign (an epoch later than ``tip``'s), it carries that reign's
    certificate: signed promises of its epoch from a quorum (net.membership.quorum) of the game's
    player seats, each verified against the seat's key in the header.  A player alone can sign
    entries as the sequencer of any epoch of its seat, but not a quorum's promises: so no reign
    exists that a quorum did not promise (docs/net.md, "Promise certificates").  The host's first
    reign (net.election.FIRST_EPOCH: live from the lobby, before any promise) needs none; an entry
    that starts no reign carries none.  ``header`` None, or an older log: nothing checked."""
    if header is None or not header.certified:
        return
    if e.fields != 10:
        raise BadEntry(f"entry {e.n}: an entry of an older mq (no certificate field), in a log of mq protocol "
                       f"{header.version}")
    if e.epoch == tip.epoch or e.epoch == election.FIRST_EPOCH:
        if e.cert is not None:
            raise BadEntry(f"entry {e.n}: a certificate where no reign needs one")
        return
    peers = [s for s, (_, _, kind) in enumerate(header.roster) if kind == "peer"]
    promised: set[int] = set()
    for seat, sig in e.cert or ():
        key = header.signers[seat] if seat < len(header.signers) else b""
        if not key:
            raise BadEntry(f"entry {e.n}: the reign of epoch {e.epoch}: seat {seat} is no player's seat")
        try:
            signing.verify_promise(key, header.game, e.epoch, seat, sig)
        except signing.Refused as err:
            raise BadEntry(f"entry {e.n}: the reign of epoch {e.epoch}: {err}") from None
        promised.add(seat)
    if not membership.quorum(peers, promised):
        # How many a quorum needs: more than half, or half with the lowest player seat among them.
        need = len(peers) // 2 + (1 if len(peers) % 2 or peers[0] not in promised else 0)
        raise BadEntry(f"entry {e.n}: the reign of epoch {e.epoch} has no quorum of promises "
                       f"({len(promised)} of {need})")


def may_author(header: Header | None, author: int, action: Action, state: State, cards: CardSet) -> str | None:
    """Why ``author`` may not make an entry of ``action`` in ``state`` (None: it may).  ``header``
    None: a log whose roster is not at hand, where the table is taken to play any seat."""
    if author == action.seat:
        return None
    if author != TABLE_AUTHOR:
        return f"seat {author} cannot act for seat {action.seat}"
    if header is None:
        return None
    try:
        if port.table_may_act(state, [kind for _, _, kind in header.roster], action, cards):
            return None
    except Exception as err:  # the bot has no move for that seat here (not its turn): a forged entry
        return f"the table cannot act for seat {action.seat} here: the bot has no move for it ({type(err).__name__})"
    return (f"the table cannot act for seat {action.seat} here: it passes only for a seat a window "
            f"waits for, and plays only the bot's move, for a seat the bot plays")


def apply_entry(header: Header | None, cards: CardSet, tip: Tip, e: Entry) -> Applied:
    """Check entry ``e`` after ``tip`` (see the module docstring) and apply it; returns what it did
    (number, action, events, the state after it).  Raises BadEntry (HashMismatch for a state hash
    that differs) naming the entry."""
    if e.n != tip.n + 1:
        raise BadEntry(f"entry {e.n} where entry {tip.n + 1} was due")
    if e.prev != tip.id:
        raise BadEntry(f"entry {e.n} does not chain to entry {tip.n}")
    if e.epoch < tip.epoch:  # a later reign appends after an earlier one, never before
        raise BadEntry(f"entry {e.n} is of epoch {e.epoch}, older than entry {tip.n}'s {tip.epoch}")
    check_certificate(header, tip, e)  # first: whatever else an entry of a made-up reign holds, it has no reign
    check_signatures(header, tip, e)
    try:
        action = decode_action(e.action)
    except IllegalAction as err:
        raise BadEntry(f"entry {e.n}: {err}") from None
    why = may_author(header, e.author, action, tip.state, cards)
    if why is not None:
        raise BadEntry(f"entry {e.n}: {why}")
    try:
        state, events = port.apply(tip.state, action, cards)
    except IllegalAction as err:
        raise BadEntry(f"entry {e.n} is illegal here: {err}") from None
    except Exception as err:  # an engine bug (or an engine that changed under the log): stop here
        log.exception("the engine failed on entry %d", e.n)
        raise BadEntry(f"entry {e.n}: the engine failed ({type(err).__name__}: {err})") from None
    applied = Applied(e.n, action, tuple(events), state)
    got = port.hash(state)
    if got != e.hash:
        raise HashMismatch(f"entry {e.n}: state hash {got:016x}, the log says {e.hash:016x}", applied)
    return applied


def reapply(state: State, entries: list[Entry], cards: CardSet, header: Header | None = None
            ) -> Iterator[tuple[Entry, Action, State, tuple]]:
    """Apply ``entries`` (entry 1 on) to ``state``, the game ``header`` describes, one by one
    through :func:`apply_entry`, yielding each entry, its action, the state after it and the
    engine's events; raises BadEntry at the first entry that does not check out (everything yielded
    before it did).  Without ``header`` (a caller that read the file with net.gamelog, which checked
    the chain from the header) the chain is taken from the first entry on, and the table's entries
    for any seat (see :func:`may_author`)."""
    if not entries:
        return
    tip = Tip(0, header.id if header is not None else entries[0].prev, 0, state)
    for e in entries:
        a = apply_entry(header, cards, tip, e)
        tip = tip.after(e, a.state)
        yield e, a.action, a.state, a.events


def _header(lg: GameLog) -> Header:
    if lg.header is None:
        raise RuntimeError(f"{lg.path}: the log has no header")
    return lg.header


class Replica:
    """A peer's copy of the game: its open log, the header, the state after the last entry and the
    states after the last RING entries.  Entries come in only through :meth:`take` (checked by
    :func:`apply_entry` first), :meth:`keep` (one this peer numbered itself, or one a follower keeps
    although its hash differs from the sequencer's) and :meth:`adopt` (a whole log, checked)."""

    def __init__(self, cards: CardSet) -> None:
        self.cards = cards
        self.log: GameLog | None = None
        self.header: Header | None = None
        self.state: State | None = None
        self.seq = 0
        self.ring: dict[int, State] = {}
        self.proposals = signing.Proposals()  # the proposal ids the log has taken

    def _open(self) -> tuple[GameLog, State]:
        """The open log and the state: a game is under way (a caller bug otherwise)."""
        if self.log is None or self.state is None:
            raise RuntimeError("no game is open")
        return self.log, self.state

    def tip(self) -> Tip:
        lg, state = self._open()
        return Tip(self.seq, lg.last_id, lg.last_epoch, state, self.proposals)

    def start(self, lg: GameLog) -> None:
        """A new game in ``lg``, which holds just its header."""
        header = _header(lg)
        self.log, self.header = lg, header
        self.state = port.start(header.params, header.seed, self.cards)
        self.seq = 0
        self.ring = {0: self.state}
        self.proposals = signing.Proposals()

    def adopt(self, lg: GameLog) -> None:
        """Take the log ``lg`` (a file we hold, or what a rewind left of it), every entry re-applied
        through :func:`apply_entry`; BadEntry at the first that fails, with nothing taken."""
        header = _header(lg)
        tip = Tip.start(header, self.cards)
        for e in lg.entries:
            tip = tip.after(e, apply_entry(header, self.cards, tip, e).state)
        self.log, self.header = lg, header
        self.state, self.seq, self.proposals = tip.state, lg.last_seq, tip.proposals
        self.ring = {self.seq: tip.state}

    def would_take(self, n: int, e: Entry) -> Applied:
        """Check entry ``e`` as if our log ended at entry ``n`` (a peer's entry where ours part from
        it): what taking it would do, or BadEntry naming it.  Nothing changes: a caller rewinds to
        ``n`` only for an entry that checks out, never on another peer's word alone."""
        lg, _ = self._open()
        header = _header(lg)
        state = self.ring.get(n)
        if state is None:  # not kept: re-applied from the start (the entries up to n were checked)
            state = port.start(header.params, header.seed, self.cards)
            for k in lg.entries[:n]:
                state = port.apply(state, decode_action(k.action), self.cards)[0]
        proposals = signing.Proposals()
        for k in lg.entries[:n]:
            proposals = _proposals_after(proposals, k)
        epoch = lg.entries[n - 1].epoch if n else 0
        return apply_entry(header, self.cards, Tip(n, lg.id_at(n), epoch, state, proposals), e)

    def would_replace(self, n: int, e: Entry) -> Applied:
        """:meth:`would_take` for an entry that would replace ours after entry ``n`` (a rewind to
        ``n``): also BadEntry if our entry ``n + 1`` is of the same epoch.  An honest sequencer
        numbers each seq once in its epoch (a new reign takes a new epoch), so two signed entries of
        one epoch for one seq prove that epoch's sequencer equivocates, and ours may be one a quorum
        holds: both followers told to rewind and new sequencers reconciling keep theirs."""
        applied = self.would_take(n, e)
        lg, _ = self._open()
        if n < self.seq and lg.entries[n].epoch == e.epoch:
            raise BadEntry(f"entry {e.n}: the sequencer of epoch {e.epoch} signed two different entries for it "
                           "(it equivocates)")
        return applied

    def take(self, e: Entry) -> Applied:
        """Check and apply the next entry, and append it; BadEntry (nothing changed) if it does not
        check out."""
        applied = apply_entry(self.header, self.cards, self.tip(), e)
        self.keep(e, applied)
        return applied

    def keep(self, e: Entry, applied: Applied) -> None:
        """Append entry ``e`` and move to the state ``applied`` holds, unchecked."""
        self._open()[0].append(e)
        self.state, self.seq = applied.state, e.n
        self.proposals = _proposals_after(self.proposals, e)
        self.ring[e.n] = applied.state
        self.ring.pop(e.n - RING, None)
