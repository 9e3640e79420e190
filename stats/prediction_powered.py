"""Δ corrected for judge error with human labels: prediction-powered inference.

Angelopoulos, Bates, Fannjiang, Jordan & Zrnic 2023, "Prediction-powered inference",
Science 382:669. The judge grades every trial; humans label a simple random sample of
them (the review queue). The rectifier r = judge pass − human pass on a labelled trial
measures the judge's error; its mean in each cohort is subtracted from that cohort's
judged pass rate, so a judge lenient to one cohort no longer moves Δ.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from stats import reasons
from stats._arrays import all_finite, as_floats, clip, two_sided_z
from stats.intervals import Interval


def prediction_powered_delta(
    judge_differences: npt.ArrayLike,
    candidate_rectifiers: npt.ArrayLike,
    baseline_rectifiers: npt.ArrayLike,
    *,
    confidence: float = 0.95,
) -> Interval:
    """Corrected Δ (candidate − baseline) with its normal interval at `confidence`.

    `judge_differences` are the per-case judged pass-fraction differences (Δ_judge is
    their mean, Var(Δ_judge) = s²/n); the rectifiers are judge pass − human pass, one
    per labelled trial of each cohort. Δ̂ = Δ_judge − (r̄_c − r̄_b),
    Var = Var(Δ_judge) + s²(r_c)/n_c + s²(r_b)/n_b (sample variances, ddof 1),
    interval Δ̂ ± z·√Var clipped to [−1, 1]. `n` is the labels used.
    """
    differences = as_floats(judge_differences, "judge_differences")
    n_cases = len(differences)
    if n_cases < 2 or not all_finite(differences):
        reason = reasons.NON_FINITE_INPUT if n_cases >= 2 else _few_cases(n_cases)
        return Interval(0.0, -1.0, 1.0, 0, reasons.PREDICTION_POWERED, reason)
    judge_delta = float(differences.mean())
    judge_variance = float(differences.var(ddof=1)) / n_cases
    return prediction_powered_interval(
        judge_delta,
        judge_variance,
        candidate_rectifiers,
        baseline_rectifiers,
        confidence=confidence,
    )


def prediction_powered_interval(
    judge_delta: float,
    judge_variance: float,
    candidate_rectifiers: npt.ArrayLike,
    baseline_rectifiers: npt.ArrayLike,
    *,
    confidence: float = 0.95,
) -> Interval:
    """As `prediction_powered_delta`, from Δ_judge and its variance computed elsewhere.

    Fewer than 2 labels in a cohort leave its rectifier's variance unknown: the answer
    is then [−1, 1] around the judged Δ with reason TOO_FEW_LABELS.
    """
    candidate = as_floats(candidate_rectifiers, "candidate_rectifiers")
    baseline = as_floats(baseline_rectifiers, "baseline_rectifiers")
    labels = len(candidate) + len(baseline)
    if not all_finite(judge_delta, judge_variance, candidate, baseline):
        return Interval(
            0.0, -1.0, 1.0, labels, reasons.PREDICTION_POWERED, reasons.NON_FINITE_INPUT
        )
    if judge_variance < 0:
        raise ValueError(f"judge_variance must be >= 0, got {judge_variance}")
    for rectifiers in (candidate, baseline):
        if np.any(np.abs(rectifiers) > 1.0):
            raise ValueError("rectifiers (judge pass - human pass) must lie in [-1, 1]")
    if len(candidate) < 2 or len(baseline) < 2:
        estimate = clip(judge_delta, -1.0, 1.0)
        return Interval(
            estimate, -1.0, 1.0, labels, reasons.PREDICTION_POWERED, reasons.TOO_FEW_LABELS
        )
    estimate = judge_delta - (float(candidate.mean()) - float(baseline.mean()))
    variance = (
        judge_variance
        + float(candidate.var(ddof=1)) / len(candidate)
        + float(baseline.var(ddof=1)) / len(baseline)
    )
    half = two_sided_z(confidence) * math.sqrt(variance)
    estimate = clip(estimate, -1.0, 1.0)
    low = min(clip(estimate - half, -1.0, 1.0), estimate)
    high = max(clip(estimate + half, -1.0, 1.0), estimate)
    reason = reasons.ZERO_VARIANCE if variance == 0.0 else None
    return Interval(estimate, low, high, labels, reasons.PREDICTION_POWERED, reason)


def _few_cases(n_cases: int) -> str:
    return reasons.NO_CASES if n_cases == 0 else reasons.ONE_CASE
