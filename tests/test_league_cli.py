"""``pbem league ...`` on a real database: the LEAGUE mail commands from the command line, with
``standings --json``, ``pbem log`` of a league, and the exit codes of mistakes."""

from __future__ import annotations

import json

import pytest
from databases import database_url

from pbem.cli import EXIT_OK, EXIT_REFUSED, EXIT_USAGE, main

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
    code, out = _run(capsys, "league", "start", "cup", "--db", db)
    assert code == EXIT_OK and "round 1: cup-1-1, cup-1-2" in out
    code, out = _run(capsys, "league", "standings", "cup", "--json", "--db", db)
    data = json.loads(out)
    assert code == EXIT_OK and data["format"] == "roundrobin" and data["rounds"] == 3 and data["round"] == 1
    assert data["points"].startswith("win:2,shared:2") and len(data["standings"]) == 4
    assert [t["game"] for t in data["tables"]] == ["cup-1-1", "cup-1-2"]
    assert not any("@example.org" in line["name"] for line in data["standings"])
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
