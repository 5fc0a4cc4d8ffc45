"""The email command language: every command form, blocks, token replies, and every kind of bad line."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pbem.mail.commands.gm.clock.deadline import SetDeadline
from pbem.mail.commands.gm.clock.extend import Extend
from pbem.mail.commands.gm.clock.pause import Pause
from pbem.mail.commands.gm.clock.resume import Resume
from pbem.mail.commands.gm.create import CreateGame
from pbem.mail.commands.gm.end import EndGame
from pbem.mail.commands.gm.process import ProcessTurn
from pbem.mail.commands.gm.replace import Replace
from pbem.mail.commands.gm.seat import AssignSeat
from pbem.mail.commands.gm.session import GmSession
from pbem.mail.commands.gm.set_options import SetOptions
from pbem.mail.commands.gm.start import StartGame
from pbem.mail.commands.grammar import keywords
from pbem.mail.commands.queries.check import CheckOrders
from pbem.mail.commands.queries.help import Help
from pbem.mail.commands.queries.status import Status
from pbem.mail.commands.reference import help_text
from pbem.mail.commands.script import Script, opening_words, parse_script, reserved_words
from pbem.mail.commands.seats.orders import ShowOrders
from pbem.mail.commands.seats.press import Press
from pbem.mail.commands.seats.resign import Resign
from pbem.mail.commands.seats.session import SeatSession
from pbem.mail.commands.spec import ParsedCommand
from pbem.mail.commands.values import TextBlock, TextLine
from pbem.moments import BadDateTime, BadDuration, parse_duration, parse_when
from pbem.mail.commands.players.decline import Decline
from pbem.mail.commands.players.join import Join

ROOT = Path(__file__).resolve().parents[1]
DOCS = (ROOT / "README.md", ROOT / "docs" / "playing.md", ROOT / "docs" / "game-masters.md")
"""The pages that teach the command language: players' and game masters'."""


def docs_text() -> str:
    """The text of every page of :data:`DOCS`."""
    return "\n".join(page.read_text(encoding="utf-8") for page in DOCS)
DEADLINE = datetime(2026, 11, 25, 18, 0, tzinfo=UTC)


def only_command(script: Script) -> ParsedCommand:
    assert script.problems == ()
    assert len(script.commands) == 1
    return script.commands[0]


def block(*lines: tuple[int, str]) -> TextBlock:
    return TextBlock(tuple(TextLine(number, text) for number, text in lines))


# --- every command form ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("JOIN tc-1", Join(1, "tc-1", None)),
        ("join TC-1 North", Join(1, "tc-1", "north")),
        ("  Join tc-1 a  ", Join(1, "tc-1", "a")),
        ("SIGNON tc-1 a S3cret!", SeatSession(1, "tc-1", "a", "S3cret!")),
        ("STATUS tc-1", Status(1, "tc-1")),
        ("HELP", Help(1, None)),
        ("help Turkey-Chase", Help(1, "turkey-chase")),
        ("CHECK turkey-chase", CheckOrders(1, "turkey-chase")),
        ("GM tc-1 gm-pass", GmSession(1, "tc-1", "gm-pass")),
        ("CREATE turkey-chase tc-1", CreateGame(1, "turkey-chase", "tc-1", {})),
        (
            "CREATE turkey-chase tc-1 players=4 speed = fast Board=big_one",
            CreateGame(1, "turkey-chase", "tc-1", {"players": "4", "speed": "fast", "board": "big_one"}),
        ),
    ],
)
def test_each_top_level_command_parses(line: str, expected: ParsedCommand) -> None:
    assert only_command(parse_script(line)) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("START", StartGame(2)),
        ("DEADLINE 2026-11-25T18:00Z", SetDeadline(2, DEADLINE)),
        ("deadline 2026-11-25 18:00", SetDeadline(2, DEADLINE)),
        ("DEADLINE 2026-11-25 19:00 +01:00", SetDeadline(2, DEADLINE)),
        ("EXTEND 1d6h", Extend(2, timedelta(days=1, hours=6))),
        ("PAUSE", Pause(2)),
        ("RESUME", Resume(2)),
        ("REPLACE b Bob@Example.org", Replace(2, "b", "bob@example.org")),
        ("REPLACE b <bob@example.org>", Replace(2, "b", "bob@example.org")),
        ("PROCESS", ProcessTurn(2)),
        ("END", EndGame(2)),
        ("SEAT a alice@example.org", AssignSeat(2, "a", "alice@example.org")),
        ("SET players=5 deadline-days=3", SetOptions(2, {"players": "5", "deadline-days": "3"})),
        ("STATUS", Status(2, None)),
        ("HELP", Help(2, None)),
    ],
)
def test_each_gm_command_parses_in_a_gm_session(line: str, expected: ParsedCommand) -> None:
    session = only_command(parse_script(f"GM tc-1 pw\n{line}"))
    assert session == GmSession(1, "tc-1", "pw", (expected,))


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("ORDERS", ShowOrders(2)),
        ("RESIGN", Resign(2)),
        ("STATUS", Status(2, None)),
        ("HELP", Help(2, None)),
        ("PRESS b c\nhello", Press(2, ("b", "c"), block((3, "hello")))),
        ("PRESS ALL\nhello", Press(2, ("all",), block((3, "hello")))),
    ],
)
def test_each_session_command_parses_after_signon(line: str, expected: ParsedCommand) -> None:
    session = only_command(parse_script(f"SIGNON tc-1 a pw\n{line}"))
    assert session == SeatSession(1, "tc-1", "a", "pw", commands=(expected,))


def test_gm_commands_follow_a_create_too() -> None:
    created = only_command(parse_script("CREATE turkey-chase tc-1 players=2\nSEAT a alice@example.org\nSTART\n"))
    assert created == CreateGame(
        1, "turkey-chase", "tc-1", {"players": "2"}, (AssignSeat(2, "a", "alice@example.org"), StartGame(3))
    )


def test_press_all_is_a_broadcast() -> None:
    assert Press(1, ("all",)).is_broadcast
    assert not Press(1, ("a",)).is_broadcast


def test_comment_lines_between_commands_are_ignored() -> None:
    assert only_command(parse_script("# my first game\nJOIN tc-1\n")) == Join(2, "tc-1", None)


def test_a_mail_of_blank_lines_is_empty() -> None:
    assert parse_script("\n  \n").is_empty


# --- sessions and orders -----------------------------------------------------------------


def test_the_lines_after_signon_are_orders_up_to_signoff() -> None:
    script = parse_script("SIGNON tc-1 a pw\nMOVE a1-a2\n\n  BUILD c3  \nSIGNOFF\nJOIN tc-2\n")
    session, join = script.commands
    assert session == SeatSession(1, "tc-1", "a", "pw", orders=block((2, "MOVE a1-a2"), (4, "  BUILD c3")))
    assert join == Join(6, "tc-2", None)


def test_orders_run_to_the_end_of_the_mail_without_signoff() -> None:
    session = only_command(parse_script("SIGNON tc-1 a pw\nMOVE a1-a2\nJOIN is an order here"))
    assert isinstance(session, SeatSession)
    assert session.orders == block((2, "MOVE a1-a2"), (3, "JOIN is an order here"))


def test_numbered_text_puts_each_order_on_its_mail_line() -> None:
    session = only_command(parse_script("\nSIGNON tc-1 a pw\nMOVE a\nORDERS\nMOVE b\n"))
    assert isinstance(session, SeatSession)
    assert session.orders.numbered_text.split("\n") == ["", "", "MOVE a", "", "MOVE b"]
    assert session.orders.text == "MOVE a\nMOVE b"
    assert TextBlock().numbered_text == ""


def test_reserved_words_among_orders_are_commands_but_longer_words_are_not() -> None:
    session = only_command(parse_script("SIGNON tc-1 a pw\nPress-on to b2\nStatus\nhelpful move\n"))
    assert isinstance(session, SeatSession)
    assert session.orders == block((2, "Press-on to b2"), (4, "helpful move"))
    assert session.commands == (Status(3, None),)


def test_check_right_after_signon_makes_the_session_a_check() -> None:
    session = only_command(parse_script("SIGNON tc-1 a pw\n\ncheck\nMOVE a1-a2\n"))
    assert isinstance(session, SeatSession)
    assert session.check
    assert session.orders == block((4, "MOVE a1-a2"))


def test_check_later_in_a_session_is_a_problem_and_still_stores_nothing() -> None:
    script = parse_script("SIGNON tc-1 a pw\nMOVE a1-a2\nCHECK\n")
    assert isinstance(script.commands[0], SeatSession) and script.commands[0].check
    (problem,) = script.problems
    assert (problem.line, problem.column) == (3, 1)
    assert "right after SIGNON" in problem.message


def test_check_kind_collects_the_lines_to_check() -> None:
    script = parse_script("CHECK turkey-chase\nMOVE a1-a2\nPASS\nSIGNOFF\nHELP\n")
    assert script.commands == (CheckOrders(1, "turkey-chase", block((2, "MOVE a1-a2"), (3, "PASS"))), Help(5, None))


def test_a_new_signon_ends_the_previous_session() -> None:
    first, second = parse_script("SIGNON tc-1 a pw\nMOVE x\nSIGNON tc-2 b pw2\nMOVE y\n").commands
    assert isinstance(first, SeatSession) and isinstance(second, SeatSession)
    assert (first.game, first.orders.text, second.game, second.orders.text) == ("tc-1", "MOVE x", "tc-2", "MOVE y")


def test_gm_among_orders_ends_the_session_and_opens_a_gm_session() -> None:
    seat, gm = parse_script("SIGNON tc-1 a pw\nMOVE x\nGM tc-1 gmpw\nPROCESS\n").commands
    assert isinstance(seat, SeatSession) and seat.orders == block((2, "MOVE x"))
    assert gm == GmSession(3, "tc-1", "gmpw", (ProcessTurn(4),))


def test_press_runs_to_endpress_keeping_inner_blank_lines_and_orders_continue() -> None:
    body = "SIGNON tc-1 a pw\nMOVE x\nPRESS b\n\nDear b,\n\nCHECK your flank.\n\nENDPRESS\nMOVE y\n"
    session = only_command(parse_script(body))
    assert isinstance(session, SeatSession)
    assert session.orders == block((2, "MOVE x"), (10, "MOVE y"))
    assert session.commands == (Press(3, ("b",), block((5, "Dear b,"), (6, ""), (7, "CHECK your flank."))),)


def test_signoff_ends_press_and_session() -> None:
    script = parse_script("SIGNON tc-1 a pw\nPRESS all\nhi\nsignoff\nJOIN tc-2\n")
    session, join = script.commands
    assert isinstance(session, SeatSession)
    assert session.commands == (Press(2, ("all",), block((3, "hi"))),)
    assert join == Join(5, "tc-2", None)


def test_gm_press_goes_into_the_gm_session() -> None:
    session = only_command(parse_script("GM tc-1 pw\nPRESS ALL\nWelcome!\nENDPRESS\nSTART\n"))
    assert session == GmSession(1, "tc-1", "pw", (Press(2, ("all",), block((3, "Welcome!"))), StartGame(5)))


def test_join_ends_a_gm_session() -> None:
    script = parse_script("CREATE turkey-chase tc-1\nJOIN tc-1 a\nSTART\n")
    assert script.commands == (CreateGame(1, "turkey-chase", "tc-1", {}), Join(2, "tc-1", "a"))
    assert [problem.line for problem in script.problems] == [3]


# --- token replies -----------------------------------------------------------------------


def test_a_token_reply_is_orders() -> None:
    session = only_command(parse_script("MOVE a1-a2\nPASS\n", token_seat=True))
    assert session == SeatSession(0, None, None, None, orders=block((1, "MOVE a1-a2"), (2, "PASS")))
    assert isinstance(session, SeatSession) and session.is_token_reply


def test_a_token_reply_starting_with_check_is_only_checked() -> None:
    session = only_command(parse_script("\nCHECK\nMOVE a1-a2\n", token_seat=True))
    assert isinstance(session, SeatSession)
    assert session.check and session.orders == block((3, "MOVE a1-a2"))
    assert session.check_line == TextLine(2, "CHECK")


def test_a_token_reply_starting_with_a_game_master_command_word_is_orders() -> None:
    """Harvest Day's REVEAL is also the GM's REVEAL, which only stands inside a GM session: a reply to
    a game mail that starts with it is orders, not a command mail."""
    session = only_command(parse_script("REVEAL 4\n", token_seat=True))
    assert session == SeatSession(0, None, None, None, orders=block((1, "REVEAL 4")))


def test_a_token_reply_starting_with_stop_is_orders_while_a_fresh_mail_with_stop_is_the_command() -> None:
    """STOP may open a mail, but its registration says it opens no reply: it is an order of The Great
    Regatta, so a reply to a game mail that starts with it holds that seat's orders."""
    assert "STOP" not in opening_words() and "STATUS" in opening_words()
    session = only_command(parse_script("STOP\n", token_seat=True))
    assert session == SeatSession(0, None, None, None, orders=block((1, "STOP")))
    assert type(only_command(parse_script("STOP\n"))).__name__ == "Stop"


