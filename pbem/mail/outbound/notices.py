"""Mail the service starts by itself: turn reports, reminders, notices to GMs and players.

Every message is queued in the caller's transaction, so a report exists
exactly when the turn it reports was committed.

Only to addresses that asked (:mod:`pbem.service.consent`): a mail to any other address is not
queued, except the one invitation per address and game. Every mail carries its reader's
List-Unsubscribe links. The mail one incoming mail causes besides its reply is bounded: at most
:data:`MAX_MAIL_TO_OTHERS` notices and invitations, to its sender's address or any other (turn reports,
to seats, observers and the GM, all of whom asked, are not counted).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from pbem import budget
from pbem.addresses import is_plain_address
from pbem.games import find_game
from pbem.mail.outbound.calendar import deadline_calendar, next_sequence
from pbem.mail.outbound.compose import BinaryPart, Unsubscribe, compose_report
from pbem.mail.outbound.preferences import wants_view_json, zone_and_text_only, zone_of
from pbem.mail.outbound.queue import DatabaseOutbox
from pbem.mail.outbound.tokens import ReplyTokens
from pbem.mailto import mailto_url
from pbem.numbering import board_moment
from pbem.pictures import MissingDrawing, ReportPictures, drawing_for
from pbem.reports import (
    MailSection,
    OrdersWanted,
    PictureRef,
    ReplyTo,
    ReportInput,
    environment,
    order_choices,
    render_mail_html,
    render_report,
)
from pbem.service import consent, digests, leagues, observers, reporting, seats
from pbem.service.consent import Invited
from pbem.service.digests import DueReport
from pbem.service.leagues import LeagueSeatHandedOver, LeagueView, RoundSeated, StandingsDue, TablesEnded, TablesOpened
from pbem.service.news import (
    AddressStopped,
    AddressUndeliverable,
    DeadlineExtended,
    OfferAccepted,
    RolledBack,
    SeatFreed,
    SeatHandedOver,
    SeatOffered,
)
from pbem.service.reporting import report_since
from pbem.service.resolution import ResolvedTurns
from pbem.service.snapshot import GameInfo
from pbem.service.unit import Unit
from pbem.store.tables import GameRow, GameStatus, SeatRow
from pbem.zones import localize, mark

FROM_NAME = "pbem game master"
INVITATION = "invite"
"""The press author of an invitation's reply address (``gm+game.seat.k1.p-invite...``): a reply to it
accepts the invitation (or, saying STOP, declines all mail), and is never read as orders or press."""
MAX_MAIL_TO_OTHERS = 40
"""Most mails one incoming mail may cause besides its reply, turn reports aside: invitations, notices
to the GM and to players, password mails, previews (to its sender's own address too: 99 commands that
each notify must not send 99 mails). What passes the
bound is not queued, and the reply says how many were held back."""
REPORT_AGAIN = "report-again"
"""The purpose of a report sent again on request (REPORT): unlike a turn report, it counts toward
:data:`MAX_MAIL_TO_OTHERS`."""
NEWEST_REPORT_FOLLOWS = "Your seat's newest turn report, with the board, comes in a mail of its own."
"""Told to a seat's new holder in a game under way, whose newest report is sent with the seat."""
_TO_GM = ("\n\nA plain reply to this mail goes to the GM as press. To send orders, reply to your turn report "
          "or a reminder.\n")

_log = logging.getLogger(__name__)

LeagueNews = RoundSeated | TablesOpened | TablesEnded | StandingsDue | LeagueSeatHandedOver
LEAGUE_NEWS = (RoundSeated, TablesOpened, TablesEnded, StandingsDue, LeagueSeatHandedOver)
"""The news of a league's work, told by :meth:`MailNotifier._tell_league`."""


