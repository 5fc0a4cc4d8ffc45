"""READY (in a seat's session): the seat's standing orders are final; the turn need not wait for it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.commands.seats.noorders import withdraw
from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import submissions

if TYPE_CHECKING:
    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow, SeatRow, SubmissionRow


@dataclass(frozen=True)
class Ready(ParsedCommand):
    """READY: the seat's standing orders (none: an empty set) are final; the turn need not wait for it."""


def in_seat(conv: Conversation, row: GameRow, seat: SeatRow, command: Ready) -> None:
    """READY: the seat's orders are final."""
    had = submissions.current_orders(conv.unit, row.name, seat.name)
    version = withdraw(conv, row, seat, ready=True)
    conv.reply.add(f"READY: {_final_orders(had, version, f'turn {row.turn} of {row.name}')}; the turn does "
                   "not wait for you.")


def _final_orders(had: SubmissionRow | None, version: int, turn: str) -> str:
    """What READY made final for ``turn`` ("turn 4 of tc-1"), in the reader's terms: the orders they sent
    (their version), an empty set they sent (NOORDERS), or nothing (they hold)."""
    if had is None:
        return f"you sent no orders for {turn}, so you hold this turn"
    if not had.orders:
        return f"you hold {turn} (your orders v{version} are an empty set)"
    return f"your orders v{version} for {turn} are final"


COMMAND = MailCommand(
    rule="ready",
    parsed_form=Ready,
    grammar=keyword_grammar("ready", "READY"),
    help="""\
  READY                            (after SIGNON) your orders are final: the turn need not wait
                                   for you (even a game that resolves only at its deadline)
""",
    in_seat=in_seat,
)
