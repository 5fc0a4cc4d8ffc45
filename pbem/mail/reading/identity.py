"""Which mail a raw mail is, from its header fields alone: its Message-ID (a mail is stored once), its
sender (one sender's mail is handled in the order it came) and its subject (what a listing shows of it).

Lean on purpose: ``pbem deliver`` stores a mail with this and the standard library alone (see
:mod:`pbem.mail.intake.deliver`, :mod:`pbem.store.direct`). The handling reads the same fields in its one
parse of the mail (:func:`pbem.mail.handling.incoming.read_incoming`), through :func:`identity_from`, so the
store and the handling agree on them.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from email.message import Message
from email.policy import compat32
from email.utils import getaddresses

from pbem.addresses import PLAIN_ADDRESS
from pbem.mail.reading.bounded_mime import read_message

MAX_FROM = 998
"""Longest From field read (unfolded, in characters, RFC 5322's line limit): a longer one is refused unread,
so the standard address parser, which is slower than linear on some input, reads a bounded text."""
HEADER_PREFIX = 64 * 1024
"""Bytes of a stored mail whose header fields :func:`stored_header` reads."""
MAX_STORED_ID = 500
"""Longest Message-ID stored (characters)."""
MAX_STORED_SENDER = 320
"""Longest sender address stored (characters)."""
MAX_STORED_SUBJECT = 2000
"""Longest Subject field stored (characters, before its encoded words are decoded)."""



@dataclass(frozen=True)
class StoredIdentity:
    """What the store records of which mail a mail is."""

    message_id: str
    """Its Message-ID field as it came (stripped, capped), or one made from its bytes when it has none."""
    sender: str
    """The first address of its From field in lower case, or ''."""
    subject: str = ""
    """Its Subject field as compat32 gives it, encoded words and all, at most :data:`MAX_STORED_SUBJECT`
    characters (what ``pbem mail`` shows of it, decoded)."""


_END_OF_HEADERS = re.compile(rb"\r?\n\r?\n")


def header_block(raw: bytes) -> bytes:
    """The header fields of a raw mail, up to and including the blank line that ends them."""
    found = _END_OF_HEADERS.search(raw)
    return raw[: found.end()] if found else raw


def stored_header(raw: bytes) -> Message:
    """The header fields of a raw mail as a compat32 message with no body, read capped (see
    :func:`~pbem.mail.reading.bounded_mime.read_message`) from its first :data:`HEADER_PREFIX` bytes: for what
    pbem reads of a stored mail apart from handling it (its identity when it is stored, its subject in a
    listing)."""
    return read_message(header_block(raw[:HEADER_PREFIX]), compat32)


def identity_of(raw: bytes) -> StoredIdentity:
    """The Message-ID and the sender of a raw mail, read from its header fields (see :func:`identity_from`)."""
    headers = stored_header(raw)
    return identity_from(headers.get("Message-ID", ""), headers.get("From", ""), raw, headers.get("Subject", ""))


def identity_from(message_id_field: object, from_field: object, raw: bytes,
                  subject_field: object = "") -> StoredIdentity:
    """The Message-ID of a mail (its first Message-ID field as compat32 gives it, stripped, at most
    :data:`MAX_STORED_ID` characters; a stable one made from ``raw``'s bytes when it has none) and its
    sender: the first address of its first From field in lower case ('' when there is none, or when the
    field is longer than :data:`MAX_FROM`: the address parser read a megabyte of ``@`` for 1.5 s and
    recursed too deep on ``::::``), with its Subject field (``subject_field``, capped)."""
    value = str(message_id_field or "").strip()
    message_id = value[:MAX_STORED_ID] if value else f"<sha256-{hashlib.sha256(raw).hexdigest()}@pbem.invalid>"
    text = str(from_field or "")
    found: list[str] = []
    if len(text) <= MAX_FROM:
        # nearly every From: what getaddresses reads, without its walk (in ASCII alone: it drops Unicode blanks)
        mailbox = plain_mailbox(text) if text.isascii() else None
        try:
            found = [mailbox[1]] if mailbox else [address for _name, address in getaddresses([text]) if address]
        except (RecursionError, ValueError, IndexError):  # the stdlib recurses on some odd fields ("::::...")
            found = []
    return StoredIdentity(message_id, found[0].strip().lower()[:MAX_STORED_SENDER] if found else "",
                          str(subject_field or "")[:MAX_STORED_SUBJECT])


_PLAIN_MAILBOX = re.compile(
    r'(?:"([^\x00-\x1f\x7f"\\]*+)"[ \t]*+|([^\x00-\x1f\x7f()<>@,:;"\[\]\\]*+))'
    rf"<({PLAIN_ADDRESS})>|({PLAIN_ADDRESS})"
)
"""A plain mailbox, without the blanks around it. Every quantifier is possessive (nothing is tried again
on a mismatch), so a match takes time linear in the length of the field whatever it holds."""


def plain_mailbox(value: str) -> tuple[str, str] | None:
    """The display name and address :func:`email.utils.getaddresses` reads from the field ``value`` when it is one
    plain mailbox, else None.

    A plain mailbox is ``a@b``, ``Name <a@b>`` or ``"Name" <a@b>`` (blanks
    around it) without comments, escapes, control characters or whitespace in
    the address: the fields of nearly every mail, which getaddresses reads one
    character at a time (15 to 30 µs for each address of a typical mail).
    """
    match = _PLAIN_MAILBOX.fullmatch(value.strip(" \t"))
    if match is None:
        return None
    quoted, phrase, bracketed, bare = match.groups()
    if bare is not None:
        return "", bare
    # getaddresses joins the words of an unquoted name with single spaces
    return (quoted if quoted is not None else " ".join(phrase.split())), bracketed
