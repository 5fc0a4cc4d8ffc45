"""PostgreSQL's own programs (``pg_dump``, ``pg_restore``): where they are, and running one on a database.

pbem finds them where Debian's ``postgresql`` package puts them, as the test
suite finds ``initdb``: in the folder ``PBEM_PG_BIN`` names, else in the
newest ``/usr/lib/postgresql/<version>/bin`` (``pg_dump`` must be at least the
server's version), else on the ``PATH``. A program is given the database as a
libpq URI without its password, which goes in ``PGPASSWORD`` instead, so that
no other user of the machine sees it in the process list.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
from pathlib import Path

from sqlalchemy.engine import make_url

from pbem.core.errors import PbemError
from pbem.store.database import database_url

__all__ = ["PostgresProgramFailed", "postgres_program", "run_program", "shown_url"]


class PostgresProgramFailed(PbemError):
    """A PostgreSQL program is not installed, or it ended with an error (the message quotes it)."""


def postgres_program(name: str) -> Path | None:
    """The path of PostgreSQL's program ``name``: in ``PBEM_PG_BIN`` when that is set, else in Debian's newest
    ``/usr/lib/postgresql/<version>/bin``, else on the PATH; None when there is none."""
    if os.environ.get("PBEM_PG_BIN"):
        found = Path(os.environ["PBEM_PG_BIN"]) / name
        return found if found.is_file() else None
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda path: int(Path(path).parts[-3]))
    if versions:
        return Path(versions[-1])
    on_path = shutil.which(name)
    return Path(on_path) if on_path else None


def shown_url(url: str) -> str:
    """A database URL as it may be shown (in messages and logs): its password hidden."""
    return make_url(database_url(url)).render_as_string(hide_password=True)


def run_program(name: str, *arguments: str, url: str | None = None) -> str:
    """Run PostgreSQL's program ``name`` with ``arguments`` (and, with ``url``, ``--dbname`` the database
    there: an SQLAlchemy or libpq URL); return what it printed on standard output. Raises
    :class:`PostgresProgramFailed` when the program is not installed or ends with an error."""
    program = postgres_program(name)
    if program is None:
        raise PostgresProgramFailed(
            f"{name} is not installed (looked in PBEM_PG_BIN, /usr/lib/postgresql/*/bin and the PATH): "
            "apt-get install postgresql-client")
    environment = dict(os.environ)
    argv = [str(program), *arguments]
    if url is not None:
        parsed = make_url(database_url(url))
        if parsed.password is not None:
            environment["PGPASSWORD"] = str(parsed.password)
        argv.append("--dbname=" + parsed.set(drivername="postgresql", password=None)
                    .render_as_string(hide_password=False))
    done = subprocess.run(argv, capture_output=True, text=True, env=environment, check=False)
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()][:3]
        where = f" on {shown_url(url)}" if url is not None else ""
        raise PostgresProgramFailed(f"{name}{where} failed (exit {done.returncode}): "
                                    + (" / ".join(lines) or "no message"))
    return done.stdout
