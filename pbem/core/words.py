"""Words shared by every game's reports and pictures."""

from __future__ import annotations


def plural(number: int, word: str) -> str:
    """Return ``number`` and ``word``, the word in the plural unless the number is 1 (``1 point``,
    ``2 points``, ``2 hexes``)."""
    return f"{number} {word}" if number == 1 else f"{number} {word}es" if word.endswith("x") else f"{number} {word}s"
