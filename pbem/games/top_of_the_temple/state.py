"""The state of a Top of the Temple game: five believers on the stairway and the secret colours."""

from __future__ import annotations

from dataclasses import dataclass

COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "black")
"""The five colours, in the order of the NMR offer (CLARIFICATIONS)."""

OFFER_VALUES: tuple[int, ...] = (5, 3, 1, -1, -2)
"""What the five offer spaces move, left to right."""

TOP = 12
"""The last step of the stairway: a believer that reaches it ends the game."""


@dataclass(frozen=True)
class TempleState:
    """Everything about a game in progress or finished.

    ``secrets[i]`` is the secret colour of ``seats[i]``; the colours nobody
    drew belong to nobody. ``steps[c]`` is the step (0..12) of the believer
    of ``COLOURS[c]``. ``to_play`` is the index of the seat to offer.
    ``last_offer`` is the colours of the last offer, left to right, and
    ``last_player`` the seat that made it. ``finished`` is set once a
    believer reached the top.
    """

    seats: tuple[str, ...]
    secrets: tuple[str, ...]
    steps: tuple[int, ...]
    to_play: int
    turn: int = 0
    last_offer: tuple[str, ...] = ()
    last_player: str = ""
    finished: bool = False

    def step_of(self, colour: str) -> int:
        """Return the step of the believer of ``colour``."""
        return self.steps[COLOURS.index(colour)]

    def secret_of(self, seat: str) -> str:
        """Return the secret colour of ``seat``."""
        return self.secrets[self.seats.index(seat)]

    @property
    def undrawn(self) -> tuple[str, ...]:
        """The colours nobody drew, in the order of :data:`COLOURS`."""
        return tuple(c for c in COLOURS if c not in self.secrets)

    @property
    def seat_to_play(self) -> str:
        """The seat whose turn it is."""
        return self.seats[self.to_play]

    @property
    def top_colour(self) -> str | None:
        """The colour of the believer on the top step, if one is there."""
        return next((c for c, step in zip(COLOURS, self.steps, strict=True) if step >= TOP), None)
