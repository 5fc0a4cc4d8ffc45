"""SECRETS (in a GM's session): every seat's view of the current turn, its secrets included, in a mail of
its own to the GM's address; the look is recorded in the game's log."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.core import GameError
from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.reports import render_report
from pbem.service import gm_secrets

if TYPE_CHECKING:
    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow


@dataclass(frozen=True)
class Secrets(ParsedCommand):
    """SECRETS (GM): mail the GM every seat's view of the current turn (logged)."""


def in_gm(conv: Conversation, row: GameRow, command: Secrets) -> None:
    """SECRETS: every seat's view of the turn, in a mail of its own to the GM's address (never to another
    sender that knows the GM password), its text not kept once sent; the look is recorded."""
    if not row.gm_address:
        raise GameError(f"game {row.name} has no GM address to mail the views to")
    if (earlier := conv.handled.answered("SECRETS", row.name)) is not None:  # one mail per game and mail
        conv.reply.add(earlier)
        return
    views = gm_secrets.seat_views(conv.unit, row.name)
    parts = [f"=== Seat {seat} ===\n\n{render_report(report, seat)}" for seat, report in views.reports]
    text = (f"Every seat's view of game {row.name} at turn {views.turn}, as each seat reads it in its newest "
            "report, its secrets included. Keep it to yourself; your look at it is recorded in the game's log.\n\n" + "\n".join(parts))
    conv.notifier.tell_address(conv.unit, row, row.gm_address, f"Secrets of turn {views.turn}", text, secret=True)
    conv.reply.add(conv.handled.remember("SECRETS", row.name, (
        f"SECRETS: every seat's view of turn {views.turn} of {row.name} went to {row.gm_address} in a mail of its "
        "own; your look is recorded.")))


COMMAND = MailCommand(
    rule="secrets",
    parsed_form=Secrets,
    grammar=keyword_grammar("secrets", "SECRETS"),
    help="",
    gm_help="""\
  SECRETS                          mail the GM's address every seat's view of this turn, its
                                   secrets included (logged; your other mail shows only the
                                   public report)
""",
    in_gm=in_gm,
)
