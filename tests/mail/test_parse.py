"""parse_mail: real mail as people send it, down to the lines they wrote."""

from __future__ import annotations

import base64
from datetime import UTC, datetime

import pytest

from pbem.mail.reading.parse import MalformedMail, clean_body, html_to_text, parse_mail, subject_tag


def mail(body: bytes | str, *, headers: str = "", content_type: str = "text/plain; charset=utf-8") -> bytes:
    """A raw mail from alice with the given extra headers, content type and body."""
    head = (
        "From: Alice Example <Alice@Example.ORG>\n"
        "To: gm@example.org\n"
        "Subject: orders\n"
        "Message-ID: <m1@example.org>\n"
        f"Content-Type: {content_type}\n"
        f"{headers}"
    )
    raw_body = body.encode("utf-8") if isinstance(body, str) else body
    return head.encode("ascii") + b"\n" + raw_body


def multipart(subtype: str, *parts: str, boundary: str = "BOUNDARY") -> bytes:
    """A raw multipart mail whose parts are given as header block + blank line + body text."""
    body = "".join(f"--{boundary}\n{part}\n" for part in parts) + f"--{boundary}--\n"
    return mail(body, content_type=f'multipart/{subtype}; boundary="{boundary}"')


def test_a_plain_mail_gives_its_sender_subject_ids_and_body() -> None:
    raw = mail(
        "SIGNON tc-1 a secret\nMOVE a1-a2\n",
        headers=(
            "Cc: Bob <BOB@example.org>\nDelivered-To: gm+tc-1.a@example.org\n"
            "In-Reply-To: <p2@example.org>\nReferences: <p1@example.org>\n <p2@example.org>\n"
            "Date: Tue, 24 Nov 2026 10:00:00 +0100\nReturn-Path: <alice@example.org>\n"
        ),
    )
    parsed = parse_mail(raw)
    assert parsed.sender == "alice@example.org"
    assert parsed.sender_name == "Alice Example"
    assert parsed.to == ("gm@example.org",)
    assert parsed.cc == ("bob@example.org",)
    assert parsed.recipients == ("gm@example.org", "bob@example.org", "gm+tc-1.a@example.org")
    assert parsed.message_id == "<m1@example.org>"
    assert parsed.in_reply_to == "<p2@example.org>"
    assert parsed.references == ("<p1@example.org>", "<p2@example.org>")
    assert parsed.date == datetime(2026, 11, 24, 9, 0, tzinfo=UTC)
    assert parsed.return_path == "alice@example.org"
    assert parsed.body == "SIGNON tc-1 a secret\nMOVE a1-a2"
    assert parsed.size == len(raw)


def test_a_missing_message_id_is_made_from_a_hash_of_the_mail() -> None:
    raw = b"From: alice@example.org\nSubject: x\n\nJOIN tc-1\n"
    first, again, other = parse_mail(raw), parse_mail(raw), parse_mail(raw + b"JOIN tc-2\n")
    assert first.message_id == again.message_id
    assert first.message_id != other.message_id
    assert first.message_id.startswith("<") and first.message_id.endswith(">")


def test_an_encoded_subject_is_decoded() -> None:
    raw = mail("x", headers="").replace(b"Subject: orders", b"Subject: =?iso-8859-1?q?Re:_[tc-1]_Z=FCge?=")
    assert parse_mail(raw).subject == "Re: [tc-1] Züge"


def test_unencoded_8bit_headers_are_read_as_utf8_or_latin1() -> None:
    utf8 = b"From: J\xc3\xbcrgen <j@example.org>\nSubject: Z\xc3\xbcge\n\nx\n"
    latin1 = b"From: J\xfcrgen <j@example.org>\nSubject: x\n\nx\n"
    assert parse_mail(utf8).sender_name == "Jürgen"
    assert parse_mail(utf8).subject == "Züge"
    assert parse_mail(latin1).sender_name == "Jürgen"


def test_html_only_orders_become_one_line_each() -> None:
    html = (
        "<html><head><title>Orders</title><style>div { color: red }</style></head><body>"
        "<div>SIGNON tc-1 a secret</div><div>MOVE&nbsp;a1-a2</div><div><br></div>"
        "<p>MOVE b1-b2<br>MOVE c1 &amp; c2</p><ul><li>BUILD d4</li><li>PASS</li></ul>"
        "<script>alert('x')</script><table><tr><td>ROLL</td><td>2</td></tr></table>"
        "</body></html>"
    )
    parsed = parse_mail(mail(html, content_type="text/html; charset=utf-8"))
    assert parsed.body.split("\n") == [
        "SIGNON tc-1 a secret",
        "MOVE a1-a2",
        "",
        "MOVE b1-b2",
        "MOVE c1 & c2",
        "BUILD d4",
        "PASS",
        "ROLL 2",
    ]


