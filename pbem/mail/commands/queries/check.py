"""CHECK <kind>: the order lines after it checked against a game kind's syntax, without any game; CHECK
alone, on the line right after SIGNON, makes the seat's session a check (see the script reader)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pbem.mail.commands.grammar import Marker
from pbem.mail.commands.spec import MailCommand, ParsedCommand, SessionKind, keyword_grammar
from pbem.mail.commands.values import TextBlock, name
from pbem.service.checking import check_syntax

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation


@dataclass(frozen=True)
class CheckOrders(ParsedCommand):
    """CHECK kind and the order lines after it: a syntax check against a game kind, for anyone."""

    kind: str
    orders: TextBlock = TextBlock()

    asks_only: ClassVar[bool] = True
    limited_as_query: ClassVar[bool] = True
    opens: ClassVar[SessionKind | None] = "check"

    def log_word(self) -> str:
        """``CHECK``."""
        return "CHECK"


def build(line: int, children: list[Token]) -> CheckOrders | Marker:
    """CHECK <kind> opens a check; CHECK alone only marks the seat's session it follows."""
    return CheckOrders(line, name(children[0])) if children else Marker(line, "CHECK")


def handle(conv: Conversation, command: CheckOrders) -> None:
    """CHECK <kind>: the syntax of the lines after it, against a game kind, without any game."""
    result = check_syntax(command.kind, command.orders.numbered_text)
    intro = f"Syntax check against {result.kind} (nothing stored):"
    conv.reply.add(f"{intro}\n" + result.render(), check=result, intro=intro)


COMMAND = MailCommand(
    rule="check",
    parsed_form=CheckOrders,
    grammar=keyword_grammar("check", "CHECK KIND?"),
    build=build,  # type: ignore[arg-type]  # a Marker steers the reading instead
    help="""\
  CHECK                            on the line right after SIGNON: check the orders, store nothing
  CHECK <kind>                     check the lines after it against a game kind's order syntax
""",
    handle=handle,
)
