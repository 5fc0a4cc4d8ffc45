"""Outgoing mail: replies to players and turn reports, built but not sent.

Every message is UTF-8 text/plain, with an optional text/html alternative,
a fresh Message-ID on the service's domain, and the headers that stop mail
loops: ``Auto-Submitted`` (``auto-replied`` for replies, ``auto-generated``
for reports, RFC 3834) and ``X-Auto-Response-Suppress: All`` (asks Exchange
not to send out-of-office replies to us).

Replies thread under the mail they answer (In-Reply-To, References). Turn
reports of a game thread under one root id per game, :func:`thread_root_id`,
which no message carries: mail clients group by References all the same.

The bytes are written here directly in one fixed layout (header fields, then
one text part or one multipart/alternative of two, its HTML part in a
multipart/related with its inline pictures, and all of it in a
multipart/mixed when there are attachments), not through
:class:`email.message.EmailMessage`: its header objects and generator cost
about half a millisecond per reply, a large share of the daemon's time per
mail, for a layout that never varies. The encodings come from the stdlib:
RFC 2047 encoded words and folding from :class:`email.header.Header`, address
quoting from :func:`email.utils.formataddr`, ids from :mod:`email.utils`,
quoted-printable from :func:`binascii.b2a_qp`; the Date is written from the
moment's fields as :func:`email.utils.format_datetime` writes it. Lines end
in LF, as ``email.policy.default`` writes them; the SMTP client sends CRLF.
"""

from __future__ import annotations

import binascii
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from email.header import Header
from email.utils import formataddr, make_msgid

from pbem.addresses import is_plain_address
from pbem.mail.reading.parse import IncomingMail

_MAX_REFERENCES = 20
_MAX_ID = 250  # a longer parent id is left out of the threading headers: no header line over 998
_MAX_NAME = 64  # display names are cut to this many characters
_MAX_SUBJECT = 200
_LINE = 78
_REPLY_PREFIX = re.compile(r"^\s*re\s*:", re.I)
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@dataclass(frozen=True)
class BinaryPart:
    """A base64 part of a mail: an inline image referred to by ``cid:`` from the HTML part
    (``content_id`` set), or an attachment (``content_id`` None)."""

    filename: str
    content_type: str
    data: bytes
    content_id: str | None = None


@dataclass(frozen=True)
class Unsubscribe:
    """How the reader of a mail stops all mail from pbem: ``mailto`` (a ``mailto:`` URI that pbem reads)
    and, when the web is served, ``url`` (an ``https://`` or ``http://`` URI taking a one-click POST).
    Written as ``List-Unsubscribe`` (RFC 2369), with ``List-Unsubscribe-Post: List-Unsubscribe=One-Click``
    (RFC 8058) when there is a URL."""

    mailto: str
    url: str | None = None

    def header_lines(self) -> list[str]:
        """The header fields, folded after the comma between the two URIs."""
        uris = [f"<{self.mailto}>", *([f"<{self.url}>"] if self.url else [])]
        lines = ["List-Unsubscribe: " + ",\n ".join(uris)]
        if self.url:
            lines.append("List-Unsubscribe-Post: List-Unsubscribe=One-Click")
        return lines


