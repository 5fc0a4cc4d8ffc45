"""The one parse of a mail: its stored bytes read once into the :class:`~pbem.mail.reading.parse.IncomingMail` that
every later step of its handling takes.

:func:`read_incoming` reads the bytes with the bounded MIME reader once
(:func:`~pbem.mail.reading.parse.read_mail_tree`) and takes from that one tree and those
bytes everything the handling needs: the sender and its checks, the Message-ID
and sender the store records, the Authentication-Results fields
(:mod:`pbem.mail.reading.authresults` judges them), the decoded and cleaned text,
whether the mail may hold a password (:mod:`pbem.mail.reading.redaction`), and, for a
mail to the bounce address of a mail pbem sent, the bounce report
(:mod:`pbem.mail.handling.bounces`). After it nothing reads the bytes again: the store
keeps them for retention only (and keeps only the header fields of a mail
that may hold a password).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from pbem.mail.handling.bounces import bounce_report
from pbem.mail.reading.identity import StoredIdentity
from pbem.mail.reading.parse import IncomingMail, MalformedMail, body_text, clean_body, incoming_from, read_mail_tree
from pbem.mail.reading.redaction import bytes_name_password, text_holds_password

Read = IncomingMail | MalformedMail
"""The one parse of a mail: what it found, or why the mail cannot be read."""


def identity_read(read: Read) -> StoredIdentity | None:
    """The Message-ID, sender and subject the store records for a mail, as its one parse read them (None
    when not even its header fields could be read)."""
    return read.stored_identity if isinstance(read, IncomingMail) else read.identity


def may_hold_password(read: Read) -> bool:
    """Whether the stored mail may hold a password, as its one parse found: a mail that cannot be read may,
    for all anyone knows."""
    return not isinstance(read, IncomingMail) or read.holds_password


def read_incoming(raw: bytes, *, size: int, oversized: bool,
                  bounced_mail: Callable[[str], int | None]) -> IncomingMail:
    """Read the stored mail ``raw`` (of ``size`` bytes as received) once, into the value its handling takes.

    ``oversized``: the mail is over the size limit (``raw`` is then only its beginning, as the store keeps
    it): its body is read for the password check alone, and ``body`` is empty (it is not answered).
    ``bounced_mail``: the id of the mail pbem sent whose bounce address an address is, or None
    (:meth:`~pbem.mail.outbound.tokens.ReplyTokens.bounced_mail`): a mail to one carries its bounce report.
    Raises :class:`~pbem.mail.reading.parse.MalformedMail` as :func:`~pbem.mail.reading.parse.parse_mail` does (such a
    mail may hold a password, for all anyone knows)."""
    message = read_mail_tree(raw)
    try:
        text = body_text(message, None)
    except MalformedMail:  # said as parse_mail says it: with the sender, or the From's own problem first
        return incoming_from(message, raw, size=size)
    cleaned = clean_body(text) if text else ""
    opens_session = text_holds_password(cleaned)
    mail = incoming_from(message, raw, size=size, body="" if oversized else cleaned,
                         read_body=not oversized, holds_password=opens_session or bytes_name_password(raw, message),
                         body_holds_password=opens_session and not oversized)
    bounced = next((mail_id for address in mail.recipients if (mail_id := bounced_mail(address)) is not None), None)
    if bounced is None:
        return mail
    return dataclasses.replace(mail, bounce=(bounced, bounce_report(message, raw)))
