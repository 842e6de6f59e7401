"""``mq host``, ``mq join`` and ``mq replay`` (``--as SEAT|table``: in the client, mq.tui.replay).

:func:`add_commands` registers the three on an argparse subparsers object (mq/cli.py calls it);
``python -m net.cli ...`` runs them on their own.

``mq host`` prints the join code first (``mq: join code XXXX-XXXX-XXXX ...``; not with ``--open``,
which admits without a code and needs ``--bind`` on loopback), then
``mq: hosting game <id> on port <p>`` when the lobby is open; headless peers print one more line when
the game ends
(``mq: game over after <n> entries, state hash <h>, winners <w>, log <path>``).
Exit status: 0 the game ended, 1 an error (refused, unreachable, timeout, bad log), 2 usage,
3 a desync (the report's path is printed).
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys

from mq import cliargs

DEFAULT_PORT = 47400
# Options whose value is a Z85 key, which starts with "-" for one key in 85: argparse would take
# such a value for an option of its own ("expected one argument").
KEY_OPTIONS = ("--server-key",)


def keys_attached(argv: list[str]) -> list[str]:
    """``argv`` with every ``--server-key VALUE`` written ``--server-key=VALUE``, so that a key
    that starts with "-" is read as the option's value."""
    out: list[str] = []
    it = iter(argv)
    for arg in it:
        value = next(it, None) if arg in KEY_OPTIONS else None
        out.append(arg if value is None else f"{arg}={value}")
    return out


def _tuning(p: argparse.ArgumentParser) -> None:
    """The network tuning group, and the options host and join share."""
    g = p.add_argument_group("network tuning (tests, slow networks)")
    g.add_argument("--ping-ms", type=cliargs.whole(10, 60_000, "ms"), default=250, help="heartbeat period (default 250)")
    g.add_argument("--dead-ms", type=cliargs.whole(20, 600_000, "ms"), default=1500,
                   help="silence before a peer counts as gone, more than --ping-ms (default 1500)")
    g.add_argument("--settle-ms", type=cliargs.whole(0, 600_000, "ms"), default=None,
                   help="how long a new or resumed sequencer waits for the others' logs "
                        "(default: 3x --dead-ms after a failover, 30 s on --resume)")
    g.add_argument("--timeout", type=cliargs.seconds, default=0, help="give up after this many seconds (0: never)")
    g.add_argument("--bind", default="0.0.0.0", help="address this peer listens on (default all)")
    g.add_argument("-v", "--verbose", action="store_true", help="log protocol events (INFO) too: to stderr, or with the full-screen client to its protocol log file")
    p.add_argument("--bot-delay", type=cliargs.seconds, default=0.0, metavar="SECONDS",
                   help="with --bot: seconds the bot thinks before each action (default 0)")
    # mq play only (a local game whose every peer is ours): the seed commit-reveal nonce is derived
    # from this instead of drawn at random (net.peer.Config.local_seed); hidden on purpose.
    p.add_argument("--local-seed", type=cliargs.seed, default=None, help=argparse.SUPPRESS)