@dataclass(frozen=True)
class ComposedMail:
    """One outgoing mail as it goes on the wire: envelope sender and recipients, its
    Message-ID, and the whole message as bytes (LF line ends)."""

    sender: str
    recipients: tuple[str, ...]
    message_id: str
    raw: bytes


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
    attachments: tuple[BinaryPart, ...] = (),
    unsubscribe: Unsubscribe | None = None,
) -> ComposedMail:
    """Return the reply to ``parent``, addressed to its sender (with ``attachments``, a multipart/mixed).

    Subject is ``subject`` or ``"Re: "`` + the parent's subject (not doubled);
    In-Reply-To is the parent's Message-ID and References the parent's
    references plus its id (the first and the last 19 when longer); Reply-To
    is ``reply_to`` (a reply-token address) when given; Auto-Submitted is
    ``auto-replied``. ``message_id`` defaults to a fresh id on the domain of
    ``from_address``. Raises ``ValueError`` for a naive ``now`` or an address
    that is not a plain ASCII ``local@domain``.
    """
    own_id = (parent.message_id,) if parent.has_own_id else ()
    references = tuple(ref for ref in (*parent.references, *own_id) if len(ref) <= _MAX_ID)
    if len(references) > _MAX_REFERENCES:
        references = (references[0], *references[-(_MAX_REFERENCES - 1) :])
    return _message(
        from_address=from_address,
        from_name=from_name,
        to_address=parent.sender,
        to_name=parent.sender_name,
        subject=subject if subject is not None else reply_subject(parent.subject),
        body=body,
        html=html,
        reply_to=reply_to,
        now=now,
        message_id=message_id,
        auto_submitted="auto-replied",
        in_reply_to=parent.message_id if parent.has_own_id and len(parent.message_id) <= _MAX_ID else None,
        references=references,
        attachments=attachments,
        unsubscribe=unsubscribe,
    )


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
    inline: tuple[BinaryPart, ...] = (),
    attachments: tuple[BinaryPart, ...] = (),
    unsubscribe: Unsubscribe | None = None,
) -> ComposedMail:
    """Return the turn report of ``game`` for one reader at ``to``.

    ``inline`` parts (images with a Content-ID) go with the HTML part in a
    multipart/related; ``attachments`` make the whole a multipart/mixed.

    Subject is ``subject`` or ``"[game] Turn N"``; In-Reply-To and References
    are the game's :func:`thread_root_id`, so a game's reports form one
    thread; Reply-To is ``reply_to`` (the reader's reply-token address) when
    given; Auto-Submitted is ``auto-generated``. Raises ``ValueError`` for a
    naive ``now`` or an address that is not a plain ASCII ``local@domain``.
    """
    root = thread_root_id(game, _domain(from_address))
    return _message(
        from_address=from_address,
        from_name=from_name,
        to_address=to,
        to_name=to_name,
        subject=subject if subject is not None else f"[{game}] Turn {turn}",
        body=body,
        html=html,
        reply_to=reply_to,
        now=now,
        message_id=message_id,
        auto_submitted="auto-generated",
        in_reply_to=root,
        references=(root,),
        inline=inline,
        attachments=attachments,
        unsubscribe=unsubscribe,
    )


def compose_notice(
    *,
    to: str,
    from_address: str,
    subject: str,
    body: str,
    now: datetime,
    from_name: str = "",
    unsubscribe: Unsubscribe | None = None,
) -> ComposedMail:
    """Return a plain notice to ``to`` that answers no readable mail (e.g. one that could
    not be parsed): Auto-Submitted ``auto-replied``, no threading headers."""
    return _message(
        from_address=from_address, from_name=from_name, to_address=to, to_name="", subject=subject, body=body,
        html=None, reply_to=None, now=now, message_id=None, auto_submitted="auto-replied",
        in_reply_to=None, references=(), unsubscribe=unsubscribe,
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
    to_address: str,
    to_name: str,
    subject: str,
    body: str,
    html: str | None,
    reply_to: str | None,
    now: datetime,
    message_id: str | None,
    auto_submitted: str,
    in_reply_to: str | None,
    references: tuple[str, ...],
    inline: tuple[BinaryPart, ...] = (),
    attachments: tuple[BinaryPart, ...] = (),
    unsubscribe: Unsubscribe | None = None,
) -> ComposedMail:
    if now.tzinfo is None:
        raise ValueError(f"the Date of a mail needs a time zone, not the naive {now.isoformat()}")
    message_id = message_id or make_msgid(domain=_domain(from_address))
    fields = [f"From: {_mailbox(from_name, from_address)}", f"To: {_mailbox(to_name, to_address)}"]
    if reply_to is not None:
        fields.append(f"Reply-To: {_mailbox('', reply_to)}")
    fields += [
        f"Subject: {_unstructured('Subject', _one_line(subject)[:_MAX_SUBJECT])}",
        f"Date: {_date(now)}",
        f"Message-ID: {message_id}",
        f"Auto-Submitted: {auto_submitted}",
        "X-Auto-Response-Suppress: All",
    ]
    if in_reply_to is not None:
        fields.append(f"In-Reply-To: {in_reply_to}")
    if references:
        fields.append(_folded_ids("References", references))
    if unsubscribe is not None:
        fields += unsubscribe.header_lines()
    fields.append("MIME-Version: 1.0")
    content = _text_part("plain", body)
    if html is not None:
        rich = _text_part("html", html)
        if inline:
            rich = _multipart("related", [rich, *(_binary_part(part) for part in inline)])
        content = _multipart("alternative", [content, rich])
    if attachments:
        content = _multipart("mixed", [content, *(_binary_part(part) for part in attachments)])
    lines = [*fields, *content]
    raw = ("\n".join(lines) + "\n").encode("ascii")
    return ComposedMail(from_address, (to_address,), message_id, raw)


