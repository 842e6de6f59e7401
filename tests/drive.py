"""Helpers that drive the terminal client through a pipe, and play a LAN game in one process,
for the client and log tests."""
from __future__ import annotations

import asyncio
import contextlib

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

ESC = "\x1b"


async def until(pred, timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not pred():
        assert loop.time() < deadline, "timed out waiting for the client"
        await asyncio.sleep(0.005)


@contextlib.asynccontextmanager
async def running(connect, table):
    """The client ``connect(table, ...)`` makes, running; yields (send, client).  ``send(keys)``
    types and waits until the client has handled them and its submits are through."""
    with create_pipe_input() as pipe:
        client = connect(table, input=pipe, output=DummyOutput())
        task = asyncio.get_running_loop().create_task(client.run())
        await until(lambda: client.app.is_running)

        async def send(keys: str) -> None:
            pipe.send_text(keys)
            # a lone Esc is only known not to start a sequence after the app's ttimeoutlen
            await asyncio.sleep(0.12 if keys.endswith(ESC) else 0.005)
            await until(lambda: not client.app.key_processor.input_queue)
            await asyncio.sleep(0.01)
            await client.settle()

        try:
            yield send, client
        finally:
            if not task.done():
                client.quit()
            client.result = await asyncio.wait_for(task, 5)


def play_lan_game(path: str) -> None:
    """A real game through the sequencer, logged at ``path`` (one process: the host's bot plus
    two table bots)."""
    from net.client import NetTable, play_bot
    from net.peer import Config

    async def main():
        table = await NetTable.host(Config(name="solo", log_path=path), seats=3, bots=2)
        bot = asyncio.create_task(play_bot(table))
        table.start()
        assert await table.wait_finished(60)
        await bot
        await table.close()

    asyncio.run(main())
