"""The one place that creates ZeroMQ sockets (so CurveZMQ can be added here, and only here).

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
"""
from __future__ import annotations

import zmq
import zmq.asyncio

from net import wire

HWM = 10_000
HEARTBEAT_IVL_MS = 500
HEARTBEAT_TIMEOUT_MS = 1500


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


def router(ctx: zmq.asyncio.Context, host: str, port: int) -> tuple[zmq.asyncio.Socket, int]:
    """A bound ROUTER (every peer has one: it is where others connect if it becomes sequencer).
    ``port`` 0 picks a free port; returns the socket and the port it got."""
    sock = ctx.socket(zmq.ROUTER)
    _common(sock)
    sock.setsockopt(zmq.ROUTER_MANDATORY, 1)
    try:
        if port:
            sock.bind(f"tcp://{host}:{port}")
        else:
            port = sock.bind_to_random_port(f"tcp://{host}", min_port=20000, max_port=60000, max_tries=200)
    except zmq.ZMQError:
        sock.close(0)
        raise
    return sock, port


def dealer(ctx: zmq.asyncio.Context, host: str, port: int) -> zmq.asyncio.Socket:
    """A DEALER connected to the sequencer at host:port.  Its routing id is left to the ROUTER:
    seats are bound by the identity in ``hello``, never by a routing id a peer could choose."""
    sock = ctx.socket(zmq.DEALER)
    _common(sock)
    # Do not queue messages for a peer that is not connected yet: a proposal sent into the void
    # would be resent by libzmq after a reconnect *and* by us; we resend ourselves after welcome.
    sock.setsockopt(zmq.IMMEDIATE, 1)
    sock.connect(f"tcp://{host}:{port}")
    return sock


def send(sock: zmq.asyncio.Socket, parts: list) -> bool:
    """Send now or drop: never blocks the event loop on a slow or vanished peer.  Returns whether
    libzmq took the message."""
    try:
        f = sock.send_multipart(parts, flags=zmq.DONTWAIT, copy=True)
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
