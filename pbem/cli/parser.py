"""The argument parser of ``pbem``: the root parser and ``--version``, and each reader's commands
as its module adds them (GMs, players, leagues, operators, serving)."""

from __future__ import annotations

import argparse

from pbem.cli import gms, leagues, operators, players, serving
from pbem.cli.shared import Subcommands

ARGUMENT_HELP = {
    "game": "the game's name, e.g. tc-1",
    "seat": "a seat of the game, as its reports name it (e.g. A, or 2)",
    "address": "a mail address, e.g. ann@example.org",
    "json": "print JSON instead of text",
    "text": "the seat's entropy: one short line of any text",
    "when": "the new deadline: 2026-11-25 18:00 (UTC), with an offset (+01:00) or a time zone name",
    "duration": "how much later: 2d, 12h, 1d6h or 30m",
    "turn": "the turn whose start the game returns to",
    "confirm": "the code the first call printed: carries the rollback out",
    "verbose": "log at DEBUG (every request)",
}
"""Help of the arguments that several commands share (or that speak for themselves), where a command gives
none of its own."""


def _version() -> str:
    """The installed pbem's version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pbem")
    except PackageNotFoundError:  # run from a source tree that is not installed
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the ``pbem`` command."""
    parser = argparse.ArgumentParser(prog="pbem", description="A play-by-email game master.")
    parser.add_argument("--version", action="version", version=f"pbem {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    commands = Subcommands(sub)
    for reader in (gms, players, leagues, operators, serving):
        reader.add_commands(commands)
    for command in sub.choices.values():
        for action in command._actions:
            if action.help is None:
                action.help = ARGUMENT_HELP.get(action.dest)
    return parser
