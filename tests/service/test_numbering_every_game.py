"""One numbering of turns and rounds in every game, wherever a reader sees it.

Every registered game is played to its end by robot players through the service (a real SQLite or
PostgreSQL database, the real mail notifier queueing real mails, the real web archive served on
127.0.0.1). After the opening and after every resolution, everything a reader is shown about where the
game stands is read back: every report mail queued (its subject, plain text, HTML and the titles of its
pictures), the game's page in the web archive with the board picture of its newest step, and
``pbem show --json`` and STATUS. They must tell one story:

- while the game runs, the turn awaited is the same number N everywhere: the subject ``Turn N``, the
  text's ``Next: turn N``, the HTML's ``turn N orders``, the web page's ``turn N`` and the JSON's
  ``turn``; the turns the report tells of end at N - 1, and no other turn is named;
- a board picture is titled with the turn it shows the board after (or the start), that same N - 1;
- once the game is over after L turns, it says L everywhere ("finished after turn L" on the web,
  ``turn`` L in the JSON, the final report's turn L results, the picture after turn L), never L + 1;
- where a game has rounds, the round a picture shows is the newest round its report's text names,
  rounds never go back, and every round from 1 on is named in some report (none is skipped unseen).

Nothing here names a game: a game added later is covered without editing this file.
"""

from __future__ import annotations

import email
import re
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from html import unescape

import pytest
from sqlmodel import select

from pbem.clock import utcnow
from pbem.core import GameRng
from pbem.games import GAMES, find_game
from pbem.mail.answering.answers import status_text
from pbem.mail.outbound.notices import MailNotifier
from pbem.mail.outbound.tokens import ReplyTokens
from pbem.mail.running.daemon import reply_tokens
from pbem.pictures import alt_text
from pbem.service import digests
from pbem.service.api import GameService
from pbem.store import Database
from pbem.store.tables import OutboundMessageRow
from pbem.web.app import make_app
from pbem.web.server import WebServer

MAX_STEPS = 400
"""Resolutions at most in one game (every game here ends well before)."""

_TURN = re.compile(r"\bturns? (\d+)(?: to (\d+))?", re.I)
_ROUND = re.compile(r"\bround (\d+)", re.I)
_RULE = re.compile(r"\bfrom turn \d+ on\b")


@dataclass(frozen=True)
class ReportMail:
    """One report mail as its reader gets it: subject, plain text, HTML and its pictures' alt texts."""

    subject: str
    text: str
    html: str
    pictures: list[str]


def report_mails(db: Database, after_id: int) -> tuple[list[ReportMail], int]:
    """The report mails queued after the outbound row ``after_id``; and the newest row's id."""
    with db.session() as session:
        rows = list(session.exec(select(OutboundMessageRow).where(OutboundMessageRow.id > after_id)
                                 .order_by(OutboundMessageRow.id)))  # type: ignore[arg-type]
    mails = []
    for row in rows:
        if row.purpose != "report":
            continue
        message = email.message_from_bytes(row.raw, policy=policy.default)
        assert isinstance(message, EmailMessage)
        text = message.get_body(("plain",))
        html = message.get_body(("html",))
        assert text is not None and html is not None
        html_text = html.get_content()
        alts = re.findall(r'<img src="cid:[^"]*" alt="([^"]*)"', html_text)
        pictures = [unescape(alt) for alt in alts]
        mails.append(ReportMail(str(message["Subject"]), text.get_content(), html_text, pictures))
    return mails, max([after_id, *(row.id or 0 for row in rows)])


def turns_named(text: str) -> set[int]:
    """Every turn number ``text`` names ("turn 3", "Turns 2 to 4": 2, 3 and 4), but for a rule's
    "from turn 4 on"."""
    named: set[int] = set()
    for match in _TURN.finditer(_RULE.sub("", text)):
        first = int(match[1])
        named |= set(range(first, int(match[2] or first) + 1))
    return named


def rounds_named(text: str) -> set[int]:
    """Every round number ``text`` names."""
    return {int(found) for found in _ROUND.findall(text)}


@dataclass
class Archive:
    """The web archive served on 127.0.0.1 over the test's database."""

    url: str

    def get(self, path: str) -> str:
        """The text of the archive's page at ``path``."""
        with urllib.request.urlopen(self.url + path, timeout=30) as response:
            return str(response.read().decode())


@pytest.fixture
def archive(runner: GameService) -> Iterator[Archive]:
    """The web archive of the runner's database, served in a thread."""
    server = WebServer(make_app(runner, reply_tokens(runner.db)), "127.0.0.1", 0)
    server.open()
    try:
        yield Archive(server.url)
    finally:
        server.close()


@dataclass
class Rounds:
    """The rounds a game's reports named, in order."""

    seen: set[int] = field(default_factory=set)
    newest: int = 0

    def note(self, text_rounds: set[int], picture_rounds: set[int], where: str) -> None:
        """Take one report's rounds: its pictures show the newest round its text names, and rounds never
        go back."""
        if picture_rounds:
            assert len(picture_rounds) == 1 and picture_rounds <= text_rounds, (
                f"{where}: the picture shows round {sorted(picture_rounds)}, the text names {sorted(text_rounds)}")
            assert picture_rounds == {max(text_rounds)}, (
                f"{where}: the picture shows round {sorted(picture_rounds)}, the text's newest is {max(text_rounds)}")
        if text_rounds:
            assert max(text_rounds) >= self.newest, f"{where}: round {max(text_rounds)} after round {self.newest}"
            self.newest = max(text_rounds)
        self.seen |= text_rounds


