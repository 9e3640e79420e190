"""Metric winners with ties, and the overall winner (seed 000; docs/statistics.md)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from stats import reasons
from stats.gate import DEFAULT_ALPHA, paired_test
from stats.multiplicity import holm
from stats.permutation import sign_flip_test
from stats.trials import CohortTrials


@dataclass(frozen=True, slots=True)
class MetricWinners:
    """Per-cohort values, the winners (best plus every cohort not significantly worse).

    `adjusted_p_values[j]` is cohort j's Holm-adjusted p against the best cohort
    (None for the best itself and for cohorts without a value).
    """

    values: tuple[float | None, ...]
    winners: tuple[int, ...]
    best: int | None
    adjusted_p_values: tuple[float | None, ...]
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class OverallWinner:
    """The cohort with most sole wins; None on a tie or when no row had a sole winner."""

    cohort: int | None
    votes: tuple[int, ...]
    reason: str | None = None


def metric_winners(
    values: npt.ArrayLike,
    *,
    higher_is_better: bool,
    alpha: float = DEFAULT_ALPHA,
    seed: int = 0,
) -> MetricWinners:
    """Winners of one metric from a cases × cohorts matrix of per-case values (NaN: missing).

    A cohort's value is the mean of its present cases. The best cohort wins, and so
    does every cohort whose paired difference from it (on the cases both have) is not
    significant by the sign-flip permutation test after Holm adjustment across the
    comparisons with the best (`stats.permutation`, `stats.multiplicity`).
    """
    matrix = np.asarray(values, dtype=np.float64)
    if matrix.ndim != 2:
        raise ValueError(f"values must be cases × cohorts, got shape {matrix.shape}")
    present = np.isfinite(matrix)
    counts = present.sum(axis=0)
    sums = np.where(present, matrix, 0.0).sum(axis=0)
    means = [float(s / c) if c else None for s, c in zip(sums, counts, strict=True)]

    def compare(best: int, other: int) -> float:
        both = present[:, best] & present[:, other]
        return sign_flip_test(matrix[both, best] - matrix[both, other], seed=seed).p_value

    return _winners(means, higher_is_better, alpha, compare)


def pass_rate_winners(
    cohorts: Sequence[CohortTrials], *, alpha: float = DEFAULT_ALPHA, seed: int = 0
) -> MetricWinners:
    """Pass-rate winners: the best rate plus every cohort the paired test cannot separate.

    Rates are over each cohort's cases with a completed trial; the comparison with the
    best uses `stats.gate.paired_test` (McNemar mid-p or sign-flip), Holm-adjusted.
    """
    means: list[float | None] = []
    for cohort in cohorts:
        used = cohort.completed > 0
        fractions = cohort.passed[used] / cohort.completed[used]
        means.append(float(fractions.mean()) if len(fractions) else None)

    def compare(best: int, other: int) -> float:
        return paired_test(cohorts[best], cohorts[other], seed=seed).p_value

    return _winners(means, True, alpha, compare)


def overall_winner(winner_rows: Sequence[Sequence[int]], n_cohorts: int) -> OverallWinner:
    """Each metric row with exactly one winner casts a vote for it; tied rows cast none.

    The cohort with most votes wins (seed 000); a tie for most votes gives None with
    reason TIED_VOTES, no votes at all None with reason NO_VOTES.
    """
    votes = [0] * n_cohorts
    for row in winner_rows:
        if len(row) == 1:
            votes[row[0]] += 1
    most = max(votes, default=0)
    if most == 0:
        return OverallWinner(None, tuple(votes), reasons.NO_VOTES)
    leaders = [index for index, count in enumerate(votes) if count == most]
    if len(leaders) > 1:
        return OverallWinner(None, tuple(votes), reasons.TIED_VOTES)
    return OverallWinner(leaders[0], tuple(votes))


def _winners(
    means: list[float | None],
    higher_is_better: bool,
    alpha: float,
    compare: Callable[[int, int], float],
) -> MetricWinners:
    """Best by value (first on equal values); winners are those Holm cannot separate."""
    scored = [index for index, mean in enumerate(means) if mean is not None]
    if not scored:
        return MetricWinners(tuple(means), (), None, (None,) * len(means), reasons.NO_CASES)
    sign = 1.0 if higher_is_better else -1.0
    best = max(scored, key=lambda index: (sign * _value(means[index]), -index))
    others = [index for index in scored if index != best]
    adjusted = holm([compare(best, other) for other in others])
    p_values: list[float | None] = [None] * len(means)
    for other, p_value in zip(others, adjusted, strict=True):
        p_values[other] = p_value
    winners = [best] + [other for other in others if _value(p_values[other]) >= alpha]
    reason = reasons.NO_CASES if len(scored) < len(means) else None
    return MetricWinners(tuple(means), tuple(sorted(winners)), best, tuple(p_values), reason)


def _value(number: float | None) -> float:
    if number is None:
        raise ValueError("missing value")
    return number
