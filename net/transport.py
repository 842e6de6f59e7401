"""The one place that creates sockets: ZeroMQ (always CurveZMQ), the ZAP handler, the key service.

Socket options, and why:
- ``LINGER`` 0: an unsent message never keeps a process (or ``ctx.term()``) alive; the protocol
  recovers anything lost (catch-up requests, resent proposals).  A clean exit lingers briefly
  (:func:`close`) so a last report or ``bye`` still goes out.
- ``SNDHWM``/``RCVHWM`` 10 000 messages: far above a game's burst (one entry per action), low enough
  to bound memory for a stuck peer.  Sends never block: they use DONTWAIT and a full queue or an
  unknown peer drops the message, which the receiver notices as a sequence gap and fetches.
- ``ROUTER_MANDATORY``: a ROUTER reports an unknown routing id instead of dropping silently.
- ``MAXMSGSIZE`` = wire.MAX_MESSAGE: a peer sending a bigger frame is disconnected by libzmq.
- ZMTP heartbeats (``HEARTBEAT_IVL``/``TIMEOUT``/``TTL``): a frozen or vanished TCP peer is dropped
  by libzmq after about ``timeout``; the application also has its own pings (net.peer) because it
  needs to know *which seat* went away.
- ``RECONNECT_IVL`` 100 ms (max 1 s): a DEALER finds a restarted sequencer quickly.
- ``HANDSHAKE_IVL`` 5 s: a connection that has not finished its CURVE handshake by then is closed
  (a real one takes milliseconds, a slow Wi-Fi well under a second), so idle or half-open
  connections from anyone cannot pile up and use the descriptors the players need (issue 13).

Descriptors: each runtime raises the process's soft limit on open files to its hard limit (at most
FD_WANT, :func:`raise_fd_limit`): with the common soft limit of 1024 a burst of idle connections
would otherwise exhaust it before the handshake interval closes them.  And a ROUTER keeps at most
net.limits.PER_ADDRESS connections from one address and net.limits.total_for(the soft limit) in
all: libzmq has no accept filter, so a socket monitor reports each accepted connection's
descriptor, whose peer address is read from a duplicate of it (``getpeername``), and a connection
over a limit is shut (``shutdown`` on the duplicate: libzmq sees it end and closes it).  A
descriptor number is read only for an accept whose close is not already queued behind it, so
a number reused meanwhile is not mistaken for the connection that had it.

Security (docs/net.md, "Security"):
- Every ROUTER is a CURVE server with the peer's long-term key pair (net.identity) and
  ``ZAP_DOMAIN``; every DEALER is a CURVE client that must name the server's public key: a wrong key
  fails the handshake and nothing is delivered either way.  Links are encrypted and each message's
  ``User-Id`` property is the sender's CURVE public key (Z85), checked by the handshake.
- One ZAP handler per context (:class:`Gate`, pyzmq's zmq.auth Authenticator with a callback on
  ``ZAP_DOMAIN``, the same domain the ROUTERs use, and ``ZAP_ENFORCE_DOMAIN``): it admits any
  client key to the handshake; who may come in and sit where is decided by the peer from
  ``User-Id`` (net.admission).  It is started before any ROUTER is bound.
- The **key service**: a plain TCP listener on the ROUTER's port + 1 that sends its public key
  (``MQKEY <protocol> <Z85 key>\n``) to whoever connects and reads nothing.  A joiner uses it to
  learn a key it then has to check (a join code's tag, a known key; net.peer): the answer is not
  trusted by itself.  It keeps the ROUTER's connection caps (net.limits, counted apart), so one
  address cannot hold its descriptors.
"""
from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
import weakref
from dataclasses import dataclass
from typing import Any, Callable, cast

import zmq
import zmq.asyncio
from zmq.auth.base import Authenticator

from net import limits, wire

log = logging.getLogger("mq.net")