def test_html_block_elements_break_lines_on_both_sides() -> None:
    assert html_to_text("MOVE a<div>MOVE b</div>MOVE c<p>PASS</p>") == "MOVE a\nMOVE b\nMOVE c\nPASS"


def test_html_keeps_preformatted_lines() -> None:
    assert html_to_text("<pre>MOVE a\n  MOVE b</pre>after") == "MOVE a\n  MOVE b\nafter"


def test_plain_text_is_preferred_to_its_html_alternative() -> None:
    raw = multipart(
        "alternative",
        "Content-Type: text/plain; charset=utf-8\n\nMOVE plain",
        "Content-Type: text/html; charset=utf-8\n\n<div>MOVE html</div>",
    )
    assert parse_mail(raw).body == "MOVE plain"


def test_html_inside_related_is_used_when_there_is_no_plain_text() -> None:
    raw = multipart(
        "related",
        "Content-Type: text/html; charset=utf-8\n\n<div>MOVE html</div><img src='cid:x'>",
        "Content-Type: image/png\nContent-Transfer-Encoding: base64\n\niVBORw0KGgo=",
    )
    assert parse_mail(raw).body == "MOVE html"


def test_a_latin1_quoted_printable_mail_decodes() -> None:
    raw = mail(
        "ORDERS f=FCr Spieler =E9t=E9\nMOVE a=3Db\nlong line =\ncontinued\n",
        content_type="text/plain; charset=iso-8859-1",
        headers="Content-Transfer-Encoding: quoted-printable\n",
    )
    assert parse_mail(raw).body == "ORDERS für Spieler été\nMOVE a=b\nlong line continued"


def test_a_base64_utf8_mail_decodes() -> None:
    text = "SIGNON tc-1 a geheim\nMOVE Zürich → Genève\n"
    encoded = base64.encodebytes(text.encode("utf-8")).decode("ascii")
    raw = mail(encoded, headers="Content-Transfer-Encoding: base64\n")
    assert parse_mail(raw).body == "SIGNON tc-1 a geheim\nMOVE Zürich → Genève"


def test_8bit_text_in_another_charset_decodes() -> None:
    raw = mail(
        "MOVE Łódź\n".encode("iso-8859-2"),
        content_type="text/plain; charset=iso-8859-2",
        headers="Content-Transfer-Encoding: 8bit\n",
    )
    assert parse_mail(raw).body == "MOVE Łódź"


@pytest.mark.parametrize(
    ("charset", "body", "expected"),
    [
        ("x-no-such-charset", "MOVE Zürich\n".encode(), "MOVE Zürich"),
        ("x-no-such-charset", "MOVE Zürich\n".encode("latin-1"), "MOVE Zürich"),
        ("base64", b"MOVE a\n", "MOVE a"),  # a codec, but not a text encoding
        ("us-ascii", "MOVE Zürich\n".encode(), "MOVE Zürich"),  # wrongly declared
        ("utf-8", b"MOVE Z\xfcrich\n", "MOVE Z\ufffdrich"),  # invalid in the declared charset
    ],
)
def test_unknown_or_wrong_charsets_fall_back_without_raising(charset: str, body: bytes, expected: str) -> None:
    raw = mail(body, content_type=f"text/plain; charset={charset}", headers="Content-Transfer-Encoding: 8bit\n")
    assert parse_mail(raw).body == expected


def test_line_endings_and_odd_spaces_are_normalised() -> None:
    raw = mail("MOVE\u00a0a1-a2\nMOVE b\u200b1\nPASS\u202f\n").replace(b"\n", b"\r\n")
    assert parse_mail(raw).body == "MOVE a1-a2\nMOVE b1\nPASS"


def test_quoted_text_and_on_wrote_blocks_are_stripped_but_orders_kept() -> None:
    body = (
        "SIGNON tc-1 a secret\n"
        "MOVE a1-a2\n"
        "\n"
        "On Tue, Nov 24, 2026 at 10:00 AM Game Master <gm@example.org> wrote:\n"
        "> Turn 3 report\n"
        ">\n"
        "> > older quote\n"
    )
    assert parse_mail(mail(body)).body == "SIGNON tc-1 a secret\nMOVE a1-a2"


