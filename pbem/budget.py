"""The time budget of the work under way in this thread, and its safe points.

Handling one mail has a time budget (``pbem serve --mail-budget``). The
watchdog (:mod:`pbem.mail.running.watchdog`) marks the work's :class:`Budget` spent
when its time is up; the work itself then stops at its next *safe point*:

* every loop whose length the mail decides (its lines and commands, the seats,
  members and games they name, the reports it renders) calls :func:`check`,
  which raises :class:`OverBudget` once the budget is spent: the exception
  takes the ordinary way out, through the unit of work's rollback;
* a statement running in the database when the budget is spent is ended by
  the driver's own means (SQLite's progress handler, PostgreSQL's cancel; see
  :mod:`pbem.store.database`), and the error it raises is read as the budget
  being spent (:func:`is_spent`).

Nothing here touches a database or a clock but :func:`time.monotonic`: the
service's loops call :func:`check` without knowing who set the budget, and
outside any budget (the command line, the clock's work) it costs one
attribute read.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


LOCKING_CODE = ("/sqlalchemy/", "/sqlmodel/", "/sqlite3/", "/psycopg/", "/psycopg_binary/", "/alembic/",
                "/pbem/store/", "/logging/", "/threading.py", "/importlib/", "/concurrent/", "/queue.py",
                "/asyncio/", "/selectors.py", "<frozen importlib")
"""Where the code of a frame lives (a part of its file name) that may hold a lock or a transaction half
done: the watchdog raises no interruption while the watched work runs in it."""


class OverBudget(BaseException):  # noqa: N818 - not an Exception: no `except Exception` in the service swallows it
    """The work of this thread ran over its time budget. A :class:`BaseException`, so that the service's own
    ``except Exception`` clauses let it through to the unit of work, which rolls back."""


class Budget:
    """The time one piece of work may take, from when it is armed; spent once the watchdog says so (or a
    safe point finds its deadline passed)."""

    __slots__ = ("deadline", "spent", "thread_id")

    def __init__(self, seconds: float | None = None) -> None:
        """A budget of ``seconds`` from now; None: not yet armed (never spent until :meth:`arm`)."""
        self.thread_id = threading.get_ident()
        self.deadline = float("inf") if seconds is None else time.monotonic() + seconds
        self.spent = False

    def arm(self, seconds: float) -> None:
        """Count ``seconds`` from now."""
        self.deadline = time.monotonic() + seconds

    def is_spent(self) -> bool:
        """True once the budget ran out (the watchdog said so, or its deadline passed)."""
        if not self.spent and time.monotonic() >= self.deadline:
            self.spent = True
        return self.spent


class _Current(threading.local):
    budget: Budget | None = None


_current = _Current()


@contextmanager
def budgeted(budget: Budget) -> Iterator[Budget]:
    """Make ``budget`` the one :func:`check` checks in this thread for the block (blocks nest: the inner
    budget counts while it runs)."""
    outer, _current.budget = _current.budget, budget
    try:
        yield budget
    finally:
        _current.budget = outer


def check() -> None:
    """A safe point: raise :class:`OverBudget` when the work of this thread ran over its budget; else return
    at once (also outside any budget)."""
    budget = _current.budget
    if budget is not None and budget.is_spent():
        raise OverBudget("over the time budget (stopped at a safe point)")


def is_spent() -> bool:
    """True when this thread works under a budget that ran out: an error raised now (a statement the
    database ended) is the budget's doing, not a fault of its own."""
    budget = _current.budget
    return budget is not None and budget.is_spent()


def is_locking_code(filename: str) -> bool:
    """True when code of the file ``filename`` may hold a lock or a transaction half done (see
    :data:`LOCKING_CODE`)."""
    return any(part in filename for part in LOCKING_CODE)
