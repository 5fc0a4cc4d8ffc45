"""What a game master did that the record must keep: the one place a GM action is recorded.

For now each action is a log line (logger ``pbem.audit``, level INFO) with the game, the GM's
address and the time; an audit log stored with the games takes this function over.
"""

from __future__ import annotations

import logging

from pbem.clock import format_utc
from pbem.service.unit import Unit

_log = logging.getLogger("pbem.audit")


def record_gm_action(unit: Unit, game: str, gm_address: str | None, action: str) -> None:
    """Record that the GM of ``game`` (at ``gm_address``; None for the command line) did ``action`` now."""
    when = unit.now()
    _log.info("game %s: GM %s: %s at %s", game, gm_address or "(command line)", action, format_utc(when),
              extra={"game": game, "gm": gm_address, "action": action, "at": when.isoformat()})
