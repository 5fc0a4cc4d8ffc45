"""mailto: URLs as RFC 6068 writes them: the address as it is, subject and body percent-encoded from
UTF-8 (a space as %20, never +), the body's line breaks as %0D%0A; read back, they give what was put in."""

from __future__ import annotations

from urllib.parse import quote, unquote, urlsplit

from hypothesis import given
from hypothesis import strategies as st

from pbem.mailto import mailto_url


def _read(url: str) -> tuple[str, dict[str, str]]:
    """The address and the header fields of a mailto: URL, read as RFC 6068 says (no '+' for space)."""
    parts = urlsplit(url)
    assert parts.scheme == "mailto"
    fields = dict(field.split("=", 1) for field in parts.query.split("&")) if parts.query else {}
    return unquote(parts.path), {name: unquote(value) for name, value in fields.items()}


def test_a_reply_to_a_report_is_written_as_rfc_6068_asks() -> None:
    url = mailto_url("gm+tc-1.a.k1.20260.mfrggzdfmztwq2lk@example.org", subject="Re: [tc-1] Turn 3",
                     body="BID 3\n")
    assert url == ("mailto:gm+tc-1.a.k1.20260.mfrggzdfmztwq2lk@example.org"
                   "?subject=Re%3A%20%5Btc-1%5D%20Turn%203&body=BID%203%0D%0A")


def test_every_character_that_means_something_in_a_url_is_encoded() -> None:
    url = mailto_url("a@b.test", subject="x&body=y", body="REACT\nACCUSE PAY red? #1 = 100% +ü")
    assert url == ("mailto:a@b.test?subject=x%26body%3Dy"
                   "&body=REACT%0D%0AACCUSE%20PAY%20red%3F%20%231%20%3D%20100%25%20%2B%C3%BC")


def test_an_address_alone_has_no_query() -> None:
    assert mailto_url("gm@example.org") == "mailto:gm@example.org"


@given(st.text(max_size=40), st.text(min_size=1, max_size=200))
def test_subject_and_body_read_back_with_crlf_line_breaks(subject: str, body: str) -> None:
    address, fields = _read(mailto_url("gm+x.1.k1.2.abc@example.org", subject=subject, body=body))
    assert address == "gm+x.1.k1.2.abc@example.org"
    assert fields.get("subject", "") == subject
    assert fields["body"] == "\r\n".join(body.replace("\r\n", "\n").split("\n"))
    assert " " not in mailto_url("a@b.test", subject=subject, body=body)


@given(st.text(max_size=60), st.text(max_size=200), st.text(max_size=40))
def test_every_field_is_encoded_as_urllib_quote_encodes_it(subject: str, body: str, address: str) -> None:
    url = mailto_url(address, subject=subject, body=body)
    fields = []
    if subject:
        fields.append("subject=" + quote(subject, safe=""))
    if body:
        fields.append("body=" + quote("\r\n".join(body.replace("\r\n", "\n").split("\n")), safe=""))
    assert url == "mailto:" + quote(address, safe="!$'()*+,;:@") + ("?" + "&".join(fields) if fields else "")
