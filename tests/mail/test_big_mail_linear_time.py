"""A mail of up to 1 MB, honest (newsletters, HTML only, many parts, quoted-printable and base64 bodies,
alternatives within mixed) or hostile (100,000 nested tags, unclosed tags, runs of ``<br>`` and of line
breaks, long lines, character references, empty header blocks of a delivery report, attribution lines), is
read in time linear in its size: 2.3 to 4.4 s per MB were spent on such mails, set aside by the per-mail
time budget of 2 s.

Each shape (tests/support/big_mails.py, which bench/bench_reading.py times in ms per MB) is built at
128 KB and at 1 MB and read as handling reads a mail that is not oversized (the mail, its
Authentication-Results, whether it holds a password, its command script). As in
tests/mail/test_mime_linear_time.py, no time is asserted: the time per byte at 1 MB must be at most three
times that at 128 KB, where a reading that is quadratic anywhere takes eight times as long per byte.
bench/bench_reading.py prints the time per MB of each shape.
"""

from __future__ import annotations

import pytest
from big_mails import SHAPES, read_as_handling
from test_linear_time import seconds

SMALL = 128 * 1024
LARGE = 1024 * 1024


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


