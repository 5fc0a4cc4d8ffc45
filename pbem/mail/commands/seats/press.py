"""PRESS <seat> ... | PRESS ALL (in a seat's or a GM's session): the lines after it, up to ENDPRESS or
SIGNOFF, relayed by the game master to those players, signed with the author's seat (or GM); a plain
reply to a press mail goes back to its author as press. Press between players is refused while the
current phase closes it (:mod:`pbem.service.press`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pbem.mail.answering.signon import seat_by_token
from pbem.mail.commands.spec import LineError, MailCommand, ParsedCommand, keyword_grammar
from pbem.mail.commands.values import TextBlock, name
from pbem.mail.outbound.preferences import takes_press
from pbem.service.press import check_press

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow, SeatRow


@dataclass(frozen=True)
class Press(ParsedCommand):
    """PRESS seat... | PRESS ALL: relay ``text``, tagged with the sender's seat (or GM)."""

    to: tuple[str, ...]
    text: TextBlock = TextBlock()

    takes_text: ClassVar[bool] = True

    @property
    def is_broadcast(self) -> bool:
        """True for PRESS ALL."""
        return self.to == ("all",)


def build(line: int, children: list[Token]) -> Press:
    """The parsed PRESS line: the seats in lower case, ALL alone, none named twice."""
    targets = tuple(name(target) for target in children)
    if "all" in targets and len(targets) > 1:
        raise LineError("PRESS ALL goes to everyone: name no seats beside ALL", children[0].column)
    if len(set(targets)) < len(targets):
        raise LineError("a seat is named twice", children[0].column)
    return Press(line, targets)


def in_seat(conv: Conversation, row: GameRow, seat: SeatRow, command: Press) -> None:
    """PRESS in a seat's session: signed with the seat."""
    send_press(conv, row, seat.name, command)


def in_gm(conv: Conversation, row: GameRow, command: Press) -> None:
    """PRESS in a GM's session: signed GM (it always goes through)."""
    send_press(conv, row, "GM", command)


def send_press(conv: Conversation, row: GameRow, author: str, command: Press) -> None:
    """PRESS from ``author`` (a seat, or ``GM``) to the seats it names (or all): relay it and answer."""
    unit = conv.unit
    check_press(unit, row.name, from_gm=author == "GM")
    seats = unit.seats(row)
    targets = seats if command.is_broadcast else [unit.seat(row, s) for s in command.to]
    text = command.text.text.strip()
    if not text:
        conv.reply.add("PRESS with no text: nothing was sent.")
        return
    targets = [seat for seat in targets if seat.name != author]
    refusing = [] if author == "GM" else [seat for seat in targets
                                          if seat.address and not takes_press(conv.unit.session, seat.address)]
    sent = _relay(conv, row, author, [seat for seat in targets if seat not in refusing], text)
    declined = f" Not to {', '.join(s.name for s in refusing)}: they take no press from players." if refusing else ""
    copy = f" {who_reads(row, author)}" if author != "GM" else ""
    conv.reply.add(f"Press relayed to {', '.join(sent) or 'nobody'}.{declined}{copy}")


def press_reply(conv: Conversation, author: str) -> None:
    """A plain reply to a press mail from ``author`` (a seat, or ``gm``): its text goes back to the
    author as press, never as orders."""
    assert conv.token_address is not None
    row, seat = seat_by_token(conv, conv.token_address)
    conv.reply.row, conv.reply.seat = row, seat
    conv.handled.acted = True
    text = conv.mail.body.strip()
    if not text:
        conv.reply.add("Your reply to the press had no text: nothing was sent.")
        return
    if author == "gm":
        sent = _relay(conv, row, seat.name, [], text, gm=True)
    else:
        check_press(conv.unit, row.name)
        target = conv.unit.seat(row, author)
        if target.address and not takes_press(conv.unit.session, target.address):
            conv.reply.add(f"Your reply was not sent: seat {target.name} takes no press from players.")
            return
        sent = _relay(conv, row, seat.name, [target], text)
    copy = f" {who_reads(row, author)}" if author != "gm" else ""
    conv.reply.add(f"Your reply went as press to {', '.join(sent) or 'nobody'} (it was not read as orders).{copy} "
                   "To send orders, reply to a turn report.")


def who_reads(row: GameRow, author: str) -> str:
    """The sentence every press mail of ``row``'s game carries: whether the GM reads press between
    players (the game's ``gm_press``), or that this press comes from the GM."""
    if author.upper() == "GM":
        return "Your reply goes to the GM alone."
    if row.gm_press == "copy":
        return "The GM of this game gets a copy of press between players (replies included)."
    return "Press between players in this game is private: the GM gets no copy."


def _relay(conv: Conversation, row: GameRow, author: str, targets: list[SeatRow], text: str,
           *, gm: bool = False) -> list[str]:
    """Send press from ``author`` (a seat, or ``GM``) to ``targets`` (and to the GM with ``gm``), and
    the GM a copy of press between players; each mail says at its top that a plain reply goes back to
    the author as press. Returns the seats (and "GM") it went to."""
    unit, notifier = conv.unit, conv.notifier
    note = (f"Press from {author} in game {row.name}. A plain reply to this mail goes back to {author} as "
            f"press; send orders by replying to a turn report. {who_reads(row, author)}")
    sent = []
    for seat in targets:
        if seat.address:
            notifier.tell_address(unit, row, seat.address, f"Press from {author}", f"{note}\n\n{text}", seat=seat,
                                  press_from=author)
            sent.append(seat.name)
    if gm and row.gm_address:
        notifier.tell_address(unit, row, row.gm_address, f"Press from {author}",
                              f"Press from {author} in game {row.name}:\n\n{text}")
        sent.append("GM")
    elif row.gm_address and author != "GM" and row.gm_press == "copy":
        notifier.tell_address(unit, row, row.gm_address, f"Press from {author} (copy)",
                              f"Press from {author} to {', '.join(sent) or 'nobody'}:\n\n{text}")
    return sent


COMMAND = MailCommand(
    rule="press",
    parsed_form=Press,
    grammar=keyword_grammar("press", "PRESS TARGET+"),
    build=build,
    help="""\
  PRESS <seat> [<seat> ...]        (after SIGNON) the lines after it, up to ENDPRESS or SIGNOFF,
  PRESS ALL                        are sent to those players (or all), signed with your seat
                                   (refused while a phase forbids press between players); the
                                   GM gets a copy unless the game has gm_press=none (HELP PRESS)
""",
    gm_help="""\
  PRESS <seat> ... | PRESS ALL     a message to players, signed GM (always goes through)
""",
    in_seat=in_seat,
    in_gm=in_gm,
)
