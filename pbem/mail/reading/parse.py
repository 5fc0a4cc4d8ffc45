"""Raw mail as people send it, turned into the text they meant to write.

:func:`parse_mail` reads any MIME structure with the stdlib ``email`` package
and decodes the headers it needs itself: text/plain is preferred, an
HTML-only mail is turned into text by :func:`html_to_text`, every charset and
transfer encoding is decoded without ever raising (unknown charsets fall back
to UTF-8, then Latin-1), attachments and attached messages are ignored.
:func:`clean_body` then drops what the sender did not write: quoted earlier
mail, "On ... wrote:" and Outlook reply headers, the signature and mobile
footers. Removed lines become blank lines, so the line numbers of what is
left are the numbers the sender sees in the mail they wrote.

:mod:`pbem.mail.reading.bounded_mime` builds the MIME tree as the stdlib parser would,
splitting parts with regular expressions (no Python step per line) and
reading at most :data:`~pbem.mail.reading.bounded_mime.MAX_PARTS` parts of each
multipart; it caps every header field and stores each part's Content-Type and
Content-Disposition as read by pbem's own linear parameter reader
(:mod:`pbem.mail.reading.mime_parameters`), so no header of any part makes the
stdlib's quadratic parameter parser, or deep nesting, hold the daemon. A 1 MB
mail, honest or not, is read in time linear in its size (see
bench/bench_reading.py for the time per MB of each shape).

Mail is parsed with (a subclass of) ``email.policy.compat32``, which keeps
header fields as the raw text they arrived as, and only the fields an
:class:`IncomingMail` holds are decoded, each once: unfolded, raw 8-bit bytes
read as UTF-8 or Latin-1, RFC 2047 encoded words decoded by
:func:`decode_words`, addresses split by :func:`email.utils.getaddresses`
(plain ``Name <a@b>`` fields by one regular expression), dates read by
:func:`email.utils.parsedate_to_datetime`. ``policy.default`` builds a header
object for every field it touches, parses address fields with a slow
tokenizer and parses a field again on every access: a typical player's reply
took about 410 µs to read with it and takes about 90 µs now (header block
only: 365 µs and 63 µs), most of it the stdlib's MIME parser and the body.

The HTML converter reads HTML as :class:`html.parser.HTMLParser` does, with a
regular expression per tag rather than its dozens of steps (see :class:`_HtmlText`), rather
than with ``html2text``: html2text writes Markdown, which escapes characters that
orders use (``1\\.``, ``\\-``), wraps long lines and adds ``**`` and ``*``
marks; orders need the plain words, one line per visual line.
"""

from __future__ import annotations

import binascii
import functools
import hashlib
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import Message
from email.headerregistry import HeaderRegistry
from email.policy import Compat32, compat32
from email.utils import getaddresses, parsedate_to_datetime
from html import unescape

from pbem.addresses import is_plain_address
from pbem.core import PbemError
from pbem.mail.reading.bounded_mime import MAX_PARTS, read_message  # noqa: F401  (MAX_PARTS: the parts read, re-exported)
from pbem.mail.reading.charsets import decode_text
from pbem.mail.reading.identity import (  # noqa: F401  (MAX_FROM, header_block, stored_header: re-exported)
    MAX_FROM,
    StoredIdentity,
    header_block,
    identity_from,
    plain_mailbox,
    stored_header,
)


class MalformedMail(PbemError):
    """Raw bytes from which no mail can be read.

    ``sender`` is the lower-cased sender address when one could be read, so
    that the sender can be told; ``None`` when not even that was readable.
    ``identity``: the Message-ID and sender the store records for it, when its
    header fields could be read (see :func:`pbem.mail.reading.identity.identity_from`).
    """

    def __init__(self, message: str, sender: str | None) -> None:
        super().__init__(message)
        self.sender = sender
        self.identity: StoredIdentity | None = None


@dataclass(frozen=True)
class IncomingMail:
    """One received mail, decoded.

    Addresses are lower-cased bare addresses (``alice@example.org``); message
    ids keep their angle brackets (``<abc@example.org>``). ``return_path`` is
    ``None`` without a Return-Path header and ``""`` for the null path
    ``<>`` of bounces. ``body`` is the cleaned text (see :func:`clean_body`).
    The header fields ``auto_submitted`` to ``x_auto_response_suppress`` are
    lower-cased raw values for :mod:`pbem.mail.answering.policy`, ``None`` when absent.
    ``size`` is the size of the raw mail in bytes.
    """

    message_id: str
    sender: str
    sender_name: str
    return_path: str | None
    to: tuple[str, ...]
    cc: tuple[str, ...]
    delivered_to: tuple[str, ...]
    subject: str
    in_reply_to: str | None
    references: tuple[str, ...]
    date: datetime | None
    body: str
    content_type: str
    report_type: str | None
    auto_submitted: str | None
    precedence: str | None
    list_id: str | None
    x_autoreply: str | None
    x_autorespond: str | None
    x_auto_response_suppress: str | None
    size: int
    stored_identity: StoredIdentity = StoredIdentity("", "")
    """The Message-ID and sender the store records for the mail (see :func:`pbem.mail.reading.identity.identity_from`)."""
    auth_results: tuple[str, ...] = ()
    """The values of its Authentication-Results fields, from the top, unfolded (see :mod:`pbem.mail.reading.authresults`)."""
    holds_password: bool = True
    """Whether the stored mail may hold a password (see :mod:`pbem.mail.reading.redaction`): known after the one
    parse of handling (:func:`pbem.mail.handling.incoming.read_incoming`); True until then, as for a mail not read."""
    body_holds_password: bool = False
    """Whether a line of ``body`` opens a session (:func:`pbem.mail.reading.redaction.text_holds_password`)."""
    bounce: tuple[int, object] | None = None
    """For a mail to the bounce address of a mail pbem sent: that mail's id and the
    :class:`~pbem.mail.handling.bounces.BounceReport`; else None."""

    @property
    def has_own_id(self) -> bool:
        """True when ``message_id`` is the mail's own, not one pbem made up (it had none, or an unusable one)."""
        return not self.message_id.endswith(GENERATED_ID_SUFFIX)

    @property
    def recipients(self) -> tuple[str, ...]:
        """Every address the mail was sent to (To, Cc, Delivered-To, X-Original-To), without repeats."""
        return tuple(dict.fromkeys(self.to + self.cc + self.delivered_to))


