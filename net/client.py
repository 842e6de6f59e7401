"""The client contract (mq.table.Table) over the LAN: :class:`NetTable`, and a bot that plays a
seat through it (:func:`play_bot`, used by ``--headless --bot``).

A front end written against ``mq.table.LocalTable`` switches over by building a NetTable instead::

    table = await NetTable.join(Config(name="ann"), "192.168.1.20", 47400)
    await table.wait_started()
    async for item in table.updates(): ...
    await table.submit(action)

``submit`` checks the action against the current state at once (IllegalAction, as LocalTable does)
and sends it; it comes back as an Applied when the sequencer has put it in the log, or as a
``Notice("info", seat, "Not done: <the reason in words> ...")`` if the state moved on meanwhile.  A spectator's
``state`` (and the states and events in its Applied items) are ``mq.rules.view(state, TABLE)``
and ``view_events(events, TABLE)``: public information only.
"""
from __future__ import annotations

import asyncio
import logging

from mq.bots import choose
from mq.bots.policy import out_of_turn
from mq.refusals import reason_words
from mq.rules import Action, IllegalAction, State, is_over, step, view, view_events
from mq.rules.state import COLOURS
from mq.rules.view import TABLE
from mq.table import Applied, Notice, Table
from net.peer import Config, Peer, SeatInfo

log = logging.getLogger("mq.net")


class NetTable(Table):
    """One seat's (or a spectator's) window onto a LAN game, backed by a :class:`net.peer.Peer`."""

    def __init__(self, peer: Peer) -> None:
        self.peer = peer
        self._queues: list[asyncio.Queue] = []
        self.lobby: tuple[list[SeatInfo], dict] = ([], {})
        self.rejections: list[tuple[int, str, str]] = []
        peer.subscribe(self._on_peer)

    # -- construction ----------------------------------------------------------------------------
    @classmethod
    async def host(cls, cfg: Config, seats: int, bots: int = 0, window_ms: int = 10_000,
                   away: str = "wait", away_s: int = 60, start: int | None = None, mode: str = "quest",
                   epic: bool = False, packs: tuple[str, ...] = ()) -> "NetTable":
        peer = Peer(cfg)
        table = cls(peer)
        await peer.host(seats, bots, window_ms, away, away_s, start, mode, epic, packs)
        return table

    @classmethod
    async def resume(cls, cfg: Config, path: str) -> "NetTable":
        peer = Peer(cfg)
        table = cls(peer)
        try:
            await peer.resume(path)
        except BaseException:
            await peer.close()
            raise
        return table

    @classmethod
    async def join(cls, cfg: Config, host: str, port: int, timeout: float = 10.0) -> "NetTable":
        peer = Peer(cfg)
        table = cls(peer)
        try:
            await peer.join(host, port, timeout)
        except BaseException:
            await peer.close()
            raise
        return table

    # -- the Table contract ----------------------------------------------------------------------
    @property
    def seat(self) -> int | None:  # type: ignore[override]
        return self.peer.seat

    @property
    def state(self) -> State:  # type: ignore[override]
        st = self.peer.state
        return view(st, TABLE) if (st is not None and self.peer.seat is None) else st

    @property
    def phase(self) -> str:
        return self.peer.phase

    def start(self) -> None:
        """Host only: close the lobby (empty seats become bots) and start the game."""
        self.peer.start_game()

    def set_options(self, opts: dict, bots: tuple[int, ...]) -> None:
        """Host only, in the lobby: the table options (net.options) and which seats bots play;
        IllegalAction (in the engine's words) or PeerError when they cannot be, and nothing changes."""
        self.peer.set_lobby(opts, bots)

    def choose_gender(self, gender: str) -> None:
        """In the lobby: this player's munchkin's gender (Q-SETUP-3)."""
        self.peer.choose_gender(gender)

    async def wait_started(self, timeout: float | None = None) -> bool:
        return await self.peer.wait_started(timeout)

    async def wait_finished(self, timeout: float | None = None) -> bool:
        return await self.peer.wait_finished(timeout)

    async def submit(self, action: Action) -> None:
        if self.peer.phase != "game" or self.peer.state is None:
            raise IllegalAction("phase/wrong", "the game is not running")
        if self.seat is None or action.seat != self.seat:
            raise IllegalAction("seat/not-your-turn", "a table acts only for its own seat")
        step(self.peer.state, action, self.peer.cards)  # IllegalAction now, as LocalTable does
        self.peer.propose(action)

    @property
    def waiting_for_host(self) -> bool:
        """Whether a move sent now waits: this peer neither sequences nor follows a live host (it
        keeps the move and sends it once it is welcomed again, net.follower)."""
        p = self.peer
        return p.phase == "game" and not p.leader and not p.follower.welcomed

    async def say(self, text: str) -> None:
        self.peer.say(text)

    def history(self) -> list[Applied | Notice]:
        """The game's entries so far, re-applied from this peer's log (checked as ``mq replay
        --verify`` checks them; a spectator gets the table's view), then the chat lines this peer
        kept (net.peer.CHAT_KEPT; the sequencer gives them to a peer that comes back)."""
        from net.replica import BadEntry, Tip, reapply

        peer, out = self.peer, []
        if peer.header is not None and peer.log is not None and peer.seq:
            start = Tip.start(peer.header, peer.cards).state
            try:
                for e, action, state, events in reapply(start, peer.log.entries[:peer.seq], peer.cards, peer.header):
                    item = Applied(e.n, action, events, state)
                    if peer.seat is None:
                        item = Applied(e.n, action, view_events(events, TABLE), view(state, TABLE))
                    out.append(item)
            except BadEntry as err:  # cannot happen with a log this peer checked as it took it
                log.warning("the game so far could not be re-read: %s", err)
        return out + [Notice("chat", seat, text) for seat, text in peer.chat_kept]

    async def close(self) -> None:
        await self.peer.close(linger_ms=200)

    def seats(self) -> tuple[tuple[str, bool], ...]:
        """Each seat's player name and whether a bot plays it (a bot seat, or an away seat the
        sequencer's bot plays, Q-OPT-2)."""
        return tuple((s.name, s.kind == "bot" or s.botted) for s in self.peer.seats)

    # -- events from the peer ----------------------------------------------------------------------
    def _card_name(self, card: str) -> str:
        return self.peer.cards.card(card).name

    def _on_peer(self, item) -> None:
        if isinstance(item, Applied):
            if self.peer.seat is None:
                item = Applied(item.seq, item.action, view_events(item.events, TABLE), view(item.state, TABLE))
            self._publish(item)
        elif isinstance(item, Notice):
            self._publish(item)
            if item.kind == "desync":
                self._publish(Notice("closed", None, "the game stopped on a desync"))
        elif isinstance(item, tuple) and item[0] == "reject":
            _, pid, reason, detail = item
            self.rejections.append((pid, reason, detail))
            self._publish(Notice("info", self.peer.seat, rejection_words(reason, detail, self._card_name)))
        elif isinstance(item, tuple) and item[0] == "lobby":
            self.lobby = (item[1], item[2])
            if self.peer.phase in ("idle", "lobby"):  # in the game, away/back/bot notices say it
                self._publish(Notice("lobby", None, seats_words(item[1])))


