"""The ``pbem`` command: run games offline from the shell, or serve them by mail.

One module per reader's commands: :mod:`~pbem.cli.players` (orders, checks, reports),
:mod:`~pbem.cli.gms` (games, deadlines, campaign actions), :mod:`~pbem.cli.leagues`,
:mod:`~pbem.cli.operators` (players' data, troubled mail, figures, backups) and
:mod:`~pbem.cli.serving` (serve, web, deliver, DKIM keys, the demo); :mod:`~pbem.cli.parser` gathers
them and :mod:`~pbem.cli.shared` holds what they share. Every command calls the service layer
(:class:`pbem.service.api.GameService`) and imports what it needs when it runs: ``pbem --help`` and
``pbem check`` never load the database stack (bench/bench_startup.py measures it).

Exit codes: 0 success; 1 orders refused (some line) or a game that cannot do
what was asked; 2 usage errors (bad arguments, unknown game, kind or seat);
``pbem deliver`` those of sysexits.h that mail servers expect (0, 65, 75).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from pbem.cli.parser import build_parser
from pbem.cli.shared import EXIT_FAILED, EXIT_OK, EXIT_REFUSED, EXIT_USAGE, UsageError
from pbem.core.errors import PbemError, UnknownGame, UnknownSeat

__all__ = ["EXIT_FAILED", "EXIT_OK", "EXIT_REFUSED", "EXIT_USAGE", "UsageError", "build_parser", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``pbem`` command; return its exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except BrokenPipeError:  # e.g. `pbem show GAME | head`: the reader left; not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except (UnknownGame, UnknownSeat, UsageError) as error:
        print(f"pbem: {error}", file=sys.stderr)
        return EXIT_USAGE
    except PbemError as error:
        print(f"pbem: {error}", file=sys.stderr)
        return EXIT_REFUSED