def test_an_attribution_wrapped_over_two_lines_is_stripped() -> None:
    body = "MOVE a1-a2\nOn Tue, 24 Nov 2026 at 10:00, Game Master <\ngm@example.org> wrote:\n> report\n"
    assert clean_body(body) == "MOVE a1-a2"


def test_a_german_attribution_is_stripped() -> None:
    assert clean_body("MOVE a\nAm 24.11.2026 um 10:00 schrieb GM <gm@example.org>:\n> alt\n") == "MOVE a"


def test_an_interleaved_reply_keeps_the_answers_at_their_line_numbers() -> None:
    body = "On Tue, GM wrote:\n> Your orders for seat a?\nMOVE a1-a2\n> And press?\nPASS\n"
    assert clean_body(body).split("\n") == ["", "", "MOVE a1-a2", "", "PASS"]


def test_an_unquoted_on_line_is_kept_as_text() -> None:
    assert clean_body("On reflection I wrote:\nMOVE a") == "On reflection I wrote:\nMOVE a"


def test_outlook_original_message_block_is_cut() -> None:
    body = "MOVE a1-a2\n\n-----Original Message-----\nFrom: GM\nSent: Monday\nMOVE old\n"
    assert clean_body(body) == "MOVE a1-a2"


def test_outlook_from_sent_header_block_is_cut_with_its_rule() -> None:
    body = (
        "MOVE a1-a2\n\n________________________________\n"
        "From: Game Master <gm@example.org>\nSent: Tuesday, November 24, 2026 10:00\n"
        "To: Alice\nSubject: [tc-1] Turn 3\n\nYour report\n"
    )
    assert clean_body(body) == "MOVE a1-a2"


def test_a_from_line_without_sent_is_kept() -> None:
    assert clean_body("PRESS all\nFrom: me, with love\nENDPRESS") == "PRESS all\nFrom: me, with love\nENDPRESS"


@pytest.mark.parametrize("separator", ["-- ", "--"])
def test_the_signature_and_everything_after_it_is_cut(separator: str) -> None:
    body = f"MOVE a1-a2\nPASS\n{separator}\nAlice Example\nMOVE not-an-order\n"
    assert clean_body(body) == "MOVE a1-a2\nPASS"


def test_mobile_footers_are_dropped() -> None:
    assert clean_body("MOVE a1-a2\n\nSent from my iPhone\n") == "MOVE a1-a2"


def test_html_quotes_are_stripped_like_plain_ones() -> None:
    html = (
        "<div>MOVE a1-a2</div><div class='gmail_quote'><div class='gmail_attr'>On Tue, Nov 24, 2026 "
        "GM &lt;gm@example.org&gt; wrote:<br></div><blockquote><div>Turn 3</div><div>board</div></blockquote></div>"
    )
    assert parse_mail(mail(html, content_type="text/html")).body == "MOVE a1-a2"


def test_attachments_and_attached_mails_are_ignored() -> None:
    raw = multipart(
        "mixed",
        "Content-Type: text/plain; charset=utf-8\n\nMOVE a1-a2",
        'Content-Type: text/plain; name="old.txt"\nContent-Disposition: attachment; filename="old.txt"\n\nMOVE old',
        'Content-Type: text/plain; name="notes.txt"\n\nMOVE named',
        "Content-Type: image/png\nContent-Transfer-Encoding: base64\n\niVBORw0KGgo=",
        "Content-Type: message/rfc822\n\nFrom: x@example.org\nSubject: fwd\n\nMOVE forwarded",
    )
    assert parse_mail(raw).body == "MOVE a1-a2"


def test_inline_text_parts_around_an_attachment_are_joined() -> None:
    raw = multipart(
        "mixed",
        "Content-Type: text/plain\n\nMOVE a1-a2",
        "Content-Type: image/png\nContent-Disposition: inline\n\nxx",
        "Content-Type: text/plain\nContent-Disposition: inline\n\nPASS",
    )
    assert parse_mail(raw).body == "MOVE a1-a2\nPASS"


def test_a_truncated_multipart_still_parses() -> None:
    raw = mail(
        "--B\nContent-Type: text/plain\n\nMOVE a1-a2\n--B\nContent-Type: text/plain\n\nPASS\nMOVE b",
        content_type='multipart/mixed; boundary="B"',
    )
    assert parse_mail(raw).body == "MOVE a1-a2\nPASS\nMOVE b"