HWM = 10_000
ZAP_DOMAIN = "mq"
KEY_MAGIC = b"MQKEY"
KEY_ANSWER_S = 2.0  # the longest the key service holds a connection (a client that does not read)
KEY_BACKLOG = 128  # connections waiting for the key service's accept (a flood fills a short queue)
HEARTBEAT_IVL_MS = 500
HEARTBEAT_TIMEOUT_MS = 1500
HANDSHAKE_IVL_MS = 5000
FD_WANT = 65_536  # open files a peer asks for (the soft limit raised up to the hard one)


def raise_fd_limit(want: int = FD_WANT) -> int:
    """Raise this process's soft limit on open files toward its hard limit (never lower it);
    the soft limit now, or -1 where the platform has no such limit."""
    try:
        import resource
    except ImportError:  # not a POSIX system
        return -1
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError) as e:  # a sandbox may refuse: keep going with what there is
            log.info("could not raise the open-file limit from %d to %d: %s", soft, target, e)
    return soft


def context() -> zmq.asyncio.Context:
    return zmq.asyncio.Context()


def _common(sock: zmq.Socket) -> None:
    sock.setsockopt(zmq.LINGER, 0)
    sock.setsockopt(zmq.SNDHWM, HWM)
    sock.setsockopt(zmq.RCVHWM, HWM)
    sock.setsockopt(zmq.MAXMSGSIZE, wire.MAX_MESSAGE)
    sock.setsockopt(zmq.HEARTBEAT_IVL, HEARTBEAT_IVL_MS)
    sock.setsockopt(zmq.HEARTBEAT_TIMEOUT, HEARTBEAT_TIMEOUT_MS)
    sock.setsockopt(zmq.HEARTBEAT_TTL, HEARTBEAT_TIMEOUT_MS)
    sock.setsockopt(zmq.RECONNECT_IVL, 100)
    sock.setsockopt(zmq.RECONNECT_IVL_MAX, 1000)
    sock.setsockopt(zmq.HANDSHAKE_IVL, HANDSHAKE_IVL_MS)


class _Zap(Authenticator):
    """pyzmq's Authenticator (zmq.auth) served by a task of ours on an asyncio socket.

    Not ``zmq.auth.asyncio.AsyncioAuthenticator``: its ``stop()`` closes the ZAP socket while its
    poll task still watches the file descriptor, and that task lets go of the descriptor only later,
    when the cancellation runs; a ZAP socket made meanwhile in another context of the process gets
    the same descriptor number, loses its watch, and never answers (so no handshake completes)."""

    def start(self) -> None:
        # An asyncio socket: the context is a zmq.asyncio one.
        self.zap_socket = cast(zmq.Socket, cast(zmq.asyncio.Context, self.context).socket(zmq.REP))
        self.zap_socket.linger = 1
        self.zap_socket.bind("inproc://zeromq.zap.01")
        self._task = asyncio.get_running_loop().create_task(self._serve())

    async def _serve(self) -> None:
        while True:
            msg = await cast(zmq.asyncio.Socket, self.zap_socket).recv_multipart()
            try:
                await self.handle_zap_message(msg)  # replies (send_multipart) before it returns
            except Exception:  # a bad request must not stop the handler (then nobody connects)
                log.exception("ZAP request failed")

    async def aclose(self) -> None:
        """Stop: the task lets go of the socket (and its file descriptor) before it is closed."""
        self._task.cancel()
        try:
            await self._task
        except (asyncio.CancelledError, Exception):  # cancelled, as asked
            pass
        self.zap_socket.close()


class Gate:
    """The ZAP handler of one context: every CURVE client may try the handshake (admission is the
    sequencer's, after it: net.admission).  Shared by the peers of a context."""

    def __init__(self, ctx: zmq.asyncio.Context) -> None:
        self.auth = _Zap(ctx, log=logging.getLogger("mq.net.zap"))
        self.auth.start()
        # The callback's domain must be the ROUTERs' zap_domain, or no handshake ever completes.
        self.auth.configure_curve_callback(ZAP_DOMAIN, self)
        self.users = 0

    def callback(self, domain: str, key: bytes) -> bool:
        """pyzmq calls this for each CURVE handshake on ``domain`` (key in Z85)."""
        return domain == ZAP_DOMAIN


