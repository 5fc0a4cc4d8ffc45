"""The commands a mail server or a script runs often, answered without loading the rest of pbem.

``pbem --version`` and ``pbem deliver [--db DB]`` (run once per mail by ``.forward``,
procmail or Postfix ``pipe``) are answered here, with the standard library and
pbem's lean modules alone (bench/bench_startup.py measures them), before
:func:`pbem.cli.main` loads its parser and commands for any other command line.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence


def installed_version() -> str:
    """The installed pbem's version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pbem")
    except PackageNotFoundError:  # run from a source tree that is not installed
        return "unknown (not installed)"


def quick_answer(argv: Sequence[str]) -> int | None:
    """Carry out the command line ``argv`` (without the program's name) when it is one answered here
    (``--version``; ``deliver`` in one of its plain forms, see :func:`deliver_database`) and return its exit
    code; None for any other command line."""
    args = list(argv)
    if args == ["--version"]:
        print(f"pbem {installed_version()}")
        return 0
    db = deliver_database(args)
    return None if db is None else run_deliver(db)


def run_deliver(db: str) -> int:
    """``pbem deliver --db DB``: store the mail on standard input (see :mod:`pbem.mail.intake.deliver`), logging
    what went wrong to standard error; return the exit code for the mail server."""
    import logging

    from pbem.mail.intake.deliver import deliver

    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    return deliver(db, sys.stdin.buffer)


def deliver_database(args: Sequence[str]) -> str | None:
    """The database of a ``pbem deliver`` command line in one of its plain forms (``deliver``, ``deliver
    --db DB``, ``deliver --db=DB``), as ``pbem deliver`` reads it (default ./pbem.db or PBEM_DB); None for any
    other command line, which :func:`pbem.cli.main` reads."""
    if not args or args[0] != "deliver":
        return None
    rest = args[1:]
    if not rest:
        return os.environ.get("PBEM_DB", "pbem.db")
    if len(rest) == 2 and rest[0] == "--db" and not rest[1].startswith("-"):
        return rest[1]
    if len(rest) == 1 and rest[0].startswith("--db=") and len(rest[0]) > len("--db="):
        return rest[0][len("--db="):]
    return None

