"""Which mail is never answered, the rate limiter and the size limit."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pbem.mail.answering.policy import DEFAULT_MAX_SIZE, RateLimiter, is_oversized, never_answer_reason
from pbem.mail.reading.parse import IncomingMail, parse_mail

OWN = ("gm@example.org",)
T0 = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


def incoming(
    *,
    sender: str = "Alice <alice@example.org>",
    subject: str = "orders",
    headers: str = "",
    content_type: str = "text/plain",
) -> IncomingMail:
    """A parsed mail from ``sender`` with extra raw ``headers``."""
    raw = (
        f"From: {sender}\nTo: gm@example.org\nSubject: {subject}\nMessage-ID: <m@example.org>\n"
        f"Content-Type: {content_type}\n{headers}\nSIGNON tc-1 a secret\n"
    )
    return parse_mail(raw.encode())


def test_a_players_mail_is_answered() -> None:
    assert never_answer_reason(incoming(headers="Return-Path: <alice@example.org>\n"), OWN) is None


def test_auto_submitted_no_is_answered() -> None:
    assert never_answer_reason(incoming(headers="Auto-Submitted: no\n"), OWN) is None


def test_an_out_of_office_subject_alone_does_not_drop_a_player() -> None:
    assert never_answer_reason(incoming(subject="Out of office next week, here are my orders"), OWN) is None


@pytest.mark.parametrize(
    ("mail", "reason"),
    [
        (incoming(sender="MAILER-DAEMON@mx.example.org"), "bounce"),
        (incoming(sender="postmaster@example.net"), "bounce"),
        (incoming(headers="Return-Path: <>\n"), "Return-Path is empty"),
        (incoming(content_type='multipart/report; report-type=delivery-status; boundary="x"'), "report"),
        (incoming(content_type='multipart/report; report-type=disposition-notification; boundary="x"'), "report"),
        (incoming(headers="Auto-Submitted: auto-replied\n"), "Auto-Submitted"),
        (incoming(headers="Auto-Submitted: auto-generated; owner-email=x@example.org\n"), "Auto-Submitted"),
        (incoming(headers="X-Autoreply: yes\n"), "X-Autoreply"),
        (incoming(headers="X-Autorespond: Away\n"), "X-Autorespond"),
        (incoming(subject="Automatic reply: orders", headers="X-Auto-Response-Suppress: All\n"), "automatic reply"),
        (incoming(subject="Out of Office: orders", headers="Precedence: auto_reply\n"), "automatic reply"),
        (incoming(headers="Precedence: bulk\n"), "bulk"),
        (incoming(headers="Precedence: list\n"), "bulk"),
        (incoming(headers="Precedence: junk\n"), "bulk"),
        (incoming(headers="List-Id: Board games <games.lists.example.org>\n"), "List-Id"),
        (incoming(sender="gm@example.org"), "own address"),
        (incoming(sender="Game Master <GM@Example.ORG>"), "own address"),
        (incoming(sender="gm+tc-1.a.k1.20260.abcdefghijklmnop@example.org"), "own address"),
    ],
)
def test_mail_that_must_never_be_answered_says_why(mail: IncomingMail, reason: str) -> None:
    found = never_answer_reason(mail, OWN)
    assert found is not None and reason in found


def test_own_addresses_may_be_given_in_any_case_and_with_plus_parts() -> None:
    mail = incoming(sender="robot+x@games.example.org")
    assert never_answer_reason(mail, ["ROBOT+reports@Games.Example.org"]) is not None
    assert never_answer_reason(mail, ["robot@other.example.org"]) is None


def test_the_rate_limiter_allows_n_mails_per_window_then_refuses() -> None:
    limiter = RateLimiter(max_mails=3, window=timedelta(minutes=10))
    answers = [limiter.allow("alice@example.org", T0 + timedelta(minutes=minute)) for minute in range(5)]
    assert answers == [True, True, True, False, False]


def test_the_rate_limiter_window_slides() -> None:
    limiter = RateLimiter(max_mails=2, window=timedelta(minutes=10))
    assert limiter.allow("alice@example.org", T0)
    assert limiter.allow("alice@example.org", T0 + timedelta(minutes=5))
    assert not limiter.allow("alice@example.org", T0 + timedelta(minutes=9))
    assert limiter.allow("alice@example.org", T0 + timedelta(minutes=10))  # the first left the window
    assert not limiter.allow("alice@example.org", T0 + timedelta(minutes=14))
    assert limiter.allow("alice@example.org", T0 + timedelta(minutes=15))


def test_the_rate_limiter_counts_each_sender_apart_in_any_case() -> None:
    limiter = RateLimiter(max_mails=1, window=timedelta(hours=1))
    assert limiter.allow("alice@example.org", T0)
    assert not limiter.allow("ALICE@Example.org", T0)
    assert limiter.allow("bob@example.org", T0)


def test_the_rate_limiter_forgets_quiet_senders_but_not_their_limit() -> None:
    limiter = RateLimiter(max_mails=1, window=timedelta(hours=1))
    for number in range(100):
        limiter.allow(f"p{number}@example.org", T0)
    assert not limiter.allow("p1@example.org", T0 + timedelta(minutes=59))
    assert limiter.allow("p1@example.org", T0 + timedelta(hours=2))
    assert not limiter.allow("p1@example.org", T0 + timedelta(hours=2, minutes=1))


@pytest.mark.parametrize(("max_mails", "window"), [(0, timedelta(hours=1)), (5, timedelta(0))])
def test_a_rate_limit_must_be_positive(max_mails: int, window: timedelta) -> None:
    with pytest.raises(ValueError):
        RateLimiter(max_mails=max_mails, window=window)


def test_the_default_size_limit_is_one_megabyte() -> None:
    assert DEFAULT_MAX_SIZE == 1024 * 1024
    assert not is_oversized(DEFAULT_MAX_SIZE)
    assert is_oversized(DEFAULT_MAX_SIZE + 1)
    assert is_oversized(2000, limit=1000)


def test_auto_submitted_no_with_a_comment_is_a_person() -> None:
    from pbem.mail.answering.policy import never_answer_reason
    from pbem.mail.reading.parse import parse_mail

    raw = (b"From: alice@example.org\r\nTo: gm@pbem.test\r\nSubject: orders\r\n"
           b"Auto-Submitted: no (sent by hand)\r\nMessage-ID: <a1@example.org>\r\n\r\nSTATUS tc-1\r\n")
    assert never_answer_reason(parse_mail(raw), ["gm@pbem.test"]) is None
