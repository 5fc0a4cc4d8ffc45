"""The web archive's HTTP server: in a thread of its own, with an event loop of its own, and bounded.

``pbem serve --web`` serves the pages from the same process as the mail daemon; what a reader does on
the web must never hold up a reply. So :class:`WebServer`:

* runs aiohttp in a thread with its own event loop: accepting, reading and answering HTTP never waits
  for the mail daemon's loop, nor the daemon for it;
* builds pages in at most :data:`PAGE_WORKERS` threads at once (the pages' ``asyncio.to_thread`` runs
  in that loop's own pool), using at most ``cpu_share`` of one core between them
  (:mod:`pbem.web.cpu_share`), so busy readers queue for those instead of taking the interpreter from
  the daemon;
* serves at most ``connections`` connections at once (:class:`WebLimits`); at the cap a new connection
  takes the place of the one idle longest (no request running on it: a client that opened it and sent
  nothing, or waits between requests), which is closed, so idle connections never keep a reader out; when
  every connection has a request running, the new one is answered ``503`` and closed;
* closes a connection that has been idle ``idle_seconds`` (no request sent since it opened or since its
  last answer, or a request's header still incomplete), checked every second;
* logs what goes wrong on the web (a connection refused at the cap, an error of its event loop such as
  ``accept()`` failing for want of file descriptors, aiohttp's errors on bad requests) at most
  :data:`~pbem.ops.throttle.DEFAULT_PER_SECOND` lines a second (:class:`~pbem.ops.throttle.Throttle`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, cast

from aiohttp import web

from pbem.ops.throttle import Throttle
from pbem.web.cpu_share import DEFAULT_SHARE, CpuShare, SharedThreadPool

__all__ = ["DEFAULT_CONNECTIONS", "DEFAULT_IDLE_SECONDS", "PAGE_WORKERS", "WebLimits", "WebServer"]

_log = logging.getLogger(__name__)

DEFAULT_CONNECTIONS = 200
"""Web connections served at once by default: well below the 1,024 files a process may open by default."""
DEFAULT_IDLE_SECONDS = 30.0
"""A web connection idle this long (by default) is closed."""
PAGE_WORKERS = 2
"""Pages built at once; further requests wait for one of these threads."""
SHUTDOWN_SECONDS = 5.0
"""At stop, the longest a request under way may take to finish."""
_REFUSAL = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 25\r\n"
            b"Retry-After: 5\r\nConnection: close\r\n\r\ntoo busy, try again soon\n")
THROTTLE = Throttle()
"""The one throttle of every logger the web server writes to."""
_THROTTLED_LOGGERS = (__name__, "aiohttp.server", "aiohttp.web")


class BadWebLimits(ValueError):
    """A cap on web connections or an idle time out of range."""


@dataclass(frozen=True)
class WebLimits:
    """How much the web server takes on: ``connections`` at once (1 to 10,000), each closed after
    ``idle_seconds`` idle (0.1 to 3,600), its pages built with at most ``cpu_share`` of one core (None:
    as much as they take, for a process that serves only the web)."""

    connections: int = DEFAULT_CONNECTIONS
    idle_seconds: float = DEFAULT_IDLE_SECONDS
    cpu_share: float | None = DEFAULT_SHARE

    def __post_init__(self) -> None:
        if not 1 <= self.connections <= 10_000:
            raise BadWebLimits(f"--web-connections {self.connections}: give a number from 1 to 10000")
        if not 0.1 <= self.idle_seconds <= 3600:
            raise BadWebLimits(f"--web-idle {self.idle_seconds:g}: give a number of seconds from 0.1 to 3600")
        if self.cpu_share is not None and not 0 < self.cpu_share <= 1:
            raise BadWebLimits(f"a web share of one core is above 0 and at most 1, not {self.cpu_share:g}")


class _Connections:
    """The connections served: the idle ones (no request running), by the time they went idle, oldest
    first, and the busy ones. Touched only from the web server's event loop."""

    def __init__(self, limits: WebLimits, clock: Callable[[], float]) -> None:
        self.limits = limits
        self.idle: OrderedDict[web.RequestHandler, float] = OrderedDict()
        self.busy: set[web.RequestHandler] = set()
        self._clock = clock

    def admit(self, handler: web.RequestHandler) -> bool:
        """Take ``handler``'s new connection, closing the one idle longest when at the cap; False (refuse
        it) when every connection served has a request running."""
        if len(self.idle) + len(self.busy) >= self.limits.connections:
            if not self.idle:
                _log.warning("web: a connection refused with 503: all %d connections have a request running",
                             self.limits.connections)
                return False
            oldest, _ = self.idle.popitem(last=False)
            oldest.force_close()
            _log.info("web: at the cap of %d connections: closed the one idle longest for a new one",
                      self.limits.connections)
        self.idle[handler] = self._clock()
        return True

    def leave(self, handler: web.RequestHandler) -> None:
        """Forget a closed connection."""
        self.idle.pop(handler, None)
        self.busy.discard(handler)

    def close_idle(self) -> None:
        """Close every connection idle for ``idle_seconds`` or longer."""
        oldest_kept = self._clock() - self.limits.idle_seconds
        while self.idle and next(iter(self.idle.values())) <= oldest_kept:
            self.idle.popitem(last=False)[0].force_close()

    async def sweep(self) -> None:
        """Close the connections idle too long, again and again (until cancelled)."""
        while True:
            await asyncio.sleep(min(1.0, self.limits.idle_seconds / 2))
            self.close_idle()

    @web.middleware
    async def mark_busy(self, request: web.Request,
                        handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """While a request runs its connection is busy (never closed for a new one); then idle again, the
        newest idle."""
        connection = cast(web.RequestHandler, request.protocol)
        self.idle.pop(connection, None)
        self.busy.add(connection)
        try:
            return await handler(request)
        finally:
            if connection in self.busy:
                self.busy.discard(connection)
                self.idle[connection] = self._clock()


class _CappedHandler(web.RequestHandler):
    """aiohttp's connection handler, admitted by :class:`_Connections` (or answered 503 and closed)."""

    def __init__(self, connections: _Connections, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._connections = connections
        self._refused = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if not self._connections.admit(self):
            self._refused = True
            cast(asyncio.WriteTransport, transport).write(_REFUSAL)
            transport.close()
            return
        super().connection_made(transport)

    def connection_lost(self, exc: BaseException | None) -> None:
        if self._refused:
            return
        self._connections.leave(self)
        super().connection_lost(exc)


class _CappedSite(web.BaseSite):
    """A TCP site whose connections are :class:`_CappedHandler`'s."""

    def __init__(self, runner: web.AppRunner, host: str, port: int, connections: _Connections) -> None:
        super().__init__(runner)
        self._host, self._port = host, port
        self._connections = connections

    @property
    def name(self) -> str:
        return f"http://{self._host}:{self._port}"

    @property
    def port(self) -> int:
        """The port listened on (the one picked, when given 0)."""
        assert self._server is not None
        return int(cast(asyncio.Server, self._server).sockets[0].getsockname()[1])

    async def start(self) -> None:
        await super().start()
        loop = asyncio.get_running_loop()
        manager = self._runner.server
        assert manager is not None

        def connection() -> web.RequestHandler:
            return _CappedHandler(self._connections, manager, loop=loop, access_log=None)

        self._server = await loop.create_server(connection, self._host, self._port, backlog=self._backlog,
                                                reuse_address=True)


class WebServer:
    """The web archive ``app`` listening on ``host``:``port`` in a thread of its own (see the module), within
    ``limits``."""

    def __init__(self, app: web.Application, host: str, port: int, *, limits: WebLimits | None = None) -> None:
        self.app = app
        self.host = host
        self.port = port
        self.limits = limits or WebLimits()
        self._connections = _Connections(self.limits, time.monotonic)
        app.middlewares.append(self._connections.mark_busy)
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None

    def open(self) -> None:
        """Start the thread and listen; returns once listening (with port 0, the port picked is in
        :attr:`port` afterwards). Raises OSError when it cannot listen there."""
        if self._thread is not None:
            return
        for name in _THROTTLED_LOGGERS:
            logging.getLogger(name).addFilter(THROTTLE)
        ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._thread = threading.Thread(target=asyncio.run, args=(self._serve(ready),), name="pbem-web", daemon=True)
        self._thread.start()
        try:
            ready.result()
        except BaseException:
            self._thread.join()
            self._thread = None
            raise
        _log.info("web archive at %s (at most %d connections, closed after %g s idle)", self.url,
                  self.limits.connections, self.limits.idle_seconds)

    def close(self) -> None:
        """Stop listening, let requests under way finish (at most a few seconds), close every connection and
        end the thread."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        assert self._loop is not None and self._stopping is not None
        self._loop.call_soon_threadsafe(self._stopping.set)
        thread.join()

    async def start(self) -> None:
        """:meth:`open`, from an event loop."""
        await asyncio.to_thread(self.open)

    async def stop(self) -> None:
        """:meth:`close`, from an event loop."""
        await asyncio.to_thread(self.close)

    @property
    def url(self) -> str:
        """The base address of the pages, such as ``http://127.0.0.1:8080``."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    async def _serve(self, ready: concurrent.futures.Future[None]) -> None:
        """The thread's event loop: listen, say so on ``ready`` (or fail it), serve until stopped."""
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(_loop_error)
        loop.set_default_executor(
            concurrent.futures.ThreadPoolExecutor(PAGE_WORKERS, thread_name_prefix="pbem-web")
            if self.limits.cpu_share is None else
            SharedThreadPool(PAGE_WORKERS, CpuShare(self.limits.cpu_share), thread_name_prefix="pbem-web"))
        self._loop, self._stopping = loop, asyncio.Event()
        runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=SHUTDOWN_SECONDS)
        try:
            await runner.setup()
            site = _CappedSite(runner, self.host, self.port, self._connections)
            await site.start()
            self.port = site.port
        except BaseException as error:
            await runner.cleanup()
            ready.set_exception(error)
            return
        ready.set_result(None)
        sweeping = asyncio.create_task(self._connections.sweep())
        try:
            await self._stopping.wait()
        finally:
            sweeping.cancel()
            await runner.cleanup()


def _loop_error(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The web loop's errors (say ``accept()`` failing for want of file descriptors): logged, throttled."""
    _log.error("web: %s", context.get("message", "error in the event loop"), exc_info=context.get("exception"))
