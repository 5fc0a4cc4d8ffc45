"""The scoring tables of Resource Rich, sides A and B (CLARIFICATIONS)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core.bag import Bag

from .state import COLOURS

_PEARLS_A = (0, 1, 3, 6, 10, 15, 0)
_GEMS_A = (0, 1, 3, 6, 10, 15, 12, 9, 6, 3, 0)
_ROCK_A = {2: 5, 4: 12, 6: 20, 8: 30, 10: 40}
_PEARLS_B = (0, 8, 5, 2, 0)
_ROCK_B = {5: 15, 6: 20, 7: 25}


def pearls(side: str, count: int) -> int:
    """Side A: 0, 1, 3, 6, 10, 15 for 0..5, 0 for 6, -5 for 7 or more.
    Side B: 0, 8, 5, 2, 0 for 0..4, -3 for 5 or more."""
    if side == "a":
        return _PEARLS_A[count] if count < len(_PEARLS_A) else -5
    return _PEARLS_B[count] if count < len(_PEARLS_B) else -3


def gems(side: str, count: int) -> int:
    """Side A: 1, 3, 6, 10, 15 for 1..5, then 12, 9, 6, 3, 0 for 6..10. Side B: 2 each."""
    if side == "a":
        return _GEMS_A[min(count, len(_GEMS_A) - 1)]
    return 2 * count


def rock(side: str, count: int) -> int:
    """Side A: 0 when odd, 5, 12, 20, 30, 40 for 2, 4, 6, 8, 10. Side B: 0 below 5, 15, 20, 25 for
    5..7, 30 for 8 or more."""
    if side == "a":
        return _ROCK_A.get(count, 0)
    return _ROCK_B.get(count, 30 if count >= 8 else 0)


def shells(side: str, count: int, most: bool) -> int:
    """1 a shell; the most shells (at least one; tied players alike) score 10 instead on side A,
    3 a shell on side B."""
    if not most:
        return count
    return 10 if side == "a" else 3 * count


def score_piles(side: str, piles: Sequence[Bag]) -> list[Mapping[str, int]]:
    """Return for each pile its points by colour and ``"total"``."""
    top = max(pile.count("yellow") for pile in piles)
    result = []
    for pile in piles:
        n = {c: pile.count(c) for c in COLOURS}
        points = {
            "blue": pearls(side, n["blue"]),
            "yellow": shells(side, n["yellow"], top > 0 and n["yellow"] == top),
            "green": gems(side, n["green"]),
            "red": rock(side, n["red"]),
        }
        result.append({**points, "total": sum(points.values())})
    return result


def table_lines(side: str) -> Mapping[str, str]:
    """Return the scoring table of ``side`` as one line per colour, for reports."""
    if side == "a":
        return {
            "blue": "pearls: 0, 1, 3, 6, 10, 15 for 0-5; 0 for 6; -5 for 7+",
            "yellow": "shells: 1 each; the most shells score 10 instead",
            "green": "gems: 1, 3, 6, 10, 15 for 1-5; 12, 9, 6, 3, 0 for 6-10",
            "red": "volcanic rock: 0 when odd; 5, 12, 20, 30, 40 for 2, 4, 6, 8, 10",
        }
    return {
        "blue": "pearls: 0, 8, 5, 2, 0 for 0-4; -3 for 5+",
        "yellow": "shells: 1 each; the most shells score 3 each instead",
        "green": "gems: 2 each",
        "red": "volcanic rock: 0 for 0-4; 15, 20, 25 for 5-7; 30 for 8+",
    }