_ENCRYPTED_TYPES = frozenset({"multipart/encrypted", "application/pkcs7-mime", "application/x-pkcs7-mime"})
MAX_ID = 250
"""Longest message id read (with its brackets); longer ones, and ids with anything but printable ASCII, are
dropped, so an id can always be written back into In-Reply-To and References."""
_MESSAGE_ID = re.compile(r"<[!-;=?-~]{1,%d}>" % (MAX_ID - 2))
GENERATED_ID_SUFFIX = "@generated.pbem.invalid>"
"""The end of the message id pbem makes up for a mail without a usable one (never written into a reply)."""
MAX_ADDRESS_FIELD = 8000
"""Longest To, Cc or Delivered-To field read; a longer one is read as holding no address."""


def parse_mail(raw: bytes, *, headers_only: bool = False, size: int | None = None) -> IncomingMail:
    """Decode a raw RFC 5322 mail into an :class:`IncomingMail`.

    Malformed MIME (missing or broken boundaries, unknown charsets, bad
    transfer encodings, broken headers) is read as well as it can be.
    A missing Message-ID is replaced by a stable one made from a hash of the
    raw bytes. With ``headers_only`` only the header block is read and
    ``body`` is empty: for mail too big to read, whose body could take many
    seconds to decode. Raises :class:`MalformedMail` only when nothing can be
    read: empty input or no header fields (``sender`` None), a From that
    is not exactly one address as the standard parser reads it (``sender``
    None: see :func:`_sender`), or an encrypted or unreadable body (with the
    sender). ``size`` is the size of the mail as received when ``raw`` holds
    only its beginning (the default is ``len(raw)``).
    """
    message = read_mail_tree(header_block(raw) if headers_only else raw)
    return incoming_from(message, raw, size=size, read_body=not headers_only)


def read_mail_tree(raw: bytes) -> Message:
    """The MIME tree of a raw mail as the handling reads it (bounded: see
    :func:`~pbem.mail.reading.bounded_mime.read_message`); raises :class:`MalformedMail` when it is empty or cannot
    be read at all."""
    if not raw.strip():
        raise MalformedMail("the mail is empty", None)
    try:
        return read_message(raw, _POLICY)
    except Exception as error:  # the parser is lenient; this guards the contract, not a known case
        raise MalformedMail(f"not a readable mail ({error})", None) from error


def incoming_from(message: Message, raw: bytes, *, size: int | None = None, read_body: bool = True,
                  body: str | None = None, **extra: object) -> IncomingMail:
    """The :class:`IncomingMail` of a mail's tree (:func:`read_mail_tree`) and its bytes ``raw`` (see
    :func:`parse_mail`); with ``read_body`` false its ``body`` is empty; ``body``: its cleaned text when the
    caller read it already (:func:`body_text`, :func:`clean_body`); ``extra``: the fields the one parse of
    handling adds. Raises :class:`MalformedMail` as :func:`parse_mail` says."""
    headers = _raw_headers(message)
    if not headers:
        raise MalformedMail("not a mail: it has no header fields", None)
    identity = identity_from(_compat32_field(headers, "message-id"), _compat32_field(headers, "from"), raw,
                             _compat32_field(headers, "subject"))
    try:
        sender_name, sender = _sender(headers)
    except MalformedMail as error:
        error.identity = identity
        raise
    content_type = message.get_content_type()
    if content_type in _ENCRYPTED_TYPES:
        error = MalformedMail("the mail is encrypted; please send plain text", sender)
        error.identity = identity
        raise error
    if not read_body:
        body = ""
    elif body is None:
        text = body_text(message, sender, identity)
        body = clean_body(text) if text else ""
    return IncomingMail(
        message_id=_message_id(headers, raw),
        sender=sender,
        sender_name=sender_name,
        return_path=_return_path(headers),
        to=tuple(address for _, address in _addresses(headers, "to")),
        cc=tuple(address for _, address in _addresses(headers, "cc")),
        delivered_to=tuple(
            address for name in ("delivered-to", "x-original-to") for _, address in _addresses(headers, name)
        ),
        subject=_header(headers, "subject") or "",
        in_reply_to=next(iter(_MESSAGE_ID.findall(_header(headers, "in-reply-to", words=False) or "")), None),
        references=tuple(_MESSAGE_ID.findall(_header(headers, "references", words=False) or "")),
        date=_date(headers),
        body=body,
        content_type=content_type,
        report_type=_lower(message.get_param("report-type")),
        auto_submitted=_lower(_header(headers, "auto-submitted")),
        precedence=_lower(_header(headers, "precedence")),
        list_id=_lower(_header(headers, "list-id")),
        x_autoreply=_lower(_header(headers, "x-autoreply")),
        x_autorespond=_lower(_header(headers, "x-autorespond")),
        x_auto_response_suppress=_lower(_header(headers, "x-auto-response-suppress")),
        size=len(raw) if size is None else size,
        stored_identity=identity,
        auth_results=_authentication_results(headers),
        **extra,  # type: ignore[arg-type]
    )


