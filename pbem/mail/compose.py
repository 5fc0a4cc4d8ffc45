"""Outgoing mail: replies to players and turn reports, built but not sent.

Every message is UTF-8 text/plain, with an optional text/html alternative,
a fresh Message-ID on the service's domain, and the headers that stop mail
loops: ``Auto-Submitted`` (``auto-replied`` for replies, ``auto-generated``
for reports, RFC 3834) and ``X-Auto-Response-Suppress: All`` (asks Exchange
not to send out-of-office replies to us).

Replies thread under the mail they answer (In-Reply-To, References). Turn
reports of a game thread under one root id per game, :func:`thread_root_id`,
which no message carries: mail clients group by References all the same.
"""

from __future__ import annotations

import re
from datetime import datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import make_msgid

from pbem.mail.parse import POLICY, IncomingMail

_MAX_REFERENCES = 20
_REPLY_PREFIX = re.compile(r"^\s*re\s*:", re.I)


def compose_reply(
    parent: IncomingMail,
    *,
    from_address: str,
    body: str,
    now: datetime,
    html: str | None = None,
    reply_to: str | None = None,
    subject: str | None = None,
    from_name: str = "",
    message_id: str | None = None,
) -> EmailMessage:
    """Return the reply to ``parent``, addressed to its sender.

    Subject is ``subject`` or ``"Re: "`` + the parent's subject (not doubled);
    In-Reply-To is the parent's Message-ID and References the parent's
    references plus its id (the first and the last 19 when longer); Reply-To
    is ``reply_to`` (a reply-token address) when given; Auto-Submitted is
    ``auto-replied``. ``message_id`` defaults to a fresh id on the domain of
    ``from_address``. Raises ``ValueError`` for a naive ``now`` or an address
    the email package refuses.
    """
    message = _message(
        from_address=from_address,
        from_name=from_name,
        to=Address(display_name=_one_line(parent.sender_name), addr_spec=parent.sender),
        subject=subject if subject is not None else reply_subject(parent.subject),
        body=body,
        html=html,
        reply_to=reply_to,
        now=now,
        message_id=message_id,
        auto_submitted="auto-replied",
    )
    references = (*parent.references, parent.message_id)
    if len(references) > _MAX_REFERENCES:
        references = (references[0], *references[-(_MAX_REFERENCES - 1) :])
    message["In-Reply-To"] = parent.message_id
    message["References"] = " ".join(references)
    return message


def compose_report(
    *,
    game: str,
    turn: int,
    to: str,
    from_address: str,
    body: str,
    now: datetime,
    html: str | None = None,
    reply_to: str | None = None,
    subject: str | None = None,
    to_name: str = "",
    from_name: str = "",
    message_id: str | None = None,
) -> EmailMessage:
    """Return the turn report of ``game`` for one reader at ``to``.

    Subject is ``subject`` or ``"[game] Turn N"``; In-Reply-To and References
    are the game's :func:`thread_root_id`, so a game's reports form one
    thread; Reply-To is ``reply_to`` (the reader's reply-token address) when
    given; Auto-Submitted is ``auto-generated``. Raises ``ValueError`` for a
    naive ``now`` or an address the email package refuses.
    """
    domain = _domain(from_address)
    message = _message(
        from_address=from_address,
        from_name=from_name,
        to=Address(display_name=_one_line(to_name), addr_spec=to),
        subject=subject if subject is not None else f"[{game}] Turn {turn}",
        body=body,
        html=html,
        reply_to=reply_to,
        now=now,
        message_id=message_id,
        auto_submitted="auto-generated",
    )
    root = thread_root_id(game, domain)
    message["In-Reply-To"] = root
    message["References"] = root
    return message


def compose_notice(
    *,
    to: str,
    from_address: str,
    subject: str,
    body: str,
    now: datetime,
    from_name: str = "",
) -> EmailMessage:
    """Return a plain notice to ``to`` that answers no readable mail (e.g. one that could
    not be parsed): Auto-Submitted ``auto-replied``, no threading headers."""
    return _message(
        from_address=from_address, from_name=from_name, to=Address(addr_spec=to), subject=subject, body=body,
        html=None, reply_to=None, now=now, message_id=None, auto_submitted="auto-replied",
    )


def thread_root_id(game: str, domain: str) -> str:
    """Return the stable id all reports of ``game`` thread under: ``<game.NAME.thread@DOMAIN>``."""
    return f"<game.{game.lower()}.thread@{domain.lower()}>"


def reply_subject(subject: str) -> str:
    """Return the subject of a reply: ``"Re: "`` + ``subject``, unless it already starts with Re:."""
    subject = _one_line(subject)
    if not subject:
        return "Re: your mail"
    return subject if _REPLY_PREFIX.match(subject) else f"Re: {subject}"


def _message(
    *,
    from_address: str,
    from_name: str,
    to: Address,
    subject: str,
    body: str,
    html: str | None,
    reply_to: str | None,
    now: datetime,
    message_id: str | None,
    auto_submitted: str,
) -> EmailMessage:
    if now.tzinfo is None:
        raise ValueError(f"the Date of a mail needs a time zone, not the naive {now.isoformat()}")
    message = EmailMessage(policy=POLICY)
    message["From"] = Address(display_name=_one_line(from_name), addr_spec=from_address)
    message["To"] = to
    if reply_to is not None:
        message["Reply-To"] = Address(addr_spec=reply_to)
    message["Subject"] = _one_line(subject)
    message["Date"] = now
    message["Message-ID"] = message_id or make_msgid(domain=_domain(from_address))
    message["Auto-Submitted"] = auto_submitted
    message["X-Auto-Response-Suppress"] = "All"
    message.set_content(body, charset="utf-8", cte=_transfer_encoding(body))
    if html is not None:
        message.add_alternative(html, subtype="html", charset="utf-8", cte=_transfer_encoding(html))
    return message


def _domain(address: str) -> str:
    return address.rpartition("@")[2].lower()


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _transfer_encoding(text: str) -> str:
    """7bit for short-lined ASCII, else quoted-printable (readable, and safe without 8BITMIME)."""
    if text.isascii() and all(len(line) <= 78 for line in text.splitlines()):
        return "7bit"
    return "quoted-printable"
