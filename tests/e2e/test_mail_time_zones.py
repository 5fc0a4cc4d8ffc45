"""Time zones through real mail: SET ZONE, every deadline in a mail to that address in its zone with
UTC beside (reports, order checks, reminders, STATUS, notices), and the GM's DEADLINE in a zone,
exact across the change to daylight saving time."""

from __future__ import annotations

import asyncio
import zoneinfo
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from mail_games import OPENING_ORDERS, open_game
from mail_harness import MovableClock, running_service

from pbem.moments import BadDateTime, parse_when
from pbem.zones import BadZone, format_moment, read_zone

BEFORE_SUMMER_TIME = datetime(2027, 3, 25, 10, 0, tzinfo=UTC)
"""Thursday before the last Sunday of March 2027, when Berlin goes from CET (+1) to CEST (+2)."""


def test_a_zone_and_a_deadline_across_the_change_to_summer_time_by_mail(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path, clock=MovableClock(BEFORE_SUMMER_TIME)) as service:
            game = await open_game(service)
            alice, bob, gm = game.players["A"], game.players["B"], game.gm
            await alice.send("SET ZONE Europe/Berlin\n")
            answer = (await alice.last()).body
            assert "SET ZONE Europe/Berlin" in answer and "now is 2027-03-25 11:00 CET (2027-03-25 10:00 UTC)" in answer

            await gm.send(f"GM tc-1 {game.gm_password}\nDEADLINE 2027-03-29 18:00 Europe/Berlin\n")
            deadline = datetime(2027, 3, 29, 16, 0, tzinfo=UTC)  # CEST: two hours ahead, not one as today
            await asyncio.sleep(0)
            gm_mail = [m.body for m in await gm.receive(1)]  # the reply alone: no notice of their own DEADLINE
            assert any("Deadline set to 2027-03-29 16:00 UTC." in body for body in gm_mail), gm_mail
            assert service.runner.info("tc-1").row.deadline == deadline
            local = "2027-03-29 18:00 CEST (2027-03-29 16:00 UTC)"
            assert local in (await alice.last()).body
            bobs = (await bob.last()).body
            assert "2027-03-29 16:00 UTC" in bobs and "CEST" not in bobs

            await alice.reply(game.reports["A"], OPENING_ORDERS["A"])
            check = await alice.last()
            assert f"Deadline: {local}." in check.body and check.html is None  # every line accepted: plain text
            await alice.send("STATUS tc-1\n")
            assert f"Deadline: {local}." in (await alice.last()).body

            service.clock.now = deadline - timedelta(hours=12, minutes=-1)  # bob's reminder: in UTC
            reminder = await bob.last()
            assert "Reminder" in reminder.subject and "2027-03-29 16:00 UTC" in reminder.body

            service.clock.now = deadline
            report = await alice.last()
            assert report.subject == "[tc-1] Turn 2"
            assert "2027-03-31 18:00 CEST (2027-03-31 16:00 UTC)" in report.body
            assert "2027-03-31 18:00 CEST (2027-03-31 16:00 UTC)" in (report.html or "")
            assert "2027-03-31 16:00 UTC" in (await bob.last()).body

    asyncio.run(scenario())


def test_deadline_zone_names_are_exact_and_strict() -> None:
    assert parse_when("2027-03-26 18:00 Europe/Berlin") == datetime(2027, 3, 26, 17, 0, tzinfo=UTC)
    assert parse_when("2027-03-29 18:00 Europe/Berlin") == datetime(2027, 3, 29, 16, 0, tzinfo=UTC)
    assert parse_when("2027-11-08 09:00 America/New_York") == datetime(2027, 11, 8, 14, 0, tzinfo=UTC)
    with pytest.raises(BadDateTime, match="no 02:30 on 2027-03-28 in Europe/Berlin"):
        parse_when("2027-03-28 02:30 Europe/Berlin")
    with pytest.raises(BadDateTime, match=r"happens twice .* \+02:00 or .* \+01:00"):
        parse_when("2027-10-31 02:30 Europe/Berlin")
    with pytest.raises(BadDateTime, match="not a time zone"):
        parse_when("2027-10-31 02:30 Europe/Atlantis")
    for bad in ("../../etc/passwd", "Europe/Berlin/" + "x" * 80, "", "/usr/share/zoneinfo/UTC"):
        with pytest.raises(BadZone):
            read_zone(bad)


@pytest.fixture
def no_system_zone_data() -> Iterator[None]:
    """zoneinfo with no system zone directories: only the tzdata package can answer."""
    zoneinfo.reset_tzpath(to=[])
    zoneinfo.ZoneInfo.clear_cache()
    try:
        yield
    finally:
        zoneinfo.reset_tzpath()
        zoneinfo.ZoneInfo.clear_cache()


def test_zones_work_without_system_zone_data(no_system_zone_data: None) -> None:
    assert zoneinfo.TZPATH == ()
    berlin = read_zone("Europe/Berlin")
    assert format_moment(datetime(2027, 7, 1, 16, 0, tzinfo=UTC), berlin) == "2027-07-01 18:00 CEST (2027-07-01 16:00 UTC)"
    assert format_moment(datetime(2027, 7, 1, 16, 0, tzinfo=UTC), read_zone("UTC")) == "2027-07-01 16:00 UTC"