_gates: "weakref.WeakKeyDictionary[zmq.asyncio.Context, Gate]" = weakref.WeakKeyDictionary()


def gate(ctx: zmq.asyncio.Context) -> Gate:
    """The context's ZAP handler (started on first use; needs a running event loop).  Pair every
    call with :func:`release_gate`."""
    g = _gates.get(ctx)
    if g is None:
        g = _gates[ctx] = Gate(ctx)
    g.users += 1
    return g


def release_gate_unstarted(ctx: zmq.asyncio.Context) -> None:
    """:func:`release_gate` for a peer whose construction failed, before the loop ran again (so
    before the ZAP task, if it is this peer's, ever touched its socket)."""
    g = _gates.get(ctx)
    if g is not None:
        g.users -= 1
        if g.users <= 0:
            del _gates[ctx]
            g.auth._task.cancel()
            g.auth.zap_socket.close()


async def release_gate(ctx: zmq.asyncio.Context) -> None:
    """Stop the context's ZAP handler when its last user goes (before ``ctx.term()``)."""
    g = _gates.get(ctx)
    if g is not None:
        g.users -= 1
        if g.users <= 0:
            del _gates[ctx]
            await g.auth.aclose()


def _listener(host: str, port: int) -> socket.socket:
    """A plain TCP listening socket (the key service), bound now, served later."""
    info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    s = socket.socket(info[0], socket.SOCK_STREAM)
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(info[4])
        s.listen(KEY_BACKLOG)
        s.setblocking(False)
    except OSError:
        s.close()
        raise
    return s


def router(ctx: zmq.asyncio.Context, host: str, port: int, public: bytes,
           secret: bytes) -> tuple[zmq.asyncio.Socket, int, socket.socket]:
    """A bound CURVE-server ROUTER (every peer has one: it is where others connect if it becomes
    sequencer) and the key service's listener on the next port.  ``port`` 0 picks a free pair;
    returns the socket, its port and the listener.  The context's ZAP handler (:func:`gate`) must be
    running."""
    for _ in range(100 if not port else 1):
        sock = ctx.socket(zmq.ROUTER)
        _common(sock)
        sock.setsockopt(zmq.ROUTER_MANDATORY, 1)
        sock.curve_secretkey = secret
        sock.curve_publickey = public
        sock.curve_server = True
        sock.zap_domain = ZAP_DOMAIN.encode()
        sock.setsockopt(zmq.ZAP_ENFORCE_DOMAIN, 1)  # no ZAP answer: no connection
        try:
            if port:
                sock.bind(f"tcp://{host}:{port}")
                got = port
            else:
                got = sock.bind_to_random_port(f"tcp://{host}", min_port=20000, max_port=60000, max_tries=200)
            keys = _listener(host, got + 1)
        except (zmq.ZMQError, OSError):
            sock.close(0)
            if port:
                raise
            continue
        return sock, got, keys
    raise zmq.ZMQError(zmq.EADDRINUSE, "no free pair of ports for the ROUTER and the key service")


def dealer(ctx: zmq.asyncio.Context, host: str, port: int, public: bytes, secret: bytes,
           server_key: bytes) -> zmq.asyncio.Socket:
    """A CURVE-client DEALER connected to the peer at host:port whose public key is
    ``server_key``.  Its routing id is left to the ROUTER: seats are bound by the connection's
    CURVE key (``User-Id``), never by a routing id or a field a peer could choose."""
    sock = ctx.socket(zmq.DEALER)
    _common(sock)
    # Do not queue messages for a peer that is not connected yet: a proposal sent into the void
    # would be resent by libzmq after a reconnect *and* by us; we resend ourselves after welcome.
    # (A wrong server key never completes the handshake, so nothing is ever sent to it.)
    sock.setsockopt(zmq.IMMEDIATE, 1)
    sock.curve_serverkey = server_key
    sock.curve_publickey = public
    sock.curve_secretkey = secret
    sock.connect(f"tcp://{host}:{port}")
    return sock


