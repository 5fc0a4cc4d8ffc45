"""Reading LEAGUE lines of a mail: each verb's words, clear problems for honest mistakes, and the mails
that carry a league password (kept without their body once handled)."""

from __future__ import annotations

import pytest

from pbem.mail.commands.script import parse_script
from pbem.mail.commands.league import LeagueCommand
from pbem.mail.reading.redaction import text_holds_password


def test_league_lines_are_read_per_verb() -> None:
    script = parse_script("LEAGUE CREATE Spring top-of-the-temple format=swiss table=4 points=win:3,draw:1\n"
                          "league join spring\nLEAGUE STANDINGS spring\nLEAGUE START spring Pw1\n"
                          "LEAGUE REPLACE spring A@x.org <b@y.org> pw\nLEAGUE DROP spring a@x.org pw\n"
                          "LEAGUE END spring pw\n")
    assert not script.problems
    create, join, standings, start, replace, drop, end = script.commands
    assert create == LeagueCommand(1, "CREATE", "spring", kind="top-of-the-temple",
                                   options={"format": "swiss", "table": "4", "points": "win:3,draw:1"})
    assert (join.verb, join.league, join.password) == ("JOIN", "spring", None)
    assert (standings.verb, start.password) == ("STANDINGS", "Pw1")
    assert replace.addresses == ("a@x.org", "b@y.org") and replace.password == "pw"
    assert drop.addresses == ("a@x.org",) and end.password == "pw"
    bare = parse_script("LEAGUE START spring\nLEAGUE END spring\nLEAGUE DROP spring a@x.org\n").commands
    assert [(c.verb, c.password, c.addresses) for c in bare] == [  # type: ignore[union-attr]
        ("START", None, ()), ("END", None, ()), ("DROP", None, ("a@x.org",))]


@pytest.mark.parametrize(("line", "problem"), [
    ("LEAGUE START spring pw more", "write it as LEAGUE START <league> [<league-password>]"),
    ("LEAGUE REPLACE spring a@x.org", "write it as LEAGUE REPLACE <league> <old-address> <new-address>"),
    ("LEAGUE JOIN", "write it as LEAGUE JOIN <league>"),
    ("LEAGUE DROP spring not-an-address pw", "is not a mail address"),
    ("LEAGUE CREATE spring", "write it as LEAGUE CREATE"),
    ("LEAGUE CREATE spring fungus size=5 size=6", 'the option "size" is given twice'),
    ("LEAGUE CREATE spring fungus =5", "write options as name=value"),
    ("LEAGUE JOIN spr!ng", "is no league name"),
    ("LEAGUE PLAY spring", "CREATE, JOIN, START, STANDINGS, REPLACE, DROP or END"),
])
def test_honest_mistakes_get_clear_problems(line: str, problem: str) -> None:
    script = parse_script(line + "\n")
    assert not script.commands and problem in script.problems[0].message


def test_league_gm_lines_hold_a_password() -> None:
    for text in ("LEAGUE START spring pw", "league end spring pw", "LEAGUE REPLACE s a@x.org b@x.org pw",
                 "LEAGUE DROP s a@x.org pw"):
        assert text_holds_password(f"hello\n{text}\n"), text
    for text in ("LEAGUE JOIN spring", "LEAGUE STANDINGS spring", "LEAGUE", "the league starts"):
        assert not text_holds_password(text), text
