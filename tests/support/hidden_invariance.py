"""The rule of hidden information, as a check games with secrets run on their own states.

What the service does by itself is seen by everyone, so it must not depend on a
secret: under :meth:`Game.hidden_variant` (every secret but one seat's redrawn)
the public view, the phase, which seats get a forced play, and the kept seat's
own view and NMR default must stay the same.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pbem.core import Game, GameRng


def forced_seats(game: Game[Any, Any], state: Any) -> frozenset[str]:
    """The owing seats whose play the service would make itself."""
    if game.outcome(state) is not None:
        return frozenset()
    return frozenset(s for s in game.phase(state).seats if game.forced_orders(state, s) is not None)


def check_hidden_variants(game: Game[Any, Any], state: Any, seats: Sequence[str], seed: int,
                          variants: int = 3) -> int:
    """Assert the rule of hidden information on ``state`` for the public (keep None) and every
    seat, ``variants`` redrawings each; return how many redrawings changed the state (a check
    on states whose redrawing never changes anything could not fail)."""
    public = game.view(state, None)
    over = game.outcome(state) is not None
    phase = None if over else game.phase(state)
    forced = forced_seats(game, state)
    changed = 0
    for keep in (None, *seats):
        for k in range(variants):
            other = game.hidden_variant(state, keep, GameRng(seed * 1000 + k))
            assert game.load(json.loads(json.dumps(game.dump(other)))) == other
            changed += other != state
            assert game.view(other, None) == public, f"redrawing the secrets (keep {keep}) changed the public view"
            assert (game.outcome(other) is not None) == over
            if not over:
                assert game.phase(other) == phase, f"redrawing the secrets (keep {keep}) changed the phase"
                assert forced_seats(game, other) == forced, (
                    f"redrawing the secrets (keep {keep}) changed which seats get a forced play")
            if keep is not None:
                assert game.view(other, keep) == game.view(state, keep), f"seat {keep}'s own view changed"
                if not over and keep in phase.seats:  # type: ignore[union-attr]
                    assert [str(o) for o in game.default_orders(other, keep)] == \
                        [str(o) for o in game.default_orders(state, keep)], f"seat {keep}'s NMR default changed"
    return changed