def check_mail(mail: ReportMail, *, awaited: int | None, told: int, where: str) -> tuple[set[int], set[int]]:
    """Check one report mail against the turn awaited (None: the game is over) and the newest turn it
    tells of (0: the opening); return the rounds its text and its pictures name."""
    if awaited is None:
        assert mail.subject.endswith("] Final report"), (where, mail.subject)
        allowed = set(range(1, told + 1))
    else:
        assert mail.subject.endswith(f"] Turn {awaited}"), (where, mail.subject)
        assert f"Next: turn {awaited}" in mail.text, (where, mail.text)
        assert f"turn {awaited} orders" in mail.html, where
        allowed = {*range(1, told + 1), awaited}
    if told == 0:
        assert "The game has started." in mail.text, (where, mail.text)
    else:
        assert re.search(rf"^Turns? (\d+ to )?{told} results$", mail.text, re.M), (where, mail.text)
    named = turns_named(mail.subject) | turns_named(mail.text) | turns_named(mail.html)
    assert named <= allowed, f"{where}: names turn(s) {sorted(named - allowed)}; it is about turns up to {told}"
    assert mail.pictures, f"{where}: a report without a picture"
    moment = "at the start" if told == 0 else f"after turn {told}"
    for title in mail.pictures:
        assert title.endswith(moment), f"{where}: the picture {title!r} is not titled {moment!r}"
        assert turns_named(title) <= {told}, f"{where}: the picture {title!r} names another turn"
    return rounds_named(mail.text), {r for title in mail.pictures[:1] for r in rounds_named(title)}


def check_standing(runner: GameService, archive: Archive, *, awaited: int | None, told: int, where: str) -> None:
    """The web archive's page of the game and ``pbem show --json`` say the same turn as the mails."""
    shown = runner.state_json("g")
    status = status_text(runner.status("g")).splitlines()[0]
    page = archive.get("/game/g")
    board = archive.get(f"/game/g/{told}.svg")
    if awaited is None:
        assert shown["turn"] == told and shown["status"] == "finished", (where, shown["turn"], shown["status"])
        assert f"finished after turn {told}" in page, where
        assert status.endswith(f"), finished after turn {told}."), (where, status)
    else:
        assert shown["turn"] == awaited, (where, shown["turn"])
        assert re.search(rf"<th>Turn</th><td>turn {awaited}\b", page), where
        assert status.endswith(f", active, turn {awaited}."), (where, status)
    heading = "The opening" if told == 0 else f"After turn {told}"
    assert f"<h3>{heading}</h3>" in page, (where, heading)
    moment = "at the start" if told == 0 else f"after turn {told}"
    assert alt_text(board).endswith(moment), (where, alt_text(board))
    section = page[page.index(f'id="turn-{told}"'):]
    assert re.match(rf'[^>]*>\s*<h3>[^<]*</h3>\s*<div class="picture"><img [^>]*alt="[^"]*, {moment}"', section), \
        (where, section[:300])


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_turns_and_rounds_agree_in_mail_web_and_json_from_start_to_end(runner: GameService, archive: Archive,
                                                                       kind: str) -> None:
    game = find_game(kind)
    notifier = MailNotifier(address="gm@pbem.test", tokens=ReplyTokens(b"k" * 16), clock=utcnow)
    runner.on_resolved.append(notifier.on_resolved)
    seats = game.seat_names(game.min_players)
    runner.create_game(kind, "g", seats={s: f"p{s.lower()}@example.org" for s in seats}, seed=3,
                       gm_address="gm@example.org")
    robots = GameRng(5)
    rounds = Rounds()
    newest_row = 0
    with runner.unit() as unit:  # the opening reports, as START sends them
        info = unit.info("g")
        notifier.send_reports(unit, info, digests.take_opening(unit, info))
    for step in range(MAX_STEPS + 1):
        info = runner.info("g")
        told = info.row.turn - 1
        awaited = None if info.outcome is not None else info.row.turn
        mails, newest_row = report_mails(runner.db, newest_row)
        assert mails or step == 0, f"{kind}: turn {told} was resolved, but no report was queued"
        for number, mail in enumerate(mails):
            where = f"{kind}, report {number} after turn {told}"
            text_rounds, picture_rounds = check_mail(mail, awaited=awaited, told=told, where=where)
            rounds.note(text_rounds, picture_rounds, where)
        check_standing(runner, archive, awaited=awaited, told=told, where=f"{kind} after turn {told}")
        if awaited is None:
            break
        assert info.phase is not None
        for seat in info.phase.seats:
            if game.forced_orders(info.state, seat) is None and runner.current_orders("g", seat) is None:
                orders = game.sample_orders(info.state, seat, robots)
                assert runner.submit("g", seat, "\n".join(str(o) for o in orders)).is_clean
        if runner.info("g").row.turn == info.row.turn:
            runner.resolve("g")
    else:
        pytest.fail(f"{kind}: not over after {MAX_STEPS} resolutions")
    if rounds.seen:
        unseen = set(range(1, max(rounds.seen) + 1)) - rounds.seen
        assert not unseen, f"{kind}: round(s) {sorted(unseen)} never named in any report"


def test_a_game_the_gm_ends_is_said_to_be_finished_after_its_last_turn_played(runner: GameService) -> None:
    runner.create_game("race-on-the-river", "g", seats={"1": "a@example.org", "2": "b@example.org"}, seed=3)
    for _ in range(2):
        runner.resolve("g")
    runner.end("g")
    assert runner.state_json("g")["turn"] == 2
    assert status_text(runner.status("g")).startswith("Game g (Race on the River), finished after turn 2.")
    assert [entry.text for entry in runner.log("g") if entry.action == "END"] == [
        "game finished after turn 2; Shared win: 1, 2"]
