"""What the service's work brings that people must hear of, collected on the unit (``Unit.news``)
and told by the mail side before the unit commits (the command line tells nobody)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class DeadlineExtended:
    """The deadline of a turn moved later because a seat owing orders announced an absence."""

    game: str
    turn: int
    deadline: datetime


@dataclass(frozen=True)
class SeatOffered:
    """A seat was offered to a standby (after missed deadlines, or a resignation)."""

    game: str
    seat: str
    address: str
    reason: str


@dataclass(frozen=True)
class OfferAccepted:
    """A standby accepted a seat; it waits for the GM's REPLACE (``replace=confirm``)."""

    game: str
    seat: str
    address: str


@dataclass(frozen=True)
class SeatHandedOver:
    """A seat went to a standby at once (``replace=auto``): the new holder needs the password."""

    game: str
    seat: str
    address: str
    old_address: str | None
    password: str


@dataclass(frozen=True)
class RolledBack:
    """The GM rolled the game back to the start of ``turn``; each seat's orders of the turns rolled
    back are kept (``orders``: seat -> [(turn, order lines)]) so they can send them again."""

    game: str
    turn: int
    undone: int
    orders: dict[str, list[tuple[int, list[str]]]] = field(default_factory=dict)


@dataclass(frozen=True)
class AddressUndeliverable:
    """Mail to the holder of a seat came back for good (a hard bounce, an SMTP 5xx): pbem mails it no more
    until it writes again; its GM is told."""

    game: str
    seat: str
    address: str
    reason: str


@dataclass(frozen=True)
class AddressStopped:
    """The holder of a seat said STOP (by mail or the one-click unsubscribe): pbem mails it no more; its GM
    is told."""

    game: str
    seat: str
    address: str


@dataclass(frozen=True)
class SeatFreed:
    """The holder of a seat of a game not yet started left it (DECLINE, or STOP): the seat is open again;
    its GM is told. ``why`` says what the holder did, as the GM reads it ("declined the invitation")."""

    game: str
    seat: str
    address: str
    why: str
