"""The secret vote of DRAW and CONCEDE in a seat's session, to end the game by agreement (see
:mod:`pbem.service.agreed_endings`). A vote that opens a proposal tells every seat still playing and
the GM that one was made, never by whom; the vote that completes it ends the game and mails every
reader the final report."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import agreed_endings
from pbem.service.agreed_endings import DRAW, Vote

if TYPE_CHECKING:
    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow, SeatRow


def vote_command(rule: str, parsed_form: type[ParsedCommand], kind: str, help_lines: str) -> MailCommand:
    """The registration of a vote of ``kind`` (DRAW or CONCEDE): written as its keyword alone (the rule's
    name in upper case), standing in a seat's session."""

    def in_seat(conv: Conversation, row: GameRow, seat: SeatRow, command: ParsedCommand) -> None:
        agree(conv, row, seat, kind)

    return MailCommand(rule=rule, parsed_form=parsed_form, grammar=keyword_grammar(rule, rule.upper()),
                       help=help_lines, in_seat=in_seat)


def agree(conv: Conversation, row: GameRow, seat: SeatRow, kind: str) -> None:
    """The seat's secret vote of ``kind`` (DRAW or CONCEDE); the reply never tells who else voted."""
    word = "DRAW" if kind == DRAW else "CONCEDE"
    done = agreed_endings.vote(conv.unit, row.name, seat.name, kind)
    if done.ended:
        conv.notifier.send_final(conv.unit, row)
        outcome = conv.unit.snapshot(row).outcome
        assert outcome is not None
        conv.reply.add(f"{word}: every seat still playing agreed, so game {row.name} is over. {outcome.headline}. "
                       "The final report went to every seat.")
        return
    if done.opened:
        _announce(conv, row, done)
    said = "you proposed" if done.opened else "you agreed to"
    conv.reply.add(f"{word}: {said} {done.proposal} in turn {done.turn} of {row.name}. It ends the game once every "
                   f"seat still playing agrees before turn {done.turn} ends; otherwise it lapses. Votes stay secret "
                   "until all agree: nobody is told who voted, nor how many. NODRAW withdraws your vote.")


def _announce(conv: Conversation, row: GameRow, done: Vote) -> None:
    """Tell every seat still playing, the proposer too (so that nobody can tell the proposer by the notice it
    did not get), and the GM, that a proposal was made (no name)."""
    word = "DRAW" if done.kind == DRAW else "CONCEDE"
    text = (f"{done.proposal.capitalize()} was proposed in turn {done.turn} of game {row.name}; who proposed it "
            f"stays secret. To agree, reply to your newest turn report with {word} (or put it after SIGNON "
            f"{row.name} <seat> <password>). The game ends {'as a draw' if done.kind == DRAW else 'as a defeat'} "
            f"once every seat still playing agrees before turn {done.turn} ends; otherwise the proposal lapses. "
            "Votes stay secret until all agree.")
    info = conv.unit.snapshot(row)
    playing = set(agreed_endings.seats_playing(conv.unit, row))
    for seat in info.seats:
        if seat.name in playing and seat.address:
            conv.notifier.tell_address(conv.unit, row, seat.address, f"{done.proposal.capitalize()} was proposed",
                                       text, seat=seat)
    conv.notifier.tell_gm(conv.unit, info, text)