async def serve_key(listener: socket.socket, public: bytes,
                    caps: limits.ConnectionLimits | None = None) -> asyncio.AbstractServer:
    """Answer every connection on ``listener`` with this peer's public key; read nothing.  Each
    connection counts against ``caps`` (the game port's limits, net.limits) from its accept until
    it is closed (at most ``KEY_ANSWER_S`` later); one over them is closed unanswered, or takes the
    place of the busiest address's newest, exactly as on the ROUTER."""
    line = b"%s %d %s\n" % (KEY_MAGIC, wire.PROTOCOL, public)
    caps = caps or limits.ConnectionLimits()
    held: dict[int, asyncio.StreamWriter] = {}  # descriptor -> the connection being answered

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        peer = writer.get_extra_info("peername")
        fd = sock.fileno() if sock is not None else -1
        victim = caps.accepted(fd, peer[0]) if fd >= 0 and peer else None
        try:
            if victim is not None and victim != fd and victim in held:
                held.pop(victim).close()  # (its own answer's finally sees it gone)
            if victim == fd:
                log.debug("key service: connection from %s closed: over the connection limits", peer[0])
                return
            held[fd] = writer
            writer.write(line)
            await asyncio.wait_for(writer.drain(), KEY_ANSWER_S)
        except (OSError, asyncio.TimeoutError):
            pass
        finally:
            if held.get(fd) is writer:
                del held[fd]
                caps.closed(fd)
            writer.close()

    return await asyncio.start_server(answer, sock=listener)


def _unreachable_words(e: BaseException, port: int) -> str:
    """Why a connection to the key service at ``port`` failed, in words a player understands."""
    if isinstance(e, socket.gaierror):
        return "no machine of that name is known (check the address)"
    if isinstance(e, ConnectionRefusedError):
        return (f"nothing listens on port {port}, where a host tells joiners its key "
                "(no game there, or it has not opened yet)")
    if isinstance(e, (asyncio.TimeoutError, TimeoutError)):
        return "no answer"
    if isinstance(e, OSError) and e.strerror:
        return e.strerror[:1].lower() + e.strerror[1:]
    return "no answer"


class KeyServiceError(Exception):
    """The key service did not answer, or answered something that is not a key."""


async def fetch_key(host: str, port: int, timeout: float) -> str:
    """The public key (Z85 text) that the key service of the peer whose ROUTER is host:port
    announces.  Not to be trusted as such: the caller checks it.  Retries until ``timeout``."""
    end = time.monotonic() + timeout
    why = "no answer"
    while True:
        left = end - time.monotonic()
        if left <= 0:
            where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
            raise KeyServiceError(f"no mq game answers at {where}: {why}")
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port + 1, limit=256), left)
            try:
                data = await asyncio.wait_for(reader.readline(), max(0.05, end - time.monotonic()))
            finally:
                writer.close()
        except ValueError:  # a line longer than the limit
            raise KeyServiceError(f"{host}:{port + 1} is not an mq key service") from None
        except (OSError, asyncio.TimeoutError) as e:
            why = _unreachable_words(e, port + 1)
            await asyncio.sleep(min(0.1, max(0.0, end - time.monotonic())))
            continue
        parts = data.split()
        if (len(parts) != 3 or parts[0] != KEY_MAGIC or not data.endswith(b"\n")
                or len(parts[2]) != 40):
            raise KeyServiceError(f"{host}:{port + 1} is not an mq key service")
        if parts[1] != str(wire.PROTOCOL).encode():
            raise KeyServiceError(f"cannot play with the game at {host}:{port}: "
                                  f"{wire.other_version(parts[1].decode('ascii', 'replace'), wire.PROTOCOL)}")
        try:
            return parts[2].decode("ascii")
        except UnicodeDecodeError:
            raise KeyServiceError(f"{host}:{port + 1} sent a bad key") from None


