"""Confidence intervals for pass rates and means: Wilson, clustered CR1, Student t.

A case's pass fraction is passed ÷ completed trials; the pass rate is the mean of
those fractions over cases (docs/statistics.md). One trial per case gives a binomial
proportion (Wilson); several trials per case are clustered within the case (CR1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.special import stdtrit

from stats import reasons
from stats._arrays import all_finite, as_floats, as_ints, clip, same_length, two_sided_z


@dataclass(frozen=True, slots=True)
class Interval:
    """A point estimate with a two-sided interval; `reason` explains a degenerate one."""

    estimate: float
    low: float
    high: float
    n: int
    method: str
    reason: str | None = None


def wilson_interval(successes: float, n: int, *, confidence: float = 0.95) -> Interval:
    """Wilson score interval for a binomial proportion.

    centre = (p̂ + z²/2n) / (1 + z²/n), half-width = z·√(p̂(1−p̂)/n + z²/4n²) / (1 + z²/n)
    (Wilson 1927; recommended by Brown, Cai & DasGupta 2001, "Interval Estimation for a
    Binomial Proportion"). `successes` may be fractional (an effective count).
    n = 0 gives [0, 1] with reason NO_CASES; a NaN or infinite input the same [0, 1]
    with reason NON_FINITE_INPUT.
    """
    if not all_finite(successes, n):
        return Interval(0.0, 0.0, 1.0, 0, reasons.WILSON, reasons.NON_FINITE_INPUT)
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got successes={successes}, n={n}")
    if n == 0:
        return Interval(0.0, 0.0, 1.0, 0, reasons.WILSON, reasons.NO_CASES)
    z = two_sided_z(confidence)
    p = successes / n
    denominator = 1.0 + z * z / n
    centre = (p + z * z / (2.0 * n)) / denominator
    half = z * math.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n)) / denominator
    reason = reasons.ALL_PASS if p == 1.0 else reasons.ALL_FAIL if p == 0.0 else None
    # The interval contains p̂ exactly; min/max only absorb rounding at p̂ ∈ {0, 1}.
    low = min(clip(centre - half, 0.0, 1.0), p)
    high = max(clip(centre + half, 0.0, 1.0), p)
    return Interval(float(p), low, high, int(n), reasons.WILSON, reason)


def clustered_interval(fractions: npt.ArrayLike, *, confidence: float = 0.95) -> Interval:
    """CR1 cluster-robust interval for the mean of per-case pass fractions, clipped to [0, 1].

    SE = √(Σ(fᵢ − f̄)² / (n(n−1))), the CR1 sandwich variance of an intercept-only
    regression of trial outcomes clustered by case (Liang & Zeger 1986; small-sample
    factor G/(G−1); Miller 2024, "Adding Error Bars to Evals", §2.2); interval f̄ ± z·SE.
    When the SE is 0 (every case has the same fraction, or one case) the design effect
    is undefined; we take the conservative intra-case correlation of 1, i.e. an
    effective sample size of n cases, and return the Wilson interval on it.
    No cases give [0, 1] with reason NO_CASES; a NaN or infinite fraction the same
    with reason NON_FINITE_INPUT.
    """
    values = as_floats(fractions, "fractions")
    n = len(values)
    if n == 0 or not all_finite(values):
        reason = reasons.NO_CASES if n == 0 else reasons.NON_FINITE_INPUT
        return Interval(0.0, 0.0, 1.0, 0, reasons.CLUSTERED_CR1, reason)
    if np.any((values < 0.0) | (values > 1.0)):
        raise ValueError("pass fractions must lie in [0, 1]")
    mean = float(values.mean())
    if n == 1 or float(np.ptp(values)) == 0.0:
        fallback = wilson_interval(mean * n, n, confidence=confidence)
        reason = reasons.ONE_CASE if n == 1 else fallback.reason or reasons.ZERO_VARIANCE
        return Interval(mean, fallback.low, fallback.high, n, reasons.WILSON_EFFECTIVE_N, reason)
    se = math.sqrt(float(values.var(ddof=1)) / n)
    z = two_sided_z(confidence)
    low = min(clip(mean - z * se, 0.0, 1.0), mean)
    high = max(clip(mean + z * se, 0.0, 1.0), mean)
    return Interval(mean, low, high, n, reasons.CLUSTERED_CR1)


def pass_rate_interval(
    passed: npt.ArrayLike, completed: npt.ArrayLike, *, confidence: float = 0.95
) -> Interval:
    """Pass rate over cases with a completed trial, with its 95% interval (docs/statistics.md).

    One completed trial in every case: Wilson on the case outcomes. Otherwise the
    clustered CR1 interval on pass fractions (passed ÷ completed), Wilson fallback.
    """
    passes = as_ints(passed, "passed")
    trials = as_ints(completed, "completed")
    same_length(passes, trials)
    if np.any(passes < 0) or np.any(passes > trials):
        raise ValueError("need 0 <= passed <= completed for every case")
    used = trials > 0
    if not np.any(used):
        return Interval(0.0, 0.0, 1.0, 0, reasons.WILSON, reasons.NO_CASES)
    if np.all(trials[used] == 1):
        return wilson_interval(float(passes[used].sum()), int(used.sum()), confidence=confidence)
    return clustered_interval(passes[used] / trials[used], confidence=confidence)


def t_interval(
    values: npt.ArrayLike,
    *,
    confidence: float = 0.95,
    bounds: tuple[float, float] | None = None,
) -> Interval:
    """Student t interval for a mean: x̄ ± t₍₁₋α/2, n−1₎·s/√n (Student 1908).

    Used for Δ and pairwise scores under 20 cases (docs/statistics.md). With `bounds` the interval
    is clipped to them, and n < 2 (no spread to estimate) returns the bounds themselves;
    without bounds n < 2 returns the point. Zero spread returns the point with a reason.
    A NaN or infinite value gives the answer for no cases with reason NON_FINITE_INPUT.
    """
    data = as_floats(values)
    n = len(data)
    if n == 0 or not all_finite(data):
        low, high = bounds if bounds is not None else (0.0, 0.0)
        estimate = clip(0.0, low, high)
        reason = reasons.NO_CASES if n == 0 else reasons.NON_FINITE_INPUT
        return Interval(estimate, float(low), float(high), 0, reasons.T_INTERVAL, reason)
    mean = float(data.mean())
    if n == 1:
        low, high = bounds if bounds is not None else (mean, mean)
        return Interval(mean, float(low), float(high), 1, reasons.T_INTERVAL, reasons.ONE_CASE)
    if float(np.ptp(data)) == 0.0:
        return Interval(mean, mean, mean, n, reasons.T_INTERVAL, reasons.ZERO_VARIANCE)
    quantile = float(stdtrit(n - 1, 0.5 + confidence / 2.0))  # Student t's, by scipy.special
    half = quantile * float(data.std(ddof=1))
    half /= math.sqrt(n)
    low, high = mean - half, mean + half
    if bounds is not None:
        low, high = clip(low, *bounds), clip(high, *bounds)
    return Interval(mean, min(low, mean), max(high, mean), n, reasons.T_INTERVAL)
