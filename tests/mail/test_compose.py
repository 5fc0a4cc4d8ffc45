"""Outgoing replies and turn reports: addressing, threading, loop-stopping headers, encodings.

Every message is read back from its bytes with the stdlib's strict modern parser
(``policy.default`` with ``raise_on_defect``), as a mail client would read it.
"""

from __future__ import annotations

import email
import email.policy
from datetime import UTC, datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from zoneinfo import ZoneInfo

import pytest

from pbem.mail.outbound.compose import ComposedMail, Unsubscribe, compose_notice, compose_reply, compose_report, reply_subject, thread_root_id
from pbem.mail.reading.parse import IncomingMail, parse_mail

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
TOKEN = "gm+tc-1.a.k1.20781.abcdefghijklmnop@example.org"


def parent(*, subject: str = "[tc-1] orders", references: str = "<r1@mail.example.net>") -> IncomingMail:
    raw = (
        f"From: Jürgen Example <juergen@example.net>\nTo: gm@example.org\nSubject: {subject}\n"
        f"Message-ID: <p1@mail.example.net>\nReferences: {references}\n\nSIGNON tc-1 a secret\n"
    )
    return parse_mail(raw.encode())


def read(mail: ComposedMail) -> EmailMessage:
    """The message as a strict reader sees it; fails on any defect."""
    message = email.message_from_bytes(mail.raw, policy=email.policy.default.clone(raise_on_defect=True))
    assert isinstance(message, EmailMessage)
    assert not message.defects and all(not part.defects for part in message.walk())
    assert all(len(line) <= 998 for line in mail.raw.split(b"\n"))
    return message


def test_a_reply_threads_under_the_mail_it_answers() -> None:
    reply = read(compose_reply(parent(), from_address="gm@example.org", body="Orders stored.", now=NOW))
    assert reply["In-Reply-To"] == "<p1@mail.example.net>"
    assert reply["References"] == "<r1@mail.example.net> <p1@mail.example.net>"
    assert reply["Subject"] == "Re: [tc-1] orders"
    assert reply["To"].addresses[0].addr_spec == "juergen@example.net"
    assert reply["To"].addresses[0].display_name == "Jürgen Example"


def test_a_reply_is_marked_auto_replied_and_carries_a_fresh_id_on_our_domain() -> None:
    first = read(compose_reply(parent(), from_address="gm@example.org", from_name="Game Master", body="x", now=NOW))
    second = read(compose_reply(parent(), from_address="gm@example.org", body="x", now=NOW))
    assert first["Auto-Submitted"] == "auto-replied"
    assert first["X-Auto-Response-Suppress"] == "All"
    assert first["Message-ID"].endswith("@example.org>")
    assert first["Message-ID"] != second["Message-ID"]
    assert first["From"] == "Game Master <gm@example.org>"
    assert first["Date"].datetime == NOW


def test_the_reply_to_is_the_token_address_when_given() -> None:
    with_token = read(compose_reply(parent(), from_address="gm@example.org", body="x", now=NOW, reply_to=TOKEN))
    without = read(compose_reply(parent(), from_address="gm@example.org", body="x", now=NOW))
    assert with_token["Reply-To"] == TOKEN
    assert without["Reply-To"] is None


def test_the_subject_is_not_re_doubled_and_may_be_given() -> None:
    kept = read(compose_reply(parent(subject="RE: orders"), from_address="gm@example.org", body="x", now=NOW))
    assert kept["Subject"] == "RE: orders"
    given = read(compose_reply(parent(), from_address="gm@example.org", body="x", now=NOW, subject="Welcome to tc-1"))
    assert given["Subject"] == "Welcome to tc-1"
    assert reply_subject("") == "Re: your mail"
    assert reply_subject("line\nbreak") == "Re: line break"


def test_long_reference_chains_keep_the_first_and_the_latest() -> None:
    chain = " ".join(f"<r{number}@example.net>" for number in range(30))
    reply = read(compose_reply(parent(references=chain), from_address="gm@example.org", body="x", now=NOW))
    references = reply["References"].split()
    assert len(references) == 20
    assert references[0] == "<r0@example.net>"
    assert references[-2:] == ["<r29@example.net>", "<p1@mail.example.net>"]


