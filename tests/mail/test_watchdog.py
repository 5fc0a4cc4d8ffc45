"""The watchdog bounds watched work in another thread: a Python loop is interrupted at its budget, work
that ends in time is never interrupted (not even just after it ended), and work stuck outside Python is
reported once."""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from pbem import budget
from pbem.budget import OverBudget
from pbem.mail.running.watchdog import Watchdog


@pytest.fixture
def stuck() -> list[tuple[object, float]]:
    return []


@pytest.fixture
def watchdog(stuck: list[tuple[object, float]]) -> Iterator[Watchdog]:
    dog = Watchdog(0.2, on_stuck=lambda what, seconds: stuck.append((what, seconds)))
    dog.start()
    yield dog
    dog.stop()


def endless(watchdog: Watchdog) -> float:
    """Seconds a Python loop ran before it was interrupted (it gives up after 3 s: inf)."""
    started = time.monotonic()
    try:
        with watchdog.watching("mail 1"):
            while time.monotonic() < started + 3:
                pass
    except OverBudget:
        return time.monotonic() - started
    return float("inf")


def test_a_python_loop_in_another_thread_is_interrupted_at_its_budget(watchdog: Watchdog) -> None:
    with ThreadPoolExecutor(1) as worker:
        took = worker.submit(endless, watchdog).result(timeout=5)
        assert 0.2 <= took < 1.0
        assert worker.submit(lambda: 42).result(timeout=5) == 42  # the thread goes on with the next work


def test_a_watchdog_that_slept_while_nothing_was_watched_still_interrupts(watchdog: Watchdog) -> None:
    time.sleep(0.6)  # nothing watched for more than a budget: the watchdog's thread sleeps
    with ThreadPoolExecutor(1) as worker:
        assert 0.2 <= worker.submit(endless, watchdog).result(timeout=5) < 1.0


def test_an_interruption_never_comes_after_the_watched_block_ended(watchdog: Watchdog) -> None:
    def many() -> tuple[int, int]:
        ended = interrupted = 0
        for _ in range(40):  # each ends near the budget: some end just as the watchdog fires
            try:
                with watchdog.watching("mail"):
                    end = time.monotonic() + 0.19
                    while time.monotonic() < end:
                        pass
                ended += 1
            except OverBudget:  # raised in the block (or as it ended): allowed
                interrupted += 1
        end = time.monotonic() + 0.5  # one pending would come now, outside any watched block
        while time.monotonic() < end:
            pass
        return ended, interrupted

    with ThreadPoolExecutor(1) as worker:
        ended, interrupted = worker.submit(many).result(timeout=60)
    assert ended + interrupted == 40 and ended > 0


def test_work_stuck_outside_python_is_reported_once_and_interrupted_when_it_returns(
        watchdog: Watchdog, stuck: list[tuple[object, float]]) -> None:
    blocked = threading.Event()

    def in_c() -> str:
        try:
            with watchdog.watching("mail 7"):
                blocked.wait(1.2)  # a C call: the interruption waits until it returns
        except OverBudget:
            return "interrupted"
        return "not interrupted"

    with ThreadPoolExecutor(1) as worker:
        assert worker.submit(in_c).result(timeout=5) == "interrupted"
    assert len(stuck) == 1 and stuck[0][0] == "mail 7" and stuck[0][1] >= 0.4


def test_a_budget_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        Watchdog(0, on_stuck=lambda what, seconds: None)


def test_an_interruption_swallowed_on_its_way_is_raised_again(watchdog: Watchdog) -> None:
    def swallows_the_first() -> tuple[int, float]:
        """A loop whose code swallows the first interruption (as a garbage-collector callback or a
        ``__del__`` does); returns how many it swallowed and when the next one ended it."""
        started, swallowed = time.monotonic(), 0
        try:
            with watchdog.watching("mail 1"):
                while time.monotonic() < started + 3:
                    try:
                        while time.monotonic() < started + 3:
                            pass
                    except OverBudget:
                        if swallowed:
                            raise
                        swallowed += 1
        except OverBudget:
            return swallowed, time.monotonic() - started
        return swallowed, float("inf")

    with ThreadPoolExecutor(1) as worker:
        swallowed, took = worker.submit(swallows_the_first).result(timeout=5)
    assert swallowed == 1 and 0.2 <= took < 1.0


def test_the_interruption_never_lands_in_code_that_may_hold_a_lock(watchdog: Watchdog) -> None:
    def busy_with_locks() -> str:
        """A loop that spends most of its time in the standard library's locking code (queues, conditions,
        logging): the interruption must come in code that holds no lock (this file's, between those calls);
        returns the file of the code it came in."""
        chatter = logging.getLogger("pbem.test.chatter")
        chatter.addHandler(logging.NullHandler())
        chatter.propagate = False
        started = time.monotonic()
        try:
            with watchdog.watching("mail 1"):
                while time.monotonic() < started + 3:
                    line = queue.Queue()
                    for _ in range(50):
                        line.put(1)
                        line.get()
                        chatter.warning("busy")
        except OverBudget as overrun:
            innermost = overrun.__traceback__
            while innermost.tb_next is not None:
                innermost = innermost.tb_next
            return innermost.tb_frame.f_code.co_filename
        return "not interrupted"

    with ThreadPoolExecutor(1) as worker:
        for _ in range(5):
            where = worker.submit(busy_with_locks).result(timeout=10)
            assert where != "not interrupted" and not budget.is_locking_code(where), where


def test_a_safe_point_stops_the_work_once_its_budget_is_spent(watchdog: Watchdog,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget, "LOCKING_CODE", (*budget.LOCKING_CODE, __file__))  # no interruption here

    def checks() -> tuple[str, float]:
        started = time.monotonic()
        try:
            with watchdog.watching("mail 1"):
                while time.monotonic() < started + 3:
                    budget.check()
        except OverBudget as overrun:
            return str(overrun), time.monotonic() - started
        return "not stopped", float("inf")

    with ThreadPoolExecutor(1) as worker:
        said, took = worker.submit(checks).result(timeout=5)
    assert said == "over the time budget (stopped at a safe point)" and 0.2 <= took < 1.0


def test_a_safe_point_outside_any_budget_never_stops() -> None:
    budget.check()  # the command line and the clock's work have no budget
