"""The service's figures in the Prometheus text format (prometheus_client), in registries of pbem's own.

Two kinds, told apart by their names' second word:

* ``pbem_inbound_*``, ``pbem_outbox_*``, ``pbem_clock_overdue_seconds``: what the database knows, the
  same whichever daemon is asked (:class:`DatabaseCollector`, read at each scrape, see
  :mod:`pbem.ops.figures`);
* everything else: what this daemon did since it started (:class:`DaemonMetrics` counts as it goes,
  :class:`DaemonCollector` reads the daemon's state at each scrape).

Each daemon has its own :class:`~prometheus_client.CollectorRegistry` (never the global one), so tests
and several daemons in one process do not collide.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from pbem.clock import utcnow
from pbem.ops.figures import RECOUNT_SECONDS, DatabaseFigures, StatusCounts, read_figures
from pbem.ops.health import LoopWatch, Outage, Verdict
from pbem.store import Database

HANDLING_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
"""Upper bounds, in seconds, of the handling-time histogram (a mail takes a few milliseconds; one that
resolves a turn may take seconds)."""


class DaemonMetrics:
    """What one daemon counts as it works; each record costs about a microsecond (a lock and an add)."""

    def __init__(self) -> None:
        self.received = Counter("pbem_mails_received", "Mails this daemon took from the mailbox and stored",
                                registry=None)
        self.handled = Counter("pbem_mails_handled", "Mails this daemon handled (answered)", registry=None)
        self.failed = Counter("pbem_mails_failed", "Mails this daemon could not handle (kept, marked failed)",
                              registry=None)
        self.set_aside = Counter("pbem_mails_set_aside", "Mails this daemon set aside: handling them ran over "
                                 "the time budget (kept, marked set_aside)", registry=None)
        self.bounces = Counter("pbem_bounces", "Bounces (delivery failure reports) this daemon received",
                               registry=None)
        self.handling = Histogram("pbem_mail_handling_seconds", "Time this daemon took to handle one mail",
                                  buckets=HANDLING_BUCKETS, registry=None)

    def collectors(self) -> tuple[Collector, ...]:
        """The counters and the histogram, to register in a registry."""
        return (self.received, self.handled, self.failed, self.set_aside, self.bounces, self.handling)

    def mail_handled(self, seconds: float) -> None:
        """One mail was handled in ``seconds``."""
        self.handled.inc()
        self.handling.observe(seconds)

    def record_set_aside(self) -> None:
        """One mail was set aside: handling it ran over its time budget."""
        self.set_aside.inc()

    def record_bounce(self) -> None:
        """One bounce (a delivery failure report for mail pbem sent) was received."""
        self.bounces.inc()


@dataclass(frozen=True)
class DaemonView:
    """What :class:`DaemonCollector` reads of a running daemon, each at scrape time."""

    watch: LoopWatch
    outages: Callable[[], Mapping[str, Outage | None]]
    restarts: Mapping[str, int]
    sent: Callable[[], Mapping[str, int]]
    """Mails this daemon's sender had accepted by the SMTP server, by purpose (reply, report, ...)."""
    send_failed: Callable[[], int]
    """Mails this daemon's sender gave up on: refused for good, or out of tries."""
    clock_lag: Callable[[], float]

    def verdict(self) -> Verdict:
        """The daemon's health now (see :meth:`LoopWatch.verdict`)."""
        return self.watch.verdict(self.outages())


