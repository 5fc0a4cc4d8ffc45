"""DRAW, CONCEDE and NODRAW in a seat's session: a secret vote to end the game by agreement (see
:mod:`pbem.service.agreed_endings`). A vote that opens a proposal tells every seat still playing and
the GM that one was made, never by whom; the vote that completes it ends the game and mails every
reader the final report."""

from __future__ import annotations

from pbem.commands import Concede, Draw, NoDraw
from pbem.mail.answering.conversation import Conversation
from pbem.service import agreed_endings
from pbem.service.agreed_endings import CONCEDE, DRAW, Vote
from pbem.store.tables import GameRow, SeatRow


def agree(conv: Conversation, row: GameRow, seat: SeatRow, command: Draw | Concede) -> None:
    """DRAW or CONCEDE: the seat's secret vote; the reply never tells who else voted."""
    word = "DRAW" if isinstance(command, Draw) else "CONCEDE"
    done = agreed_endings.vote(conv.unit, row.name, seat.name, DRAW if isinstance(command, Draw) else CONCEDE)
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


def withdraw(conv: Conversation, row: GameRow, seat: SeatRow, command: NoDraw) -> None:
    """NODRAW: the seat's vote of this turn is withdrawn (what the others voted stays secret)."""
    kind = agreed_endings.withdraw(conv.unit, row.name, seat.name)
    if kind is None:
        conv.reply.add(f"NODRAW: you had no DRAW or CONCEDE in turn {row.turn} of {row.name}: nothing to withdraw.")
    else:
        conv.reply.add(f"NODRAW: your {'DRAW' if kind == DRAW else 'CONCEDE'} of turn {row.turn} of {row.name} is "
                       "withdrawn. Whether a proposal still stands rests on the others' votes, which stay secret.")


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
