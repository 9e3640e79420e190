"""Wilson, clustered CR1 and t intervals against statsmodels/scipy, plus properties."""

from __future__ import annotations

import numpy as np
import pytest
import statsmodels.api as sm
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats
from statsmodels.stats.proportion import proportion_confint

from stats import reasons
from stats.intervals import clustered_interval, pass_rate_interval, t_interval, wilson_interval


@pytest.mark.parametrize(
    ("successes", "n"), [(0, 1), (1, 1), (0, 20), (20, 20), (7, 20), (1, 3), (512, 1000)]
)
def test_wilson_matches_statsmodels(successes: int, n: int) -> None:
    expected_low, expected_high = proportion_confint(successes, n, alpha=0.05, method="wilson")
    interval = wilson_interval(successes, n)
    assert interval.estimate == pytest.approx(successes / n)
    assert interval.low == pytest.approx(expected_low, abs=1e-12)
    assert interval.high == pytest.approx(expected_high, abs=1e-12)
    assert interval.method == reasons.WILSON


def test_wilson_literal_value() -> None:
    # 8 of 10 at 95%: Brown, Cai & DasGupta (2001) Wilson interval [0.4902, 0.9433].
    interval = wilson_interval(8, 10)
    assert interval.low == pytest.approx(0.4902, abs=1e-4)
    assert interval.high == pytest.approx(0.9433, abs=1e-4)


def test_wilson_degenerate_inputs_have_reasons() -> None:
    empty = wilson_interval(0, 0)
    assert (empty.low, empty.high, empty.n, empty.reason) == (0.0, 1.0, 0, reasons.NO_CASES)
    assert wilson_interval(5, 5).reason == reasons.ALL_PASS
    assert wilson_interval(5, 5).high == 1.0
    assert wilson_interval(0, 5).reason == reasons.ALL_FAIL
    assert wilson_interval(0, 5).low == 0.0


def test_wilson_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError):
        wilson_interval(6, 5)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=1, max_value=5000), st.data())
def test_wilson_contains_estimate(n: int, data: st.DataObject) -> None:
    successes = data.draw(st.integers(min_value=0, max_value=n))
    interval = wilson_interval(successes, n)
    assert 0.0 <= interval.low <= interval.estimate <= interval.high <= 1.0


def _cluster_fit(passes: np.ndarray, trials: int) -> tuple[float, float, float]:
    outcomes = np.concatenate([[1.0] * p + [0.0] * (trials - p) for p in passes])
    groups = np.repeat(np.arange(len(passes)), trials)
    fit = sm.OLS(outcomes, np.ones((len(outcomes), 1))).fit(
        cov_type="cluster", cov_kwds={"groups": groups}
    )
    low, high = fit.conf_int(alpha=0.05)[0]
    return float(fit.bse[0]), float(low), float(high)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_clustered_interval_matches_statsmodels_cluster_se(seed: int) -> None:
    rng = np.random.default_rng(seed)
    trials = 5
    passes = rng.binomial(trials, rng.uniform(0.2, 0.9, size=40))
    se, expected_low, expected_high = _cluster_fit(passes, trials)
    interval = clustered_interval(passes / trials)
    assert interval.method == reasons.CLUSTERED_CR1
    assert (interval.high - interval.estimate) / 1.959963984540054 == pytest.approx(se, rel=1e-9)
    assert interval.low == pytest.approx(expected_low, rel=1e-9)
    assert interval.high == pytest.approx(expected_high, rel=1e-9)


def test_clustered_interval_is_clipped_to_unit_range() -> None:
    interval = clustered_interval([1.0] * 9 + [0.0])
    assert interval.high == 1.0
    assert interval.low < 0.9


