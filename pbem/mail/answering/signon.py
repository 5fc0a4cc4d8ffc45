"""Who a mail speaks for: a seat by its reply address or by SIGNON and its password, or a
game's GM by the GM password. Mail that acts for a seat from another address than the
seat's changes nothing, and the seat's holder is told (at most once an hour)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from pbem.core import PbemError
from pbem.mail.answering.conversation import Conversation
from pbem.mail.outbound.tokens import TokenError
from pbem.service import access
from pbem.service.access import LockedOut, NotAuthorised
from pbem.store.tables import GameRow, SeatRow

_log = logging.getLogger(__name__)


class SeatSignOn(Protocol):
    """What a seat's session says of the seat it speaks for: nothing for a reply to a game mail (its reply
    address says it), else the game (None: the subject's tag), the seat and its password."""

    @property
    def is_token_reply(self) -> bool: ...
    @property
    def game(self) -> str | None: ...
    @property
    def seat(self) -> str | None: ...
    @property
    def password(self) -> str | None: ...


class GmSignOn(Protocol):
    """What a GM's session says: the game and its GM password."""

    @property
    def game(self) -> str: ...
    @property
    def password(self) -> str: ...


class SenderRefused(PbemError):
    """Mail that does not come from the address holding the seat it speaks for."""


def signed_on_seat(conv: Conversation, command: SeatSignOn) -> tuple[GameRow, SeatRow]:
    """The game and seat a seat session speaks for (by reply address or SIGNON). Raises SenderRefused."""
    if command.is_token_reply:
        if conv.token_address is None:
            raise SenderRefused("orders need SIGNON <game> <seat> <password>, or a reply to a mail from a game")
        return seat_by_token(conv, conv.token_address)
    name = command.game or conv.tag
    if name is None or command.seat is None or command.password is None:
        raise SenderRefused("SIGNON needs a game, a seat and a password: SIGNON <game> <seat> <password>")
    return _seat_by_password(conv, name, command.seat, command.password)


def seat_by_token(conv: Conversation, token_address: str) -> tuple[GameRow, SeatRow]:
    """The game and seat a reply address signs on, when it is genuine and the sender holds the seat
    (else SenderRefused; the seat's holder is told of a mail from another address)."""
    unit = conv.unit
    try:
        game_name, seat_name = conv.desk.tokens.verify(
            token_address, lambda g, s: access.key_version(unit, g, s), conv.desk.clock().date()
        )
    except TokenError as error:
        raise SenderRefused(f"{error}. Nothing was changed.") from error
    row = unit.game(game_name)
    seat = unit.seat(row, seat_name)
    _check_holder(conv, row, seat)
    return row, seat


def check_gm(conv: Conversation, command: GmSignOn) -> None:
    """Return when the GM password is right; refuse after an earlier wrong password of the mail,
    during a lockout, or for a wrong one (the GM is told once when a lockout starts)."""
    if conv.handled.password_failed:
        raise NotAuthorised(f"GM {command.game} not checked: a password earlier in this mail was wrong")
    try:
        access.check_gm(conv.unit, command.game, command.password)
    except LockedOut:
        raise
    except NotAuthorised as error:
        conv.handled.password_failed = True
        if error.lockout_started:
            info = conv.unit.info(command.game)
            conv.notifier.tell_gm(conv.unit, info, f"Several wrong GM passwords were sent for game {info.name}; GM "
                                                   "password checks pause, for longer after each further wrong one.")
        raise


def _check_holder(conv: Conversation, row: GameRow, seat: SeatRow) -> None:
    """Refuse mail that acts for a seat from another address than the seat's (its holder is told)."""
    sender = conv.mail.sender
    if (seat.address or "").lower() != sender:
        _notify_holder(conv, row, seat, "Mail refused",
                       f"A mail from {sender} tried to act for your seat {seat.name} of game {row.name}. "
                       "It was refused and nothing was changed. Only mail from your address is accepted.")
        raise SenderRefused(
            f"seat {seat.name} of {row.name} is held by another address; mail from {sender} cannot act "
            "for it. Nothing was changed, and the seat's holder was told."
        )


def _seat_by_password(conv: Conversation, name: str, seat_name: str, password: str) -> tuple[GameRow, SeatRow]:
    """The game and seat a SIGNON names, when its password is right and the sender holds the seat.

    A stranger gets one answer whether the password was right or wrong;
    after one wrong password no further password of the mail is checked;
    repeated wrong passwords lock the seat's checks (its holder is told once).
    """
    sender = conv.mail.sender
    label = seat_name.upper()
    refused = (f"SIGNON {name} {label} refused: the password is wrong, or mail from {sender} cannot "
               "act for this seat. Nothing was changed.")
    if conv.handled.password_failed:
        raise SenderRefused(f"SIGNON {name} {label} not checked: a password earlier in this mail was wrong. "
                            "Nothing was changed.")
    try:
        seat = access.seat_for_signon(conv.unit, name, seat_name, password, sender=sender)
    except LockedOut as error:
        raise SenderRefused(f"{error}. Nothing was changed.") from error
    except NotAuthorised as error:
        conv.handled.password_failed = True  # a right password from a stranger too: nothing may tell them apart
        if error.right_password:
            _tell_holder(conv, name, seat_name, "Mail refused", lambda seat, game: (
                f"A mail from {sender} tried to act for your seat {seat} of game {game} with its password. "
                "It was refused and nothing was changed. Only mail from your address is accepted; ask the GM "
                "for a new password if it is known to others."))
        if error.lockout_started:
            _tell_holder(conv, name, seat_name, "Password guessing", lambda seat, game: (
                f"Several wrong passwords were sent for your seat {seat} of game {game}; password checks for "
                "it pause, for longer after each further wrong one. Your reply address still works as always."))
        raise SenderRefused(refused) from error
    return conv.unit.game(name), seat


def _tell_holder(conv: Conversation, name: str, seat_name: str, subject: str,
                 text: Callable[[str, str], str]) -> None:
    """Send the holder of a seat (if it has one) a notice whose text is ``text(seat name, game name)``."""
    row = conv.unit.game(name)
    seat = conv.unit.seat(row, seat_name)
    _notify_holder(conv, row, seat, subject, text(seat.name, row.name))


def _notify_holder(conv: Conversation, row: GameRow, seat: SeatRow, subject: str, text: str) -> None:
    """Send the holder of ``seat`` (if it has one) the notice ``text`` of a refused mail: at most one notice
    with ``subject`` per seat per :data:`~pbem.mail.answering.conversation.HOLDER_NOTICE_WINDOW` (the others are
    only logged), so that no flood of mail to a leaked reply address or with a leaked password floods the
    holder."""
    if not seat.address:
        return
    if not conv.desk.holder_notices.allow(f"{row.name}/{seat.name}/{subject}", conv.desk.clock()):
        _log.info("the holder of seat %s of %s was told of a refused mail within the hour: not again (%s)",
                  seat.name, row.name, subject)
        return
    conv.notifier.tell_address(conv.unit, row, seat.address, subject,
                               f"{text} (You are told of such mail at most once an hour.)",
                               seat=seat)
