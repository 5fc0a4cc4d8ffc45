"""The verdict on a daemon's loops: running, restarting after a failure, cut off from a server, stuck."""

from __future__ import annotations

from datetime import UTC, datetime

from pbem.ops.health import LoopWatch, Outage, first_line


def test_healthy_only_once_every_loop_runs_and_reaches_its_server() -> None:
    watch = LoopWatch(("intake", "sender"))
    assert watch.verdict({}).reasons == ("intake: not started", "sender: not started") and not watch.ready.is_set()
    watch.running("intake")
    watch.running("sender")
    assert watch.verdict({}).is_healthy and watch.verdict({}).summary() == "ok" and watch.ready.is_set()
    outage = Outage(datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC), "SMTPConnectError: refused")
    assert watch.verdict({"sender": outage}).reasons == (
        "sender: failing since 2026-01-02T03:04:05Z: SMTPConnectError: refused",)


def test_a_failed_loop_is_unhealthy_with_its_error_first_line_until_it_runs_again() -> None:
    watch = LoopWatch(("clock",))
    watch.running("clock")
    watch.failed("clock", ValueError("bad\nmore"))
    [reason] = watch.verdict({}).reasons
    assert reason.startswith("clock: restarting since ") and reason.endswith("after: ValueError: bad")
    watch.running("clock")
    assert watch.verdict({}).is_healthy


def test_a_loop_that_stopped_beating_is_stuck() -> None:
    now = [0.0]
    watch = LoopWatch(("clock",), stale_seconds=120, monotonic=lambda: now[0])
    watch.running("clock")
    watch.beat("clock")
    now[0] = 119.0
    assert watch.verdict({}).stuck == ()
    now[0] = 121.0
    verdict = watch.verdict({})
    assert verdict.stuck == ("clock",) and verdict.reasons == ("clock: no heartbeat for 121 s",)


def test_an_outage_keeps_its_beginning_and_takes_the_newest_error() -> None:
    first = Outage.begun(OSError("refused"), None)
    later = Outage.begun("timed out\nat line 2", first)
    assert later.since == first.since and later.error == "timed out"
    assert first_line("x" * 500) == "x" * 200