def test_a_token_reply_may_hold_session_commands() -> None:
    session = only_command(parse_script("ORDERS\nPRESS all\nhello", token_seat=True))
    press = Press(2, ("all",), block((3, "hello")))
    assert session == SeatSession(0, None, None, None, commands=(ShowOrders(1), press))


def test_a_token_reply_starting_with_another_command_is_commands() -> None:
    script = parse_script("JOIN tc-2\nMOVE a1-a2\n", token_seat=True)
    assert script.commands == (Join(1, "tc-2", None),)
    assert [problem.line for problem in script.problems] == [2]


def test_an_empty_token_reply_or_one_that_signs_on_has_no_token_session() -> None:
    assert parse_script("", token_seat=True).is_empty
    script = parse_script("SIGNON tc-1 a pw\nMOVE x", token_seat=True)
    assert only_command(script) == SeatSession(1, "tc-1", "a", "pw", orders=block((2, "MOVE x")))


# --- problems ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "line", "column", "message"),
    [
        ("JOIN", 1, 5, "expected a game name such as tc-1, found the end of the line"),
        ("JOIN tc-1 a b", 1, 13, 'expected nothing more on this line, found "b"'),
        ("JOIN tc_1", 1, 6, 'expected a game name such as tc-1, found "tc_1"'),
        ("STATUS tc-1!", 1, 12, 'expected nothing more on this line, found "!"'),
        ("SIGNON tc-1", 1, 12, "expected a seat, found the end of the line"),
        ("SIGNON tc-1 a", 1, 14, "expected a password"),
        ("GM tc-1", 1, 8, "expected a password"),
        ("CREATE turkey-chase", 1, 20, "expected a game name such as tc-1"),
        ("CREATE turkey-chase tc-1 players", 1, 33, 'expected "="'),
        ("CREATE turkey-chase tc-1 players=", 1, 34, "expected a value after ="),
        ("CREATE turkey-chase a-very-long-name-of-a-game", 1, 21, "too long: at most 20"),
        ("CREATE turkey-chase tc-1 a=1 A=2", 1, 30, 'the option "a" is given twice'),
        ("HELP turkey-chase now", 1, 19, 'expected nothing more on this line, found "now"'),
        ("JION tc-1", 1, 1, 'unknown command "JION"; did you mean JOIN?'),
        ("  MOVE a1-a2", 1, 3, 'unknown command "MOVE"; orders go after SIGNON'),
        ("STATUS", 1, 1, "STATUS needs a game name here"),
        ("ORDERS", 1, 1, "ORDERS needs SIGNON"),
        ("RESIGN", 1, 1, "RESIGN needs SIGNON"),
        ("PRESS all\nhello", 1, 1, "PRESS needs SIGNON (or GM)"),
        ("START", 1, 1, "START is a game master command"),
        ("REPLACE a bob@example.org", 1, 1, "REPLACE is a game master command"),
        ("ENDPRESS", 1, 1, "ENDPRESS without a PRESS"),
        ("CHECK", 1, 1, "CHECK needs a game kind"),
        ("GM tc-1 pw\nDEADLINE", 2, 9, "expected a date and time such as 2026-11-25 18:00"),
        ("GM tc-1 pw\nDEADLINE tomorrow noon", 2, 10, '"tomorrow noon" is not a date and time'),
        ("GM tc-1 pw\nDEADLINE 2026-11-25", 2, 10, "has no time of day"),
        ("GM tc-1 pw\nDEADLINE 2026-02-30 18:00", 2, 10, "there is no day 2026-02-30"),
        ("GM tc-1 pw\nDEADLINE 2026-11-25 24:00", 2, 10, "there is no time of day 24:00"),
        ("GM tc-1 pw\nDEADLINE 2026-11-25 18:00 +15:00", 2, 10, "there is no time zone +15:00"),
        ("GM tc-1 pw\nEXTEND", 2, 7, "expected a duration such as 2d or 12h"),
        ("GM tc-1 pw\nEXTEND 2 days", 2, 8, '"2 days" is not a duration'),
        ("GM tc-1 pw\nEXTEND 0h", 2, 8, "longer than zero"),
        ("GM tc-1 pw\nEXTEND 400d", 2, 8, "at most 365 days"),
        ("GM tc-1 pw\nREPLACE b", 2, 10, "expected a mail address"),
        ("GM tc-1 pw\nREPLACE b bob", 2, 11, "'bob' is not a mail address"),
        ("GM tc-1 pw\nSEAT a", 2, 7, "expected a mail address"),
        ("GM tc-1 pw\nSET", 2, 4, "an option such as players=4"),
        ("GM tc-1 pw\nSTART now", 2, 7, 'expected nothing more on this line, found "now"'),
        ("GM tc-1 pw\nORDERS", 2, 1, "ORDERS needs SIGNON"),
        ("GM tc-1 pw\nMOVE a", 2, 1, 'unknown command "MOVE"; send HELP'),
        ("SIGNON tc-1 a pw\nORDERS please", 2, 8, 'expected nothing more on this line, found "please"'),
        ("SIGNON tc-1 a pw\nPRESS", 2, 6, "expected a seat or ALL"),
        ("SIGNON tc-1 a pw\nPRESS all b\nhi", 2, 7, "PRESS ALL goes to everyone"),
        ("SIGNON tc-1 a pw\nPRESS b b\nhi", 2, 7, "a seat is named twice"),
        ("SIGNON tc-1 a pw\nPRESS b\n\nENDPRESS", 2, 1, "PRESS has no text"),
    ],
)
def test_each_bad_command_line_gets_a_specific_problem(body: str, line: int, column: int, message: str) -> None:
    script = parse_script(body)
    assert len(script.problems) == 1, script.problems
    problem = script.problems[0]
    assert (problem.line, problem.column) == (line, column), problem
    assert message in problem.message
    assert problem.text == body.split("\n")[line - 1].strip()


