"""Where the mail servers are: IMAP and SMTP settings parsed from URLs.

Formats::

    imap://USER:PASSWORD@HOST[:PORT][/MAILBOX][?insecure]     plain IMAP, port 143
    imaps://USER:PASSWORD@HOST[:PORT][/MAILBOX][?insecure]    IMAP over TLS, port 993
    smtp://[USER:PASSWORD@]HOST[:PORT]                       plain SMTP, port 25
    smtp://[USER:PASSWORD@]HOST[:PORT]?starttls[&insecure]    STARTTLS required, port 587
    smtps://[USER:PASSWORD@]HOST[:PORT][?insecure]            SMTP over TLS, port 465

User, password and mailbox are percent-decoded, so a login that is a whole
address is written ``alice%40example.org`` (a bare ``@`` also works: the last
``@`` ends the user part). The mailbox defaults to ``INBOX``.

``?insecure`` turns off certificate and host name verification. It exists for
tests against a server with a self-signed certificate on this machine, so it
is only accepted when the host is a loopback address (``localhost``,
``127.0.0.0/8``, ``::1``).
"""

from __future__ import annotations

import ipaddress
import ssl
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import parse_qs, quote, unquote, urlsplit

__all__ = ["BadMailUrl", "ImapUrl", "SmtpSecurity", "SmtpUrl"]

SmtpSecurity = Literal["plain", "starttls", "tls"]

_IMAP_PORTS = {"imap": 143, "imaps": 993}
_SMTP_PORTS = {"plain": 25, "starttls": 587, "tls": 465}


class BadMailUrl(ValueError):
    """A mail server URL that cannot be used; the message quotes the URL (password hidden)."""


def _hide_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    userinfo, hostport = parts.netloc.rsplit("@", 1)
    return url.replace(parts.netloc, f"{userinfo.split(':', 1)[0]}:***@{hostport}", 1)


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _flags(url: str, query: str, allowed: set[str]) -> set[str]:
    """Return the query's flag names (``?a&b``); raise BadMailUrl on unknown ones or values."""
    flags: set[str] = set()
    for name, values in parse_qs(query, keep_blank_values=True).items():
        if name not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            raise BadMailUrl(f"{_hide_password(url)}: unknown option {name!r} (known: {known})")
        if values != [""]:
            raise BadMailUrl(f"{_hide_password(url)}: option {name!r} takes no value")
        flags.add(name)
    return flags


@dataclass(frozen=True)
class _Split:
    scheme: str
    host: str
    port: int | None
    user: str | None
    password: str | None
    path: str
    flags: set[str]


def _split(url: str, schemes: set[str], allowed_flags: set[str]) -> _Split:
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise BadMailUrl(f"{_hide_password(url)}: {exc}") from None
    scheme = parts.scheme.lower()
    if scheme not in schemes:
        wanted = " or ".join(f"{s}://" for s in sorted(schemes))
        raise BadMailUrl(f"{_hide_password(url)}: expected a URL starting with {wanted}")
    if not parts.hostname:
        raise BadMailUrl(f"{_hide_password(url)}: no host")
    if parts.fragment:
        raise BadMailUrl(f"{_hide_password(url)}: unexpected '#{parts.fragment}'")
    flags = _flags(url, parts.query, allowed_flags)
    if "insecure" in flags and not _is_loopback(parts.hostname):
        raise BadMailUrl(
            f"{_hide_password(url)}: ?insecure (no certificate check) is only allowed "
            "for a loopback host"
        )
    user = unquote(parts.username) if parts.username is not None else None
    password = unquote(parts.password) if parts.password is not None else None
    return _Split(scheme, parts.hostname, port, user or None, password, unquote(parts.path), flags)


def _client_context(insecure: bool) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH)
    if insecure:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    return context


def _netloc(user: str | None, password: str | None, host: str, port: int) -> str:
    host_part = f"[{host}]" if ":" in host else host
    if user is None:
        return f"{host_part}:{port}"
    return f"{quote(user, safe='')}:{quote(password or '', safe='')}@{host_part}:{port}"


