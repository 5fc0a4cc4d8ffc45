"""A bag of coloured cubes: how many cubes of each colour, and random draws from it.

A :class:`Bag` is an immutable multiset of colour names. It serves the cloth
bag of a board game (draw cubes at random through the game's
:class:`~pbem.core.rng.GameRng`, put cubes back) and equally any other pile of
cubes whose order does not matter, such as a player's hidden hand.

The cubes of a bag are kept in one canonical form (colours sorted, no empty
colours), so two bags holding the same cubes are equal, hash alike and dump to
the same JSON. Draws expand the bag into its cubes in that canonical order and
sample from it with the injected RNG, so a stored seed replays every draw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from pbem.core.errors import PbemError
from pbem.core.rng import GameRng


class BagError(PbemError, ValueError):
    """A request the bag cannot honour: a cube it does not hold, a bad count, a bad colour."""


def _check_colour(colour: object) -> str:
    if not isinstance(colour, str) or not colour:
        raise BagError(f"a cube colour must be a non-empty string, not {colour!r}")
    return colour


def _check_count(colour: str, count: object) -> int:
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise BagError(f"the count of {colour} cubes must be a whole number of at least 0, not {count!r}")
    return count


@dataclass(frozen=True)
class Bag:
    """An immutable multiset of coloured cubes.

    ``counts`` holds ``(colour, count)`` pairs; whatever is passed in is
    normalised (pairs of one colour merged, empty colours dropped, colours
    sorted). Raises :class:`BagError` for a negative or non-integer count or
    an empty colour name.
    """

    counts: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        merged: Counter[str] = Counter()
        for colour, count in self.counts:
            merged[_check_colour(colour)] += _check_count(colour, count)
        canonical = tuple(sorted((c, n) for c, n in merged.items() if n > 0))
        object.__setattr__(self, "counts", canonical)

    # --- building -------------------------------------------------------

    @classmethod
    def of(cls, cubes: Iterable[str]) -> Bag:
        """Return a bag holding the given cubes, one colour name per cube."""
        return cls(tuple(Counter(_check_colour(c) for c in cubes).items()))

    @classmethod
    def from_counts(cls, counts: Mapping[str, int]) -> Bag:
        """Return a bag holding ``counts[colour]`` cubes of each colour.

        Raises :class:`BagError` for a negative count.
        """
        return cls(tuple(counts.items()))

    @classmethod
    def filled(cls, colours: Iterable[str], each: int) -> Bag:
        """Return a bag holding ``each`` cubes of every colour in ``colours``."""
        return cls(tuple((colour, each) for colour in colours))

    # --- looking --------------------------------------------------------

    def count(self, colour: str) -> int:
        """Return how many cubes of ``colour`` the bag holds (0 for a colour it lacks)."""
        for name, number in self.counts:
            if name == colour:
                return number
        return 0

    @property
    def size(self) -> int:
        """The number of cubes in the bag."""
        return sum(number for _, number in self.counts)

    def __len__(self) -> int:
        """Return the number of cubes in the bag."""
        return self.size

    @property
    def is_empty(self) -> bool:
        """True when the bag holds no cube."""
        return not self.counts

    def colours(self) -> tuple[str, ...]:
        """Return the colours with at least one cube, sorted by name."""
        return tuple(colour for colour, _ in self.counts)

    def cubes(self) -> tuple[str, ...]:
        """Return every cube as a colour name, sorted by colour."""
        return tuple(colour for colour, number in self.counts for _ in range(number))

    def ordered(self, colours: Sequence[str]) -> tuple[str, ...]:
        """Return every cube as a colour name, the colours in the order of ``colours`` (a game's
        listing order), any colour not named there after them by name."""
        rank = {colour: i for i, colour in enumerate(colours)}
        return tuple(sorted(self.cubes(), key=lambda colour: (rank.get(colour, len(rank)), colour)))

    def as_dict(self) -> dict[str, int]:
        """Return colour -> count for the colours the bag holds, sorted by colour."""
        return dict(self.counts)

    def contains(self, cubes: Iterable[str] | Bag) -> bool:
        """True when every cube of ``cubes`` (with repeats) is in the bag."""
        wanted = cubes if isinstance(cubes, Bag) else Bag.of(cubes)
        return all(self.count(colour) >= number for colour, number in wanted.counts)

    def describe(self, *, empty: str = "no cubes", order: Sequence[str] = ()) -> str:
        """Return the cubes as text, e.g. ``"2 black, 1 red"``; ``empty`` when there are none. The
        colours come by name, or in the order of ``order`` when given (see :meth:`ordered`)."""
        if self.is_empty:
            return empty
        colours = dict.fromkeys(self.ordered(order)) if order else self.colours()
        return ", ".join(f"{self.count(colour)} {colour}" for colour in colours)

    # --- changing (each returns a new bag) -----------------------------

    def add(self, cubes: Iterable[str] | Bag) -> Bag:
        """Return a bag with ``cubes`` put in (e.g. cubes returned to the bag)."""
        extra = cubes if isinstance(cubes, Bag) else Bag.of(cubes)
        return Bag(self.counts + extra.counts)

    def __add__(self, other: Bag) -> Bag:
        """Return the bag holding the cubes of both bags."""
        if not isinstance(other, Bag):
            return NotImplemented
        return self.add(other)

    def remove(self, cubes: Iterable[str] | Bag) -> Bag:
        """Return a bag with ``cubes`` taken out.

        Raises :class:`BagError` naming the colour when the bag holds too few
        cubes of it.
        """
        taken = cubes if isinstance(cubes, Bag) else Bag.of(cubes)
        remaining = dict(self.counts)
        for colour, number in taken.counts:
            have = remaining.get(colour, 0)
            if have < number:
                raise BagError(f"cannot take {number} {colour} cube(s): the bag holds {have}")
            remaining[colour] = have - number
        return Bag.from_counts(remaining)

    def __sub__(self, other: Bag) -> Bag:
        """Return this bag without the cubes of ``other`` (raises :class:`BagError` if missing)."""
        if not isinstance(other, Bag):
            return NotImplemented
        return self.remove(other)

    def draw(self, count: int, rng: GameRng) -> tuple[tuple[str, ...], Bag]:
        """Draw ``count`` cubes at random without replacement.

        Returns the drawn cubes in the order they were drawn and the bag that
        remains. The same RNG state always draws the same cubes. Raises
        :class:`BagError` when ``count`` is negative or larger than the bag.
        """
        if not isinstance(count, int) or count < 0:
            raise BagError(f"cannot draw {count!r} cubes: the number must be 0 or more")
        if count > self.size:
            raise BagError(f"cannot draw {count} cubes: the bag holds only {self.size}")
        if count == 0:
            return (), self
        drawn = tuple(rng.sample(self.cubes(), count))
        return drawn, self.remove(drawn)

    def draw_one(self, rng: GameRng) -> tuple[str, Bag]:
        """Draw a single cube at random; return it and the bag that remains.

        Raises :class:`BagError` when the bag is empty.
        """
        drawn, rest = self.draw(1, rng)
        return drawn[0], rest

    # --- storing --------------------------------------------------------

    def to_json(self) -> dict[str, int]:
        """Return the bag as JSON-compatible data: colour -> count."""
        return self.as_dict()

    @classmethod
    def from_json(cls, data: Mapping[str, int]) -> Bag:
        """Rebuild a bag stored with :meth:`to_json`. Raises :class:`BagError` for bad counts."""
        return cls.from_counts(data)


def redeal(bags: Sequence[Bag], rng: GameRng) -> tuple[Bag, ...]:
    """Pour the cubes of ``bags`` together and deal them out again at random, each new bag as
    large as the one it replaces.

    The hidden-information hook of a game uses it: the hands and the bag a seat cannot see are
    redealt, so every count that is public stays as it was while the contents are redrawn.
    """
    pool = Bag()
    for bag in bags:
        pool = pool.add(bag)
    dealt: list[Bag] = []
    for bag in bags:
        drawn, pool = pool.draw(bag.size, rng)
        dealt.append(Bag.of(drawn))
    return tuple(dealt)
