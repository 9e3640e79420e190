"""A sequential confidence bound for a quantile, and for the ratio of two arms' quantiles.

Howard & Ramdas (2022), "Sequential estimation of quantiles with applications to
A/B-testing and best-arm identification", Bernoulli 28(3), §2: at the true p-quantile Q
of a continuous distribution, the count S_t(Q) = #{i ≤ t : Xᵢ ≤ Q} is Binomial(t, p), so a
time-uniform boundary for a Bernoulli(p) sum turns into a confidence sequence for Q made
of order statistics. The boundary here is the beta-binomial mixture martingale (Robbins
1970; Howard, Ramdas, McAuliffe & Sekhon 2021, Ann. Statist. 49(2), §3.2):

    M_t(s) = B(a + s, b + t − s) ÷ B(a, b) ÷ (pˢ (1 − p)^{t−s}),   a = c·p, b = c·(1 − p)

is a nonnegative martingale with mean 1 when the counts are Bernoulli(p), so by Ville's
inequality P(∃t: M_t(S_t(Q)) ≥ 1/α) ≤ α. log M_t is convex in s, so the counts it accepts
form an interval [s_lo, s_hi], and Q ∈ [X_(s_lo), X_(s_hi + 1)] at every t at once (an end
is unbounded when s_lo = 0 or s_hi = t). c = 20 spreads the mixture over quantile levels
about ±0.05 around p for p95.
"""

from __future__ import annotations

import math
from typing import Final

import numpy as np
import numpy.typing as npt
from scipy.special import betaln

from stats._arrays import FloatArray
from stats.live.means import Interval

CONCENTRATION: Final = 20.0


def log_mixture(counts: npt.ArrayLike, t: npt.ArrayLike, p: float) -> FloatArray:
    """log M_t(s) for counts s of t draws at quantile level p (arrays broadcast)."""
    s = np.asarray(counts, dtype=np.float64)
    n = np.asarray(t, dtype=np.float64)
    a, b = CONCENTRATION * p, CONCENTRATION * (1.0 - p)
    value: FloatArray = (
        betaln(a + s, b + n - s) - betaln(a, b) - s * math.log(p) - (n - s) * math.log1p(-p)
    )
    return value


def accepted_counts(t: int, p: float, alpha: float) -> tuple[int, int] | None:
    """[s_lo, s_hi]: the counts out of t the sequence still accepts (None if none)."""
    counts = np.arange(t + 1)
    inside = np.flatnonzero(log_mixture(counts, t, p) < math.log(1.0 / alpha))
    if inside.size == 0:
        return None
    return int(inside[0]), int(inside[-1])


def quantile_bounds(values: npt.ArrayLike, p: float, alpha: float) -> Interval:
    """The p-quantile of `values`' distribution now: the empirical quantile and the
    sequence's bounds (None where unbounded), at level 1 − α."""
    if not 0.0 < p < 1.0:
        raise ValueError("p must lie in (0, 1)")
    data = np.sort(np.asarray(values, dtype=np.float64))
    t = int(data.size)
    if t == 0:
        return Interval(None, None, None)
    estimate = float(np.quantile(data, p))
    counts = accepted_counts(t, p, alpha)
    if counts is None:  # no count accepted: only when the stream broke the model
        return Interval(estimate, estimate, estimate)
    s_lo, s_hi = counts
    low = float(data[s_lo - 1]) if s_lo >= 1 else None
    high = float(data[s_hi]) if s_hi + 1 <= t else None
    return Interval(estimate, low, high)


def quantile_ratio_interval(
    candidate: npt.ArrayLike, baseline: npt.ArrayLike, *, p: float, alpha: float
) -> Interval:
    """Q_candidate(p) ÷ Q_baseline(p) for positive values (latencies), each arm's bound at
    α/2 (union bound): [low_c ÷ high_b, high_c ÷ low_b]; an unbounded end is None."""
    cand = quantile_bounds(candidate, p, alpha / 2.0)
    base = quantile_bounds(baseline, p, alpha / 2.0)
    estimate = (
        cand.estimate / base.estimate if cand.estimate is not None and base.estimate else None
    )
    low = cand.low / base.high if cand.low is not None and base.high else None
    if cand.low is not None and base.high is None:
        low = 0.0
    high = cand.high / base.low if cand.high is not None and base.low else None
    return Interval(estimate, 0.0 if low is None else low, high)


def ever_excludes_quantile(
    values: npt.ArrayLike, truth: float, p: float, alpha: float
) -> npt.NDArray[np.bool_]:
    """For each stream (rows, arrival order on the last axis), whether the sequence of
    `quantile_bounds` ever left out the true p-quantile `truth`: M_t(S_t(truth)) ≥ 1/α."""
    data = np.asarray(values, dtype=np.float64)
    counts = np.cumsum(data <= truth, axis=-1)
    t = np.arange(1, data.shape[-1] + 1)
    crossed = log_mixture(counts, t, p) >= math.log(1.0 / alpha)
    excluded: npt.NDArray[np.bool_] = np.asarray(crossed.any(axis=-1))
    return excluded