def test_a_bad_signon_swallows_its_orders_with_one_problem() -> None:
    script = parse_script("SIGNON tc-1 a\nMOVE a1-a2\nPASS\nSIGNOFF\nJOIN tc-2\n")
    assert script.commands == (Join(5, "tc-2", None),)
    assert [problem.line for problem in script.problems] == [1]


def test_a_bad_gm_line_drops_its_commands_without_further_problems() -> None:
    script = parse_script("GM tc-1\nSTART\nPROCESS\n")
    assert script.commands == ()
    assert [problem.line for problem in script.problems] == [1]


def test_good_commands_stand_beside_bad_ones() -> None:
    script = parse_script("JION tc-1\nJOIN tc-1\nSTATUS tc-1\n")
    assert script.commands == (Join(2, "tc-1", None), Status(3, "tc-1"))
    assert script.has_problems


# --- dates, durations, reference ---------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "2026-11-25T18:00Z",
        "2026-11-25 18:00",
        "2026-11-25 18:00 UTC",
        "2026-11-25t18:00:00z",
        "2026-11-25T19:30+01:30",
        "2026-11-25 13:00 -0500",
        "2026-11-25 18:00 GMT",
    ],
)
def test_parse_when_gives_utc(text: str) -> None:
    assert parse_when(text) == DEADLINE


