"""Reading bounces (pbem/mail/handling/bounces.py) and the send rate's words (pbem/mail/outbound/config.py SendRate)."""

from __future__ import annotations

import time

import pytest
from bounce_mail import postfix_dsn

from pbem.mail.handling.bounces import MAX_BOUNCE, read_bounce
from pbem.mail.outbound.config import BadMailUrl, SendRate

QMAIL = (b"From: MAILER-DAEMON@mail.players.test\r\nTo: gm+b-7.abc@pbem.test\r\nSubject: failure notice\r\n\r\n"
         b"Hi. This is the qmail-send program at mail.players.test.\r\n"
         b"I'm afraid I wasn't able to deliver your message to the following addresses.\r\n"
         b"This is a permanent error; I've given up. Sorry it didn't work out.\r\n\r\n"
         b"<gone@players.test>:\r\nSorry, no mailbox here by that name. (#5.1.1)\r\n\r\n"
         b"--- Below this line is a copy of the message.\r\n\r\nFrom: gm@pbem.test\r\nTo: gone@players.test\r\n")


def test_a_postfix_dsn_says_which_recipient_failed_for_good_or_for_now() -> None:
    hard = read_bounce(postfix_dsn("gm+b-1.x@pbem.test", "Gone@Players.test"))
    assert hard.permanent == {"gone@players.test"} and not hard.temporary and "User unknown" in hard.diagnostic
    full = read_bounce(postfix_dsn("gm+b-1.x@pbem.test", "full@players.test", status="4.2.2"))
    assert full.temporary == {"full@players.test"} and not full.permanent  # given up, but for now
    delayed = read_bounce(postfix_dsn("gm+b-1.x@pbem.test", "slow@players.test", action="delayed", status="4.4.1"))
    assert delayed.temporary == {"slow@players.test"} and not delayed.permanent


def test_a_qmail_bounce_is_read_too() -> None:
    report = read_bounce(QMAIL)
    assert report.permanent == {"gone@players.test"}


def test_a_mail_that_is_no_bounce_reports_nothing_and_a_huge_one_costs_little() -> None:
    assert not read_bounce(b"From: ann@players.test\r\nSubject: hi\r\n\r\nBID 3\r\n").is_bounce
    huge = postfix_dsn("gm+b-1.x@pbem.test", "a@players.test").replace(
        b"Reporting-MTA", b"X-Filler: " + b"x;" * (4 * MAX_BOUNCE) + b"\r\nReporting-MTA")
    started = time.process_time()
    read_bounce(huge)
    assert time.process_time() - started < 2


@pytest.mark.parametrize(("text", "count", "seconds"), [("500/day", 500, 86400), ("20/minute", 20, 60),
                                                        ("1/s", 1, 1), ("3/hours", 3, 3600), ("10/d", 10, 86400)])
def test_a_send_rate_is_read(text: str, count: int, seconds: int) -> None:
    assert SendRate.parse(text) == SendRate(count, seconds)


@pytest.mark.parametrize("text", ["0/day", "x/day", "5/week", "5", "-1/day", "2000000/day"])
def test_a_send_rate_that_is_none_is_refused_saying_how(text: str) -> None:
    with pytest.raises(BadMailUrl, match="N/PERIOD"):
        SendRate.parse(text)
