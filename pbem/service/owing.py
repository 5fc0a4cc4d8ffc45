"""Who owes orders, and whether all orders are in: decided here and nowhere else.

The seats that owe orders are the seats of the game's current phase (none
before the start and after the end). A seat has sent its orders for the turn
once it stored any submission for it (an empty one too: NOORDERS); it is
READY when its newest submission says so.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime

from pbem.orders import parser_for
from pbem.service import queries
from pbem.service.snapshot import GameInfo
from pbem.service.unit import Unit


def owing_seats(info: GameInfo) -> tuple[str, ...]:
    """The seats that owe orders in the game's current phase, in phase order."""
    return tuple(info.phase.seats) if info.phase is not None else ()


def choosing_seats(info: GameInfo) -> tuple[str, ...]:
    """The owing seats that have a choice, in phase order: those the service does not play itself
    (:meth:`~pbem.core.Game.forced_orders` is None). Only these are asked for orders."""
    return tuple(seat for seat in owing_seats(info) if info.rules.forced_orders(info.state, seat) is None)


def not_your_turn(info: GameInfo, seat: str) -> str | None:
    """Why ``seat`` cannot send orders now (``it is not your turn: waiting for seat B``), or None when it
    owes some."""
    owing = owing_seats(info)
    if seat in owing:
        return None
    if not owing:
        return "no seat owes orders now"
    return f"it is not your turn: waiting for {'seat' if len(owing) == 1 else 'seats'} {', '.join(owing)}"


def missing_seats(unit: Unit, info: GameInfo) -> list[str]:
    """The seats that owe orders and have stored none for the turn, in phase order."""
    return [seat for seat in owing_seats(info) if queries.current_submission(unit.session, info.row, seat) is None]


def all_in_since(owing: Collection[str], received: Mapping[str, datetime]) -> datetime | None:
    """When the last of the ``owing`` seats' orders arrived, given when each seat's newest
    submission for the turn arrived (``received``); None while a seat owing orders sent none
    (or when nobody owes any)."""
    if not owing or not set(owing) <= received.keys():
        return None
    return max(received[seat] for seat in owing)


def all_in(unit: Unit, info: GameInfo) -> datetime | None:
    """:func:`all_in_since` for one active game, from the database."""
    return all_in_since(owing_seats(info), queries.received_this_turn(unit.session, info.row))


def all_ready(unit: Unit, info: GameInfo) -> bool:
    """True when every seat owing orders said READY for the turn (in its newest submission)."""
    owing = owing_seats(info)
    return bool(owing) and unit.all_ready(info.row, owing)


def everyone_waits(unit: Unit, info: GameInfo) -> bool:
    """True when every owing seat stored orders for the turn and all of them only wait
    (:meth:`~pbem.core.Game.is_wait`): a step nobody acted in."""
    owing = owing_seats(info)
    if not owing:
        return False
    return all(_waits(unit, info, seat) for seat in owing)


def _waits(unit: Unit, info: GameInfo, seat: str) -> bool:
    """True when ``seat`` stored orders for the turn and they only wait."""
    stored = queries.current_submission(unit.session, info.row, seat)
    return stored is not None and info.rules.is_wait(
        info.state, seat, parser_for(info.rules.name).parse("\n".join(stored.orders)).orders)


def wait_warning(unit: Unit, info: GameInfo, seat: str) -> str | None:
    """What the reply to ``seat``'s wait says, in a game where everyone waiting costs something: the
    cost, and once every owing seat waited, that the step waits for actions or every seat's READY.
    None when ``seat``'s stored orders do not wait, or waiting costs nothing special."""
    warning = info.rules.all_waited_warning(info.state) if info.phase is not None else None
    if warning is None or not _waits(unit, info, seat):  # the warning first: most games have none
        return None
    if not everyone_waits(unit, info):
        return warning
    who = "you are the only one to act and you wait" if len(owing_seats(info)) == 1 else "everyone has waited"
    return (f"{warning} Now {who}, so the step does not end early: send actions, or DONE, or READY "
            f"({'you' if len(owing_seats(info)) == 1 else 'every player'}) to end the phase so; at the deadline "
            "it ends so anyway.")
