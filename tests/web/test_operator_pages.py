"""``pbem web`` alone: ``/healthz`` says the database answers, ``/metrics`` gives the database's figures
only (no daemon there to count anything), and neither is one of the archive's pages."""

from __future__ import annotations

import asyncio
import io

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from pbem.mail.running.serve import serve_web
from pbem.store import Database


def test_the_web_alone_is_healthy_while_the_database_answers_and_shows_only_database_figures(
        db: Database, db_url: str) -> None:
    async def scenario() -> None:
        out = io.StringIO()
        stop = asyncio.Event()
        serving = asyncio.create_task(serve_web(db_path=db_url, listen="127.0.0.1:0", out=out, stop=stop))
        while "is at http" not in out.getvalue():
            assert not serving.done(), serving.exception()
            await asyncio.sleep(0.05)
        url = out.getvalue().split(" is at ")[1].split("/. ")[0]
        try:
            async with aiohttp.ClientSession() as session:
                async with session.get(f"{url}/healthz") as response:
                    assert (response.status, await response.text()) == (200, "ok\n")
                async with session.get(f"{url}/metrics") as response:
                    names = {family.name for family in text_string_to_metric_families(await response.text())}
                async with session.get(f"{url}/") as response:
                    assert "/metrics" not in await response.text() and "/healthz" not in await response.text()
        finally:
            stop.set()
            await serving
        assert {"pbem_inbound_mails", "pbem_inbound_new", "pbem_outbox_queued",
                "pbem_inbound_oldest_unanswered_seconds", "pbem_clock_overdue_seconds"} <= names
        assert not any(name.startswith(("pbem_mails_", "pbem_loop_", "pbem_healthy")) for name in names)

    asyncio.run(scenario())
