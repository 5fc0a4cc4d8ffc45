"""Real mail servers on 127.0.0.1 for the mail tests, without an async pytest plugin.

Each test gets its own event loop (`loop`); `arun(coro)` runs a coroutine on it
with a timeout, so every wait in a test is bounded. `servers` is a started
`EmbeddedMailServers` (IMAP + SMTP) on that loop; `smtp_stub(handler)` starts
an extra aiosmtpd server with a handler of the test's choosing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import Any, TypeVar

import pytest
from aiosmtpd.smtp import SMTP

from pbem.sandbox.embedded import EmbeddedMailServers

T = TypeVar("T")

TEST_TIMEOUT = 10.0
"""Longest any single arun() may take, in seconds."""

Runner = Callable[..., Any]


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    """A fresh event loop; tasks left running are cancelled at the end."""
    event_loop = asyncio.new_event_loop()
    yield event_loop
    pending = [task for task in asyncio.all_tasks(event_loop) if not task.done()]
    for task in pending:
        task.cancel()
    if pending:
        event_loop.run_until_complete(asyncio.wait(pending, timeout=2.0))
    event_loop.run_until_complete(event_loop.shutdown_asyncgens())
    event_loop.close()


@pytest.fixture
def arun(loop: asyncio.AbstractEventLoop) -> Runner:
    """``arun(coro, timeout=10.0)``: run `coro` on the test's loop; TimeoutError if it takes longer."""

    def run(coro: Coroutine[Any, Any, T], timeout: float = TEST_TIMEOUT) -> T:
        return loop.run_until_complete(asyncio.wait_for(coro, timeout))

    return run


@pytest.fixture
def servers(arun: Runner) -> Iterator[EmbeddedMailServers]:
    """Started embedded IMAP + SMTP servers on free ports, stopped after the test."""
    mail_servers = EmbeddedMailServers()
    arun(mail_servers.start())
    yield mail_servers
    arun(mail_servers.stop())


@pytest.fixture
def smtp_stub(arun: Runner) -> Iterator[Callable[[Any], Awaitable[int]]]:
    """``port = await smtp_stub(handler)``: an aiosmtpd server on 127.0.0.1 with `handler`."""
    started: list[asyncio.Server] = []

    async def start(handler: Any) -> int:
        loop = asyncio.get_running_loop()
        server = await loop.create_server(
            lambda: SMTP(handler, hostname="stub.localhost", loop=loop), "127.0.0.1", 0
        )
        started.append(server)
        return int(server.sockets[0].getsockname()[1])

    yield start

    async def stop_all() -> None:
        for server in started:
            server.close()

    arun(stop_all())


async def wait_until(predicate: Callable[[], bool], timeout: float = 5.0, step: float = 0.01) -> None:
    """Poll `predicate` until true; AssertionError after `timeout` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"condition not met within {timeout}s")
        await asyncio.sleep(step)


@pytest.fixture
def until() -> Callable[..., Awaitable[None]]:
    """The `wait_until` helper, as a fixture (test modules cannot import conftest)."""
    return wait_until
