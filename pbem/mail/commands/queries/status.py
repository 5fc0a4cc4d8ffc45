"""STATUS [<game>]: the state of a game; in a seat's session, of the session's game by default (in a team
step with the teammates' stored orders), in a GM's session with the absences and reliability too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pbem.core import PbemError
from pbem.mail.answering.answers import status_text
from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.mail.commands.values import name
from pbem.service import status

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow, SeatRow


@dataclass(frozen=True)
class Status(ParsedCommand):
    """STATUS [game]: the state of a game (in a session, the session's game by default)."""

    game: str | None

    asks_only: ClassVar[bool] = True
    limited_as_query: ClassVar[bool] = True
    keeps_session_open: ClassVar[bool] = True

    def needs_tagged_game(self) -> bool:
        """True when no game is named."""
        return self.game is None


def build(line: int, children: list[Token]) -> Status:
    """The parsed STATUS line: the game, if named, in lower case."""
    return Status(line, name(children[0]) if children else None)


def show_status(conv: Conversation, game: str | None, *, gm: bool = False, seat: str | None = None) -> None:
    """STATUS of the game called ``game`` (with ``gm``, in the game's GM session: the absences too; asked
    by ``seat`` of that game, signed on: its teammates' stored orders in a team step too)."""
    if game is None:
        raise PbemError("STATUS needs a game name")
    key = f"{game}|{'GM' if gm else seat or ''}|{conv.handled.changes}"
    if (earlier := conv.handled.answered("STATUS", key)) is None:  # asked again with nothing changed: folded
        earlier = conv.handled.remember("STATUS", key, status_text(status.status_view(conv.unit, game, seat, gm=gm),
                                                                   gm=gm))
    conv.reply.add(earlier)


def handle(conv: Conversation, command: Status) -> None:
    """STATUS at the top of a mail: of the game named, or of the subject's tag."""
    show_status(conv, command.game or conv.tag)


def in_seat(conv: Conversation, row: GameRow, seat: SeatRow, command: Status) -> None:
    """STATUS in a seat's session: of its own game (or the one named), as that seat when it is its own."""
    game = command.game or row.name
    own = conv.unit.game(game).id == row.id
    show_status(conv, game, seat=seat.name if own else None)


def in_gm(conv: Conversation, row: GameRow, command: Status) -> None:
    """STATUS in a GM's session: of the GM's game (or the one named), as its GM when it is the GM's."""
    game = command.game or row.name
    show_status(conv, game, gm=game.lower() == row.name.lower())


COMMAND = MailCommand(
    rule="status",
    parsed_form=Status,
    grammar=keyword_grammar("status", "STATUS GAME?"),
    build=build,
    help="""\
  STATUS <game>                    the state of a game (after SIGNON: of your game; in a team
                                   step also your teammates' stored orders, as in the reply
                                   to your orders)
""",
    handle=handle,
    in_seat=in_seat,
    in_gm=in_gm,
)
