"""Whole mails, however their header fields and MIME structure are built, are read in time linear in
their size (issue 23: a Content-Type of an open quote and 98,304 ';' held the daemon for 25-48 s).

Hypothesis builds whole mails: every header field pbem reads, a Content-Type,
Content-Transfer-Encoding and Content-Disposition on every part, multiparts
nested up to four deep, and one field (a header of the mail, or a MIME field
of one of its parts, or the body of the innermost text part, in a charset that may be any codec
Python knows) holding a text that grows: a unit repeated, built from
the shapes that were found slow (an open quote and many ';', runs of ``\\"``,
many ``a="b"`` pairs, RFC 2231 sections, report-type) and random text,
folded at any width. Each mail is read (:func:`pbem.mail.reading.parse.parse_mail`,
then the command script) at two sizes eight times apart: the time per byte
at the larger size must be at most three times that at the smaller one, where
a quadratic reading takes eight times as long per byte, and at most
:data:`BUDGET_PER_BYTE` (a generous budget: 20 times what a 1 MB mail may
cost to be read in 2 s; the issue's mail took 250 µs per byte).
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_linear_time import read_mail, seconds

SMALL = 4_000
GROWTH = 8
BUDGET_PER_BYTE = 40e-6
SHAPES = ['x="', ";", '\\"', '\\";', 'a="b";', "report-type=", '"', "'", "*", "*0*=", "*1=", "%E2", "=", "\\",
          "=?utf-8?q?a?= ", " ", "\t", "(", ")", "<", ">", "@", ",", ":", "boundary=", "charset*=''", "name*"]
HEADERS = {  # what an ordinary mail holds in each field pbem reads
    "From": "Alice <alice@example.org>", "Sender": "alice@example.org", "Reply-To": "alice@example.org",
    "To": "gm@pbem.test", "Cc": "Bob <bob@example.org>", "Subject": "Re: [tc-1] Turn 3",
    "Message-ID": "<m1@example.org>", "In-Reply-To": "<r1@pbem.test>", "References": "<r0@pbem.test> <r1@pbem.test>",
    "Date": "Tue, 24 Nov 2026 10:00:00 +0100", "Return-Path": "<alice@example.org>", "Auto-Submitted": "no",
    "Precedence": "normal", "List-Id": "<tc.pbem.test>",
}
MIME_FIELDS = ("Content-Type", "Content-Transfer-Encoding", "Content-Disposition")


@dataclass(frozen=True)
class HostileMail:
    """A whole mail whose field ``place`` (a header of the mail, or a MIME field of the part at ``level``,
    or of the innermost part when there are fewer levels)
    holds ``prefix`` and ``unit`` repeated, folded every ``fold`` characters; the parts are multiparts of ``subtypes``
    nested one in the next, the innermost holding a text part in ``charset`` (and the text, for ``place`` "body")."""

    place: str
    level: int
    prefix: str
    unit: str
    fold: int
    subtypes: tuple[str, ...]
    charset: str = "utf-8"

    def render(self, size: int) -> bytes:
        """The mail with ``size`` characters of the repeated unit."""
        grown = self.prefix + (self.unit * (size // len(self.unit) + 1))[:size]
        grown = "\r\n ".join(grown[start:start + self.fold] for start in range(0, len(grown), self.fold))
        headers = "".join(f"{name}: {grown if name == self.place else value}\r\n" for name, value in HEADERS.items())
        return (headers + self._part(0, grown)).encode("utf-8", "surrogateescape")

    def _part(self, level: int, grown: str) -> str:
        """Header block and body of the part at ``level`` (0: the mail itself)."""
        if level < len(self.subtypes):
            boundary = f"b{level}"
            fields = {"Content-Type": f'multipart/{self.subtypes[level]}; boundary="{boundary}"',
                      "Content-Transfer-Encoding": "7bit", "Content-Disposition": "inline"}
            body = (f"--{boundary}\r\nContent-Type: text/plain\r\n\r\nHELP\r\n"
                    f"--{boundary}\r\n{self._part(level + 1, grown)}\r\n--{boundary}--\r\n")
        else:
            fields = {"Content-Type": f"text/plain; charset={self.charset}",
                      "Content-Transfer-Encoding": "quoted-printable",
                      "Content-Disposition": 'inline; filename="orders.txt"'}
            body = f"HELP\r\nMOVE a1-a2\r\n{grown if self.place == 'body' else ''}"
        if level == min(self.level, len(self.subtypes)) and self.place in fields:
            fields[self.place] = f"{fields[self.place].partition(';')[0]}; {grown}"
        return "".join(f"{name}: {value}\r\n" for name, value in fields.items()) + "\r\n" + body


TEXT = st.characters(exclude_characters="\r\n", exclude_categories=("Cs",))  # lone surrogates are no mail's text
UNITS = st.lists(st.sampled_from(SHAPES) | st.text(TEXT, min_size=1, max_size=3),
                 min_size=1, max_size=5).map("".join)
MAILS = st.builds(
    HostileMail,
    place=st.sampled_from([*HEADERS, *MIME_FIELDS, "body"]),
    level=st.integers(0, 4),
    prefix=st.sampled_from(["", 'x="', 'name="', "charset=", "boundary*0*="]),
    unit=UNITS,
    fold=st.sampled_from([1, 7, 76, 900, 100_000]),
    subtypes=st.lists(st.sampled_from(["mixed", "alternative", "report", "digest", "related"]), max_size=4).map(tuple),
    charset=st.sampled_from(["utf-8", "punycode", "idna", "utf-7", "iso-2022-jp", "x-unknown", "utf-16"]),
)


def per_byte(raw: bytes) -> float:
    """Seconds to read ``raw`` (the shortest of three runs), per byte."""
    return seconds(lambda: read_mail(raw)) / len(raw)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mail=MAILS)
@example(mail=HostileMail("Content-Type", 0, 'charset=utf-8; x="', ";", 900, ()))  # the mail
@example(mail=HostileMail("Content-Type", 2, 'x="', '\\";', 900, ("mixed", "alternative")))
@example(mail=HostileMail("Content-Disposition", 1, "", 'a="b";', 76, ("mixed",)))
@example(mail=HostileMail("Content-Type", 1, 'report-type="', "; ", 900, ("report",)))
@example(mail=HostileMail("Content-Type", 0, "", "name*1=a;", 900, ()))
@example(mail=HostileMail("body", 0, "-", "9", 100_000, (), "punycode"))
def test_reading_a_whole_mail_takes_time_linear_in_its_size(mail: HostileMail) -> None:
    small, large = mail.render(SMALL), mail.render(SMALL * GROWTH)
    read_mail(small)  # warm caches (grammars, regular expressions)
    base, grown = per_byte(small), per_byte(large)
    assert grown <= 3 * base + 0.002 / len(large), (
        f"{mail}: {base * 1e6:.2f} µs per byte at {len(small):,} bytes, {grown * 1e6:.2f} at {len(large):,}")
    assert grown <= BUDGET_PER_BYTE, f"{mail}: {grown * 1e6:.2f} µs per byte at {len(large):,} bytes"