def body_text(message: Message, sender: str | None, identity: StoredIdentity | None = None) -> str | None:
    """The text of a mail's body (see :func:`_part_text`), or None when it has none; raises
    :class:`MalformedMail` (naming ``sender``, with the mail's ``identity``) when it cannot be read."""
    try:
        return _body_text(message)
    except Exception as error:  # the contract: malformed MIME never escapes as anything but MalformedMail
        malformed = MalformedMail(f"the body of the mail cannot be read ({error})", sender)
        malformed.identity = identity
        raise malformed from error


def authentication_results(message: Message) -> tuple[str, ...]:
    """The values of a mail's Authentication-Results fields (its tree: :func:`read_mail_tree`), from the top,
    unfolded, as :attr:`IncomingMail.auth_results` holds them (also of a mail that cannot be handled)."""
    return _authentication_results(_raw_headers(message))


def _authentication_results(headers: _Headers) -> tuple[str, ...]:
    return tuple(_unescape(_unfold(value)) for value in headers.get("authentication-results", ()))


def _compat32_field(headers: _Headers, name: str) -> object:
    """The first ``name`` field as plain compat32 gives it (what :func:`~pbem.mail.reading.identity.identity_of` reads)."""
    values = headers.get(name)
    return compat32.header_fetch_parse(name, values[0]) if values else ""


# Possessive quantifiers (*+) never give back what they took, so a subject of "re" and 100,000 blanks is read
# in linear time (with plain ones each attempt tried every split of the blanks: quadratic).
_REPLY_PREFIX = re.compile(
    r"\s*+(?:re|fwd?|aw|wg|sv|vs|antw|rif|tr|odp|res|enc)\s*+(?:\[\d++\]|\(\d++\))?+\s*+:\s*+", re.I
)
_TAG = re.compile(r"\[([a-z0-9][a-z0-9-]*)\]", re.I)


def subject_tag(subject: str) -> str | None:
    """Return the game tag of a subject, lower-cased: ``"Re: AW: [TC-1] Turn 3"`` gives ``"tc-1"``.

    Reply and forward prefixes (``Re:``, ``Fwd:``, ``AW:``, ``Re[2]:`` ...)
    are skipped first, so their counters are not taken for tags. Returns
    ``None`` when the subject holds no ``[name]`` of letters, digits and '-'.
    """
    start = 0
    while match := _REPLY_PREFIX.match(subject, start):  # from a position: no copy of the rest per prefix
        start = match.end()
    found = _TAG.search(subject, start)
    return found.group(1).lower() if found else None


# --- headers -------------------------------------------------------------------------------


class _Compat32Unfolded(Compat32):
    """``compat32`` whose header values are read unfolded and with 8-bit bytes decoded, always as strings.

    The fields it gives are the MIME ones the body is read by (Content-Type,
    Content-Transfer-Encoding, Content-Disposition); plain compat32 gives a
    folded value with its line breaks, or a :class:`email.header.Header`
    when it holds 8-bit bytes.
    """

    def header_fetch_parse(self, name: str, value: str) -> str:
        """The value of field ``name`` as the body walk reads it: on one line, 8-bit bytes decoded."""
        return _unescape(_unfold(value))


_POLICY = _Compat32Unfolded()

_Headers = dict[str, list[str]]
"""A mail's header fields: the raw values of each field, in order, by lower-cased name."""


def _raw_headers(message: Message) -> _Headers:
    """The header fields of a compat32 message as they arrived (folded, encoded, with 8-bit bytes escaped)."""
    headers: _Headers = {}
    for name, value in message.raw_items():
        headers.setdefault(name.lower(), []).append(value)
    return headers


def _header(headers: _Headers, name: str, *, words: bool = True) -> str | None:
    """The decoded, stripped text of the first ``name`` field, or None if absent.

    With ``words`` false, encoded words are left as they are: message ids
    hold no words, and an id must match the raw one stored.
    """
    values = headers.get(name)
    if values is None:
        return None
    text = _unescape(_unfold(values[0]))
    return (decode_words(text) if words else text).strip()


def _unfold(value: str) -> str:
    """``value`` on one line: the line breaks of folding are removed, the whitespace after them kept."""
    return value.replace("\r", "").replace("\n", "")


def _lower(value: object) -> str | None:
    return value.strip().lower() if isinstance(value, str) else None


_ENCODED_WORD = re.compile(r"=\?([^?\s]+)\?([bBqQ])\?([^?]*)\?=")


def decode_words(text: str) -> str:
    """``text`` with its RFC 2047 encoded words (``=?utf-8?q?Z=C3=BCge?=``) decoded; never raises.

    Whitespace between two encoded words is dropped, as RFC 2047 says. The
    bytes of a word are read by :func:`decode_text`, like a body in that
    charset; a word whose base64 cannot be decoded is kept as it is.
    """
    if "=?" not in text:
        return text
    pieces: list[str] = []
    end = 0
    after_word = False
    for word in _ENCODED_WORD.finditer(text):
        gap = text[end : word.start()]
        if not (after_word and gap.isspace()):
            pieces.append(gap)
        decoded = _decode_word(*word.groups())
        pieces.append(word.group(0) if decoded is None else decoded)
        after_word = decoded is not None
        end = word.end()
    pieces.append(text[end:])
    return "".join(pieces)