def asked_for_orders(info: GameInfo) -> set[str]:
    """The seats a mail of the game asks for orders now: those owing orders whose play the service
    does not make itself."""
    if info.phase is None or info.outcome is not None:
        return set()
    return {seat for seat in info.phase.seats if info.rules.forced_orders(info.state, seat) is None}


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

    def calendar(self, unit: Unit, row: GameRow, seat: SeatRow) -> tuple[BinaryPart, ...]:
        """The seat's deadline as an iCalendar attachment (none when the game has no deadline or the
        seat owes no orders now); the game's SEQUENCE rises when its deadline moved since the last one."""
        if row.deadline is None or not seat.address or seat.name not in asked_for_orders(unit.snapshot(row)):
            return ()
        return (deadline_calendar(game=row.name, title=find_game(row.kind).title, seat=seat.name, turn=row.turn,
                                  deadline=row.deadline, sequence=next_sequence(row),
                                  domain=self.address.rpartition("@")[2], alarm_hours=row.reminder_hours,
                                  now=self.clock(), zone=zone_of(unit.session, seat.address)),)

    def unsubscribe(self, to: str) -> Unsubscribe:
        """How ``to`` stops all mail from pbem: a mail to the service with the subject ``STOP <token>``, and
        with the web archive the one-click ``/unsubscribe/<token>`` (the token signs ``to``)."""
        token = self.tokens.stop_token(to)
        url = f"{self.web_url}/unsubscribe/{token}" if self.web_url else None
        return Unsubscribe(mailto_url(self.address, subject=f"STOP {token}"), url)

    def invite(self, unit: Unit, row: GameRow, invited: Invited) -> None:
        """Queue the one invitation ``invited.address`` gets for the game: who seated it, the game, and how
        to accept (a reply, or JOIN) or stop; as plain text and as HTML that reads on a phone."""
        rules = find_game(row.kind)
        text = (f"{invited.invited_by} seated you ({invited.address}) at seat {invited.seat} of game {row.name}, a "
                f"game of {rules.title} ({row.kind}) played by mail with pbem, a game master service; the game's "
                f"GM is {row.gm_address or invited.invited_by}.\n\n"
                "You never wrote to pbem, so this is the only mail you get for this game until you accept.\n"
                f"To accept, reply to this mail (any text will do), or send JOIN {row.name} to {self.address}.\n"
                "To decline, ignore this mail. To get no mail from pbem at all, reply STOP.\n")
        seat = unit.seat(row, invited.seat)
        subject = f"[{row.name}] You are invited to seat {invited.seat}"
        html = render_mail_html(subject, [MailSection(paragraph) for paragraph in text.strip().split("\n\n")])
        self._queue(unit, row, invited.address, subject, text, html,
                    reply_to=self.reply_address(row, seat, press_from=INVITATION), purpose="invitation")

    def _link_line(self, row: GameRow, seat: SeatRow) -> str:
        link = self.seat_link(row, seat)
        return f"\nYour seat's own page, with its history: {link}\n" if link else ""

    def send_reports(self, unit: Unit, info: GameInfo, reports: Sequence[DueReport]) -> None:
        """Queue each report: to its seat (its own view), or the public report to the GM or an observer
        (while the GM allows observers). Every report shows the board (one picture for all of them: the
        state now, a digest's too) and a seat's report the seat's own picture too."""
        row = info.row
        subject = f"[{row.name}] Turn {row.turn}" if info.outcome is None else f"[{row.name}] Final report"
        pictures = self._report_pictures(reports[0].report, row) if reports else None
        for due in reports:
            report = due.report
            if report.deadline_at is not None:  # written in each reader's time zone
                report = replace(report, deadline=mark(report.deadline_at))
            if due.seat is not None:
                if due.seat.address:
                    self._report_to_seat(unit, info, report, due.seat, subject, pictures)
            elif due.observer is not None:
                if observers.allowed(row):
                    self._public_report(unit, row, report, subject, pictures, due.observer.address,
                                        _observer_note(row))
            elif row.gm_address:
                self._public_report(unit, row, report, subject, pictures, row.gm_address)

    def send_final(self, unit: Unit, row: GameRow) -> None:
        """Queue the final report of a game that ended outside a turn (the GM's END, an agreed end) to every
        reader, telling each the turns it was not told yet."""
        info = unit.snapshot(row)
        self.send_reports(unit, info, digests.take_reports(unit, info, everyone=True))

    def send_newest_report(self, unit: Unit, row: GameRow, seat: SeatRow) -> None:
        """Queue the newest report of a game under way to ``seat``'s new holder, made as REPORT makes it (the
        seat's view, the board, its reply address)."""
        self.send_again(unit, unit.snapshot(row), reporting.report_of_turn(unit, row.name, None), seat,
                        seat.address or "")

    def send_again(self, unit: Unit, info: GameInfo, report: ReportInput, seat: SeatRow | None, to: str) -> None:
        """REPORT: queue ``report`` once more, made as it was sent: to ``seat``'s holder its own report (its
        view, its picture, link, view.json as asked; the calendar when the report has the deadline now),
        else the public report to ``to`` (the GM, or an observer with its note). Its subject is the
        original's. It counts toward the mail one incoming mail may cause (:data:`MAX_MAIL_TO_OTHERS`)."""
        row = info.row
        turn = (report.last_turn if report.last_turn is not None else report.turn) + 1  # the turn then awaited
        subject = f"[{row.name}] Turn {turn}" if report.outcome is None else f"[{row.name}] Final report"
        if report.deadline_at is not None:
            report = replace(report, deadline=mark(report.deadline_at))
        pictures = self._report_pictures(report, row)
        if seat is not None:
            self._report_to_seat(unit, info, report, seat, subject, pictures, purpose=REPORT_AGAIN, turn=turn)
        else:
            note = _observer_note(row) if to != row.gm_address else ""
            self._public_report(unit, row, report, subject, pictures, to, note, purpose=REPORT_AGAIN, turn=turn)

    def _public_report(self, unit: Unit, row: GameRow, report: ReportInput, subject: str,
                       pictures: ReportPictures | None, to: str, note: str = "", *, purpose: str = "report",
                       turn: int | None = None) -> None:
        """Queue the public report to ``to`` (the GM or an observer), ``note`` after its text; its pictures
        named for ``turn`` (the turn awaited after it; None: the game's turn now)."""
        refs, inline = self._pictures(pictures, row, None, turn)
        text = render_report(report, None)
        self._queue(unit, row, to, subject, text + note,
                    render_report(report, None, html=True, pictures=refs, text=text), purpose=purpose, inline=inline)

    def _report_to_seat(self, unit: Unit, info: GameInfo, report: ReportInput, seat: SeatRow, subject: str,
                        pictures: ReportPictures | None, *, purpose: str = "report", turn: int | None = None) -> None:
        """Queue one seat's report: the board and its own picture (named for ``turn``, as in
        :meth:`_public_report`), its link, calendar (when the report tells the deadline now) and view.json
        as asked (for an address that reads text only no HTML part and no picture, and neither is made)."""
        row = info.row
        assert seat.address is not None
        link = self.seat_link(row, seat)
        _, text_only = zone_and_text_only(unit.session, seat.address)
        refs, inline = ((), ()) if text_only else self._pictures(pictures, row, seat.name, turn)
        attachments = self.calendar(unit, row, seat) if report.outcome is None and report.deadline_at else ()
        if wants_view_json(unit.session, seat.address):
            view = json.dumps(report.rules.view(report.state, seat.name), indent=1, sort_keys=True)
            attachments += (BinaryPart("view.json", "application/json", view.encode()),)
        text = render_report(report, seat.name, seat_link=link)
        reply_to = self.reply_address(row, seat)
        html = None if text_only else render_report(report, seat.name, html=True, pictures=refs, seat_link=link,
                                                    text=text, reply=ReplyTo(reply_to, f"Re: {subject}"))
        self._queue(
            unit, row, seat.address, subject, text, html,
            reply_to=reply_to, purpose=purpose, inline=inline, attachments=attachments,
        )

    def _report_pictures(self, report: ReportInput, row: GameRow) -> ReportPictures | None:
        """The pictures of ``report`` for all its readers (None for a game without a drawing: the shared test
        of every game makes sure a hosted game has one)."""
        try:
            drawing_for(report.rules)
        except MissingDrawing:
            _log.warning("game %s: kind %s has no drawing; report sent without a picture", row.name, report.rules.name)
            return None
        return ReportPictures(report.rules, report.state, moment=board_moment(report.newest_turn))

    def _pictures(self, pictures: ReportPictures | None, row: GameRow, seat: str | None,
                  turn: int | None = None) -> tuple[tuple[PictureRef, ...], tuple[BinaryPart, ...]]:
        """The pictures of one reader: how the HTML refers to them, and their inline PNG parts, named for
        ``turn`` (None: the game's turn now). The board is the same part, under the same Content-ID, in
        every reader's mail; a seat's own picture follows."""
        turn = row.turn if turn is None else turn
        if pictures is None:
            return (), ()
        drawn = [("board", pictures.board())]
        own = pictures.own(seat)
        if own is not None and seat is not None:
            drawn.append((f"own-{seat.lower()}", own))
        domain = self.address.rpartition("@")[2]
        refs, parts = [], []
        for name, picture in drawn:
            content_id = f"{name}.{row.name}.{turn}@{domain}"
            refs.append(PictureRef(f"cid:{content_id}", picture.alt, picture.width, picture.height))
            parts.append(BinaryPart(f"{name}-{row.name}-{turn}.png", "image/png", picture.png, content_id))
        return tuple(refs), tuple(parts)

    def on_resolved(self, unit: Unit, info: GameInfo, resolved: ResolvedTurns) -> None:
        """Queue the reports a resolution makes due (under ``reports=each`` one to every reader, telling
        every turn it resolved; under ``digest`` see :mod:`pbem.service.digests`)."""
        for turn in resolved.turns:
            _log.info("game %s: turn %s resolved (%s)", info.row.name, turn.record.turn, turn.record.reason,
                      extra={"game": info.row.name, "turn": turn.record.turn, "reason": turn.record.reason})
        self.send_reports(unit, info, digests.take_reports(unit, info))

    def on_news(self, unit: Unit, news: list[object]) -> None:
        """Tell the people concerned what a unit's work brought: moved deadlines, seat offers and
        handovers, rollbacks (the service's :attr:`~pbem.service.api.GameService.on_news` listener)."""
        for item in news:
            if isinstance(item, LEAGUE_NEWS):
                self._tell_league(unit, item)
                continue
            info = unit.info(item.game)  # type: ignore[attr-defined]
            row = info.row
            match item:
                case DeadlineExtended():
                    self.tell_players(unit, info, f"The deadline of turn {item.turn} of {row.name} moves to "
                                      f"{mark(item.deadline)}: a player announced an absence.", calendar=True)
                case SeatOffered():
                    public = render_report(report_since(unit, row.name, max(row.turn - 2, 0)), None)
                    self.tell_address(unit, row, item.address, f"Seat {item.seat} is offered to you",
                                      f"You are on the standby list of {row.kind}, and seat {item.seat} of game "
                                      f"{row.name} is free ({item.reason}). To take it, reply ACCEPT (or send "
                                      f"ACCEPT {row.name}). The game's public state:\n\n{public}")
                    self.tell_gm(unit, info, f"Seat {item.seat} of {row.name} was offered to the standby "
                                 f"{item.address} ({item.reason}).")
                case OfferAccepted():
                    self.tell_gm(unit, info, f"The standby {item.address} accepted seat {item.seat} of {row.name}. "
                                 f"To hand it over, send REPLACE {item.seat} {item.address} in a GM mail.")
                case SeatHandedOver():
                    self.welcome(unit, row, unit.seat(row, item.seat), item.password, item.old_address,
                                 "It came to you from the standby list. ", "The service")
                    self.tell_gm(unit, info, f"Seat {item.seat} of {row.name} went to the standby {item.address} "
                                 "(replace=auto).")
                case RolledBack():
                    self._tell_rollback(unit, info, item)
                case AddressStopped():
                    self.tell_gm(unit, info, (
                        f"{item.address}, the holder of seat {item.seat} of {row.name}, sent STOP: pbem sends it no "
                        "more mail. The seat stays its own and goes silent: NMR defaults, and the game's absence "
                        f"settings (grace_hours, replace_after) handle it. REPLACE {item.seat} <address> hands it "
                        "to someone else."))
                case SeatFreed():
                    self.tell_gm(unit, info, (
                        f"{item.address}, who held seat {item.seat} of {row.name}, {item.why}: the seat is open "
                        f"again. SEAT {item.seat} <address> gives it to another player, or anyone may JOIN "
                        f"{row.name} {item.seat}."))
                case AddressUndeliverable():
                    self.tell_gm(unit, info, (
                        f"Mail to {item.address}, the holder of seat {item.seat} of {row.name}, cannot be delivered "
                        f"({item.reason}): pbem sends it no more mail until it writes again. The seat goes silent "
                        "as an absent seat does: NMR defaults, and the game's absence settings (grace_hours, "
                        f"replace_after, the standby list) handle it. REPLACE {item.seat} <address> hands it to "
                        "someone else."))

    def open_game(self, unit: Unit, info: GameInfo, *, purpose: str = "notice") -> None:
        """A game just started: give every seat without a password a fresh one (a secret mail each, of
        ``purpose``) and send every reader the opening report."""
        row = info.row
        issued = seats.issue_passwords(unit, row.name)
        for seat in info.seats:
            budget.check()
            if seat.name in issued and seat.address:
                self.tell_address(unit, row, seat.address, "Your seat",
                                  f"You play seat {seat.name} of game {row.name}. Your password is {issued[seat.name]}; "
                                  "a plain reply to your turn report signs you on.", seat=seat, secret=True,
                                  purpose=purpose)
        self.send_reports(unit, info, digests.take_opening(unit, info))

    def send_standings(self, unit: Unit, standings: LeagueView, after: int, to: str, intro: str) -> None:
        """Queue a league's standings after round ``after`` to ``to``: ``intro``, then the standings as text
        and as an HTML table (text alone for an address that asked for SET TEXTONLY ON)."""
        html = environment(html=True).get_template("common/league.html.j2").render(league=standings, intro=intro)
        self._queue_as(unit, standings.name, after, to, f"[{standings.name}] Standings after round {after}",
                       f"{intro}\n\n{standings.text()}", html, purpose="standings")

    def _tell_league(self, unit: Unit, item: LeagueNews) -> None:
        """A league's news: some of a round's games started (passwords and opening reports), the round's
        last table seated (the GM told), games ended by LEAGUE END (their last reports), the standings due
        to some readers, a seat handed to a new player."""
        match item:
            case TablesOpened():
                for game in item.games:
                    self.open_game(unit, unit.info(game), purpose="league")
            case RoundSeated():
                self._tell_seated(unit, item)
            case TablesEnded():
                for game in item.games:
                    info = unit.info(game)
                    self.send_reports(unit, info, digests.take_reports(unit, info, everyone=True))
            case StandingsDue():
                intro = (f"League {item.league} is over: the final standings." if item.over else
                         f"Round {item.round} of league {item.league} is over; round {item.round + 1} starts now: "
                         "your game's first report comes in its own mail.")
                for address, view in leagues.views_for(unit, item.league, item.readers).items():
                    self.send_standings(unit, view, item.round, address, intro)
            case LeagueSeatHandedOver():
                row = unit.game(item.game)
                self.welcome(unit, row, unit.seat(row, item.seat), item.password, item.old_address,
                             "It came to you with a place in a league. ", "The league's GM")

    def _tell_seated(self, unit: Unit, item: RoundSeated) -> None:
        """Tell the league's GM (one mail) that every table of the round has its game, with the tables."""
        league = leagues.league_row(unit, item.league)
        if not league.gm_address:
            return
        view = leagues.views_for(unit, item.league, [league.gm_address])[league.gm_address]
        tables = [t for t in view.tables if t.round == item.round]
        played = [t for t in tables if t.game]
        lines = [f"{t.game or 'bye'}: {', '.join(p.label for p in t.players)}" for t in tables]
        where = (f"The standings and every table: {self.web_url}/league/{league.name}" if self.web_url
                 else f"LEAGUE STANDINGS {league.name} answers with the standings.")
        text = (f"Round {item.round} of league {league.name} has started: {len(played)} tables, every one seated; "
                f"each player got its seat and first report by mail.\n\n" + "\n".join(lines) + f"\n\n{where}\n")
        self._queue_as(unit, league.name, item.round, league.gm_address,
                       f"[{league.name}] Round {item.round} started: {len(played)} tables", text, None,
                       purpose="notice")

    def welcome(self, unit: Unit, row: GameRow, seat: SeatRow, password: str, old: str | None, why: str,
                by: str) -> None:
        """Give a seat's new holder its password (a secret mail asking for orders) and tell the old one that
        ``by`` (``"The GM"``, ``"The service"``) gave the seat to another player."""
        assert seat.address is not None
        under_way = row.status in (GameStatus.ACTIVE, GameStatus.PAUSED)
        self.tell_address(
            unit, row, seat.address, "You take over a seat",
            f"{by} gave you seat {seat.name} of game {row.name}. {why}Your password is {password}; a plain reply to "
            "this mail or a turn report signs you on." + (f" {NEWEST_REPORT_FOLLOWS}" if under_way else ""),
            seat=seat, secret=True, asks_orders=row.status == GameStatus.ACTIVE)
        if under_way:
            self.send_newest_report(unit, row, seat)
        if old and old != seat.address:
            self.tell_address(unit, row, old, "Seat replaced",
                              f"{by} gave your seat {seat.name} of game {row.name} to another player.")

    def _tell_rollback(self, unit: Unit, info: GameInfo, news: RolledBack) -> None:
        row = info.row
        text = (f"The GM rolled game {row.name} back to the start of turn {news.turn}: {news.undone} resolved turn(s) "
                "are undone and will be played again. The dice of the redone turns come from the same counters, so "
                "the same roll of the same range shows the same result.")
        if row.deadline is not None:
            text += f" The deadline of turn {news.turn} is now {mark(row.deadline)}."
        for seat in info.seats:
            budget.check()
            if not seat.address:
                continue
            kept = news.orders.get(seat.name, [])
            orders = "".join(f"\n\nYour orders for turn {turn}:\n" + ("\n".join(lines) or "(none: you held)")
                             for turn, lines in kept)
            self.tell_address(unit, row, seat.address, f"Rolled back to turn {news.turn}",
                              text + (f" Your orders of those turns are kept; send them again when they are wanted"
                                      f" (they no longer stand).{orders}" if kept else ""),
                              seat=seat, asks_orders=seat.name in asked_for_orders(info))
        if not _is_gm(unit.mail_from, row):
            self.tell_gm(unit, info, text)  # the GM who sent ROLLBACK by mail reads it in the reply

    def remind(self, unit: Unit, info: GameInfo, seats: Sequence[SeatRow]) -> None:
        """Remind ``seats`` that their orders are missing, with the deadline."""
        row = info.row
        deadline = mark(row.deadline) if row.deadline else "the deadline"
        for seat in seats:
            budget.check()
            if not seat.address:
                continue
            subject = f"[{row.name}] Reminder: turn {row.turn} orders due"
            text = (f"Reminder: game {row.name} ({info.rules.title}) has no orders from seat {seat.name} for "
                    f"turn {row.turn}. They are due by {deadline}.")
            link = self._link_line(row, seat)
            body = (f"{text}\n\nReply to this mail with your orders, one per line. "
                    f"Send HELP {info.rules.name} for the order syntax.\n") + link
            sections = [MailSection(text), *([MailSection(link.strip())] if link else [])]
            reply_to = self.reply_address(row, seat)
            choices = order_choices(info.rules, info.state, seat.name, ReplyTo(reply_to, f"Re: {subject}")) \
                if seat.name in asked_for_orders(info) else []
            html = render_mail_html(subject, sections, ask=OrdersWanted(info.rules.name, deadline, choices))
            self._queue(unit, row, seat.address, subject, body, html, reply_to=reply_to, purpose="reminder",
                        attachments=self.calendar(unit, row, seat))

    def tell_gm(self, unit: Unit, info: GameInfo, text: str) -> None:
        """Queue a notice to the GM of the game (nothing when it has none)."""
        if info.row.gm_address:
            self._queue(unit, info.row, info.row.gm_address, f"[{info.row.name}] GM notice", text + "\n",
                        None, purpose="notice")

    def tell_players(self, unit: Unit, info: GameInfo, text: str, *, calendar: bool = False,
                     actor: str | None = None) -> None:
        """Queue a notice to every seat of the game and its GM, unless the GM's address is ``actor`` (who
        did what the notice tells: the reply to its mail says so); with ``calendar`` (the deadline
        moved) the seats that owe orders get their deadline's calendar update attached."""
        for seat in info.seats:
            budget.check()
            if seat.address:
                self._queue(unit, info.row, seat.address, f"[{info.row.name}] Notice",
                            text + _TO_GM + self._link_line(info.row, seat), None,
                            reply_to=self.reply_address(info.row, seat, press_from="gm"), purpose="notice",
                            attachments=self.calendar(unit, info.row, seat) if calendar else ())
        if not _is_gm(actor, info.row):
            self.tell_gm(unit, info, text)

    def tell_address(self, unit: Unit, row: GameRow, to: str, subject: str, text: str,
                     *, seat: SeatRow | None = None, secret: bool = False, press_from: str | None = None,
                     asks_orders: bool = False, purpose: str = "notice") -> None:
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
        attachments = self.calendar(unit, row, seat) if seat is not None and asks_orders else ()
        self._queue(unit, row, to, f"[{row.name}] {subject}", text + "\n" + link, None, reply_to=reply_to,
                    purpose=purpose, secret=secret, attachments=attachments)

    def _queue(self, unit: Unit, row: GameRow, to: str, subject: str, body: str, html: str | None,
               *, reply_to: str | None = None, purpose: str, secret: bool = False,
               inline: tuple[BinaryPart, ...] = (), attachments: tuple[BinaryPart, ...] = ()) -> None:
        self._queue_as(unit, row.name, row.turn, to, subject, body, html, reply_to=reply_to, purpose=purpose,
                       secret=secret, inline=inline, attachments=attachments)

    def _queue_as(self, unit: Unit, name: str, turn: int, to: str, subject: str, body: str, html: str | None,
                  *, reply_to: str | None = None, purpose: str, secret: bool = False,
                  inline: tuple[BinaryPart, ...] = (), attachments: tuple[BinaryPart, ...] = ()) -> None:
        """Queue a mail of the game (or league) ``name`` at ``turn`` (its round), when ``to`` may be
        written to and the unit's bound allows."""
        if not is_plain_address(to):  # stored before addresses were checked: the turn must go on regardless
            _log.warning("game %s: no %s to %r: not a mail address; REPLACE the seat to fix it", name, purpose, to)
            return
        if purpose != "invitation" and not consent.may_mail(unit.session, to):
            _log.info("game %s: no %s to %s: it has not asked for pbem's mail", name, purpose, to)
            return
        if not _within_bound(unit, purpose):
            _log.warning("game %s: no %s to %s: the mail from %s caused %d mails already", name,
                         purpose, to, unit.mail_from, MAX_MAIL_TO_OTHERS)
            return
        zone, text_only = zone_and_text_only(unit.session, to)
        body, html = localize(body, zone), localize(html, zone) if html is not None else None
        if text_only:
            html, inline = None, ()
        message = compose_report(
            game=name, turn=turn, to=to, from_address=self.address, from_name=FROM_NAME,
            body=body, html=html, reply_to=reply_to, subject=subject, now=self.clock(), inline=inline,
            attachments=attachments, unsubscribe=self.unsubscribe(to),
        )
        DatabaseOutbox.enqueue(unit.session, message, purpose=purpose, secret=secret, at=unit.now())


_UNBOUNDED = ("report", "standings", "league")
"""Purposes of mail to people who asked for it, sent whatever mail caused them: turn reports, a league's
standings after a round, and the passwords of the league's new tables (a round of a large league seats many)."""


def _is_gm(address: str | None, row: GameRow) -> bool:
    """True when ``address`` is the GM's address of the game of ``row`` (any letter case)."""
    return address is not None and row.gm_address is not None and address.lower() == row.gm_address.lower()


def _observer_note(row: GameRow) -> str:
    """The note after the text of an observer's report."""
    return f"\nYou observe game {row.name}: its public reports come to you. UNOBSERVE {row.name} stops them.\n"


def _within_bound(unit: Unit, purpose: str) -> bool:
    """Count a mail toward the bound of what the unit's incoming mail causes besides its reply; False
    (and counted as held back) past :data:`MAX_MAIL_TO_OTHERS`. Turn reports, and everything outside
    the handling of a mail (the clock, the command line), are free."""
    if unit.mail_from is None or purpose in _UNBOUNDED:
        return True
    if unit.mailed_others >= MAX_MAIL_TO_OTHERS:
        unit.held_back += 1
        return False
    unit.mailed_others += 1
    return True
