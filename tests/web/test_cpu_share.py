"""The web's share of the processor: page builds wait for credit, so over time they use at most their share."""

from __future__ import annotations

import pytest

from pbem.web.cpu_share import CpuShare, SharedThreadPool


class Clock:
    """A clock that moves only when slept on."""

    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_builds_over_the_share_wait_until_the_time_they_used_is_earned_back() -> None:
    clock = Clock()
    share = CpuShare(0.5, clock=clock, sleep=clock.sleep)
    share.wait()
    assert clock.slept == [], "a second's worth is saved up at the start"
    share.spend(2.5)  # one build took 2.5 s of processor time: 0.5 saved, 2 s owed
    share.wait()
    assert clock.now == pytest.approx(104.0), "at half a core, 2 s owed are earned back in 4 s"
    share.wait()
    assert clock.now == pytest.approx(104.0)


def test_credit_saved_up_is_at_most_one_seconds_worth() -> None:
    clock = Clock()
    share = CpuShare(0.25, clock=clock, sleep=clock.sleep)
    clock.now += 3600  # an hour without a page
    share.spend(0.25 + 0.5)
    share.wait()
    assert clock.now == pytest.approx(3700.0 + 2.0), "only 0.25 s was saved up: 0.5 s owed takes 2 s"


def test_a_share_out_of_range_is_refused() -> None:
    for share in (0.0, -1.0, 1.5):
        with pytest.raises(ValueError, match="share of one core"):
            CpuShare(share)


def test_the_pool_counts_each_tasks_processor_time() -> None:
    clock = Clock()
    share = CpuShare(1.0, clock=clock, sleep=clock.sleep)
    with SharedThreadPool(2, share) as pool:
        assert pool.submit(sum, range(200_000)).result() == sum(range(200_000))
    assert share.credit < 1.0, "the sum's processor time was counted"
