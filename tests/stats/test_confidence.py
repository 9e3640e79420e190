"""Scorecard.confidence rows: interval, MDE and adequacy per cohort."""

from __future__ import annotations

import numpy as np
import pytest
from statsmodels.stats.proportion import proportion_confint

from stats import reasons
from stats.confidence import cohort_confidence
from stats.trials import CohortTrials


def test_one_trial_cohort() -> None:
    passed = np.array([1] * 30 + [0] * 10)
    result = cohort_confidence(CohortTrials.of(passed, np.ones(40, dtype=int), 1))
    low, high = proportion_confint(30, 40, method="wilson")
    assert (result.pass_rate, result.n) == (0.75, 40)
    assert (result.low, result.high) == pytest.approx((low, high))
    assert result.adequacy == reasons.UNDERPOWERED
    assert 0.05 < result.mde < 1.0


def test_adequate_cohort() -> None:
    n = 5000
    passed = np.random.default_rng(0).binomial(3, 0.9, size=n)
    result = cohort_confidence(CohortTrials.of(passed, np.full(n, 3), 3))
    assert result.interval_method == reasons.CLUSTERED_CR1
    assert result.adequacy == reasons.ADEQUATE
    assert result.mde < 0.05


def test_insufficient_and_empty_cohorts() -> None:
    small = cohort_confidence(CohortTrials.of([1] * 5, [1] * 5, 1))
    assert small.adequacy == reasons.INSUFFICIENT
    empty = cohort_confidence(CohortTrials.of([], [], 3))
    assert (empty.n, empty.adequacy, empty.reason) == (0, reasons.INSUFFICIENT, reasons.NO_CASES)
    assert (empty.low, empty.high, empty.mde) == (0.0, 1.0, 1.0)