def rejection_words(reason: str, detail: str, card_name=None) -> str:
    """A proposal the sequencer refused (the game had moved on), in the engine's words for the
    reason (mq.rules.errors.reason_words), never its code."""
    return f"Not done: {reason_words(reason, detail, card_name)}."


def seats_words(seats: list[SeatInfo]) -> str:
    """Who sits at the table, in words: "At the table: Red ann, Green bob (away), Blue open"."""
    def one(i: int, s: SeatInfo) -> str:
        what = {"open": "open", "bot": "a bot"}.get(s.kind, s.name or "a player")
        return f"{COLOURS[i].capitalize()} {what}" + (" (away)" if s.away else "")

    return "At the table: " + ", ".join(one(i, s) for i, s in enumerate(seats))


async def play_bot(table: NetTable, delay: float = 0.0) -> None:
    """Play this table's seat with the bot policy until the game ends (``--headless --bot``).

    One proposal in flight at a time; a rejected one (the state moved on) is simply re-decided.
    ``delay`` seconds of thinking pass before each action (``--bot-delay``; ``mq play`` uses it so
    that a person can follow the bots); the bot then decides on the state as it is by then."""
    peer = table.peer
    wake = asyncio.Event()
    peer.subscribe(lambda item: wake.set())
    failures = 0

    def due(st: State | None) -> bool:  # cheap: whether the bot may have something to do now
        if peer.phase != "game" or st is None or peer.seat is None or peer.outstanding or is_over(st):
            return False
        # newly gained Treasure (Quest's Player.fresh; Classic players have none) may go into play now
        return peer.my_turn() or bool(getattr(st.players[peer.seat], "fresh", ()))

    def decide(st: State | None) -> Action | None:
        """The bot's action now: when the game waits for this seat, or one it may take on another's
        turn (newly gained Treasure into play, mq.bots.policy.out_of_turn)."""
        seat = peer.seat
        if seat is None or st is None or not due(st):
            return None
        if peer.my_turn():
            return choose(view(st, seat), seat, peer.cards)
        return out_of_turn(view(st, seat), seat, peer.cards)

    while peer.phase not in ("ended", "desync", "closed"):
        wake.clear()
        if due(peer.state):
            if delay > 0:
                await asyncio.sleep(delay)
            try:
                action = decide(peer.state)  # on the state as it is by then (None: nothing now)
                if action is not None:
                    await table.submit(action)
                    await asyncio.sleep(0)  # a sequencer applies it at once: let the network run between moves
                    continue
            except Exception as e:  # IllegalAction cannot happen with a correct policy and engine
                failures += 1
                log.error("the bot failed to act (%s: %s)", type(e).__name__, e)
                if failures >= 20:
                    peer.error = f"the bot keeps failing: {type(e).__name__}: {e}"
                    await peer.close()
                    return
                await asyncio.sleep(0.1)
                continue
        try:
            await asyncio.wait_for(wake.wait(), 0.5)
        except asyncio.TimeoutError:
            pass
