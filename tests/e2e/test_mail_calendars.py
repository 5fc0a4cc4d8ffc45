"""Deadlines as calendar attachments through real mail: each mail that asks for orders (reports,
reminders, an order check that wants corrected orders) carries one .ics event per game and seat with
a stable UID; EXTEND and DEADLINE send the update with a higher SEQUENCE. Each file is read with the
icalendar library and with Python's own reading of the fields a calendar uses."""

from __future__ import annotations

import asyncio
import email
import email.policy
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import icalendar
from mail_games import open_game
from mail_harness import running_service

from pbem.sandbox.mailclient import ReceivedMail


@dataclass(frozen=True)
class Event:
    """What a calendar reads of an event: when, which event, which version of it."""

    start: datetime
    uid: str
    sequence: int


def calendars(mail: ReceivedMail) -> list[bytes]:
    """The .ics attachments of a mail."""
    message = email.message_from_bytes(mail.raw, policy=email.policy.default)
    found = []
    for part in message.walk():
        assert isinstance(part, EmailMessage)
        if part.get_content_type() == "text/calendar":
            assert part.get_filename() and part.get_filename().endswith(".ics")
            assert part.get_param("method") == "PUBLISH"
            found.append(part.get_payload(decode=True))
    return found


def read_event(ics: bytes) -> Event:
    """The one event of an .ics file, read twice: by icalendar, and by hand from its lines; both agree."""
    calendar = icalendar.Calendar.from_ical(ics)
    (event,) = calendar.walk("VEVENT")
    (alarm,) = event.walk("VALARM")
    assert str(alarm["ACTION"]) == "DISPLAY" and alarm.decoded("TRIGGER") < timedelta(0)
    by_library = Event(event.decoded("DTSTART"), str(event["UID"]), int(event["SEQUENCE"]))
    text = ics.decode("utf-8").replace("\r\n ", "").replace("\r\n", "\n")  # unfolded
    fields = dict(re.findall(r"^(DTSTART|UID|SEQUENCE)[;:]([^\r\n]*)$", text, re.M))
    assert re.fullmatch(r"\d{8}T\d{6}Z", fields["DTSTART"]), fields  # a UTC time
    by_hand = Event(datetime.strptime(fields["DTSTART"], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC), fields["UID"],
                    int(fields["SEQUENCE"]))
    assert by_library == by_hand
    return by_hand


def test_the_deadline_travels_as_a_calendar_event_and_its_updates(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice, bob, gm = game.players["A"], game.players["B"], game.gm
            deadline = service.runner.info("tc-1").row.deadline
            assert deadline is not None
            first = read_event(calendars(game.reports["A"])[0])
            assert first == Event(deadline.replace(microsecond=0), "deadline.tc-1.a@pbem.test", 0)
            other = read_event(calendars(game.reports["B"])[0])
            assert other.uid == "deadline.tc-1.b@pbem.test" and other.sequence == 0

            await gm.send(f"GM tc-1 {game.gm_password}\nEXTEND 1d\n")
            extended = read_event(calendars(await alice.last())[0])
            assert extended == Event(first.start + timedelta(days=1), first.uid, 1)
            assert read_event(calendars(await bob.last())[0]).sequence == 1
            later = (first.start + timedelta(days=60)).replace(hour=3, minute=4, second=0)  # within a year: DEADLINE takes it
            await gm.send(f"GM tc-1 {game.gm_password}\nDEADLINE {later:%Y-%m-%d %H:%M}\n")
            moved = read_event(calendars(await alice.last())[0])
            assert moved == Event(later, first.uid, 2)
            assert read_event(calendars(await bob.last())[0]).sequence == 2
            assert all(calendars(mail) == [] for mail in await gm.receive(2)), "the GM owes no orders"

            await alice.reply(game.reports["A"], "FEED Z9\n")  # refused: the check asks for orders again
            check = await alice.last()
            assert "REFUSED" in check.body
            assert read_event(calendars(check)[0]) == moved
            await bob.reply(game.reports["B"], "FEED A6\n")  # clean: it asks for nothing
            assert calendars(await bob.last()) == []

            service.clock.now = later - timedelta(hours=11, minutes=59)  # 12 hours before: the reminders
            reminder = await alice.last()
            assert "Reminder" in reminder.subject and read_event(calendars(reminder)[0]) == moved

    asyncio.run(scenario())
