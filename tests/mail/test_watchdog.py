"""The watchdog bounds watched work in another thread: a Python loop is interrupted at its budget, work
that ends in time is never interrupted (not even just after it ended), and work stuck outside Python is
reported once."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from pbem.mail.watchdog import MailOverrun, Watchdog


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
    except MailOverrun:
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
            except MailOverrun:  # raised in the block (or as it ended): allowed
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
        except MailOverrun:
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
                    except MailOverrun:
                        if swallowed:
                            raise
                        swallowed += 1
        except MailOverrun:
            return swallowed, time.monotonic() - started
        return swallowed, float("inf")

    with ThreadPoolExecutor(1) as worker:
        swallowed, took = worker.submit(swallows_the_first).result(timeout=5)
    assert swallowed == 1 and 0.2 <= took < 1.0
