"""Raw mail parsed as the standard library's MIME parser parses it, with bounded work, whatever it holds.

:func:`read_message` reads each part's header fields as ``email``'s feed
parser reads them (:func:`_read_header_fields`: its rules, line by line,
without its buffering and generator machinery, which took more than half the
time of reading a player's mail), into parts (:class:`BoundedPart`) that store
each field, as the parser would hand it over, capped and canonical; where a
part's body starts, and where the parts of a multipart start and end, it finds
with regular expressions over the whole text, as ``email``'s feed parser would
(which takes some Python steps per line and some dozens per part: 1 MB of
20,000 small parts took 1.4 s, 1 MB of line breaks 0.4 s; now a body costs no
step per line):

- a field's value is cut to :data:`MAX_FIELD` characters; a part keeps at
  most :data:`MAX_FIELDS` fields and :data:`MAX_HEADER_BLOCK` characters of
  them, and no field whose name is longer than :data:`MAX_NAME`;
- the first Content-Type and Content-Disposition of a part are read by
  :func:`pbem.mail.reading.mime_parameters.read_mime_value` (one linear pass) and
  stored as the short canonical field it gives; later ones are dropped. So
  the standard library's parameter parser, which reads every multipart's
  boundary, and which pbem calls for the charset, report type and file
  names, only ever reads a few short, well-formed parameters;
- a mail holds at most :data:`MAX_CONTAINERS` multipart or message parts: a
  further one is stored as ``application/octet-stream``, which is neither
  split into parts nor read. This bounds the nesting depth, and with it the
  work per character (each multipart looks for its boundary in its own body)
  and the depth of recursion;
- at most :data:`MAX_PARTS` parts of each multipart are read (and header
  blocks of each message/delivery-status): the part holding more gets the
  defect :class:`PartsNotRead`.
"""

from __future__ import annotations

import functools
import re
from email import errors
from email.message import Message
from email.policy import Policy, compat32

from pbem.mail.reading.mime_parameters import canonical_field, read_mime_value

DEFAULT_MAX_SIZE = 1024 * 1024
"""Default size limit of an incoming mail: 1 MB (1,048,576 bytes of raw mail).

Orders are a few lines; anything this big is an attachment we ignore anyway."""
OVERSIZED_PREFIX = 64 * 1024
"""Bytes kept of a mail over the size limit: its header fields and the start of its body (it is not read)."""
MAX_FIELD = 16_000
"""Longest header field value kept, in characters as received (folded): the rest of a longer one is cut."""
MAX_FIELDS = 1_000
"""Most header fields kept of one part (or of the mail itself); later ones are dropped."""
MAX_HEADER_BLOCK = 64_000
"""Most characters of header fields (names and values) kept of one part; the fields after them are dropped."""
MAX_NAME = 200
"""Longest header field name kept; a field with a longer name is dropped."""
MAX_CONTAINERS = 32
"""Most multipart and message parts in one mail (the mail itself included); a further one is not read."""
OPAQUE_TYPE = "application/octet-stream"
"""The type a container over :data:`MAX_CONTAINERS` is given: one pbem neither splits nor reads."""

_TYPE_PARAMETERS = frozenset({"charset", "boundary", "report-type", "name"})
_DISPOSITION_PARAMETERS = frozenset({"filename"})
_MIME_FIELDS = {"content-type": _TYPE_PARAMETERS, "content-disposition": _DISPOSITION_PARAMETERS}


class _Parts:
    """Makes the parts of one mail (:func:`_read_part`); they share its count of containers left."""

    def __init__(self) -> None:
        self.containers_left = MAX_CONTAINERS

    def __call__(self, policy: Policy = compat32) -> BoundedPart:
        return BoundedPart(policy, parts=self)

    def admit_container(self) -> bool:
        """True (and one container fewer left) while the mail holds fewer than :data:`MAX_CONTAINERS`."""
        if self.containers_left <= 0:
            return False
        self.containers_left -= 1
        return True


