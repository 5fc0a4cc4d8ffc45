"""The state of a game of Johnny and the Toe-Sap Fungus: frozen, JSON round-trippable.

Squares are stored by name (``"e8"``), colours by lower-case name. The board
holds at most one thing per square: a player piece, a shell, a Cownivore or a
single toe-sap stone (a player's own square never holds toe-sap: he collects
what he steps on and cannot step on his own).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

COLOURS: tuple[str, ...] = ("blue", "green", "orange", "white")
"""Colour order: seat colours, and the order used to break ties between choices."""

START_COWS = 6
STONES_PER_COLOUR = 20

# Stages of the game (phase names).
PLAY = "play"
FINAL = "final"
VALUE = "value"
ORDER = "order"
OVER = "over"
STAGES: tuple[str, ...] = (PLAY, FINAL, VALUE, ORDER, OVER)


@dataclass(frozen=True)
class Player:
    """One seat's belongings.

    ``colours`` are the seat's own toe-sap colours (two with two players);
    ``hand`` the stones left to drop, aligned with ``colours``; ``collected``
    the collected toe-sap stones per colour, aligned with :data:`COLOURS`.
    """

    seat: str
    colours: tuple[str, ...]
    square: str
    cows: int
    shells: int
    hand: tuple[int, ...]
    collected: tuple[int, ...]

    @property
    def stones_left(self) -> int:
        """Stones still in hand, all colours together."""
        return sum(self.hand)

    @property
    def collected_total(self) -> int:
        """Collected toe-sap stones, all colours together."""
        return sum(self.collected)

    def stones_of(self, colour: str) -> int:
        """Stones of ``colour`` left in hand (0 for a colour not his)."""
        return self.hand[self.colours.index(colour)] if colour in self.colours else 0

    def owns(self, colour: str) -> bool:
        """True when ``colour`` is one of this seat's own colours."""
        return colour in self.colours


@dataclass(frozen=True)
class ToeSapState:
    """The whole game.

    ``turn_order`` lists the seats starting with the first player. ``stage``
    is one of :data:`STAGES`; ``to_move`` the seat that owes the next order
    (``None`` once over). ``final_queue`` holds the seats still owed a final
    turn, ``to_move`` first. ``sap`` is a set of ``(square, colour)`` pairs.
    ``value_colour`` is the colour worth 5 once chosen, ``order_colours`` the
    colours worth 3, 2, 1 once chosen. ``turns`` counts resolved phases.
    """

    players: tuple[Player, ...]
    turn_order: tuple[str, ...]
    shells: frozenset[str]
    cownivores: tuple[str, ...]
    sap: frozenset[tuple[str, str]]
    stage: str
    to_move: str | None
    final_queue: tuple[str, ...] = ()
    trigger_seat: str | None = None
    value_colour: str | None = None
    order_colours: tuple[str, ...] | None = None
    turns: int = 0

    def player(self, seat: str) -> Player:
        """Return the player of ``seat``. Raises KeyError for an unknown seat."""
        for player in self.players:
            if player.seat == seat:
                return player
        raise KeyError(seat)

    def with_player(self, player: Player) -> ToeSapState:
        """Return the state with ``player`` replacing the player of the same seat."""
        return replace(self, players=tuple(player if p.seat == player.seat else p for p in self.players))

    def sap_at(self) -> dict[str, str]:
        """Return square -> colour of every toe-sap stone on the board."""
        return dict(self.sap)

    def owner_of(self, colour: str) -> str | None:
        """Return the seat owning ``colour``, or None when nobody plays it."""
        for player in self.players:
            if player.owns(colour):
                return player.seat
        return None

    def turn_position(self, seat: str) -> int:
        """Return the seat's 0-based position in the turn order (later wins ties)."""
        return self.turn_order.index(seat)