def add_commands(sub) -> None:
    h = sub.add_parser("host", help="open a LAN game (or --resume one from a log)")
    h.add_argument("--port", type=cliargs.listen_port, default=DEFAULT_PORT,
                   help=f"TCP port (default {DEFAULT_PORT}; 0: any); the key service uses the next one")
    h.add_argument("--seats", type=int, default=4, help="players, 2 to 6 (default 4)")
    h.add_argument("--bots", type=cliargs.whole(0), default=0, help="how many of the seats bots play")
    h.add_argument("--name", default=None)
    h.add_argument("--window-ms", type=int, default=10_000, help="interrupt window timer (Q-OPT-1)")
    h.add_argument("--away", choices=("wait", "bot"), default="wait",
                   help="a disconnected player's seat is waited for, or played by a bot (Q-OPT-2)")
    h.add_argument("--away-s", type=cliargs.whole(0, unit="seconds"), default=60,
                   help="seconds before a bot takes an away seat")
    cliargs.add_table_options(h)
    cliargs.add_player_options(h)
    h.add_argument("--headless", action="store_true", help="no terminal client (needs --bot)")
    h.add_argument("--bot", action="store_true", help="the bot policy plays your seat")
    h.add_argument("--log", default=None, help="log file (default: under MQ_HOME/logs)")
    h.add_argument("--resume", metavar="LOGFILE", help="restart a game from any peer's log")
    h.add_argument("--no-beacon", action="store_true",
                   help="do not announce the game on the LAN (a game bound to loopback never does)")
    h.add_argument("--open", action="store_true",
                   help="admit players without a join code (only with --bind 127.0.0.1: local play)")
    _tuning(h)
    h.set_defaults(func=cmd_host)
    j = sub.add_parser("join", help="join a LAN game (no address: list games on the LAN)")
    j.add_argument("address", nargs="?", type=_address, help=f"HOST[:PORT] of the host (port {DEFAULT_PORT} if none)")
    j.add_argument("--name", default=None)
    j.add_argument("--watch", action="store_true", help="follow the game without a seat")
    cliargs.add_player_options(j)
    j.add_argument("--headless", action="store_true", help="no terminal client (needs --bot or --watch)")
    j.add_argument("--bot", action="store_true", help="the bot policy plays your seat")
    j.add_argument("--log", default=None, help="log file (default: under MQ_HOME/logs)")
    j.add_argument("--scan-s", type=cliargs.positive_seconds, default=2.5, help="how long to listen for games")
    j.add_argument("--connect-timeout", type=cliargs.positive_seconds, default=10.0,
                   help="seconds to wait for the host to answer")
    j.add_argument("--code", default=None, metavar="XXXX-XXXX-XXXX",
                   help="the join code the host shows (not needed to rejoin a game you play in)")
    j.add_argument("--no-beacon", action="store_true",
                   help="listen for no games on the LAN (a join never announces anything): give the address")
    j.add_argument("--server-key", default=None, metavar="Z85",
                   help="the host's public key, if you have it another way (instead of checking it with the code)")
    _tuning(j)
    j.set_defaults(func=cmd_join)
    r = sub.add_parser("replay", help="re-apply a game log; --verify checks every hash and the chain; "
                                      "--as SEAT steps through it in the full-screen client")
    r.add_argument("logfile")
    r.add_argument("--verify", action="store_true")
    r.add_argument("--narrate", action="store_true", help="print what happened, entry by entry")
    r.add_argument("--as", dest="as_seat", metavar="SEAT|table", default=None,
                   help="open the client on the log and step through it showing what that seat could "
                        "see: a seat number (from 0) or colour; 'table': public information only")
    r.set_defaults(func=cmd_replay)


def _setup_logging(args, who: str) -> None:
    """Protocol logging: to stderr for a headless peer or the line-mode client; to a file under
    MQ_HOME/logs when the full-screen client will own the terminal (mq.tui.terminal), its path
    printed now and kept in ``args.protocol_log`` for the client's ``i`` screen."""
    args.protocol_log = None
    if _full_screen(args):
        from mq.tui import terminal

        args.protocol_log = terminal.log_to_file(terminal.protocol_log_path(who), args.verbose, who)
        print(f"mq: protocol log in {args.protocol_log}", flush=True)
        return
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, stream=sys.stderr,
                        format=f"%(asctime)s {who} %(levelname)s %(message)s")


def _full_screen(args) -> bool:
    """Whether this command opens the full-screen client: a person at a terminal, playing a seat
    or watching (``mq join --watch``: the table as everyone sees it)."""
    return not args.headless and sys.stdin.isatty() and sys.stdout.isatty()


