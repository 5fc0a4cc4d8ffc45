"""The ``pbem`` command through its real entry point: the installed console script
run as a subprocess on a real SQLite file (or, with ``--db-engine postgresql``, a
PostgreSQL database given as ``PBEM_DB``), as a game master would use it.

Each test plays one game (or a few error cases) and checks many things per
process, since every run of ``pbem`` costs about a second.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from databases import database_url, on_postgresql, query

PBEM = Path(sys.executable).with_name("pbem")
SEATS = ["--seat", "A=alice@example.org", "--seat", "B=bob@example.org",
         "--seat", "C=carol@example.org", "--seat", "D=dave@example.org"]
OK, REFUSED, USAGE = 0, 1, 2


@pytest.fixture(scope="module", autouse=True)
def _console_script() -> None:
    if not PBEM.is_file():
        pytest.fail(f"the pbem console script is not installed next to {sys.executable}: pip install -e .")


_DEFAULT_DB: list[str] = []
"""The database of the running test when it is no ./pbem.db file (PostgreSQL): given as ``PBEM_DB``."""


@pytest.fixture(autouse=True)
def _default_db(tmp_path: Path) -> Iterator[None]:
    if on_postgresql():
        _DEFAULT_DB.append(database_url(tmp_path))
    yield
    _DEFAULT_DB.clear()


def default_db(cwd: Path) -> str:
    """The database ``pbem`` uses without ``--db`` in ``cwd``: ./pbem.db, or the run's PostgreSQL database."""
    return _DEFAULT_DB[0] if _DEFAULT_DB else str(cwd / "pbem.db")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    if _DEFAULT_DB:
        env["PBEM_DB"] = _DEFAULT_DB[0]
    return env


