"""Circular race tracks: numbered squares in a ring, per-player lanes, home paths.

A :class:`Track` is a ring of ``length`` squares numbered ``1..length``;
moving forward goes up the numbers and wraps (``length`` is followed by
``1``). Each :class:`Lane` (one per player or team, named as the game likes)
joins the ring at its ``entry`` square and leaves it at its ``exit`` square
onto its own home path of ``home_length`` squares, written ``H1..Hn``; one
more step is the goal (``HOME``). Some squares are safe.

A piece on a lane is described by its *progress*: 0 on the entry square,
``lap`` on the exit square (``lap`` = steps from entry to exit), then
``lap + 1 .. lap + home_length`` on the home path and ``finish`` at the goal.
:meth:`Track.spot` turns a progress into a :class:`Spot` (where the piece
stands), :meth:`Track.route` lists the spots a move passes and lands on.

Pure and game-agnostic: a race without home paths uses only
:meth:`Track.forward` and :meth:`Track.distance`. A course numbered from its
start line, ``0 .. size-1`` (a regatta round an island, a derby lap), is a
:class:`Ring`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class TrackError(ValueError):
    """A square, lane or progress that the track does not have."""


class UnknownLane(TrackError):
    """A lane name the track was not built with."""


class OffTrack(TrackError):
    """A progress or move that would go before the entry or past the goal."""


class SpotKind(str, Enum):
    """Where on a track a spot lies: the ring, a lane's home path, or the goal."""

    TRACK = "track"
    PATH = "path"
    GOAL = "goal"


@dataclass(frozen=True, order=True)
class Spot:
    """A place a piece can stand: ring square ``number``, home path square
    ``number`` of ``lane`` (``H1``..), or the goal of ``lane``."""

    kind: SpotKind
    number: int
    lane: str | None = None

    @property
    def is_track(self) -> bool:
        """True for a square of the shared ring."""
        return self.kind is SpotKind.TRACK

    @property
    def is_path(self) -> bool:
        """True for a square of a lane's own home path."""
        return self.kind is SpotKind.PATH

    @property
    def is_goal(self) -> bool:
        """True for the goal (HOME) at the end of a home path."""
        return self.kind is SpotKind.GOAL

    def name(self, path_prefix: str = "H", goal_name: str = "HOME") -> str:
        """Return the printed name: ``"22"``, ``"H3"`` or ``"HOME"``."""
        if self.kind is SpotKind.TRACK:
            return str(self.number)
        if self.kind is SpotKind.PATH:
            return f"{path_prefix}{self.number}"
        return goal_name


@dataclass(frozen=True)
class Lane:
    """One player's way round the ring: joins at ``entry``, leaves at ``exit``."""

    name: str
    entry: int
    exit: int


