"""parse_mail's header fields: encoded words, folding, 8-bit bytes, addresses and dates as mailers write them."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta, timezone
from email.utils import getaddresses

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pbem.mail.reading.identity import identity_from
from pbem.mail.reading.parse import MalformedMail, _simple_mailboxes, parse_mail

_BASE: dict[str, str | bytes] = {
    "From": "Alice Example <alice@example.org>",
    "To": "gm@example.org",
    "Subject": "orders",
    "Message-ID": "<m1@example.org>",
}


def mail(*extra: tuple[str, str | bytes], **fields: str | bytes) -> bytes:
    """A raw mail from alice: ``fields`` replace or add header fields (``Message_ID`` is Message-ID),
    ``extra`` are added as they are (for repeated fields).

    Values may be bytes, for raw 8-bit text; a value with a newline and a space in it is folded there.
    """
    headers = {**_BASE, **{name.replace("_", "-"): value for name, value in fields.items()}}
    lines = [
        name.encode("ascii") + b": " + (value if isinstance(value, bytes) else value.encode("ascii"))
        for name, value in [*headers.items(), *extra]
    ]
    return b"\n".join(lines) + b"\n\nMOVE a1-a2\n"


# --- encoded words ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "subject",
    [
        "=?utf-8?q?Re:_[tc-1]_Z=C3=BCge?=",  # UTF-8, Q
        "=?UTF-8?B?UmU6IFt0Yy0xXSBaw7xnZQ==?=",  # UTF-8, B, upper case
        "=?iso-8859-1?Q?Re:_[tc-1]_Z=FCge?=",  # Latin-1, Q
        "=?iso-8859-1?b?UmU6IFt0Yy0xXSBa/Gdl?=",  # Latin-1, B
        "=?utf-8?b?UmU6IFt0Yy0xXSBaw7xnZQ?=",  # base64 padding missing
        "=?utf-8?q?Re:_[tc-1]?= =?utf-8?q?_Z=C3=BCge?=",  # the space between two words is not text
        "=?utf-8?q?Re:_[tc-1]_Z?=\n =?utf-8?q?=C3=BCge?=",  # folded between two words
        "Re: [tc-1] =?utf-8?q?Z=C3=BCge?=",  # plain text, then a word
        "=?utf-8*de?q?Re:_[tc-1]_Z=C3=BCge?=",  # RFC 2231 language suffix
    ],
)
def test_encoded_subjects_are_decoded(subject: str) -> None:
    assert parse_mail(mail(Subject=subject)).subject == "Re: [tc-1] Züge"


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        ("=?utf-8?q?Z=C3=BCge?= und =?utf-8?q?Z=C3=BCge?=", "Züge und Züge"),  # plain text between words stays
        ("=?utf-8?b?Q?=", "=?utf-8?b?Q?="),  # base64 that cannot be decoded: kept
        ("=?utf-8?q?Z=C3=BCge", "=?utf-8?q?Z=C3=BCge"),  # never closed: kept
        ("=?utf-8?x?Z=C3=BCge?=", "=?utf-8?x?Z=C3=BCge?="),  # no such encoding: kept
        ("=?x-no-such-charset?q?Z=C3=BCge?=", "Züge"),  # unknown charset: UTF-8 ...
        ("=?x-no-such-charset?q?Z=FCge?=", "Züge"),  # ... then Latin-1, as for bodies
        ("=?utf-8?q?Z=FCge?=", "Z\ufffdge"),  # bytes not in the declared charset
        ("=?base64?q?Z=C3=BCge?=", "Züge"),  # a codec, but not a text encoding
        ("=?idna?q?=FF?=", "ÿ"),  # a codec whose decoding raises UnicodeError
    ],
)
def test_odd_and_broken_encoded_words_never_raise(subject: str, expected: str) -> None:
    assert parse_mail(mail(Subject=subject)).subject == expected


@pytest.mark.parametrize(
    ("sender", "name"),
    [
        ("=?utf-8?q?J=C3=BCrgen_M=C3=BCller?= <j@example.org>", "Jürgen Müller"),
        ("=?ISO-8859-1?B?SvxyZ2VuIE38bGxlcg==?= <j@example.org>", "Jürgen Müller"),
        ("=?iso-8859-1?q?J=FCrgen?= =?utf-8?b?IE3DvGxsZXI=?= <j@example.org>", "Jürgen Müller"),
        ('"=?utf-8?q?J=C3=BCrgen_M=C3=BCller?=" <j@example.org>', "Jürgen Müller"),  # quoted, against the RFC
        ("J\u00fcrgen M\u00fcller <j@example.org>".encode(), "Jürgen Müller"),  # unencoded UTF-8
    ],
)
def test_encoded_display_names_are_decoded(sender: str | bytes, name: str) -> None:
    parsed = parse_mail(mail(From=sender))
    assert (parsed.sender, parsed.sender_name) == ("j@example.org", name)


def test_unencoded_latin1_and_mixed_subjects_are_read() -> None:
    assert parse_mail(mail(Subject=b"Re: [tc-1] Z\xfcge")).subject == "Re: [tc-1] Züge"
    # an encoded word keeps its charset when raw Latin-1 bytes sit next to it
    assert parse_mail(mail(Subject=b"=?utf-8?q?=E2=82=AC?= f\xfcr")).subject == "€ für"


def test_encoded_words_in_message_ids_are_not_decoded() -> None:
    raw = mail(Message_ID="<=?utf-8?q?x?=@example.org>", In_Reply_To="<=?utf-8?q?y?=@example.org>")
    parsed = parse_mail(raw)
    assert (parsed.message_id, parsed.in_reply_to) == ("<=?utf-8?q?x?=@example.org>", "<=?utf-8?q?y?=@example.org>")


# --- folding and empty fields ----------------------------------------------------------------


def test_folded_fields_are_unfolded() -> None:
    raw = mail(
        From="Alice\n Example\n <alice@example.org>",
        To="gm@example.org,\n\tbob@example.org",
        Subject="Re: [tc-1]\n Turn 3\n\tand more",
        Date="Tue, 24 Nov 2026\n 10:00:00 +0100",
        References="<p1@example.org>\n <p2@example.org>",
        List_Id="Games\n <games.example.org>",
    )
    parsed = parse_mail(raw)
    assert (parsed.sender, parsed.sender_name) == ("alice@example.org", "Alice Example")
    assert parsed.to == ("gm@example.org", "bob@example.org")
    assert parsed.subject == "Re: [tc-1] Turn 3\tand more"
    assert parsed.date == datetime(2026, 11, 24, 9, 0, tzinfo=UTC)
    assert parsed.references == ("<p1@example.org>", "<p2@example.org>")
    assert parsed.list_id == "games <games.example.org>"


def test_a_folded_content_type_is_read_on_one_line() -> None:
    raw = mail(Content_Type="text/plain;\n charset=iso-8859-1", Content_Transfer_Encoding="8bit")
    raw = raw.replace(b"MOVE a1-a2", "MOVE Zürich".encode("latin-1"))
    assert parse_mail(raw).body == "MOVE Zürich"
    html = mail(Content_Type="\n text/html;\n charset=utf-8").replace(b"MOVE a1-a2", b"<p>MOVE a</p><p>PASS</p>")
    parsed = parse_mail(html)
    assert (parsed.content_type, parsed.body) == ("text/html", "MOVE a\nPASS")


def test_fields_that_are_present_but_empty_read_as_empty() -> None:
    raw = mail(Subject="", To="", Date="", In_Reply_To="", References="", Return_Path="", Precedence="")
    parsed = parse_mail(raw)
    assert (parsed.subject, parsed.to, parsed.date) == ("", (), None)
    assert (parsed.in_reply_to, parsed.references) == (None, ())
    assert (parsed.return_path, parsed.precedence) == ("", "")


def test_an_empty_message_id_is_generated() -> None:
    parsed = parse_mail(mail(Message_ID=""))
    assert parsed.message_id.endswith("@generated.pbem.invalid>")


def test_an_empty_from_falls_back_to_sender() -> None:
    assert parse_mail(mail(From="", Sender="Bob <bob@example.org>")).sender == "bob@example.org"
    with pytest.raises(MalformedMail) as caught:
        parse_mail(mail(From=""))
    assert caught.value.sender is None


# --- addresses -------------------------------------------------------------------------------


def test_an_undisclosed_recipients_group_has_no_addresses() -> None:
    parsed = parse_mail(mail(To="undisclosed-recipients:;", Cc="players: a@example.org, b@example.org;"))
    assert parsed.to == ()
    assert parsed.cc == ("a@example.org", "b@example.org")


@pytest.mark.parametrize(
    ("sender", "address", "name"),
    [
        ('"Doe, John" <JD@example.org>', "jd@example.org", "Doe, John"),  # quoted comma
        ('"Doe \\"JD\\" John" <jd@example.org>', "jd@example.org", 'Doe "JD" John'),  # quoted quotes
        ("Doe  John <jd@example.org>", "jd@example.org", "Doe John"),
        ("jd@example.org (John Doe)", "jd@example.org", "John Doe"),  # the old comment form names the sender
        ("<jd@example.org>", "jd@example.org", ""),
        ("jd@example.org", "jd@example.org", ""),
        ("John <jd@example.org>,", "jd@example.org", "John"),  # trailing comma: read on every Python
    ],
)
def test_sender_addresses_and_names(sender: str, address: str, name: str) -> None:
    parsed = parse_mail(mail(From=sender))
    assert (parsed.sender, parsed.sender_name) == (address, name)


def test_every_field_of_a_repeated_address_header_is_read() -> None:
    raw = mail(("To", "bob@example.org"), ("Delivered-To", "gm+a@example.org"), ("X-Original-To", "gm+b@example.org"))
    parsed = parse_mail(raw)
    assert parsed.to == ("gm@example.org", "bob@example.org")
    assert parsed.delivered_to == ("gm+a@example.org", "gm+b@example.org")


def test_8bit_domains_become_idna_and_8bit_local_parts_are_left_out() -> None:
    parsed = parse_mail(mail(To="gm@m\u00fcnchen.example, j\u00fcrgen@example.org, gm@example.org".encode()))
    assert parsed.to == ("gm@xn--mnchen-3ya.example", "gm@example.org")


_ATOM = st.text(alphabet="aZ09.-+_=?!#", min_size=0, max_size=6)
_ANY = st.text(alphabet=' \t"\\()<>@,:;.[]aZ=?\x0b\udcc3', min_size=0, max_size=6)
_MAILBOXES = st.one_of(
    st.builds("{}@{}".format, _ATOM, _ATOM),
    st.builds("{}{} <{}@{}>{}".format, _ANY, _ATOM, _ATOM, _ATOM, _ANY),
    st.builds('"{}" <{}@{}>'.format, _ANY, _ATOM, _ATOM),
    st.builds("{}{}{}".format, _ANY, _ATOM, _ANY),
)


@settings(max_examples=400, deadline=None)
@given(value=_MAILBOXES)
def test_the_plain_mailbox_shortcut_reads_what_getaddresses_reads(value: str) -> None:
    fast = _simple_mailboxes([value])
    assert fast is None or fast == getaddresses([value])


_ODD = st.text(alphabet=' \t"()<>@.aZ\x85\u2028\xa0\udcc3', min_size=0, max_size=6)


@settings(max_examples=400, deadline=None)
@given(value=st.one_of(_MAILBOXES, st.builds("{}<{}@{}>".format, _ODD, _ODD, _ODD),
                       st.builds("{}@{}".format, _ODD, _ODD)))
@example(value="a.\x85@example.org")  # getaddresses drops a Unicode blank after a dot
@example(value="Bob <a.\u2028@example.org>")
def test_the_stored_sender_is_the_first_address_getaddresses_reads(value: str) -> None:
    found = [address for _name, address in getaddresses([value]) if address]
    assert identity_from("<m1@example.org>", value, b"").sender == (found[0].strip().lower() if found else "")


# --- dates -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("date", "expected"),
    [
        ("Tue, 24 Nov 2026 10:00:00 +0100", datetime(2026, 11, 24, 10, 0, tzinfo=timezone(timedelta(hours=1)))),
        ("24 Nov 2026 10:00 -0500", datetime(2026, 11, 24, 15, 0, tzinfo=UTC)),
        ("Tue, 24 Nov 2026 10:00:00 -0000", datetime(2026, 11, 24, 10, 0, tzinfo=UTC)),  # unknown zone: UTC
        ("Tue, 24 Nov 2026 10:00:00", datetime(2026, 11, 24, 10, 0, tzinfo=UTC)),  # no zone: UTC
        ("yesterday-ish", None),
        ("Tue, 24 Nov 2026 25:61:00 +0000", None),  # no such time
        ("Tue, 24 Nov 2026 10:00:00 +9999", None),  # no such offset
        ("Tue, 24 Nov 99999999999999999999 10:00:00 +0000", None),  # no such year
    ],
)
def test_dates_are_read_and_unreadable_ones_are_none(date: str, expected: datetime | None) -> None:
    assert parse_mail(mail(Date=date)).date == expected


# --- hostile input ---------------------------------------------------------------------------

_HEADER_BYTES = st.lists(
    st.sampled_from(
        [b"a", b"Z", b" ", b"\t", b"\n ", b"\r\n\t", b"\xff", b"\xc3\xbc", b"=?", b"?=", b"=?utf-8?q?", b"=?x?b?",
         b"=FC", b"_", b"<", b">", b'"', b"\\", b"(", b")", b",", b":", b";", b"@", b"[", b".", b"\x00", b"\x1c"]
    ),
    max_size=24,
).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(["From", "To", "Subject", "Date", "Message-ID", "References", "Content-Type", "List-Id"]),
    value=_HEADER_BYTES,
)
def test_broken_header_fields_give_clean_text_or_malformed_mail(name: str, value: bytes) -> None:
    raw = mail(**{name.replace("-", "_"): value})
    try:
        parsed = parse_mail(raw)
    except MalformedMail:
        return
    for field in dataclasses.fields(parsed):
        content = getattr(parsed, field.name)
        texts = [text for text in (content if isinstance(content, tuple) else (content,)) if isinstance(text, str)]
        if field.name != "body":  # header text: no line breaks, no undecoded bytes (surrogate escapes)
            assert not any(char in "\r\n" or "\udc80" <= char <= "\udcff" for text in texts for char in text)
