"""send_mail: one SMTP mail transaction against a real aiosmtpd server on 127.0.0.1, answering as
aiosmtplib's sendmail does."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiosmtplib
import pytest
from aiosmtpd.smtp import SMTP, Envelope, Session
from aiosmtplib.email import parse_address
from aiosmtplib.protocol import normalize_message_line_endings
from hypothesis import given
from hypothesis import strategies as st

from pbem.addresses import is_plain_address
from pbem.mail.outbound.transaction import envelope_path, send_mail, wire_size

StubStarter = Callable[[Any], Awaitable[int]]
MESSAGE = b"From: gm@example.org\r\nTo: alice@example.org\r\nSubject: Turn 3\r\n\r\nreport\nsecond line\r\n.dot\r\n"


class Recorder:
    """aiosmtpd handler: answers MAIL, RCPT and DATA as told (250 by default) and records what came."""

    def __init__(self, *, mail: str = "250 OK", refused: dict[str, str] | None = None, data: str = "250 queued",
                 data_held: asyncio.Event | None = None) -> None:
        self.mail, self.refused, self.data, self.data_held = mail, refused or {}, data, data_held
        self.envelopes: list[Envelope] = []
        self.commands: list[str] = []
        self.helo_names: list[str] = []

    async def handle_EHLO(self, server: SMTP, session: Session, envelope: Envelope, hostname: str,
                          responses: list[str]) -> list[str]:
        self.helo_names.append(hostname)
        session.host_name = hostname  # aiosmtpd leaves it to the hook
        return responses

    async def handle_MAIL(self, server: SMTP, session: Session, envelope: Envelope, address: str,
                          mail_options: list[str]) -> str:
        self.commands.append(f"MAIL {address} {' '.join(mail_options)}".strip())
        if not self.mail.startswith("250"):
            return self.mail
        envelope.mail_from, envelope.mail_options = address, list(mail_options)
        return self.mail

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope, address: str,
                          rcpt_options: list[str]) -> str:
        self.commands.append(f"RCPT {address}")
        if address in self.refused:
            return self.refused[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_RSET(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.commands.append("RSET")
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.commands.append("DATA")
        if self.data_held is not None:
            await self.data_held.wait()
        if self.data.startswith("250"):
            self.envelopes.append(envelope)
        return self.data


async def _connected(port: int) -> aiosmtplib.SMTP:
    """Connected as pbem's sender connects to a plain SMTP server (no STARTTLS, no login): aiosmtplib then
    greets the server with nothing, and send_mail must."""
    smtp = aiosmtplib.SMTP(hostname="127.0.0.1", port=port, local_hostname="pbem.test", timeout=5, start_tls=False)
    await smtp.connect()
    return smtp


def test_a_mail_goes_out_whole_with_its_size_after_an_ehlo_of_its_own(smtp_stub: StubStarter, arun: Any) -> None:
    recorder = Recorder()

    async def scenario() -> dict[str, Any]:
        smtp = await _connected(await smtp_stub(recorder))
        assert smtp.is_ehlo_or_helo_needed
        refused = await send_mail(smtp, "gm@example.org", ["alice@example.org"], MESSAGE, timeout=5)
        smtp.close()
        return refused

    assert arun(scenario()) == {}
    assert recorder.helo_names == ["pbem.test"]
    (envelope,) = recorder.envelopes
    assert (envelope.mail_from, envelope.rcpt_tos) == ("gm@example.org", ["alice@example.org"])
    assert envelope.original_content == normalize_message_line_endings(MESSAGE)  # the dot line unstuffed again
    assert envelope.mail_options == [f"SIZE={len(normalize_message_line_endings(MESSAGE))}"]


def test_one_connection_carries_mail_after_mail(smtp_stub: StubStarter, arun: Any) -> None:
    recorder = Recorder()

    async def scenario() -> None:
        smtp = await _connected(await smtp_stub(recorder))
        for number in range(3):
            await send_mail(smtp, "gm@example.org", [f"p{number}@example.org"], MESSAGE, timeout=5)
        smtp.close()

    arun(scenario())
    assert [envelope.rcpt_tos for envelope in recorder.envelopes] == [[f"p{n}@example.org"] for n in range(3)]
    assert recorder.helo_names == ["pbem.test"]


def test_recipients_refused_among_others_are_returned_with_the_servers_answers(
    smtp_stub: StubStarter, arun: Any
) -> None:
    recorder = Recorder(refused={"gone@example.org": "550 5.1.1 no such user"})

    async def scenario() -> dict[str, Any]:
        smtp = await _connected(await smtp_stub(recorder))
        refused = await send_mail(smtp, "gm@example.org", ["alice@example.org", "gone@example.org"], MESSAGE,
                                  timeout=5)
        smtp.close()
        return refused

    refused = arun(scenario())
    assert {rcpt: (answer.code, answer.message) for rcpt, answer in refused.items()} == {
        "gone@example.org": (550, "5.1.1 no such user")}
    assert recorder.envelopes[0].rcpt_tos == ["alice@example.org"]


@pytest.mark.parametrize(("recorder", "error", "code"), [
    (Recorder(mail="553 5.7.1 sender not allowed"), aiosmtplib.SMTPSenderRefused, 553),
    (Recorder(data="554 5.6.0 content refused"), aiosmtplib.SMTPDataError, 554),
    (Recorder(data="451 4.3.0 try later"), aiosmtplib.SMTPDataError, 451),
], ids=["sender", "data", "data-later"])
def test_a_refusal_raises_as_sendmail_does_and_resets_the_envelope_for_the_next_mail(
    smtp_stub: StubStarter, arun: Any, recorder: Recorder, error: type[aiosmtplib.SMTPResponseException], code: int
) -> None:
    async def scenario() -> None:
        smtp = await _connected(await smtp_stub(recorder))
        with pytest.raises(error) as raised:
            await send_mail(smtp, "gm@example.org", ["alice@example.org"], MESSAGE, timeout=5)
        assert raised.value.code == code
        assert recorder.commands[-1] == "RSET"
        recorder.mail, recorder.data = "250 OK", "250 queued"
        await send_mail(smtp, "gm@example.org", ["bob@example.org"], MESSAGE, timeout=5)
        smtp.close()

    arun(scenario())
    assert [envelope.rcpt_tos for envelope in recorder.envelopes] == [["bob@example.org"]]


def test_every_recipient_refused_raises_with_each_answer_and_sends_no_data(smtp_stub: StubStarter, arun: Any) -> None:
    recorder = Recorder(refused={"a@example.org": "450 4.2.1 mailbox busy", "b@example.org": "550 5.1.1 unknown"})

    async def scenario() -> aiosmtplib.SMTPRecipientsRefused:
        smtp = await _connected(await smtp_stub(recorder))
        with pytest.raises(aiosmtplib.SMTPRecipientsRefused) as raised:
            await send_mail(smtp, "gm@example.org", ["a@example.org", "b@example.org"], MESSAGE, timeout=5)
        smtp.close()
        return raised.value

    refused = arun(scenario())
    assert [(r.recipient, r.code) for r in refused.recipients] == [("a@example.org", 450), ("b@example.org", 550)]
    assert "DATA" not in recorder.commands and recorder.commands[-1] == "RSET"


def test_an_answer_that_does_not_come_in_time_closes_the_connection(smtp_stub: StubStarter, arun: Any) -> None:
    held = asyncio.Event()
    recorder = Recorder(data_held=held)

    async def scenario() -> tuple[float, bool]:
        smtp = await _connected(await smtp_stub(recorder))
        started = time.monotonic()
        try:
            with pytest.raises(aiosmtplib.SMTPReadTimeoutError):
                await send_mail(smtp, "gm@example.org", ["alice@example.org"], MESSAGE, timeout=0.2)
            return time.monotonic() - started, smtp.is_connected
        finally:
            held.set()

    waited, connected = arun(scenario())
    assert 0.2 <= waited < 3.0  # DATA has two answers to wait for: 0.4 s at most here, not the server's pace
    assert not connected


def test_an_address_that_cannot_go_on_a_command_line_sends_nothing(smtp_stub: StubStarter, arun: Any) -> None:
    recorder = Recorder()

    async def scenario() -> None:
        smtp = await _connected(await smtp_stub(recorder))
        for bad in ("alice smith@example.org", "élise@example.org"):
            with pytest.raises(ValueError):
                await send_mail(smtp, "gm@example.org", ["bob@example.org", bad], MESSAGE, timeout=5)
        smtp.close()

    arun(scenario())
    assert recorder.commands == []


def test_an_address_with_more_around_it_goes_out_as_sendmail_sends_it_and_nothing_more(smtp_stub: StubStarter, arun: Any) -> None:
    recorder = Recorder()

    async def scenario() -> None:
        smtp = await _connected(await smtp_stub(recorder))
        await send_mail(smtp, "The GM <gm@example.org>", ["Alice <alice@example.org>\r\nRCPT TO:<eve@example.org>"],
                        MESSAGE, timeout=5)
        smtp.close()

    arun(scenario())
    assert (recorder.envelopes[0].mail_from, recorder.envelopes[0].rcpt_tos) == (
        "gm@example.org", ["alice@example.org"])


_ADDRESS_CHARS = st.sampled_from("abcXYZ019.!#$%&'*+-/=?^_`{|}~")


@given(local=st.text(_ADDRESS_CHARS, min_size=1, max_size=20), domain=st.text(_ADDRESS_CHARS, min_size=1, max_size=20))
def test_a_plain_address_goes_out_as_aiosmtplib_would_have_sent_it(local: str, domain: str) -> None:
    address = f"{local}@{domain}"
    path = envelope_path(address)
    assert path == f"<{parse_address(address)}>".encode()
    assert path == f"<{address}>".encode() or not is_plain_address(address)


@given(st.binary(max_size=60).map(lambda raw: raw.replace(b"\x00", b"\r").replace(b"\x01", b"\n")))
def test_the_size_given_is_the_size_of_what_data_sends(message: bytes) -> None:
    assert wire_size(message) == len(normalize_message_line_endings(message))