def _decode_word(charset: str, encoding: str, encoded: str) -> str | None:
    """The text of one encoded word, or None when its base64 cannot be decoded."""
    data = encoded.encode("utf-8", "surrogateescape")
    if encoding in "qQ":
        data = binascii.a2b_qp(data, header=True)
    else:
        try:
            data = binascii.a2b_base64(data + b"==")  # lenient: missing padding is added, extra is ignored
        except binascii.Error:
            return None
    return decode_text(data, charset.partition("*")[0])  # "utf-8*en": RFC 2231 language suffix


_getaddresses: Callable[[list[str]], list[tuple[str, str]]] = (
    functools.partial(getaddresses, strict=False)
    if "strict" in inspect.signature(getaddresses).parameters
    else getaddresses
)
"""``getaddresses`` as lenient as Python 3.11 reads it.

The strict mode that is the default since Python 3.13 (and in security
releases of 3.11 and 3.12) reads a whole field as no address at all when it
has a trailing comma (``Bob <b@example.org>,``) or a comma in a comment.
"""


def _simple_mailboxes(values: list[str]) -> list[tuple[str, str]] | None:
    """What :func:`getaddresses` reads from ``values`` when each is one plain mailbox
    (:func:`~pbem.mail.reading.identity.plain_mailbox`), else None."""
    pairs = []
    for value in values:
        mailbox = plain_mailbox(value)
        if mailbox is None:
            return None
        pairs.append(mailbox)
    return pairs


def _addresses(headers: _Headers, name: str) -> list[tuple[str, str]]:
    """``(display name, lower-cased address)`` of every valid address in all ``name`` fields.

    Display names are decoded like other header text. Addresses are ASCII,
    as a reply can be sent to them: an internationalised domain written in
    8-bit is turned into its ``xn--`` form, and an address whose local part
    is not ASCII is left out.
    """
    values = headers.get(name)
    if not values:
        return []
    unfolded = [_unfold(value) for value in values]
    if sum(map(len, unfolded)) > MAX_ADDRESS_FIELD:
        return []
    pairs = _simple_mailboxes(unfolded)
    if pairs is None:
        try:
            pairs = _getaddresses(unfolded)
        except (RecursionError, ValueError, IndexError):  # the stdlib recurses on some odd fields ("::::...")
            return []
    readable = ((display, _ascii_address(_unescape(address))) for display, address in pairs)
    return [(decode_words(_unescape(display)).strip(), address.lower()) for display, address in readable
            if address is not None and is_plain_address(address)]


_STANDARD_HEADERS = HeaderRegistry()
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _sender(headers: _Headers) -> tuple[str, str]:
    """The display name and lower-cased address of the one sender of the mail.

    The From field (or Sender, without From) is read by the standard parser
    (:mod:`email.headerregistry`, as a mail client reads it) and by pbem's
    own reading: unless both find exactly the same single address the mail is
    refused (:class:`MalformedMail` with no sender, so nothing is answered),
    as it is when the field is longer than :data:`MAX_FROM` or holds several
    From fields. Control characters of the display name become spaces.
    """
    name = "from" if any(value.strip() for value in headers.get("from", [])) else "sender"
    values = headers.get(name) or []
    if len(values) != 1:
        raise MalformedMail(f"the mail has {len(values)} From fields; it needs exactly one sender", None)
    text = _unescape(_unfold(values[0]))
    if len(text) > MAX_FROM:
        raise MalformedMail(f"the From field is {len(text):,} characters long, over {MAX_FROM}", None)
    own = _addresses(headers, name)
    if len(own) == 1 and _simple_mailboxes([text]) is not None:
        # One plain mailbox (no comments, groups, escapes or specials outside quotes): every parser
        # reads the address between the brackets, or the bare address, so no second reading is needed.
        return _clean_display(own[0][0]), own[0][1]
    try:
        standard = [_ascii_address(address.addr_spec) for address in _STANDARD_HEADERS(name, text).addresses]
    except Exception as error:  # parts with line breaks (ValueError), and the parser's own failures on odd input
        raise MalformedMail(f"the From field cannot be read ({error})", None) from error
    if len(standard) != 1 or len(own) != 1 or (standard[0] or "").lower() != own[0][1]:
        raise MalformedMail("the From field does not hold exactly one plain sender address", None)
    return _clean_display(own[0][0]), own[0][1]


def _clean_display(display: str) -> str:
    """A display name on one line: control characters (a decoded line break) become spaces."""
    return " ".join(_CONTROL.sub(" ", display).split())


def _ascii_address(address: str) -> str | None:
    """``address`` with an IDNA-encoded domain, or None when its local part is not ASCII or the domain not valid."""
    local, at, domain = address.rpartition("@")
    if not local.isascii():
        return None
    if not domain.isascii():
        try:
            domain = domain.encode("idna").decode("ascii")
        except UnicodeError:
            return None
    return f"{local}{at}{domain}"


def _unescape(text: str) -> str:
    """Decode the raw 8-bit bytes the parser left as surrogate escapes (unencoded non-ASCII headers)."""
    if text.isascii():
        return text
    return decode_text(text.encode("utf-8", "surrogateescape"), None)


def _return_path(headers: _Headers) -> str | None:
    value = _header(headers, "return-path")
    if value is None:
        return None
    return value.strip("<> \t").lower()


def _message_id(headers: _Headers, raw: bytes) -> str:
    value = _header(headers, "message-id", words=False) or ""
    found = _MESSAGE_ID.fullmatch(value.strip())
    if found:
        return found.group(0)
    bare = f"<{value.strip().strip('<>')}>"
    if _MESSAGE_ID.fullmatch(bare):
        return bare
    return f"<{hashlib.sha256(raw).hexdigest()[:32]}{GENERATED_ID_SUFFIX}"


