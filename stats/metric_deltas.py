"""Metric deltas (tokens, turns, tool calls, wall ms, errors) with intervals (seed 004)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from stats import reasons
from stats._arrays import as_floats, same_length
from stats.bootstrap import delta_interval
from stats.permutation import sign_flip_test


@dataclass(frozen=True, slots=True)
class MetricDelta:
    """Candidate − baseline mean of a per-case metric, its interval, p and highVariance."""

    baseline_mean: float
    candidate_mean: float
    delta: float
    low: float
    high: float
    p_value: float
    high_variance: bool
    n: int
    interval_method: str
    p_method: str
    reason: str | None = None


def metric_delta(
    candidate: npt.ArrayLike,
    baseline: npt.ArrayLike,
    *,
    confidence: float = 0.95,
    seed: int = 0,
) -> MetricDelta:
    """Paired delta of per-case metric values (NaN: missing, the pair is left out).

    Δ = mean(cᵢ − bᵢ) over cases with both values; interval by
    `stats.bootstrap.delta_interval` (t under 20 cases, case-bootstrap BCa above);
    p by the sign-flip test (`stats.permutation.sign_flip_test`). `high_variance`
    when SD(cᵢ − bᵢ) (n − 1) exceeds |mean(bᵢ)| (seed 004's flag: the delta is
    noise-dominated relative to the baseline level).
    """
    cand, base = as_floats(candidate, "candidate"), as_floats(baseline, "baseline")
    same_length(cand, base)
    both = np.isfinite(cand) & np.isfinite(base)
    cand, base = cand[both], base[both]
    n = len(cand)
    if n == 0:
        return MetricDelta(
            0.0, 0.0, 0.0, 0.0, 0.0, 1.0, False, 0, reasons.NONE, reasons.NONE, reasons.NO_CASES
        )
    differences = cand - base
    interval = delta_interval(differences, confidence=confidence, seed=seed)
    test = sign_flip_test(differences, seed=seed)
    spread = float(differences.std(ddof=1)) if n > 1 else 0.0
    baseline_mean = float(base.mean())
    return MetricDelta(
        baseline_mean=baseline_mean,
        candidate_mean=float(cand.mean()),
        delta=float(differences.mean()),
        low=interval.low,
        high=interval.high,
        p_value=test.p_value,
        high_variance=spread > abs(baseline_mean),
        n=n,
        interval_method=interval.method,
        p_method=test.method,
        reason=interval.reason or test.reason,
    )
