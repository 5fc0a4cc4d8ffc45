"""Reading a game's creator options strictly: one value, one range, one clear refusal.

Option values come as text from a stranger's mail. Each reader returns the
option's value, or its default when the creator left it out, and raises
:class:`BadGameOption` (a :class:`~pbem.core.errors.GameError`) naming the
option, the value given and what is allowed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core.errors import GameError


class BadGameOption(GameError, ValueError):
    """A creator option whose value is outside what the game allows; the message quotes it."""


def choice_option(options: Mapping[str, str], name: str, choices: Sequence[str], default: str) -> str:
    """Return ``options[name]`` lower-cased when it is one of ``choices``, ``default`` when absent.

    Raises :class:`BadGameOption` naming the option, the value and the choices otherwise.
    """
    raw = options.get(name)
    if raw is None:
        return default
    value = str(raw).strip().lower()
    if value not in choices:
        raise BadGameOption(f"option {name}={raw}: give {' or '.join(choices)}")
    return value


def choice_list_option(options: Mapping[str, str], name: str, choices: Sequence[str], count: int,
                       default: Sequence[str]) -> tuple[str, ...]:
    """Return the value of option ``name``: exactly ``count`` comma-separated words, each one
    of ``choices`` (``default`` when not given).

    Raises :class:`BadGameOption` naming the option, the value, the count and the choices otherwise.
    """
    raw = options.get(name)
    if raw is None:
        return tuple(default)
    words = tuple(word.strip().lower() for word in str(raw).split(","))
    if len(words) != count or any(word not in choices for word in words):
        raise BadGameOption(
            f"option {name}={raw}: give {count} of {', '.join(choices)} separated by commas, "
            f"e.g. {name}={','.join(default)}"
        )
    return words


def int_option(options: Mapping[str, str], name: str, low: int, high: int, default: int) -> int:
    """Return ``options[name]`` as a whole number from ``low`` to ``high``, ``default`` when absent.

    Raises :class:`BadGameOption` naming the option, the value and the range otherwise.
    """
    raw = options.get(name)
    if raw is None:
        return default
    text = str(raw).strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 6 or not low <= int(text) <= high:
        raise BadGameOption(f"option {name}={raw}: give a whole number from {low} to {high}")
    return int(text)


WINDOW_HOURS_RANGE = (1, 720)
"""The hours an answer window option may give (a window is never longer than the game's turn)."""


def window_hours_option(options: Mapping[str, str], name: str, default: int) -> float:
    """Return the length in hours of a game's answer window from option ``name`` (whole hours in
    :data:`WINDOW_HOURS_RANGE`), ``default`` when absent; raises :class:`BadGameOption` otherwise."""
    low, high = WINDOW_HOURS_RANGE
    return float(int_option(options, name, low, high, default))


def window_hours_description(what: str, default: int) -> str:
    """Return the description of a window option: what it answers, the range, the default."""
    low, high = WINDOW_HOURS_RANGE
    return f"hours to answer {what}, {low} to {high} (default {default}); never longer than the turn"


YES_WORDS = frozenset({"yes", "y", "true", "on", "1"})
"""The words a yes/no option takes for yes."""

NO_WORDS = frozenset({"no", "n", "false", "off", "0"})
"""The words a yes/no option takes for no."""


def yes_no_option(options: Mapping[str, str], name: str, default: bool) -> bool:
    """Return option ``name`` as a switch: yes/no (also y/n, true/false, on/off, 1/0),
    ``default`` when absent.

    Raises :class:`BadGameOption` naming the option and the value for anything else.
    """
    raw = options.get(name)
    if raw is None:
        return default
    text = str(raw).strip().lower()
    if text in YES_WORDS:
        return True
    if text in NO_WORDS:
        return False
    raise BadGameOption(f"option {name}={raw}: give yes or no")
