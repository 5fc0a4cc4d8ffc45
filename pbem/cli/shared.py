"""What every reader's commands share: the exit codes, the usage error, reading an input file or
standard input, NAME=VALUE pairs, the argument types of an address and a game kind, ``--db`` and
the game service on it.

Nothing here imports the database stack: commands import what they need when they run
(bench/bench_startup.py measures it).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.core.errors import InvalidInput, PbemError

if TYPE_CHECKING:
    from pbem.service.api import GameService

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_USAGE = 2
EXIT_FAILED = 3
"""``pbem serve`` stopped by itself: a part of it kept failing (systemd restarts it)."""

DB_HELP = "SQLite file or database URL (default ./pbem.db; env PBEM_DB)"
"""The help of ``--db`` where a command gives none of its own."""


class UsageError(PbemError):
    """A command line that cannot be carried out as written."""


def read_text(source: str | None) -> str:
    if source is None or source == "-":
        return sys.stdin.read()
    path = Path(source)
    if not path.is_file():
        raise UsageError(f"no such file: {source}")
    return path.read_text(encoding="utf-8", errors="replace")


def parse_pairs(pairs: Sequence[str], what: str) -> dict[str, str]:
    result: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"{what} {pair!r}: expected NAME=VALUE")
        result[key.strip()] = value.strip()
    return result


def address(text: str) -> str:
    """An address argument, stripped and in lower case; argparse refuses (exit 2) one pbem does not take."""
    from pbem.addresses import checked_address

    try:
        return checked_address(text)
    except InvalidInput as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def service_of(args: argparse.Namespace) -> GameService:
    """The game service on the database of ``--db`` (opened, and migrated as needed)."""
    if "://" not in args.db:
        path = Path(args.db).expanduser()
        if path.is_dir() or not path.parent.is_dir():
            raise UsageError(f"--db {args.db}: cannot open a database file there")
    from pbem.service.api import GameService
    from pbem.store import open_database

    return GameService(open_database(args.db), actor="command line")


def game_kind(text: str) -> str:
    """argparse type of a game kind: its name as the registry spells it; an unknown kind is refused at
    once, naming the kinds there are (the game's module is not loaded)."""
    from pbem.games import GAMES

    key = text.strip().lower()
    if key not in GAMES:
        raise argparse.ArgumentTypeError(f"no game kind {text!r}; kinds are: {', '.join(sorted(GAMES))}")
    return key


def add_db_option(command: argparse.ArgumentParser, help_text: str = DB_HELP, *, default_db: bool = True) -> None:
    """Give ``command`` the option ``--db``: by default ./pbem.db or the environment's PBEM_DB; with
    ``default_db=False``, no default (None)."""
    command.add_argument("--db", default=os.environ.get("PBEM_DB", "pbem.db") if default_db else None,
                         help=help_text)


class Subcommands:
    """The subcommands of ``pbem``, as each reader's module adds its own (``add_commands``)."""

    def __init__(self, sub: Any) -> None:  # argparse's subparsers action (a private type)
        self._sub = sub

    def add(self, name: str, help_text: str, *, db_help: str | None = None, arguments: Sequence[str] = (),
            func: Callable[[argparse.Namespace], int] | None = None) -> argparse.ArgumentParser:
        """A subcommand with ``--db``: by default ./pbem.db or PBEM_DB; with ``db_help``, no default (None).
        Then its plain positional ``arguments`` (help from :data:`pbem.cli.parser.ARGUMENT_HELP`), and
        ``func``, the function that runs it."""
        command = self.add_plain(name, help=help_text, description=help_text)
        if db_help is not None:
            add_db_option(command, db_help, default_db=False)
        else:
            add_db_option(command)
        for argument in arguments:
            command.add_argument(argument)
        if func is not None:
            command.set_defaults(func=func)
        return command

    def add_plain(self, name: str, **options: Any) -> argparse.ArgumentParser:
        """A subcommand as argparse makes it (``help``, ``description``), with no ``--db``."""
        parser: argparse.ArgumentParser = self._sub.add_parser(name, **options)
        return parser
