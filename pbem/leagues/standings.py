"""A league's standings: each player's points, record and tie-breaks, best first.

The order: most points; then the most opponents' points (the sum, over every game played, of the
points each opponent at that table holds now: a Buchholz score); then the most wins; then the best
rating ordinal (``mu - 3 sigma``); then who joined first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pbem.leagues.results import Place, Points, ResultKind


@dataclass(frozen=True)
class TableResult:
    """One finished table of a league (or a round's byes, as table 0): each player's place."""

    round: int
    table: int
    places: Mapping[int, Place]


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings."""

    rank: int
    player: int
    points: float
    opponents_points: float
    played: int
    record: Mapping[ResultKind, int] = field(default_factory=dict)

    def count(self, kind: ResultKind) -> int:
        """How many results of ``kind`` the player has."""
        return self.record.get(kind, 0)


def standings(players: Sequence[int], results: Sequence[TableResult], points: Points,
              ordinals: Mapping[int, float] | None = None) -> list[Standing]:
    """The standings of ``players`` (in join order) after ``results``, best first, ranked 1, 2, ...
    (see the module docstring for the order); ``ordinals`` are the players' rating ordinals."""
    totals: dict[int, float] = {p: 0.0 for p in players}
    records: dict[int, Counter[ResultKind]] = {p: Counter() for p in players}
    for result in results:
        for player, place in result.places.items():
            if player in totals:
                totals[player] += points.of(place.kind)
                records[player][place.kind] += 1
    opponents: dict[int, float] = {p: 0.0 for p in players}
    for result in results:
        for player in result.places:
            if player in opponents:
                opponents[player] += sum(totals.get(o, 0.0) for o in result.places if o != player)
    joined = {p: i for i, p in enumerate(players)}
    ranks = ordinals or {}
    order = sorted(players, key=lambda p: (-totals[p], -opponents[p], -records[p][ResultKind.WIN],
                                           -ranks.get(p, 0.0), joined[p]))
    return [Standing(rank, p, totals[p], opponents[p],
                     sum(n for kind, n in records[p].items() if kind is not ResultKind.BYE), dict(records[p]))
            for rank, p in enumerate(order, start=1)]
