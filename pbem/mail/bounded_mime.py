"""Raw mail parsed by the standard library's MIME parser with bounded work, whatever its header fields hold.

:func:`read_message` runs ``email``'s feed parser with parts
(:class:`BoundedPart`) that store each header field of every part, as the
parser hands it over, capped and canonical:

- a field's value is cut to :data:`MAX_FIELD` characters; a part keeps at
  most :data:`MAX_FIELDS` fields and :data:`MAX_HEADER_BLOCK` characters of
  them, and no field whose name is longer than :data:`MAX_NAME`;
- the first Content-Type and Content-Disposition of a part are read by
  :func:`pbem.mail.mime_parameters.read_mime_value` (one linear pass) and
  stored as the short canonical field it gives; later ones are dropped. So
  the standard library's parameter parser, which the feed parser itself
  calls for every multipart's boundary, and which pbem calls for the
  charset, report type and file names, only ever reads a few short,
  well-formed parameters;
- a mail holds at most :data:`MAX_CONTAINERS` multipart or message parts: a
  further one is stored as ``application/octet-stream``, which is neither
  split into parts nor read. This bounds the nesting depth, and with it the
  work per line (the feed parser tests each line against the boundary of
  every enclosing multipart, and parses and is read by recursion).
"""

from __future__ import annotations

import email
from email.message import Message
from email.policy import Policy, compat32

from pbem.mail.mime_parameters import canonical_field, read_mime_value

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
    """Makes the parts of one mail for the feed parser; they share its count of containers left."""

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
        wanted = _MIME_FIELDS.get(key)
        if wanted is not None:
            if key in self._mime_fields:  # the standard library reads the first one only
                return
            self._mime_fields.add(key)
            field = canonical_field(read_mime_value(value, wanted), is_type=key == "content-type")
            is_container = field.startswith(("multipart/", "message/"))
            value = OPAQUE_TYPE if is_container and not self._parts.admit_container() else field
        self._header_characters += len(name) + len(value)
        super().set_raw(name, value)


def read_message(raw: bytes, policy: Policy) -> Message:
    """Parse a raw mail (or its header block) with ``email``'s parser and ``policy``, through
    :class:`BoundedPart` parts: the work grows linearly with the size of ``raw``, whatever it holds.

    Raises what the standard parser raises on input it cannot read (it is
    lenient: no such input is known).
    """
    return email.message_from_bytes(raw, _class=_Parts(), policy=policy)
