"""Words shared by every game's reports and pictures, and the "did you mean" of a mistyped name."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

NEAR = 0.6
"""How alike (difflib's ratio, 0 to 1) a name must be to another to be offered as "did you mean"."""
LONGEST_NAME = 64
"""A longer word is no mistyped name: nothing is looked for."""


def plural(number: int, word: str) -> str:
    """Return ``number`` and ``word``, the word in the plural unless the number is 1 (``1 point``,
    ``2 points``, ``2 hexes``)."""
    return f"{number} {word}" if number == 1 else f"{number} {word}es" if word.endswith("x") else f"{number} {word}s"


def nearest(word: str, choices: Iterable[str], *, most: int = 3) -> list[str]:
    """Return up to ``most`` of ``choices`` closest to ``word`` (letter case ignored), closest first; none
    when nothing is close. The work is bounded by the number of choices times their lengths."""
    if len(word) > LONGEST_NAME:
        return []
    lowered = {choice.lower(): choice for choice in choices}
    found = difflib.get_close_matches(word.strip().lower(), list(lowered), n=most, cutoff=NEAR)
    return [lowered[match] for match in found if match != word.strip().lower()]


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """Return ``did you mean x?`` (or ``did you mean x or y?``) naming the nearest of ``choices`` to
    ``word``, or an empty text when none is near."""
    found = nearest(word, choices, most=2)
    return f"did you mean {' or '.join(found)}?" if found else ""