def send(sock: zmq.asyncio.Socket, parts: list) -> bool:
    """Send now or drop: never blocks the event loop on a slow or vanished peer.  Returns whether
    libzmq took the message."""
    try:
        # zmq.asyncio returns a Future done at once (DONTWAIT) unless a blocking send is queued.
        f = cast("asyncio.Future", sock.send_multipart(parts, flags=zmq.DONTWAIT, copy=True))
    except zmq.ZMQError:
        return False
    if f.done():
        return f.exception() is None
    # Only reachable if someone queued a blocking send on this socket; let it finish on its own.
    f.add_done_callback(lambda fut: fut.exception())
    return True


def close(sock: zmq.Socket | None, linger_ms: int = 0) -> None:
    if sock is not None and not sock.closed:
        sock.close(linger=linger_ms)


def peer_address(frame) -> str:
    """The sender's IP address as ZeroMQ saw the connection (a received frame's ``Peer-Address``)."""
    try:
        return frame.get("Peer-Address") or "127.0.0.1"
    except zmq.ZMQError:
        return "127.0.0.1"


def _message(frames: list) -> dict:
    """The protocol message in the last frame (bytes or zmq.Frame), for a fault rule; {} if none."""
    last = frames[-1] if frames else b""
    try:
        msg = wire.unpack_any(last if isinstance(last, bytes) else last.bytes)
    except Exception:  # not ours to judge: the peer drops it with a counter
        return {}
    return msg if type(msg) is dict else {}


@dataclass
class Faults:
    """The fault seam (docs/net.md, "The fault seam"): what a test makes the network do to one
    peer's messages, instead of replacing the peer's methods.  ``lose_sent(msg)`` is asked about
    every message the peer sends (ROUTER or DEALER), ``lose_received(msg)`` about every one that
    reaches it, with the message decoded (a dict: ``msg["t"]`` is its type); True loses it, as a
    network that stops carrying it (the connections stay up, ZeroMQ's heartbeats still flow).
    Unset, they cost nothing: a message is decoded for a rule only."""

    lose_sent: Callable[[dict], bool] | None = None
    lose_received: Callable[[dict], bool] | None = None


