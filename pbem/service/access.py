"""Passwords: a seat's (SIGNON) and the GM's, with lockouts after repeated wrong ones,
and the key version that reply addresses and private links of a seat are signed with."""

from __future__ import annotations

from typing import Any

from pbem.clock import format_utc
from pbem.core import GameError, PbemError
from pbem.lockout import is_locked, record_failure
from pbem.passwords import check_password
from pbem.service.unit import Unit
from pbem.store.tables import SeatRow


class NotAuthorised(GameError):
    """A password or sender that does not grant what was asked.

    ``lockout_started`` is True when this wrong password started a lockout
    (see :mod:`pbem.lockout`): the seat's holder or the GM is then told once.
    ``right_password`` is True when the password was right but the sender
    does not hold the seat (the holder is told; the sender must never learn it).
    """

    def __init__(self, message: str, *, lockout_started: bool = False, right_password: bool = False) -> None:
        super().__init__(message)
        self.lockout_started = lockout_started
        self.right_password = right_password


class LockedOut(NotAuthorised):
    """Password checks paused after repeated wrong passwords; nothing was checked."""


def seat_for_signon(unit: Unit, name: str, seat: str, password: str, *, sender: str | None = None) -> SeatRow:
    """Return the seat when ``password`` is its password (and, when ``sender`` is given, the seat is held by
    that address).

    Raises :class:`LockedOut` while the seat's password checks are paused
    after repeated wrong passwords (the password is then not checked), and
    NotAuthorised for a wrong password, which counts towards a lockout. A
    right password from another address than the seat's counts the same
    way (``right_password`` set) and does not clear the count, so that
    neither the answer nor the lockout tells a guesser it was right.
    """
    row = unit.game(name)
    seat_row = unit.seat(row, seat)
    now = unit.now()
    if is_locked(seat_row.locked_until, now):
        raise LockedOut(f"password checks for seat {seat_row.name} of {name} are paused until "
                        f"{format_utc(seat_row.locked_until)} after repeated wrong passwords")
    right = check_password(password, seat_row.password_hash)
    held_elsewhere = sender is not None and (seat_row.address or "").lower() != sender.lower()
    if not right or held_elsewhere:
        failure = record_failure(seat_row.failed_logins, now)
        seat_row.failed_logins, seat_row.locked_until = failure.count, failure.locked_until
        unit.add(seat_row)
        raise NotAuthorised(f"wrong password for seat {seat_row.name} of {name}",
                            lockout_started=failure.started, right_password=right)
    if seat_row.failed_logins:
        seat_row.failed_logins, seat_row.locked_until = 0, None
        unit.add(seat_row)
    return seat_row


def check_gm(unit: Unit, name: str, password: str) -> None:
    """Return when ``password`` is the GM password of the game.

    Raises :class:`LockedOut` while GM password checks of the game are
    paused after repeated wrong passwords, and NotAuthorised for a wrong
    password, which counts towards a lockout.
    """
    check_gm_password(unit, unit.game(name), password, f"GM password checks for {name}", f"GM password for {name}")


def check_gm_password(unit: Unit, row: Any, password: str, checks: str, what: str) -> None:
    """Return when ``password`` is the GM password of ``row`` (a game's or a league's row: its
    ``gm_password_hash``, ``gm_failed_logins`` and ``gm_locked_until``). Raises LockedOut while ``checks``
    are paused after repeated wrong passwords, NotAuthorised (naming ``what``) for a wrong one, which
    counts towards a lockout."""
    now = unit.now()
    if is_locked(row.gm_locked_until, now):
        raise LockedOut(f"{checks} are paused until {format_utc(row.gm_locked_until)} after repeated wrong passwords")
    if not check_password(password, row.gm_password_hash):
        failure = record_failure(row.gm_failed_logins, now)
        row.gm_failed_logins, row.gm_locked_until = failure.count, failure.locked_until
        unit.add(row)
        raise NotAuthorised(f"wrong {what}", lockout_started=failure.started)
    if row.gm_failed_logins:
        row.gm_failed_logins, row.gm_locked_until = 0, None
        unit.add(row)


def key_version(unit: Unit, name: str, seat: str) -> int | None:
    """The key version a seat's reply addresses and links are signed with now (None for an unknown
    game or seat): older versions were revoked when the seat changed hands."""
    try:
        return unit.seat(unit.game(name), seat).key_version
    except PbemError:
        return None