@pytest.mark.parametrize("text", ["tomorrow", "2026-13-01 10:00", "2026-11-25", "25.11.2026 18:00", ""])
def test_parse_when_refuses_other_forms(text: str) -> None:
    with pytest.raises(BadDateTime):
        parse_when(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2d", timedelta(days=2)),
        ("12h", timedelta(hours=12)),
        ("1D6H", timedelta(days=1, hours=6)),
        ("30m", timedelta(minutes=30)),
        ("1w2d", timedelta(days=9)),
        ("1d2h3m", timedelta(days=1, hours=2, minutes=3)),
    ],
)
def test_parse_duration(text: str, expected: timedelta) -> None:
    assert parse_duration(text) == expected


@pytest.mark.parametrize("text", ["", "2", "h", "6h1d", "-2d", "0m", "366d", "99999999d"])
def test_parse_duration_refuses_other_forms(text: str) -> None:
    with pytest.raises(BadDuration):
        parse_duration(text)


def test_reserved_words_are_keywords() -> None:
    assert keywords() >= reserved_words()


def test_help_text_and_the_docs_pages_name_every_command() -> None:
    reference, docs = help_text(), docs_text()
    for word in keywords():
        assert word in reference, word
        assert word in docs, word


def test_every_example_mail_in_the_docs_parses_without_problems() -> None:
    docs = docs_text()
    examples = [chunk.split("```", 1)[0] for chunk in docs.split("```mail\n")[1:]]
    assert len(examples) >= 5
    for example in examples:
        token_reply = example.startswith("# reply to a game mail")
        script = parse_script(example, token_seat=token_reply)
        assert not script.problems, (example, script.problems)
        assert script.commands, example


