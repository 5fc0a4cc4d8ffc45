"""Keeping the outbox's claims alive while the daemon lives, on a database shared by several daemons.

A sender's claim on queued mail is a lease (:class:`~pbem.mail.outbound.queue.DatabaseOutbox`):
short on a shared database (:data:`~pbem.mail.outbound.queue.SHARED_LEASE`, 3 s), and
renewed here every third of it for as long as the daemon's event loop, which
sends the mail, runs. When the daemon dies (SIGKILL, a crash, its machine
gone) nobody renews its leases, and the other daemons' senders take its mail
over within seconds. The renewals run in a thread of their own, with a
connection of their own: never behind a long piece of the worker thread's
work (a turn resolution), so a daemon that lives keeps its claims. A renewal
that fails (the database out of reach) is tried again at the next beat; until
one succeeds the leases run out, and the sender then sends none of the mails
whose lease may have ended (:meth:`~pbem.mail.outbound.queue.DatabaseOutbox.holds`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from concurrent.futures import ThreadPoolExecutor

from pbem.clock import utcnow
from pbem.mail.outbound.queue import DatabaseOutbox

_log = logging.getLogger(__name__)

RENEWALS_PER_LEASE = 3
"""How often a lease is renewed within its length: a renewal late by less than two beats loses nothing."""


class LeaseKeeper:
    """Renews the leases an outbox holds, every :data:`RENEWALS_PER_LEASE`-th of its lease."""

    def __init__(self, outbox: DatabaseOutbox) -> None:
        self.outbox = outbox
        self.every = outbox.lease.total_seconds() / RENEWALS_PER_LEASE
        """Seconds between two renewals."""
        self.renewals = 0
        """Renewals done (that found claims to renew), for tests and benchmarks."""

    async def run(self, stop: asyncio.Event) -> None:
        """Renew until ``stop`` is set; never raises for database trouble (it is logged)."""
        loop = asyncio.get_running_loop()
        thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pbem-leases")
        try:
            while not stop.is_set():
                try:
                    if await loop.run_in_executor(thread, self._renew):
                        self.renewals += 1
                except Exception as error:  # noqa: BLE001  (the database out of reach: the leases run out)
                    _log.warning("renewing the outbox's claims failed (%s); they end unless a renewal succeeds "
                                 "in time, and their mail is then left to whichever sender claims it", error)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), timeout=self.every)
        finally:
            thread.shutdown(wait=False, cancel_futures=True)

    def _renew(self) -> int:
        return self.outbox.renew_claims(utcnow())
