"""The operator's view of a running daemon over real HTTP: ``/metrics`` counts what the daemon did and
shows what the database holds, ``/healthz`` turns 503 with the reason while a loop fails and 200 again
once it recovers, systemd hears READY=1, WATCHDOG=1 and STOPPING=1 on a real datagram socket, and
``pbem status`` prints the database's figures."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
import pytest
from databases import database_url
from mail_harness import GM_ADDRESS, TEST_MAIL_BUDGET, MailHarness, running_service
from prometheus_client.parser import text_string_to_metric_families

from pbem.cli import main
from pbem.mail.running.daemon import DaemonOptions, reply_tokens
from pbem.mail.running.serve import watch_daemon
from pbem.ops.metrics import metrics_registry
from pbem.sandbox.mailclient import plain_mail
from pbem.service.api import GameService
from pbem.web.app import make_app
from pbem.web.ops import OpsView, not_started
from pbem.web.server import WebServer

Figures = dict[tuple[str, frozenset[tuple[str, str]]], float]
QUICK = DaemonOptions(mail_budget=TEST_MAIL_BUDGET, idle_recheck=0.5, send_retry_min=0.5, clock_interval=0.1, restart_first=0.5,
                      restart_longest=1.0)


@asynccontextmanager
async def web_of(service: MailHarness) -> AsyncIterator[str]:
    """The web of ``pbem serve --web`` over the harness's daemon, as serve wires it; yields its base URL."""
    db = service.daemon.db
    ops = OpsView(metrics_registry(db), not_started)
    server = WebServer(make_app(GameService(db), reply_tokens(db), ops=ops), "127.0.0.1", 0)
    await server.start()
    watch_daemon(ops, service.daemon, recount_seconds=0)  # stored mail by status counted at every scrape
    try:
        yield server.url
    finally:
        await server.stop()


async def get(url: str) -> tuple[int, str, str]:
    """GET ``url``: status, content type and text."""
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, response.headers["Content-Type"], await response.text()


async def scrape(url: str, query: str = "") -> Figures:
    """Every sample of ``/metrics`` (with ``query``), parsed as Prometheus parses it, by name and labels."""
    status, content_type, text = await get(f"{url}/metrics{query}")
    assert status == 200 and content_type.startswith("text/plain; version=")
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def value(figures: Figures, name: str, **labels: str) -> float:
    return figures.get((name, frozenset(labels.items())), 0.0)