def test_an_order_of_the_tagged_game_outside_a_session_gets_the_way_to_send_it() -> None:
    def is_order(line: str) -> bool:  # Harvest Day's orders: REVEAL <n>, MOVE <a>-<b>
        return bool(re.fullmatch(r"\s*(REVEAL \d|MOVE \d-\d)\s*", line, re.I))

    for line in ("REVEAL 3", "MOVE 1-0", "reveal 3"):
        script = parse_script(f"{line}\n", game="hd1", is_order=is_order)
        assert script.commands == () and len(script.problems) == 1
        message = script.problems[0].message
        assert message.startswith(f'"{line.split()[0]}" starts an order of game hd1, not a command here: reply to '
                                  "your newest report from game hd1"), message
    assert "expected nothing more" in parse_script("REVEAL 3\n", game="hd1").problems[0].message
    alone = parse_script("REVEAL\n", game="hd1", is_order=is_order)  # not an order: the GM's command, misplaced
    assert "REVEAL is a game master command" in alone.problems[0].message
    inside = parse_script("GM hd1 secret\nREVEAL\n", game="hd1", is_order=is_order)
    assert not inside.problems and isinstance(inside.commands[0], GmSession)


def test_decline_takes_a_game_and_may_open_a_mail() -> None:
    script = parse_script("DECLINE Hd1\n")
    assert script.commands == (Decline(1, "hd1"),)
    assert "a game name" in parse_script("DECLINE\n").problems[0].message
    assert "DECLINE" in opening_words() and "DECLINE" not in reserved_words()
