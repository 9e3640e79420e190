"""Case-resampled BCa bootstrap against `scipy.stats.bootstrap`, and its fallbacks.

Tolerance: both intervals are Monte Carlo estimates from 9,999 resamples; each
endpoint's resampling SD is about 0.03 standard errors of the mean, so the two
agree within 0.2 SE (over 4 SDs of their difference).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from stats import reasons
from stats.bootstrap import (
    bootstrap_mean_interval,
    case_resamples,
    delta_interval,
    tagged_resamples,
)
from stats.permutation import PAIRED_T_MIN_CASES


def _scipy_bca(data: np.ndarray) -> tuple[float, float]:
    result = scipy_stats.bootstrap(
        (data,), np.mean, n_resamples=9_999, method="BCa", rng=np.random.default_rng(99)
    )
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


@pytest.mark.parametrize(
    "data",
    [
        np.random.default_rng(1).exponential(1.0, size=40),
        np.random.default_rng(2).normal(0.1, 1.0, size=300),
        np.random.default_rng(3).integers(-5, 6, size=80) / 5,
    ],
    ids=["skewed", "normal", "trial-grid"],
)
def test_bca_matches_scipy_within_tolerance(data: np.ndarray) -> None:
    interval = bootstrap_mean_interval(data, seed=7)
    low, high = _scipy_bca(data)
    se = data.std(ddof=1) / np.sqrt(len(data))
    assert interval.method == reasons.BOOTSTRAP_BCA
    assert abs(interval.low - low) < 0.2 * se
    assert abs(interval.high - high) < 0.2 * se
    assert interval.estimate == pytest.approx(data.mean())


@pytest.mark.parametrize("scale", [1e-13, 1e-9, 1e13])
def test_bca_tie_tolerance_is_relative_to_the_data(scale: float) -> None:
    data = np.random.default_rng(1).exponential(1.0, size=40)
    scaled = data * scale
    interval = bootstrap_mean_interval(scaled, seed=7)
    low, high = _scipy_bca(scaled)
    se = scaled.std(ddof=1) / np.sqrt(len(scaled))
    assert interval.method == reasons.BOOTSTRAP_BCA
    assert abs(interval.low - low) < 0.2 * se
    assert abs(interval.high - high) < 0.2 * se
    # The same seed draws the same resamples, so the interval scales with the data.
    unscaled = bootstrap_mean_interval(data, seed=7)
    assert interval.low == pytest.approx(unscaled.low * scale, rel=1e-9)
    assert interval.high == pytest.approx(unscaled.high * scale, rel=1e-9)


def test_bca_corrects_for_skew() -> None:
    data = np.random.default_rng(4).exponential(1.0, size=40)
    interval = bootstrap_mean_interval(data)
    # Right skew: the upper arm is longer than the lower one.
    assert interval.high - interval.estimate > interval.estimate - interval.low


def test_percentile_fallback_when_bca_degenerates() -> None:
    data = np.arange(20, dtype=float)
    interval = bootstrap_mean_interval(data, resamples=1, seed=0)
    assert interval.method == reasons.BOOTSTRAP_PERCENTILE
    assert interval.reason == reasons.BCA_DEGENERATE
    assert interval.low == interval.high


@pytest.mark.parametrize(
    ("values", "reason"),
    [([], reasons.NO_CASES), ([0.3], reasons.ONE_CASE), ([0.2] * 25, reasons.ZERO_VARIANCE)],
)
def test_degenerate_inputs(values: list[float], reason: str) -> None:
    interval = bootstrap_mean_interval(values, bounds=(-1.0, 1.0))
    assert interval.reason == reason
    assert all(np.isfinite([interval.estimate, interval.low, interval.high]))


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("size", [5, 30])
def test_non_finite_values_give_the_no_case_answer(bad: float, size: int) -> None:
    values = [0.1 * i for i in range(size - 1)] + [bad]
    for interval in (
        bootstrap_mean_interval(values, bounds=(-1.0, 1.0)),
        delta_interval(values, bounds=(-1.0, 1.0)),
    ):
        assert (interval.estimate, interval.low, interval.high, interval.n) == (0.0, -1.0, 1.0, 0)
        assert interval.reason == reasons.NON_FINITE_INPUT
    unbounded = delta_interval(values)
    assert (unbounded.low, unbounded.high, unbounded.reason) == (0.0, 0.0, reasons.NON_FINITE_INPUT)


def test_seeded() -> None:
    data = np.random.default_rng(6).normal(size=50)
    assert bootstrap_mean_interval(data, seed=3) == bootstrap_mean_interval(data, seed=3)


def test_delta_interval_chooses_t_under_twenty_cases() -> None:
    data = np.random.default_rng(0).normal(size=19)
    interval = delta_interval(data)
    low, high = scipy_stats.t.interval(0.95, 18, loc=data.mean(), scale=scipy_stats.sem(data))
    assert interval.method == reasons.T_INTERVAL
    assert (interval.low, interval.high) == pytest.approx((low, high))


def test_delta_interval_bootstraps_from_twenty_cases_and_clips() -> None:
    data = np.array([1.0] * 19 + [0.0])
    interval = delta_interval(data, bounds=(-1.0, 1.0))
    assert interval.method in (reasons.BOOTSTRAP_BCA, reasons.BOOTSTRAP_PERCENTILE)
    assert interval.high <= 1.0
    assert interval.low < 0.95


def test_delta_interval_uses_t_for_very_large_continuous_samples() -> None:
    data = np.random.default_rng(1).normal(size=PAIRED_T_MIN_CASES)
    assert delta_interval(data).method == reasons.T_INTERVAL


def test_large_samples_on_a_grid_still_bootstrap_quickly() -> None:
    rng = np.random.default_rng(2)
    data = (rng.binomial(5, 0.6, size=100_000) - rng.binomial(5, 0.6, size=100_000)) / 5
    interval = delta_interval(data)
    assert interval.method == reasons.BOOTSTRAP_BCA
    assert interval.low < data.mean() < interval.high


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(min_value=-5, max_value=5), min_size=20, max_size=60),
    st.integers(0, 5),
)
def test_swapping_sides_mirrors_the_interval(steps: list[int], seed: int) -> None:
    data = np.array(steps) / 5
    forward = bootstrap_mean_interval(data, resamples=999, seed=seed)
    backward = bootstrap_mean_interval(-data, resamples=999, seed=seed)
    assert backward.estimate == pytest.approx(-forward.estimate)
    assert backward.low == pytest.approx(-forward.high, abs=1e-12)
    assert backward.high == pytest.approx(-forward.low, abs=1e-12)


@pytest.mark.parametrize(
    "data",
    [
        np.random.default_rng(3).integers(-3, 4, size=90) / 3,
        np.random.default_rng(5).normal(size=300),
        np.zeros(25),
    ],
    ids=["trial-grid", "continuous", "all-ties"],
)
def test_case_resamples_are_the_bootstraps_case_draws(data: np.ndarray) -> None:
    """Each row draws n cases; every case is drawn once on average; the rows' means are the
    bootstrap's resample means, so the interval read off them is the bootstrap's."""
    counts = np.vstack(list(case_resamples(data, resamples=9_999, seed=12, block_elements=5_000)))
    n = len(data)
    assert counts.shape == (9_999, n)
    assert np.all(counts.sum(axis=1) == n)
    # Multinomial(n, 1/n): mean 1 and variance 1 − 1/n per case.
    assert np.abs(counts.mean(axis=0) - 1).max() < 5 * np.sqrt((1 - 1 / n) / 9_999)
    assert counts.var(axis=0).mean() == pytest.approx(1 - 1 / n, rel=0.05)
    if np.ptp(data) > 0:
        # BCa by hand on these means (Efron & Tibshirani 1993, §14.3) gives the interval.
        means = counts @ data / n
        estimate = data.mean()
        tol = 1e-12 * np.abs(data).max()
        share = (np.mean(means < estimate - tol) + np.mean(means <= estimate + tol)) / 2
        z0 = scipy_stats.norm.ppf(share)
        centred = data - estimate
        a = np.sum(centred**3) / (6 * np.sum(centred**2) ** 1.5)
        z = scipy_stats.norm.ppf([0.025, 0.975])
        levels = scipy_stats.norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z)))
        low, high = np.quantile(means, levels)
        interval = bootstrap_mean_interval(data, seed=12, resamples=9_999)
        assert interval.method == reasons.BOOTSTRAP_BCA
        assert interval.low == pytest.approx(low)
        assert interval.high == pytest.approx(high)


def test_case_resamples_with_no_cases_yield_nothing() -> None:
    assert list(case_resamples([], resamples=10, seed=0)) == []


def test_tagged_resamples_keep_the_value_draws_and_split_them_by_cell() -> None:
    """Cells of (value, tag): each row still draws n cases, the value totals are the
    bootstrap's (so the means of the values are its resample means), and a cell gets its
    share of its value's draws on average."""
    rng = np.random.default_rng(4)
    values = rng.integers(-2, 3, size=60) / 2
    tags = rng.integers(0, 3, size=60).astype(float)
    cell_tags, blocks = tagged_resamples(values, tags, resamples=4_000, seed=9)
    counts = np.vstack(list(blocks))
    assert counts.shape == (4_000, len(cell_tags))
    assert np.all(counts.sum(axis=1) == 60)
    per_case = np.vstack(list(case_resamples(values, resamples=4_000, seed=9)))
    # The same value totals as the case-level rows (the same first stream of the seed).
    cell_values = np.concatenate(
        [np.full(len(np.unique(tags[values == v])), v) for v in pd_unique_in_order(values)]
    )
    assert np.allclose(counts @ cell_values, per_case @ values)
    # Expected draws of a cell: its cases, once each on average.
    sizes = np.concatenate(
        [np.unique(tags[values == v], return_counts=True)[1] for v in pd_unique_in_order(values)]
    )
    assert np.all(np.abs(counts.mean(axis=0) - sizes) < 5 * np.sqrt(sizes / 4_000) + 0.05)


def pd_unique_in_order(values: np.ndarray) -> list[float]:
    """Distinct values in order of first occurrence."""
    seen: list[float] = []
    for value in values:
        if value not in seen:
            seen.append(float(value))
    return seen
