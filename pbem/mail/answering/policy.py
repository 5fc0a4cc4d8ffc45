"""Which mail the game master must never answer, and how much it answers at all.

Answering the wrong mail starts a mail loop: two robots answering each other
for ever. So bounces, auto-replies, bulk and list mail, and mail from our own
addresses are never answered (:func:`never_answer_reason`); a sender that
floods us is answered at most N times per window (:class:`RateLimiter`); and
mail over the size limit is not read (:func:`is_oversized`, 1 MB by default).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from datetime import datetime, timedelta

from pbem.mail.reading.bounded_mime import DEFAULT_MAX_SIZE
from pbem.mail.reading.parse import IncomingMail


_BOUNCE_SENDERS = frozenset({"mailer-daemon", "postmaster"})
_BULK_PRECEDENCE = frozenset({"bulk", "list", "junk"})
_AUTO_SUBJECT = re.compile(
    r"^\s*(?:auto(?:matic)?[\s-]*(?:reply|response|antwort)|out of (?:the )?office|abwesenheit"
    r"|r[ée]ponse automatique|autosvar|respuesta autom[áa]tica|vacation)",
    re.I,
)


def never_answer_reason(mail: IncomingMail, own_addresses: Iterable[str]) -> str | None:
    """Return why ``mail`` must not be answered, or ``None`` when it may be.

    Never answered: mail from one of ``own_addresses`` or a plus variant of
    one (``gm+anything@domain``); bounces (From MAILER-DAEMON or postmaster,
    the null Return-Path ``<>``, ``multipart/report`` delivery and read
    reports); auto-replies (``Auto-Submitted`` other than ``no``,
    ``X-Autoreply``, ``X-Autorespond``, or an "Out of Office" style subject
    together with ``X-Auto-Response-Suppress`` or a ``Precedence`` header);
    ``Precedence: bulk/list/junk``; and mailing-list mail (``List-Id``).
    A subject alone never drops a player's mail.
    """
    local = mail.sender.partition("@")[0]
    own = {_without_plus(address.strip().lower()) for address in own_addresses}
    if _without_plus(mail.sender) in own:
        return f"mail from our own address {mail.sender}"
    if local in _BOUNCE_SENDERS:
        return f"bounce from {mail.sender}"
    if mail.return_path == "":
        return "bounce: the Return-Path is empty (<>)"
    if mail.content_type in ("multipart/report", "message/delivery-status"):
        return f"delivery or read report ({mail.content_type}; report-type={mail.report_type})"
    if mail.auto_submitted is not None and mail.auto_submitted.split(";")[0].split("(")[0].strip() != "no":
        return f"automatic mail (Auto-Submitted: {mail.auto_submitted})"
    if mail.x_autoreply is not None or mail.x_autorespond is not None:
        return "automatic reply (X-Autoreply or X-Autorespond)"
    if mail.precedence in _BULK_PRECEDENCE:
        return f"bulk mail (Precedence: {mail.precedence})"
    if _AUTO_SUBJECT.match(mail.subject) and (mail.x_auto_response_suppress is not None or mail.precedence):
        return f"automatic reply (subject {mail.subject!r} with an auto-reply header)"
    if mail.list_id is not None:
        return f"mailing-list mail (List-Id: {mail.list_id})"
    return None


def _without_plus(address: str) -> str:
    local, at, domain = address.partition("@")
    return local.split("+", 1)[0] + at + domain


def is_oversized(size: int, limit: int = DEFAULT_MAX_SIZE) -> bool:
    """True when a raw mail of ``size`` bytes is over ``limit`` (default 1 MB, :data:`DEFAULT_MAX_SIZE`)."""
    return size > limit


class RateLimiter:
    """Per-sender sliding window: at most ``max_mails`` answered mails per ``window``.

    Pure apart from its own memory: the time is passed in, nothing is read
    from a clock. Only counted mails count (:meth:`allow` checks and counts
    at once; :meth:`is_limited` and :meth:`count` do it in two steps, for a
    caller that decides after handling a mail whether it counts), so a sender
    who keeps flooding is allowed again as soon as their older mails leave
    the window. Senders with nothing in the window are forgotten once per window.
    """

    def __init__(self, *, max_mails: int = 20, window: timedelta = timedelta(hours=1)) -> None:
        """Raises ``ValueError`` unless ``max_mails`` and ``window`` are positive."""
        if max_mails < 1 or window <= timedelta(0):
            raise ValueError(f"a rate limit needs max_mails >= 1 and a positive window, not {max_mails}/{window}")
        self.max_mails = max_mails
        self.window = window
        self._seen: dict[str, deque[datetime]] = {}
        self._next_sweep: datetime | None = None
        self._told: dict[str, datetime] = {}  # sender -> until when their refusal was announced

    def allow(self, sender: str, now: datetime) -> bool:
        """Return True and count the mail when ``sender`` is under the limit at ``now``, else False."""
        if self.is_limited(sender, now):
            return False
        self.count(sender, now)
        return True

    def is_limited(self, sender: str, now: datetime) -> bool:
        """True when ``sender`` has ``max_mails`` counted mails in the window ending at ``now``; counts nothing."""
        return len(self._recent(sender, now)) >= self.max_mails

    def first_refusal(self, sender: str, now: datetime) -> datetime | None:
        """When ``sender`` is limited at ``now`` and was not told yet during this pause: return when their
        mail is answered again (and remember that they were told); else None."""
        key = sender.strip().lower()
        told = self._told.get(key)
        if told is not None and now < told:
            return None
        times = self._recent(sender, now)
        if len(times) < self.max_mails:
            return None
        resume = times[len(times) - self.max_mails] + self.window
        self._told[key] = resume
        return resume

    def count(self, sender: str, now: datetime) -> None:
        """Count one mail of ``sender`` at ``now``."""
        self._recent(sender, now).append(now)

    def _recent(self, sender: str, now: datetime) -> deque[datetime]:
        self._sweep(now)
        times = self._seen.setdefault(sender.strip().lower(), deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        return times

    def _sweep(self, now: datetime) -> None:
        if self._next_sweep is not None and now < self._next_sweep:
            return
        horizon = now - self.window
        self._seen = {key: times for key, times in self._seen.items() if times and times[-1] > horizon}
        self._told = {key: until for key, until in self._told.items() if until > now}
        self._next_sweep = now + self.window
