"""Every mail ends answered, through real mail: a mail that runs over its time budget is set aside and the
daemon goes on; a mail whose handling fails is tried again with a growing pause, then given up with one
short answer to its sender and nothing stored; mail that is never answered stays unanswered.

The failures are injected into the handler for one sender (a fault that stays a fault); everything else
is real: the embedded IMAP and SMTP servers, the daemon, the database of the run's engine."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlmodel import select
from mail_games import answers_to, eventually, inbound_row, prove_quiet, send_raw
from mail_harness import MailHarness, running_service

from pbem.mail.handling.handler import MailHandler
from pbem.mail.reading.parse import IncomingMail
from pbem.mail.outbound import preferences
from pbem.mail.running.daemon import DaemonOptions
from pbem.mail.running.retries import MAX_TRIES, retry_by_hand
from pbem.store.tables import InboundMessageRow

SLOW = "slow@players.test"
BROKEN = "broken@players.test"


def quick(**changes: object) -> DaemonOptions:
    """The harness's quick timings, with a short budget and short pauses between tries."""
    values: dict[str, object] = {"idle_recheck": 0.5, "send_retry_min": 0.5, "clock_interval": 0.1,
                                 "mail_budget": 0.5, "retry_first": timedelta(seconds=0.05), **changes}
    return DaemonOptions(**values)  # type: ignore[arg-type]


@pytest.fixture
def fault_for(monkeypatch: pytest.MonkeyPatch) -> Callable[[str, Callable[[], None]], None]:
    """Make handling a mail from one sender do ``fault()`` after everything else it did (its orders,
    preferences and reply are written, then the fault): the one fault this file cannot provoke for real."""

    def inject(sender: str, fault: Callable[[], None]) -> None:
        handle = MailHandler._handle

        def faulty(self: MailHandler, unit: object, mail: IncomingMail, inbound_id: int) -> object:
            done = handle(self, unit, mail, inbound_id)  # type: ignore[arg-type]
            if mail.sender == sender:
                fault()
            return done

        monkeypatch.setattr(MailHandler, "_handle", faulty)

    return inject


def spin() -> None:
    """A pure-Python loop that never ends: a parser path nobody found yet."""
    while True:
        pass


def fail() -> None:
    raise RuntimeError("injected fault\nsecond line")


def mail(sender: str, body: str, message_id: str, *, subject: str = "hello") -> bytes:
    return (f"From: {sender}\r\nTo: gm@pbem.test\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\n\r\n"
            f"{body}\r\n").encode()


def status_of(service: MailHarness, message_id: str) -> str | None:
    """The status of the stored inbound mail with this Message-ID; None while it is not stored."""
    with service.daemon.db.session() as session:
        row = session.exec(select(InboundMessageRow).where(InboundMessageRow.message_id == message_id)).first()
        return row.status if row is not None else None


def zone_of(service: MailHarness, address: str) -> str | None:
    with service.daemon.db.session() as session:
        row = preferences.preferences_of(session, address)
        return row.zone if row is not None else None


