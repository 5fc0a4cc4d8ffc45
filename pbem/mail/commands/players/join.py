"""JOIN <game> [<seat>]: take an open seat of a forming game (any, when no seat is named); the GM is told."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pbem.mail.answering.answers import commitment_line
from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import seats
from pbem.store.tables import GameStatus

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation


@dataclass(frozen=True)
class Join(ParsedCommand):
    """JOIN game [seat]: take an open seat (any, when no seat is named)."""

    game: str
    seat: str | None

    rests_on_from: ClassVar[bool] = True


def build(line: int, children: list[Token]) -> Join:
    """The parsed JOIN line: the game and the seat (if named) in lower case."""
    return Join(line, str(children[0]).lower(), str(children[1]).lower() if len(children) > 1 else None)


def handle(conv: Conversation, command: Join) -> None:
    """JOIN: take a seat of a forming game; the GM is told."""
    sender = conv.mail.sender
    held = seats.seat_of_address(conv.unit, command.game, sender)
    if held is not None and conv.unit.game(command.game).status == GameStatus.FORMING:
        conv.reply.tag_game = conv.unit.game(command.game).name  # an invited holder's JOIN: its mail accepted
        conv.reply.add(f"You hold seat {held.name} of {command.game}; the game starts when the GM sends START.")
        return
    joined = seats.join(conv.unit, command.game, sender, command.seat)
    info = joined.info
    seat = conv.unit.seat(info.row, joined.seat)
    conv.reply.row, conv.reply.seat, conv.reply.secret, conv.reply.tag_game = info.row, seat, True, info.name
    conv.reply.add(
        f"You joined game {joined.game} ({info.rules.title}) as seat {joined.seat}.\n"
        f"Your password is {joined.password} (for SIGNON {joined.game} {joined.seat} {joined.password}); "
        "you rarely need it: a plain reply to your turn report or a reminder from this game signs you on "
        "(a plain reply to a notice or a press mail goes as press, never as orders).\n"
        "The game starts when the GM sends START." + commitment_line(info.row)
    )
    if joined.open_seats:
        conv.notifier.tell_gm(conv.unit, info, f"{sender} joined {info.name} as seat {joined.seat}; "
                                               f"open seats: {', '.join(joined.open_seats)}.")
    else:
        conv.notifier.tell_gm(conv.unit, info, f"{sender} joined {info.name} as seat {joined.seat}; "
                                               "every seat is taken. Send START to begin.")


COMMAND = MailCommand(
    rule="join",
    parsed_form=Join,
    grammar=keyword_grammar("join", "JOIN GAME SEAT?"),
    build=build,
    help="""\
  JOIN <game> [<seat>]             take an open seat; the reply gives your seat and password
""",
    handle=handle,
)
