"""pass^k, pass@k, flips, case outcomes and the cohort container."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stats import reasons
from stats.trials import (
    CohortTrials,
    case_outcomes,
    flips,
    pass_at_k,
    pass_fractions,
    pass_hat_k,
    trial_summary,
)


def test_pass_hat_k_literal() -> None:
    # τ-bench: C(c, k)/C(n, k). Cases (c, n) = (3, 3), (2, 3), (3, 4) with k = 2:
    # 3/3, 1/3 and 3/6.
    passed, completed = np.array([3, 2, 3]), np.array([3, 3, 4])
    assert pass_hat_k(passed, completed, 2) == pytest.approx((1 + 1 / 3 + 0.5) / 3)


def test_pass_at_k_literal() -> None:
    # Chen et al.: 1 − C(n − c, k)/C(n, k). (1, 4), k = 2: 1 − 3/6; (0, 3): 0; (3, 3): 1.
    passed, completed = np.array([1, 0, 3]), np.array([4, 3, 3])
    assert pass_at_k(passed, completed, 2) == pytest.approx((0.5 + 0.0 + 1.0) / 3)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 10), st.integers(0, 10)), min_size=1, max_size=20),
    st.integers(1, 10),
)
def test_against_math_comb(cases: list[tuple[int, int]], k: int) -> None:
    pairs = [(min(a, b), max(a, b)) for a, b in cases]
    passed = np.array([c for c, _ in pairs])
    completed = np.array([n for _, n in pairs])
    eligible = [(c, n) for c, n in pairs if n >= k]
    hat = [comb(c, k) / comb(n, k) for c, n in eligible]
    at = [1 - comb(n - c, k) / comb(n, k) for c, n in eligible]
    assert pass_hat_k(passed, completed, k) == pytest.approx(np.mean(hat) if hat else 0.0)
    assert pass_at_k(passed, completed, k) == pytest.approx(np.mean(at) if at else 0.0)
    hat_k, at_k = pass_hat_k(passed, completed, k), pass_at_k(passed, completed, k)
    assert 0.0 <= hat_k <= at_k + 1e-12
    assert at_k <= 1.0


def test_flips_count_cases_whose_trials_disagree() -> None:
    assert flips([0, 1, 3, 2, 0], [3, 3, 3, 2, 0]) == 1


def test_case_outcome_needs_more_than_half() -> None:
    outcomes = case_outcomes([2, 1, 2, 0, 1], [3, 2, 4, 0, 1])
    assert outcomes.tolist() == [True, False, False, False, True]


def test_pass_fractions_skip_cases_without_completed_trials() -> None:
    assert pass_fractions([1, 0, 2], [2, 0, 4]).tolist() == [0.5, 0.5]


def test_trial_summary() -> None:
    trials = CohortTrials.of([3, 1, 0, 2], [3, 3, 3, 2], scheduled=3)
    summary = trial_summary(trials)
    assert summary.k == 3
    assert summary.pass_hat_k == pytest.approx(1 / 3)
    assert summary.pass_at_k == pytest.approx(2 / 3)
    assert summary.flips == 1
    assert summary.failed_or_missing_trials == 1
    assert summary.n == 3
    assert summary.reason == reasons.INCOMPLETE_CASES_EXCLUDED


def test_trial_summary_without_cases() -> None:
    summary = trial_summary(CohortTrials.of([], [], scheduled=3))
    assert (summary.pass_hat_k, summary.pass_at_k, summary.flips, summary.reason) == (
        0.0,
        0.0,
        0,
        reasons.NO_CASES,
    )


def test_all_pass_and_all_fail() -> None:
    all_pass = trial_summary(CohortTrials.of([3] * 5, [3] * 5))
    all_fail = trial_summary(CohortTrials.of([0] * 5, [3] * 5))
    assert (all_pass.pass_hat_k, all_pass.pass_at_k, all_pass.flips) == (1.0, 1.0, 0)
    assert (all_fail.pass_hat_k, all_fail.pass_at_k, all_fail.flips) == (0.0, 0.0, 0)


@pytest.mark.parametrize(
    ("passed", "completed", "scheduled"),
    [([2], [1], 3), ([1], [4], 3), ([-1], [1], 3), ([1, 1], [1], 3), ([0], [0], 0)],
)
def test_cohort_trials_validation(passed: list[int], completed: list[int], scheduled: int) -> None:
    with pytest.raises(ValueError):
        CohortTrials.of(passed, completed, scheduled)


def test_cohort_trials_defaults_scheduled_to_largest_completed() -> None:
    trials = CohortTrials.of([1, 2], [2, 3])
    assert trials.scheduled == 3
    assert len(trials) == 2
    assert trials.failed_or_missing == 1


def test_relations_compare_pass_fractions_exactly() -> None:
    from stats.trials import relations

    candidate = CohortTrials.of([1, 2, 0, 3, 1], [3, 3, 0, 3, 2], 3)
    baseline = CohortTrials.of([2, 2, 1, 3, 2], [3, 3, 3, 3, 3], 3)
    # 1/3 < 2/3 worse; equal; no completed trial → same; equal; 1/2 < 2/3 worse.
    assert list(relations(candidate, baseline)) == [-1, 0, 0, 0, -1]
    assert list(relations(baseline, candidate)) == [1, 0, 0, 0, 1]
