"""The committed seed of a game: players' salts before the start, the commitment, the reveal."""

from __future__ import annotations

from pbem.core import GameError, InvalidInput
from pbem.core.rng import commitment
from pbem.games import find_game
from pbem.service import audit, record
from pbem.service.unit import Unit
from pbem.store.tables import GameRow, GameStatus

MAX_SALTS = 20
MAX_SALT_LENGTH = 200


def is_revealed(row: GameRow) -> bool:
    """True when a game's secret may be shown: the game has finished, and its kind reveals its seed."""
    return row.status == GameStatus.FINISHED and kept_secret_reason(row) is None


def kept_secret_reason(row: GameRow) -> str | None:
    """Why the seed of a game whose kind declares ``reveals_seed = False`` is never revealed, not even
    after the end (None for every other game)."""
    rules = find_game(row.kind)
    if getattr(rules, "reveals_seed", True):
        return None
    return (f"{rules.title} keeps its seed secret even after the end: from the seed anyone could recompute "
            f"its sealed draws and learn what its rules never tell (HELP {rules.name} says what)")


def commitment_of(row: GameRow) -> str | None:
    """The published SHA-256 commitment of a game's secret (None for a legacy game)."""
    return commitment(row.name, row.secret) if row.secret is not None else None


def add_salt(unit: Unit, name: str, seat: str, text: str) -> list[str]:
    """Add a seat's salt to a forming game; it is mixed into the seed at START.
    Returns the salts so far. Raises InvalidInput for an empty, overlong or multi-line
    salt, GameError once the game has started, for a legacy game or past the salts allowed."""
    text = text.strip()
    if not text or len(text) > MAX_SALT_LENGTH or "\n" in text:
        raise InvalidInput(f"SALT takes one line of 1 to {MAX_SALT_LENGTH} characters")
    row = unit.game(name)
    if row.status != GameStatus.FORMING:
        raise GameError(f"game {name} has started; salt is taken only before the start")
    if row.secret is None:
        raise GameError(f"game {name} uses the legacy generator and takes no salt")
    if len(row.salts) >= MAX_SALTS:
        raise GameError(f"game {name} has {MAX_SALTS} salts already")
    row.salts = [*row.salts, f"{seat}:{text}"]
    unit.add(row)
    return list(row.salts)


def reveal(unit: Unit, name: str) -> GameRow:
    """End a game early if need be and return its row, whose secret may now be shown unless its kind
    keeps it (:func:`is_revealed` says which). Raises GameError for a legacy game with no commitment."""
    row = unit.game(name)
    if row.secret is None:
        raise GameError(f"{name} was created before seeds were committed; its seed is {row.seed}")
    ending = row.status != GameStatus.FINISHED
    if ending:
        row.status = GameStatus.FINISHED
        row.ended_by_gm = True
        row.deadline = None
        unit.add(row)
    kept = " (its seed stays secret: its kind keeps it)" if kept_secret_reason(row) is not None else " and its seed revealed"
    audit.record(unit, row, "REVEAL", f"game ended at turn {row.turn}{kept}")
    if ending:
        record.append_end(unit, row, "reveal", unit.snapshot(row).outcome)
    unit.session.flush()
    from pbem.service import leagues  # leagues import the modules that import this one

    leagues.game_over(unit, row)
    return row
