"""DRAW (in a seat's session): propose a draw among the seats still playing, or agree to the one
proposed, by a secret vote (:mod:`pbem.mail.commands.seats.agreed_end`)."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.mail.commands.seats.agreed_end import vote_command
from pbem.mail.commands.spec import ParsedCommand
from pbem.service.agreed_endings import DRAW


@dataclass(frozen=True)
class Draw(ParsedCommand):
    """DRAW: propose a draw among the seats still playing, or agree to the one proposed (secretly)."""


COMMAND = vote_command("draw", Draw, DRAW, """\
  DRAW                             (after SIGNON) propose a draw among the seats still playing, or
                                   agree to the one proposed: when all agree within one turn the
                                   game ends as a draw. Votes are secret; the others hear only that
                                   a draw was proposed. Not in a game whose rules forbid it (HELP
                                   <kind> says, HELP GAMES lists them)
""")