def _date(headers: _Headers) -> datetime | None:
    value = _header(headers, "date")
    if not value:
        return None
    try:
        date = parsedate_to_datetime(value)
    except (ValueError, OverflowError):  # not a date, or a date datetime cannot hold
        return None
    return date if date.tzinfo is not None else date.replace(tzinfo=UTC)


# --- body ----------------------------------------------------------------------------------


def _body_text(message: Message) -> str | None:
    """The text of a mail's body (see :func:`_part_text`), or None when it has none."""
    text = _part_text(message)
    return None if text is None else text.read()


@dataclass(frozen=True)
class _PartText:
    """The text of a MIME part, decoded only when read: of a multipart/alternative only the one part chosen
    is decoded (an HTML alternative beside the text/plain one is never converted)."""

    read: Callable[[], str]
    is_plain: bool
    """True when the text came from text/plain parts only."""


def _part_text(part: Message) -> _PartText | None:
    """The text of a MIME part, or None when it has none."""
    content_type = part.get_content_type()
    if content_type.startswith("message/") or _is_attachment(part):
        return None
    if part.is_multipart():
        texts = [text for text in map(_part_text, _subparts(part)) if text is not None]
        if not texts:
            return None
        if content_type == "multipart/alternative":
            return next((text for text in texts if text.is_plain), texts[0])
        return _PartText(lambda: "\n".join(text.read() for text in texts), all(text.is_plain for text in texts))
    if content_type == "text/html":
        return _PartText(lambda: html_to_text(_decoded_payload(part)), False)
    if content_type == "text/plain" or content_type.startswith("multipart/"):
        # a multipart whose boundary is missing arrives as one text payload
        return _PartText(lambda: _decoded_payload(part), True)
    return None


def _subparts(part: Message) -> list[Message]:
    """The parts of a multipart (none when its boundary was missing): at most
    :data:`~pbem.mail.reading.bounded_mime.MAX_PARTS`, the ones read."""
    payload = part.get_payload()
    if not isinstance(payload, list):
        return []
    return [subpart for subpart in payload if isinstance(subpart, Message)]


def _is_attachment(part: Message) -> bool:
    disposition = part.get_content_disposition()
    if disposition == "attachment":
        return True
    return disposition is None and not part.is_multipart() and part.get_filename() is not None


def _decoded_payload(part: Message) -> str:
    payload = part.get_payload(decode=True)
    return decode_text(payload if isinstance(payload, bytes) else b"", part.get_content_charset())


# --- HTML to text --------------------------------------------------------------------------

_BLOCK_TAGS = frozenset(
    "address article aside blockquote caption center dd div dl dt fieldset figure footer form "
    "h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section table tbody tfoot thead tr ul".split()
)
_SKIPPED_TAGS = frozenset({"head", "script", "style", "template", "title"})
_HTML_SPACE = re.compile(r"[ \t\n\r\f]+")


_READ_TAGS = _BLOCK_TAGS | _SKIPPED_TAGS | {"body", "br", "td", "th"}
"""The tags that change the text read (every other tag changes nothing)."""


def _names(names: frozenset[str]) -> str:
    """A regular expression for a tag name of ``names`` in any letter case, branching on the first letter."""
    first_letters = sorted({name[0] for name in names})
    return "|".join(f"{first}(?:{'|'.join(sorted(name[1:] for name in names if name[0] == first))})"
                    for first in first_letters)


_NAME_END = r"""(?![^\t\n\r\f />\x00"'])"""
_START_TAG_REST = r"""(?:[^<>"']++|"[^"]*+"|'[^']*+')*+>"""
_READ_NAME = rf"(?i:{_names(_READ_TAGS)}){_NAME_END}"
_OTHER_TAG = rf"<(?:/(?!{_READ_NAME})[a-zA-Z][^>]*+>|(?!{_READ_NAME})[a-zA-Z]{_START_TAG_REST})"
"""A tag of HTML as :func:`_tame_html` leaves it (each ``<`` opens a whole tag) that is none of
:data:`_READ_TAGS`: an end tag (``</b ...>``) ends at the first ``>``, as :mod:`html.parser` reads it, a start
tag at the first ``>`` outside quotes."""
_BLOCK_NAME = rf"(?ai:{_names(_BLOCK_TAGS - {'blockquote', 'pre'})}){_NAME_END}"
_LINE_TAG = rf"<(?:/{_BLOCK_NAME}[^>]*+>|(?:{_BLOCK_NAME}|(?ai:br){_NAME_END}){_START_TAG_REST})"
"""A tag that only ends a line: ``<br>``, or a block's (not ``<blockquote>`` or ``<pre>``), its name in any
ASCII letter case (the standard parser's ``lower()`` takes ``ſ`` for no ``s``)."""
_HTML_TOKEN = re.compile(
    rf"(?P<run>(?:[^<]++|{_OTHER_TAG})++)"
    rf"|(?P<lines>{_LINE_TAG}(?:(?:{_OTHER_TAG})*+{_LINE_TAG})++)"
    rf"|<(?:/(?P<end>{_READ_NAME})[^>]*+>|(?P<start>{_READ_NAME}){_START_TAG_REST})")
