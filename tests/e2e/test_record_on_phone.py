"""The game record's lines read well on a phone: a report after a rollback (the short head, the rollback,
the orders as resolved) and the reply that gives a receipt, as the mail side makes them, looked at in
Chromium at 375 and 1000 px with the shared phone checks (phone_checks.layout_problems)."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser import render, require_chromium
from phone_checks import DESKTOP, PHONE, mail_html
from sqlmodel import select

from pbem.clock import utcnow
from pbem.mail.outbound.notices import MailNotifier
from pbem.mail.answering.reply import FOOTER, Reply
from pbem.mail.outbound.tokens import ReplyTokens
from pbem.reports import render_mail_html
from pbem.service import rewind
from pbem.service.api import GameService
from pbem.store import Database
from pbem.store.tables import OutboundMessageRow

SEATS = {"1": "rosa@example.org", "2": "otto@example.org"}


def play_turn(runner: GameService) -> None:
    for seat, bid in (("1", "BID 2"), ("2", "BID 1")):
        runner.submit("rr", seat, bid)
    runner.resolve("rr", reason="gm")


@pytest.fixture
def pages(db: Database) -> dict[str, str]:
    """The HTML of seat 1's report after a rollback, and of a reply with a receipt."""
    require_chromium()
    runner = GameService(db)
    notifier = MailNotifier(address="gm@pbem.test", tokens=ReplyTokens(b"k" * 16), clock=utcnow)
    runner.on_resolved.append(notifier.on_resolved)
    runner.on_news.append(notifier.on_news)
    runner.create_game("race-on-the-river", "rr", seats=SEATS, seed=11)
    play_turn(runner)
    play_turn(runner)
    gm = GameService(db, actor="gm gm@example.org")
    with gm.unit() as unit:
        code = rewind.request_rollback(unit, "rr", 2)
    with gm.unit() as unit:
        rewind.confirm_rollback(unit, "rr", 2, code)
    play_turn(runner)
    with db.session() as session:
        sent = [row for row in session.exec(select(OutboundMessageRow).order_by(OutboundMessageRow.id))  # type: ignore[arg-type]
                if row.purpose == "report" and row.recipients == [SEATS["1"]]]
    check = runner.submit("rr", "1", "BID 1")
    reply = Reply()
    reply.add(check.render(), check=check)
    return {"report": mail_html(sent[-1].raw), "receipt": render_mail_html("Re: [rr] Turn 3", reply.ordered(),
                                                                          ask=reply.asks_for, footer=FOOTER),
            "head": runner.verify("rr", operator=True).head or "", "receipt hash": check.receipt or ""}


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_records_lines_read_well_on_a_phone(pages: dict[str, str], width: int, tmp_path: Path) -> None:
    report = render(pages["report"], width, tmp_path / "report")
    assert report.problems == [] and report.scroll_width <= width, report.problems
    assert f"Game record: turn 2, chain {pages['head'][:8]}\u2026" in report.text
    assert "Turn 2 was rolled back by the GM at " in report.text and "turn 2, seat 2: BID 1" in report.text
    assert pages["head"] not in report.text  # the whole hash is in the plain-text part
    receipt = render(pages["receipt"], width, tmp_path / "receipt")
    assert receipt.problems == [] and receipt.scroll_width <= width, receipt.problems
    assert f"Receipt for game rr, turn 3, seat 1, v1: {pages['receipt hash']}" in receipt.text.replace("\n", " ")
