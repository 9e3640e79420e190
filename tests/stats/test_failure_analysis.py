"""Failure analysis classes over all baselines (seed 000)."""

from __future__ import annotations

import pytest

from stats.failure_analysis import (
    AGREE,
    BOTH_WRONG,
    IMPROVED,
    INCOMPLETE,
    REGRESSED,
    failure_analysis,
    regressed_cases,
)
from stats.trials import CohortTrials


def test_classes_over_all_baselines() -> None:
    # cases:            0      1      2      3      4      5
    candidate = CohortTrials.of([3, 0, 3, 0, 2, 0], [3, 3, 3, 3, 3, 0], 3)
    first = CohortTrials.of([3, 3, 0, 0, 3, 0], [3, 3, 3, 3, 3, 3], 3)
    second = CohortTrials.of([3, 0, 3, 0, 0, 0], [3, 3, 3, 3, 3, 3], 3)
    result = failure_analysis(candidate, [first, second])
    assert result.classifications == (AGREE, REGRESSED, IMPROVED, BOTH_WRONG, IMPROVED, INCOMPLETE)
    assert (result.improved, result.regressed, result.both_wrong, result.agree) == (2, 1, 1, 1)
    assert result.incomplete == 1
    assert regressed_cases(candidate, first) == (1,)
    assert regressed_cases(candidate, second) == ()


def test_no_cases() -> None:
    empty = CohortTrials.of([], [], 3)
    result = failure_analysis(empty, [empty])
    assert (result.improved, result.regressed, result.both_wrong, result.agree) == (0, 0, 0, 0)


def test_mismatched_cases_raise() -> None:
    with pytest.raises(ValueError):
        failure_analysis(CohortTrials.of([1], [1], 1), [CohortTrials.of([1, 0], [1, 1], 1)])