"""A run of text and tags that change nothing, or a run of two or more tags that only end lines (with tags
that change nothing between them), each read by one step of Python however many tags it holds; or an end or
start tag of :data:`_READ_TAGS`, its name in any letter case."""
_BREAKS = re.compile(rf"<(?:/[^>]*+>|(?:([bB][rR]){_NAME_END}|[a-zA-Z]){_START_TAG_REST})")
"""Each tag of a run of tags, and for ``<br>`` its name: the line breaks of a run are the names found."""
_TAG_IN_RUN = re.compile(rf"<(?:/[^>]*+>|[a-zA-Z]{_START_TAG_REST})")
"""A tag in a run of :data:`_HTML_TOKEN` (where every tag is one that changes nothing)."""
_CDATA_ENDS = {name: re.compile(rf"</\s*+{name}\s*+>", re.I) for name in ("script", "style")}
"""The end of a script or style, whose content is no HTML (tags in it are text, as :mod:`html.parser` reads it)."""
_TAG_GAP = "\x00"
"""Stands for a tag that changes nothing in a run of text, until the text is read: character references and
blanks on either side of a tag are read apart, as :mod:`html.parser` reads them."""


def _closes_itself(tag: str) -> bool:
    """True when a start tag that ends in ``/>`` is an element without content (``<br/>``, ``<p a="b" />``),
    not one whose last attribute value, without quotes, ends in ``/`` (``<a href=x/>``)."""
    value = tag[:-2].rsplit(None, 1)[-1].rpartition("=")
    return not value[1] or "'" in value[2] or '"' in value[2]


class _HtmlText:
    """Collects the visible text of an HTML document, one output line per visual line.

    It reads HTML as :class:`html.parser.HTMLParser` (with ``convert_charrefs``) reads it once
    :func:`_tame_html` has removed comments and declarations and escaped each stray ``<``, but finds the tags
    with regular expressions and reads no attributes: a few steps of Python per tag of :data:`_READ_TAGS`,
    none for other tags, where the standard parser took some dozens per tag (1 MB of ``<br>`` took 2.4 s to
    read with it, of ``<b><i><u>`` 1.6 s).
    """

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._line: list[str] = []
        self._line_depth = 0
        self._quote_depth = 0
        self._skipping = 0
        self._pre = 0

    def feed(self, html: str) -> None:
        """Read the whole of ``html`` (tamed by :func:`_tame_html`)."""
        position = 0
        search = _HTML_TOKEN.search
        while token := search(html, position):
            if token.start() > position:  # not expected: every ``<`` of tamed HTML opens a whole tag
                self.handle_data(html[position : token.start()])
            position = token.end()
            if (run := token["run"]) is not None:
                self.handle_run(run)
            elif (tags := token["lines"]) is not None:
                self.handle_line_tags(tags)
            elif (name := token["end"]) is not None:
                self.handle_endtag(name.lower())
            else:
                name = token["start"].lower()
                if html.endswith("/>", 0, position) and _closes_itself(token[0]):
                    self.handle_starttag(name)  # <br/>, <script src="..."/>: an element without content
                    self.handle_endtag(name)
                    continue
                self.handle_starttag(name)
                if (cdata_end := _CDATA_ENDS.get(name)) is not None:  # the content is skipped: not read
                    end = cdata_end.search(html, position)
                    if end is None:
                        return
                    self.handle_endtag(name)
                    position = end.end()
        if position < len(html):
            self.handle_data(html[position:])

    def handle_run(self, run: str) -> None:
        """Text and tags that change nothing (see :data:`_HTML_TOKEN`)."""
        if self._skipping:
            return
        if "<" not in run:
            self.handle_data(run)
        elif _TAG_GAP in run:  # the text holds the character that stands for a tag: read it piece by piece
            for piece in _TAG_IN_RUN.split(run):
                if piece:
                    self.handle_data(piece)
        elif (text := _TAG_IN_RUN.sub(_TAG_GAP, run)).strip(_TAG_GAP):
            self.handle_data(text, gaps=True)

    def handle_line_tags(self, tags: str) -> None:
        """Tags that only end lines (see :data:`_HTML_TOKEN`), with no text between them: the first ends the
        line (a ``<br>`` even an empty one), every later ``<br>`` makes an empty line."""
        names = _BREAKS.findall(tags)
        breaks = len(names) - names.count("")
        first_breaks = _BREAKS.match(tags)[1] is not None
        self.end_line(force=first_breaks)
        self.lines.extend(["> " * self._quote_depth] * (breaks - first_breaks))

    def handle_starttag(self, tag: str) -> None:
        """A start tag, its name in lower case."""
        if tag == "body":
            self._skipping = 0  # a <head> that was never closed ends here
        elif tag in _SKIPPED_TAGS:
            self._skipping += 1
        elif tag == "br":
            self.end_line(force=True)
        elif tag in ("td", "th"):
            self._add(" ")
        if tag in _BLOCK_TAGS:
            self.end_line()
        if tag == "blockquote":
            self._quote_depth += 1
        elif tag == "pre":
            self._pre += 1

    def handle_endtag(self, tag: str) -> None:
        """An end tag, its name in lower case."""
        if tag in _SKIPPED_TAGS:
            self._skipping = max(0, self._skipping - 1)
        if tag in _BLOCK_TAGS:
            self.end_line()
        if tag == "blockquote":
            self._quote_depth = max(0, self._quote_depth - 1)
        elif tag == "pre":
            self._pre = max(0, self._pre - 1)

    def handle_data(self, data: str, *, gaps: bool = False) -> None:
        """The text between two tags, as it is written (with its character references); with ``gaps``, each
        :data:`_TAG_GAP` in it stands for a tag that changes nothing."""
        if self._skipping:
            return
        if "&" in data:
            data = unescape(data)
        if not self._pre:
            data = _HTML_SPACE.sub(" ", data)
            self._add(data.replace(_TAG_GAP, "") if gaps else data)
            return
        first, *rest = data.replace("\r\n", "\n").split("\n")
        self._add(first.replace(_TAG_GAP, "") if gaps else first)
        for piece in rest:
            self.end_line(force=True)
            self._add(piece.replace(_TAG_GAP, "") if gaps else piece)

    def _add(self, text: str) -> None:
        if not self._line:
            self._line_depth = self._quote_depth
        self._line.append(text)

    def end_line(self, *, force: bool = False) -> None:
        """Finish the current line; an empty one only counts when ``force`` (a ``<br>``)."""
        text = "".join(self._line)
        text = text if self._pre else text.strip(" ")
        if text or force:
            depth = self._line_depth if self._line else self._quote_depth
            self.lines.append("> " * depth + text)
        self._line = []


