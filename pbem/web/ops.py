"""The operator's two addresses beside the archive: ``/healthz`` and ``/metrics``.

``/healthz`` answers 200 ``ok`` while the service is healthy, 503 with the reasons (one a line)
otherwise; ``/metrics`` gives the figures in the Prometheus text format. Both ignore any query and do
bounded work (see :mod:`pbem.ops.figures`); neither is part of the archive's pages or templates.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

from pbem.ops.figures import database_answers
from pbem.ops.health import Verdict, first_line
from pbem.store import Database

_TEXT = "text/plain"


@dataclass
class OpsView:
    """What the two addresses show: the figures of ``registry`` and the verdict of ``health`` (called in a
    worker thread: it may ask the database). ``pbem serve`` sets both anew once its daemon exists."""

    registry: CollectorRegistry
    health: Callable[[], Verdict]


_OPS = web.AppKey("ops", OpsView)


def not_started() -> Verdict:
    """The health of a service whose daemon is not made yet."""
    return Verdict(("daemon: starting",))


def add_ops_routes(app: web.Application, view: OpsView) -> None:
    """Serve ``/healthz`` and ``/metrics`` of ``view`` in ``app``."""
    app[_OPS] = view
    app.add_routes([web.get("/healthz", healthz), web.get("/metrics", metrics)])


async def healthz(request: web.Request) -> web.Response:
    """200 ``ok`` while healthy; 503 with the reasons, one a line."""
    verdict = await asyncio.to_thread(request.app[_OPS].health)
    if verdict.is_healthy:
        return web.Response(text="ok\n", content_type=_TEXT)
    return web.Response(text="".join(f"{reason}\n" for reason in verdict.reasons), status=503, content_type=_TEXT)


async def metrics(request: web.Request) -> web.Response:
    """The figures in the Prometheus text format."""
    body = await asyncio.to_thread(generate_latest, request.app[_OPS].registry)
    return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})


def database_health(db: Database) -> Callable[[], Verdict]:
    """The health of a web archive serving alone: the database answers."""

    def check() -> Verdict:
        try:
            database_answers(db)
        except Exception as error:  # any failure to answer is the reason, whatever the driver raised
            return Verdict((f"database: {first_line(error)}",))
        return Verdict(())

    return check
