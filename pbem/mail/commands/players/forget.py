"""FORGET [<code>]: erase the sender's address from pbem, confirmed by a code mailed to the address (the
From address only: a forged From gets its code sent to the real owner, never to the forger)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import privacy

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Forget(ParsedCommand):
    """FORGET [<code>]: erase every trace of the sender's address; without the code, the code is mailed to the
    address (it confirms)."""

    code: str | None

    rests_on_from: ClassVar[bool] = True


def build(line: int, children: list[Token]) -> Forget:
    """The parsed FORGET line: the code in lower case, or None."""
    return Forget(line, str(children[0]).lower() if children else None)


def handle(conv: Conversation, command: Forget) -> None:
    """FORGET: mail the sender a confirmation code; FORGET <code>: erase the address (its running games are
    left first, their GMs told)."""
    unit, sender = conv.unit, conv.mail.sender
    conv.reply.secret = True
    if command.code is None:
        code = privacy.request_forget(unit, sender)
        conv.reply.add(
            f"FORGET: to erase {sender} from this game master, send within {privacy.FORGET_CODE_HOURS} hours, from "
            f"this address:\n\nFORGET {code}\n\nYour seats of running games are then left (as RESIGN does), your "
            "seats of forming games freed, the games and leagues you run left without a GM, and every trace of "
            "your address replaced by a pseudonym nobody can link to you. Finished games, their records and "
            "dice stay as they were, without your address. If you did not ask for this, ignore this mail.")
        return
    done = privacy.confirm_forget(unit, sender, command.code)
    for game, seat in done.resigned:
        conv.notifier.tell_gm(unit, unit.snapshot(unit.game(game)),
                              f"Seat {seat} of {game} left the game: its player asked to be forgotten. It gets NMR "
                              "defaults until you REPLACE it.")
    for game, seat in done.freed:
        conv.notifier.tell_gm(unit, unit.snapshot(unit.game(game)),
                              f"Seat {seat} of {game} is open again: its player asked to be forgotten. SEAT it "
                              "for another address.")
    _log.info("an address asked to be forgotten: it is %s now (%d rows)", done.pseudonym, done.rows)
    left = [f"seat {seat} of {game} (resigned)" for game, seat in done.resigned]
    left += [f"seat {seat} of {game} (freed)" for game, seat in done.freed]
    left += [f"{name} (left without a GM)" for name in done.gm_left]
    conv.reply.add("FORGET: done. pbem holds nothing more about this address"
                   + (f"; you left {', '.join(left)}" if left else "")
                   + ". This answer is the last mail you get from it, unless you write again.")


COMMAND = MailCommand(
    rule="forget",
    parsed_form=Forget,
    grammar=keyword_grammar("forget", "FORGET FORGET_CODE?") + """
// the code a FORGET mail was sent (pbem.passwords' letters and digits)
FORGET_CODE: /[a-z0-9]{6,40}\\b/i
""",
    build=build,
    help="""\
  FORGET                           erase your address from pbem: a code comes back to you, and
                                   FORGET <code> (within 24 hours) does it; your running games are
                                   left first, as RESIGN does (docs/privacy.md says what is kept)
""",
    handle=handle,
)