def _config(args, role: str):
    """The peer's Config from the command line; a player's process first holds its identity
    (net.identity.hold_seat: identity.InUse while another process on this machine plays with it)."""
    from net import identity
    from net.peer import Config

    key = identity.identity()
    if role == "play":
        identity.hold_seat()
    perturb = None
    spec = os.environ.get("MQ_TEST_PERTURB")  # test-only: "<seq>:<field.path>" (tests/test_net_desync)
    if spec:
        n, _, path = spec.partition(":")
        perturb = (int(n), path)
    dead = args.dead_ms / 1000
    settle = args.settle_ms / 1000 if args.settle_ms is not None else (
        30.0 if getattr(args, "resume", None) else 3 * dead)
    # A resumed host without --name keeps the name its seat has in the log's roster (net.peer).
    name = args.name or ("" if getattr(args, "resume", None) else os.environ.get("USER") or "player")
    return Config(name=name[:24], key=key, sign_key=identity.signing_seed(), role=role, bind=args.bind, port=getattr(args, "port", 0) or 0,
                  log_path=args.log, ping_s=args.ping_ms / 1000, dead_s=dead, settle_s=settle,
                  resend_s=max(1.0, dead), perturb=perturb, local_seed=args.local_seed,
                  admit="open" if getattr(args, "open", False) else "code", code=getattr(args, "code", None),
                  server_key=getattr(args, "server_key", None), known_keys_path=identity.known_keys_path(),
                  gender=getattr(args, "gender", "rolled"))


