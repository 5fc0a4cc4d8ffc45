"""Where the shared grammars and report templates live, and where each game keeps its own.

Everything ships inside the ``pbem`` package, so a checkout and an installed
wheel look the same: the shared grammars (``commands.lark``, ``common.lark``)
are in ``pbem/grammars/``, the shared templates (``common/``, ``web/``) in
``pbem/templates/``, and each game keeps its grammar, HELP text and report
templates in its own package (``grammar.lark``, ``HELP.txt``, ``templates/``).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def grammar_dir() -> Path:
    """Return the folder of the shared grammars (``commands.lark``, ``common.lark``)."""
    return _PACKAGE / "grammars"


def template_dir() -> Path:
    """Return the folder of the shared jinja2 templates (``common/``, ``web/``)."""
    return _PACKAGE / "templates"


def game_package_dir(target: str) -> Path | None:
    """Return the folder of the package of a registry target (``"pkg.rules:Class"``)
    without importing it, or None when the package cannot be found."""
    module = target.split(":", 1)[0]
    spec = importlib.util.find_spec(module.rpartition(".")[0] or module)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))
