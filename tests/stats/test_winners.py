"""Metric winners with ties, and the overall winner's vote (seed 000)."""

from __future__ import annotations

import numpy as np
import pytest

from stats import reasons
from stats.trials import CohortTrials
from stats.winners import metric_winners, overall_winner, pass_rate_winners


def test_clear_single_winner() -> None:
    rng = np.random.default_rng(0)
    base = rng.normal(10.0, 1.0, size=80)
    values = np.column_stack([base + 2.0, base, base + rng.normal(0.0, 0.1, size=80)])
    result = metric_winners(values, higher_is_better=True)
    assert result.best == 0
    assert result.winners == (0,)
    assert result.adjusted_p_values[0] is None
    assert all(p is not None and p < 0.05 for p in result.adjusted_p_values[1:])


def test_not_significantly_different_cohorts_tie() -> None:
    rng = np.random.default_rng(1)
    base = rng.normal(100.0, 10.0, size=40)
    values = np.column_stack([base + rng.normal(0, 1, 40), base + rng.normal(0, 1, 40), base - 30])
    result = metric_winners(values, higher_is_better=True)
    assert result.winners == (0, 1)


def test_lower_is_better() -> None:
    values = np.column_stack([np.full(30, 5.0), np.full(30, 3.0)])
    values[:, 1] += np.linspace(-0.1, 0.1, 30)
    result = metric_winners(values, higher_is_better=False)
    assert (result.best, result.winners) == (1, (1,))


def test_missing_values_and_missing_cohort() -> None:
    values = np.array([[1.0, np.nan, np.nan], [2.0, 1.0, np.nan], [3.0, 2.0, np.nan]])
    result = metric_winners(values, higher_is_better=True)
    assert result.values == (2.0, 1.5, None)
    assert result.best == 0
    assert 2 not in result.winners
    assert result.reason == reasons.NO_CASES


def test_no_values_at_all() -> None:
    result = metric_winners(np.full((3, 2), np.nan), higher_is_better=True)
    assert (result.best, result.winners, result.reason) == (None, (), reasons.NO_CASES)


def test_equal_values_all_win() -> None:
    result = metric_winners(np.ones((25, 3)), higher_is_better=True)
    assert result.winners == (0, 1, 2)


def test_pass_rate_winners_use_the_paired_test() -> None:
    rng = np.random.default_rng(2)
    strong = CohortTrials.of(rng.binomial(3, 0.9, 150), np.full(150, 3), 3)
    weak = CohortTrials.of(rng.binomial(3, 0.5, 150), np.full(150, 3), 3)
    result = pass_rate_winners([weak, strong, strong])
    assert result.best == 1
    assert result.winners == (1, 2)
    assert result.adjusted_p_values[0] is not None
    assert result.adjusted_p_values[0] < 1e-6


@pytest.mark.parametrize(
    ("rows", "cohort", "votes", "reason"),
    [
        ([(0,), (0,), (1,), (0, 1)], 0, (2, 1), None),
        ([(0,), (1,), (0, 1)], None, (1, 1), reasons.TIED_VOTES),
        ([(0, 1), ()], None, (0, 0), reasons.NO_VOTES),
    ],
)
def test_overall_winner(
    rows: list[tuple[int, ...]], cohort: int | None, votes: tuple[int, ...], reason: str | None
) -> None:
    result = overall_winner(rows, 2)
    assert (result.cohort, result.votes, result.reason) == (cohort, votes, reason)


def test_matrix_shape_is_checked() -> None:
    with pytest.raises(ValueError):
        metric_winners(np.ones(4), higher_is_better=True)
