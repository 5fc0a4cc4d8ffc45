"""Creator options read strictly: a bad value is a :class:`GameError` naming the option,
the value given and what is allowed.

A game lists its options in ``declared_options`` (name -> description) and
reads each value with these helpers inside ``setup``. The service passes
option values already trimmed and in lower case; the helpers trim and lower
them again so that a game called directly behaves the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core.errors import GameError


def choice_option(options: Mapping[str, str], name: str, allowed: Sequence[str], default: str) -> str:
    """Return the value of option ``name``, one of ``allowed`` (``default`` when not given).

    Raises GameError naming the option, the value and the allowed values otherwise.
    """
    raw = options.get(name)
    if raw is None:
        return default
    value = str(raw).strip().lower()
    if value not in allowed:
        raise GameError(f"option {name}={raw}: give one of {', '.join(allowed)}")
    return value


def choice_list_option(options: Mapping[str, str], name: str, allowed: Sequence[str], count: int,
                       default: Sequence[str]) -> tuple[str, ...]:
    """Return the value of option ``name``: exactly ``count`` comma-separated words, each one
    of ``allowed`` (``default`` when not given).

    Raises GameError naming the option, the value, the count and the allowed words otherwise.
    """
    raw = options.get(name)
    if raw is None:
        return tuple(default)
    words = tuple(word.strip().lower() for word in str(raw).split(","))
    if len(words) != count or any(word not in allowed for word in words):
        raise GameError(
            f"option {name}={raw}: give {count} of {', '.join(allowed)} separated by commas, "
            f"e.g. {name}={','.join(default)}"
        )
    return words


def int_option(options: Mapping[str, str], name: str, low: int, high: int, default: int) -> int:
    """Return the value of option ``name``, a whole number from ``low`` to ``high`` (``default``
    when not given).

    Raises GameError naming the option, the value and the range otherwise.
    """
    raw = options.get(name)
    if raw is None:
        return default
    text = str(raw).strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 6 or not low <= int(text) <= high:
        raise GameError(f"option {name}={raw}: give a whole number from {low} to {high}")
    return int(text)
