"""The state of a Great Golden Egg game: the six cliffs, every group's adventurers, the round's steps
and the sealed actions filed in advance."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

CLIFFS: tuple[str, ...] = ("a", "b", "c", "d", "e", "f")
"""The cliffs: a, b, c at the bottom, d above a and b, e above b and c, f (the Golden Egg) on top."""

VALUES: Mapping[str, int] = {"a": 1, "b": 2, "c": 1, "d": 3, "e": 3, "f": 5}
"""What an adventurer on each cliff scores (CLARIFICATIONS)."""

LINKS: frozenset[frozenset[str]] = frozenset(
    frozenset(pair) for pair in ("ab", "bc", "ad", "bd", "be", "ce", "df", "ef")
)
"""The connected pairs of cliffs (CLARIFICATIONS)."""

BELOW: Mapping[str, tuple[str, str]] = {"d": ("a", "b"), "e": ("b", "c"), "f": ("d", "e")}
"""The two connected cliffs of lower value a higher cliff needs for targeting."""

TARGET_ORDER: tuple[str, ...] = ("a", "c", "b", "d", "e", "f")
"""The cliffs by value, then name: the NMR target is the first legal one [D]."""

ADVENTURERS = 8
"""Adventurers per group [R]."""

STAGE_TARGET = "target"
STAGE_VOTE = "vote"
STAGE_ACT = "act"
STAGE_OVER = "over"

BOTH_YES = "yes"
SPLIT = "split"
BOTH_NO = "no"

Action = tuple[str, ...]
"""An action kept in the state: ``("add", cliff)``, ``("move", from, to)``, ``("pass",)``; ``()`` is none."""


def linked(one: str, two: str) -> bool:
    """True when cliffs ``one`` and ``two`` are connected."""
    return frozenset((one, two)) in LINKS


def neighbours(cliff: str) -> tuple[str, ...]:
    """Return the cliffs connected to ``cliff``, in cliff order."""
    return tuple(other for other in CLIFFS if linked(cliff, other))


@dataclass(frozen=True)
class GoldenEggState:
    """A whole game. Indexes follow ``seats`` (seat order is clockwise).

    ``pieces[i][k]`` counts seat i's adventurers on ``CLIFFS[k]``. ``guide`` holds the disc. In the
    ``target`` stage the guide names ``target``; in the ``vote`` stage both followers vote; in the
    ``act`` stage ``mode`` says how they voted (both YES, split, both NO), ``votes`` holds the two
    followers' votes ("yes"/"no", follower after the guide first) and ``actors`` the seats still to
    act this round, the first acting now.

    Sealed, until used (then told) or discarded unseen: ``yes_plans[i]`` the action seat i filed in
    advance for a both-YES vote (the guide with TARGET, a follower with VOTE YES), ``no_plans[i]``
    the one for a both-NO vote (only the guide files one).
    """

    seats: tuple[str, ...]
    pieces: tuple[tuple[int, ...], ...]
    guide: int
    stage: str = STAGE_TARGET
    round: int = 1
    max_rounds: int = 40
    target: str = ""
    mode: str = ""
    votes: tuple[str, ...] = ()
    actors: tuple[int, ...] = ()
    yes_plans: tuple[Action, ...] = ((), (), ())
    no_plans: tuple[Action, ...] = ((), (), ())
    end_reason: str = ""

    @property
    def is_over(self) -> bool:
        """True once the game has ended and is scored."""
        return self.stage == STAGE_OVER

    @property
    def followers(self) -> tuple[int, int]:
        """The two followers, clockwise from the guide."""
        n = len(self.seats)
        return (self.guide + 1) % n, (self.guide + 2) % n

    def count(self, i: int, cliff: str) -> int:
        """Return how many adventurers seat i has on ``cliff``."""
        return self.pieces[i][CLIFFS.index(cliff)]

    def supply(self, i: int) -> int:
        """Return how many adventurers seat i has not yet placed."""
        return ADVENTURERS - sum(self.pieces[i])

    def score(self, i: int) -> int:
        """Return the value of seat i's adventurers on the cliffs."""
        return sum(n * VALUES[c] for c, n in zip(CLIFFS, self.pieces[i], strict=True))

    def legal_targets(self, i: int) -> tuple[str, ...]:
        """Return the cliffs seat i may target, in cliff order: a cliff worth 1 or 2 always, a higher one
        only with one of his adventurers on both connected lower cliffs [R]."""
        return tuple(c for c in CLIFFS if c not in BELOW or all(self.count(i, low) for low in BELOW[c]))
