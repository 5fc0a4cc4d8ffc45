"""Creator options read strictly: whole numbers in a range and yes/no switches.

Every reader takes the options as given at creation (name -> text), the
option's name and its default, and returns the value. A bad value raises
:class:`~pbem.core.errors.GameError` naming the option, the value given and
what is allowed, so the creator can mend it at once. Unknown option names are
refused elsewhere (:meth:`pbem.core.game.BaseGame.check_options`).
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.core.errors import GameError

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

