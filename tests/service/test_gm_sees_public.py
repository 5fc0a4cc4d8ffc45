"""The GM sees the public report by default, in every game with secrets: every mail the service
queues for the GM (public copies of the reports, digests, notices of absence and pauses) and STATUS as
the GM reads it never hold another seat's secret. Games are played through the service with the real
mail notifier (its outbox in the database), with players who sometimes miss a deadline, so that the
clock's notices reach the GM too. The GM's look at the secrets is SECRETS, tested apart."""

from __future__ import annotations

import dataclasses
import re
from datetime import timedelta
from typing import Any

import pytest
from game_views import normal, strings
from sqlmodel import select
from stopped_clock import StoppedClock

from pbem.core import Game, GameRng
from pbem.games import GAMES, find_game
from pbem.mail.answering.answers import status_text
from pbem.mail.outbound.notices import MailNotifier
from pbem.mail.outbound.tokens import ReplyTokens
from pbem.reports import render_report
from pbem.sandbox.mailclient import read_mail
from pbem.service import digests
from pbem.service.api import GameService
from pbem.service.deadlines import TurnClock
from pbem.store import Database
from pbem.store.tables import OutboundMessageRow

GM = "gm@example.org"
SECRET_KINDS = sorted(kind for kind in GAMES if find_game(kind).has_hidden_information)
MAX_STEPS = 60
REDRAWINGS = 3


def hidden_from_the_public(game: Game[Any, Any], state: Any, variants: GameRng) -> set[str]:
    """The texts of the seats' views (two words or more) that redrawing every secret changes and that
    the public view and HELP do not hold anyway: what the GM's mail must never hold."""
    if game.outcome(state) is not None:
        return set()  # the end tells the secrets the rules reveal; the public report is checked as it is
    public = [normal(text) for _, text in strings(game.view(state, None))] + [normal(game.help())]
    found: set[str] = set()
    for _ in range(REDRAWINGS):
        variant = game.hidden_variant(state, None, variants)
        if variant == state:
            continue
        for seat in state.seats:
            redrawn = dict(strings(game.view(variant, seat)))
            found |= {normal(text) for path, text in strings(game.view(state, seat))
                      if redrawn.get(path) != text and len(text.split()) >= 2}
    return {text for text in found if not any(text in known for known in public)}


def gm_mail(db: Database, seen: int) -> tuple[list[tuple[str, str]], int]:
    """The subjects and texts (plain and HTML without tags) of the GM's mails queued after the first
    ``seen``, and how many the GM has."""
    with db.session() as session:
        rows = [row for row in session.exec(select(OutboundMessageRow).order_by(OutboundMessageRow.id))
                if GM in row.recipients]
    texts = []
    for row in rows[seen:]:
        mail = read_mail(row.raw)
        texts.append((mail.subject, normal(mail.body + " " + re.sub(r"<[^>]+>", " ", mail.html or ""))))
    return texts, len(rows)


@pytest.mark.parametrize("kind", SECRET_KINDS)
def test_no_mail_to_the_gm_and_no_status_holds_a_seats_secret(db: Database, kind: str) -> None:
    game = find_game(kind)
    clock = StoppedClock()
    runner = GameService(db, clock=clock)
    notifier = MailNotifier(address="pbem@example.org", tokens=ReplyTokens(b"k" * 16), clock=clock)
    runner.on_resolved.append(notifier.on_resolved)
    turn_clock = TurnClock(runner, notifier)
    seats = game.seat_names(game.max_players if game.max_players <= 5 else 5)
    runner.create_game(kind, "g", seats={s: f"p{s}@example.org" for s in seats}, seed=7, gm_address=GM,
                       options={"turn_hours": "6", "reminder_hours": "2", "grace_hours": "1", "reports": "each"})
    with runner.unit() as unit:
        info = unit.info("g")
        notifier.send_reports(unit, info, digests.take_opening(unit, info))
    robots, variants = GameRng(11), GameRng(12)
    seen, checked, silent_deadlines = 0, 0, 0
    for step in range(MAX_STEPS):
        info = runner.info("g")
        if info.outcome is not None:
            break
        if info.row.status == "paused":
            runner.resume("g")
            info = runner.info("g")
        before = info.state
        for seat in info.phase.seats:
            if game.forced_orders(before, seat) is None and robots.random() < 0.8:
                runner.submit("g", seat, "\n".join(str(o) for o in game.sample_orders(before, seat, robots)))
        turn = info.row.turn
        turn_clock.tick(clock.now)
        if runner.info("g").row.turn == turn:  # somebody is silent: the reminder, then the deadline passes
            silent_deadlines += 1
            clock.now += timedelta(hours=5)
            turn_clock.tick(clock.now)
            clock.now += timedelta(hours=1, seconds=1)
            turn_clock.tick(clock.now)
        clock.now += timedelta(hours=2)
        turn_clock.tick(clock.now)  # absences past their grace reach the GM
        after = runner.info("g")
        mails, seen = gm_mail(db, seen)
        for subject, text in mails:
            if subject.startswith("[g] Turn ") or subject == "[g] Final report":
                assert "public report" in text and "report for seat" not in text, (step, subject)
        texts = [text for _, text in mails] + [normal(status_text(runner.status("g")))]
        hidden = hidden_from_the_public(game, before, variants) | hidden_from_the_public(game, after.state, variants)
        public_now = normal(render_report(runner.last_report("g"), None))
        for secret in hidden - {text for text in hidden if text in public_now}:  # public now: told by the rules
            for text in texts:
                assert not re.search(rf"(?<!\w){re.escape(secret)}(?!\w)", text), \
                    f"step {step}: the GM got a seat's secret {secret!r}"
            checked += 1
        report = runner.last_report("g")
        expected = render_report(report, None)
        for _ in range(REDRAWINGS):
            variant = game.hidden_variant(report.state, None, variants)
            checked += variant != report.state
            assert render_report(dataclasses.replace(report, state=variant), None) == expected, \
                f"step {step}: the public report shows a secret"
    assert checked > 0, "no secret was ever looked for, nor redrawn"
    assert silent_deadlines > 0, "no deadline passed: the clock's notices were not tried"
