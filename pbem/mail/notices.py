"""Mail the service starts by itself: turn reports, reminders, notices to GMs and players.

Every message is queued in the caller's transaction, so a report exists
exactly when the turn it reports was committed.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from datetime import datetime

from pbem.addresses import is_plain_address
from pbem.clock import format_utc
from pbem.mail.compose import BinaryPart, compose_report
from pbem.mail.mailstore import DatabaseOutbox
from pbem.mail.preferences import wants_view_json
from pbem.mail.tokens import ReplyTokens
from pbem.pictures import MissingDrawing, picture
from pbem.reports import MailSection, OrdersWanted, PictureRef, ReportInput, render_mail_html, render_report
from pbem.service import digests
from pbem.service.digests import DueReport
from pbem.service.resolution import ResolvedTurns
from pbem.service.snapshot import GameInfo
from pbem.service.unit import Unit
from pbem.store.tables import GameRow, SeatRow

FROM_NAME = "pbem game master"
_TO_GM = ("\n\nA plain reply to this mail goes to the GM as press. To send orders, reply to your turn report "
          "or a reminder.\n")

_log = logging.getLogger(__name__)


class MailNotifier:
    """Queues reports and notices for the seats and GM of a game.

    Implements :class:`pbem.service.deadlines.Notifier` and is registered as an
    ``on_resolved`` listener of :class:`pbem.service.api.GameService`. Every mail is queued
    in the caller's unit of work.
    """

    def __init__(self, *, address: str, tokens: ReplyTokens, clock: Callable[[], datetime],
                 web_url: str | None = None) -> None:
        """``web_url`` is where the web archive is served (``http://host:port``); with it every mail to
        a seat carries the seat's private link."""
        self.address = address
        self.tokens = tokens
        self.clock = clock
        self.web_url = web_url.rstrip("/") if web_url else None

    def seat_link(self, row: GameRow, seat: SeatRow) -> str | None:
        """Return the signed private web link of ``seat`` (its own view and history), or None without a web archive."""
        if self.web_url is None:
            return None
        return f"{self.web_url}/seat/{self.tokens.link_token(row.name, seat.name, seat.key_version, self.clock().date())}"

    def reply_address(self, row: GameRow, seat: SeatRow, *, press_from: str | None = None) -> str:
        """Return the signed reply address of ``seat`` (a plain reply to it authenticates the seat); with
        ``press_from`` the one of a press mail from that author (a reply goes back to the author as press)."""
        return self.tokens.address_for(self.address, row.name, seat.name, seat.key_version, self.clock().date(),
                                       press_from=press_from)

    def _link_line(self, row: GameRow, seat: SeatRow) -> str:
        link = self.seat_link(row, seat)
        return f"\nYour seat's own page, with its history: {link}\n" if link else ""

    def send_reports(self, unit: Unit, info: GameInfo, reports: Sequence[DueReport]) -> None:
        """Queue each report: to its seat (its own view), or the public report to the GM."""
        row = info.row
        subject = f"[{row.name}] Turn {row.turn}" if info.outcome is None else f"[{row.name}] Final report"
        for due in reports:
            report, seat = due.report, due.seat
            if seat is None:
                if row.gm_address:
                    ref, inline = self._picture(report, row, None)
                    self._queue(unit, row, row.gm_address, subject, render_report(report, None),
                                render_report(report, None, html=True, picture=ref), purpose="report", inline=inline)
                continue
            if not seat.address:
                continue
            link = self.seat_link(row, seat)
            ref, inline = self._picture(report, row, seat.name)
            attachments = ()
            if wants_view_json(unit.session, seat.address):
                view = json.dumps(report.rules.view(report.state, seat.name), indent=1, sort_keys=True)
                attachments = (BinaryPart("view.json", "application/json", view.encode()),)
            self._queue(
                unit, row, seat.address, subject,
                render_report(report, seat.name, seat_link=link),
                render_report(report, seat.name, html=True, picture=ref, seat_link=link),
                reply_to=self.reply_address(row, seat), purpose="report", inline=inline, attachments=attachments,
            )

    def _picture(self, report: ReportInput, row: GameRow,
                 seat: str | None) -> tuple[PictureRef | None, tuple[BinaryPart, ...]]:
        """The picture of the reader's view: how the HTML refers to it, and the inline PNG part (none for
        a game without a drawing: the shared test of every game makes sure a hosted game has one)."""
        try:
            drawn = picture(report.rules, report.rules.view(report.state, seat), seat)
        except MissingDrawing:
            _log.warning("game %s: kind %s has no drawing; report sent without a picture", row.name, report.rules.name)
            return None, ()
        who = seat.lower() if seat else "public"
        content_id = f"board.{row.name}.{row.turn}.{who}@{self.address.rpartition('@')[2]}"
        ref = PictureRef(f"cid:{content_id}", drawn.alt, drawn.width, drawn.height)
        return ref, (BinaryPart(f"board-{row.name}-{row.turn}-{who}.png", "image/png", drawn.png, content_id),)

    def on_resolved(self, unit: Unit, info: GameInfo, resolved: ResolvedTurns) -> None:
        """Queue the reports a resolution makes due (under ``reports=each`` one to every reader, telling
        every turn it resolved; under ``digest`` see :mod:`pbem.service.digests`)."""
        for turn in resolved.turns:
            _log.info("game %s: turn %s resolved (%s)", info.row.name, turn.record.turn, turn.record.reason,
                      extra={"game": info.row.name, "turn": turn.record.turn, "reason": turn.record.reason})
        self.send_reports(unit, info, digests.take_reports(unit, info))

    def remind(self, unit: Unit, info: GameInfo, seats: Sequence[SeatRow]) -> None:
        """Remind ``seats`` that their orders are missing, with the deadline."""
        row = info.row
        deadline = format_utc(row.deadline) if row.deadline else "the deadline"
        for seat in seats:
            if not seat.address:
                continue
            subject = f"[{row.name}] Reminder: turn {row.turn} orders due"
            text = (f"Reminder: game {row.name} ({info.rules.title}) has no orders from seat {seat.name} for "
                    f"turn {row.turn}. They are due by {deadline}.")
            link = self._link_line(row, seat)
            body = (f"{text}\n\nReply to this mail with your orders, one per line. "
                    f"Send HELP {info.rules.name} for the order syntax.\n") + link
            sections = [MailSection(text), *([MailSection(link.strip())] if link else [])]
            html = render_mail_html(subject, sections, ask=OrdersWanted(info.rules.name, deadline))
            self._queue(unit, row, seat.address, subject, body, html,
                        reply_to=self.reply_address(row, seat), purpose="reminder")

    def tell_gm(self, unit: Unit, info: GameInfo, text: str) -> None:
        """Queue a notice to the GM of the game (nothing when it has none)."""
        if info.row.gm_address:
            self._queue(unit, info.row, info.row.gm_address, f"[{info.row.name}] GM notice", text + "\n",
                        None, purpose="notice")

    def tell_players(self, unit: Unit, info: GameInfo, text: str) -> None:
        """Queue a notice to every seat of the game and its GM."""
        for seat in info.seats:
            if seat.address:
                self._queue(unit, info.row, seat.address, f"[{info.row.name}] Notice",
                            text + _TO_GM + self._link_line(info.row, seat), None,
                            reply_to=self.reply_address(info.row, seat, press_from="gm"), purpose="notice")
        self.tell_gm(unit, info, text)

    def tell_address(self, unit: Unit, row: GameRow, to: str, subject: str, text: str,
                     *, seat: SeatRow | None = None, secret: bool = False, press_from: str | None = None,
                     asks_orders: bool = False) -> None:
        """Queue a notice to one address; with ``secret`` (it holds a password) the body is not kept
        once the mail is sent; the seat's private link when it goes to the seat's holder. With
        ``seat``, a plain reply signs the seat on: with ``asks_orders`` it is orders (the notice asks
        for them), else press to ``press_from`` (a press mail's author) or to the GM (the notice says
        so). Only mails that ask for orders (reports, reminders, order checks, a seat's welcome
        mid-game) have reply addresses read as orders."""
        reply_to = None
        if seat is not None and asks_orders:
            reply_to = self.reply_address(row, seat)
            text += (f"\n\nReply to this mail with your orders, one per line. Send HELP {row.kind} for the "
                     "order syntax.")
        elif seat is not None:
            reply_to = self.reply_address(row, seat, press_from=press_from or "gm")
            text = text if press_from else text + _TO_GM.rstrip("\n")
        link = self._link_line(row, seat) if seat is not None and seat.address == to else ""
        self._queue(unit, row, to, f"[{row.name}] {subject}", text + "\n" + link, None, reply_to=reply_to,
                    purpose="notice", secret=secret)

    def _queue(self, unit: Unit, row: GameRow, to: str, subject: str, body: str, html: str | None,
               *, reply_to: str | None = None, purpose: str, secret: bool = False,
               inline: tuple[BinaryPart, ...] = (), attachments: tuple[BinaryPart, ...] = ()) -> None:
        if not is_plain_address(to):  # stored before addresses were checked: the turn must go on regardless
            _log.warning("game %s: no %s to %r: not a mail address; REPLACE the seat to fix it", row.name, purpose, to)
            return
        message = compose_report(
            game=row.name, turn=row.turn, to=to, from_address=self.address, from_name=FROM_NAME,
            body=body, html=html, reply_to=reply_to, subject=subject, now=self.clock(), inline=inline,
            attachments=attachments,
        )
        DatabaseOutbox.enqueue(unit.session, message, purpose=purpose, secret=secret)