def pbem(cwd: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``pbem ARGS`` in ``cwd`` (the default ./pbem.db lives there) with ``stdin`` as input."""
    return subprocess.run(
        [str(PBEM), *args], cwd=cwd, input=stdin, capture_output=True, text=True, env=_env(), timeout=120
    )


def cmd(*args: str, stdin: str = "") -> tuple[list[str], str]:
    """One command line for :func:`pbem_all`."""
    return [str(PBEM), *args], stdin


def pbem_all(cwd: Path, *commands: tuple[list[str], str]) -> list[subprocess.CompletedProcess[str]]:
    """Run independent ``pbem`` commands at the same time (on an existing database); return their results.

    Each run costs about a second, mostly imports; running the checks that do not
    depend on each other side by side keeps this file fast (and shows that
    concurrent commands on one database file get along).
    """
    processes = [
        (subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, env=_env()), stdin)
        for argv, stdin in commands
    ]
    results = []
    try:
        for process, stdin in processes:
            out, err = process.communicate(stdin, timeout=120)
            results.append(subprocess.CompletedProcess(process.args, process.returncode, out, err))
    finally:
        for process, _ in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
    return results


def ok(result: subprocess.CompletedProcess[str], code: int = OK) -> str:
    """Assert the exit code (showing the output when it differs); return stdout."""
    assert result.returncode == code, f"exit {result.returncode}, wanted {code}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def state(cwd: Path, game: str) -> dict[str, Any]:
    """Return ``pbem show GAME --json``, parsed."""
    data: dict[str, Any] = json.loads(ok(pbem(cwd, "show", game, "--json")))
    return data


def caret_column(output: str, line_text: str) -> int:
    """Return the 1-based column, within the echoed ``line_text``, of the caret printed under it."""
    lines = output.splitlines()
    for index, line in enumerate(lines):
        if line.endswith(line_text) and index + 1 < len(lines) and lines[index + 1].strip() == "^":
            start = len(line) - len(line_text)
            return lines[index + 1].index("^") - start + 1
    raise AssertionError(f"no caret under {line_text!r} in:\n{output}")


def test_new_starts_at_the_opening_position_in_the_default_db(tmp_path: Path) -> None:
    out = ok(pbem(tmp_path, "new", "turkey-chase", "tc-1", *SEATS, "--seed", "42"))
    assert "Created turkey-chase game tc-1, seats A, B, C, D." in out
    assert "Seed commitment (SHA-256): " in out
    assert "Turkey Chase -- game tc-1, public report" in out
    assert on_postgresql() or (tmp_path / "pbem.db").is_file(), "--db defaults to ./pbem.db in the working directory"

    data = state(tmp_path, "tc-1")
    assert data["game"] == "tc-1"
    assert data["kind"] == "turkey-chase"
    assert data["turn"] == 1
    assert data["status"] == "active"
    assert data["scores"] == {"A": 0, "B": 0, "C": 0, "D": 0}
    assert "winners" not in data
    board = data["state"]
    assert board["farmers"] == {"A": ["F7"], "B": ["G6"], "C": ["F5"], "D": ["E6"]}
    assert board["birds"] == {"A": ["F1", "F1"], "B": ["A6", "A6"], "C": ["F11", "F11"], "D": ["K6", "K6"]}
    assert board["fences"] == ["A6/B6", "F1/F2", "F10/F11", "J6/K6"]
    corn = board["corn"]
    assert len(corn) == 121
    assert corn["F6"] == 10
    assert corn["A1"] == 1 and corn["K11"] == 1
    assert corn["E6"] == 7 and corn["D4"] == 5 and corn["B2"] == 2
    assert sum(corn.values()) == 10 + 8 * 7 + 16 * 5 + 24 * 3 + 32 * 2 + 40 * 1


def test_new_usage_errors_exit_2(tmp_path: Path) -> None:
    db = ["--db", database_url(tmp_path, "games.db")]
    ok(pbem(tmp_path, "new", "turkey-chase", "tc-1", *SEATS, *db))

    unknown_kind, unknown_seat, bad_address, taken, bad_option, bad_db = pbem_all(
        tmp_path,
        cmd("new", "no-such-kind", "x-1", *SEATS, *db),
        cmd("new", "turkey-chase", "x-2", *SEATS[:6], "--seat", "E=eve@example.org", *db),
        cmd("new", "turkey-chase", "x-4", *SEATS[:6], "--seat", "D=dave", *db),
        cmd("new", "turkey-chase", "TC-1", *SEATS, *db),
        cmd("new", "turkey-chase", "x-3", *SEATS, "--option", "nmr=dance", *db),
        cmd("show", "tc-1", "--db", str(tmp_path / "no-such-folder" / "pbem.db")),
    )
    assert unknown_kind.returncode == USAGE and "no-such-kind" in unknown_kind.stderr
    assert unknown_seat.returncode == USAGE and "no seat E" in unknown_seat.stderr
    assert bad_address.returncode == USAGE and "'dave' is not a mail address" in bad_address.stderr
    assert taken.returncode == USAGE and "exists already" in taken.stderr
    assert bad_option.returncode == USAGE and "nmr" in bad_option.stderr
    assert bad_db.returncode == USAGE and "no-such-folder" in bad_db.stderr and "Traceback" not in bad_db.stderr

    # None of the refused commands created anything, and no ./pbem.db appeared beside --db.
    assert not (tmp_path / "pbem.db").exists()
    names = query(db[1], "SELECT name FROM game")
    assert names == [("tc-1",)]


def test_orders_syntax_and_legality_problems(tmp_path: Path) -> None:
    ok(pbem(tmp_path, "new", "turkey-chase", "tc-1", *SEATS))
    orders = tmp_path / "a.txt"
    orders.write_text(
        "# A's orders for turn 1\n"
        "FEED F1\n"
        "FEED Q6\n"          # line 3: no column Q
        "FEED D4\n"          # no bird of A there
        "MOVE F7-F9\n"       # two squares away
        "MOVE F7-G7\n"
    )
    out = ok(pbem(tmp_path, "orders", "tc-1", "A", str(orders)), REFUSED)
    assert "Game tc-1 (turkey-chase), seat A, turn 1." in out
    assert "line 3, column 6" in out
    assert "expected a square such as F6" in out
    assert caret_column(out, "FEED Q6") == 6
    assert "FEED D4: no bird of yours on D4" in out
    assert "MOVE F7-F9: F9 is not next to F7" in out
    assert "2 line(s) accepted, 3 refused." in out
    assert "These orders cost 3 of your 5 points." in out
    assert "Your orders v1" in out

    budget, unknown_game, unknown_seat, no_file = pbem_all(
        tmp_path,
        # Over the budget: 2 + 2 + 1 + 2 = 7 points; the last order does not fit.
        cmd("orders", "tc-1", "A", "-", stdin="FEED F1\nDESTROY F1/F2\nMOVE F7-F8\nMOVE F8-F9\n"),
        # Usage errors: unknown game, unknown seat, a file that is not there.
        cmd("orders", "tc-9", "A", str(orders)),
        cmd("orders", "tc-1", "E", str(orders)),
        cmd("orders", "tc-1", "B", str(tmp_path / "missing.txt")),
    )
    out = ok(budget, REFUSED)
    assert "MOVE F8-F9: these orders cost 7 of your 5 points" in out
    assert "3 line(s) accepted, 1 refused." in out
    assert "These orders replace your previous ones." in out
    assert unknown_game.returncode == USAGE and "tc-9" in unknown_game.stderr
    assert unknown_seat.returncode == USAGE and "no seat 'E'" in unknown_seat.stderr
    assert no_file.returncode == USAGE and "missing.txt" in no_file.stderr


def test_check_without_a_game(tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text("feed f6\nMOVE F6-F7   # a comment\n\nBUILD H1/H2\nDESTROY A6/B6\nNEW A6\n")
    clean, faulty, unknown_kind, no_file = pbem_all(
        tmp_path,
        cmd("check", "turkey-chase", str(good)),
        # Standard input by default (no FILE): syntax only, so FEED F6 passes although nobody is there.
        cmd("check", "turkey-chase", stdin="FEED F6\nMOVE F6-\nBUILD A6-B6\n"),
        cmd("check", "chess", str(good)),
        cmd("check", "turkey-chase", str(tmp_path / "missing.txt")),
    )
    out = ok(clean)
    assert "5 line(s) accepted, 0 refused." in out
    assert "Game " not in out, "a syntax check names no game"
    assert "syntax ok" in out and "Only the syntax was checked, against the turkey-chase grammar" in out

    out = ok(faulty, REFUSED)
    assert "line 2, column 9" in out
    assert caret_column(out, "MOVE F6-") == 9
    assert "expected a square such as F6" in out
    assert "line 3, column" in out
    assert "1 line(s) accepted, 2 refused." in out

    assert unknown_kind.returncode == USAGE and "chess" in unknown_kind.stderr
    assert no_file.returncode == USAGE and "missing.txt" in no_file.stderr


def test_orders_replace_resolve_report_and_replay(tmp_path: Path) -> None:
    ok(pbem(tmp_path, "new", "turkey-chase", "tc-1", *SEATS, "--seed", "7"))
    first = tmp_path / "a1.txt"
    first.write_text("MOVE F7-F8\n")
    a_first, b_orders = pbem_all(
        tmp_path,
        cmd("orders", "tc-1", "A", str(first)),
        # B: one bad line (dropped) and one good line (kept); FILE omitted means standard input.
        cmd("orders", "tc-1", "B", stdin="FEED Z1\nMOVE G6-G7\n"),
    )
    assert "Your orders v1" in ok(a_first)
    assert "1 line(s) accepted, 1 refused." in ok(b_orders, REFUSED)
    # The replacement comes by standard input; only it counts at resolution.
    out = ok(pbem(tmp_path, "orders", "tc-1", "a", "-", stdin="FEED F1\nMOVE F7-F6\n"))
    assert "Your orders v2" in out and "These orders replace your previous ones." in out

    out = ok(pbem(tmp_path, "resolve", "tc-1"))
    assert "Resolved turn 1 (NMR: C, D)." in out

    shown, turn2, public, mine, unknown_reader, unknown_game = pbem_all(
        tmp_path,
        cmd("show", "tc-1", "--json"),
        # Turn 2 is checked against the new position: A's farmer is on F6 now.
        cmd("orders", "tc-1", "A", stdin="MOVE F6-F8\nMOVE F7-F8\n"),
        cmd("show", "tc-1"),
        cmd("show", "tc-1", "--as", "b"),
        cmd("show", "tc-1", "--as", "Q"),
        cmd("show", "tc-9"),
    )
    data = json.loads(ok(shown))
    assert data["turn"] == 2 and data["status"] == "active"
    assert data["scores"] == {"A": 1, "B": 0, "C": 0, "D": 0}
    board = data["state"]
    assert board["corn"]["F1"] == 0, "A's FEED zeroes the square"
    assert board["farmers"] == {"A": ["F6"], "B": ["G7"], "C": ["F5"], "D": ["E6"]}, "v1's MOVE F7-F8 was replaced"
    # NMR default: nothing happens for C and D.
    assert board["birds"] == {"A": ["F1", "F1"], "B": ["A6", "A6"], "C": ["F11", "F11"], "D": ["K6", "K6"]}
    assert board["corn"]["F11"] == 1 and board["corn"]["K6"] == 1

    out = ok(turn2, REFUSED)
    assert "MOVE F6-F8: F8 is not next to F6" in out
    assert "MOVE F7-F8: no bird or farmer of yours on F7" in out
    assert "Your orders v" not in out, "a submission without an accepted line is not stored"
    assert "nothing was stored: you have no orders for this turn yet" in out

    # The reports: public, and B's own with B's pieces marked.
    public, mine = ok(public), ok(mine)
    assert "public report" in public and "Turn 1 results" in public
    assert "A fed on F1 for 1 point" in public
    assert "No orders received (NMR) from: C, D." in public
    assert "*" not in public
    assert "report for seat B" in mine
    assert "b*b*" in mine and "B*" in mine, "B's birds on A6 and farmer on G7 are marked"
    assert "a*" not in mine and "A*" not in mine
    assert "B (you)" in mine
    assert unknown_reader.returncode == USAGE and "no seat 'Q'" in unknown_reader.stderr
    assert unknown_game.returncode == USAGE and "tc-9" in unknown_game.stderr

    ok(pbem(tmp_path, "resolve", "tc-1"))
    assert "every state matches" in ok(pbem(tmp_path, "replay", "tc-1"))

    # Tamper with the stored state after turn 1: the replay notices.
    (record_id, stored), = query(
        default_db(tmp_path),
        "SELECT turn_record.id, turn_record.state FROM turn_record JOIN game ON game.id = turn_record.game_id "
        "WHERE game.name = 'tc-1' AND turn_record.turn = 1")
    tampered = stored if isinstance(stored, dict) else json.loads(stored)
    tampered["scores"]["D"] = "9"
    query(default_db(tmp_path), "UPDATE turn_record SET state = :state WHERE id = :id", state=json.dumps(tampered),
          id=record_id)
    replay, replay_unknown, resolve_unknown = pbem_all(
        tmp_path, cmd("replay", "tc-1"), cmd("replay", "tc-9"), cmd("resolve", "tc-9")
    )
    out = ok(replay, REFUSED)
    assert "turn 1: replayed state differs from the stored one" in out
    assert "mismatch" in out
    assert replay_unknown.returncode == USAGE
    assert resolve_unknown.returncode == USAGE


def test_nmr_feed_option(tmp_path: Path) -> None:
    out = ok(pbem(tmp_path, "new", "turkey-chase", "tc-feed", *SEATS, "--option", "nmr=feed", "--db", "feed.db"))
    assert "Created turkey-chase game tc-feed" in out
    ok(pbem(tmp_path, "orders", "tc-feed", "A", "--db", "feed.db", stdin="MOVE F7-F8\n"))
    assert "Resolved turn 1 (NMR: B, C, D)." in ok(pbem(tmp_path, "resolve", "tc-feed", "--db", "feed.db"))
    data = json.loads(ok(pbem(tmp_path, "show", "tc-feed", "--json", "--db", "feed.db")))
    # B, C and D sent nothing: their birds fed where they stand; A gave orders and did not feed.
    assert data["scores"] == {"A": 0, "B": 1, "C": 1, "D": 1}
    corn = data["state"]["corn"]
    assert (corn["A6"], corn["F11"], corn["K6"], corn["F1"]) == (0, 0, 0, 1)
    assert data["state"]["farmers"]["A"] == ["F8"]
    assert not (tmp_path / "pbem.db").exists(), "--db was used, not the default"


def test_demo_offline_plays_to_the_end(tmp_path: Path) -> None:
    out = ok(pbem(tmp_path, "demo", "--offline", "--db", default_db(tmp_path)))
    turn_lines = re.findall(r"^turn +(\d+) resolved; scores: A=\S+, B=\S+, C=\S+, D=\S+$", out, re.MULTILINE)
    assert turn_lines, out
    turns = [int(n) for n in turn_lines]
    assert turns == list(range(1, len(turns) + 1)), "one line per turn, in order"
    assert f"The game ended with turn {turns[-1]}. The final position:" in out
    assert "The game is over." in out
    assert "REFUSED" not in out, "the robots' orders are legal"
    header = re.search(r"^Turkey Chase -- game (\S+), public report$", out, re.MULTILINE)
    assert header is not None, out
    name = header.group(1)

    shown, replay, finished, resolve = pbem_all(  # on the default ./pbem.db
        tmp_path,
        cmd("show", name, "--json"),
        cmd("replay", name),
        # A finished game takes no orders and has nothing to resolve.
        cmd("orders", name, "A", stdin="FEED F6\n"),
        cmd("resolve", name),
    )
    data = json.loads(ok(shown))
    assert data["status"] == "finished"
    assert data["winners"] and set(data["winners"]) <= {"A", "B", "C", "D"}
    assert data["turn"] == len(turns), "a finished game is at its last turn played"
    best = max(data["scores"].values())
    assert {s for s, v in data["scores"].items() if v == best} == set(data["winners"])
    # The robots' orders went through the submission path: stored submissions for every seat and turn.
    rows = query(default_db(tmp_path), "SELECT DISTINCT turn, seat FROM submission")
    assert len(rows) == 4 * len(turns)
    assert "every state matches" in ok(replay)
    assert finished.returncode == REFUSED and "finished" in finished.stderr
    assert resolve.returncode == REFUSED and "finished" in resolve.stderr


def test_demo_works_in_a_directory_of_its_own_and_leaves_the_games_of_pbem_db_alone(tmp_path: Path) -> None:
    ok(pbem(tmp_path, "new", "race-on-the-river", "g1", "--seat", "1=a@example.org", "--seat", "2=b@example.org"))
    env = {**_env(), "PBEM_DB": default_db(tmp_path)}  # as deploy/'s example environment sets it
    demo = subprocess.run([str(PBEM), "demo", "--offline"], cwd=tmp_path, capture_output=True, text=True, env=env,
                          timeout=120, check=False)
    out = ok(demo)
    working = re.search(r"^pbem demo: working in (\S+)$", out, re.MULTILINE)
    assert working is not None, out
    assert Path(working.group(1)).is_dir() and Path(working.group(1)) != tmp_path
    assert "The game ended with turn" in out
    log = ok(pbem(tmp_path, "log", "g1"))
    assert "RESOLVE" not in log and "NMR" not in log, log
    assert [row[0] for row in query(default_db(tmp_path), "SELECT name FROM game")] == ["g1"]


@pytest.mark.parametrize("offline", [True, False], ids=["offline", "by mail"])
def test_demo_refuses_a_database_given_with_db_that_holds_other_games(tmp_path: Path, offline: bool) -> None:
    ok(pbem(tmp_path, "new", "race-on-the-river", "g1", "--seat", "1=a@example.org", "--seat", "2=b@example.org"))
    refused = pbem(tmp_path, "demo", *(["--offline"] if offline else []), "--db", default_db(tmp_path))
    ok(refused, USAGE)
    assert "g1" in refused.stderr and "--db" in refused.stderr, refused.stderr
    assert "RESOLVE" not in ok(pbem(tmp_path, "log", "g1"))
    assert [row[0] for row in query(default_db(tmp_path), "SELECT name FROM game")] == ["g1"]


def test_demo_plays_again_on_a_database_holding_only_its_own_games(tmp_path: Path) -> None:
    for _ in range(2):
        ok(pbem(tmp_path, "demo", "--offline", "--db", default_db(tmp_path)))
    assert len(query(default_db(tmp_path), "SELECT name FROM game")) == 2


def test_addresses_past_the_smtp_limits_are_refused_as_usage_errors(tmp_path: Path) -> None:
    huge, long_local = "c" * 890 + "@example.org", "a" * 65 + "@example.org"
    ok(pbem(tmp_path, "new", "race-on-the-river", "g1", "--seat", "1=a@example.org", "--seat", "2=b@example.org"))
    refused = pbem_all(
        tmp_path,
        cmd("new", "race-on-the-river", "g2", "--seat", f"1={huge}", "--seat", "2=b@example.org"),
        cmd("new", "race-on-the-river", "g3", "--seat", f"1={long_local}", "--seat", "2=b@example.org"),
        cmd("prefs", huge, "--zone", "Europe/Berlin"),
        cmd("observe", "g1", long_local),
        cmd("standby", huge, "fungus"),
    )
    for result in refused:
        ok(result, USAGE)
        assert "not a mail address" in result.stderr and "mail servers take" in result.stderr, result.stderr
    assert [row[0] for row in query(default_db(tmp_path), "SELECT name FROM game")] == ["g1"]
    assert query(default_db(tmp_path), "SELECT address FROM address_preference") == []
    ok(pbem(tmp_path, "prefs", "b" * 64 + "@example.org", "--zone", "Europe/Berlin"))


@pytest.mark.parametrize("args", [["--help"], ["check", "turkey-chase", "-"]])
def test_help_and_check_never_load_the_database_stack(args: list[str], tmp_path: Path) -> None:
    code = ("import atexit, sys; atexit.register(lambda: print(sorted(m for m in ('sqlalchemy', 'sqlmodel', 'alembic', "
            "'jinja2', 'aiosmtplib', 'aioimaplib') if m in sys.modules), file=sys.stderr)); "
            f"sys.argv = ['pbem', *{args!r}]; from pbem.cli import main; sys.exit(main())")
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, input="MOVE F7-F8\n", capture_output=True,
                         text=True, env=_env(), timeout=120)
    assert run.returncode == OK, run.stderr
    assert run.stderr.strip().splitlines()[-1] == "[]"


def test_version_and_an_unknown_kind_refused_before_anything_is_loaded(tmp_path: Path) -> None:
    version, demo, new, check = pbem_all(
        tmp_path, cmd("--version"), cmd("demo", "--kind", "nosuch"), cmd("new", "nosuch", "g1", "--players", "2"),
        cmd("check", "nosuch", "-", stdin="BID 3\n"))
    assert re.fullmatch(r"pbem \d+\.\d+\.\d+\S*\n", ok(version))
    for result in (demo, new, check):
        assert result.returncode == USAGE and "no game kind 'nosuch'; kinds are: all-in-a-days-work" in result.stderr
    assert not (tmp_path / "pbem.db").exists() and not list(tmp_path.glob("pbem-demo-*"))


def test_every_option_of_every_command_has_help() -> None:
    from pbem.cli import build_parser

    parser = build_parser()
    commands = next(action for action in parser._actions if action.dest == "command")
    bare = [f"{name} {' '.join(action.option_strings) or action.dest}"
            for name, command in commands.choices.items()  # type: ignore[union-attr]
            for action in command._actions if action.help is None and action.dest != "help"]
    assert bare == []


def test_a_seed_over_32_bits(tmp_path: Path) -> None:
    out = ok(pbem(tmp_path, "new", "turkey-chase", "big-1", *SEATS, "--seed", "3000000000"))
    assert "Created turkey-chase game big-1" in out
    assert state(tmp_path, "big-1")["turn"] == 1


def test_serve_refuses_a_number_of_smtp_connections_out_of_range(tmp_path: Path) -> None:
    none, too_many = pbem_all(tmp_path, cmd("serve", "--smtp-connections", "0"), cmd("serve", "--smtp-connections", "17"))
    for result, given in ((none, "0"), (too_many, "17")):
        assert result.returncode == USAGE and f"--smtp-connections {given}: give a number from 1 to 16" in result.stderr
    assert not (tmp_path / "pbem.db").exists()


def test_serve_and_web_on_a_port_in_use_say_so_in_one_line_and_leave_nothing_behind(tmp_path: Path) -> None:
    with socket.socket() as held:  # another program (such as a first pbem serve) listens on the port
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = str(held.getsockname()[1])
        runs = pbem_all(tmp_path, cmd("serve", "--imap-port", port, "--smtp-port", "0"),
                        cmd("serve", "--imap-port", "0", "--smtp-port", port),
                        cmd("serve", "--imap-port", "0", "--smtp-port", "0", "--web", f"127.0.0.1:{port}"),
                        cmd("serve", "--smtp", "smtp://127.0.0.1:25", "--lmtp", f"127.0.0.1:{port}"),
                        cmd("web", f"127.0.0.1:{port}"))
    for result, option in zip(runs, ["--imap-port", "--smtp-port", "--web", "--lmtp", "pbem web HOST:PORT"],
                              strict=True):
        assert result.returncode == USAGE and len(result.stderr.splitlines()) == 1, result.stderr
        assert f"port {port} on 127.0.0.1 is in use" in result.stderr, result.stderr
        assert result.stderr.endswith(f"give another port with {option}\n"), result.stderr
    assert sorted(tmp_path.iterdir()) == []  # no pbem.db, no lock, no mailboxes


def test_serve_and_web_refuse_web_caps_out_of_range(tmp_path: Path) -> None:
    results = pbem_all(tmp_path, cmd("serve", "--web-connections", "0"), cmd("web", "--web-connections", "10001"),
                       cmd("serve", "--web-idle", "0"), cmd("web", "--web-idle", "3601"))
    expected = ["--web-connections 0: give a number from 1 to 10000", "--web-connections 10001: give a number",
                "--web-idle 0: give a number of seconds", "--web-idle 3601: give a number of seconds"]
    for result, message in zip(results, expected, strict=True):
        assert result.returncode == USAGE and message in result.stderr
    assert not (tmp_path / "pbem.db").exists()


def _stored_mail(db_url: str) -> dict[str, int]:
    """Four stored mails: one handled, one failed, one set aside and one waiting for its next try."""
    from datetime import UTC, datetime, timedelta

    from pbem.mail.reading.mailstore import InboundStore
    from pbem.store import open_database

    db = open_database(db_url)
    store, ids = InboundStore(db), {}
    for name in ("handled", "failed", "set_aside", "waiting"):
        raw = (f"From: {name}@example.org\r\nSubject: =?utf-8?q?J=C3=A4_{name}?=\r\nMessage-ID: <{name}@x>\r\n\r\n"
               "HELP\r\n").encode()
        inbound_id = store.store(None, raw)
        assert inbound_id is not None
        ids[name] = inbound_id
        with db.session() as session:
            InboundStore.count_try(session, inbound_id)
            status = "new" if name == "waiting" else name
            InboundStore.schedule(session, inbound_id, status, f"RuntimeError: {name}",
                                  datetime.now(UTC) + timedelta(hours=1) if name == "waiting" else None)
    db.close()
    return ids


def test_pbem_mail_lists_failed_set_aside_and_waiting_mail_and_retry_queues_one_again(tmp_path: Path) -> None:
    ok(pbem(tmp_path, "upgrade-check"))  # creates the database
    ids = _stored_mail(default_db(tmp_path))
    listing, as_json, unknown, handled = pbem_all(
        tmp_path, cmd("mail"), cmd("mail", "--json"), cmd("mail", "retry", "99999"),
        cmd("mail", "retry", str(ids["handled"])))
    lines = ok(listing).splitlines()
    assert len(lines) == 3
    assert [line.split()[0] for line in lines] == [str(ids[name]) for name in ("failed", "set_aside", "waiting")]
    assert "failed@example.org  'Jä failed'  failed  1 tries  RuntimeError: failed" in lines[0]
    assert "set_aside  1 tries" in lines[1] and "waiting  1 tries" in lines[2]
    rows = json.loads(ok(as_json))
    assert [row["status"] for row in rows] == ["failed", "set_aside", "waiting"]
    assert rows[0] | {"received": None} == {"id": ids["failed"], "received": None, "sender": "failed@example.org",
                                            "subject": "Jä failed", "status": "failed", "tries": 1,
                                            "error": "RuntimeError: failed"}
    for result in (unknown, handled):
        assert result.returncode == USAGE and "no failed or set-aside mail" in result.stderr
    queued = ok(pbem(tmp_path, "mail", "retry", str(ids["set_aside"])))
    assert f"Mail {ids['set_aside']} is queued to be handled again" in queued
    assert [(row["id"], row["status"]) for row in json.loads(ok(pbem(tmp_path, "mail", "--json")))] == [
        (ids["failed"], "failed"), (ids["set_aside"], "queued"), (ids["waiting"], "waiting")]


def test_pbem_mail_says_when_there_is_none(tmp_path: Path) -> None:
    assert ok(pbem(tmp_path, "mail")) == "No failed or set-aside mail.\n"


def test_serve_refuses_a_mail_budget_out_of_range(tmp_path: Path) -> None:
    none, too_long = pbem_all(tmp_path, cmd("serve", "--mail-budget", "0"), cmd("serve", "--mail-budget", "601"))
    for result, given in ((none, "0"), (too_long, "601")):
        assert result.returncode == USAGE and f"--mail-budget {given}: give a number of seconds" in result.stderr


def test_players_and_player_print_the_record_and_the_operator_sees_addresses(tmp_path: Path) -> None:
    from pbem.service import players
    from pbem.service.api import GameService
    from pbem.store.database import open_database

    ok(pbem(tmp_path, "new", "turkey-chase", "tc-1", *SEATS, "--seed", "7"))
    db = open_database(default_db(tmp_path))
    try:
        service = GameService(db)
        service.submit("tc-1", "A", "MOVE F7-F8")
        service.resolve("tc-1", reason="deadline")  # A met the deadline; B, C and D missed it
        with service.unit() as unit:
            players.register(unit, "alice@example.org", "Alice")
            players.register(unit, "bob@example.org", "bob")
    finally:
        db.close()
    listed, alice, missing = pbem_all(tmp_path, cmd("players", "--json"), cmd("player", "alice"),
                                      cmd("player", "nobody"))
    data = json.loads(ok(listed))
    assert [(p["name"], p["reliability"], p["record"]["met"], p["record"]["missed"]) for p in data] == [
        ("Alice", 1.0, 1, 0), ("bob", 0.0, 0, 1)]
    out = ok(alice)
    assert "Alice: 1 game played, 0 finished" in out and "reliability 100% (1 of the last 1 deadlines met)" in out
    assert "Addresses: alice@example.org." in out and "tc-1 (turkey-chase), active" in out
    ok(missing, USAGE)
    assert "no player is called nobody" in missing.stderr
def test_check_against_a_games_position_stores_nothing_and_says_so(tmp_path: Path) -> None:
    ok(pbem(tmp_path, "new", "turkey-chase", "tc-1", *SEATS, "--seed", "7"))
    orders = tmp_path / "a.txt"
    orders.write_text("MOVE F7-F8\nFEED Z1\n")
    checked, by_stdin, half, both = pbem_all(
        tmp_path,
        cmd("check", "--game", "tc-1", "--seat", "A", str(orders)),
        cmd("check", "--game", "tc-1", "--seat", "A", stdin="MOVE F7-F8\n"),
        cmd("check", "--game", "tc-1", stdin="MOVE F7-F8\n"),
        cmd("check", "turkey-chase", str(orders), "--game", "tc-1", "--seat", "A"),
    )
    out = ok(checked, REFUSED)
    assert "Game tc-1 (turkey-chase), seat A, turn 1." in out and "1 line(s) accepted, 1 refused." in out
    assert "Checked against the position of game tc-1 at turn 1, as seat A would play them now: nothing was " \
           "stored." in out and "Only the syntax" not in out
    assert "nothing was stored" in ok(by_stdin)
    assert ok(half, USAGE) == "" and "needs both --game and --seat" in half.stderr
    ok(both, USAGE)
    assert state(tmp_path, "tc-1")["turn"] == 1
    assert query(default_db(tmp_path), "SELECT count(*) FROM submission")[0][0] == 0
def test_report_prints_a_seats_newest_report_or_the_one_of_a_turn(tmp_path: Path) -> None:
    ok(pbem(tmp_path, "new", "turkey-chase", "tc-1", *SEATS, "--seed", "7"))
    ok(pbem(tmp_path, "orders", "tc-1", "A", "-", stdin="FEED F1\nMOVE F7-F6\n"))
    ok(pbem(tmp_path, "resolve", "tc-1"))
    newest, shown, opening, public, missing = pbem_all(
        tmp_path,
        cmd("report", "tc-1", "--seat", "b"),
        cmd("show", "tc-1", "--as", "b"),
        cmd("report", "tc-1", "--seat", "B", "--turn", "0"),
        cmd("report", "tc-1", "--turn", "1"),
        cmd("report", "tc-1", "--seat", "B", "--turn", "2"),
    )
    assert ok(newest) == ok(shown) and "report for seat B" in ok(newest) and "Turn 1 results" in ok(newest)
    opening_text = ok(opening)
    assert "The game has started." in opening_text and "report for seat B" in opening_text
    assert "b*b*" in opening_text and "Your orders are due." in opening_text  # its own view; its deadline is gone
    assert "public report" in ok(public) and "Turn 1 results" in ok(public) and "*" not in ok(public)
    assert missing.returncode == REFUSED
    assert "game tc-1 has no report of turn 2: its reports tell turns 0 (the opening) to 1" in missing.stderr


def test_a_plain_check_answers_as_the_full_command_line_does_with_the_game_and_its_grammar_alone(
        tmp_path: Path) -> None:
    (tmp_path / "orders.txt").write_text("FEED F1\nMOVE F7-F8\nJUMP\n")
    code = ("import atexit, sys; atexit.register(lambda: print(sorted(m for m in ('pbem.cli.parser', "
            "'pbem.service.api', 'pbem.games.fungus.rules', 'argparse') if m in sys.modules), file=sys.stderr)); "
            "sys.argv = ['pbem', 'check', 'turkey-chase', 'orders.txt']; from pbem.cli import main; sys.exit(main())")
    lean = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, env=_env(),
                          timeout=120)
    assert lean.stderr.strip().splitlines()[-1] == "[]"
    full = pbem(tmp_path, "check", "turkey-chase", "orders.txt", "--db", "unused.db")  # read by the parser
    assert (lean.returncode, lean.stdout) == (full.returncode, full.stdout) == (REFUSED, full.stdout)
    assert "1 refused" in lean.stdout
