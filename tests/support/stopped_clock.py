"""For tests of the turn clock: a clock that stands still until the test moves it, and a notifier
that keeps what the clock asked to send."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from pbem.service.digests import DueReport
from pbem.service.snapshot import GameInfo
from pbem.service.unit import Unit
from pbem.store.tables import SeatRow

START = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


class StoppedClock:
    """The service's time: :data:`START` until the test sets ``now``."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


class RecordingNotifier:
    """Keeps what the clock asked to send, for the assertions."""

    def __init__(self) -> None:
        self.reminded: list[tuple[str, list[str]]] = []
        self.gm: list[str] = []
        self.players: list[str] = []
        self.reports: list[tuple[str, list[str]]] = []

    def remind(self, unit: Unit, info: GameInfo, seats: Sequence[SeatRow]) -> None:
        self.reminded.append((info.name, [s.name for s in seats]))

    def tell_gm(self, unit: Unit, info: GameInfo, text: str) -> None:
        self.gm.append(text)

    def tell_players(self, unit: Unit, info: GameInfo, text: str, *, calendar: bool = False) -> None:
        self.players.append(text)

    def send_reports(self, unit: Unit, info: GameInfo, reports: Sequence[DueReport]) -> None:
        self.reports.append((info.name, ["GM" if r.seat is None else r.seat.name for r in reports]))
