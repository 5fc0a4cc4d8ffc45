"""Exception types. Every message names the input it is about.

Two families: :class:`InvalidInput` (also a ``ValueError``) for input that cannot be
taken as written (an unknown game or seat, a bad name, number, option or order, a
stale turn); :class:`GameError` for a request the game cannot honour in its present
state (finished, paused, not started).
"""


class PbemError(Exception):
    """Base of every error pbem raises on purpose."""


class InvalidInput(PbemError, ValueError):
    """Input that cannot be taken as written; the message quotes it."""


class UnknownGame(InvalidInput):
    """A game name or game kind that does not exist."""


class UnknownSeat(InvalidInput):
    """A seat that the game does not have."""


class GameError(PbemError):
    """A request the game cannot honour in its present state (finished, paused, ...)."""


class StaleTurn(InvalidInput):
    """Orders sent for a turn that is no longer the one awaiting orders.

    ``game``, ``turn`` (the turn the orders were for) and ``current`` (the turn
    awaiting orders) are kept; ``message`` words the refusal for a channel of its own.
    """

    def __init__(self, game: str, turn: int, current: int, *, message: str | None = None) -> None:
        super().__init__(message or f"orders for turn {turn} of {game} refused as stale: the game is at turn {current}")
        self.game = game
        self.turn = turn
        self.current = current


class IllegalOrder(InvalidInput):
    """An order that is well formed but breaks a rule, e.g. ``MOVE F6-F8: F8 is not next to F6``."""


class OrderSyntaxError(InvalidInput):
    """Order text that does not follow the game's grammar."""

    def __init__(self, message: str, *, line: int, column: int, text: str) -> None:
        super().__init__(message)
        self.line = line
        self.column = column
        self.text = text
