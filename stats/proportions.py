"""Pooled two-proportion z-test on case outcomes (shown beside the paired test)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from scipy.special import ndtr

from stats import reasons
from stats._arrays import all_finite


@dataclass(frozen=True, slots=True)
class ZTestResult:
    """Candidate − baseline difference in proportions with its z statistic and p-value."""

    candidate_rate: float
    baseline_rate: float
    delta: float
    z: float
    p_value: float
    reason: str | None = None


def two_proportion_ztest(
    candidate_successes: int, candidate_n: int, baseline_successes: int, baseline_n: int
) -> ZTestResult:
    """Pooled two-proportion z-test, two-sided.

    p̄ = (x₁ + x₂)/(n₁ + n₂), z = (p̂₁ − p̂₂) / √(p̄(1 − p̄)(1/n₁ + 1/n₂)), p = 2·Φ(−|z|)
    (e.g. Agresti 2013, Categorical Data Analysis, §3.1; statsmodels `proportions_ztest`).
    Either side empty, or both sides all-pass or all-fail (p̄ ∈ {0, 1}), gives p = 1
    with a reason; a NaN or infinite count gives p = 1 with reason NON_FINITE_INPUT.
    """
    counts = (candidate_successes, candidate_n, baseline_successes, baseline_n)
    if not all_finite(*counts):
        return ZTestResult(0.0, 0.0, 0.0, 0.0, 1.0, reasons.NON_FINITE_INPUT)
    for successes, n in ((candidate_successes, candidate_n), (baseline_successes, baseline_n)):
        if n < 0 or successes < 0 or successes > n:
            raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if candidate_n == 0 or baseline_n == 0:
        rate1 = candidate_successes / candidate_n if candidate_n else 0.0
        rate2 = baseline_successes / baseline_n if baseline_n else 0.0
        return ZTestResult(rate1, rate2, 0.0, 0.0, 1.0, reasons.NO_CASES)
    rate1 = candidate_successes / candidate_n
    rate2 = baseline_successes / baseline_n
    pooled = (candidate_successes + baseline_successes) / (candidate_n + baseline_n)
    if pooled in (0.0, 1.0):
        reason = reasons.ALL_PASS if pooled == 1.0 else reasons.ALL_FAIL
        return ZTestResult(rate1, rate2, 0.0, 0.0, 1.0, reason)
    se = math.sqrt(pooled * (1.0 - pooled) * (1.0 / candidate_n + 1.0 / baseline_n))
    z = (rate1 - rate2) / se
    p_value = min(1.0, 2.0 * float(ndtr(-abs(z))))
    return ZTestResult(float(rate1), float(rate2), float(rate1 - rate2), float(z), p_value)
