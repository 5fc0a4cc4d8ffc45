"""MYDATA: everything pbem holds about the sender's address, in the reply to that address (the From
address only: a forged From gets its data sent to the real owner, never to the forger)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import privacy

if TYPE_CHECKING:
    from pbem.mail.answering.conversation import Conversation


@dataclass(frozen=True)
class MyData(ParsedCommand):
    """MYDATA: everything pbem holds about the sender's address, mailed to that address."""

    asks_only: ClassVar[bool] = True
    rests_on_from: ClassVar[bool] = True


def handle(conv: Conversation, command: MyData) -> None:
    """MYDATA: everything stored about the sender's address, in the reply to that address."""
    conv.reply.secret = True  # personal data: the copy kept loses its body once sent
    conv.reply.add(privacy.data_of(conv.unit, conv.mail.sender).as_text()
                   + "\n\nFORGET erases all of it (docs/privacy.md says what is kept, why and for how long).")


COMMAND = MailCommand(
    rule="mydata",
    parsed_form=MyData,
    grammar=keyword_grammar("mydata", "MYDATA"),
    help="""\
  MYDATA                           everything pbem holds about your address, mailed to it
""",
    handle=handle,
)
