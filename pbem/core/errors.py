"""Exception types. Every message names the input it is about."""


class PbemError(Exception):
    """Base of every error pbem raises on purpose."""


class UnknownGame(PbemError):
    """A game name or game kind that does not exist."""


class UnknownSeat(PbemError):
    """A seat that the game does not have."""


class GameError(PbemError):
    """A request the game cannot honour in its present state (finished, paused, ...)."""


class StaleTurn(PbemError):
    """Orders sent for a turn that is no longer the one awaiting orders."""


class IllegalOrder(PbemError):
    """An order that is well formed but breaks a rule, e.g. ``MOVE F6-F8: F8 is not next to F6``."""


class OrderSyntaxError(PbemError):
    """Order text that does not follow the game's grammar."""

    def __init__(self, message: str, *, line: int, column: int, text: str) -> None:
        super().__init__(message)
        self.line = line
        self.column = column
        self.text = text
