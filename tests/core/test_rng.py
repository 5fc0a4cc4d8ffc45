"""The versioned game generator: the documented counter-mode version and the legacy one."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections import Counter

import pytest

from pbem.core.rng import CURRENT_VERSION, LEGACY_VERSION, GameRng, UnknownGeneratorVersion, commitment, derive_seed

# Chi-squared critical values at p = 0.001.
CRITICAL = {5: 20.515, 6: 22.458, 36: 67.985}


def chi_squared(counts: Counter[int], categories: range, draws: int) -> float:
    expected = draws / len(categories)
    return sum((counts[c] - expected) ** 2 / expected for c in categories)


@pytest.mark.parametrize("sides", [6, 7, 37])
def test_ranges_are_unbiased_by_chi_squared(sides: int) -> None:
    rng = GameRng(20261124)
    draws = 50_000
    counts = Counter(rng.randint(1, sides) for _ in range(draws))
    assert set(counts) == set(range(1, sides + 1))
    assert chi_squared(counts, range(1, sides + 1), draws) < CRITICAL[sides - 1]


def test_a_range_with_much_rejection_stays_unbiased_and_uses_extra_counters() -> None:
    rng = GameRng(5)
    n = 3 * 2**62  # a quarter of all words lies above the last whole multiple and is rejected
    draws = 20_000
    counts = Counter(rng.randint(0, n - 1) * 3 // n for _ in range(draws))  # thirds of the range
    assert chi_squared(counts, range(3), draws) < 13.816  # df 2, p 0.001
    counter = rng.get_state()[2]
    assert 1.2 * draws < counter < 1.45 * draws  # about 4/3 words per draw


def test_draws_follow_the_documented_construction() -> None:
    seed = 123456789
    rng = GameRng(seed)
    key = seed.to_bytes(8, "big")

    def word(counter: int) -> int:
        return int.from_bytes(hmac.new(key, counter.to_bytes(8, "big"), hashlib.sha256).digest()[:8], "big")

    assert rng.roll(6) == 1 + word(0) % 6  # 6 divides no power of two, but word 0 is below the limit
    assert rng.draws == [[0, 6, word(0) % 6]]
    items = list(range(5))
    rng.shuffle(items)
    expected = list(range(5))
    counter = 1
    for i in range(4, 0, -1):
        j = word(counter) % (i + 1)
        counter += 1
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected
    assert rng.random() == (word(counter) >> 11) / 2**53


def test_sample_and_choice_are_draws_without_replacement() -> None:
    rng = GameRng(9)
    picked = rng.sample("abcdefgh", 5)
    assert len(set(picked)) == 5 and set(picked) <= set("abcdefgh")
    assert rng.choice(["x"]) == "x"
    with pytest.raises(ValueError):
        rng.sample("ab", 3)
    with pytest.raises(IndexError):
        rng.choice([])


def test_state_round_trip_continues_the_same_stream() -> None:
    rng = GameRng(77)
    rng.roll()
    copy = GameRng.from_state(rng.get_state())
    assert [rng.randint(1, 100) for _ in range(20)] == [copy.randint(1, 100) for _ in range(20)]
    assert copy.version == CURRENT_VERSION


def test_the_legacy_version_is_pythons_mersenne_twister_as_before() -> None:
    rng = GameRng(42, version=LEGACY_VERSION)
    old = random.Random(42)
    assert [rng.roll(6) for _ in range(10)] == [old.randint(1, 6) for _ in range(10)]
    items, old_items = list(range(10)), list(range(10))
    rng.shuffle(items)
    old.shuffle(old_items)
    assert items == old_items
    restored = GameRng.from_state(rng.get_state())
    assert restored.version == LEGACY_VERSION
    assert restored.sample(range(50), 4) == old.sample(list(range(50)), 4)


def test_an_unknown_version_is_refused() -> None:
    with pytest.raises(UnknownGeneratorVersion):
        GameRng(1, version=99)


def test_commitment_and_seed_are_sha256_of_documented_texts() -> None:
    assert commitment("tc-1", "s3cret") == hashlib.sha256(b"tc-1\ns3cret").hexdigest()
    digest = hashlib.sha256(b"s3cret\nA:dice\nB:more").digest()
    assert derive_seed("s3cret", ["A:dice", "B:more"]) == int.from_bytes(digest[:8], "big") >> 1
    assert derive_seed("s3cret") != derive_seed("s3cret", ["A:x"])
    assert 0 <= derive_seed("s3cret") < 2**63


def test_sealed_draws_are_logged_apart_and_keep_the_stream() -> None:
    plain, sealed = GameRng(8), GameRng(8)
    plain_values = [plain.roll(6), plain.randint(0, 40), plain.roll(6)]
    first = sealed.roll(6)
    with sealed.sealed():
        secret = sealed.randint(0, 40)
    last = sealed.roll(6)
    assert [first, secret, last] == plain_values  # the same stream: a replay makes the same draws
    assert sealed.draws == [plain.draws[0], plain.draws[2]]  # the secret is not among the listed draws
    assert sealed.sealed_draws == [plain.draws[1]]


def test_a_failing_block_still_seals_its_draws() -> None:
    rng = GameRng(3)
    with pytest.raises(ValueError), rng.sealed():
        rng.randint(0, 9)
        raise ValueError("the deal failed")
    assert rng.draws == [] and len(rng.sealed_draws) == 1