@pytest.mark.parametrize(("value", "reason"), [(1.0, reasons.ALL_PASS), (0.0, reasons.ALL_FAIL)])
def test_clustered_zero_se_falls_back_to_wilson_on_cases(value: float, reason: str) -> None:
    interval = clustered_interval([value] * 30)
    low, high = proportion_confint(int(value * 30), 30, alpha=0.05, method="wilson")
    assert interval.method == reasons.WILSON_EFFECTIVE_N
    assert interval.reason == reason
    assert (interval.low, interval.high) == pytest.approx((low, high), abs=1e-12)


def test_clustered_equal_middle_fractions_fall_back_with_zero_variance() -> None:
    interval = clustered_interval([0.5] * 30)
    assert interval.reason == reasons.ZERO_VARIANCE
    assert interval.low < 0.5 < interval.high


def test_clustered_one_case_and_no_case() -> None:
    one = clustered_interval([2 / 3])
    assert one.reason == reasons.ONE_CASE
    assert one.low < 2 / 3 < one.high
    none = clustered_interval([])
    assert (none.n, none.reason, none.low, none.high) == (0, reasons.NO_CASES, 0.0, 1.0)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=5), min_size=1, max_size=60))
def test_clustered_interval_contains_estimate(passes: list[int]) -> None:
    interval = clustered_interval(np.array(passes) / 5)
    assert 0.0 <= interval.low <= interval.estimate <= interval.high <= 1.0


def test_pass_rate_interval_uses_wilson_for_one_trial_per_case() -> None:
    passed, completed = np.array([1, 0, 1, 1, 0, 1]), np.ones(6, dtype=int)
    interval = pass_rate_interval(passed, completed)
    low, high = proportion_confint(4, 6, alpha=0.05, method="wilson")
    assert interval.method == reasons.WILSON
    assert (interval.low, interval.high) == pytest.approx((low, high))


def test_pass_rate_interval_clusters_several_trials_and_skips_empty_cases() -> None:
    passed, completed = np.array([3, 1, 2, 0, 0]), np.array([3, 3, 2, 3, 0])
    interval = pass_rate_interval(passed, completed)
    assert interval.method == reasons.CLUSTERED_CR1
    assert interval.n == 4
    assert interval.estimate == pytest.approx(np.mean([1.0, 1 / 3, 1.0, 0.0]))


def test_pass_rate_interval_without_completed_trials() -> None:
    interval = pass_rate_interval([0, 0], [0, 0])
    assert interval.reason == reasons.NO_CASES
    assert interval.n == 0


def test_t_interval_matches_scipy() -> None:
    data = np.array([0.2, -0.4, 0.0, 0.6, 1.0, -0.2, 0.4])
    low, high = scipy_stats.t.interval(
        0.95, len(data) - 1, loc=data.mean(), scale=scipy_stats.sem(data)
    )
    interval = t_interval(data)
    assert (interval.low, interval.high) == pytest.approx((low, high), rel=1e-12)


def test_t_interval_degenerate_inputs() -> None:
    empty = t_interval([], bounds=(-1.0, 1.0))
    assert (empty.estimate, empty.low, empty.high, empty.reason) == (
        0.0,
        -1.0,
        1.0,
        reasons.NO_CASES,
    )
    one = t_interval([0.4], bounds=(-1.0, 1.0))
    assert (one.estimate, one.low, one.high, one.reason) == (0.4, -1.0, 1.0, reasons.ONE_CASE)
    flat = t_interval([0.25, 0.25, 0.25])
    assert (flat.low, flat.high, flat.reason) == (0.25, 0.25, reasons.ZERO_VARIANCE)
    assert t_interval([0.4]).low == 0.4


def test_t_interval_is_clipped_to_bounds() -> None:
    interval = t_interval([1.0, 1.0, -1.0], bounds=(-1.0, 1.0))
    assert interval.low == -1.0
    assert interval.high == 1.0


@settings(max_examples=150, deadline=None)
@given(st.lists(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), min_size=1, max_size=40))
def test_t_interval_contains_estimate(values: list[float]) -> None:
    interval = t_interval(values)
    assert interval.low <= interval.estimate <= interval.high
    assert all(np.isfinite([interval.low, interval.estimate, interval.high]))
