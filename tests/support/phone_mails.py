"""The HTML mails a player of every game gets, made offline by the mail side's own notifier (no mail
server: the mails are read from the outbox): each game's opening report, a report from the middle of the
game and its final report (robots play it to its end, as ``pbem demo --offline`` does), a refusal reply
(written as the mail side writes it), a reminder and an invitation; and a league's standings mail."""

from __future__ import annotations

import io
from collections.abc import Iterator

from sqlmodel import func, select

from pbem.clock import utcnow
from pbem.core import GameRng
from pbem.games import GAMES, find_game
from pbem.mail.answering.reply import FOOTER, Reply
from pbem.mail.outbound.notices import MailNotifier
from pbem.mail.outbound.tokens import ReplyTokens
from pbem.reports import render_mail_html
from pbem.sandbox.demo import play_to_the_end, robot_orders
from pbem.service.api import GameService
from pbem.service.consent import Invited
from pbem.service.owing import owing_seats
from pbem.store import Database
from pbem.store.tables import OutboundMessageRow
from pbem.zones import localize
from phone_checks import mail_html
from web_site import play_league

LEAGUE_PLAYERS = [f"player{i}@example.org" for i in range(1, 9)]


def _outbox(db: Database, after: int) -> Iterator[OutboundMessageRow]:
    with db.session() as session:
        yield from session.exec(select(OutboundMessageRow).where(OutboundMessageRow.id > after)
                                .order_by(OutboundMessageRow.id))  # type: ignore[arg-type]


def _newest(db: Database) -> int:
    with db.session() as session:
        return int(session.exec(select(func.max(OutboundMessageRow.id))).one() or 0)  # type: ignore[arg-type]


def _game(runner: GameService, notifier: MailNotifier, kind: str) -> dict[str, str]:
    """The HTML mails of a game of ``kind`` (the fewest players it takes) that its first seat gets: the
    opening report, a refusal reply and a reminder for turn 1, a report from the middle and the final
    report; and the invitation to its second seat."""
    rules = find_game(kind)
    name = rules.name[:20].rstrip("-")
    seats = rules.seat_names(rules.min_players)
    address = f"seat-{seats[0].lower()}@example.org"
    start = _newest(runner.db)
    runner.create_game(rules.name, name, seats={s: f"seat-{s.lower()}@example.org" for s in seats}, seed=5)
    seat = owing_seats(runner.info(name))[0]
    good = robot_orders(runner, name, seat, GameRng(5)).splitlines()[0]
    check = runner.submit(name, seat, f"{good}\n{good} QQQ\nBIDD 3\n", store=False)
    reply = Reply()
    reply.add(check.render(), check=check)
    refusal = render_mail_html(f"Re: [{name}] orders", reply.ordered(), ask=reply.asks_for, footer=FOOTER)
    mails = {f"{kind} refusal": localize(refusal, None)}
    with runner.unit() as unit:
        info = unit.info(name)
        notifier.remind(unit, info, [info.seats[0]])
        notifier.invite(unit, info.row, Invited(name, seats[0], "newcomer@example.org", "gm@example.org"))
    assert play_to_the_end(runner, name, GameRng(3), io.StringIO())
    outbox = list(_outbox(runner.db, start))
    reports = [mail_html(row.raw) for row in outbox if row.purpose == "report" and row.recipients == [address]]
    assert len(reports) >= 2, f"{kind}: {len(reports)} report(s)"
    purposes = {row.purpose: mail_html(row.raw) for row in outbox if row.purpose in ("reminder", "invitation")}
    return mails | {f"{kind} opening report": reports[0], f"{kind} report in the middle": reports[len(reports) // 2],
                    f"{kind} final report": reports[-1], f"{kind} reminder": purposes["reminder"],
                    f"{kind} invitation": purposes["invitation"]}


def _standings(runner: GameService, notifier: MailNotifier) -> str:
    view = play_league(runner, "phone", LEAGUE_PLAYERS)
    start = _newest(runner.db)
    with runner.unit() as unit:
        notifier.send_standings(unit, view, 1, LEAGUE_PLAYERS[0], "Round 1 is over.")
    return next(mail_html(row.raw) for row in _outbox(runner.db, start) if row.purpose == "standings")


def every_games_mails(db: Database, web_url: str) -> dict[str, str]:
    """Every kind of HTML mail of every game, by what it is ("fungus final report"), with its pictures
    inline as data: URIs, and the links to the web archive at ``web_url``."""
    runner = GameService(db)
    notifier = MailNotifier(address="gm@pbem.test", tokens=ReplyTokens(b"k" * 16), clock=utcnow, web_url=web_url)
    runner.on_resolved.append(notifier.on_resolved)
    runner.on_news.append(notifier.on_news)
    mails: dict[str, str] = {}
    for kind in sorted(GAMES):
        mails |= _game(runner, notifier, kind)
    mails["league standings"] = _standings(runner, notifier)
    return mails
