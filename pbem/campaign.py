"""What a GM does to a running campaign, and how players take and leave seats.

Joining, passwords, deadlines (set, extend, pause, resume), replacing a
player, resignations and ending a game. Resolution itself stays in
:mod:`pbem.turns`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session

from pbem.clock import format_utc
from pbem.core import GameError, InvalidInput
from pbem.lockout import is_locked, record_failure
from pbem.passwords import check_password, hash_password, new_password
from pbem.service_options import parse_service_options
from pbem.store.tables import SeatRow
from pbem.turns import TurnRunner


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


@dataclass(frozen=True)
class Joined:
    """A seat taken by JOIN: which one, and its password (shown once)."""

    game: str
    seat: str
    password: str


class Campaign:
    """GM and seat operations on the games of a :class:`TurnRunner`."""

    def __init__(self, runner: TurnRunner) -> None:
        self.runner = runner

    def join(self, name: str, address: str, seat: str | None = None, *, session: Session | None = None) -> Joined:
        """Give ``address`` an open seat of a forming game (the named one, or the first open).

        Raises GameError when the game is not forming, the seat is taken, or
        the address holds a seat of this game already.
        """
        with self.runner.unit(session) as session:
            row = self.runner.load_game(session, name)
            if row.status != "forming":
                raise GameError(f"game {name} is not open for joining (it is {row.status})")
            seats = self.runner.load_seats(session, row)
            if any(s.address == address for s in seats):
                raise GameError(f"{address} holds a seat of {name} already")
            if seat is None:
                open_seats = [s for s in seats if not s.address]
                if not open_seats:
                    raise GameError(f"game {name} has no open seat")
                target = open_seats[0]
            else:
                target = self.runner.load_seat(session, row, seat)
                if target.address:
                    raise GameError(f"seat {target.name} of {name} is taken")
            password = new_password()
            target.address = address
            target.password_hash = hash_password(password)
            session.add(target)
            return Joined(row.name, target.name, password)

    def issue_passwords(self, name: str, *, session: Session | None = None) -> dict[str, str]:
        """Give every seat that has an address but no password a fresh one; return them (shown once)."""
        issued: dict[str, str] = {}
        with self.runner.unit(session) as session:
            row = self.runner.load_game(session, name)
            for seat in self.runner.load_seats(session, row):
                if seat.address and not seat.password_hash:
                    issued[seat.name] = new_password()
                    seat.password_hash = hash_password(issued[seat.name])
                    session.add(seat)
        return issued

    def seat_for_signon(self, name: str, seat: str, password: str, *, sender: str | None = None,
                        session: Session | None = None) -> SeatRow:
        """Return the seat when ``password`` is its password (and, when ``sender`` is given, the seat is held by
        that address).

        Raises :class:`LockedOut` while the seat's password checks are paused
        after repeated wrong passwords (the password is then not checked), and
        NotAuthorised for a wrong password, which counts towards a lockout. A
        right password from another address than the seat's counts the same
        way (``right_password`` set) and does not clear the count, so that
        neither the answer nor the lockout tells a guesser it was right.
        """
        with self.runner.unit(session) as session:
            row = self.runner.load_game(session, name)
            seat_row = self.runner.load_seat(session, row, seat)
            now = self.runner.clock()
            if is_locked(seat_row.locked_until, now):
                raise LockedOut(f"password checks for seat {seat_row.name} of {name} are paused until "
                                f"{format_utc(seat_row.locked_until)} after repeated wrong passwords")
            right = check_password(password, seat_row.password_hash)
            held_elsewhere = sender is not None and (seat_row.address or "").lower() != sender.lower()
            if not right or held_elsewhere:
                failure = record_failure(seat_row.failed_logins, now)
                seat_row.failed_logins, seat_row.locked_until = failure.count, failure.locked_until
                session.add(seat_row)
                raise NotAuthorised(f"wrong password for seat {seat_row.name} of {name}",
                                    lockout_started=failure.started, right_password=right)
            if seat_row.failed_logins:
                seat_row.failed_logins, seat_row.locked_until = 0, None
                session.add(seat_row)
            return seat_row

    def seat_of_address(self, name: str, address: str, *, session: Session | None = None) -> SeatRow | None:
        """Return the seat of ``name`` that ``address`` holds, if any."""
        with self.runner.unit(session) as session:
            row = self.runner.load_game(session, name)
            for seat in self.runner.load_seats(session, row):
                if seat.address and seat.address.lower() == address.lower():
                    return seat
        return None

    def check_gm(self, name: str, password: str, *, session: Session | None = None) -> None:
        """Return when ``password`` is the GM password of the game.

        Raises :class:`LockedOut` while GM password checks of the game are
        paused after repeated wrong passwords, and NotAuthorised for a wrong
        password, which counts towards a lockout.
        """
        with self.runner.unit(session) as session:
            row = self.runner.load_game(session, name)
            now = self.runner.clock()
            if is_locked(row.gm_locked_until, now):
                raise LockedOut(f"GM password checks for {name} are paused until {format_utc(row.gm_locked_until)} "
                                "after repeated wrong passwords")
            if not check_password(password, row.gm_password_hash):
                failure = record_failure(row.gm_failed_logins, now)
                row.gm_failed_logins, row.gm_locked_until = failure.count, failure.locked_until
                session.add(row)
                raise NotAuthorised(f"wrong GM password for {name}", lockout_started=failure.started)
            if row.gm_failed_logins:
                row.gm_failed_logins, row.gm_locked_until = 0, None
                session.add(row)

    def set_options(self, name: str, options: Mapping[str, str], *, session: Session | None = None) -> None:
        """Change how the service runs a game (``SET``): turn_hours, resolve, delay_minutes, ...

        Raises :class:`~pbem.service_options.BadOption` naming an unknown
        option or a value out of its range, and GameError for a finished game.
        """
        fields = parse_service_options(options)
        with self.runner.unit(session) as session:
            row = self.runner.load_game(session, name)
            if row.status == "finished":
                raise GameError(f"game {name} is finished")
            for column, value in fields.items():
                setattr(row, column, value)
            session.add(row)

    def set_deadline(self, name: str, when: datetime, *, session: Session | None = None) -> datetime:
        """Set the deadline of the turn awaiting orders. Raises InvalidInput when it is past and
        GameError when the game has no clock (forming or over)."""
        with self.runner.unit(session) as session:
            row = self.runner.load_game(session, name)
            if row.status not in ("active", "paused"):
                raise GameError(f"game {name} is {row.status}; it has no deadline")
            if when <= self.runner.clock():
                raise InvalidInput(f"the deadline {format_utc(when)} is in the past")
            row.deadline = when
            row.reminded_turn = 0
            session.add(row)
            return when

    def extend(self, name: str, by: timedelta, *, session: Session | None = None) -> datetime:
        """Move the deadline later by ``by`` (from now when there is none); return the new one.
        Raises InvalidInput for an extension that is not positive, GameError for a game without a clock."""
        with self.runner.unit(session) as session:
            row = self.runner.load_game(session, name)
            if row.status not in ("active", "paused"):
                raise GameError(f"game {name} is {row.status}; it has no deadline")
            if by <= timedelta(0):
                raise InvalidInput(f"an extension must be positive, not {by}")
            row.deadline = max(row.deadline or self.runner.clock(), self.runner.clock()) + by
            row.reminded_turn = 0
            session.add(row)
            return row.deadline

    def pause(self, name: str, *, session: Session | None = None) -> None:
        """Stop the clock: no deadline passes and nothing resolves until :meth:`resume`."""
        with self.runner.unit(session) as session:
            row = self.runner.load_game(session, name)
            if row.status != "active":
                raise GameError(f"game {name} is {row.status}, not active")
            row.status = "paused"
            row.paused_at = self.runner.clock()
            session.add(row)

    def resume(self, name: str, *, session: Session | None = None) -> datetime | None:
        """Restart the clock; the deadline moves by the time spent paused. Returns the deadline."""
        with self.runner.unit(session) as session:
            row = self.runner.load_game(session, name)
            if row.status != "paused":
                raise GameError(f"game {name} is {row.status}, not paused")
            now = self.runner.clock()
            if row.deadline is not None and row.paused_at is not None:
                row.deadline = max(row.deadline + (now - row.paused_at), now + timedelta(hours=1))
            row.status, row.paused_at, row.nmr_streak = "active", None, 0
            session.add(row)
            return row.deadline

    def replace(self, name: str, seat: str, address: str, *, session: Session | None = None) -> Joined:
        """Give a seat to a new address: new password, old reply tokens void, absence cleared."""
        with self.runner.unit(session) as session:
            row = self.runner.load_game(session, name)
            if row.status == "finished":
                raise GameError(f"game {name} is finished")
            seat_row = self.runner.load_seat(session, row, seat)
            password = new_password()
            seat_row.address = address
            seat_row.password_hash = hash_password(password)
            seat_row.key_version += 1
            seat_row.status = "active"
            seat_row.absent_since, seat_row.absence_reported = None, False
            session.add(seat_row)
            return Joined(row.name, seat_row.name, password)

    def resign(self, name: str, seat: str, *, session: Session | None = None) -> None:
        """Mark a seat resigned: it gets NMR defaults until the GM replaces it."""
        with self.runner.unit(session) as session:
            row = self.runner.load_game(session, name)
            seat_row = self.runner.load_seat(session, row, seat)
            seat_row.status = "resigned"
            session.add(seat_row)

    def end(self, name: str, *, session: Session | None = None) -> None:
        """End a game now; the seats with the highest score win."""
        with self.runner.unit(session) as session:
            row = self.runner.load_game(session, name)
            if row.status == "finished":
                raise GameError(f"game {name} is finished already")
            if row.status == "forming":
                raise GameError(f"game {name} has not started")
            row.status, row.ended_by_gm, row.deadline = "finished", True, None
            session.add(row)
