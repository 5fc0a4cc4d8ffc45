"""Replaying a game from its seed and stored orders: every state (and, once the seed is
revealed, every draw) recomputed and compared with what was stored and reported."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from pbem.core import GameError, GameRng
from pbem.orders import parser_for
from pbem.service import queries, record_check, seeds
from pbem.service.record import entries as record_entries
from pbem.service.snapshot import rules_version_of
from pbem.service.unit import Unit
from pbem.store.tables import GameStatus, TurnRecordRow


@dataclass(frozen=True)
class ReplayResult:
    """The result of replaying a game from its seed: ``mismatches`` is empty when all matched."""

    game: str
    turns: int
    mismatches: list[str]
    versions: list[str] = field(default_factory=list)  # "turns 1-4: rules version 1, generator version 2"
    draws_checked: int = 0
    head: str | None = None
    """The hash of the game record's newest entry (None: a game without a record)."""

    @property
    def is_identical(self) -> bool:
        """True when every replayed state matched the stored one."""
        return not self.mismatches


def replay(unit: Unit, name: str, *, check_draws: bool = False) -> ReplayResult:
    """Replay a game from its seed, generator version and stored orders; report every
    state (and, with ``check_draws``, every logged draw) that differs.

    Turns resolved under a rules version other than the one this code implements
    are not recomputed: the stored state is taken and ``versions`` says which
    turns were resolved under which version.
    """
    info = unit.info(name)
    rules, row = info.rules, info.row
    if row.status == GameStatus.FORMING:
        return ReplayResult(name, 0, [])
    records = queries.history(unit.session, row)
    mismatches: list[str] = []
    current_rules = rules_version_of(rules)
    rng = GameRng(row.seed, version=row.rng_version)
    state = rules.setup(info.seat_names, row.options, rng)
    parser = parser_for(rules.name)
    checked = 0
    if check_draws and row.setup_draws:
        checked += len(row.setup_draws)
        if rng.draws != row.setup_draws:
            mismatches.append(f"setup: {_draw_difference(row.setup_draws, rng.draws)}")
    resync = False  # after a turn under other rules, take the stored generator state
    for record in records:
        if rng.get_state() != record.rng_state:
            if not resync:
                mismatches.append(f"turn {record.turn}: random generator state differs before resolving")
            rng = GameRng.from_state(record.rng_state)
        resync = False
        if record.rules_version != current_rules:
            state = rules.load(record.state)
            resync = True
            continue
        rng.draws = []
        orders = {seat: parser.parse("\n".join(texts)).orders for seat, texts in record.orders.items()}
        resolution = rules.resolve(state, orders, rng)
        state = resolution.state
        if json.loads(json.dumps([event.to_json() for event in resolution.events])) != record.events:
            mismatches.append(f"turn {record.turn}: replayed events differ from the stored ones")
        if check_draws:
            checked += len(record.draws)
            if rng.draws != record.draws:
                mismatches.append(f"turn {record.turn}: {_draw_difference(record.draws, rng.draws)}")
        if rules.dump(state) != record.state:
            mismatches.append(f"turn {record.turn}: replayed state differs from the stored one")
            state = rules.load(record.state)
    if rules.dump(state) != row.state:
        mismatches.append("the game's current state differs from the replayed one")
    mismatches += record_check.check(unit, row)
    chain = record_entries(unit, row)
    return ReplayResult(name, len(records), mismatches, _version_spans(records, row.rng_version), checked,
                        chain[-1].digest if chain else None)


def verify(unit: Unit, name: str, *, operator: bool = False) -> ReplayResult:
    """Recompute every draw of a finished or revealed game from its seed and stored orders and
    compare with the draws its reports listed, and check the game's record. Raises GameError for a game
    whose kind never reveals its seed (saying why; ``pbem replay`` checks its states and record), and
    while the seed is still secret unless ``operator`` (``pbem verify``: the operator holds the seed, and is
    told only what matches)."""
    row = unit.game(name)
    kept = seeds.kept_secret_reason(row)
    if kept is not None:
        raise GameError(f"the draws of {row.name} cannot be verified: {kept}")
    if not operator and not seeds.is_revealed(row):
        raise GameError(f"the seed of {name} is not revealed yet; it is revealed when the game ends")
    return replay(unit, name, check_draws=True)


def upgrade_check(unit: Unit) -> list[ReplayResult]:
    """Replay every started game; return the results of those this code would resolve
    differently from their stored history (turns under another rules version are not
    counted as differences)."""
    return [result for result in (replay(unit, row.name) for row in queries.all_games(unit.session))
            if not result.is_identical]


def _draw_difference(reported: Sequence[Sequence[int]], recomputed: Sequence[Sequence[int]]) -> str:
    """Describe the first draw where the reported and recomputed draw lists differ."""
    for index, (said, computed) in enumerate(zip(reported, recomputed, strict=False)):
        if list(said) != list(computed):
            return (f"draw {index + 1} (counter {said[0]}): reported {said[2]} of {said[1]},"
                    f" recomputed {computed[2]} of {computed[1]} (counter {computed[0]})")
    return f"{len(reported)} draws reported, {len(recomputed)} recomputed"


def _version_spans(records: Sequence[TurnRecordRow], rng_version: int) -> list[str]:
    """Describe which turns were resolved under which rules version, as runs of turns."""
    spans: list[str] = []
    start: TurnRecordRow | None = None
    previous: TurnRecordRow | None = None
    for record in [*records, None]:
        if start is not None and previous is not None and (
                record is None or record.rules_version != start.rules_version):
            turns = f"turn {start.turn}" if start is previous else f"turns {start.turn}-{previous.turn}"
            spans.append(f"{turns}: rules version {start.rules_version}, generator version {rng_version}")
            start = None
        if record is not None and start is None:
            start = record
        previous = record
    return spans
