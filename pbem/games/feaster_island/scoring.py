"""Feaster Island scoring: each dish's single most and single fewest, the totals, the winners.

For each colour the one player with the most cubes gains its value and the one
player with the fewest loses it; a tie for most or for fewest scores nothing
[R]. A player without a cube of a colour counts for the fewest [D]. Ties on the
total go to the most colour majorities, then to the player holding the majority
of the most valuable dish [R], else the tied players share the win [D].
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pbem.games.feaster_island.state import COLOURS


@dataclass(frozen=True)
class DishResult:
    """How one dish scores: ``most`` gains ``value``, ``fewest`` loses it (None: a tie, nobody)."""

    colour: str
    value: int
    counts: tuple[int, ...]
    most: str | None
    fewest: str | None


def _single(seats: Sequence[str], counts: Sequence[int], target: int) -> str | None:
    holders = [seat for seat, count in zip(seats, counts, strict=True) if count == target]
    return holders[0] if len(holders) == 1 else None


def dish_results(seats: Sequence[str], plates: Sequence[Sequence[int]], values: Mapping[str, int]) -> list[DishResult]:
    """Return how every dish scores for ``plates`` (counts per colour in COLOURS order, by seat)."""
    results = []
    for k, colour in enumerate(COLOURS):
        counts = tuple(plate[k] for plate in plates)
        results.append(DishResult(colour, values[colour], counts, _single(seats, counts, max(counts)),
                                  _single(seats, counts, min(counts))))
    return results


def totals(seats: Sequence[str], results: Sequence[DishResult]) -> dict[str, int]:
    """Return each seat's score: the values of its majorities minus those of its minorities."""
    score = {seat: 0 for seat in seats}
    for result in results:
        if result.most is not None:
            score[result.most] += result.value
        if result.fewest is not None:
            score[result.fewest] -= result.value
    return score


def majorities(seats: Sequence[str], results: Sequence[DishResult]) -> dict[str, int]:
    """Return how many dishes each seat holds the single majority of."""
    return {seat: sum(1 for result in results if result.most == seat) for seat in seats}


def winners(seats: Sequence[str], results: Sequence[DishResult]) -> tuple[tuple[str, ...], str]:
    """Return the winning seats and the reason, tie-breaks applied as the rules say."""
    score = totals(seats, results)
    best = max(score.values())
    tied = [seat for seat in seats if score[seat] == best]
    if len(tied) == 1:
        return (tied[0],), f"Seat {tied[0]} has the highest score, {best}."
    held = majorities(seats, results)
    most_held = max(held[seat] for seat in tied)
    leaders = [seat for seat in tied if held[seat] == most_held]
    names = _names(tied)
    if len(leaders) == 1:
        return (leaders[0],), (f"{names} share the highest score, {best}; seat {leaders[0]} wins with the most "
                               f"colour majorities ({most_held}).")
    top = max(results, key=lambda result: result.value)
    if top.most in leaders:
        return (top.most,), (f"{names} share the highest score, {best}, and {_names(leaders).lower()} hold "
                             f"{most_held} colour majorities each; seat {top.most} wins with the majority of "
                             f"{top.colour}, the most valuable dish.")
    return tuple(leaders), (f"{_names(leaders)} share the victory: {best} points and {most_held} colour "
                            f"majorities each, and none of them holds the majority of {top.colour}, "
                            "the most valuable dish.")


def _names(seats: Sequence[str]) -> str:
    if len(seats) == 1:
        return f"Seat {seats[0]}"
    return "Seats " + ", ".join(seats[:-1]) + " and " + seats[-1]
