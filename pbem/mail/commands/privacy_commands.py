"""What a player asks by mail about their own data: MYDATA (what pbem holds about the address) and FORGET
(erase it, confirmed by a code mailed to the address). Both answer the From address only: a forged From
gets its data and its code sent to the real owner, never to the forger."""

from __future__ import annotations

import logging

from pbem.commands import Forget, MyData
from pbem.mail.answering.conversation import Conversation
from pbem.service import privacy

_log = logging.getLogger(__name__)


def mydata(conv: Conversation, command: MyData) -> None:
    """MYDATA: everything stored about the sender's address, in the reply to that address."""
    conv.reply.secret = True  # personal data: the copy kept loses its body once sent
    conv.reply.add(privacy.data_of(conv.unit, conv.mail.sender).as_text()
                   + "\n\nFORGET erases all of it (docs/privacy.md says what is kept, why and for how long).")


def forget(conv: Conversation, command: Forget) -> None:
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
