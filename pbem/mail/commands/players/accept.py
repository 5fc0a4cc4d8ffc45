"""ACCEPT [<game>]: the sender takes the seat a standby offer gave them (the game from the subject tag)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import standby
from pbem.store.tables import GameRow

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation


@dataclass(frozen=True)
class Accept(ParsedCommand):
    """ACCEPT [<game>]: the sender takes the seat a standby offer gave them (the game from the subject tag)."""

    game: str | None


def build(line: int, children: list[Token]) -> Accept:
    """The parsed ACCEPT line: the game in lower case, or None."""
    return Accept(line, str(children[0]).lower() if children else None)


def handle(conv: Conversation, command: Accept) -> None:
    """ACCEPT [<game>]: the sender takes the seat offered to them."""
    offer = standby.accept(conv.unit, conv.mail.sender, command.game or conv.tag)
    row = conv.unit.session.get(GameRow, offer.game_id)
    assert row is not None
    waits = ("it is yours now; your password comes in a separate mail" if offer.status == "taken"
             else "the GM was asked to confirm; you hear from the game once they have")
    conv.reply.add(f"ACCEPT: you accepted seat {offer.seat} of game {row.name}; {waits}.")


COMMAND = MailCommand(
    rule="accept",
    parsed_form=Accept,
    grammar=keyword_grammar("accept", "ACCEPT GAME?"),
    build=build,
    help="""\
  ACCEPT [<game>]                  take the seat a standby offer gave you
""",
    handle=handle,
)
