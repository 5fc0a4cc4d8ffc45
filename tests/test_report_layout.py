"""What a reader notices in every game's reports: no stray blank lines, the last board named for
the turn that ended the game, an HTML title that names the turns of the report; and the HTML of an
order check in a reply."""

from __future__ import annotations

import io
import re
from dataclasses import replace

import pytest

from pbem.core import GameRng, Phase
from pbem.games import GAMES, find_game
from pbem.orders import LineProblem, OrderLine
from pbem.reports import MailSection, OrdersWanted, ReportInput, render_mail_html, render_report
from pbem.sandbox.demo import run_offline_demo
from pbem.service.checking import CheckResult
from pbem.store import Database
from pbem.service.api import GameService


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_finished_games_reports_have_no_stray_blank_lines(db: Database, kind: str) -> None:
    runner = GameService(db)
    out = io.StringIO()
    assert run_offline_demo(runner, kind=kind, seed=3, out=out) == 0
    report = out.getvalue().split("\n\n", 1)[1]
    assert "\n\n\n" not in report and not report.startswith("\n") and report.endswith("\n")
    name = runner.games()[0].name
    for seat in (None, runner.info(name).seat_names[0]):
        text = runner.report_text(name, seat)
        assert "\n\n\n" not in text and not text.startswith("\n")


def test_the_offline_demos_last_board_is_headed_with_the_turn_that_ended_the_game(db: Database) -> None:
    runner = GameService(db)
    out = io.StringIO()
    assert run_offline_demo(runner, kind="turkey-chase", seed=3, out=out) == 0
    last = int(re.findall(r"turn +(\d+) resolved", out.getvalue())[-1])
    assert f"The cornfield after turn {last}, the last of the game:" in out.getvalue()
    assert f"Turn {last} results" in out.getvalue()


def test_a_check_reply_in_html_escapes_what_the_player_wrote_and_keeps_the_caret() -> None:
    check = CheckResult(lines=[OrderLine(1, "  MOVE F7-F8  "), OrderLine(2, "FEED <b>&'\"", None,
                                                                          LineProblem("found \"<b>\"", 6))],
                        game="tc-1", kind="turkey-chase", seat="A", turn=3)
    html = render_mail_html("Re: <orders>", [MailSection("Intro & more\nsecond line"),
                                             MailSection("", check, intro="CHECK only, nothing stored:")],
                            ask=OrdersWanted("turkey-chase", "12:00 UTC"), footer="pbem game master.")
    assert html.startswith("<!DOCTYPE html>") and html.endswith("</html>\n")
    assert "<title>Re: &lt;orders&gt;</title>" in html
    assert '<p class="text">Intro &amp; more<br>\nsecond line</p>' in html
    assert ('<p>CHECK only, nothing stored:</p><h2>Game <span style="white-space: nowrap">tc-1</span> '
            '<span style="white-space: nowrap">(turkey-chase),</span> seat A, turn 3.</h2>') in html
    assert "<td><pre>MOVE F7-F8</pre></td>" in html  # an accepted line is shown trimmed
    assert "<td><pre>FEED &lt;b&gt;&amp;&#39;&#34;\n     ^</pre></td>" in html  # the caret under column 6
    assert ('<span class="refused">REFUSED</span> (column 6): <span class="problem">found &#34;&lt;b&gt;&#34;'
            "</span>") in html
    assert "<b>" not in html and ", by 12:00 UTC, one per line." in html and "HELP turkey-chase" in html
    assert '1 line(s) accepted, 1 refused.</p>\n<p class="text">pbem game master.</p></div></body>' in html
    frame = render_mail_html("Re: orders", [])
    assert max(len(line) for line in frame.splitlines()) <= 78  # so that a short reply goes out as 7-bit text


@pytest.mark.parametrize(("owing", "said"), [
    (["2"], 'Next: turn 2. Seat 2 is asked: "Round 1: the die shows 4.'),
    (["1", "2"], 'Next: turn 2. Seats 1, 2 are asked: "Round 1: the die shows 4.'),
])
def test_the_next_turns_prompt_reads_as_a_sentence_for_a_seat_not_asked(owing: list[str], said: str) -> None:
    game = find_game("race-on-the-river")
    state = replace(game.setup(["1", "2", "3"], {}, GameRng(7)), round=1, roll=4, ones_before=0)
    phase = Phase("bid", tuple(owing), "Round 1: the die shows 4. Send BID n.")
    report = ReportInput("g", game, state, 1, [], [], phase, None)
    text = render_report(report, "3")
    assert said in text and f"{', '.join(owing)}: Round" not in text
    assert 'Next: turn 2. Round 1: the die shows 4. Send BID n.\n' in render_report(report, owing[0])
