"""A slow network link on 127.0.0.1: a TCP forwarder that holds back each piece a client sends.

Put between ``pbem serve`` and its SMTP server, it makes each mail take a
while to send, as over a slow or distant server, so that a daemon holds its
claims on queued mail long enough for a test to kill it while it does. What the
server answers goes back at once; every byte arrives unchanged and in order.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator


async def _pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float) -> None:
    try:
        while chunk := await reader.read(65536):
            if delay:
                await asyncio.sleep(delay)
            writer.write(chunk)
            await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


@contextlib.asynccontextmanager
async def slow_link(target_port: int, delay: float) -> AsyncIterator[int]:
    """Forward connections on a free 127.0.0.1 port to ``target_port``, each piece a client sends held back
    ``delay`` seconds; yield the port. Connections still open are closed at the end."""
    pumps: set[asyncio.Task[None]] = set()

    async def connected(client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", target_port)
        except OSError:
            client_writer.close()
            return
        for pump in (_pump(client_reader, server_writer, delay), _pump(server_reader, client_writer, 0.0)):
            task = asyncio.create_task(pump)
            pumps.add(task)
            task.add_done_callback(pumps.discard)

    server = await asyncio.start_server(connected, "127.0.0.1", 0)
    try:
        yield int(server.sockets[0].getsockname()[1])
    finally:
        server.close()
        for task in list(pumps):
            task.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)
        await server.wait_closed()