async def eventually(check: Callable[[], Awaitable[bool]], *, timeout: float = 30.0) -> None:
    """Wait until ``check`` holds (looked at every 0.1 s); fail after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():
        assert loop.time() < deadline, "never happened"
        await asyncio.sleep(0.1)


def test_metrics_count_the_mails_received_handled_and_answered(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path, options=QUICK) as service, web_of(service) as url:
            before = await scrape(url)
            player = service.person("ann@example.org")
            for _ in range(3):
                await player.send("HELP\n")
            await player.receive(3)

            async def all_sent() -> bool:
                return value(await scrape(url), "pbem_mails_sent_total", purpose="reply") == 3

            await eventually(all_sent)
            after = await scrape(url)
            moved = {name: value(after, name) - value(before, name) for name in (
                "pbem_mails_received_total", "pbem_mails_handled_total", "pbem_mails_failed_total",
                "pbem_mail_handling_seconds_count", "pbem_bounces_total", "pbem_mails_set_aside_total")}
            assert moved == {"pbem_mails_received_total": 3, "pbem_mails_handled_total": 3,
                             "pbem_mails_failed_total": 0, "pbem_mail_handling_seconds_count": 3,
                             "pbem_bounces_total": 0, "pbem_mails_set_aside_total": 0}
            assert value(after, "pbem_mail_handling_seconds_bucket", le="+Inf") == 3
            # What the database holds: three mails handled, nothing waiting either way.
            assert value(after, "pbem_inbound_mails", status="handled") == 3
            assert value(after, "pbem_inbound_handled") == 3 and value(after, "pbem_inbound_new") == 0
            assert value(after, "pbem_outbox_queued", priority="reply") == 0
            assert value(after, "pbem_inbound_oldest_unanswered_seconds") == 0
            assert {value(after, "pbem_loop_up", loop=loop) for loop in ("intake", "process", "sender", "clock")} == {1}
            assert value(after, "pbem_healthy") == 1 and value(after, "pbem_clock_lag_seconds") == 0
            # The query string changes nothing, and the bounce counter is there to be recorded.
            service.daemon.metrics.record_bounce()
            assert value(await scrape(url, "?name[]=pbem_bounces_total&x=1"), "pbem_bounces_total") == 1

    asyncio.run(scenario())


def test_metrics_count_the_mail_the_smtp_server_refused_for_good(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path, options=QUICK) as service, web_of(service) as url:
            service.servers.refused["gone@example.org"] = "550 5.1.1 no such user"
            await service.person("gone@example.org").send("HELP\n")

            async def given_up() -> bool:
                return value(await scrape(url), "pbem_mails_send_failed_total") == 1

            await eventually(given_up)
            figures = await scrape(url)
            assert value(figures, "pbem_mails_sent_total", purpose="reply") == 0
            assert value(figures, "pbem_outbox_queued", priority="reply") == 0
            assert ("pbem_outbox_overdue_seconds", frozenset()) in figures  # none due: 0
            assert value(figures, "pbem_outbox_overdue_seconds") == 0
            assert value(figures, "pbem_loop_outage_seconds", loop="sender") == 0  # it answered: refused, not away

    asyncio.run(scenario())


def test_healthz_says_which_loop_fails_since_when_and_why_then_ok_once_it_recovers(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path, options=QUICK) as service, web_of(service) as url:
            async def healthy() -> bool:
                return (await get(f"{url}/healthz"))[0] == 200

            await eventually(healthy)
            assert (await get(f"{url}/healthz?verbose=1"))[2] == "ok\n"
            clock = service.daemon.turn_clock
            due_games = clock.due_games

            def broken(*args: object) -> list[int]:
                raise RuntimeError("the clock is broken\nsecond line of the error")

            clock.due_games = broken  # type: ignore[method-assign]
            answers: list[tuple[int, str, str]] = []

            async def failing() -> bool:
                answers.append(await get(f"{url}/healthz"))
                return answers[-1][0] == 503

            await eventually(failing)
            status, content_type, text = answers[-1]
            assert content_type.startswith("text/plain")
            assert text.startswith("clock: restarting since 20") and "after: RuntimeError: the clock is broken\n" in text
            assert "second line" not in text
            assert value(await scrape(url), "pbem_loop_up", loop="clock") in (0, 1)
            clock.due_games = due_games  # type: ignore[method-assign]
            await eventually(healthy)
            assert value(await scrape(url), "pbem_loop_restarts_total", loop="clock") >= 1

    asyncio.run(scenario())


def test_healthz_is_503_while_the_smtp_server_is_down_and_ok_once_mail_goes_out_again(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path, options=QUICK) as service, web_of(service) as url:
            await service.servers.stop_smtp()
            player = service.person("bob@example.org")
            await service.servers.deliver(GM_ADDRESS, plain_mail(player.address, GM_ADDRESS, "help", "HELP\n")
                                          .as_bytes(), mail_from=player.address)

            async def down() -> bool:
                status, _type, text = await get(f"{url}/healthz")
                return status == 503 and text.startswith("sender: failing since ")

            await eventually(down)
            figures = await scrape(url)
            assert value(figures, "pbem_healthy") == 0 and value(figures, "pbem_outbox_queued", priority="reply") == 1
            assert value(figures, "pbem_outbox_oldest_queued_seconds") > 0
            assert value(figures, "pbem_loop_outage_seconds", loop="sender") > 0
            assert value(figures, "pbem_loop_outage_seconds", loop="intake") == 0
            await service.servers.start_smtp()
            assert "pbem commands" in (await player.last(timeout=30)).body

            async def healthy() -> bool:
                return await get(f"{url}/healthz") == (200, "text/plain; charset=utf-8", "ok\n")

            await eventually(healthy)

    asyncio.run(scenario())


def test_systemd_hears_ready_after_the_loops_start_then_watchdog_pings_then_stopping(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(tmp_path / "notify"))
    listener.setblocking(False)
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify"))
    monkeypatch.setenv("WATCHDOG_USEC", "200000")  # pings every 0.1 s

    async def scenario() -> list[tuple[str, bool]]:
        heard: list[tuple[str, bool]] = []  # each datagram, and whether every loop ran when it came
        loop = asyncio.get_running_loop()
        async with running_service(tmp_path, options=QUICK) as service:
            async def listen() -> None:
                while True:
                    data = (await loop.sock_recv(listener, 4096)).decode()
                    heard.append((data, all(service.daemon.watch.is_running(name)
                                            for name in service.daemon.watch.loops)))

            async def pinged() -> bool:
                return sum("WATCHDOG=1" in data for data, _ in heard) >= 3

            listening = asyncio.create_task(listen())
            await eventually(pinged)
        await asyncio.sleep(0.2)  # the last datagram is in the socket
        listening.cancel()
        with pytest.raises(asyncio.CancelledError):
            await listening
        while True:
            try:
                heard.append((listener.recv(4096).decode(), False))
            except BlockingIOError:
                return heard

    try:
        heard = asyncio.run(scenario())
    finally:
        listener.close()
    first, loops_ran = heard[0]
    assert first.splitlines()[0] == "READY=1" and loops_ran
    assert first.splitlines()[1].startswith("STATUS=0 mails handled, 0 sent; ok")
    assert heard[1][0].startswith("WATCHDOG=1\nSTATUS=")
    assert heard[-1][0] == "STOPPING=1\nSTATUS=stopping"
    assert sum("READY=1" in data for data, _ in heard) == 1


def test_pbem_status_prints_the_database_figures_as_text_and_as_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    async def scenario() -> str:
        async with running_service(tmp_path, options=QUICK) as service:
            player = service.person("cid@example.org")
            await player.send("HELP\n")
            await player.send("HELP\n")
            await player.receive(2)
            return service.db_url

    db_url = asyncio.run(scenario())
    assert main(["status", "--db", db_url]) == 0
    text = capsys.readouterr().out
    assert "Mail stored: 2 (new 0, handled 2, failed 0)" in text and "Outbox: 0 queued" in text
    assert "A daemon's clock last beat" in text
    assert main(["status", "--db", db_url, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert sorted(shown) == ["at", "clock_overdue_seconds", "last_seen_seconds", "mails", "oldest_queued_seconds",
                             "oldest_unanswered_seconds", "queued", "queued_overdue_seconds", "queued_total"]
    assert shown["mails"] == {"failed": 0, "handled": 2, "new": 0} and shown["queued_total"] == 0
    assert shown["oldest_unanswered_seconds"] is None and shown["last_seen_seconds"] >= 0
    if "://" not in db_url:  # a file that is not there is not made
        assert main(["status", "--db", str(tmp_path / "typo.db")]) == 2
        assert "no database there" in capsys.readouterr().err and not (tmp_path / "typo.db").exists()


def test_pbem_serve_with_web_serves_healthz_and_metrics_and_tells_systemd(tmp_path: Path) -> None:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(tmp_path / "notify"))
    listener.settimeout(30)
    argv = [sys.executable, "-m", "pbem.cli", "serve", "--db", database_url(tmp_path), "--imap-port", "0",
            "--smtp-port", "0", "--web", "127.0.0.1:0"]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=tmp_path,
                               env={**os.environ, "NOTIFY_SOCKET": str(tmp_path / "notify")})
    try:
        assert process.stdout is not None
        while "The web archive is at " not in (line := process.stdout.readline()):
            assert line, f"pbem serve ended at start with {process.wait()}"
        url = line.split(" is at ")[1].split("/ ")[0]
        assert listener.recv(4096).startswith(b"READY=1\nSTATUS=0 mails handled, 0 sent; ok")

        async def look() -> None:
            assert await get(f"{url}/healthz") == (200, "text/plain; charset=utf-8", "ok\n")
            figures = await scrape(url)
            assert value(figures, "pbem_healthy") == 1 and value(figures, "pbem_inbound_new") == 0
            assert ("pbem_mails_received_total", frozenset()) in figures

        asyncio.run(look())
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0
        assert listener.recv(4096) == b"STOPPING=1\nSTATUS=stopping"
    finally:
        listener.close()
        if process.poll() is None:
            process.kill()
            process.wait()
