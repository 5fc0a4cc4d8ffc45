"""A reply the mail server took is marked sent on the daemon's event loop itself while the worker has nothing
to do (MailDaemon._short_work): no hand-over to the worker thread and back for each mail sent. The database is
still used by one thread at a time, through one connection (the worker's, lent: another connection's write
would empty its page cache): while the worker has work, and while another connection holds SQLite's
write lock (the loop's connection does not wait for it), the mark goes to the worker as before, and the loop
goes on meanwhile."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import event

from pbem.clock import utcnow
from pbem.mail.running.daemon import MailDaemon
from pbem.store import Database
from pbem.store.direct import BUSY_TIMEOUT_MS

from test_reply_claimed_in_unit import daemon_for, order_mail, replies


@asynccontextmanager
async def running(daemon: MailDaemon) -> AsyncIterator[None]:
    """The daemon serving (no mailbox, a mail server nobody answers at) while the block runs."""
    stop = asyncio.Event()
    task = asyncio.create_task(daemon.run(stop))
    try:
        await asyncio.sleep(0.3)  # started: the loop keeps its connection
        yield
    finally:
        stop.set()
        await asyncio.wait_for(task, 15)


@asynccontextmanager
async def a_sent_reply(daemon: MailDaemon) -> AsyncIterator[tuple[int, list[int]]]:
    """While the block runs, the daemon serves (see :func:`running`) and has a reply to an order mail queued and
    claimed (the worker handled the mail); yields the reply's id and the threads that mark mail sent from then on
    (:func:`threads_marking`)."""
    async with running(daemon):
        _taken, claimed = await daemon.in_worker(daemon._store_and_handle,  # noqa: SLF001 - the worker's step
                                                 [(7, order_mail(daemon))], 4)
        [mail] = claimed
        yield mail.id, threads_marking(daemon)


def threads_marking(daemon: MailDaemon) -> list[int]:
    """The threads in which the daemon's outbox marks mail sent from now on, in order (failed tries too)."""
    marking: list[int] = []
    mark_sent: Callable[..., None] = daemon.outbox.mark_sent

    def recorded(*args: Any) -> None:
        marking.append(threading.get_ident())
        mark_sent(*args)

    daemon.outbox.mark_sent = recorded  # type: ignore[method-assign]
    return marking


def status_of(db: Database, mail_id: int) -> str:
    return next(reply.status for reply in replies(db) if reply.id == mail_id)


def worker_thread(daemon: MailDaemon) -> int:
    return daemon._worker_thread or 0  # noqa: SLF001 - which thread the worker is


def test_a_reply_is_marked_sent_on_the_event_loop_while_the_worker_is_idle(db: Database) -> None:
    asyncio.run(_marked_on_the_loop(daemon_for(db), db))


async def _marked_on_the_loop(daemon: MailDaemon, db: Database) -> None:
    async with a_sent_reply(daemon) as (mail_id, marking):
        connections: list[object] = []

        def seen(conn: Any, *_: object) -> None:
            connections.append(conn.connection.driver_connection)

        event.listen(db.engine, "before_cursor_execute", seen)
        try:
            await daemon._queue.mark_sent(mail_id, utcnow())  # noqa: SLF001 - as the sender marks it
            await daemon.in_worker(lambda: daemon.service.info("g"))  # the worker's next unit
        finally:
            event.remove(db.engine, "before_cursor_execute", seen)
        assert marking == [threading.get_ident()]
        assert status_of(db, mail_id) == "sent"
        assert len(connections) > 1 and all(c is connections[0] for c in connections)  # the worker's own


def test_while_the_worker_works_the_mark_waits_for_it_in_the_worker(db: Database) -> None:
    asyncio.run(_marked_after_the_piece(daemon_for(db), db))


async def _marked_after_the_piece(daemon: MailDaemon, db: Database) -> None:
    async with a_sent_reply(daemon) as (mail_id, marking):
        busy, release = threading.Event(), threading.Event()

        def long_piece() -> None:
            busy.set()
            release.wait(10)

        piece = asyncio.create_task(daemon.in_worker(long_piece))
        while not busy.is_set():
            await asyncio.sleep(0.01)
        mark = asyncio.create_task(daemon._queue.mark_sent(mail_id, utcnow()))  # noqa: SLF001
        await asyncio.sleep(0.2)
        assert not mark.done() and marking == []  # queued behind the piece, not run beside it
        release.set()
        await asyncio.wait_for(asyncio.gather(piece, mark), 10)
        assert marking == [worker_thread(daemon)]
        assert status_of(db, mail_id) == "sent"


def test_a_write_lock_held_elsewhere_sends_the_mark_to_the_worker_and_the_loop_goes_on(db: Database,
                                                                                     db_url: str) -> None:
    asyncio.run(_marked_once_the_lock_is_free(daemon_for(db), db, db_url))


async def _marked_once_the_lock_is_free(daemon: MailDaemon, db: Database, db_url: str) -> None:
    async with a_sent_reply(daemon) as (mail_id, marking):
        other = sqlite3.connect(db_url, isolation_level=None)  # another program writing
        try:
            other.execute("BEGIN IMMEDIATE")
            mark = asyncio.create_task(daemon._queue.mark_sent(mail_id, utcnow()))  # noqa: SLF001
            loop, held = asyncio.get_running_loop(), []
            for _ in range(20):  # the loop goes on while the worker waits for the lock
                before = loop.time()
                await asyncio.sleep(0.01)
                held.append(loop.time() - before)
            assert not mark.done()
            assert max(held) < BUSY_TIMEOUT_MS / 2000  # never held for SQLite's busy wait (10 s)
            assert marking == [threading.get_ident(), worker_thread(daemon)]  # tried on the loop, then given over
            other.execute("COMMIT")
        finally:
            other.close()
        await asyncio.wait_for(mark, 15)
        assert status_of(db, mail_id) == "sent"
