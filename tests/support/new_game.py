"""Add a game the way docs/game-authors.md tells a developer to: copy the example game
(tests/support/tiny), rename it, and register it with one line in pbem.games.GAMES.

Used by tests that need a game kind nobody has registered yet (not a test module).
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from pbem import games
from pbem.orders import parser_for
from pbem.reports import environment

TINY = Path(__file__).parent / "tiny"
"""The example game, the documented starting point of a new one."""


def copy_example(folder: Path, package: str, kind: str, *, leave_out: Sequence[str] = ()) -> Path:
    """Copy the example game to ``folder/package`` as the game ``kind``: its ``name`` in
    rules.py and the ``tiny/`` of its template names renamed, the files ``leave_out``
    left out. Return the new package's folder."""
    target = folder / package
    shutil.copytree(TINY, target, ignore=shutil.ignore_patterns("__pycache__", *leave_out))
    rules = target / "rules.py"
    rules.write_text(rules.read_text(encoding="utf-8").replace('name = "tiny"', f'name = "{kind}"'), encoding="utf-8")
    for template in (target / "templates").glob("*.j2"):
        template.write_text(template.read_text(encoding="utf-8").replace('"tiny/', f'"{kind}/'), encoding="utf-8")
    return target


@contextmanager
def registered(folder: Path, package: str, kind: str) -> Iterator[str]:
    """Make ``folder`` importable and register ``kind`` with its one registry line
    (``"<package>.rules:TinyGame"``) while the block runs; yield the kind."""
    sys.path.insert(0, str(folder))
    games.GAMES[kind] = f"{package}.rules:TinyGame"
    _forget_registry()
    try:
        yield kind
    finally:
        del games.GAMES[kind]
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == package or m.startswith(f"{package}.")]:
            del sys.modules[name]
        _forget_registry()


def _forget_registry() -> None:
    """Drop what was cached from the registry: games, parsers and the report templates' loader."""
    games.find_game.cache_clear()
    parser_for.cache_clear()
    environment.cache_clear()
