"""A mail of up to 1 MB, honest (newsletters, HTML only, many parts, quoted-printable and base64 bodies,
alternatives within mixed) or hostile (100,000 nested tags, unclosed tags, runs of ``<br>`` and of line
breaks, long lines, character references, empty header blocks of a delivery report, attribution lines), is
read in time linear in its size: 2.3 to 4.4 s per MB were spent on such mails, set aside by the per-mail
time budget of 2 s.

Each shape (tests/support/big_mails.py, which bench/bench_reading.py times in ms per MB) is built at
128 KB and at 1 MB and read as handling reads a mail that is not oversized (the mail, its
Authentication-Results, whether it holds a password, its command script). As in
tests/mail/test_mime_linear_time.py, no time is asserted: the time per byte at 1 MB must be at most three
times that at 128 KB, where a reading that is quadratic anywhere takes eight times as long per byte. And the
work is counted: the Python functions called (pbem's, the standard library's, and built-in ones) per KB of
a 1 MB mail, whose count does not depend on the machine or its load. The reading used to take some Python
steps per line and some dozens per part and per HTML tag (680 to 3,300 calls per KB of honest mail, 11,000
for ``<br>`` repeated, 36,000 for the empty lines of a delivery report); now a line costs none, nor does a
tag that changes nothing or a run of tags that only end lines.
"""

from __future__ import annotations

import sys
from types import FrameType

import pytest
from big_mails import HONEST, SHAPES, read_as_handling
from test_linear_time import seconds

SMALL = 128 * 1024
LARGE = 1024 * 1024
HONEST_CALLS_PER_KB = 500
"""Most function calls per KB of an honest mail (an HTML newsletter with a tag every 25 bytes takes 390)."""
CALLS_PER_KB = 2_000
"""Most function calls per KB of any mail (``MOVE a1-a2<br>`` repeated takes 1,300: a line every 15 bytes)."""


def per_byte(raw: bytes) -> float:
    """Seconds to read ``raw`` as handling does (the shortest of three runs), per byte."""
    return seconds(lambda: read_as_handling(raw)) / len(raw)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_mail_of_up_to_1_mb_is_read_in_time_linear_in_its_size(shape: str) -> None:
    small, large = SHAPES[shape](SMALL), SHAPES[shape](LARGE)
    read_as_handling(small)  # warm caches (grammars, regular expressions)
    base, grown = per_byte(small), per_byte(large)
    assert grown <= 3 * base + 0.002 / len(large), (
        f"{shape}: {base * 1e9:.0f} ns per byte at {len(small):,} bytes, {grown * 1e9:.0f} at {len(large):,}")


def calls_per_kb(raw: bytes) -> float:
    """The functions called (Python and built-in) while ``raw`` is read as handling reads it, per KB."""
    read_as_handling(raw)  # warm caches (grammars, regular expressions)
    calls = 0

    def count(_frame: FrameType, event: str, _arg: object) -> None:
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    sys.setprofile(count)
    try:
        read_as_handling(raw)
    finally:
        sys.setprofile(None)
    return calls / (len(raw) / 1024)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_reading_a_mail_of_1_mb_makes_a_bounded_number_of_calls_per_kb(shape: str) -> None:
    budget = HONEST_CALLS_PER_KB if shape in HONEST else CALLS_PER_KB
    assert calls_per_kb(SHAPES[shape](LARGE)) <= budget