def _summary(table) -> int:
    peer = table.peer
    from mq.rules.state import COLOURS

    if peer.phase == "desync":
        print(f"mq: desync; report {peer.report_file}", flush=True)
        return 3
    if peer.phase != "ended":
        print(f"mq: stopped ({peer.error or peer.refusal or peer.phase}) at entry {peer.seq}", flush=True)
        return 1
    from mq.rules import state_hash

    winners = ",".join(COLOURS[w] for w in peer.state.winners) or "none"
    print(f"mq: game over after {peer.seq} entries, state hash {state_hash(peer.state):016x}, "
          f"winners {winners}, log {peer.log.path if peer.log else '-'}", flush=True)
    stats = os.environ.get("MQ_NET_STATS")  # where to dump raw numbers (python -m net.harness bench)
    if stats:
        import json

        with open(stats, "w", encoding="utf-8") as f:
            json.dump({"seat": peer.seat, "leader": peer.leader, "entries": peer.seq,
                       "seconds": peer.ended_at - peer.started_at if peer.started_at else None,
                       "commit_ms": peer.commit_ms, "drops": dict(peer.drops),
                       "wrong_codes": peer.stats["wrong_codes"]}, f)
    if peer.commit_ms:
        ms = sorted(peer.commit_ms)
        p99 = ms[min(len(ms) - 1, len(ms) * 99 // 100)]
        print(f"mq: commit latency p50 {ms[len(ms) // 2]:.2f} ms p99 {p99:.2f} ms "
              f"over {len(ms)} proposals; dropped {sum(peer.drops.values())} malformed", file=sys.stderr, flush=True)
    return 0


async def _finish(table, args, interactive_host: bool | None) -> int:
    from net import textclient
    from net.client import play_bot

    tasks: list[asyncio.Task] = []
    screen = None
    if args.bot and table.seat is not None:
        tasks.append(asyncio.create_task(play_bot(table, max(0.0, args.bot_delay))))
    if _full_screen(args):  # the full-screen client (mq/tui), for a seat or a watcher
        screen = asyncio.create_task(_terminal(table, interactive_host is True, args.protocol_log))
        tasks.append(screen)
    elif interactive_host is not None and not args.headless:
        tasks.append(asyncio.create_task(textclient.run(table, interactive_host)))
    elif getattr(args, "watch", False):
        tasks.append(asyncio.create_task(_narrate(table)))
    timeout = args.timeout or None
    try:
        finished = asyncio.create_task(table.wait_finished(timeout))
        tasks.append(finished)
        await asyncio.wait([t for t in (finished, screen) if t is not None], return_when=asyncio.FIRST_COMPLETED)
        # the game ended, or the network closed the table, before the person quit (quitting closes
        # the table too, which also sets ``finished``)
        ended_first = finished.done() and finished.result() and (
            screen is None or not screen.done() or table.peer.phase == "ended")
        if screen is not None and not screen.done() and ended_first:
            # the screen says so (its banner) until the person quits; only then do the last
            # lines go to the terminal, where they stay
            await screen
        if screen is not None and screen.done():
            if (err := screen.exception()) is not None:
                raise err
            if not ended_first:  # the person quit a game still going (the client closed the table)
                print("mq: you left the table", flush=True)
                return screen.result() or 0  # 130 after Ctrl-C
        done = finished.result()
        if not done:
            print(f"mq: timed out at entry {table.peer.seq}", flush=True)
            return 1
        code = _summary(table)
        if table.peer.leader:
            await asyncio.sleep(0.3)  # let the last fetches and the end message reach everyone
        return code
    finally:  # also on Ctrl-C: close the sockets and the log properly
        for t in tasks:
            t.cancel()
        await table.close()


async def _terminal(table, host: bool, log_file: str | None) -> int:
    """The lobby screen (mq.tui.lobby: the host chooses the table options and starts the game with
    Enter), then the full-screen client for the game itself (its protocol log in ``log_file``)."""
    from mq.tui import lobby
    from mq.tui.app import run

    if table.phase in ("idle", "lobby"):
        left = await lobby.run(table, log_file=log_file)
        if left is not None:
            return left
    await table.wait_started()
    return await run(table, log_file=log_file)


async def _narrate(table) -> None:
    from mq.narrate import Narrator
    from mq.table import Applied

    narrator = Narrator(table.peer.cards)
    async for item in table.updates():
        if isinstance(item, Applied):
            for line in narrator.lines(item.state, item.events):
                print(f"{item.seq:5} {line}", flush=True)


async def _host(args) -> int:
    from zmq import ZMQError

    from mq.rules import IllegalAction
    from net import discovery, identity
    from net.client import NetTable
    from net.peer import PeerError

    try:
        cfg = _config(args, "play")
        if args.resume:
            table = await NetTable.resume(cfg, args.resume)
        else:
            table = await NetTable.host(cfg, args.seats, args.bots, args.window_ms, args.away, args.away_s,
                                        args.starting_hand, args.mode, args.epic, args.packs)
    except IllegalAction as e:  # a table option the engine does not allow (Q-OPT, C-OPT)
        print(f"mq host: {cliargs.rule_words(e)}", file=sys.stderr)
        return 2
    except (OSError, ZMQError) as e:
        where = f"port {args.port} and {args.port + 1}" if args.port else "any free port"
        print(f"mq host: cannot open a game on {args.bind}, {where}: {_os_words(e)}", file=sys.stderr)
        return 1
    except (PeerError, ValueError, identity.InUse) as e:
        print(f"mq host: {e}", file=sys.stderr)
        return 1
    peer = table.peer
    what = "resuming" if args.resume else "hosting"
    if peer.join_code:
        # Shown to the host only (never in the beacon or a log line): the players type it.
        print(f"mq: join code {peer.join_code}  (players: mq join <this machine>:{peer.port} "
              f"--code {peer.join_code}; rejoining players need no code)", flush=True)
    print(f"mq: {what} game {peer.game.hex()} on port {peer.port}", flush=True)
    stop = asyncio.Event()
    beacon = None
    if not args.no_beacon:
        beacon = asyncio.create_task(discovery.beacon(lambda: {
            "game": peer.game.hex(), "name": cfg.name, "port": peer.port, "open": peer.open_seats(),
            "seats": len(peer.seats), "phase": peer.phase}, stop, bind=args.bind))
    if args.headless and not args.resume:
        async def start_when_full() -> None:
            # Again whenever the seed exchange missed a seat and the host went back to the lobby.
            while peer.phase in ("lobby", "seeding"):
                if peer.phase == "lobby" and peer.open_seats() == 0:
                    table.start()
                await asyncio.sleep(0.02)
        starter = asyncio.create_task(start_when_full())
    else:
        starter = None
    try:
        return await _finish(table, args, True)
    finally:
        stop.set()
        for t in (beacon, starter):
            if t is not None:
                t.cancel()


def _os_words(e: BaseException) -> str:
    """An OS or ZeroMQ error met while opening a game, as a reason in words."""
    import errno

    words = {
        errno.EADDRINUSE: "the port is in use (another game or program on it? --port 0 picks a free one)",
        errno.EADDRNOTAVAIL: "that address is not one of this machine's (see --bind)",
        errno.ENODEV: "that address is not one of this machine's (see --bind)",
        errno.EACCES: "permission denied (ports below 1024 need administrator rights)",
    }.get(getattr(e, "errno", None) or 0)
    if words:
        return words
    text = getattr(e, "strerror", None) or str(e)
    return text[:1].lower() + text[1:]


def _address(text: str) -> tuple[str, int]:
    """HOST[:PORT] (``[::1]:PORT`` for IPv6) as an argparse type."""
    if text.startswith("[") and "]" in text:  # [v6]:port
        host, _, rest = text[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    elif text.count(":") == 1:
        host, _, port = text.partition(":")
    else:  # a name, an IPv4 address or a bare IPv6 address
        host, port = text, ""
    if not host:
        raise argparse.ArgumentTypeError(f"{text!r} has no host: HOST[:PORT], e.g. 192.168.1.20:{DEFAULT_PORT}")
    return host, cliargs.port_of(port) if port else DEFAULT_PORT


async def _join(args) -> int:
    from zmq import ZMQError

    from net import discovery, identity
    from net.client import NetTable
    from net.peer import PeerError

    if not args.address and args.no_beacon:
        # The flag is the host's too, so that one set of flags keeps a manual run off the LAN.
        print("mq join: with --no-beacon no games are listened for: give the host's address "
              "(mq join HOST[:PORT])", file=sys.stderr)
        return 2
    if not args.address:
        games = await asyncio.get_running_loop().run_in_executor(None, discovery.scan, args.scan_s)
        if not games:
            print("mq: no games found on the LAN", flush=True)
            return 1
        for i, g in enumerate(games):
            print(f"{i + 1:2}. {g}", flush=True)
        if args.headless or not sys.stdin.isatty():
            return 0
        try:
            choice = input("join which game? ").strip()
            if not choice.isdigit() or not 1 <= int(choice) <= len(games):
                print(f"mq join: no game {choice!r} on the list; nothing joined", file=sys.stderr)
                return 2
            g = games[int(choice) - 1]
            host, port = g.host, g.port
            if args.code is None and args.server_key is None:
                args.code = input("join code (Enter if you are coming back to a game you play in): ").strip() or None
        except EOFError:  # Ctrl-D: the person changed their mind
            print(flush=True)
            return 1
    else:
        host, port = args.address
    try:
        cfg = _config(args, "watch" if args.watch else "play")
    except (ValueError, identity.InUse) as e:
        print(f"mq join: {e}", file=sys.stderr)
        return 1
    held = _HoldLogs()  # the refusal is said once, below, not also as a log line
    try:
        table = await NetTable.join(cfg, host, port, timeout=args.connect_timeout)
    except (PeerError, OSError, ValueError, ZMQError) as e:
        held.release(drop=str(e))
        print(f"mq join: {e}", file=sys.stderr)
        return 1
    held.release()
    who = "watching" if table.seat is None else f"seat {table.seat}"
    print(f"mq: joined game {table.peer.game.hex()} ({who}), listening on port {table.peer.port}", flush=True)
    return await _finish(table, args, None if args.watch else False)


class _HoldLogs(logging.Filter):
    """Holds back log records (on the root's handlers) until :meth:`release`, which lets them
    through, less any whose message is ``drop``: what the command is about to print itself."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []
        self.handlers = list(logging.getLogger().handlers)
        for h in self.handlers:
            h.addFilter(self)

    def filter(self, record: logging.LogRecord) -> bool:
        if not (self.records and self.records[-1] is record):  # each handler asks about it
            self.records.append(record)
        return False

    def release(self, drop: str | None = None) -> None:
        for h in self.handlers:
            h.removeFilter(self)
        for r in self.records:
            if r.getMessage() != drop:
                for h in self.handlers:
                    if r.levelno >= h.level:
                        h.handle(r)
        self.records = []


def _check_usage(args, parser_name: str) -> int | None:
    """Options that make sense one by one but not together, and files that must be there:
    exit status 2 and the reason, before anything opens."""
    def bad(text: str) -> int:
        print(f"mq {parser_name}: {text}", file=sys.stderr)
        return 2

    if args.headless and not (args.bot or getattr(args, "watch", False)):
        return bad("--headless needs --bot (a seat must be played by someone)"
                   + (" or --watch" if parser_name == "join" else ""))
    if args.dead_ms <= args.ping_ms:
        return bad(f"--dead-ms ({args.dead_ms}) must be more than --ping-ms ({args.ping_ms}): "
                   "a peer is gone only after several missed heartbeats")
    if args.log and not os.path.isdir(os.path.dirname(os.path.abspath(args.log))):
        return bad(f"--log {args.log}: there is no folder {os.path.dirname(os.path.abspath(args.log))}")
    resume = getattr(args, "resume", None)
    if resume and not os.path.isfile(resume):
        return bad(f"--resume {resume}: no such log file")
    return None


def cmd_host(args) -> int:
    bad = _check_usage(args, "host")
    if bad is not None:
        return bad
    from net.transport import is_loopback

    if args.open and not is_loopback(args.bind):
        print("mq host: --open admits anyone without a join code: only with --bind 127.0.0.1 (local play)",
              file=sys.stderr)
        return 2
    if not args.resume:  # the table options, before any socket opens (a busy port must not hide a bad option)
        from mq.rules import IllegalAction
        from net import options

        try:
            options.make(args.seats, args.window_ms, args.away, args.away_s, args.starting_hand)
        except IllegalAction as e:  # Q-OPT
            print(f"mq host: {cliargs.rule_words(e)}", file=sys.stderr)
            return 2
        if not 0 <= args.bots < args.seats:
            print(f"mq host: --bots {args.bots}: the bots must leave seat 0 for you ({args.seats} seats)", file=sys.stderr)
            return 2
    _setup_logging(args, "host")
    try:
        return asyncio.run(_host(args))
    except KeyboardInterrupt:
        return 130


def cmd_join(args) -> int:
    bad = _check_usage(args, "join")
    if bad is not None:
        return bad
    _setup_logging(args, "join")
    try:
        return asyncio.run(_join(args))
    except KeyboardInterrupt:
        return 130


def cmd_replay(args) -> int:
    from net.replay import replay, verdict

    as_seat = getattr(args, "as_seat", None)
    if as_seat is not None and not (args.verify or args.narrate):
        return _replay_client(args.logfile, as_seat)
    res = replay(args.logfile, narrate=args.narrate)
    for line in res.lines:
        print(line)
    for p in res.problems:
        print(f"PROBLEM: {p}")
    if args.verify:
        print(verdict(res))
        code = 0 if res.ok else 1
    else:
        code = 0 if res.readable else 1
    if as_seat is None or code != 0:  # --verify --as: the client opens only on a log that passed
        return code
    sys.stdout.flush()
    return _replay_client(args.logfile, as_seat)


def _replay_client(path: str, as_seat: str) -> int:
    """``mq replay LOG --as SEAT|table``: the full-screen client stepping through the log
    (mq.tui.replay); exit 1 for a log that cannot be read, 2 for a bad seat or no terminal."""
    from mq.tui.replay import ReplayTable, run
    from net import gamelog

    try:
        table = ReplayTable.read(path, as_seat)
    except ValueError as e:
        print(f"mq replay: {e}", file=sys.stderr)
        return 2
    except (gamelog.LogCorrupt, OSError) as e:
        print(f"mq replay: {e}", file=sys.stderr)
        return 1
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("mq replay: --as opens the full-screen client, which needs a terminal "
              "(--narrate prints the game instead)", file=sys.stderr)
        return 2
    try:
        return asyncio.run(run(table))
    except KeyboardInterrupt:
        return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mq", description="LAN play: host, join, replay.")
    sub = parser.add_subparsers(dest="command", required=True)
    add_commands(sub)
    args = parser.parse_args(keys_attached(sys.argv[1:] if argv is None else argv))
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
