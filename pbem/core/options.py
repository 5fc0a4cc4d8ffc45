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


YES_WORDS = frozenset({"yes", "y", "true", "on", "1"})
"""Texts that switch a yes/no option on (any letter case)."""

NO_WORDS = frozenset({"no", "n", "false", "off", "0"})
"""Texts that switch a yes/no option off (any letter case)."""


def whole_number_option(options: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    """Return option ``name`` as a whole number from ``low`` to ``high`` (``default`` when not given).

    Raises GameError naming the option, the value and the range for anything else.
    """
    raw = options.get(name)
    if raw is None:
        return default
    text = str(raw).strip()
    if not text.isdigit() or len(text) > 9 or not low <= int(text) <= high:
        raise GameError(f"option {name}={raw}: give a whole number from {low} to {high}")
    return int(text)


def yes_no_option(options: Mapping[str, str], name: str, default: bool) -> bool:
    """Return option ``name`` as a switch: yes/no (also y/n, true/false, on/off, 1/0).

    Raises GameError naming the option and the value for anything else.
    """
    raw = options.get(name)
    if raw is None:
        return default
    text = str(raw).strip().lower()
    if text in YES_WORDS:
        return True
    if text in NO_WORDS:
        return False
    raise GameError(f"option {name}={raw}: give yes or no")

