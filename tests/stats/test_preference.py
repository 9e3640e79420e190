"""Pairwise judging aggregation: both orders, ties on disagreement, five buckets (seed 004)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as scipy_stats

from stats import reasons
from stats.preference import combine_orders, pairwise_summary


@pytest.mark.parametrize(
    ("forward", "reverse", "score", "disagree"),
    [
        (1.0, 1.0, 1.0, False),
        (1.0, 0.4, 0.4, False),  # same winner, different magnitude: the smaller
        (-0.4, -1.0, -0.4, False),
        (1.0, -0.4, 0.0, True),  # different winners: tie
        (0.4, 0.0, 0.0, True),  # one order names no winner: tie
        (0.0, 0.0, 0.0, False),
    ],
)
def test_combine_orders(forward: float, reverse: float, score: float, disagree: bool) -> None:
    scores, disagreements = combine_orders([forward], [reverse])
    assert scores.tolist() == [score]
    assert disagreements.tolist() == [disagree]


def test_summary_literal_small_sample() -> None:
    case_ids = [0, 0, 1, 1, 2, 2, 3, 3]
    forward = [1.0, 0.4, 0.4, -0.4, 0.0, 1.0, -1.0, -1.0]
    reverse = [1.0, 1.0, 0.4, 0.4, 0.0, 1.0, -0.4, -1.0]
    result = pairwise_summary(case_ids, forward, reverse)
    case_scores = np.array([0.7, 0.2, 0.5, -0.7])
    assert result.mean_score == pytest.approx(case_scores.mean())
    assert (result.wins, result.ties, result.losses) == (4, 2, 2)
    assert result.win_rate == pytest.approx(4 / 8)
    assert result.disagreement_rate == pytest.approx(1 / 8)
    assert (result.judged_pairs, result.matched_pairs, result.n_cases) == (8, 8, 4)
    low, high = scipy_stats.t.interval(
        0.95, 3, loc=case_scores.mean(), scale=scipy_stats.sem(case_scores)
    )
    assert (result.low, result.high) == pytest.approx((max(low, -1.0), min(high, 1.0)))
    assert result.interval_method == reasons.T_INTERVAL
    expected_p = scipy_stats.permutation_test(
        (case_scores,),
        lambda x, axis: np.mean(x, axis=axis),
        permutation_type="samples",
        vectorized=True,
        n_resamples=np.inf,
    ).pvalue
    assert result.p_value == pytest.approx(expected_p)
    assert not result.regression


def test_mean_is_over_cases_not_pairs() -> None:
    result = pairwise_summary([0, 0, 0, 1], [1.0, 1.0, 1.0, -1.0], [1.0, 1.0, 1.0, -1.0])
    assert result.mean_score == 0.0
    assert result.win_rate == pytest.approx(3 / 4)


def test_regression_needs_the_whole_interval_below_zero() -> None:
    rng = np.random.default_rng(0)
    n = 60
    forward = rng.choice([-1.0, -0.4, 0.0], size=n, p=[0.5, 0.3, 0.2])
    result = pairwise_summary(np.arange(n), forward, forward)
    assert result.mean_score < 0
    assert result.high < 0
    assert result.regression
    assert result.interval_method == reasons.BOOTSTRAP_BCA
    assert result.p_method == reasons.EXACT_CONVOLUTION
    assert result.low >= -1.0


def test_partial_judging_counts_only_judged_pairs() -> None:
    result = pairwise_summary([0, 1, 2], [1.0, np.nan, 0.4], [1.0, 0.4, np.nan])
    assert (result.judged_pairs, result.matched_pairs, result.n_cases) == (1, 3, 1)
    assert result.reason == reasons.PARTIALLY_JUDGED


def test_no_judged_pairs() -> None:
    result = pairwise_summary([0, 1], [np.nan, np.nan], [1.0, np.nan])
    assert (result.mean_score, result.low, result.high, result.p_value) == (0.0, -1.0, 1.0, 1.0)
    assert result.reason == reasons.NO_JUDGED_PAIRS
    assert not result.regression
    empty = pairwise_summary([], [], [])
    assert (empty.matched_pairs, empty.reason) == (0, reasons.NO_JUDGED_PAIRS)


def test_all_ties() -> None:
    result = pairwise_summary(np.arange(30), np.zeros(30), np.zeros(30))
    assert (result.mean_score, result.p_value, result.tie_rate) == (0.0, 1.0, 1.0)
    assert result.reason == reasons.ZERO_VARIANCE


def test_one_case() -> None:
    result = pairwise_summary([0, 0], [1.0, 0.4], [1.0, 0.4])
    assert result.n_cases == 1
    assert (result.low, result.high) == (-1.0, 1.0)
    assert result.reason == reasons.ONE_CASE


def test_swapping_sides_negates_the_score() -> None:
    rng = np.random.default_rng(3)
    forward = rng.choice([-1.0, -0.4, 0.0, 0.4, 1.0], size=50)
    reverse = rng.choice([-1.0, -0.4, 0.0, 0.4, 1.0], size=50)
    ids = np.repeat(np.arange(25), 2)
    there = pairwise_summary(ids, forward, reverse)
    back = pairwise_summary(ids, -forward, -reverse)
    assert back.mean_score == pytest.approx(-there.mean_score)
    assert back.p_value == pytest.approx(there.p_value)
    assert (back.wins, back.losses) == (there.losses, there.wins)


def test_scores_outside_the_buckets_are_rejected() -> None:
    with pytest.raises(ValueError):
        pairwise_summary([0], [0.7], [1.0])