@lru_cache(maxsize=1024)
def _mailbox(name: str, address: str) -> str:
    """``address`` with its display name, quoted or RFC 2047-encoded as needed. Worked out once for each
    pair (the most recent 1,024): every mail has the service's From, and each player gets many mails."""
    if not is_plain_address(address):
        raise ValueError(f"not a mail address pbem can write to: {address!r}")
    name = _one_line(name)[:_MAX_NAME]
    if name.isascii():
        return formataddr((name, address))
    return f"{Header(name, 'utf-8').encode()} <{address}>"


def _unstructured(field: str, text: str) -> str:
    """``text`` as a header value: as it is when short ASCII, else encoded and folded."""
    if text.isascii() and len(field) + 2 + len(text) <= _LINE:
        return text
    return Header(text, "us-ascii" if text.isascii() else "utf-8", header_name=field).encode(linesep="\n")


def _date(now: datetime) -> str:
    """The Date field's value for ``now`` (aware), as :func:`email.utils.format_datetime` writes it
    (``Tue, 24 Nov 2026 12:00:00 +0000``), from ``now``'s own fields: without the time tuple and the
    ``strftime`` of its offset that it makes for every mail."""
    return (f"{_WEEKDAYS[now.weekday()]}, {now.day:02d} {_MONTHS[now.month - 1]} {now.year:04d} "
            f"{now.hour:02d}:{now.minute:02d}:{now.second:02d} {_utc_offset(now.utcoffset())}")


@lru_cache(maxsize=64)
def _utc_offset(offset: timedelta | None) -> str:
    """An offset from UTC as ``strftime("%z")`` writes it (``+0000``, ``-0530``; nothing for None)."""
    return "" if offset is None else datetime(2000, 1, 1, tzinfo=timezone(offset)).strftime("%z")


def _folded_ids(field: str, ids: tuple[str, ...]) -> str:
    """``field: id id ...``, folded before an id that would take a line past 78 characters."""
    lines = [f"{field}:"]
    for message_id in ids:
        if len(lines[-1]) + 1 + len(message_id) > _LINE and lines[-1] != f"{field}:":
            lines.append("")
        lines[-1] += f" {message_id}"
    return "\n".join(lines)


def _text_part(subtype: str, text: str) -> list[str]:
    """The header fields, blank line and encoded lines of one UTF-8 text part."""
    text = text.replace("\r\n", "\n")
    if not text.endswith("\n"):
        text += "\n"
    if text.isascii() and max(map(len, text.splitlines()), default=0) <= _LINE:
        encoding, encoded = "7bit", text
    else:  # quoted-printable: readable, and safe through servers without 8BITMIME
        encoding, encoded = "quoted-printable", binascii.b2a_qp(text.encode("utf-8"), istext=True).decode("ascii")
    return [f'Content-Type: text/{subtype}; charset="utf-8"', f"Content-Transfer-Encoding: {encoding}", "",
            encoded.removesuffix("\n")]


def _multipart(subtype: str, parts: Sequence[Sequence[str]]) -> list[str]:
    """The header field, blank line and body of a multipart of ``parts`` (each its header fields and body)."""
    boundary = _boundary(*parts)
    lines = [f'Content-Type: multipart/{subtype}; boundary="{boundary}"', ""]
    for part in parts:
        # the line break before a boundary belongs to the boundary: "" keeps each part's last one
        lines += [f"--{boundary}", *part, ""]
    return [*lines, f"--{boundary}--"]


@lru_cache(maxsize=16)
def _binary_part(part: BinaryPart) -> tuple[str, ...]:
    """The header fields, blank line and base64 body of one binary part (inline or attachment). The same
    part in several mails (a report's board goes to every reader) is encoded once."""
    filename = re.sub(r"[^A-Za-z0-9._-]", "_", part.filename)[:60]
    fields = [f"Content-Type: {part.content_type}; name=\"{filename}\"", "Content-Transfer-Encoding: base64"]
    if part.content_id is not None:
        fields += [f"Content-ID: <{part.content_id}>", f'Content-Disposition: inline; filename="{filename}"']
    else:
        fields.append(f'Content-Disposition: attachment; filename="{filename}"')
    encoded = binascii.b2a_base64(part.data, newline=False).decode("ascii")
    return (*fields, "", "\n".join(encoded[i : i + 76] for i in range(0, len(encoded), 76)))


def _boundary(*parts: Sequence[str]) -> str:
    """A multipart boundary that no line of ``parts`` contains."""
    while True:
        boundary = f"=_pbem_{secrets.token_hex(12)}"
        if not any(boundary in line for part in parts for line in part):
            return boundary


def _domain(address: str) -> str:
    return address.rpartition("@")[2].lower()


def _one_line(text: str) -> str:
    return " ".join(text.split())