_DECLARATION = re.compile(r"<[!?][^<>]*+>")
_NOT_A_TAG = re.compile(r"""<(?!/?[a-zA-Z](?:[^<>"']++|"[^"]*+"|'[^']*+')*+>)""")
"""A ``<`` that does not open a whole tag (attribute values in quotes may hold ``<`` and ``>``). A test from
one ``<`` stops at the next ``<`` outside quotes, and each quoted value is read by at most two such tests, so
testing every ``<`` of a text takes time linear in its length."""


def _tame_html(html: str) -> str:
    """``html`` without comments and declarations, and with each ``<`` that does not open a whole tag written
    as ``&lt;``, in linear time: what is left never makes :class:`html.parser.HTMLParser` take quadratic time
    (it scans the rest of the text again at each unclosed ``<a`` or ``<!--``: 60 KB of ``<a `` took 20 s)."""
    pieces: list[str] = []
    start = 0
    while (opening := html.find("<!--", start)) >= 0:
        pieces.append(html[start:opening])
        closing = html.find("-->", opening + 4)
        start = len(html) if closing < 0 else closing + 3
    pieces.append(html[start:])
    return _NOT_A_TAG.sub("&lt;", _DECLARATION.sub("", "".join(pieces)))


def html_to_text(html: str) -> str:
    """Return the visible text of an HTML mail body, one line per visual line.

    ``<br>`` and block elements (``<p>``, ``<div>``, ``<li>``, ``<tr>``, ...)
    break lines, table cells are separated by a space, ``<style>``,
    ``<script>`` and ``<head>`` are dropped, entities are unescaped, and text
    inside ``<blockquote>`` is prefixed with ``"> "`` so that it is removed
    as quoted text later. Never raises.
    """
    converter = _HtmlText()
    converter.feed(_tame_html(html))
    converter.end_line()
    return "\n".join(converter.lines)


# --- quotes and signatures -----------------------------------------------------------------

_ODD_SPACES = {"\u00a0": " ", "\u2007": " ", "\u202f": " ", "\u200b": "", "\ufeff": ""}
"""Spaces that are no plain space, and the text each is read as (``str.translate`` with them took 100 ns a
character: each ``str.replace`` is a fast search)."""
MAX_ATTRIBUTION = 400
"""Longest line read as an "On ... wrote:" attribution (a longer one never is one)."""
_ATTRIBUTION = re.compile(
    r"(?:on\s.*\swrote|am\s(?=.*\sschrieb).*|le\s.*\sa\s+écrit\s?|el\s.*\sescribió|op\s(?=.*\sschreef).*):", re.I
)
"""An attribution line. Each form has at most one unbounded ``.*`` that has to give back characters, so a
match costs time linear in the line (an earlier form with two, for "am ... schrieb ...:", was quadratic)."""
_ATTRIBUTION_START = re.compile(r"(?:on|am|le|el|op)\s", re.I)
_ORIGINAL_MESSAGE = re.compile(
    r"^-{2,}\s*(?:original message|ursprüngliche nachricht|message d'origine|mensaje original"
    r"|oorspronkelijk bericht)\s*-{2,}$",
    re.I,
)
_OUTLOOK_FROM = re.compile(r"^(?:from|von|de|van)\s?:\s", re.I)
_OUTLOOK_SENT = re.compile(r"^(?:sent|gesendet|envoyé|enviado|verzonden)\s?:\s", re.I)
_FOOTER = re.compile(r"^(?:sent from my .*|get outlook for .*|von meinem .* gesendet)$", re.I)
_RULE = re.compile(r"^[_\-=]{3,}$")


_LINE_END_BLANK = re.compile(r"\n(?<=[^\S\n]\n)")
"""A line break after a blank (a search that starts with a literal runs fast in C)."""
_MAYBE_SPECIAL = re.compile(r"\n(?=[^\S\n]*+[-fvdoale])", re.I)
"""The line break before a line whose first character may start a line :data:`_SPECIAL_LINE` finds: a
search for a literal runs fast in C, where one for ``^`` tries every character."""
_SPECIAL_LINE = re.compile(
    r"[^\S\n]*+(?:(?P<rule>--)|(?P<outlook>(?:from|von|de|van)[^\S\n]?:)|(?P<attribution>(?:on|am|le|el|op)[^\S\n]))",
    re.I)
"""The start of a line that may be a signature separator or Outlook's "Original Message" line (``rule``),
an Outlook header (``outlook``) or an attribution (``attribution``): more lines than are, each is then read
by its own tests. Every other line is only looked at by regular expressions over the whole text, so a mail
of many lines costs little Python work per line."""
_QUOTED_LINE = re.compile(r"^[^\S\n]*+>[^\n]*+", re.M)
_LAST_UNQUOTED = re.compile(r"[^\s>][^\S\n]*+(?:\n|\Z)")
"""In a text written backwards: the first character of the last line that is neither blank nor quoted."""
_NOT_BLANK = re.compile(r"[^\n]")


