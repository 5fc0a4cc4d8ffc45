"""``pbem league ...`` on a real database: the LEAGUE mail commands from the command line, with
``standings`` (text and ``--json``: registered names, each with its address for the operator, and the
tables), ``pbem log`` of a league, and the exit codes of mistakes."""

from __future__ import annotations

import json

import pytest
from databases import database_url

from pbem.cli import EXIT_OK, EXIT_REFUSED, EXIT_USAGE, main
from pbem.service import players
from pbem.service.api import GameService
from pbem.store import open_database

PLAYERS = ["ann@example.org", "ben@example.org", "cat@example.org", "dan@example.org"]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_a_league_from_the_command_line(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    db = database_url(tmp_path)  # type: ignore[arg-type]
    code, out = _run(capsys, "league", "create", "cup", "top-of-the-temple", "format=roundrobin", "table=2",
                     "points=win:2", "--gm", "gm@example.org", "--db", db)
    assert code == EXIT_OK and "roundrobin, tables of 2" in out and "League password of gm@example.org:" in out
    for address in PLAYERS:
        assert _run(capsys, "league", "join", "cup", address, "--db", db)[0] == EXIT_OK
    _register(db, "ann@example.org", "Annie")
    code, out = _run(capsys, "league", "start", "cup", "--db", db)
    assert code == EXIT_OK and "round 1: cup-1-1, cup-1-2" in out
    code, out = _run(capsys, "league", "standings", "cup", "--db", db)
    standings, tables = out.split("\nStandings\n")[1].split("\nTables\n")
    assert code == EXIT_OK and "Annie <ann@example.org>" in standings and "ben@example.org>" in standings
    header, *rows = standings.splitlines()[:5]
    points_end = header.index("pts") + len("pts")
    assert all(row[points_end - 1] == "0" and row[points_end] == " " for row in rows), standings  # one column
    assert tables.splitlines()[0:2] == ["round  table  game     players",
                                        "    1      1  cup-1-1  Annie <ann@example.org>, "
                                        f"{_stand_in(db, 'dan@example.org')} <dan@example.org>"]
    code, out = _run(capsys, "league", "standings", "cup", "--json", "--db", db)
    data = json.loads(out)
    assert code == EXIT_OK and data["format"] == "roundrobin" and data["rounds"] == 3 and data["round"] == 1
    assert data["points"].startswith("win:2,shared:2") and len(data["standings"]) == 4
    assert [t["game"] for t in data["tables"]] == ["cup-1-1", "cup-1-2"]
    assert not any("@example.org" in line["name"] for line in data["standings"])
    assert {line["name"]: line["address"] for line in data["standings"]}["Annie"] == "ann@example.org"
    assert data["tables"][0]["players"][0] == {"name": "Annie", "result": None, "address": "ann@example.org",
                                               "you": False}
    code, out = _run(capsys, "league", "replace", "cup", "dan@example.org", "eve@example.org", "--db", db)
    assert code == EXIT_OK and "eve@example.org takes dan@example.org's place in cup and its seats in cup-1-1" in out  # circle method: 1-4, 2-3
    assert _run(capsys, "league", "drop", "cup", "cat@example.org", "--db", db)[0] == EXIT_OK
    code, out = _run(capsys, "league", "end", "cup", "--db", db)
    assert code == EXIT_OK and "games ended: cup-1-1, cup-1-2" in out
    code, out = _run(capsys, "log", "cup", "--db", db)
    assert code == EXIT_OK
    assert [line.split("  ")[2] for line in out.splitlines()] == [
        "CREATE", "JOIN", "JOIN", "JOIN", "JOIN", "START", "SEAT", "REPLACE", "DROP", "END"]
    assert _run(capsys, "league", "end", "cup", "--db", db)[0] == EXIT_REFUSED
    assert _run(capsys, "league", "standings", "nope", "--db", db)[0] == EXIT_USAGE
    assert _run(capsys, "league", "create", "x", "top-of-the-temple", "format=ladder", "--db", db)[0] == EXIT_REFUSED


def _register(db: str, address: str, name: str) -> None:
    """REGISTER ``name`` from ``address``, as the mail command does."""
    database = open_database(db)
    try:
        with GameService(database).unit() as unit:
            players.register(unit, address, name)
    finally:
        database.close()


def _stand_in(db: str, address: str) -> str:
    """The name the standings show for ``address``, which registered none."""
    database = open_database(db)
    try:
        with GameService(database).unit(lock=False) as unit:
            return players.display_name(unit.session, address)
    finally:
        database.close()
