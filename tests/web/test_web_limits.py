"""The web server's bounds, against a real server on 127.0.0.1: connections at once, idle connections,
and a log that a connection flood cannot fill."""

from __future__ import annotations

import asyncio
import logging
import re
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager

import pytest
from aiohttp import web

from pbem.mail.running.daemon import reply_tokens
from pbem.ops.metrics import metrics_registry
from pbem.service.api import GameService
from pbem.store import Database
from pbem.web.app import make_app
from pbem.web.ops import OpsView, database_health
from pbem.web.server import THROTTLE, WebLimits, WebServer

_DROPPED = re.compile(r"\((\d+) more like it dropped\)$")

WAIT = 30.0
"""The longest a test waits for an answer or a close it expects."""


@contextmanager
def serving(app: web.Application, limits: WebLimits) -> Iterator[WebServer]:
    server = WebServer(app, "127.0.0.1", 0, limits=limits)
    server.open()
    try:
        yield server
    finally:
        server.close()


def archive(db: Database) -> web.Application:
    """The archive with ``/healthz``, as ``pbem web`` serves it."""
    return make_app(GameService(db), reply_tokens(db), ops=OpsView(metrics_registry(db), database_health(db)))


class Held:
    """A web app whose ``/hold`` answers only once released, so that connections stay busy."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.started = threading.Semaphore(0)
        self.app = web.Application()
        self.app.router.add_get("/hold", self.hold)
        self.app.router.add_get("/now", self.now)

    async def hold(self, request: web.Request) -> web.Response:
        self.started.release()
        await asyncio.to_thread(self.release.wait, WAIT)
        return web.Response(text="released\n")

    async def now(self, request: web.Request) -> web.Response:
        return web.Response(text="now\n")


async def request(port: int, path: str) -> bytes:
    """GET ``path`` on a new connection (closed after the answer); the whole answer, head and body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: pbem.test\r\nConnection: close\r\n\r\n".encode())
        return await asyncio.wait_for(reader.read(), WAIT)
    finally:
        writer.close()


async def unasked(port: int) -> bytes:
    """What the server says on a new connection before it is asked anything, until it closes it: a refusal."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        return await asyncio.wait_for(reader.read(), WAIT)
    finally:
        writer.close()


Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]


@asynccontextmanager
async def idle_connections(port: int, count: int) -> AsyncIterator[list[Connection]]:
    """``count`` connections that send nothing, held open (by this side) until the end."""
    opened = [await asyncio.open_connection("127.0.0.1", port) for _ in range(count)]
    try:
        yield opened
    finally:
        for _, writer in opened:
            writer.close()


async def closed_by_server(reader: asyncio.StreamReader) -> bool:
    """True once the server closed the connection (waiting a moment for what it may still send)."""
    try:
        await asyncio.wait_for(reader.read(), 0.5)
    except TimeoutError:
        return False
    return reader.at_eof()


def test_idle_connections_beyond_the_cap_do_not_stop_healthz_answering(db: Database) -> None:
    async def scenario(port: int) -> None:
        async with idle_connections(port, 20) as idle:
            answer = await request(port, "/healthz")
            assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"\r\n\r\nok\n")
            still_open = [not closed for closed in await asyncio.gather(*(closed_by_server(r) for r, _ in idle))]
            assert sum(still_open) <= 4, "the server holds no more connections than its cap"
            assert still_open[-3:] == [True] * 3, "the newest idle ones are kept, the oldest closed"
            assert (await request(port, "/")).startswith(b"HTTP/1.1 200")

    with serving(archive(db), WebLimits(connections=4)) as server:
        asyncio.run(scenario(server.port))


def test_a_connection_past_the_cap_is_answered_503_while_every_one_has_a_request_running() -> None:
    held = Held()

    async def scenario(port: int) -> None:
        holding = [asyncio.create_task(request(port, "/hold")) for _ in range(2)]
        for _ in holding:
            assert await asyncio.to_thread(held.started.acquire, True, WAIT)
        refused = await unasked(port)
        assert refused.startswith(b"HTTP/1.1 503 Service Unavailable\r\n") and b"Retry-After: 5" in refused
        held.release.set()
        assert all(answer.endswith(b"released\n") for answer in await asyncio.gather(*holding))
        assert (await request(port, "/now")).endswith(b"\r\n\r\nnow\n")

    with serving(held.app, WebLimits(connections=2)) as server:
        asyncio.run(scenario(server.port))


def test_a_connection_idle_too_long_is_closed_whether_it_sent_nothing_or_half_a_request(db: Database) -> None:
    async def scenario(port: int) -> None:
        async with idle_connections(port, 2) as [silent, slow]:
            slow[1].write(b"GET / HTTP/1.1\r\nHost: pbem.test\r\n")  # a header begun, never ended
            for reader, _ in (silent, slow):
                assert await asyncio.wait_for(reader.read(), WAIT) == b""

    with serving(archive(db), WebLimits(idle_seconds=0.3)) as server:
        asyncio.run(scenario(server.port))


def test_the_log_stays_bounded_under_a_connection_flood(caplog: pytest.LogCaptureFixture) -> None:
    held = Held()
    flood = 200

    async def scenario(port: int) -> float:
        holding = asyncio.create_task(request(port, "/hold"))
        assert await asyncio.to_thread(held.started.acquire, True, WAIT)
        started = time.monotonic()
        answers = await asyncio.gather(*(unasked(port) for _ in range(flood)))
        seconds = time.monotonic() - started
        assert all(answer.startswith(b"HTTP/1.1 503") for answer in answers)
        await asyncio.sleep(1.1)  # the next second: the next line logged tells how many were dropped since
        assert (await unasked(port)).startswith(b"HTTP/1.1 503")
        held.release.set()
        await holding
        return seconds

    caplog.set_level(logging.INFO, logger="pbem.web.server")
    with serving(held.app, WebLimits(connections=1)) as server:
        seconds = asyncio.run(scenario(server.port))
    refusals = [record.getMessage() for record in caplog.records if "refused with 503" in record.getMessage()]
    assert 1 <= len(refusals) <= THROTTLE.per_second * (int(seconds) + 3) < flood
    # Every refusal is logged or counted in a later line (the flood may straddle a second, so which line
    # carries the counts varies; the last refusal, a second after the flood, carries any still untold).
    told = sum(int(found.group(1)) for line in refusals if (found := _DROPPED.search(line)))
    assert len(refusals) + told >= flood + 1
