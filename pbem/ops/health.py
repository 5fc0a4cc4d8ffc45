"""Whether the daemon's loops run: the supervisor's view of each loop, the outages the mail loops meet,
and the clock's heartbeat, summed up as one verdict for ``/healthz``, systemd and the metrics."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from pbem.clock import utcnow

WATCHED_LOOPS = ("intake", "process", "sender", "clock")
"""The loops whose health ``/healthz`` reports: mail comes in and is answered, mail goes out, deadlines
pass."""
STALE_SECONDS = 120.0
"""A loop that beats (the clock) and has not beaten this long is stuck."""


@dataclass(frozen=True)
class Outage:
    """A server a loop cannot reach: since when, and the first line of the last error."""

    since: datetime
    error: str

    @classmethod
    def begun(cls, error: BaseException | str, ongoing: Outage | None) -> Outage:
        """The outage going on after ``error``: ``ongoing`` with the newer error, or one beginning now."""
        line = first_line(error)
        return cls(ongoing.since if ongoing is not None else utcnow(), line)


@dataclass(frozen=True)
class LoopState:
    """One loop as the supervisor sees it: running, or waiting to restart after a failure."""

    running: bool
    since: datetime
    error: str | None = None


@dataclass(frozen=True)
class Verdict:
    """The health of a daemon: healthy when ``reasons`` is empty; ``stuck`` names loops whose heartbeat is
    too old (the only reason for the systemd watchdog to restart the daemon: the others heal by themselves)."""

    reasons: tuple[str, ...]
    stuck: tuple[str, ...] = ()

    @property
    def is_healthy(self) -> bool:
        """True when every watched loop runs and reaches its server."""
        return not self.reasons

    def summary(self) -> str:
        """One line: ``ok``, or the reasons joined by ``; ``."""
        return "; ".join(self.reasons) if self.reasons else "ok"


def first_line(error: BaseException | str) -> str:
    """The first line of an error as it is shown to an operator: ``TypeName: message`` (at most 200
    characters)."""
    text = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
    return (text.strip().splitlines() or [""])[0][:200]


class LoopWatch:
    """What the supervisor and the loops tell about themselves; read by :meth:`verdict`.

    Thread-safe enough for its use: each loop writes only its own entries from the event loop, and a
    reader in another thread sees each entry whole (one assignment)."""

    def __init__(self, loops: Sequence[str] = WATCHED_LOOPS, *, stale_seconds: float = STALE_SECONDS,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.loops = tuple(loops)
        self.stale_seconds = stale_seconds
        self._monotonic = monotonic
        self._states: dict[str, LoopState] = {}
        self._beats: dict[str, float] = {}
        self.ready = asyncio.Event()
        """Set once every watched loop has started (READY=1 for systemd)."""

    def running(self, name: str) -> None:
        """Loop ``name`` (re)starts now."""
        self._states[name] = LoopState(True, utcnow())
        if all(self._states.get(loop, LoopState(False, utcnow())).running for loop in self.loops):
            self.ready.set()

    def failed(self, name: str, error: BaseException) -> None:
        """Loop ``name`` failed with ``error`` and waits to restart."""
        self._states[name] = LoopState(False, utcnow(), first_line(error))

    def beat(self, name: str) -> None:
        """Loop ``name`` is alive now (a loop that beats once is stuck when it stops beating)."""
        self._beats[name] = self._monotonic()

    def beat_age(self, name: str) -> float | None:
        """Seconds since loop ``name`` last beat; None when it never beat."""
        beat = self._beats.get(name)
        return None if beat is None else self._monotonic() - beat

    def is_running(self, name: str) -> bool:
        """True while loop ``name`` runs (started, and not waiting to restart after a failure)."""
        state = self._states.get(name)
        return state is not None and state.running

    def verdict(self, outages: Mapping[str, Outage | None]) -> Verdict:
        """The daemon's health: every watched loop running, none with an outage (``outages`` by loop name,
        such as the sender's SMTP server), no heartbeat older than ``stale_seconds``."""
        reasons: list[str] = []
        stuck: list[str] = []
        for name in self.loops:
            state = self._states.get(name)
            if state is None:
                reasons.append(f"{name}: not started")
            elif not state.running:
                reasons.append(f"{name}: restarting since {_when(state.since)} after: {state.error}")
            outage = outages.get(name)
            if outage is not None:
                reasons.append(f"{name}: failing since {_when(outage.since)}: {outage.error}")
            age = self.beat_age(name)
            if age is not None and age > self.stale_seconds:
                stuck.append(name)
                reasons.append(f"{name}: no heartbeat for {age:.0f} s")
        return Verdict(tuple(reasons), tuple(stuck))


def _when(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")
