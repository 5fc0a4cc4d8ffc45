"""PREVIEW (in a GM's session): a dry run of the current turn (standing orders, NMR defaults, the real
dice), its reports mailed to the GM; nothing changes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.reports import render_report
from pbem.service import rewind

if TYPE_CHECKING:
    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow


@dataclass(frozen=True)
class Preview(ParsedCommand):
    """PREVIEW (GM): a dry run of the current turn, every seat's report mailed to the GM."""


def in_gm(conv: Conversation, row: GameRow, command: Preview) -> None:
    """PREVIEW: the dry run's public report (and each seat's, in a game without secrets) to the GM's address."""
    unit = conv.unit
    if (earlier := conv.handled.answered("PREVIEW", row.name)) is not None:  # one mail per game and mail
        conv.reply.add(earlier)
        return
    dry = rewind.preview(unit, row.name)
    info = unit.snapshot(row)
    parts = [f"PREVIEW of turn {row.turn} of {row.name}: a dry run with the standing orders, NMR defaults for "
             f"{', '.join(dry.nmr) or 'nobody'} and the game's real dice. Nothing was changed; the turn resolves "
             "as usual.", "===== public report =====\n" + render_report(dry.report, None)]
    if info.rules.has_hidden_information:
        parts.append("The seats' own reports are left out: they hold secrets that reach only their holders.")
    else:
        parts += [f"===== seat {seat} =====\n" + render_report(dry.report, seat) for seat in info.seat_names]
    if row.gm_address:
        conv.notifier.tell_address(unit, row, row.gm_address, f"Preview of turn {row.turn}", "\n\n".join(parts))
    conv.reply.add(conv.handled.remember(
        "PREVIEW", row.name, f"PREVIEW: the reports of a dry run of turn {row.turn} went to {row.gm_address or 'nobody'}."))


COMMAND = MailCommand(
    rule="preview",
    parsed_form=Preview,
    grammar=keyword_grammar("preview", "PREVIEW"),
    help="",
    gm_help="""\
  PREVIEW                          a dry run of this turn (standing orders, NMR defaults, the
                                   real dice): every seat's report mailed to you, nothing changed
""",
    in_gm=in_gm,
)
