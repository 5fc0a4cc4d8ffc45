"""The bounded MIME reader reads a part's header fields as the standard library's feed parser reads them:
the same fields, envelope line, defects and start of the body, for well-formed and odd header blocks
alike (continuation lines first, "From " lines first, in the middle and last, a line ":" without a name,
every kind of line ending, no ending at all)."""

from __future__ import annotations

import email.parser
from email.message import Message
from email.policy import compat32

import pytest

from pbem.mail.reading.bounded_mime import read_message

BLOCKS = [
    "From: Alice <alice@example.org>\nTo: gm@example.org\nSubject: orders\n",
    "From: Alice\r\n <alice@example.org>\r\nSubject: a\r\n\tlong one\r\n  folded twice\r\nX-Empty:\r\nX-Blank: \t \r\n",
    "From alice@example.org Mon Jan  1 00:00:00 2024\nFrom: alice@example.org\nSubject: envelope first\n",
    "From alice@example.org Mon Jan  1 00:00:00 2024\r\n",
    "Subject: envelope in the middle\nFrom somebody else\nTo: gm@example.org\n",
    "Subject: envelope last\nTo: gm@example.org\nFrom the body's first line\n",
    " a continuation first\n\tand another\nSubject: after them\n",
    "Subject: a\n:no name\n continued after it\nTo: b\n",
    "Subject: old Mac endings\rTo: gm@example.org\r folded\r",
    "Subject: mixed\r\nTo: a\rCc: b\n",
    "Subject: no line ending at the end",
    "Subject: \udce9t\udce9 raw 8-bit bytes\nX-Colon:a:b:c\nX-Spaces-Before:    value  \n",
    "From: a@b\nFrom: c@d\nFrom x\n",
    "",
]
BODY = "The body\nFrom a line of it\n"


def stdlib_part(block: str) -> Message:
    """The part ``email``'s own parser reads from the header lines ``block`` (nothing else)."""
    return email.parser.Parser(policy=compat32).parsestr(block, headersonly=True)


def described(part: Message) -> tuple[object, ...]:
    return (part.get_unixfrom(), part.raw_items() and list(part.raw_items()),
            [(type(defect), str(defect)) for defect in part.defects])


@pytest.mark.parametrize("block", BLOCKS)
def test_a_parts_header_fields_are_read_as_the_standard_library_reads_them(block: str) -> None:
    expected = stdlib_part(block)
    ending = "\r\n" if block.endswith("\r\n") else block[-1:]
    if ending in ("", "\n", "\r"):  # the header lines, an empty line and the body
        body = BODY
        raw = block + (ending or "\n") + body
    else:  # no line ending after the last field: the mail ends there
        body = ""
        raw = block
    read = read_message(raw.encode("utf-8", "surrogateescape"), compat32)
    assert described(read) == described(expected)
    # what the parser leaves of the header lines (a last "From " line) starts the body
    assert read.get_payload() == expected.get_payload() + body
