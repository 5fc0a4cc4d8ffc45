"""The game protocol and the pieces every game shares (RNG, errors, board helpers).

Games import from here and from the standard library only.
"""

from pbem.core.errors import (
    GameError,
    IllegalOrder,
    InvalidInput,
    OrderSyntaxError,
    PbemError,
    StaleTurn,
    UnknownGame,
    UnknownSeat,
)
from pbem.core.protocol import (
    Event,
    Game,
    Order,
    OrderProblem,
    Outcome,
    OutcomeKind,
    Phase,
    Resolution,
)
from pbem.core.rng import GameRng

__all__ = [
    "Event",
    "Game",
    "GameError",
    "GameRng",
    "IllegalOrder",
    "InvalidInput",
    "Order",
    "OrderProblem",
    "OrderSyntaxError",
    "Outcome",
    "OutcomeKind",
    "PbemError",
    "Phase",
    "Resolution",
    "StaleTurn",
    "UnknownGame",
    "UnknownSeat",
]
