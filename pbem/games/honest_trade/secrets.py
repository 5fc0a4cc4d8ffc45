"""Redrawing the secret colours a seat cannot know, consistently with everything public."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from pbem.core import GameRng

from .state import COLOURS, SECRET_CUBES_PER_COLOUR, TradeState


def possible_secrets(state: TradeState, seat: str) -> tuple[str, ...]:
    """The colours every other seat must still think possible as ``seat``'s secret: a cube he
    still has (a discard never takes the secret colour) that no wrong accusation cleared."""
    trader = state.trader(seat)
    return tuple(c for c in trader.cubes if c not in trader.cleared)


def redraw_secrets(state: TradeState, keep: str | None, rng: GameRng) -> tuple[str, ...]:
    """Return the secret colours with those of every living seat but ``keep`` drawn again,
    uniformly among the assignments that fit what is public: each among his possible secrets,
    and no colour more often than the bag holds it (two), counting the colours that stay."""
    hidden = [s for s in state.seats if s != keep and not state.trader(s).out]
    fixed = Counter(c for s, c in zip(state.seats, state.secrets, strict=True) if s not in hidden)
    left = Counter({c: SECRET_CUBES_PER_COLOUR - fixed[c] for c in COLOURS})
    choices = [possible_secrets(state, s) for s in hidden]
    assignments = list(_assignments(choices, left))
    drawn = dict(zip(hidden, rng.choice(assignments), strict=True))
    return tuple(drawn.get(s, c) for s, c in zip(state.seats, state.secrets, strict=True))


def _assignments(choices: list[tuple[str, ...]], left: Counter[str]) -> Iterator[tuple[str, ...]]:
    """Every way to pick one colour from each of ``choices`` using at most ``left`` of a colour."""
    if not choices:
        yield ()
        return
    for colour in choices[0]:
        if left[colour] > 0:
            left[colour] -= 1
            for rest in _assignments(choices[1:], left):
                yield (colour, *rest)
            left[colour] += 1
