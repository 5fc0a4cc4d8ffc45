"""IMAP and SMTP URLs: defaults, decoding, TLS options, and the errors for bad ones."""

from __future__ import annotations

import ssl

import pytest

from pbem.mail.outbound.config import BadMailUrl, ImapUrl, SmtpUrl


def test_imap_url_defaults_port_and_mailbox() -> None:
    url = ImapUrl.parse("imap://gm:secret@mail.example.org")
    assert (url.host, url.port, url.user, url.password, url.mailbox, url.tls) == (
        "mail.example.org", 143, "gm", "secret", "INBOX", False)
    assert url.ssl_context() is None


def test_imaps_url_uses_tls_port_and_verifies_certificates() -> None:
    url = ImapUrl.parse("imaps://gm:secret@mail.example.org/Games")
    assert (url.port, url.mailbox, url.tls) == (993, "Games", True)
    context = url.ssl_context()
    assert context is not None and context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname


def test_imap_url_percent_decodes_user_password_and_mailbox() -> None:
    url = ImapUrl.parse("imap://gm%40example.org:p%40ss%3Aword@127.0.0.1:1143/Games%2FOrders")
    assert (url.user, url.password, url.port, url.mailbox) == (
        "gm@example.org", "p@ss:word", 1143, "Games/Orders")


def test_imap_url_round_trips_through_to_url() -> None:
    url = ImapUrl.parse("imaps://gm%40example.org:p%2Fw@localhost:10993/INBOX?insecure")
    assert ImapUrl.parse(url.to_url()) == url


def test_str_and_repr_hide_the_password() -> None:
    url = ImapUrl.parse("imap://gm:topsecret@127.0.0.1/INBOX")
    smtp = SmtpUrl.parse("smtp://gm:topsecret@127.0.0.1")
    for text in (str(url), repr(url), str(smtp), repr(smtp)):
        assert "topsecret" not in text


def test_insecure_turns_off_verification_on_loopback() -> None:
    context = ImapUrl.parse("imaps://gm:pw@127.0.0.1:10993?insecure").ssl_context()
    assert context is not None and context.verify_mode == ssl.CERT_NONE
    assert not context.check_hostname


def test_insecure_is_refused_for_a_remote_host() -> None:
    with pytest.raises(BadMailUrl, match="loopback"):
        ImapUrl.parse("imaps://gm:pw@mail.example.org?insecure")


@pytest.mark.parametrize(
    ("url", "security", "port"),
    [
        ("smtp://mail.example.org", "plain", 25),
        ("smtp://mail.example.org?starttls", "starttls", 587),
        ("smtps://mail.example.org", "tls", 465),
        ("smtp://127.0.0.1:2525", "plain", 2525),
    ],
)
def test_smtp_url_security_and_default_ports(url: str, security: str, port: int) -> None:
    parsed = SmtpUrl.parse(url)
    assert (parsed.security, parsed.port, parsed.user, parsed.password) == (security, port, None, None)
    assert SmtpUrl.parse(parsed.to_url()) == parsed


def test_smtp_url_with_login() -> None:
    url = SmtpUrl.parse("smtp://gm%40example.org:pw@mail.example.org?starttls")
    assert (url.user, url.password) == ("gm@example.org", "pw")
    assert url.ssl_context() is not None


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://mail.example.org", "imap://"),
        ("imap://mail.example.org", "user:password"),
        ("imap://gm@mail.example.org", "user:password"),
        ("imap://gm:pw@mail.example.org:99999", "Port"),
        ("imap://gm:pw@mail.example.org?idle", "unknown option 'idle'"),
        ("imap://gm:pw@/INBOX", "no host"),
    ],
)
def test_bad_imap_urls_are_refused_with_a_reason(url: str, message: str) -> None:
    with pytest.raises(BadMailUrl, match=message):
        ImapUrl.parse(url)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("imap://mail.example.org", "smtp://"),
        ("smtp://gm@mail.example.org", "needs a password"),
        ("smtps://mail.example.org?starttls", "already TLS"),
        ("smtp://mail.example.org/path", "no path"),
        ("smtp://mail.example.org?starttls=yes", "takes no value"),
    ],
)
def test_bad_smtp_urls_are_refused_with_a_reason(url: str, message: str) -> None:
    with pytest.raises(BadMailUrl, match=message):
        SmtpUrl.parse(url)


def test_bad_url_message_hides_the_password() -> None:
    with pytest.raises(BadMailUrl) as caught:
        ImapUrl.parse("imap://gm:topsecret@mail.example.org:99999")
    assert "topsecret" not in str(caught.value)