def test_a_multipart_without_a_boundary_is_read_as_text() -> None:
    assert parse_mail(mail("MOVE a1-a2\n", content_type="multipart/mixed")).body == "MOVE a1-a2"


def test_a_bad_transfer_encoding_does_not_raise() -> None:
    raw = mail("!!!! not base64 ****\n", headers="Content-Transfer-Encoding: base64\n")
    assert isinstance(parse_mail(raw).body, str)


def test_missing_optional_headers_still_parse() -> None:
    parsed = parse_mail(b"From: alice@example.org\n\nJOIN tc-1\n")
    assert (parsed.subject, parsed.to, parsed.date) == ("", (), None)
    assert (parsed.in_reply_to, parsed.return_path) == (None, None)
    assert parsed.body == "JOIN tc-1"


def test_a_bad_date_is_no_date() -> None:
    assert parse_mail(mail("x", headers="Date: yesterday-ish\n")).date is None


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"   \n\n",
        b"JOIN tc-1\n",  # no header fields at all
        b"Subject: hello\n\nJOIN tc-1\n",  # no From
        b"From: <<>>@@\nSubject: hello\n\nJOIN tc-1\n",  # a From with no address in it
    ],
)
def test_a_mail_without_a_readable_sender_raises_malformed_mail_without_one(raw: bytes) -> None:
    with pytest.raises(MalformedMail) as caught:
        parse_mail(raw)
    assert caught.value.sender is None


def test_a_broken_from_header_still_yields_the_address() -> None:
    assert parse_mail(b'From: "Bob" <BOB@example.org\n\nx\n').sender == "bob@example.org"


def test_an_encrypted_mail_raises_malformed_mail_with_the_sender() -> None:
    raw = mail(
        "--E\nContent-Type: application/pgp-encrypted\n\nVersion: 1\n--E--\n",
        content_type='multipart/encrypted; protocol="application/pgp-encrypted"; boundary="E"',
    )
    with pytest.raises(MalformedMail, match="encrypted") as caught:
        parse_mail(raw)
    assert caught.value.sender == "alice@example.org"


def test_policy_headers_are_read_lower_cased() -> None:
    raw = mail(
        "x",
        headers=(
            "Auto-Submitted: Auto-Replied\nPrecedence: Bulk\nList-Id: <Games.example.org>\n"
            "X-Autoreply: yes\nX-Autorespond: yes\nX-Auto-Response-Suppress: All\nReturn-Path: <>\n"
        ),
    )
    parsed = parse_mail(raw)
    assert parsed.auto_submitted == "auto-replied"
    assert parsed.precedence == "bulk"
    assert parsed.list_id == "<games.example.org>"
    assert (parsed.x_autoreply, parsed.x_autorespond, parsed.x_auto_response_suppress) == ("yes", "yes", "all")
    assert parsed.return_path == ""


def test_a_delivery_report_keeps_its_content_and_report_type() -> None:
    raw = mail(
        "--R\nContent-Type: text/plain\n\nDelivery failed\n--R\nContent-Type: message/delivery-status\n\n"
        "Reporting-MTA: dns; mx.example.org\n--R--\n",
        content_type='multipart/report; report-type="delivery-status"; boundary="R"',
    )
    parsed = parse_mail(raw)
    assert (parsed.content_type, parsed.report_type) == ("multipart/report", "delivery-status")
    assert parsed.body == "Delivery failed"


@pytest.mark.parametrize(
    ("subject", "tag"),
    [
        ("[tc-1] Turn 3", "tc-1"),
        ("Re: [TC-1] Turn 3", "tc-1"),
        ("AW: Fwd: RE: [tc-1] Turn 3", "tc-1"),
        ("Re[2]: [tc-1] Turn 3", "tc-1"),
        ("Re: orders for [farm7] please", "farm7"),
        ("Re: no tag here", None),
        ("Re: [not a tag!]", None),
        ("", None),
    ],
)
def test_subject_tag_finds_the_game_behind_reply_prefixes(subject: str, tag: str | None) -> None:
    assert subject_tag(subject) == tag


def test_html_tags_whose_quoted_attributes_hold_angle_brackets_are_read_as_tags() -> None:
    page = ('<blockquote type="cite" cite="mid:<r1@pbem.test>"><pre>old report</pre></blockquote>'
            "<p title='a > b'>FEED F1</p>stray < and <a and <!-- an unclosed comment")
    assert html_to_text(page) == "> old report\nFEED F1\nstray < and <a and"