@pytest.fixture
def errors(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    caplog.set_level(logging.WARNING, logger="pbem.mail.running.daemon")
    yield caplog


def test_a_mail_that_runs_over_its_budget_is_set_aside_its_sender_told_once_and_the_next_mail_answered(
        tmp_path: Path, fault_for: Callable[[str, Callable[[], None]], None],
        errors: pytest.LogCaptureFixture) -> None:
    fault_for(SLOW, spin)

    async def scenario() -> None:
        async with running_service(tmp_path, options=quick()) as service:
            slow, other = service.person(SLOW), service.person("other@players.test")
            await send_raw(service, mail(SLOW, "SET ZONE Europe/Berlin", "<slow-1@p.test>"), mail_from=SLOW)
            await send_raw(service, mail("other@players.test", "HELP", "<other@p.test>"), mail_from="other@p.test")
            started = time.monotonic()
            assert "pbem commands" in (await other.last()).body  # the daemon went on
            told = await slow.last()
            assert told.subject == "Your mail could not be handled: hello"
            assert "could not be read: reading it took longer than the game master allows" in told.body
            assert "Nothing was stored" in told.body
            assert time.monotonic() - started < 10
            row = inbound_row(service, "<slow-1@p.test>")
            assert row.status == "set_aside" and row.attempts == 1 and row.error == "over the time budget of 0.5 s"
            assert zone_of(service, SLOW) is None  # rolled back
            assert len(answers_to(service, row)) == 1
            # Set aside: not tried again by itself. A second slow mail within the hour is folded (not told).
            await send_raw(service, mail(SLOW, "HELP", "<slow-2@p.test>"), mail_from=SLOW)
            await eventually(lambda: status_of(service, "<slow-2@p.test>") == "set_aside")
            await prove_quiet(service, slow)
            assert inbound_row(service, "<slow-1@p.test>").attempts == 1

    asyncio.run(scenario())
    set_aside = [r for r in errors.records if "set aside" in r.getMessage()]
    assert len(set_aside) == 2 and all(r.exc_info is not None for r in set_aside)
    assert "in spin" in errors.text  # the traceback shows where the handling was interrupted
    assert "within the hour" in set_aside[1].getMessage()


def test_a_failing_mail_is_tried_again_then_given_up_with_one_answer_and_nothing_stored(
        tmp_path: Path, fault_for: Callable[[str, Callable[[], None]], None],
        errors: pytest.LogCaptureFixture) -> None:
    fault_for(BROKEN, fail)

    async def scenario() -> None:
        async with running_service(tmp_path, options=quick()) as service:
            broken = service.person(BROKEN)
            await send_raw(service, mail(BROKEN, "SET ZONE Europe/Berlin", "<b-1@p.test>"), mail_from=BROKEN)
            await send_raw(service, mail(BROKEN, "HELP", "<b-2@p.test>"), mail_from=BROKEN)
            told = await broken.last()
            assert told.subject == "Your mail could not be handled: hello"
            assert told.body.startswith("Your mail could not be handled. The game master has been told. "
                                        "Nothing was stored")
            await eventually(lambda: status_of(service, "<b-2@p.test>") == "failed")
            await prove_quiet(service, broken)  # the second one is folded into the first answer
            first = inbound_row(service, "<b-1@p.test>")
            assert first.status == "failed" and first.attempts == MAX_TRIES
            assert first.error == "RuntimeError: injected fault"
            assert zone_of(service, BROKEN) is None  # each try rolled back: no zone, no HELP reply
            assert len(answers_to(service, first)) == 1
            assert not answers_to(service, inbound_row(service, "<b-2@p.test>"))

    asyncio.run(scenario())
    messages = [r.getMessage() for r in errors.records]
    tries = [m for m in messages if "could not be handled (try" in m]
    assert len(tries) == 2 * (MAX_TRIES - 1), messages
    assert all("Traceback" not in m and "second line" not in m for m in tries)
    given_up = [r for r in errors.records if "given up" in r.getMessage()]
    assert len(given_up) == 2 and all(r.exc_info is not None for r in given_up)


def test_a_failing_bounce_is_given_up_unanswered(
        tmp_path: Path, fault_for: Callable[[str, Callable[[], None]], None]) -> None:
    fault_for("mailer-daemon@players.test", fail)

    async def scenario() -> None:
        async with running_service(tmp_path, options=quick()) as service:
            bounce = service.person("mailer-daemon@players.test")
            await send_raw(service, mail("mailer-daemon@players.test", "HELP", "<bounce@p.test>"),
                           mail_from="mailer-daemon@players.test")
            await eventually(lambda: status_of(service, "<bounce@p.test>") == "failed")
            await prove_quiet(service, bounce)
            assert not answers_to(service, inbound_row(service, "<bounce@p.test>"))

    asyncio.run(scenario())


def test_a_set_aside_mail_retried_by_hand_is_handled_once_the_fault_is_gone(
        tmp_path: Path, fault_for: Callable[[str, Callable[[], None]], None]) -> None:
    faulty = [True]

    def spin_while_faulty() -> None:
        while faulty[0]:
            pass

    fault_for(SLOW, spin_while_faulty)

    async def scenario() -> None:
        async with running_service(tmp_path, options=quick()) as service:
            slow = service.person(SLOW)
            await send_raw(service, mail(SLOW, "SET ZONE Europe/Berlin", "<again@p.test>"), mail_from=SLOW)
            assert "could not be read" in (await slow.last()).body
            faulty[0] = False
            retry_by_hand(service.daemon.db, inbound_row(service, "<again@p.test>").id)
            assert "Europe/Berlin" in (await slow.last()).body
            assert inbound_row(service, "<again@p.test>").status == "handled"
            assert zone_of(service, SLOW) == "Europe/Berlin"

    asyncio.run(scenario())