def test_a_reply_with_html_is_multipart_alternative_in_utf8() -> None:
    composed = compose_reply(parent(), from_address="gm@example.org", body="Grüße\nMOVE a", html="<p>Grüße</p>",
                             now=NOW)
    reply = read(composed)
    assert reply.get_content_type() == "multipart/alternative"
    plain, html = reply.iter_parts()
    assert (plain.get_content_type(), html.get_content_type()) == ("text/plain", "text/html")
    assert plain.get_content_charset() == "utf-8"
    assert plain["Content-Transfer-Encoding"] == "quoted-printable"
    assert plain.get_content() == "Grüße\nMOVE a\n"
    assert html.get_content() == "<p>Grüße</p>\n"
    assert parse_mail(composed.raw).body == "Grüße\nMOVE a"


def test_plain_ascii_text_goes_out_as_7bit_text_plain() -> None:
    reply = read(compose_reply(parent(), from_address="gm@example.org", body="Orders stored.", now=NOW))
    assert reply.get_content_type() == "text/plain"
    assert reply["Content-Transfer-Encoding"] == "7bit"


def test_a_naive_time_is_refused() -> None:
    with pytest.raises(ValueError, match="time zone"):
        compose_reply(parent(), from_address="gm@example.org", body="x", now=datetime(2026, 11, 24, 12, 0))


def test_a_report_has_the_game_tag_subject_and_is_auto_generated() -> None:
    report = read(compose_report(
        game="tc-1",
        turn=3,
        to="alice@example.net",
        to_name="Alice",
        from_address="gm@example.org",
        body="Turn 3 results",
        now=NOW,
        reply_to=TOKEN,
    ))
    assert report["Subject"] == "[tc-1] Turn 3"
    assert report["Auto-Submitted"] == "auto-generated"
    assert report["To"] == "Alice <alice@example.net>"
    assert report["Reply-To"] == TOKEN
    assert report["Message-ID"].endswith("@example.org>")


def test_reports_of_a_game_share_one_thread_root_and_other_games_do_not() -> None:
    def references(game: str, turn: int) -> str:
        report = read(compose_report(
            game=game, turn=turn, to="a@example.net", from_address="gm@Example.org", body="x", now=NOW
        ))
        assert report["In-Reply-To"] == report["References"]
        return str(report["References"])

    assert references("tc-1", 1) == references("tc-1", 2) == thread_root_id("tc-1", "example.org")
    assert references("tc-1", 1) != references("tc-2", 1)
    assert thread_root_id("TC-1", "EXAMPLE.org") == "<game.tc-1.thread@example.org>"


def test_the_envelope_is_our_address_to_the_reader_and_the_id_is_the_header_id() -> None:
    composed = compose_reply(parent(), from_address="gm@example.org", body="x", now=NOW)
    assert (composed.sender, composed.recipients) == ("gm@example.org", ("juergen@example.net",))
    assert read(composed)["Message-ID"] == composed.message_id


def test_non_ascii_subjects_and_names_are_encoded_and_read_back_whole() -> None:
    subject = "Zug 3: Bärenfalle über dem Fluss — " + "sehr lang " * 12
    composed = compose_report(game="tc-1", turn=3, to="a@example.net", to_name="Zoë O'Brien, \"the Turkey\"",
                              from_address="gm@example.org", from_name="Spielleiter Ärger", subject=subject,
                              body="x", now=NOW)
    assert composed.raw.isascii()
    assert all(len(line) <= 78 for line in composed.raw.split(b"\n\n")[0].split(b"\n"))
    report = read(composed)
    assert report["Subject"] == " ".join(subject.split())
    assert report["To"].addresses[0].display_name == "Zoë O'Brien, \"the Turkey\""
    assert report["To"].addresses[0].addr_spec == "a@example.net"
    assert report["From"].addresses[0].display_name == "Spielleiter Ärger"


def test_a_long_ascii_subject_is_folded_and_a_long_body_line_goes_quoted_printable() -> None:
    subject = "word " * 40
    body = "x" * 120 + "\n"
    report = read(compose_report(game="g", turn=1, to="a@example.net", from_address="gm@example.org",
                                 subject=subject, body=body, now=NOW))
    assert report["Subject"] == subject.strip()
    assert report["Content-Transfer-Encoding"] == "quoted-printable"
    assert report.get_content() == body


