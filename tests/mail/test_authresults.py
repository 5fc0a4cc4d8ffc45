"""The receiving server's DMARC verdict on the From (pbem/mail/reading/authresults.py)."""

from __future__ import annotations

import time

import pytest

from pbem.mail.reading.authresults import MAX_FIELDS, from_fails_dmarc

TRUSTED = ("mx.pbem.test",)


def mail(*results: str) -> bytes:
    fields = "".join(f"Authentication-Results: {value}\r\n" for value in results)
    return f"{fields}From: ann@example.org\r\nSubject: s\r\n\r\nJOIN g\r\n".encode()


@pytest.mark.parametrize(("results", "forged"), [
    (["mx.pbem.test; dmarc=fail header.from=example.org"], True),
    (["MX.PBEM.TEST; spf=pass smtp.mailfrom=example.org;\r\n dmarc=fail (p=reject) header.from=example.org"], True),
    (["mx.pbem.test; dmarc=pass header.from=example.org"], False),
    (["mx.pbem.test; dmarc=none header.from=example.org"], False),
    (["mx.pbem.test; none"], False),
    (["other.test; dmarc=fail header.from=example.org"], False),  # a server pbem does not trust
    (["mx.pbem.test; dmarc=pass", "mx.pbem.test; dmarc=fail"], False),  # the topmost trusted field decides
    (["other.test; dmarc=pass", "mx.pbem.test; dmarc=fail"], True),
    (["mx.pbem.test; dmarc=fail (unclosed"], False),  # unreadable: no verdict
    ([], False),
])
def test_the_topmost_field_of_a_trusted_server_decides(results: list[str], forged: bool) -> None:
    assert from_fails_dmarc(mail(*results), TRUSTED) is forged


def test_nothing_is_read_without_a_trusted_server() -> None:
    assert from_fails_dmarc(mail("mx.pbem.test; dmarc=fail"), ()) is False


def test_only_the_first_fields_are_read_and_hostile_ones_cost_little() -> None:
    late = mail(*["other.test; none"] * MAX_FIELDS, "mx.pbem.test; dmarc=fail")
    assert from_fails_dmarc(late, TRUSTED) is False
    hostile = mail(*[f"mx.pbem.test; dmarc=fail {'(' * 1900}", "mx.pbem.test; " + "dmarc=fail; " * 5000] * 500)
    started = time.process_time()
    from_fails_dmarc(hostile, TRUSTED)
    assert time.process_time() - started < 2  # the bound for any mail, with room to spare