class BoundedPart(Message):
    """A mail or MIME part whose header fields are stored capped and canonical (see the module)."""

    def __init__(self, policy: Policy = compat32, *, parts: _Parts | None = None) -> None:
        super().__init__(policy)
        self._parts = parts if parts is not None else _Parts()
        self._header_characters = 0
        self._mime_fields: set[str] = set()  # the MIME fields stored (a set: `name in self` scans every field)

    def set_raw(self, name: str, value: str) -> None:
        """Store a header field as the parser read it, capped, canonical, or not at all (see the module)."""
        if (len(self._headers) >= MAX_FIELDS or self._header_characters >= MAX_HEADER_BLOCK
                or len(name) > MAX_NAME):
            return
        value = value[:MAX_FIELD]
        key = name.lower()
        if key in _MIME_FIELDS:
            if key in self._mime_fields:  # the standard library reads the first one only
                return
            self._mime_fields.add(key)
            field = _canonical(key, value)
            is_container = field.startswith(("multipart/", "message/"))
            value = OPAQUE_TYPE if is_container and not self._parts.admit_container() else field
        self._header_characters += len(name) + len(value)
        super().set_raw(name, value)

    def get_param(self, param: str, failobj: object = None, header: str = "content-type",
                  unquote: bool = True) -> object:
        """What ``Message.get_param`` gives, where the parameters of a Content-Type or Content-Disposition
        field are read once per text of the field (:data:`_parameters_read`), not again on each call (a
        player's mail asks three times: the charset, a file name and the report type)."""
        if header.lower() not in _MIME_FIELDS:
            return super().get_param(param, failobj, header, unquote)
        value = self.get(header)
        if value is None:  # no such field
            return failobj
        key = (str(value), unquote)  # the standard library reads the parameters from str(value) alone
        parameters = _parameters_read.get(key)
        if parameters is None:
            parameters = tuple(super().get_params([], header, unquote))
            if len(_parameters_read) >= MAX_PARAMETERS_READ:
                _parameters_read.clear()
            _parameters_read[key] = parameters
        wanted = param.lower()
        return next((found for name, found in parameters if name.lower() == wanted), failobj)


def _canonical(key: str, value: str) -> str:
    """The canonical field of MIME field ``key``'s ``value`` (see the module): read once per value of at
    most :data:`MAX_REMEMBERED_VALUE` characters (:func:`_remembered_canonical`), each time for a longer one."""
    return (_remembered_canonical if len(value) <= MAX_REMEMBERED_VALUE else _read_canonical)(key, value)


def _read_canonical(key: str, value: str) -> str:
    """The canonical field of MIME field ``key``'s ``value``, read by :mod:`~pbem.mail.reading.mime_parameters`."""
    return canonical_field(read_mime_value(value, _MIME_FIELDS[key]), is_type=key == "content-type")


MAX_REMEMBERED_VALUE = 200
"""Longest MIME field value whose canonical field is remembered (nearly every Content-Type and -Disposition)."""
_remembered_canonical = functools.lru_cache(maxsize=256)(_read_canonical)
"""The canonical fields of the short MIME field values read lately: the same for every field of that value."""


MAX_PARAMETERS_READ = 256
"""Most field texts whose parameters :data:`_parameters_read` holds; when it is full it starts again."""
_parameters_read: dict[tuple[str, bool], tuple[tuple[str, object], ...]] = {}
"""The parameters of the MIME field texts read lately (and whether unquoted), as ``Message.get_params`` reads
them: the same for every field of that text. The texts are the short canonical fields :class:`BoundedPart`
stores, so the memory is bounded."""