def test_line_breaks_in_names_and_subjects_cannot_add_header_fields() -> None:
    composed = compose_reply(parent(), from_address="gm@example.org", from_name="GM\nBcc: victim@example.net",
                             subject="hi\r\nBcc: victim@example.net", body="x", now=NOW)
    reply = read(composed)
    assert reply["Bcc"] is None and b"\nBcc:" not in composed.raw
    assert reply["Subject"] == "hi Bcc: victim@example.net"


@pytest.mark.parametrize("address", ["two words@example.net", "a@b@example.net", "x@example.net\nBcc: v@example.net",
                                     "<a@example.net>", "jürgen@example.net", "no-at-sign"])
def test_an_address_that_is_not_a_plain_ascii_mailbox_is_refused(address: str) -> None:
    with pytest.raises(ValueError, match="not a mail address"):
        compose_notice(to=address, from_address="gm@example.org", subject="s", body="b", now=NOW)


def test_threading_leaves_out_absurdly_long_ids() -> None:
    long_id = "<" + "x" * 300 + "@example.net>"
    raw = (f"From: a@example.net\nTo: gm@example.org\nSubject: s\nMessage-ID: {long_id}\n"
           f"References: <r1@example.net> {long_id}\n\nSTATUS g\n").encode()
    reply = read(compose_reply(parse_mail(raw), from_address="gm@example.org", body="x", now=NOW))
    assert reply["In-Reply-To"] is None
    assert reply["References"] == "<r1@example.net>"


def test_list_unsubscribe_names_the_mailto_and_the_one_click_url_without_a_list_id() -> None:
    stop = Unsubscribe("mailto:gm@example.org?subject=STOP%20abc.defghijklmnopqrst",
                       "https://pbem.example.org/unsubscribe/abc.defghijklmnopqrst")
    for mail in (compose_reply(parent(), from_address="gm@example.org", body="hi", now=NOW, unsubscribe=stop),
                 compose_report(game="tc-1", turn=1, to="alice@example.org", from_address="gm@example.org",
                                body="report", now=NOW, unsubscribe=stop),
                 compose_notice(to="alice@example.org", from_address="gm@example.org", subject="s", body="b",
                                now=NOW, unsubscribe=stop)):
        message = read(mail)
        assert " ".join(str(message["List-Unsubscribe"]).split()) == (
            "<mailto:gm@example.org?subject=STOP%20abc.defghijklmnopqrst>, "
            "<https://pbem.example.org/unsubscribe/abc.defghijklmnopqrst>")
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert message["List-Id"] is None


def test_without_a_url_there_is_no_one_click_post() -> None:
    stop = Unsubscribe("mailto:gm@example.org?subject=STOP%20abc.defghijklmnopqrst")
    message = read(compose_reply(parent(), from_address="gm@example.org", body="hi", now=NOW, unsubscribe=stop))
    assert message["List-Unsubscribe"] == "<mailto:gm@example.org?subject=STOP%20abc.defghijklmnopqrst>"
    assert message["List-Unsubscribe-Post"] is None


@pytest.mark.parametrize("now", [
    NOW,
    datetime(2027, 3, 28, 1, 59, 59, tzinfo=ZoneInfo("Europe/Berlin")),
    datetime(2027, 3, 28, 3, 0, 1, 999_999, tzinfo=ZoneInfo("Europe/Berlin")),
    datetime(1999, 12, 31, 23, 59, tzinfo=ZoneInfo("America/St_Johns")),
    datetime(2026, 1, 5, 8, 7, 6, tzinfo=timezone(timedelta(hours=-11, minutes=-30, seconds=-15))),
    datetime(987, 2, 1, tzinfo=timezone(timedelta(hours=14))),
])
def test_the_date_is_written_as_email_utils_writes_it(now: datetime) -> None:
    mail = compose_reply(parent(), from_address="gm@example.org", body="ok\n", now=now)
    assert f"\nDate: {format_datetime(now)}\n".encode() in mail.raw
