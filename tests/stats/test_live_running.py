"""The running betting sequence (stats/live/running.py): fed block by block, it gives the
bounds of the sequence computed over every observation at once, bit for bit, in memory
that does not grow with the observations, and the live decision read off it is the one
read off the values."""

from __future__ import annotations

import numpy as np
import pytest

from stats.decision.live import LiveArm, decide_live
from stats.decision.policy import ShipPolicy
from stats.live.means import difference_sequence
from stats.live.running import RunningBets, RunningDifference, carried_sums
from stats.sequential import betting_cs
from tests.stats.betting_reference import reference_betting_cs


def _fed(values: np.ndarray, alpha: float, rng: np.random.Generator, most: int) -> RunningBets:
    bets = RunningBets(alpha)
    start = 0
    while start < values.size:
        size = int(rng.integers(1, most))
        bets.extend(values[start : start + size])
        start += size
    return bets


@pytest.mark.parametrize("seed", range(6))
def test_fed_in_blocks_it_is_the_whole_sequence_bit_for_bit(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 6_000))
    if seed % 2:
        values = rng.uniform(-1.0, 1.0, n)
    else:  # matched pass/fail differences, as a live comparison's quality
        values = (rng.random(n) < 0.9).astype(float) - (rng.random(n) < 0.85).astype(float)
    low, high = betting_cs(values, 0.1)
    bets = _fed(values, 0.1, rng, most=700)
    got_low, got_high = bets.bounds(np.arange(n))
    assert np.array_equal(got_low, low) and np.array_equal(got_high, high)
    assert bets.last() == (low[-1], high[-1])


def test_it_matches_the_plain_loop() -> None:
    rng = np.random.default_rng(11)
    values = rng.choice([-1.0, 0.0, 0.0, 1.0], size=400, p=[0.1, 0.4, 0.4, 0.1])
    want_low, want_high = reference_betting_cs(values.tolist(), 0.05, grid_points=201)
    bets = RunningBets(0.05, grid_points=201)
    for start in range(0, 400, 37):
        bets.extend(values[start : start + 37])
    low, high = bets.bounds(np.arange(400))
    np.testing.assert_allclose(low, want_low, atol=1e-12)
    np.testing.assert_allclose(high, want_high, atol=1e-12)


def test_its_memory_does_not_grow_with_the_observations() -> None:
    rng = np.random.default_rng(3)

    def held(bets: RunningBets) -> int:
        return sum(getattr(bets, name).nbytes for name in ("first", "_in", "_up", "_down"))

    bets = RunningBets(0.1)
    bets.extend(rng.uniform(-1, 1, 1_000))
    early = held(bets)
    for _ in range(100):
        bets.extend(rng.uniform(-1, 1, 1_000))
    assert bets.count == 101_000
    assert held(bets) <= early


def test_before_any_observation_the_bounds_are_the_whole_range() -> None:
    bets = RunningBets(0.1)
    bets.extend([])
    assert bets.last() == (-1.0, 1.0)
    with pytest.raises(ValueError):
        bets.extend([1.5])
    with pytest.raises(ValueError):
        RunningBets(0.0)


def test_the_running_difference_reads_as_the_difference_sequence() -> None:
    rng = np.random.default_rng(4)
    cand = (rng.random(3_000) < 0.7).astype(float)
    base = (rng.random(3_000) < 0.8).astype(float)
    want = difference_sequence(cand, base, 0.1)
    differences = cand - base
    bets = _fed(differences, 0.1, rng, most=500)
    head = carried_sums(0.0, differences[:1_234])
    sums = np.concatenate([head, carried_sums(float(head[-1]), differences[1_234:])])
    seq = RunningDifference(bets, sums)
    picks = np.array([0, 17, 999, 2_999])
    for got, expected in zip(seq.at(picks), want.at(picks), strict=True):
        assert np.array_equal(got, expected)
    assert seq.last() == want.last() and seq.pairs == want.pairs
    only_last = RunningDifference(bets, sums[-1:])
    assert only_last.last() == want.last()
    with pytest.raises(ValueError):
        only_last.at(picks)
    with pytest.raises(ValueError):
        RunningDifference(bets, sums[:0])


def test_running_sums_carried_over_blocks_are_the_whole_cumsum() -> None:
    values = np.random.default_rng(8).uniform(-1.0, 1.0, 5_000)
    carried, parts = 0.0, []
    for start in range(0, values.size, 333):
        part = carried_sums(carried, values[start : start + 333])
        parts.append(part)
        carried = float(part[-1])
    assert np.array_equal(np.concatenate(parts), np.cumsum(values))


@pytest.mark.parametrize(
    ("cand_rate", "base_rate", "errors", "margin"),
    [(0.9, 0.9, 0.01, 0.1), (0.6, 0.9, 0.0, 1.0), (0.93, 0.9, 0.02, 2.0), (0.9, 0.9, 0.2, 5.0)],
)
def test_the_decision_off_the_running_sequences_is_the_one_off_the_values(
    cand_rate: float, base_rate: float, errors: float, margin: float
) -> None:
    rng = np.random.default_rng(7)
    policy = ShipPolicy(quality_margin_points=margin)
    cand = LiveArm(
        "v2",
        quality=(rng.random(2_500) < cand_rate).astype(float),
        errors=(rng.random(2_600) < errors).astype(float),
    )
    base = LiveArm(
        "v1",
        quality=(rng.random(2_400) < base_rate).astype(float),
        errors=(rng.random(2_500) < 0.01).astype(float),
    )
    running = []
    for mine, theirs in ((cand.quality, base.quality), (cand.errors, base.errors)):
        pairs = min(mine.size, theirs.size)
        differences = mine[:pairs] - theirs[:pairs]
        bets = _fed(differences, 2 * policy.alpha, rng, 600)
        running.append(RunningDifference(bets, np.cumsum(differences)))
    want, want_sequences = decide_live(cand, [base], policy)
    got, got_sequences = decide_live(cand, [base], policy, running=[(running[0], running[1])])
    assert got == want
    assert got_sequences[0].last() == want_sequences[0].last()
