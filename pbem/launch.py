"""The commands a mail server or a script runs often, answered without loading the rest of pbem.

``pbem --version``, ``pbem deliver [--db DB]`` (run once per mail by ``.forward``,
procmail or Postfix ``pipe``) and ``pbem check KIND [FILE]`` (a player's syntax
check, with the game's package and its grammar alone) are answered here, with the
standard library and pbem's lean modules alone (bench/bench_startup.py measures
them), before :func:`pbem.cli.main` loads its parser and commands for any other
command line.
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
    (``--version``; ``deliver`` and ``check`` in one of their plain forms, see :func:`deliver_database` and
    :func:`syntax_check`) and return its exit code; None for any other command line."""
    args = list(argv)
    if args == ["--version"]:
        print(f"pbem {installed_version()}")
        return 0
    db = deliver_database(args)
    if db is not None:
        return run_deliver(db)
    check = syntax_check(args)
    return None if check is None else run_check(*check)


def run_deliver(db: str) -> int:
    """``pbem deliver --db DB``: store the mail on standard input (see :mod:`pbem.mail.intake.deliver`), logging
    what went wrong to standard error; return the exit code for the mail server."""
    import logging

    from pbem.mail.intake.deliver import deliver

    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    return deliver(db, sys.stdin.buffer)


def syntax_check(args: Sequence[str]) -> tuple[str, str] | None:
    """The game kind and order file (``-``: standard input) of a ``pbem check KIND [FILE|-]`` command line in
    its plain form, for a kind pbem hosts and a file that is there; None for any other command line, which
    :func:`pbem.cli.main` reads (and explains when it is wrong)."""
    if len(args) not in (2, 3) or args[0] != "check":
        return None
    kind, file = args[1], args[2] if len(args) == 3 else "-"
    if kind.startswith("-") or file.startswith("-") and file != "-":
        return None
    from pbem.games import GAMES

    key = kind.strip().lower()
    if key not in GAMES or file != "-" and not os.path.isfile(file):
        return None
    return key, file


def run_check(kind: str, file: str) -> int:
    """``pbem check KIND [FILE|-]``: print the line-by-line check of the orders in ``file`` (``-``: standard
    input) against the grammar of the game ``kind``; return 0 when every line passed, else 1 (pbem's exit
    codes, :mod:`pbem.cli`)."""
    from pbem.service.checking import check_syntax

    if file == "-":
        text = sys.stdin.read()
    else:
        with open(file, encoding="utf-8", errors="replace") as orders:
            text = orders.read()
    result = check_syntax(kind, text)
    try:
        print(result.render(), end="", flush=True)
    except BrokenPipeError:  # e.g. `pbem check KIND FILE | head`: the reader left; not an error
        quiet_stdout()
    return 0 if result.is_clean else 1


def quiet_stdout() -> None:
    """Send what is still written to standard output nowhere (its reader left)."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


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

