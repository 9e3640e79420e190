"""Metric deltas with intervals and the highVariance flag (seed 004)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as scipy_stats

from stats import reasons
from stats.metric_deltas import metric_delta


def test_small_sample_uses_t_interval() -> None:
    baseline = np.array([1200.0, 900.0, 1500.0, 1100.0, 1000.0])
    candidate = np.array([1000.0, 850.0, 1300.0, 1000.0, 990.0])
    result = metric_delta(candidate, baseline)
    differences = candidate - baseline
    low, high = scipy_stats.t.interval(
        0.95, 4, loc=differences.mean(), scale=scipy_stats.sem(differences)
    )
    assert result.delta == pytest.approx(-112.0)
    assert (result.low, result.high) == pytest.approx((low, high))
    assert result.baseline_mean == pytest.approx(1140.0)
    assert not result.high_variance
    assert 0.0 <= result.p_value <= 1.0


def test_high_variance_when_sd_of_differences_exceeds_baseline_mean() -> None:
    baseline = np.array([1.0, 0.0, 1.0, 0.0, 0.0, 1.0])
    candidate = np.array([4.0, 0.0, 0.0, 3.0, 0.0, 0.0])
    result = metric_delta(candidate, baseline)
    assert np.std(candidate - baseline, ddof=1) > 0.5
    assert result.high_variance


def test_missing_values_drop_the_pair() -> None:
    result = metric_delta([1.0, np.nan, 3.0], [1.0, 2.0, np.nan])
    assert result.n == 1
    assert result.reason == reasons.ONE_CASE


def test_no_pairs() -> None:
    result = metric_delta([], [])
    assert (result.n, result.delta, result.p_value, result.reason) == (
        0,
        0.0,
        1.0,
        reasons.NO_CASES,
    )


def test_identical_metrics() -> None:
    values = np.arange(40, dtype=float)
    result = metric_delta(values, values)
    assert (result.delta, result.low, result.high, result.p_value) == (0.0, 0.0, 0.0, 1.0)
    assert not result.high_variance


def test_large_sample_bootstraps() -> None:
    rng = np.random.default_rng(0)
    baseline = rng.poisson(8, size=200).astype(float)
    candidate = baseline + rng.poisson(1, size=200)
    result = metric_delta(candidate, baseline)
    assert result.interval_method == reasons.BOOTSTRAP_BCA
    assert 0 < result.low < result.delta < result.high
    assert result.p_value < 1e-6
