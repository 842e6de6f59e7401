"""``mq play``: a local game against bots.

In a terminal (stdin and stdout both ttys) it is a LAN game on loopback, the same code path as a
game among friends: this process hosts it (a :class:`net.client.NetTable` sequencer on seat 0,
127.0.0.1, a free port, no beacon) and plays that seat in the full-screen client; every other seat
is a headless bot peer, a process of its own running what ``mq join 127.0.0.1:PORT --headless
--bot`` runs, with its ``MQ_HOME`` and log in a temporary directory that is removed at the end.
The bot peers start first, on a port chosen for the game before it opens: forked from this process
once it has imported what a peer needs (:class:`ForkedBot`; a new interpreter each where fork is
not available), so that the first frame comes in about half a second of CPU rather than a peer's
imports three times over.  The game starts once they have joined (bounded wait); a seat whose bot peer did not join, or whose bot peer goes away for
3 s during the game, is played by the host's own bot (the client says so).  Leaving the client
stops the bot processes.  The game's own log (seat 0's) stays under ``MQ_HOME/logs`` like any LAN
game's, and the command ends by saying how to replay it; the protocol log goes to a file beside it
while the client owns the terminal (mq.tui.terminal).  Ctrl-C exits with 130.

``--seed S`` makes the game reproducible: the seed is still the hash of the peers' commit-reveal
nonces, but each peer derives its nonce from S and its seat (``net.peer.Config.local_seed``, a
hidden ``--local-seed`` for the bot peers) instead of drawing it at random.  So the same S gives the
same game, though not the game ``mq sim --seed S`` plays.  ``--delay`` is the bot peers' think time
before each action (``--bot-delay``); a seat the host's own bot took over plays without it.

With ``--narrate``, or when either end is not a terminal (a pipe, a test), it prints a whole bot
game in plain sentences instead (in this process, seed S as given), as before the client existed.

``add_commands(subparsers)`` registers the command on ``mq``'s argument parser (mq/cli.py).
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shlex
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

from mq import cliargs

DEFAULT_DELAY = 0.5  # seconds before each bot action in the client, so a person can follow


def add_commands(subparsers) -> None:
    p = subparsers.add_parser("play", help="play a local game against bots (full screen in a terminal)")
    p.add_argument("--players", type=int, default=4, help="2 to 6 (you are Red, bots play the rest)")
    p.add_argument("--seed", type=cliargs.seed, help="the game's seed, 0 to 2**64 - 1 (default: random)")
    p.add_argument("--delay", type=cliargs.seconds, default=None,
                   help=f"seconds each bot thinks before acting (default {DEFAULT_DELAY} in the client, 0 narrated)")
    cliargs.add_table_options(p)
    cliargs.add_player_options(p)
    p.add_argument("--narrate", action="store_true", help="print a narrated all-bot game instead")
    p.set_defaults(func=play)


def play(args) -> int:
    from mq.rules import IllegalAction, make_params
    from mq.rules.newgame import ROLLED

    try:  # Q-OPT-4, Q-OPT-3, Q-SETUP-3, C-OPT: you are Red; the bots' genders are rolled from the seed
        params = make_params(args.players, (args.gender,) + (ROLLED,) * (args.players - 1), args.starting_hand,
                             mode=args.mode, epic=args.epic, packs=args.packs)
    except IllegalAction as err:  # e.g. --players 9: say why instead of a traceback
        print(f"mq play: {cliargs.rule_words(err)}", file=sys.stderr)
        return 2
    if args.narrate or not (sys.stdin.isatty() and sys.stdout.isatty()):
        seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(8), "little")
        try:
            return narrated(params, seed, args.delay or 0.0)
        except KeyboardInterrupt:
            return 130
    delay = DEFAULT_DELAY if args.delay is None else args.delay
    # The bot peers start first, forked from this process once it has imported what a peer needs
    # (before any socket, thread or event loop exists): each is a process of its own that starts
    # in milliseconds instead of importing everything again, while this one opens the game.
    import net.cli  # noqa: F401 - what the forked bot peers run
    import net.client  # noqa: F401
    from mq.cards import load_default

    load_default()
    peers = start_bot_peers(args.players, args.seed, delay, fork=can_fork())
    from mq.tui import terminal

    log_file = terminal.log_to_file(terminal.protocol_log_path("play"), who="play")
    try:
        return asyncio.run(client(args.players, args.seed, delay, log_file=log_file, peers=peers,
                                  gender=args.gender, start=params.start_treasure, mode=args.mode,
                                  epic=args.epic, packs=args.packs))
    except KeyboardInterrupt:  # Ctrl-C before or after the screen had the terminal
        return 130
    finally:
        peers.stop()


BOT_JOIN_S = 30.0  # how long the bot peers have to join before the host's own bot takes their seats
START_S = 20.0  # how long the seed exchange may take once the game is started


class PlayError(Exception):
    """The local game could not be opened or started."""


@dataclass
class BotPeers:
    """The bot peer processes of a local game: started before the game is open (they retry
    until it answers on ``port``), in a temporary directory ``work`` (their MQ_HOME, logs and
    output), which :meth:`stop` removes once they are stopped."""

    work: str
    port: int  # the game's port on 127.0.0.1 (0: not chosen yet; spawned once the game is open)
    procs: list  # subprocess.Popen or ForkedBot
    seed: int | None
    delay: float
    fork: bool = False  # fork this process (see ForkedBot) rather than start a new interpreter

    def spawn(self, players: int, port: int) -> None:
        self.port = port
        self.procs = [_spawn_bot(self.work, i, port, self.seed, self.delay, self.fork) for i in range(1, players)]

    def stop(self) -> None:
        import shutil

        _stop(self.procs)
        shutil.rmtree(self.work, ignore_errors=True)


def start_bot_peers(players: int, seed: int | None, delay: float, fork: bool = False) -> BotPeers:
    """Start ``players - 1`` bot peers for a game that will listen on a free pair of ports
    (the game's and its key service's) on 127.0.0.1; ``fork``: see :class:`ForkedBot`."""
    import tempfile

    peers = BotPeers(tempfile.mkdtemp(prefix="mq-play-"), 0, [], seed, delay, fork)
    port = _free_port_pair()
    if port:
        peers.spawn(players, port)
    return peers


def _free_port_pair() -> int:
    """A port P on 127.0.0.1 with P + 1 free too, or 0 when none turned up (the game then picks
    its own and the bot peers start after it)."""
    import socket

    for _ in range(20):
        with socket.socket() as a:
            a.bind(("127.0.0.1", 0))
            port = a.getsockname()[1]
            if port >= 65534:
                continue
            with socket.socket() as b:
                try:
                    b.bind(("127.0.0.1", port + 1))
                except OSError:
                    continue
            return port
    return 0


@dataclass
class LocalGame:
    table: object  # net.client.NetTable, seat 0
    missing: list[int]  # seats whose bot peer did not join: the host's own bot plays them
    bots: list[subprocess.Popen]  # the bot peer processes
    work: str  # their temporary directory (MQ_HOME, logs, output), removed at the end
    left: int | None = None  # the person left in the lobby (the exit code): the game never started


async def client(players: int, seed: int | None, delay: float, input=None, output=None,
                 log_file: str | None = None, peers: BotPeers | None = None, gender: str = "rolled",
                 start: int = 3, mode: str = "quest", epic: bool = False, packs: tuple[str, ...] = ()) -> int:
    """The full-screen client on seat 0 of a loopback LAN game against ``players - 1`` bot peers
    (``seed``: derive every peer's seed nonce from it; None: random, as on a LAN).  ``input`` and
    ``output`` default to the terminal (tests pass a pipe and DummyOutput); ``log_file`` is where
    the protocol log goes (mq.tui.terminal); ``peers``: bot peers already started
    (:func:`start_bot_peers`), else they are started here; ``gender`` is seat 0's (Q-SETUP-3),
    ``start`` the starting hand (Q-OPT-3), ``mode``, ``epic`` and ``packs`` the game's (C-OPT-3, 4)."""
    from mq.rules.state import COLOURS
    from mq.table import Notice
    from mq.tui import lobby
    from mq.tui.app import connect

    # A closed terminal (SIGHUP) or a kill (SIGTERM) ends the game like quitting does: the bot
    # processes are stopped and the temporary directory is removed.
    loop, me, signals = asyncio.get_running_loop(), asyncio.current_task(), []

    def _signal(sig: int) -> None:
        signals.append(sig)
        me.cancel()

    for sig in (signal.SIGHUP, signal.SIGTERM):
        loop.add_signal_handler(sig, _signal, sig)
    try:
        async def in_lobby(table, start_game):
            return await lobby.run(table, input=input, output=output, local=True, start=start_game,
                                   log_file=log_file)

        async with local_game(players, seed, delay, peers=peers, gender=gender, start=start,
                              lobby=in_lobby, mode=mode, epic=epic, packs=packs) as game:
            if game.left is not None:
                return game.left
            screen = connect(game.table, input=input, output=output, log_file=log_file)
            screen.model.known_bots = frozenset(range(1, players))  # every other seat is a bot peer
            for s in game.missing:
                screen.model.update(Notice("bot", s, f"{COLOURS[s].capitalize()}'s bot peer did not join: "
                                                     "the host's own bot plays that seat"))
            code = await screen.run()  # closes the table when the person quits
            log = game.table.peer.log
        if log is not None:  # the game's log stays under MQ_HOME/logs
            print(f"mq: the game's log is {log.path}\n"
                  f"mq: replay it with: mq replay {shlex.quote(log.path)} --as {COLOURS[0]}", flush=True)
        return code
    except PlayError as err:
        print(f"mq play: {err}", file=sys.stderr)
        return 1
    except asyncio.CancelledError:
        if not signals:
            raise
        return 128 + signals[0]
    finally:
        for sig in (signal.SIGHUP, signal.SIGTERM):
            loop.remove_signal_handler(sig)


@contextlib.asynccontextmanager
async def local_game(players: int, seed: int | None, delay: float, join_s: float = BOT_JOIN_S,
                     peers: BotPeers | None = None, gender: str = "rolled", start: int = 3, lobby=None,
                     mode: str = "quest", epic: bool = False, packs: tuple[str, ...] = ()):
    """Host a LAN game on 127.0.0.1 (seat 0, this process) with a bot peer process in every other
    seat (``peers``, or started here); yields a :class:`LocalGame` once the game has started.  A
    seat whose bot peer has not joined within ``join_s`` is played by the host's own bot, and so
    is one whose bot peer goes away for 3 s during the game (``--away bot``).  On leaving, stops
    the bot processes (by PID) and removes the temporary directory they lived in.  ``gender``:
    seat 0's (Q-SETUP-3; the bot peers leave theirs to the seed), ``start``: the starting hand.
    ``lobby``: ``await lobby(table, start)``, the lobby screen, which returns None once ``await
    start()`` has started the game, or an exit code when the person left (LocalGame.left);
    without it the game starts as soon as the bot peers have joined."""
    import secrets

    if peers is None:
        peers = start_bot_peers(players, seed, delay)
    from zmq import ZMQError

    from mq.rules.state import COLOURS
    from net.client import NetTable
    from net.peer import Config, PeerError

    table = None
    try:
        cfg = Config(name=(os.environ.get("USER") or "you")[:24], key=secrets.token_hex(32),
                     bind="127.0.0.1", port=peers.port, log_path=None, local_seed=seed,  # log: MQ_HOME/logs
                     gender=gender)
        try:
            try:
                table = await NetTable.host(cfg, players, away="bot", away_s=3, start=start, mode=mode, epic=epic,
                                            packs=packs)
            except (PeerError, OSError, ZMQError):
                if not peers.port:
                    raise
                # the port was taken since it was chosen: any free one, and the bot peers anew
                _stop(peers.procs)
                cfg.port = 0
                table = await NetTable.host(cfg, players, away="bot", away_s=3, start=start, mode=mode, epic=epic,
                                            packs=packs)
                peers.port = 0
        except (PeerError, OSError, ZMQError) as err:
            raise PlayError(f"could not open the local game: {err}") from None
        if peers.port != table.peer.port:
            peers.spawn(players, table.peer.port)
        bots, work = peers.procs, peers.work
        missing: list[int] = []

        async def start_game() -> None:
            deadline = time.monotonic() + join_s
            # Wait for the bot peers still running (one that has exited will not come): bounded.
            while table.peer.open_seats() > sum(p.poll() is not None for p in bots) and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            missing[:] = [s for s, info in enumerate(table.peer.seats) if info.kind == "open"]
            if missing:
                print(f"mq play: {len(missing)} bot peer(s) did not join within {join_s:.0f} s; this process's "
                      f"own bot plays {', '.join(COLOURS[s].capitalize() for s in missing)}{_why(work, bots)}",
                      file=sys.stderr, flush=True)
            table.start()
            if not await table.wait_started(START_S):
                raise PlayError(f"the game did not start: {table.peer.error or 'no seed from the bot peers'}")

        left = await lobby(table, start_game) if lobby is not None else await start_game()
        yield LocalGame(table, missing, bots, work, left)
    finally:
        peers.stop()
        if table is not None:
            await table.close()


def _why(work: str, bots: list[subprocess.Popen]) -> str:
    """The last error line of each bot peer that has exited, for the message above."""
    lines = []
    for i, p in enumerate(bots, 1):
        if p.poll() is not None:
            try:
                with open(os.path.join(work, f"bot{i}", "err"), encoding="utf-8", errors="replace") as f:
                    last = (f.read().strip().splitlines() or ["(no output)"])[-1]
            except OSError:
                last = "(no output)"
            lines.append(f"\n  bot peer {i} exited ({p.returncode}): {last}")
    return "".join(lines)


def _spawn_bot(work: str, i: int, port: int, seed: int | None, delay: float, fork: bool = False):
    """Bot peer ``i``: ``mq join 127.0.0.1:PORT --headless --bot`` with its own MQ_HOME and log,
    its output in files there (never on the screen); a new interpreter, or ``fork``ed."""
    import mq

    home = os.path.join(work, f"bot{i}")
    os.makedirs(home, exist_ok=True)
    args = ["join", f"127.0.0.1:{port}", "--headless", "--bot", "--bind", "127.0.0.1", "--name", f"bot{i}",
            "--log", os.path.join(home, "game.mqlog"), "--bot-delay", f"{delay}", "--connect-timeout", f"{BOT_JOIN_S}"]
    if seed is not None:
        args += ["--local-seed", str(seed)]
    if fork:
        return ForkedBot.start(home, args)
    root = os.path.dirname(os.path.dirname(os.path.abspath(mq.__file__)))
    env = dict(os.environ, MQ_HOME=home, PYTHONPATH=os.pathsep.join(
        p for p in (root, os.environ.get("PYTHONPATH")) if p))
    env.pop("MQ_TEST_PERTURB", None)
    with open(os.path.join(home, "out"), "wb") as out, open(os.path.join(home, "err"), "wb") as err:
        return subprocess.Popen([sys.executable, "-m", "mq.cli", *args], stdin=subprocess.DEVNULL, stdout=out,
                                stderr=err, env=env, cwd=home, preexec_fn=_die_with_parent())


def can_fork() -> bool:
    """Whether bot peers may be forked here: POSIX, and this process runs no event loop and no
    other thread (a forked child would inherit them half-alive)."""
    import threading

    if not hasattr(os, "fork"):
        return False
    try:
        asyncio.get_running_loop()
        return False
    except RuntimeError:
        return threading.active_count() == 1


class ForkedBot:
    """A bot peer in a child forked from this process: it has the modules a peer needs (and the
    card set) already imported, so it starts in milliseconds where a new interpreter spends a
    third of a second of CPU importing them.  The child runs what ``mq join ... --headless --bot``
    runs (net.cli.main) with its own MQ_HOME, its own sockets, identity and event loop, its output
    in files, and ends with os._exit.  Only forked while no socket, thread or event loop exists
    (:func:`can_fork`).  The parent sees it as subprocess.Popen would show it (poll, wait,
    terminate, kill, pid, returncode)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    @classmethod
    def start(cls, home: str, args: list[str]) -> "ForkedBot":
        sys.stdout.flush()
        sys.stderr.flush()
        pre = _die_with_parent()
        pid = os.fork()
        if pid:
            return cls(pid)
        code = 1
        try:  # the child: never returns into the parent's code
            if pre is not None:
                pre()
            os.chdir(home)
            null = os.open(os.devnull, os.O_RDONLY)
            out = os.open(os.path.join(home, "out"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            err = os.open(os.path.join(home, "err"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            for fd, to in ((null, 0), (out, 1), (err, 2)):
                os.dup2(fd, to)
                os.close(fd)
            os.environ["MQ_HOME"] = home
            os.environ.pop("MQ_TEST_PERTURB", None)
            import logging

            root = logging.getLogger()
            for h in list(root.handlers):  # the parent's protocol log is not the bot's
                root.removeHandler(h)
            from net import cli as netcli

            code = netcli.main(args)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
        except BaseException:
            import traceback

            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                self.returncode = -1
                return self.returncode
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"bot peer {self.pid}", timeout)
            time.sleep(0.01)
        return self.returncode

    def _signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self._signal(signal.SIGTERM)

    def kill(self) -> None:
        self._signal(signal.SIGKILL)


def _die_with_parent():
    """On Linux, a ``preexec_fn`` asking the kernel to SIGTERM the child when this process dies,
    so that a killed ``mq play`` leaves no bot peers behind (they would wait for seat 0 forever)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def pre() -> None:
        prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the parent died before that took effect
            os._exit(1)

    return pre


def _stop(procs: list) -> None:
    """Stop the bot peers this process started (SIGTERM, then SIGKILL after 3 s), by their PIDs."""
    for p in procs:
        if p.poll() is None:
            p.terminate()
    deadline = time.monotonic() + 3
    for p in procs:
        try:
            p.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(5)


def narrated(params, seed: int, delay: float = 0.0) -> int:
    """A whole bot game in plain sentences (mq.narrate), every seat a bot; ``params``: the table's
    options (mq.rules.Params)."""
    from mq.cards import load_default
    from mq.narrate import Narrator
    from mq.sim import play_game

    narrator = Narrator(load_default())
    what = {"classic": "Classic ", "quest": ""}[params.mode] + ("Epic " if getattr(params, "epic", False) else "")
    with_packs = f" with the packs {', '.join(params.packs)}" if getattr(params, "packs", ()) else ""
    print(f"mq: a {params.players}-player {what}bot game{with_packs}, seed {seed}")

    def show(state, events):
        lines = narrator.lines(state, events)
        for line in lines:
            print(line)
        if delay and lines:
            sys.stdout.flush()
            time.sleep(delay)

    try:
        result, _, _ = play_game(params.players, seed, on_step=show, params=params)
        print(f"\n{result.turns} turns, {result.actions} actions, final state hash {result.hash}")
    except BrokenPipeError:  # `mq play | head`: the reader has gone, which is fine
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m mq.tui.cli play ...``: the same command without the rest of ``mq``."""
    parser = argparse.ArgumentParser(prog="mq")
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