def clean_body(text: str) -> str:
    """Return the part of a mail body its sender wrote.

    Normalises line endings to ``\\n`` and odd spaces (no-break, zero-width)
    to plain spaces; cuts at the signature separator (``-- ``), at Outlook's
    ``-----Original Message-----`` or ``From: ... Sent: ...`` block, and at an
    ``On ... wrote:`` line whose rest is all quoted; blanks the remaining
    ``>`` quoted lines and attribution lines; drops trailing mobile footers
    ("Sent from my iPhone") and blank lines. Blanking (not deleting) keeps
    the line numbers of the kept lines as they are in the mail. Time linear
    in the text; Python work per line only for the lines whose start may be
    a cut or an attribution.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.isascii():
        for odd, plain in _ODD_SPACES.items():
            text = text.replace(odd, plain)
    if text[-1:] not in ("", "\n") and text[-1].isspace() or _LINE_END_BLANK.search(text):
        text = "\n".join([line.rstrip() for line in text.split("\n")])
    lines = text.split("\n")
    special = _special_lines(text)
    cut = _cut_point(text, lines, special)
    if cut < len(lines):
        lines = lines[:cut]
        text = "\n".join(lines)
    kept = text.split("\n")
    if ">" in text:  # without a quoted line there is nothing to blank
        kept = _QUOTED_LINE.sub("", text).split("\n")
        for index, start, kind in special:
            if index >= cut:
                break
            if kind == "attribution" and (span := _quoted_attribution_span(text, lines, index, start)):
                kept[index : index + span] = [""] * span
    body = "\n".join(kept).rstrip("\n")
    while body:  # trailing footers and rules (blank lines are empty: every line was right-stripped)
        last = body.rfind("\n") + 1
        line = body[last:].strip()
        if not (_FOOTER.match(line) or _RULE.match(line)):
            break
        body = body[:last].rstrip("\n")
    return body


def _special_lines(text: str) -> list[tuple[int, int, str]]:
    """The index, start offset and kind of each line of ``text`` that :data:`_SPECIAL_LINE` finds, in order."""
    found: list[tuple[int, int, str]] = []
    index = counted = 0
    for maybe in _MAYBE_SPECIAL.finditer("\n" + text):  # the line break found is the one before the line
        start = maybe.start()  # in ``text``: the start of the line
        if match := _SPECIAL_LINE.match(text, start):
            index += text.count("\n", counted, start)
            counted = start
            found.append((index, start, str(match.lastgroup)))
    return found


def _cut_point(text: str, lines: list[str], special: list[tuple[int, int, str]]) -> int:
    """Index of the first line of what follows the sender's own text (len(lines) if nothing); ``lines``
    are the right-stripped lines of ``text``, ``special`` its :func:`_special_lines`."""
    last_unquoted: int | None = None  # the index of the last line neither blank nor quoted (-1: none)
    for index, _, kind in special:
        line = lines[index]
        if kind == "rule":
            if line == "--" or _ORIGINAL_MESSAGE.match(line.strip()):  # lines are right-stripped: "-- " is "--"
                return index
        elif kind == "outlook":
            if _OUTLOOK_FROM.match(line.strip()) and _is_sent_line_within(lines, index + 1):
                return index
        else:
            if last_unquoted is None:
                last_unquoted = _last_unquoted_line(text)
            # an attribution (of at most 2 lines) after which every line is quoted or blank
            if index + 2 > last_unquoted and index + _attribution_span(lines, index) > last_unquoted:
                return index
    return len(lines)


def _last_unquoted_line(text: str) -> int:
    """The index of the last line of ``text`` that is neither blank nor quoted, -1 if none (one search of
    the text written backwards)."""
    found = _LAST_UNQUOTED.search(text[::-1])
    return -1 if found is None else text.count("\n", 0, len(text) - found.start())


def _quoted_attribution_span(text: str, lines: list[str], index: int, start: int) -> int:
    """The :func:`_attribution_span` of line ``index`` (starting at offset ``start`` of ``text``) when the
    first non-blank line after the attribution is quoted, else 0 (the attribution is not read unless one of
    the first non-blank lines from the next two lines on is quoted)."""
    after_one = _line_start(text, start, 1)
    if not (_is_quoted_from(text, after_one) or _is_quoted_from(text, _line_start(text, after_one, 1))):
        return 0
    span = _attribution_span(lines, index)
    return span if span and _is_quoted_from(text, _line_start(text, start, span)) else 0


def _line_start(text: str, start: int, lines: int) -> int:
    """The offset of the line ``lines`` lines after the one starting at ``start`` (``len(text)`` past the end)."""
    for _ in range(lines):
        end = text.find("\n", start)
        if end < 0:
            return len(text)
        start = end + 1
    return start


def _is_quoted_from(text: str, start: int) -> bool:
    """True when the first non-blank line of ``text`` from offset ``start`` on is quoted (``>``)."""
    found = _NOT_BLANK.search(text, start)
    return found is not None and _QUOTED_LINE.match(text, found.start()) is not None


def _is_sent_line_within(lines: list[str], start: int) -> bool:
    """True when one of the three lines from ``start`` is Outlook's "Sent:" header line."""
    return any(_OUTLOOK_SENT.match(line.strip()) for line in lines[start : start + 3])


def _attribution_span(lines: list[str], index: int) -> int:
    """1 or 2 when an "On ... wrote:" line (possibly wrapped once) starts at ``index``, else 0."""
    line = lines[index].strip()
    if len(line) > MAX_ATTRIBUTION or not _ATTRIBUTION_START.match(line):
        return 0
    if _ATTRIBUTION.fullmatch(line):
        return 1
    if index + 1 >= len(lines):
        return 0
    joined = f"{line} {lines[index + 1].strip()}"
    return 2 if len(joined) <= MAX_ATTRIBUTION and _ATTRIBUTION.fullmatch(joined) else 0
