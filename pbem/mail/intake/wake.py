"""A nudge from ``pbem deliver`` to the daemon serving the same database: look for stored mail now.

``pbem serve`` looks in the database for mail stored by others every second
(every 0.2 s on PostgreSQL). A mail ``pbem deliver`` stored would wait for that
look; instead, once the mail is committed, ``deliver`` sends one empty datagram
to a UNIX socket in Linux's abstract namespace named after the database
(:func:`wake_address`), and the daemon listening there looks at once. The nudge
carries nothing and is only a hint: a daemon that is not running, not listening
(another OS, the name taken) or not reachable is simply not nudged, and its
regular look finds the mail. Anyone on the host may send to the socket: the
daemon looks at most once per :data:`LEAST_INTERVAL` however many nudges come.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import socket
import sys
from collections.abc import Callable

from pbem.store import Database

__all__ = ["WakeListener", "nudge", "wake_address"]

_log = logging.getLogger(__name__)

_READ_AT_ONCE = 64
"""Datagrams read per wake-up of the event loop at most (the rest at the next)."""
LEAST_INTERVAL = 0.01
"""Seconds between two looks a stream of nudges causes, at least."""


def wake_address(db: Database) -> bytes | None:
    """The abstract socket name of ``db``'s daemon: the same for every process that opens the same
    database (a SQLite file by its real path, a server database by its URL without the password);
    None where abstract sockets do not exist (not Linux) or for an in-memory database."""
    if not sys.platform.startswith("linux"):
        return None
    url = db.engine.url
    if url.get_backend_name() == "sqlite":
        if not url.database or url.database == ":memory:":
            return None
        identity = "sqlite:" + os.path.realpath(url.database)
    else:
        identity = url.render_as_string(hide_password=True)
    return b"\0pbem-wake-" + hashlib.sha256(identity.encode()).hexdigest()[:32].encode()


def nudge(db: Database) -> bool:
    """Tell the daemon serving ``db`` to look for stored mail now; True when a daemon took the nudge
    (it listens), False otherwise. Never raises."""
    address = wake_address(db)
    if address is None:
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sender:
            sender.setblocking(False)
            sender.sendto(b"", address)
    except OSError as error:  # no daemon listening, or its queue is full: it looks by itself soon
        _log.debug("no daemon nudged: %s", error)
        return False
    return True


class WakeListener:
    """The daemon's end: calls ``on_wake`` on the event loop whenever nudges came in."""

    def __init__(self, db: Database, on_wake: Callable[[], None]) -> None:
        self.address = wake_address(db)
        self._shared = db.shared
        self._on_wake = on_wake
        self._socket: socket.socket | None = None
        self._last_wake = -LEAST_INTERVAL
        self._deferred: asyncio.TimerHandle | None = None
        self.nudges = 0
        """Nudges taken since the daemon started."""
        self.wakes = 0
        """Looks the nudges caused (at most one per :data:`LEAST_INTERVAL`)."""

    def start(self) -> bool:
        """Listen on the running event loop; True when listening, False when nudges cannot reach this
        daemon (no abstract sockets, or another process holds the name: it is logged once)."""
        if self.address is None:
            return False
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            listener.bind(self.address)
        except OSError as error:
            listener.close()
            # Expected for the second daemon of a shared database on one host (the first takes the nudges);
            # on SQLite, which serves one daemon, another process holds the name.
            _log.log(logging.INFO if self._shared else logging.WARNING,
                     "pbem deliver cannot nudge this daemon (%s): it finds the mail deliver stores at its next look",
                     error)
            return False
        listener.setblocking(False)
        asyncio.get_running_loop().add_reader(listener.fileno(), self._read)
        self._socket = listener
        return True

    def _read(self) -> None:
        assert self._socket is not None
        for _ in range(_READ_AT_ONCE):
            try:
                self._socket.recv(1)
            except (BlockingIOError, InterruptedError):
                break
            self.nudges += 1
        if self._deferred is not None:  # a look is due soon anyway
            return
        loop = asyncio.get_running_loop()
        wait = self._last_wake + LEAST_INTERVAL - loop.time()
        if wait > 0:
            self._deferred = loop.call_later(wait, self._wake)
        else:
            self._wake()

    def _wake(self) -> None:
        self._deferred = None
        self._last_wake = asyncio.get_running_loop().time()
        self.wakes += 1
        self._on_wake()

    def stop(self) -> None:
        """Stop listening (the name is free again)."""
        if self._deferred is not None:
            self._deferred.cancel()
            self._deferred = None
        if self._socket is not None:
            asyncio.get_running_loop().remove_reader(self._socket.fileno())
            self._socket.close()
            self._socket = None
