"""One SMTP mail transaction on an open aiosmtplib connection: :func:`send_mail`.

aiosmtplib's ``sendmail`` reads every address twice with the standard library's lenient RFC 2822 parser
(once to check it, once more for its MAIL or RCPT command) and puts a time limit of its own around each of
the four answers it waits for: at full speed the two were an eighth of the daemon's event-loop CPU per mail
(bench/bench_mail.py). :func:`send_mail` runs the same transaction with aiosmtplib's own commands (EHLO
when none was made, MAIL with SIZE when the server takes it, RCPT for each recipient, DATA, RSET after a
refusal) and raises what ``sendmail`` raises, but takes a plain address (:mod:`pbem.addresses`: every
address pbem writes to is one) as it is, handing any other to aiosmtplib's parser as ``sendmail`` does,
and keeps one time limit that each command moves on (``timeout`` for each answer, as ``sendmail``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import aiosmtplib
from aiosmtplib import SMTPResponse
from aiosmtplib.email import parse_address

from pbem.addresses import is_plain_address

_ACCEPTED = (250, 251)
"""RCPT answers that take the recipient ("OK", "will forward")."""


def envelope_path(address: str) -> bytes:
    """``<address>`` as it goes on a MAIL or RCPT command line: a plain address as it is, any other as
    aiosmtplib's ``sendmail`` reads it. Raises ValueError for an address that cannot go on a command line
    (whitespace, angle brackets, a non-ASCII character)."""
    mailbox = address if is_plain_address(address) else parse_address(address)
    return b"<" + mailbox.encode("ascii") + b">"


def wire_size(message: bytes) -> int:
    """The bytes of ``message`` as DATA sends it (RFC 1870's SIZE): each lone CR or LF made a CRLF, and a
    CRLF added when it ends without a line break."""
    pairs = message.count(b"\r\n")
    size = len(message) + (message.count(b"\n") - pairs) + (message.count(b"\r") - pairs)
    return size if message.endswith((b"\r", b"\n")) else size + 2


async def send_mail(smtp: aiosmtplib.SMTP, sender: str, recipients: Sequence[str], message: bytes, *,
                    timeout: float | None) -> dict[str, SMTPResponse]:
    """Send ``message`` from ``sender`` to ``recipients`` over the connected ``smtp``, as ``smtp.sendmail``
    does, each answer awaited at most ``timeout`` seconds (None: no limit).

    Returns the recipients the server refused, with its answers, when it took the mail for at least one.
    Raises ValueError before sending anything when an address cannot go on a command line;
    SMTPSenderRefused, SMTPRecipientsRefused (every recipient refused) or SMTPDataError when the server
    refused the mail (the envelope then reset with RSET); SMTPReadTimeoutError, the connection closed,
    when an answer took longer than ``timeout``; SMTPServerDisconnected when the connection dropped.
    """
    paths = [envelope_path(sender), *map(envelope_path, recipients)]
    loop = asyncio.get_running_loop()
    limit = asyncio.timeout(None)
    refused: list[aiosmtplib.SMTPRecipientRefused] = []

    def answers_within(answers: int = 1) -> None:
        if timeout is not None:
            limit.reschedule(loop.time() + answers * timeout)

    try:
        async with limit:
            if smtp.is_ehlo_or_helo_needed:
                answers_within()
                try:
                    await smtp.ehlo(timeout=None)
                except aiosmtplib.SMTPHeloError:
                    if not smtp.is_connected:
                        raise
                    answers_within()
                    await smtp.helo(timeout=None)
            options = [b"SIZE=%d" % wire_size(message)] if smtp.supports_extension("size") else []  # EHLO told
            try:
                answers_within()
                answer = await smtp.execute_command(b"MAIL", b"FROM:" + paths[0], *options, timeout=None)
                if answer.code != 250:
                    raise aiosmtplib.SMTPSenderRefused(answer.code, answer.message, sender)
                for recipient, path in zip(recipients, paths[1:], strict=True):
                    answers_within()
                    answer = await smtp.execute_command(b"RCPT", b"TO:" + path, timeout=None)
                    if answer.code not in _ACCEPTED:
                        refused.append(aiosmtplib.SMTPRecipientRefused(answer.code, answer.message, recipient))
                if len(refused) == len(recipients):
                    raise aiosmtplib.SMTPRecipientsRefused(refused)
                answers_within(2)  # DATA's go-ahead, then the answer to the message
                await smtp.data(message, timeout=None)
            except (aiosmtplib.SMTPResponseException, aiosmtplib.SMTPRecipientsRefused):
                answers_within()
                try:
                    await smtp.rset(timeout=None)
                except (ConnectionError, aiosmtplib.SMTPResponseException):
                    pass  # the refusal is what counts
                raise
    except TimeoutError as exc:
        if not limit.expired():
            raise
        smtp.close()  # an answer half read leaves the connection out of step
        raise aiosmtplib.SMTPReadTimeoutError("Timed out waiting for server response") from exc
    return {error.recipient: SMTPResponse(error.code, error.message) for error in refused}
