"""``pbem backup`` and ``pbem restore`` through the real command line, on the run's database engine: a
backup restores into an empty database to the same games, is written with mode 0600 and replaces an
older one whole; a restore refuses a database that is not empty, and a file that is no backup for it; a
backup of a database that is not there says so."""

from __future__ import annotations

import json
from pathlib import Path

from databases import database_url, empty_database_url, on_postgresql, query
from test_cli import SEATS, USAGE, ok, pbem

from pbem.store.pg_programs import shown_url


def _game(cwd: Path, db: str, name: str) -> None:
    ok(pbem(cwd, "new", "turkey-chase", name, *SEATS, "--seed", "7", "--db", db))
    ok(pbem(cwd, "resolve", name, "--db", db))


def test_a_backup_restores_into_an_empty_database_to_the_same_games(tmp_path: Path) -> None:
    db = database_url(tmp_path)
    _game(tmp_path, db, "tc-1")
    backup = tmp_path / "backups" / "pbem.backup"
    backup.parent.mkdir()
    out = ok(pbem(tmp_path, "backup", str(backup), "--db", db))
    assert out.startswith("Backed up ") and f"to {backup} (" in out and "mode 0600" in out
    first = backup.read_bytes()
    _game(tmp_path, db, "tc-2")
    ok(pbem(tmp_path, "backup", str(backup), "--db", db))  # replaces the older backup, whole
    assert backup.stat().st_mode & 0o777 == 0o600
    assert [path.name for path in backup.parent.iterdir()] == ["pbem.backup"]  # no temporary file left
    assert backup.read_bytes() != first

    target = empty_database_url(tmp_path, "restored.db")
    out = ok(pbem(tmp_path, "restore", str(backup), "--db", target))
    assert out.startswith(f"Restored {backup} into ") and "2 game(s), 0 stored mail(s)" in out
    if not on_postgresql():
        assert Path(target).stat().st_mode & 0o777 == 0o600
    for game in ("tc-1", "tc-2"):
        assert (json.loads(ok(pbem(tmp_path, "show", game, "--json", "--db", target)))
                == json.loads(ok(pbem(tmp_path, "show", game, "--json", "--db", db))))
    assert ok(pbem(tmp_path, "upgrade-check", "--db", target)) == "Checked 2 games: 0 would resolve differently.\n"
    assert query(target, "SELECT count(*) FROM turn_record") == [(2,)]

    again = pbem(tmp_path, "restore", str(backup), "--db", target)
    assert again.returncode == USAGE and again.stdout == ""
    assert again.stderr.count("\n") == 1 and "is not empty" in again.stderr and "a restore fills only an empty" \
        in again.stderr, again.stderr
    assert query(target, "SELECT count(*) FROM game") == [(2,)]  # untouched


def test_backup_of_a_database_that_is_not_there_and_restore_of_what_is_no_backup_are_refused(tmp_path: Path) -> None:
    if on_postgresql():
        missing = database_url(tmp_path).rsplit("/", 1)[0] + "/no_such_database"
    else:
        missing = str(tmp_path / "missing.db")
    backup = tmp_path / "pbem.backup"
    refused = pbem(tmp_path, "backup", str(backup), "--db", missing)
    assert refused.returncode == USAGE and not backup.exists() and list(tmp_path.iterdir()) == []
    assert refused.stderr.startswith("pbem: no database at " if not on_postgresql() else "pbem: no pbem database at ")
    assert refused.stderr.count("\n") == 1, refused.stderr

    db = database_url(tmp_path)
    _game(tmp_path, db, "tc-1")
    same = pbem(tmp_path, "backup", db, "--db", db) if not on_postgresql() else None
    assert same is None or (same.returncode == USAGE and "is the database itself" in same.stderr)
    nowhere = pbem(tmp_path, "backup", str(tmp_path / "no" / "such.backup"), "--db", db)
    assert nowhere.returncode == USAGE and "no such folder" in nowhere.stderr, nowhere.stderr
    ok(pbem(tmp_path, "backup", str(backup), "--db", db))
    other_engine = ("postgresql://pbem@127.0.0.1:9/never" if not on_postgresql() else str(tmp_path / "other.db"))
    wrong = pbem(tmp_path, "restore", str(backup), "--db", other_engine)
    assert wrong.returncode == USAGE and "restore it into" in wrong.stderr, wrong.stderr
    not_a_backup = tmp_path / "notes.txt"
    not_a_backup.write_text("hello\n")
    target = empty_database_url(tmp_path, "restored.db")
    for file, says in ((not_a_backup, "is no backup of pbem backup"), (tmp_path / "nothing", "no backup file at")):
        refused = pbem(tmp_path, "restore", str(file), "--db", target)
        assert refused.returncode == USAGE and says in refused.stderr, refused.stderr
    assert not (tmp_path / "other.db").exists() and not (tmp_path / "restored.db").exists()


def test_a_database_urls_password_is_never_shown() -> None:
    shown = shown_url("postgresql://pbem:s3cret@db.example.org:5432/pbem")
    assert "s3cret" not in shown and shown == "postgresql+psycopg://pbem:***@db.example.org:5432/pbem"
