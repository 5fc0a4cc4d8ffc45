"""The time budget of one mail: a watchdog that ends handling that runs too long, never inside database code.

Handling a mail runs in the daemon's worker thread under a
:class:`~pbem.budget.Budget` (:meth:`Watchdog.watching`). A thread of the
watchdog's own waits for the budget's deadline and, if the work still runs
then, ends it in three ways, from the gentlest:

1. It marks the budget spent: the work stops at its next safe point
   (:func:`pbem.budget.check`, in every loop the mail's size decides) with
   :class:`~pbem.budget.OverBudget`, which leaves through the unit of work's
   rollback like any error.
2. It ends the statement the worker runs in the database, if any, by the
   driver's own means (``interrupt``: PostgreSQL's cancel; SQLite's progress
   handler reads the spent budget by itself, see :mod:`pbem.store.database`).
   The statement fails, the transaction rolls back, the connection stays
   healthy.
3. The last resort, for Python code that reaches no safe point (a parser path
   nobody found yet, a hot loop): :class:`~pbem.budget.OverBudget` is raised
   inside the worker with ``PyThreadState_SetAsyncExc``, but only while the
   worker's stack inside the watched block holds no frame of code that may
   hold a lock: the database's driver, SQLAlchemy, pbem's store, logging,
   threading, imports (:func:`pbem.budget.is_locking_code`). Such code is left alone; the
   watchdog looks again every :data:`REFIRE_SECONDS`. Should the exception
   still reach such code (the worker moved on between the look and the raise),
   the unit of work discards its connection (:mod:`pbem.store.database`), so
   no lock outlives the mail.

The exception is raised again every :data:`REFIRE_SECONDS` while the work
still runs in lock-free code: one raised while the worker runs a
garbage-collector callback or a ``__del__`` is swallowed there ("exception
ignored"). Code that does not return to the interpreter (a call into C that
never comes back) cannot be interrupted this way: once the work is still
watched a whole budget after its deadline, the watchdog calls its
``on_stuck`` once, and the daemon says so in its log.

Watching costs the worker a few attribute writes and one uncontended lock per
mail; the watchdog's thread wakes once per budget while mail is handled (at
the deadline of the work watched then; every :data:`REFIRE_SECONDS` once a
mail overran), and sleeps while nothing is watched (the next watch wakes it).
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import FrameType

from pbem.budget import Budget, OverBudget, budgeted, is_locking_code

REFIRE_SECONDS = 0.1
"""How often the watchdog looks again while overrunning work still runs."""

@dataclass(eq=False)
class _Watch:
    budget: Budget
    what: object
    outer: FrameType | None
    """The frame that entered the watched block: it and the frames below it are the watched work's."""
    fired: bool = False
    stuck_told: bool = False


