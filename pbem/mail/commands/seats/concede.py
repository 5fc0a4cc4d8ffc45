"""CONCEDE (in a seat's session): in a cooperative game, propose that the team gives up, or agree to it,
by a secret vote (:mod:`pbem.mail.commands.seats.agreed_end`)."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.mail.commands.seats.agreed_end import vote_command
from pbem.mail.commands.spec import ParsedCommand
from pbem.service.agreed_endings import CONCEDE


@dataclass(frozen=True)
class Concede(ParsedCommand):
    """CONCEDE: in a cooperative game, propose that the team gives up, or agree to it (secretly)."""


COMMAND = vote_command("concede", Concede, CONCEDE, """\
  CONCEDE                          (after SIGNON) in a cooperative game: propose that the team gives
                                   up, or agree to it: when the whole team agrees within one turn,
                                   the game ends as a defeat
""")
