"""What of a stored mail may hold a password, and the copy kept of one that may: its header alone.

A mail holds a password when a line of its text opens a seat or GM session
(``SIGNON <game> <seat> <password>``, ``GM <game> <password>``), may carry a code that joins an
address to a player's name (``REGISTER <name> <code>``) or is a league GM's command
(``LEAGUE START <league> <password>``, ...), whether that
line was read, refused, or never read at all (rate-limited mail), and when it
quotes or forwards a mail of pbem's that gave one ("Your password is ..."),
also in a part encoded for transport (base64, quoted-printable: the word is
then not in the mail's bytes) or in another charset. A mail that cannot be
read, or is too big to be read, may hold one for all anyone knows.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from email.message import Message
from email.policy import compat32

from pbem.mail.reading.bounded_mime import PartsNotRead, read_message
from pbem.mail.reading.charsets import decode_text
from pbem.mail.reading.parse import MalformedMail, header_block, parse_mail

REDACTED_BODY = b"(body removed after handling: it held a password)\r\n"
SESSION_WORDS = frozenset({"SIGNON", "GM", "REGISTER"})
"""First words of the lines that carry a password (or a player's joining code)."""
LEAGUE_GM_WORDS = frozenset({"START", "REPLACE", "DROP", "END"})
"""Second words of the ``LEAGUE`` lines that carry the league's password."""
QUOTED_PASSWORD = b"password"
"""In a mail's bytes (any letter case): it may quote pbem's mail that gave a password."""


def redacted(raw: bytes) -> bytes:
    """``raw`` with its body replaced by a note: the header fields stay (who, when, Message-ID)."""
    return header_block(raw) + REDACTED_BODY


_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""The characters ``str.splitlines`` ends a line at."""
_SESSION_LINE = re.compile(
    rf"[{_LINE_BREAKS}][^\S{_LINE_BREAKS}]*+(?:{'|'.join(sorted(SESSION_WORDS))}"
    rf"|LEAGUE[^\S{_LINE_BREAKS}]++(?:{'|'.join(sorted(LEAGUE_GM_WORDS))}))(?!\S)")
"""In upper case, after a line break: a line whose first word is one of :data:`SESSION_WORDS`, or LEAGUE and
one of :data:`LEAGUE_GM_WORDS` (the search runs fast in C from one line break to the next)."""


def text_holds_password(text: str) -> bool:
    """True when a line of ``text`` (a mail's cleaned text) starts with SIGNON, GM or REGISTER, or is a league GM's
    command (LEAGUE START, REPLACE, DROP, END), in any letter case; time linear in the text."""
    return _SESSION_LINE.search("\n" + text.upper()) is not None


_ENCODED = re.compile(
    rb"content-transfer-encoding:\s*\"?(?:base64|quoted-printable)"
    rb"|charset\s*=\s*(?!\"?(?:us-)?ascii\b|\"?utf-?8\b|\"?iso-?8859-|\"?windows-125|\"?latin-?1\b)")
"""In a mail's bytes in lower case (``bytes.lower``): a part whose text its bytes do not show as it reads (encoded
for transport, or in a charset that does not write ASCII letters as ASCII). A search of the bytes as they are with
``re.IGNORECASE`` finds the same (for bytes it folds ASCII letters alone, as ``bytes.lower`` does), more slowly."""


def holds_password(raw: bytes, text: str | None = None) -> bool:
    """True when the stored mail ``raw`` may hold a password (see the module): its bytes name a
    password, or a part of it does once decoded, or its cleaned text (``text`` when the caller read it
    already, else read from ``raw``) opens a session, or it cannot be read."""
    lowered = raw.lower()
    if QUOTED_PASSWORD in lowered:
        return True
    if _ENCODED.search(lowered) and _a_decoded_part_names_password(lambda: read_message(raw, compat32)):
        return True
    if text is None:
        try:
            text = parse_mail(raw).body
        except MalformedMail:
            return True
    return text_holds_password(text)


def bytes_name_password(raw: bytes, message: Message) -> bool:
    """True when the mail ``raw``, whose MIME tree ``message`` was read already (the one parse of handling,
    :func:`pbem.mail.handling.incoming.read_incoming`), names a password in its bytes or in a part once decoded, or
    holds more parts than are read (see :func:`holds_password`, which adds the sessions its text opens)."""
    lowered = raw.lower()
    return QUOTED_PASSWORD in lowered or (
        _ENCODED.search(lowered) is not None and _a_decoded_part_names_password(lambda: message))


def _a_decoded_part_names_password(tree: Callable[[], Message]) -> bool:
    """True when a part of the mail (a quoted or forwarded mail's too, attachments included), decoded from its
    transfer encoding and its charset, names a password, or when the mail cannot be read, or holds more parts
    than are read. ``tree`` reads the mail, bounded as for handling (:func:`~pbem.mail.reading.bounded_mime.read_message`)."""
    try:
        message = tree()
        for part in message.walk():
            if any(isinstance(defect, PartsNotRead) for defect in part.defects):
                return True  # parts were left unread: one of them may hold one
            if part.is_multipart():
                continue
            payload = part.get_payload(decode=True)
            if not isinstance(payload, bytes):
                continue
            if QUOTED_PASSWORD in payload.lower():
                return True
            charset = part.get_content_charset()
            if charset and QUOTED_PASSWORD.decode() in decode_text(payload, charset).lower():
                return True
    except Exception:  # noqa: BLE001  (unreadable: it may hold one)
        return True
    return False