@dataclass(frozen=True)
class ImapUrl:
    """An IMAP account and mailbox. ``str()`` gives the URL with the password hidden."""

    host: str
    port: int
    user: str
    password: str = field(repr=False)
    mailbox: str = "INBOX"
    tls: bool = False
    insecure: bool = False

    @classmethod
    def parse(cls, url: str) -> ImapUrl:
        """Parse ``imap://`` or ``imaps://`` (see the module docstring).

        Raises BadMailUrl when the scheme, port or an option is wrong, or the
        user or password is missing.
        """
        split = _split(url, set(_IMAP_PORTS), {"insecure"})
        if split.user is None or split.password is None:
            raise BadMailUrl(f"{_hide_password(url)}: IMAP needs user:password@ before the host")
        mailbox = split.path.lstrip("/") or "INBOX"
        return cls(
            host=split.host,
            port=split.port or _IMAP_PORTS[split.scheme],
            user=split.user,
            password=split.password,
            mailbox=mailbox,
            tls=split.scheme == "imaps",
            insecure="insecure" in split.flags,
        )

    def ssl_context(self) -> ssl.SSLContext | None:
        """A client TLS context for imaps:// (verification off with ?insecure); None for imap://."""
        return _client_context(self.insecure) if self.tls else None

    def to_url(self) -> str:
        """The URL with the password in clear, so that ``ImapUrl.parse(u.to_url()) == u``."""
        scheme = "imaps" if self.tls else "imap"
        query = "?insecure" if self.insecure else ""
        mailbox = quote(self.mailbox, safe="")
        return f"{scheme}://{_netloc(self.user, self.password, self.host, self.port)}/{mailbox}{query}"

    def __str__(self) -> str:
        return _hide_password(self.to_url())


@dataclass(frozen=True)
class SmtpUrl:
    """An SMTP submission server. ``str()`` gives the URL with the password hidden."""

    host: str
    port: int
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    security: SmtpSecurity = "plain"
    insecure: bool = False

    @classmethod
    def parse(cls, url: str) -> SmtpUrl:
        """Parse ``smtp://`` or ``smtps://`` (see the module docstring).

        Raises BadMailUrl when the scheme, port or an option is wrong, when a
        user comes without a password, or on ``smtps://...?starttls``.
        """
        split = _split(url, {"smtp", "smtps"}, {"insecure", "starttls"})
        if split.user is not None and split.password is None:
            raise BadMailUrl(f"{_hide_password(url)}: a user needs a password (user:password@)")
        if split.path not in ("", "/"):
            raise BadMailUrl(f"{_hide_password(url)}: an SMTP URL has no path ({split.path!r})")
        security: SmtpSecurity
        if split.scheme == "smtps":
            if "starttls" in split.flags:
                raise BadMailUrl(f"{_hide_password(url)}: smtps:// is already TLS; drop ?starttls")
            security = "tls"
        else:
            security = "starttls" if "starttls" in split.flags else "plain"
        return cls(
            host=split.host,
            port=split.port or _SMTP_PORTS[security],
            user=split.user,
            password=split.password,
            security=security,
            insecure="insecure" in split.flags,
        )

    def ssl_context(self) -> ssl.SSLContext | None:
        """A client TLS context for smtps:// or ?starttls (verification off with ?insecure)."""
        return _client_context(self.insecure) if self.security != "plain" else None

    def to_url(self) -> str:
        """The URL with the password in clear, so that ``SmtpUrl.parse(u.to_url()) == u``."""
        scheme = "smtps" if self.security == "tls" else "smtp"
        flags = (["starttls"] if self.security == "starttls" else []) + (
            ["insecure"] if self.insecure else []
        )
        query = "?" + "&".join(flags) if flags else ""
        return f"{scheme}://{_netloc(self.user, self.password, self.host, self.port)}{query}"

    def __str__(self) -> str:
        return _hide_password(self.to_url())


_PERIODS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600, "hour": 3600,
            "d": 86400, "day": 86400}


@dataclass(frozen=True)
class SendRate:
    """At most ``count`` mails sent in any ``seconds`` seconds (``pbem serve --send-rate 500/day``)."""

    count: int
    seconds: int

    @classmethod
    def parse(cls, text: str) -> SendRate:
        """Read ``N/PERIOD`` (PERIOD: second, minute, hour or day, or s, m, h, d; e.g. ``500/day``,
        ``20/minute``). Raises BadMailUrl (a ValueError) saying what is wrong: N from 1 to 1,000,000."""
        count, _, period = text.strip().lower().partition("/")
        period = period.strip()
        seconds = _PERIODS.get(period, _PERIODS.get(period.removesuffix("s")) if len(period) > 2 else None)
        if not count.strip().isdigit() or seconds is None or not 1 <= int(count) <= 1_000_000:
            raise BadMailUrl(f"--send-rate {text}: give N/PERIOD with N from 1 to 1000000 and PERIOD second, "
                             "minute, hour or day, e.g. 500/day")
        return cls(int(count), seconds)

    def __str__(self) -> str:
        names = {1: "second", 60: "minute", 3600: "hour", 86400: "day"}
        return f"{self.count}/{names[self.seconds]}"
