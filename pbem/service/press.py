"""Whether press may go between players now: a phase may close it (Meanies in our Midst's silent
mission); the GM's press always goes through."""

from __future__ import annotations

from pbem.core import GameError
from pbem.service.unit import Unit


class PressClosed(GameError):
    """Press between players while the current phase forbids it; the message names the phase."""


def check_press(unit: Unit, name: str, *, from_gm: bool = False) -> None:
    """Return when press may go in the game called ``name`` now: always from the GM, and between
    players unless the current phase says ``press_open=False``. Raises PressClosed naming the phase,
    UnknownGame."""
    info = unit.info(name)
    phase = info.phase
    if from_gm or phase is None or phase.press_open:
        return
    raise PressClosed(f"no press between players during the {phase.name} phase of game {info.name}: "
                      f"{info.rules.title} forbids it until the phase is over (the GM's press still goes "
                      "through). Nothing was sent.")