class Watchdog:
    """Bounds the time of watched work in other threads (see the module's description)."""

    def __init__(self, budget: float, *, on_stuck: Callable[[object, float], None],
                 interrupt: Callable[[int], None] | None = None) -> None:
        """``budget``: seconds a watched piece of work may take; ``on_stuck(what, seconds)`` is called (in the
        watchdog's thread) when work is still running a whole budget after it was interrupted;
        ``interrupt(thread_id)`` ends the database statement that thread runs, if any (called from the
        watchdog's thread once the budget is spent, and again every :data:`REFIRE_SECONDS`). Raises
        ValueError unless the budget is positive."""
        if not budget > 0:
            raise ValueError(f"a time budget must be positive, not {budget!r}")
        self.budget = budget
        self._on_stuck = on_stuck
        self._interrupt = interrupt
        self._watched: _Watch | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._asleep = False
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start the watchdog's thread (a daemon thread: it never keeps the process alive)."""
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="pbem-watchdog", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop the watchdog's thread; work watched afterwards is not interrupted."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    @contextlib.contextmanager
    def watching(self, what: object, *, armed: bool = True) -> Iterator[Arming]:
        """Watch the calling thread for the block, under a budget of its own (:func:`pbem.budget.check`
        checks it): when it runs longer than the budget, it is ended as the module says, with
        :class:`~pbem.budget.OverBudget`. ``what`` names the work for ``on_stuck``. An interruption that
        comes as the block ends is either raised from the block or cancelled, never raised after it; a block
        that ends after the watchdog found its budget spent raises it as it ends. Unless
        ``armed``, the block runs unwatched until it calls the :class:`Arming` it is given with the name of
        the work: the budget counts from then, and stops counting while it is held (what comes between,
        such as waiting for the database's write lock to store the mail, is not the mail's work)."""
        watch = _Watch(Budget(), what, sys._getframe(2))  # noqa: SLF001 - the caller's frame, past contextlib's
        arming = Arming(self, watch)
        if armed:
            arming(what)
        try:
            with budgeted(watch.budget):
                yield arming
        finally:
            with self._lock:
                self._watched = None
                fired, spent = watch.fired, watch.budget.spent
            if fired:  # raised, or still pending: a pending one must not hit the code after the block
                _set_async_exception(watch.budget.thread_id, None)
        if spent:  # it came back from code the watchdog left alone (a call into C, a lock) past its budget
            raise OverBudget("over the time budget (as the work ended)")

    def _watch(self, watch: _Watch) -> None:
        """Have the watchdog's thread watch ``watch`` (whose budget was just armed)."""
        self._watched = watch
        if self._asleep:  # read after the write above: the watchdog's thread either sees the watch or is woken
            self._asleep = False
            self._wake.set()

    def _unwatch(self, watch: _Watch) -> None:
        """Stop watching ``watch`` (its budget held); the watchdog's thread sleeps at its next look."""
        with self._lock:
            if self._watched is watch:
                self._watched = None

    def _run(self) -> None:
        """Sleep while nothing is watched; else wait for the watched work's deadline, end it if it still runs,
        and a budget later report it if it still runs then."""
        while not self._stop.is_set():
            watch = self._watched
            if watch is None:
                self._sleep()
                continue
            late = time.monotonic() - watch.budget.deadline
            if late < 0:
                self._stop.wait(-late)  # work watched meanwhile ends later: no need to wake for it
                continue
            self._end(watch)
            if late >= self.budget and not watch.stuck_told:
                watch.stuck_told = True
                self._on_stuck(watch.what, self.budget + late)
            self._stop.wait(REFIRE_SECONDS)

    def _end(self, watch: _Watch) -> None:
        """The watched work ran over its budget: mark it spent, end its database statement, and raise the
        interruption in it while it runs code that holds no lock (again while it runs: an earlier one may
        have been swallowed on its way)."""
        with self._lock:
            if self._watched is not watch:
                return
            watch.budget.spent = True
            if self._interrupt is not None:
                self._interrupt(watch.budget.thread_id)
            if _holds_no_lock(watch):
                watch.fired = True
                _set_async_exception(watch.budget.thread_id, OverBudget)

    def _sleep(self) -> None:
        """Wait, without waking, until work is watched again (or the watchdog stops)."""
        self._wake.clear()
        self._asleep = True
        if self._watched is None and not self._stop.is_set():  # read after the write above (see watching)
            self._wake.wait()
        self._asleep = False


class Arming:
    """The budget of a block watched unarmed (:meth:`Watchdog.watching`): calling it with the work's name
    starts the budget, or resumes it after :meth:`hold` with what was left."""

    def __init__(self, watchdog: Watchdog, watch: _Watch) -> None:
        self._watchdog = watchdog
        self._watch = watch
        self._used = 0.0  # seconds of the budget used before the last hold

    def __call__(self, named: object) -> None:
        """Count the budget (what is left of it after a hold) from now; ``named`` names the work."""
        self._watch.what = named
        self._watch.budget.arm(self._watchdog.budget - self._used)
        self._watchdog._watch(self._watch)  # noqa: SLF001 - the watchdog's own helper

    def hold(self) -> None:
        """Stop counting the budget until the next call (the time until then is not the work's)."""
        budget = self._watch.budget
        self._watchdog._unwatch(self._watch)  # noqa: SLF001 - the watchdog's own helper
        if budget.deadline != math.inf:
            self._used = self._watchdog.budget - (budget.deadline - time.monotonic())
            budget.deadline = math.inf


def _holds_no_lock(watch: _Watch) -> bool:
    """True when no frame of the watched work (from the innermost up to the frame of the block that watches
    it, that one included) runs code that may hold a lock (:func:`~pbem.budget.is_locking_code`)."""
    frame = sys._current_frames().get(watch.budget.thread_id)  # noqa: SLF001 - the one way to see another thread
    while frame is not None:
        if is_locking_code(frame.f_code.co_filename):
            return False
        if frame is watch.outer:  # the block's own frame is the work's too; the frames above it are not
            return True
        frame = frame.f_back
    return True


def _set_async_exception(thread_id: int, exception: type[BaseException] | None) -> None:
    """Have ``exception`` raised in the thread at its next bytecode; None cancels one still pending."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id),
                                               ctypes.py_object(exception) if exception is not None else None)