class ZmqRuntime:
    """A peer's I/O on the real machine: ZeroMQ sockets, the asyncio event loop, the monotonic
    clock, ``os.urandom``.  net.peer.Peer does all its I/O, timing and randomness through one of
    these, so that net.sim can run the same Peer code over a simulated network in virtual time
    (net.sim.SimRuntime has the same methods), and tests inject faults through its ``faults``
    (:class:`Faults`).

    A socket handle is what :meth:`router` / :meth:`dealer` return and :meth:`send` /
    :meth:`close` take; received frames reach the peer as lists of objects with ``.bytes`` and
    ``.get(property)`` (zmq.Frame: ``User-Id``, ``Peer-Address``)."""

    now = staticmethod(time.monotonic)  # timers (heartbeats, deadlines)
    perf = staticmethod(time.perf_counter)  # latency statistics only
    random = staticmethod(os.urandom)  # incarnations, game ids, seed nonces, fresh identities
    close = staticmethod(close)

    def __init__(self, ctx: zmq.asyncio.Context | None = None) -> None:
        raise_fd_limit()
        self.ctx = ctx or context()
        self._own_ctx = ctx is None
        self.gate: Gate | None = None
        self._key_listener: socket.socket | None = None
        self.faults = Faults()
        # The ROUTER's connections and their limits (net.limits), from the soft limit raised above.
        self.limits = limits.ConnectionLimits(total=limits.total_for(_soft_fd_limit()))
        # The key service's (port + 1): the same caps, counted apart (it holds each connection
        # only while it writes one line).
        self.key_limits = limits.ConnectionLimits(total=self.limits.total)

    def send(self, sock: zmq.asyncio.Socket, parts: list) -> bool:
        """Send now or drop (:func:`send`); a message a fault rule loses counts as taken."""
        lose = self.faults.lose_sent
        if lose is not None and lose(_message(parts)):
            return True
        return send(sock, parts)

    def _heard(self, deliver: Callable[[list], Any]) -> Callable[[list], Any]:
        """``deliver`` behind the ``lose_received`` rule, read at each message (a test sets it
        while the peer runs).  A lost message is one a DEALER goes on listening after."""
        def heard(frames: list) -> Any:
            lose = self.faults.lose_received
            return True if lose is not None and lose(_message(frames)) else deliver(frames)
        return heard

    @staticmethod
    def call_soon(fn: Callable[[], None]) -> None:
        asyncio.get_running_loop().call_soon(fn)

    @staticmethod
    def call_later(delay: float, fn: Callable[[], None]) -> None:
        asyncio.get_running_loop().call_later(delay, fn)

    @staticmethod
    def sync_soon(fn: Callable[[], None]) -> None:
        """Run ``fn``, which makes the log durable (fdatasync), in a later callback: whatever was
        sent before is on its way meanwhile (ZeroMQ's I/O thread writes it to the network).  (The
        simulation runs it after a simulated fdatasync time, so a crash can land during it.)"""
        asyncio.get_running_loop().call_soon(fn)

    def router(self, host: str, port: int, public: bytes, secret: bytes) -> tuple[zmq.asyncio.Socket, int]:
        """The peer's ZAP handler (first: the ROUTER admits nobody without it), its bound ROUTER
        and its key service's listener; returns the ROUTER and its port."""
        self.gate = gate(self.ctx)
        try:
            sock, got, self._key_listener = router(self.ctx, host, port, public, secret)
        except BaseException:
            release_gate_unstarted(self.ctx)
            if self._own_ctx:
                self.ctx.term()
            raise
        return sock, got

    def dealer(self, host: str, port: int, public: bytes, secret: bytes, server_key: bytes) -> zmq.asyncio.Socket:
        return dealer(self.ctx, host, port, public, secret, server_key)

    def start(self, sock: zmq.asyncio.Socket, deliver: Callable[[list], None], tick: Callable[[float], None],
              public: bytes) -> list[asyncio.Task]:
        """Serve the ROUTER (``deliver(frames)`` per message), the timer (``tick(now)`` every 50 ms)
        and the key service; returns the tasks (cancelled by :meth:`aclose`)."""
        loop = asyncio.get_running_loop()
        return [loop.create_task(self._router_loop(sock, self._heard(deliver))), loop.create_task(self._timer_loop(tick)),
                loop.create_task(self._key_service(public)), loop.create_task(self._limit_loop(sock))]

    async def _limit_loop(self, sock: zmq.asyncio.Socket) -> None:
        """Keep the ROUTER's connections within ``self.limits`` (the module docstring)."""
        from zmq.utils.monitor import parse_monitor_message

        mon = sock.get_monitor_socket(zmq.EVENT_ACCEPTED | zmq.EVENT_DISCONNECTED | zmq.EVENT_CLOSED)
        try:
            while True:
                batch = [await mon.recv_multipart()]
                while len(batch) < 1000:  # what is queued already: an accept closed later in it is skipped
                    f = cast("asyncio.Future[list]", mon.recv_multipart(flags=zmq.NOBLOCK))
                    if not f.done() or f.exception() is not None:
                        if not f.done():
                            f.cancel()
                        break
                    batch.append(f.result())
                events = [(ev["event"], int(ev["value"])) for ev in map(parse_monitor_message, batch)]
                last_close = {fd: i for i, (kind, fd) in enumerate(events) if kind != zmq.EVENT_ACCEPTED}
                for i, (kind, fd) in enumerate(events):
                    if kind != zmq.EVENT_ACCEPTED:
                        self.limits.closed(fd)
                        continue
                    addr = None if last_close.get(fd, -1) > i else _peer_ip(fd)
                    if addr is not None:
                        victim = self.limits.accepted(fd, addr)
                        if victim is not None:
                            _shut(victim)
                            log.debug("connection from %s shut: over the connection limits", addr)
        finally:
            try:
                sock.disable_monitor()
            except zmq.ZMQError:
                pass
            mon.close(0)

    def listen(self, sock: zmq.asyncio.Socket, deliver: Callable[[list], bool]) -> asyncio.Task:
        """Serve a DEALER: ``deliver(frames)`` per message, until it returns False."""
        return asyncio.get_running_loop().create_task(self._dealer_loop(sock, self._heard(deliver)))

    # A handler may close the socket it is handling a message of (Peer.connect_dealer, on a
    # ``retry``: the DEALER is replaced from inside its own loop's task, whose cancellation lands
    # only at its next wait).  Reading the closed socket again raised "Socket operation on
    # non-socket", which no one retrieved from the cancelled task and asyncio printed at exit:
    # each loop ends as soon as its socket is closed.
    @staticmethod
    async def _router_loop(sock: zmq.asyncio.Socket, deliver: Callable[[list], None]) -> None:
        while not sock.closed:
            deliver(await sock.recv_multipart(copy=False))
            for _ in range(256):  # drain what is already here, so one flush covers the batch
                if sock.closed:
                    return
                f = cast("asyncio.Future[list]", sock.recv_multipart(flags=zmq.NOBLOCK, copy=False))
                if not f.done() or f.exception() is not None:
                    if not f.done():
                        f.cancel()
                    break
                deliver(f.result())

    @staticmethod
    async def _dealer_loop(sock: zmq.asyncio.Socket, deliver: Callable[[list], bool]) -> None:
        while not sock.closed:
            if not deliver(await sock.recv_multipart(copy=False)):
                return

    @staticmethod
    async def _timer_loop(tick: Callable[[float], None]) -> None:
        while True:
            await asyncio.sleep(0.05)
            tick(time.monotonic())

    async def _key_service(self, public: bytes) -> None:
        """Tell whoever asks on port + 1 this peer's public key (:func:`serve_key`)."""
        assert self._key_listener is not None  # router() made it
        server = await serve_key(self._key_listener, public, self.key_limits)
        try:
            await asyncio.Future()
        finally:
            server.close()

    @staticmethod
    async def cancel(tasks: list) -> None:
        """Stop the tasks (:meth:`start`, :meth:`listen`) and wait until they have."""
        for t in tasks:
            t.cancel()
        for t in tasks:
            try:
                await t
            except (asyncio.CancelledError, Exception):
                pass

    async def aclose(self, sockets: list, linger_ms: int) -> None:
        """Close the sockets and the key service, release the ZAP handler."""
        if self._key_listener is not None:
            self._key_listener.close()
        for sock in sockets:
            close(sock, linger_ms)
        await release_gate(self.ctx)
        if self._own_ctx:
            self.ctx.term()


def _soft_fd_limit() -> int:
    try:
        import resource
    except ImportError:  # not a POSIX system
        return -1
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return -1 if soft == resource.RLIM_INFINITY else soft


def _peer_ip(fd: int) -> str | None:
    """The address at the other end of TCP connection ``fd`` (None: not a connected socket)."""
    s = _dup(fd)
    if s is None:
        return None
    with s:
        try:
            return s.getpeername()[0]
        except OSError:
            return None


def _shut(fd: int) -> None:
    """End TCP connection ``fd`` (shut through a duplicate: libzmq, which owns ``fd``, sees the
    end and closes it)."""
    s = _dup(fd)
    if s is None:
        return
    with s:
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _dup(fd: int) -> socket.socket | None:
    """A socket object on a duplicate of descriptor ``fd`` (closing it leaves ``fd`` open), or
    None if ``fd`` is not a socket (any more)."""
    try:
        dup = os.dup(fd)
    except OSError:
        return None
    try:
        return socket.socket(fileno=dup)
    except OSError:
        os.close(dup)
        return None


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or name) means this machine only."""
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
