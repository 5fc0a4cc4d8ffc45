"""The former home of the turn runner; its parts are now the service layer, :mod:`pbem.service`.

Only the old names remain here, for the test modules of the game side that
still import them; new code imports :class:`pbem.service.api.GameService`
and :class:`pbem.service.snapshot.GameInfo`.
"""

from pbem.service.api import GameService as TurnRunner
from pbem.service.snapshot import GameInfo

__all__ = ["GameInfo", "TurnRunner"]