def read_message(raw: bytes, policy: Policy) -> Message:
    """Parse a raw mail (or its header block) with ``policy`` into :class:`BoundedPart` parts, as ``email``'s
    parser does: the work grows linearly with the size of ``raw``, whatever it holds.

    Each part's header fields are read as ``email``'s parser reads them; where a part's body starts and where the
    parts of a multipart start and end is found by regular expressions over the whole text (see
    :func:`_read_part`), so neither a body of many lines nor many parts costs Python work per line. At most
    :data:`MAX_PARTS` parts of each multipart (and header blocks of a message/delivery-status) are read;
    a part holding more has the defect :class:`PartsNotRead`. Raises what the standard parser raises on
    input it cannot read (it is lenient: no such input is known).
    """
    return _read_part(raw.decode("ascii", "surrogateescape"), policy, _Parts())


MAX_PARTS = 100
"""Parts read of each multipart (and header blocks of each message/delivery-status); later ones are not read."""


class PartsNotRead(errors.MessageDefect):
    """A multipart holds more than :data:`MAX_PARTS` parts: the rest of it was not read."""


_HEADER_LINES = re.compile(r"(?:(?:From |[!-9;-~]*+:|[\t ])[^\r\n]*+(?:\r\n|\r|\n|\Z))*+")
"""The header fields that start a part: the lines ``email``'s parser reads as header lines (its ``headerRE``)."""
_HEADER_LINE = re.compile(r"[^\r\n]++(?:\r\n|\r|\n)?+")
"""A line of the header lines that start a part, with its line ending (none of them is empty)."""
_LINE_END = re.compile(r"\r\n|\r|\n")
_BLANK_LINE = re.compile(r"(?:(?<=\n)|(?<=\r)(?!\n))(?:\r\n|\r|\n)")
"""An empty line not at the start of the text (a line ending right after another)."""


def _read_part(text: str, policy: Policy, parts: _Parts, default_type: str | None = None) -> Message:
    """One part (or the mail) from ``text``, as ``email``'s feed parser reads it: its header fields by
    that parser, its body by content type (see the module)."""
    headers_end = _HEADER_LINES.match(text).end()
    blank = _LINE_END.match(text, headers_end)
    part = parts(policy)
    # what the parser does not take for header fields (a last line "From ...") starts the body
    body = _read_header_fields(part, text[:headers_end], policy) + text[blank.end() if blank else headers_end :]
    if default_type is not None:
        part.set_default_type(default_type)
    content_type = part.get_content_type()  # read once: each reading looks for the field among them all
    maintype = content_type.partition("/")[0]
    boundary = part.get_boundary() if maintype == "multipart" else None
    if content_type == "message/delivery-status":
        _read_status_blocks(part, body, policy, parts)
    elif maintype == "message":
        part.attach(_read_part(body, policy, parts))
    elif boundary is not None:
        _read_multipart(part, body, policy, parts, boundary,
                        "message/rfc822" if content_type == "multipart/digest" else None)
    else:
        part.set_payload(body)
    return part


def _read_header_fields(part: BoundedPart, lines: str, policy: Policy) -> str:
    """Store in ``part`` the header fields of ``lines`` (the header lines that start a part:
    :data:`_HEADER_LINES`), with the defects noted on the way, as ``email``'s feed parser does (its
    ``_parse_headers``, the same in Python 3.11 to 3.13): a field is a line ``name:`` with the blank-led
    lines after it (``policy`` makes it a name and value); a first line "From ..." is the envelope's,
    a later one a defect, and the last one, which it returns (else ''), is left for the body."""
    found = _HEADER_LINE.findall(lines)
    last = len(found) - 1
    field: list[str] = []  # the lines of the field being read
    for number, line in enumerate(found):
        if line[0] in " \t":
            if field:
                field.append(line)
            else:
                policy.handle_defect(part, errors.FirstHeaderLineIsContinuationDefect(line))
            continue
        if field:
            part.set_raw(*policy.header_source_parse(field))
            field = []
        if line.startswith("From "):
            if number == 0:
                part.set_unixfrom(_without_last_line_end(line))
            elif number == last:
                return line
            else:
                part.defects.append(errors.MisplacedEnvelopeHeaderDefect(line))
        elif line[0] == ":":
            part.defects.append(errors.InvalidHeaderDefect("Missing header name."))
        else:
            field = [line]
    if field:
        part.set_raw(*policy.header_source_parse(field))
    return ""


