"""net.transport's runtime loops on real ZeroMQ sockets over loopback."""
from __future__ import annotations

import asyncio
import gc

import zmq
import zmq.asyncio

from net.transport import ZmqRuntime


def test_a_dealer_closed_by_its_own_handler_ends_its_loop_quietly():
    """Peer.connect_dealer, called while the DEALER's message is being handled (a ``retry`` that
    sends a restarted peer to the sequencer), cancels the loop's task and closes the socket from
    inside that task: the loop then read the closed socket again, and the task ended with
    "Socket operation on non-socket", which asyncio printed as "Task exception was never
    retrieved" (issue 13, item 7).  The loop now ends when its socket is closed under it."""

    async def main() -> list:
        problems: list = []
        asyncio.get_running_loop().set_exception_handler(lambda loop, c: problems.append(c.get("message")))
        ctx = zmq.asyncio.Context()
        router = ctx.socket(zmq.ROUTER)
        port = router.bind_to_random_port("tcp://127.0.0.1")
        dealer = ctx.socket(zmq.DEALER)
        dealer.connect(f"tcp://127.0.0.1:{port}")
        task: asyncio.Task | None = None
        heard = []

        def deliver(frames) -> bool:
            heard.append(frames[-1].bytes)
            assert task is not None
            task.cancel()
            dealer.close(0)  # what Peer.connect_dealer does
            return True

        task = asyncio.get_running_loop().create_task(ZmqRuntime._dealer_loop(dealer, deliver))
        dealer.send(b"hello")
        rid, _ = await router.recv_multipart()
        await router.send_multipart([rid, b"retry"])
        for _ in range(200):
            if task.done():
                break
            await asyncio.sleep(0.01)
        assert task.done() and heard == [b"retry"]
        task = None
        gc.collect()  # an exception nobody retrieved is reported when its task goes
        await asyncio.sleep(0.01)
        router.close(0)
        ctx.term()
        return problems

    assert asyncio.run(main()) == []
