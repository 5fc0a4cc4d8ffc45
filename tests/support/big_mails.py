"""Whole mails of the shapes that once took seconds per MB to read, built at any size, and the reading that
handling gives a mail that is not oversized.

Used by tests/mail/test_big_mail_linear_time.py (time linear in the size, up to 1 MB) and by
bench/bench_reading.py (ms per MB); not a test module. Honest mail (newsletters, HTML only, quoted-printable
and base64 bodies, many parts, alternatives within mixed) and hostile mail (nested or unclosed tags, runs of
``<br>`` and of line breaks, long lines, character references, header blocks of a delivery report,
attribution lines).
"""

from __future__ import annotations

import base64
import quopri
from collections.abc import Callable

from pbem.mail.commands.script import parse_script
from pbem.mail.handling.incoming import read_incoming
from pbem.mail.reading.authresults import from_fails_dmarc
from pbem.mail.reading.parse import MalformedMail, subject_tag

TRUSTED = ("mx.pbem.test",)
"""The receiving server whose Authentication-Results field the mails hold (so that it is read)."""
HEAD = ("From: Alice <alice@example.org>\r\nTo: gm@pbem.test\r\nSubject: Re: [tc-1] Turn 3\r\n"
        "Message-ID: <m1@example.org>\r\nDate: Tue, 24 Nov 2026 10:00:00 +0100\r\n"
        f"Authentication-Results: {TRUSTED[0]}; dmarc=pass header.from=example.org\r\nMIME-Version: 1.0\r\n")
NEWSLETTER_ITEM = (
    '<tr><td class="item" style="padding:12px 24px;font-family:Arial,sans-serif;color:#333333">\n'
    '<h2 style="margin:0 0 8px 0"><a href="https://news.example.org/a?id=42&amp;utm_source=mail">'
    "This week&rsquo;s news &amp; more</a></h2>\n"
    "<p>Lorem ipsum dolor sit amet, <b>consectetur</b> adipiscing elit, sed do eiusmod tempor &mdash; "
    "incididunt ut <i>labore</i> et dolore magna aliqua.<br>\nUt enim ad minim veniam, quis nostrud.</p>\n"
    '<table role="presentation" width="100%"><tr><td><img src="https://news.example.org/i.png" alt="" '
    'width="120"></td><td>&nbsp;Caf&eacute; &euro; 12,50 &ndash; <span style="color:red">offer</span></td>'
    "</tr></table>\n</td></tr>\n"
)


def read_as_handling(raw: bytes) -> None:
    """Read ``raw`` as :meth:`pbem.mail.handling.handler.MailHandler._handle` reads a mail that is not oversized: the mail,
    the Authentication-Results verdict, whether it holds a password, and the command script of its text."""
    try:
        mail = read_incoming(raw, size=len(raw), oversized=False, bounced_mail=lambda address: None)
    except MalformedMail:
        return
    from_fails_dmarc(mail.auth_results, TRUSTED)
    parse_script(mail.body, token_seat=True, game=subject_tag(mail.subject))


