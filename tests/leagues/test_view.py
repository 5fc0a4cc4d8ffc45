"""A league as each reader sees it: a member's own row and seat marked, addresses only for the GM and the
operator, and the text standings and tables as aligned plain-text tables."""

from __future__ import annotations

from pbem.leagues.view import OPERATOR, PUBLIC, LeagueReader, LeagueView, StandingLine, TablePlayer, TableView, aligned


def _line(rank: int, name: str, address: str, points: float) -> StandingLine:
    return StandingLine(rank, name, points, 1, int(points > 0), 0, 0, int(points == 0), 0, 0, 3 - points, 25.0,
                        8.3, 0.1, False, address=address)


FULL = LeagueView("cup", "fungus", "swiss", "active", 1, 3, 2, "win:3", (
    _line(1, "Annie", "ann@example.org", 3), _line(2, "player-9de4dc", "ben@example.org", 0)), (
    TableView(1, 1, "cup-1-1", (TablePlayer("Annie", "win", address="ann@example.org"),
                                TablePlayer("player-9de4dc", "loss", address="ben@example.org"))),))


def test_a_member_sees_its_own_row_and_seat_marked_and_no_address() -> None:
    seen = FULL.seen_by(LeagueReader(you="BEN@example.org"))
    assert [(s.name, s.address, s.you) for s in seen.standings] == [("Annie", None, False),
                                                                    ("player-9de4dc", None, True)]
    text = seen.text()
    assert "@" not in text
    assert "→  2  player-9de4dc (you)" in text
    assert "cup-1-1  Annie (win), player-9de4dc (you) (loss)" in text


def test_the_gm_and_the_operator_see_addresses_and_the_public_sees_names() -> None:
    gm = FULL.seen_by(LeagueReader(you="gm@example.org", addresses=True))
    assert "Annie <ann@example.org>" in gm.text() and "→" not in gm.text()
    assert FULL.seen_by(OPERATOR).standings == gm.standings
    public = FULL.seen_by(PUBLIC)
    assert "@" not in public.text() and not any(s.you for s in public.standings)


def test_the_text_tables_are_aligned() -> None:
    assert aligned([["", "#", "player", "pts"], ["→", "1", "Annie (you)", "10"], ["", "2", "Bo", "3"]],
                   left={2}) == ["   #  player       pts", "→  1  Annie (you)   10", "   2  Bo             3"]
    assert aligned([["", "#"], ["", "1"]], left=set()) == ["#", "1"]  # a column empty everywhere is left out