class DaemonCollector(Collector):
    """The daemon's state at scrape time: mail sent and given up, loops up, restarts, outages, heartbeat, clock
    lag, health."""

    def __init__(self, view: DaemonView) -> None:
        self.view = view

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        """Yield the daemon's metric families."""
        view = self.view
        sent = CounterMetricFamily("pbem_mails_sent", "Mails this daemon's sender had accepted by the SMTP "
                                   "server, by purpose (reply, report, reminder, notice)", labels=["purpose"])
        for purpose, count in sorted(view.sent().items()):
            sent.add_metric([purpose], count)
        yield sent
        yield CounterMetricFamily("pbem_mails_send_failed", "Mails this daemon's sender gave up on: the SMTP server "
                                  "refused them for good, or every try failed", value=view.send_failed())
        up = GaugeMetricFamily("pbem_loop_up", "1 while the loop runs, 0 while it waits to restart after a failure",
                               labels=["loop"])
        restarts = CounterMetricFamily("pbem_loop_restarts", "Restarts of the loop after a failure", labels=["loop"])
        for loop in view.watch.loops:
            up.add_metric([loop], 1.0 if view.watch.is_running(loop) else 0.0)
            restarts.add_metric([loop], view.restarts.get(loop, 0))
        yield up
        yield restarts
        outage = GaugeMetricFamily("pbem_loop_outage_seconds", "Seconds since the loop's server (IMAP for the "
                                   "intake, SMTP for the sender) stopped answering (0: it answers)", labels=["loop"])
        now = utcnow()
        for loop, since in sorted(view.outages().items()):
            outage.add_metric([loop], max(0.0, (now - since.since).total_seconds()) if since is not None else 0.0)
        yield outage
        age = view.watch.beat_age("clock")
        if age is not None:
            yield GaugeMetricFamily("pbem_clock_heartbeat_age_seconds", "Seconds since the clock loop last beat",
                                    value=age)
        yield GaugeMetricFamily("pbem_clock_lag_seconds", "How late this daemon's last clock pass ran after the "
                                "longest-due game's deadline or wake-up (0: nothing was due)", value=view.clock_lag())
        yield GaugeMetricFamily("pbem_healthy", "1 while /healthz answers 200 (every loop runs and reaches its "
                                "server)", value=1.0 if view.verdict().is_healthy else 0.0)


class DatabaseCollector(Collector):
    """The database's figures at scrape time (see :mod:`pbem.ops.figures`)."""

    def __init__(self, db: Database, *, recount_seconds: float = RECOUNT_SECONDS) -> None:
        self.db = db
        self.counts = StatusCounts(recount_seconds)

    def collect(self) -> Iterator[GaugeMetricFamily]:
        """Yield the database's metric families; raises the database's errors (the scrape fails)."""
        yield from database_families(read_figures(self.db, self.counts))


def database_families(figures: DatabaseFigures) -> Iterator[GaugeMetricFamily]:
    """The database figures as metric families."""
    mails = GaugeMetricFamily("pbem_inbound_mails", "Stored mails by status (counted again once a minute, new "
                              "mail at each scrape)", labels=["status"])
    for status, count in sorted(figures.mails.items()):
        mails.add_metric([status], count)
    yield mails
    for status in ("new", "handled", "failed"):
        yield GaugeMetricFamily(f"pbem_inbound_{status}", f"Stored mails with status {status}",
                                value=figures.mails.get(status, 0))
    queued = GaugeMetricFamily("pbem_outbox_queued", "Outgoing mails waiting to be sent, by priority (reply: "
                               "answers to mail; other: reports, reminders, notices)", labels=["priority"])
    for priority, count in sorted(figures.queued.items()):
        queued.add_metric([priority], count)
    yield queued
    ages = (("pbem_inbound_oldest_unanswered_seconds", "Age of the oldest stored mail not handled yet (0: none)",
             figures.oldest_unanswered),
            ("pbem_outbox_oldest_queued_seconds", "Age of the oldest outgoing mail not sent yet (0: none)",
             figures.oldest_queued),
            ("pbem_outbox_overdue_seconds", "How long the longest-due outgoing mail has waited since it was due "
             "to be sent (0: none due; mail waiting for a later try does not count)", figures.queued_overdue),
            ("pbem_clock_overdue_seconds", "How long the longest-due game has waited for the clock (0: none)",
             figures.clock_overdue))
    for name, documentation, value in ages:
        yield GaugeMetricFamily(name, documentation, value=value or 0.0)
    if figures.last_seen is not None:
        yield GaugeMetricFamily("pbem_daemon_last_seen_seconds", "Seconds since a daemon's clock last wrote its "
                                "heartbeat to the database (any daemon on it)", value=figures.last_seen)


def metrics_registry(db: Database, daemon: tuple[DaemonMetrics, DaemonView] | None = None, *,
                     recount_seconds: float = RECOUNT_SECONDS) -> CollectorRegistry:
    """A registry of pbem's own with the database's figures of ``db`` (stored mail by status counted again
    every ``recount_seconds``) and, with ``daemon``, that daemon's."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(DatabaseCollector(db, recount_seconds=recount_seconds))
    if daemon is not None:
        counted, view = daemon
        for collector in counted.collectors():
            registry.register(collector)
        registry.register(DaemonCollector(view))
    return registry
