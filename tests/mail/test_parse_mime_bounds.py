"""parse_mail reads header fields and MIME structure within bounds: capped fields, canonical MIME
parameters, a bounded number of containers; hostile shapes are read, not fatal."""

from __future__ import annotations

from email.policy import compat32

from pbem.mail.reading.bounded_mime import MAX_CONTAINERS, MAX_FIELD, MAX_FIELDS, MAX_HEADER_BLOCK, read_message
from pbem.mail.reading.parse import MAX_PARTS, parse_mail


def mail(content_type: str, body: str, *, headers: str = "") -> bytes:
    """A raw mail from alice with the given Content-Type (folded as given), extra headers and body."""
    return (f"From: Alice <alice@example.org>\r\nTo: gm@example.org\r\nSubject: orders\r\n{headers}"
            f"Content-Type: {content_type}\r\n\r\n{body}").encode()


def folded(text: str, width: int = 900) -> str:
    """``text`` folded every ``width`` characters, as a mail server passes it on."""
    return "\r\n ".join(text[start:start + width] for start in range(0, len(text), width))


def nested(depth: int, innermost: str) -> str:
    """A body of ``depth`` multiparts each holding a line of text and the next one; the last holds
    ``innermost``. Returns the body of the outermost multipart (boundary b0)."""
    text = f"Content-Type: text/plain\r\n\r\n{innermost}\r\n"
    for level in range(depth - 1, -1, -1):
        text = (f"Content-Type: multipart/mixed; boundary=b{level}\r\n\r\n"
                f"--b{level}\r\nContent-Type: text/plain\r\n\r\nLEVEL {level}\r\n--b{level}\r\n{text}--b{level}--\r\n")
    return text.partition("\r\n\r\n")[2]


def test_a_parameter_of_an_open_quote_and_98304_semicolons_is_read_and_the_body_too() -> None:
    # The mail: 99 KB that held the standard parameter parser for 25 to 48 s.
    raw = mail(folded('text/plain; charset=utf-8; x="' + ";" * 98_304), "HELP\r\n")
    parsed = parse_mail(raw)
    assert parsed.body == "HELP" and parsed.content_type == "text/plain"


def test_the_hostile_shapes_in_a_parts_content_type_and_disposition_leave_the_other_parts_readable() -> None:
    shapes = ['x="' + ";" * 20_000, '\\"' * 20_000, 'a="b";' * 5_000, "report-type=" + "; " * 10_000]
    parts = "".join(f"--B\r\nContent-Type: {folded('text/plain; ' + shape)}\r\n"
                    f"Content-Disposition: {folded('inline; ' + shape)}\r\n\r\nPART {n}\r\n"
                    for n, shape in enumerate(shapes))
    raw = mail('multipart/mixed; boundary="B"', parts + "--B\r\nContent-Type: text/plain\r\n\r\nHELP\r\n--B--\r\n")
    assert parse_mail(raw).body.split("\n") == ["PART 0", "PART 1", "PART 2", "PART 3", "HELP"]


def test_a_report_type_charset_and_boundary_in_rfc2231_form_are_read() -> None:
    raw = mail("multipart/report; report-type*=''delivery-status; boundary*0=\"R\"; boundary*1=1",
               "--R1\r\nContent-Type: text/plain; charset*=iso-8859-1''latin-1\r\n\r\n\xe9t\xe9\r\n--R1--\r\n")
    parsed = parse_mail(raw.replace("\xe9".encode(), b"\xe9"))
    assert parsed.report_type == "delivery-status" and parsed.body == "été"


def test_an_rfc2231_file_name_marks_an_attachment() -> None:
    raw = mail('multipart/mixed; boundary="B"',
               "--B\r\nContent-Type: text/plain\r\n\r\nHELP\r\n"
               "--B\r\nContent-Type: text/plain; name*0*=utf-8''%E2%82%AC; name*1=.txt\r\n\r\nMOVE old\r\n--B--\r\n")
    assert parse_mail(raw).body == "HELP"


