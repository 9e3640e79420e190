"""Case-resampled bootstrap interval for a mean difference (BCa, percentile fallback)."""

from __future__ import annotations

import math
from typing import Final

import numpy as np
import numpy.typing as npt
from scipy.special import ndtr, ndtri

from stats import reasons
from stats._arrays import FloatArray, all_finite, as_floats, clip
from stats.intervals import Interval, t_interval
from stats.permutation import PAIRED_T_MIN_CASES

BOOTSTRAP_RESAMPLES: Final = 9_999
BOOTSTRAP_MIN_CASES: Final = 20
# Up to this many distinct values, resampling cases is drawing multinomial counts per value.
COMPRESS_MAX_UNIQUE: Final = 256


def bootstrap_mean_interval(
    values: npt.ArrayLike,
    *,
    confidence: float = 0.95,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
    bounds: tuple[float, float] | None = None,
) -> Interval:
    """BCa bootstrap interval for the mean, resampling cases; percentile when BCa degenerates.

    BCa (Efron 1987; Efron & Tibshirani 1993, §14.3): the interval is the
    (α₁, α₂) quantiles of the bootstrap means with αᵢ = Φ(ẑ₀ + (ẑ₀ + z)/(1 − â(ẑ₀ + z))),
    z = ±z₍₁₋α/2₎, ẑ₀ = Φ⁻¹((#{θ* < θ̂} + ½·#{θ* = θ̂})/R) and the jackknife acceleration,
    which for the mean is â = Σ(xᵢ − x̄)³ / (6·(Σ(xᵢ − x̄)²)^(3/2)) (Eq. 14.15). When ẑ₀ or
    the αᵢ are not finite (every resample on one side of θ̂) the percentile interval is
    returned with reason BCA_DEGENERATE. Seeded; resampling with few distinct values
    draws multinomial counts per value, which is the same distribution as drawing cases.
    Fewer than two cases, zero spread, or a NaN or infinite value (reason
    NON_FINITE_INPUT) give the t-interval's answer.
    """
    data = as_floats(values)
    n = len(data)
    if n < 2 or not all_finite(data) or float(np.ptp(data)) == 0.0:
        point = t_interval(data, confidence=confidence, bounds=bounds)
        return Interval(
            point.estimate,
            point.low,
            point.high,
            point.n,
            reasons.BOOTSTRAP_PERCENTILE,
            point.reason,
        )
    if resamples < 1:
        raise ValueError(f"resamples must be positive, got {resamples}")
    estimate = float(data.mean())
    means = _bootstrap_means(data, resamples, np.random.default_rng(seed))
    levels = _bca_levels(data, means, estimate, confidence)
    method, reason = reasons.BOOTSTRAP_BCA, None
    if levels is None:
        tail = (1.0 - confidence) / 2.0
        levels = (tail, 1.0 - tail)
        method, reason = reasons.BOOTSTRAP_PERCENTILE, reasons.BCA_DEGENERATE
    low, high = (float(x) for x in np.quantile(means, levels))
    if bounds is not None:
        low, high = clip(low, *bounds), clip(high, *bounds)
    return Interval(estimate, low, high, n, method, reason)


def delta_interval(
    values: npt.ArrayLike,
    *,
    confidence: float = 0.95,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
    bounds: tuple[float, float] | None = None,
) -> Interval:
    """Interval for a mean paired difference as docs/statistics.md chooses it.

    Under 20 cases: the t-interval. From 20 cases: the BCa case bootstrap. For very
    large n with continuous values (n ≥ 10,000 and more than 256 distinct values, the
    threshold at which `stats.permutation` switches to the paired t-test) the
    t-interval, which the bootstrap matches there to well within its own resampling
    error. Clipped to `bounds` when given (e.g. [−1, 1] for pass-rate differences).
    A NaN or infinite value gives the answer for no cases with reason NON_FINITE_INPUT.
    """
    data = as_floats(values)
    n = len(data)
    if n < BOOTSTRAP_MIN_CASES:
        return t_interval(data, confidence=confidence, bounds=bounds)
    if n >= PAIRED_T_MIN_CASES and len(np.unique(data)) > COMPRESS_MAX_UNIQUE:
        return t_interval(data, confidence=confidence, bounds=bounds)
    return bootstrap_mean_interval(
        data, confidence=confidence, resamples=resamples, seed=seed, bounds=bounds
    )


def _bootstrap_means(data: FloatArray, resamples: int, rng: np.random.Generator) -> FloatArray:
    """`resamples` means of n cases drawn with replacement (Efron 1979)."""
    n = len(data)
    uniques, first, counts = np.unique(data, return_index=True, return_counts=True)
    if len(uniques) <= COMPRESS_MAX_UNIQUE:
        # First-occurrence order, so negating the data draws the same counts (swap symmetry).
        order = np.argsort(first)
        support, weights = uniques[order], counts[order] / n
        draws = rng.multinomial(n, weights, size=resamples)
        return np.asarray(draws @ support / n, dtype=np.float64)
    means = np.empty(resamples)
    rows = max(1, (1 << 22) // n)
    for start in range(0, resamples, rows):
        stop = min(resamples, start + rows)
        picks = rng.integers(0, n, size=(stop - start, n))
        means[start:stop] = data[picks].mean(axis=1)
    return means


def _bca_levels(
    data: FloatArray, means: FloatArray, estimate: float, confidence: float
) -> tuple[float, float] | None:
    """BCa quantile levels (α₁, α₂), or None when BCa degenerates.

    Resample means within 10⁻¹² of the data's magnitude of θ̂ count as ties (rounding of
    the sums); the tolerance is relative, so scaling the data scales the interval.
    """
    tolerance = 1e-12 * float(np.abs(data).max())
    below = int(np.count_nonzero(means < estimate - tolerance))
    at_or_below = int(np.count_nonzero(means <= estimate + tolerance))
    share = (below + at_or_below) / (2.0 * len(means))
    if not 0.0 < share < 1.0:
        return None
    z0 = float(ndtri(share))
    centred = data - estimate
    spread = float(np.sum(centred**2))
    acceleration = float(np.sum(centred**3)) / (6.0 * spread**1.5)
    z = float(ndtri((1.0 - confidence) / 2.0))
    levels = []
    for z_alpha in (z, -z):
        shifted = z0 + z_alpha
        denominator = 1.0 - acceleration * shifted
        if denominator <= 0.0:
            return None
        level = float(ndtr(z0 + shifted / denominator))
        if not math.isfinite(level):
            return None
        levels.append(level)
    return levels[0], levels[1]