def _repeat(unit: str, size: int) -> str:
    return unit * max(1, size // len(unit))


_ENCODERS: dict[str, Callable[[bytes], bytes]] = {
    "8bit": lambda data: data, "quoted-printable": quopri.encodestring, "base64": base64.encodebytes}


def _single(content_type: str, text: str, encoding: str = "8bit") -> bytes:
    """A mail of one part: ``HELP`` and ``text``, encoded for transport by ``encoding``."""
    body = _ENCODERS[encoding](f"HELP\r\n{text}\r\n".encode()).decode()
    return (f"{HEAD}Content-Type: {content_type}; charset=utf-8\r\nContent-Transfer-Encoding: {encoding}\r\n\r\n"
            f"{body}").encode()


def _html(body: str, encoding: str = "8bit") -> bytes:
    return _single("text/html", f"<html><head><style>td {{color: red}}</style></head><body>{body}</body></html>",
                   encoding)


def _multipart(subtype: str, parts: list[tuple[str, str]], boundary: str = "b") -> bytes:
    """A mail of one multipart, each part (its Content-Type, its body)."""
    inner = "".join(f"--{boundary}\r\nContent-Type: {kind}\r\n\r\n{body}\r\n" for kind, body in parts)
    return f'{HEAD}Content-Type: multipart/{subtype}; boundary="{boundary}"\r\n\r\n{inner}--{boundary}--\r\n'.encode()


def _parts(kind: str, body: str, size: int) -> bytes:
    return _multipart("mixed", [(f"{kind}; charset=utf-8", body)] * max(1, size // (len(body) + 40)))


def _alternatives_in_mixed(size: int) -> bytes:
    html = "<p>Orders<br>MOVE a1-a2</p>" * 8
    plain = "Orders\r\nMOVE a1-a2\r\n" * 8
    one = "".join(f"--a\r\nContent-Type: {kind}; charset=utf-8\r\n\r\n{body}\r\n"
                  for kind, body in (("text/plain", plain), ("text/html", html))) + "--a--\r\n"
    return _multipart("mixed", [('multipart/alternative; boundary="a"', one)] * max(1, size // (len(one) + 80)))


def _newsletter(size: int) -> bytes:
    """A newsletter: a text/plain and a quoted-printable HTML alternative."""
    html = ('<html><head><style>.item{color:#333}</style></head><body><table width="100%">\n'
            + _repeat(NEWSLETTER_ITEM, size // 2) + "</table></body></html>")
    text = _repeat("This week's news & more\r\nLorem ipsum dolor sit amet, consectetur adipiscing elit.\r\n",
                   size // 3)
    return _multipart("alternative", [
        ("text/plain; charset=utf-8", text),
        ("text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable",
         quopri.encodestring(html.encode()).decode())])


def _delivery_report(size: int) -> bytes:
    """A delivery report whose status part is empty lines (each one a block of header fields)."""
    return _multipart("report; report-type=delivery-status", [
        ("text/plain", "Delivery failed."), ("message/delivery-status", "\r\n" * (size // 2))])


SHAPES: dict[str, Callable[[int], bytes]] = {
    "newsletter (plain + QP HTML)": _newsletter,
    "HTML newsletter only, QP": lambda size: _html(_repeat(NEWSLETTER_ITEM, size * 3 // 4), "quoted-printable"),
    "HTML newsletter only, base64": lambda size: _html(_repeat(NEWSLETTER_ITEM, size * 3 // 4), "base64"),
    "text/plain parts": lambda size: _parts("text/plain", "MOVE a1-a2\r\n", size),
    "text/html parts": lambda size: _parts("text/html", "<p>MOVE a1-a2</p>", size),
    "alternatives in mixed": _alternatives_in_mixed,
    "plain QP": lambda size: _single("text/plain", _repeat("Caf\u00e9 MOVE a1-a2 \u20ac\n", size // 2),
                                     "quoted-printable"),
    "plain base64": lambda size: _single("text/plain", _repeat("MOVE a1-a2\n", size * 3 // 4), "base64"),
    "<div> nested deep": lambda size: _html("<div>" * (size // 11) + "HELP" + "</div>" * (size // 11)),
    "<b><i><u> unclosed": lambda size: _html(_repeat("<b><i><u>x", size)),
    "<br> runs": lambda size: _html(_repeat("<br>", size)),
    "text<br> lines": lambda size: _html(_repeat("MOVE a1-a2<br>\n", size)),
    "HTML line breaks": lambda size: _html("HELP" + "\n" * size),
    "plain line breaks": lambda size: _single("text/plain", "\r\n" * (size // 2)),
    "plain long line": lambda size: _single("text/plain", _repeat("word ", size)),
    "HTML long line": lambda size: _html(_repeat("word ", size)),
    "HTML character references": lambda size: _html(_repeat("&amp;&lt;&#233;&eacute;&#x20AC;&nbsp;", size)),
    "attribution lines": lambda size: _single("text/plain", _repeat("On Monday Bob\r\n> wrote:\r\n", size)),
    "delivery report of empty lines": _delivery_report,
}
"""Each shape's mail of about ``size`` bytes."""