def test_rfc2231_sections_the_standard_library_cannot_sort_or_count_do_not_make_a_mail_unreadable() -> None:
    # Before: TypeError (boundary* next to boundary*0) and ValueError (a section number over 4,300 digits).
    raw = mail("multipart/mixed; boundary*=B; boundary*0=C",
               "--B\r\nContent-Type: text/plain; name*" + "9" * 5000 + "=x\r\n\r\nHELP\r\n--B--\r\n")
    assert parse_mail(raw).body == "HELP"


def test_multiparts_nested_past_the_budget_are_not_read_but_the_mail_is() -> None:
    # Before: a RecursionError made the mail unreadable, and each level made every line cost more.
    raw = mail("multipart/mixed; boundary=b0", nested(300, "TOO DEEP"))
    body = parse_mail(raw).body.split("\n")
    assert body == [f"LEVEL {level}" for level in range(MAX_CONTAINERS)]


def test_text_in_a_codec_that_is_no_mail_charset_is_read_as_utf8() -> None:
    # Python decodes punycode in time quadratic in the text: a 400 KB body in charset=punycode took 24 s.
    raw = mail("text/plain; charset=punycode", "HELP-").replace(b"Subject: orders", b"Subject: =?punycode?q?orders-?=")
    parsed = parse_mail(raw)
    assert parsed.body == "HELP-" and parsed.subject == "orders-"
    assert parse_mail(mail("text/plain; charset=idna", "xn--bcher-kva")).body == "xn--bcher-kva"


def test_only_the_first_parts_of_a_multipart_are_read() -> None:
    parts = "".join(f"--B\r\n\r\nLINE {n}\r\n" for n in range(3 * MAX_PARTS))
    body = parse_mail(mail('multipart/mixed; boundary="B"', parts + "--B--\r\n")).body
    assert body.split("\n") == [f"LINE {n}" for n in range(MAX_PARTS)]


def test_attached_mails_nested_past_the_budget_leave_the_mail_readable() -> None:
    # Before: the parser recursed once per attached mail, and 3,000 of them made the mail unreadable.
    attached = "Content-Type: message/rfc822\r\n\r\n" * 3000 + "Content-Type: text/plain\r\n\r\nTOO DEEP\r\n"
    raw = mail('multipart/mixed; boundary="B"', f"--B\r\n\r\nHELP\r\n--B\r\n{attached}--B--\r\n")
    assert parse_mail(raw).body == "HELP"


def test_a_long_field_is_cut() -> None:
    raw = mail("text/plain", "HELP\r\n", headers=f"Subject: [tc-1] {folded('s' * 3 * MAX_FIELD)}\r\n")
    assert len(read_message(raw, compat32).get_all("Subject")[1]) == MAX_FIELD
    assert parse_mail(raw).subject.startswith("orders")


def test_a_parts_fields_are_capped_in_number_and_in_characters() -> None:
    many = mail("text/plain", "HELP\r\n", headers="".join(f"X-{n}: y\r\n" for n in range(2 * MAX_FIELDS)))
    assert len(read_message(many, compat32).keys()) == MAX_FIELDS
    long = mail("text/plain", "HELP\r\n",
                headers="".join(f"X-Junk-{n}: {'j' * 100}\r\n" for n in range(MAX_HEADER_BLOCK // 100)))
    message = read_message(long, compat32)
    kept = sum(len(name) + len(value) for name, value in message.raw_items())
    assert MAX_HEADER_BLOCK <= kept < MAX_HEADER_BLOCK + 120
    for raw in (many, long):  # the Content-Type past the cap is dropped: the body is read as plain text
        assert read_message(raw, compat32).get("Content-Type") is None
        assert parse_mail(raw).body == "HELP"


def test_only_the_first_content_type_of_a_part_is_kept() -> None:
    raw = mail("text/html", "HELP\r\n", headers="Content-Type: text/plain\r\n")
    message = read_message(raw, compat32)
    assert message.get_all("Content-Type") == ["text/plain"]
