"""Telling systemd how the daemon is (``Type=notify``, ``WatchdogSec=``): READY=1 once the loops run,
WATCHDOG=1 while none is stuck, STATUS= a one-line summary, STOPPING=1 at stop.

The protocol is one datagram of ``NAME=value`` lines to the AF_UNIX socket named by ``$NOTIFY_SOCKET``
(a name starting with ``@`` is in the abstract namespace). It is written here (a few lines) rather than
taken from the sdnotify package, which is unmaintained since 2017 and does no more.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Callable, Mapping

from pbem.ops.health import LoopWatch, Verdict

_log = logging.getLogger(__name__)
STATUS_SECONDS = 10.0
"""How often STATUS= is sent when systemd asks for no watchdog."""


class SystemdNotifier:
    """The sender of notifications to ``NOTIFY_SOCKET`` of ``environ``; does nothing without it."""

    def __init__(self, environ: Mapping[str, str] = os.environ) -> None:
        address = environ.get("NOTIFY_SOCKET", "")
        self.address = "\0" + address[1:] if address.startswith("@") else address
        usec = environ.get("WATCHDOG_USEC", "")
        watchdog = int(usec) / 1e6 if usec.isdigit() and int(usec) > 0 else None
        self.watchdog = watchdog if _for_this_process(environ) else None
        """Seconds within which systemd wants WATCHDOG=1 (None: it wants none)."""

    @property
    def is_enabled(self) -> bool:
        """True when systemd listens (``NOTIFY_SOCKET`` is set)."""
        return bool(self.address)

    def send(self, *fields: str) -> None:
        """Send ``fields`` (``READY=1``, ``STATUS=...``) as one datagram; a failure is logged, not raised
        (systemd gone must not stop the game master)."""
        if not self.address:
            return
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sender:
                sender.sendto("\n".join(fields).encode(), self.address)
        except OSError as error:
            _log.warning("cannot notify systemd at %s: %s", self.address.replace("\0", "@"), error)

    async def run(self, watch: LoopWatch, verdict: Callable[[], Verdict], status: Callable[[Verdict], str],
                  stop: asyncio.Event) -> None:
        """Notify until ``stop`` is set: READY=1 once ``watch`` says every loop started, then every half
        watchdog period WATCHDOG=1 while no loop is stuck, with STATUS=; STOPPING=1 once ``stop`` is set."""
        if not self.is_enabled:
            return
        try:
            if not await _first(watch.ready.wait(), stop):
                return
            self.send("READY=1", f"STATUS={status(verdict())}")
            period = self.watchdog / 2 if self.watchdog else STATUS_SECONDS
            while await _first(asyncio.sleep(period), stop):
                now = verdict()
                fields = [f"STATUS={status(now)}"]
                if self.watchdog and not now.stuck:
                    fields.insert(0, "WATCHDOG=1")
                self.send(*fields)
        finally:
            self.send("STOPPING=1", "STATUS=stopping")


def _for_this_process(environ: Mapping[str, str]) -> bool:
    """systemd's WATCHDOG_PID, when set, names the process meant to ping (not a child that inherited it)."""
    pid = environ.get("WATCHDOG_PID", "")
    return not pid or pid == str(os.getpid())


async def _first(waiting: object, stop: asyncio.Event) -> bool:
    """Await ``waiting`` (a coroutine) unless ``stop`` is set first; True when it ended first."""
    task = asyncio.ensure_future(waiting)  # type: ignore[arg-type]
    stopping = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait((task, stopping), return_when=asyncio.FIRST_COMPLETED)
    finally:
        for pending in (task, stopping):
            pending.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pending
    return not stop.is_set()
