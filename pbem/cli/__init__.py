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

import sys
from collections.abc import Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any

from pbem.launch import quick_answer, quiet_stdout

if TYPE_CHECKING:
    from pbem.cli.parser import build_parser
    from pbem.cli.shared import EXIT_FAILED, EXIT_OK, EXIT_REFUSED, EXIT_USAGE, UsageError

__all__ = ["EXIT_FAILED", "EXIT_OK", "EXIT_REFUSED", "EXIT_USAGE", "UsageError", "build_parser", "main"]
_LATER = {"build_parser": "pbem.cli.parser", "EXIT_FAILED": "pbem.cli.shared", "EXIT_OK": "pbem.cli.shared",
          "EXIT_REFUSED": "pbem.cli.shared", "EXIT_USAGE": "pbem.cli.shared", "UsageError": "pbem.cli.shared"}


def __getattr__(name: str) -> Any:
    """The names above, imported on first use: ``pbem --version`` and ``pbem deliver`` start without them
    (see :mod:`pbem.launch`)."""
    if name in _LATER:
        return getattr(import_module(_LATER[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``pbem`` command; return its exit code."""
    quick = quick_answer(sys.argv[1:] if argv is None else argv)
    if quick is not None:
        return quick
    from pbem.cli.parser import build_parser
    from pbem.cli.shared import EXIT_OK, EXIT_REFUSED, EXIT_USAGE, UsageError
    from pbem.core.errors import PbemError, UnknownGame, UnknownSeat

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except BrokenPipeError:  # e.g. `pbem show GAME | head`: the reader left; not an error
        quiet_stdout()
        return EXIT_OK
    except (UnknownGame, UnknownSeat, UsageError) as error:
        print(f"pbem: {error}", file=sys.stderr)
        return EXIT_USAGE
    except PbemError as error:
        print(f"pbem: {error}", file=sys.stderr)
        return EXIT_REFUSED
