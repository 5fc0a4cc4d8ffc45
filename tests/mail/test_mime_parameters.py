"""read_mime_value and canonical_field: MIME parameters read by pbem in one pass, written back short."""

from __future__ import annotations

from email.message import Message

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.reading.mime_parameters import MAX_SECTIONS, MAX_VALUE, MimeValue, canonical_field, read_mime_value

TYPE_PARAMETERS = frozenset({"charset", "boundary", "report-type", "name"})


def test_a_content_type_gives_its_lower_cased_type_and_the_parameters_asked_for() -> None:
    read = read_mime_value('Multipart/Report; Report-Type=delivery-status;\r\n\tboundary="=_b 1"; x=y',
                           TYPE_PARAMETERS)
    assert read == MimeValue("multipart/report", {"report-type": "delivery-status", "boundary": "=_b 1"})


def test_a_quoted_value_keeps_its_semicolons_and_loses_its_escapes() -> None:
    read = read_mime_value(r'text/plain; name="a;b \"c\" d\\"; charset=latin-1', TYPE_PARAMETERS)
    assert read.parameters == {"name": 'a;b "c" d\\', "charset": "latin-1"}


def test_an_unclosed_quote_runs_to_the_end_of_the_field() -> None:
    read = read_mime_value('text/plain; charset=utf-8; x="' + ";" * 1000 + "; name=n", TYPE_PARAMETERS)
    assert read.parameters == {"charset": "utf-8"}


def test_the_first_of_a_repeated_parameter_is_kept_and_a_plain_one_wins_over_rfc2231() -> None:
    read = read_mime_value("text/plain; charset=a; charset=b; name*=utf-8''x; name=y", TYPE_PARAMETERS)
    assert read.parameters == {"charset": "a", "name": "y"}


def test_rfc2231_sections_are_joined_in_order_and_decoded_in_the_charset_of_the_first() -> None:
    field = ("attachment; filename*1*=%20rates%E2%82%AC.txt;\r\n filename*0*=utf-8'en'%E2%82%AC;"
             ' filename*2=" (final)"')
    assert read_mime_value(field, frozenset({"filename"})).parameters == {"filename": "€ rates€.txt (final)"}


def test_an_rfc2231_value_in_a_single_section_and_one_without_a_charset_are_decoded() -> None:
    assert read_mime_value("text/plain; charset*=''utf-8", TYPE_PARAMETERS).parameters == {"charset": "utf-8"}
    read = read_mime_value("text/plain; name*=iso-8859-1''%E9t%E9.txt", TYPE_PARAMETERS)
    assert read.parameters == {"name": "été.txt"}


def test_mixed_and_numberless_sections_and_huge_section_numbers_are_read_without_error() -> None:
    # The standard library raised TypeError for name* next to name*0, and ValueError for a number over
    # 4,300 digits; sections from MAX_SECTIONS on, and numbers of more than four digits, are ignored.
    field = (f"text/plain; boundary*=x; boundary*0=y; name*{'9' * 5000}=z; name*{MAX_SECTIONS}=late;"
             " name*1=b; name*0=a")
    assert read_mime_value(field, TYPE_PARAMETERS).parameters == {"boundary": "x", "name": "ab"}


def test_long_values_are_cut() -> None:
    read = read_mime_value(f'text/plain; name="{"n" * 5000}"', TYPE_PARAMETERS)
    assert read.parameters == {"name": "n" * MAX_VALUE}


def test_junk_between_parameters_is_read_past() -> None:
    read = read_mime_value('text/plain;; "junk" ; =x; charset = "utf-8" trailing ;\r\n boundary=b', TYPE_PARAMETERS)
    assert read.parameters == {"charset": "utf-8", "boundary": "b"}


def test_a_field_without_a_valid_type_is_written_as_the_standard_library_reads_it() -> None:
    assert canonical_field(MimeValue("text", {"charset": "x"}), is_type=True) == 'text/plain; charset="x"'
    assert canonical_field(MimeValue("text / plain", {}), is_type=True) == "application/octet-stream"
    assert canonical_field(MimeValue("", {"filename": "a"}), is_type=False) == 'inline; filename="a"'


def test_the_canonical_field_drops_quotes_backslashes_and_control_characters_from_values() -> None:
    written = canonical_field(MimeValue("text/plain", {"name": 'a"b\\c\r\nd;e'}), is_type=True)
    assert written == 'text/plain; name="abcd;e"'


VALUES = st.text(st.characters(codec="utf-8", exclude_characters='"\\', exclude_categories=("Cc", "Cs")),
                 max_size=40)


@settings(max_examples=200)
@given(kind=st.sampled_from(["text/plain", "multipart/mixed", "message/rfc822", "application/x-y.z+w"]),
       parameters=st.dictionaries(st.sampled_from(sorted(TYPE_PARAMETERS)), VALUES, max_size=4))
def test_the_standard_library_reads_a_canonical_field_to_the_same_type_and_values(
        kind: str, parameters: dict[str, str]) -> None:
    message = Message()
    message["Content-Type"] = canonical_field(MimeValue(kind, parameters), is_type=True)
    assert message.get_content_type() == kind
    for name, value in parameters.items():
        assert message.get_param(name) == value
    assert read_mime_value(message["Content-Type"], TYPE_PARAMETERS) == MimeValue(kind, parameters)


FIELD_TEXT = st.lists(st.sampled_from(["*", "*0*", "*1", "=", "''", "'", "%", "%E2", ";", '"', "\\", " ", "\r\n ",
                                       "name", "filename", "charset", "utf-8", "\udce9", "\x00", "é"])
                      | st.text(max_size=3), max_size=30).map("".join)


@settings(max_examples=300)
@given(text=FIELD_TEXT)
def test_any_field_is_read_without_error_and_written_back_safe(text: str) -> None:
    for is_type, wanted in ((True, TYPE_PARAMETERS), (False, frozenset({"filename"}))):
        read = read_mime_value(text, wanted)
        assert set(read.parameters) <= wanted
        written = canonical_field(read, is_type=is_type)
        assert "\r" not in written and "\n" not in written and written.count('"') == 2 * len(read.parameters)


def test_raw_8bit_bytes_in_an_rfc2231_value_are_read() -> None:
    read = read_mime_value("text/plain; name*=utf-8''caf\udce9; charset*=\udce9''x", TYPE_PARAMETERS)
    assert read.parameters == {"name": "caf\ufffd", "charset": "x"}