def _read_multipart(part: Message, body: str, policy: Policy, parts: _Parts, boundary: str,
                    default_type: str | None) -> None:
    """The parts of a multipart from its ``body``, split at the lines that are ``--boundary`` (each may
    be followed by ``--``, blanks and a line ending), each of ``default_type`` when it has no
    Content-Type (None: the standard one). The parts are cut before they are read, so a part inside never
    reads past a boundary of a multipart around it (RFC 2046)."""
    delimiter = re.compile(re.escape("--" + boundary) + r"(--)?+[ \t]*+(?:\r\n|\r|\n|\Z)")
    lines = (line for line in delimiter.finditer(body) if line.start() == 0 or body[line.start() - 1] in "\r\n")
    first = next(lines, None)
    if first is None or first.group(1):  # no boundary: the body is the payload (up to a closing one)
        part.set_payload(body if first is None else body[: first.start()])
        part.epilogue = ""
        return
    if first.start():
        part.preamble = _without_last_line_end(body[: first.start()])
    start = first.end()
    for line in lines:
        if line.start() == start:  # boundary lines in a row: no part between them, even before a closing one
            start = line.end()
            continue
        if not _attach_part(part, body[start : line.start()], policy, parts, default_type):
            return
        start = line.end()
        if line.group(1):  # the closing boundary: the rest is the epilogue
            part.epilogue = body[start:]
            return
    # no closing boundary: the last part ends with the body
    _attach_part(part, body[start:], policy, parts, default_type)


def _attach_part(multipart: Message, text: str, policy: Policy, parts: _Parts, default_type: str | None) -> bool:
    """Read ``text`` as the next part of ``multipart`` (of ``default_type`` when it has no Content-Type);
    False (and :class:`PartsNotRead`) when ``multipart`` holds :data:`MAX_PARTS` parts already."""
    payload = multipart.get_payload()
    if isinstance(payload, list) and len(payload) >= MAX_PARTS:
        multipart.defects.append(PartsNotRead())
        return False
    part = _read_part(text, policy, parts, default_type)
    _drop_last_line_end(part)
    multipart.attach(part)
    return True


def _drop_last_line_end(part: Message) -> None:
    """Drop the line ending that belongs to the boundary after a part (RFC 2046) from where ``email``'s
    parser drops it: the epilogue of a multipart, else the last text of the part."""
    if part.get_content_maintype() == "multipart":
        part.epilogue = None if part.epilogue == "" else part.epilogue and _without_last_line_end(part.epilogue)
        return
    payload = part.get_payload()
    if isinstance(payload, list):
        if payload:
            _drop_last_line_end(payload[-1])
    elif isinstance(payload, str):
        part.set_payload(_without_last_line_end(payload))


def _without_last_line_end(text: str) -> str:
    if text.endswith("\r\n"):
        return text[:-2]
    return text[:-1] if text.endswith(("\r", "\n")) else text


def _read_status_blocks(part: Message, body: str, policy: Policy, parts: _Parts) -> None:
    """The blocks of header fields of a message/delivery-status, each read as a part, split at empty
    lines as ``email``'s parser splits them (at most :data:`MAX_PARTS`)."""
    start = 0
    while True:
        if len(part.get_payload() or ()) >= MAX_PARTS:
            part.defects.append(PartsNotRead())
            return
        if _LINE_END.match(body, start):  # an empty line: an empty block
            end = start
        else:
            blank = _BLANK_LINE.search(body, start)
            end = blank.start() if blank else len(body)
        part.attach(_read_part(body[start:end], policy, parts))
        after = _LINE_END.match(body, end)
        start = after.end() if after else end
        if start >= len(body):
            return
