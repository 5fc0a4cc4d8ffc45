"""League ratings with openskill's Plackett-Luce model (Weng and Lin's Bayesian rating for games of
many players): every player starts at openskill's defaults (mu 25, sigma 25/3), and each finished game,
in the order the rounds and tables were played, updates its players' ratings. The winners of a game
rank first, the others after them; a draw or a game nobody won (a cooperative defeat) is a tie (the seats
of an agreed draw rank first, a seat that left the game before it after them).
A rating is shown with its uncertainty, ``mu ± sigma``, and ranked by its ordinal ``mu - 3 sigma``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce

from pbem.leagues.results import ResultKind
from pbem.leagues.standings import TableResult


@dataclass(frozen=True)
class Rating:
    """A player's rating: its mean ``mu`` and uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """A cautious single number: ``mu - 3 sigma`` (what standings compare)."""
        return self.mu - 3 * self.sigma

    def shown(self) -> str:
        """The rating as shown to players: ``27.6 ± 8.1``."""
        return f"{self.mu:.1f} ± {self.sigma:.1f}"


@cache
def _model() -> PlackettLuce:
    return PlackettLuce()


def initial() -> Rating:
    """The rating of a player who has played no game."""
    model = _model()
    return Rating(model.mu, model.sigma)


_FIRST = (ResultKind.WIN, ResultKind.SHARED, ResultKind.DRAW)
"""The results that rank first at a table: the winners, or the seats of a draw."""


def rate(players: Iterable[int], results: Sequence[TableResult]) -> dict[int, Rating]:
    """The rating of each of ``players`` after ``results`` (byes and players not listed change nothing)."""
    model = _model()
    ratings = {player: model.rating() for player in players}
    for result in sorted(results, key=lambda r: (r.round, r.table)):
        seated = [p for p, place in result.places.items() if place.kind is not ResultKind.BYE and p in ratings]
        if len(seated) < 2:
            continue
        ranks = [0 if result.places[p].kind in _FIRST else 1 for p in seated]
        if len(set(ranks)) == 1:
            ranks = [0] * len(seated)
        teams = model.rate([[ratings[p]] for p in seated], ranks=ranks)
        for player, team in zip(seated, teams):
            ratings[player] = team[0]
    return {player: Rating(r.mu, r.sigma) for player, r in ratings.items()}
