"""Where the grammars and report templates live, in a checkout and in an installed wheel.

In a checkout they are the top-level ``grammars/`` and ``templates/`` folders;
the wheel ships the same folders as the packages ``pbem._grammars`` and
``pbem._templates`` (see pyproject.toml).
"""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent


class MissingResource(FileNotFoundError):
    """A grammar or template folder that is neither in a checkout nor installed."""


def _installed(package: str) -> Path | None:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


@cache
def _folder(checkout_name: str, package: str, marker: str) -> Path:
    # ``marker`` tells pbem's own folder from a same-named one beside an
    # installed pbem (site-packages/templates of some other distribution).
    candidate = _CHECKOUT / checkout_name
    if (candidate / marker).is_file():
        return candidate
    installed = _installed(package)
    if installed is not None and installed.is_dir():
        return installed
    raise MissingResource(f"cannot find the {checkout_name}/ folder (checkout) or {package} (installed)")


def grammar_dir() -> Path:
    """Return the folder holding the ``.lark`` grammars."""
    return _folder("grammars", "pbem._grammars", "common.lark")


def template_dir() -> Path:
    """Return the folder holding the jinja2 report templates."""
    return _folder("templates", "pbem._templates", "common/report.txt.j2")