@dataclass(frozen=True)
class Track:
    """A ring of ``length`` squares with lanes, home paths and safe squares.

    Raises :class:`TrackError` on construction when a lane or safe square is
    not a square of the ring, or when two lanes share a name.
    """

    length: int
    lanes: tuple[Lane, ...] = ()
    home_length: int = 0
    safe: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        if self.length < 2:
            raise TrackError(f"a track needs at least 2 squares, not {self.length}")
        if self.home_length < 0:
            raise TrackError(f"a home path cannot have {self.home_length} squares")
        names = [lane.name for lane in self.lanes]
        if len(set(names)) != len(names):
            raise TrackError(f"lane names repeat: {names}")
        for lane in self.lanes:
            for square in (lane.entry, lane.exit):
                self._check(square)
        for square in self.safe:
            self._check(square)

    def _check(self, square: int) -> int:
        if not self.contains(square):
            raise TrackError(f"{square} is not a square of the track 1..{self.length}")
        return square

    # --- the ring -------------------------------------------------------------

    def squares(self) -> range:
        """Return the ring's square numbers in moving order, 1..length."""
        return range(1, self.length + 1)

    def contains(self, square: int) -> bool:
        """True when ``square`` is a square of the ring."""
        return 1 <= square <= self.length

    def forward(self, square: int, steps: int) -> int:
        """Return the square ``steps`` ahead of ``square`` (negative steps go back), wrapping.

        Raises :class:`TrackError` when ``square`` is not on the ring.
        """
        self._check(square)
        return (square - 1 + steps) % self.length + 1

    def distance(self, start: int, end: int) -> int:
        """Return how many steps forward lead from ``start`` to ``end`` (0..length-1).

        Raises :class:`TrackError` when either is not on the ring.
        """
        self._check(start)
        self._check(end)
        return (end - start) % self.length

    def is_safe(self, square: int) -> bool:
        """True when ``square`` is a safe square."""
        return square in self.safe

    # --- lanes ----------------------------------------------------------------

    def lane(self, name: str) -> Lane:
        """Return the lane called ``name``; raise :class:`UnknownLane` if there is none."""
        for lane in self.lanes:
            if lane.name == name:
                return lane
        raise UnknownLane(f"no lane {name!r}; lanes are {', '.join(lane.name for lane in self.lanes)}")

    def lanes_entering_at(self, square: int) -> tuple[Lane, ...]:
        """Return the lanes whose entry square is ``square``."""
        return tuple(lane for lane in self.lanes if lane.entry == square)

    def lanes_exiting_at(self, square: int) -> tuple[Lane, ...]:
        """Return the lanes whose exit square is ``square``."""
        return tuple(lane for lane in self.lanes if lane.exit == square)

    def lap(self, lane: str) -> int:
        """Return the progress of the lane's exit square (steps from its entry to its exit)."""
        found = self.lane(lane)
        return self.distance(found.entry, found.exit)

    def finish(self, lane: str) -> int:
        """Return the progress of the goal: exit, then the home path, then one more step."""
        return self.lap(lane) + self.home_length + 1

    def spot(self, lane: str, progress: int) -> Spot:
        """Return where a piece of ``lane`` with ``progress`` stands.

        Raises :class:`OffTrack` when ``progress`` is below 0 or past the goal.
        """
        lap, finish = self.lap(lane), self.finish(lane)
        if progress < 0 or progress > finish:
            raise OffTrack(f"progress {progress} is off lane {lane} (0..{finish})")
        if progress <= lap:
            return Spot(SpotKind.TRACK, self.forward(self.lane(lane).entry, progress))
        if progress < finish:
            return Spot(SpotKind.PATH, progress - lap, lane)
        return Spot(SpotKind.GOAL, 0, lane)

    def progress_of(self, lane: str, spot: Spot) -> int:
        """Return the progress at which a piece of ``lane`` stands on ``spot``.

        Raises :class:`OffTrack` when the spot is another lane's path or goal.
        """
        if spot.is_track:
            return self.distance(self.lane(lane).entry, self._check(spot.number))
        if spot.lane != lane:
            raise OffTrack(f"{spot.name()} of lane {spot.lane} is not on lane {lane}")
        if spot.is_path:
            if not 1 <= spot.number <= self.home_length:
                raise OffTrack(f"there is no home path square H{spot.number}")
            return self.lap(lane) + spot.number
        return self.finish(lane)

    def route(self, lane: str, progress: int, steps: int) -> tuple[Spot, ...]:
        """Return the spots a piece of ``lane`` at ``progress`` enters moving ``steps`` forward:
        every square passed, the landing spot last (empty for 0 steps).

        Raises :class:`OffTrack` when the move would go past the goal (the goal
        must be reached by exact count) or ``steps`` is negative.
        """
        if steps < 0:
            raise OffTrack(f"cannot move {steps} steps")
        finish = self.finish(lane)
        if progress + steps > finish:
            raise OffTrack(f"{steps} steps from progress {progress} pass the goal of lane {lane}")
        return tuple(self.spot(lane, progress + k) for k in range(1, steps + 1))

    def to_goal(self, lane: str, progress: int) -> int:
        """Return how many steps are left from ``progress`` to the goal."""
        return self.finish(lane) - progress


@dataclass(frozen=True)
class Ring:
    """A closed course of ``size`` spaces numbered ``0 .. size - 1``, space 0 being the start line.

    Moving forward goes up the numbers and wraps from ``size - 1`` to 0; a move
    that reaches or passes space 0 crosses the line. Raises :class:`TrackError`
    on construction for fewer than 2 spaces.
    """

    size: int

    def __post_init__(self) -> None:
        if self.size < 2:
            raise TrackError(f"a ring needs at least 2 spaces, not {self.size}")

    def contains(self, space: int) -> bool:
        """True when ``space`` is a space of the ring, 0 .. size - 1."""
        return 0 <= space < self.size

    def _check(self, space: int, steps: int) -> None:
        if not self.contains(space):
            raise TrackError(f"{space} is not a space of the ring 0..{self.size - 1}")
        if steps < 0:
            raise OffTrack(f"cannot move {steps} steps")

    def forward(self, space: int, steps: int) -> int:
        """Return the space ``steps`` ahead of ``space``, wrapping past ``size - 1`` to 0.

        Raises :class:`TrackError` for a space off the ring or negative steps.
        """
        self._check(space, steps)
        return (space + steps) % self.size

    def crossings(self, space: int, steps: int) -> int:
        """Return how many times a move of ``steps`` from ``space`` reaches or passes the start line.

        Raises :class:`TrackError` for a space off the ring or negative steps.
        """
        self._check(space, steps)
        return (space + steps) // self.size
