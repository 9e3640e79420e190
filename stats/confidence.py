"""Scorecard.confidence: one cohort's pass rate, interval, MDE and sample adequacy."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from stats.intervals import pass_rate_interval
from stats.power import DEFAULT_TARGET_EFFECT, adequacy, unpaired_mde
from stats.trials import CohortTrials


@dataclass(frozen=True, slots=True)
class CohortConfidence:
    """Pass rate with its 95% interval, n cases, adequacy and unpaired MDE (rate units)."""

    pass_rate: float
    low: float
    high: float
    n: int
    adequacy: str
    mde: float
    interval_method: str
    reason: str | None = None


def cohort_confidence(
    trials: CohortTrials,
    *,
    target_effect: float = DEFAULT_TARGET_EFFECT,
    confidence: float = 0.95,
) -> CohortConfidence:
    """Pass rate over the cohort's cases with a completed trial, interval, MDE, adequacy.

    Interval: `stats.intervals.pass_rate_interval` (Wilson, or CR1 for several trials).
    MDE: `stats.power.unpaired_mde` at the pass rate with n = cases (seed 000); the
    Bernoulli variance it assumes bounds the variance of per-case fractions with the
    same mean, so it does not understate the MDE. Adequacy per docs/statistics.md.
    """
    interval = pass_rate_interval(trials.passed, trials.completed, confidence=confidence)
    n = int(np.count_nonzero(trials.completed > 0))
    mde = unpaired_mde(interval.estimate, n)
    return CohortConfidence(
        pass_rate=interval.estimate,
        low=interval.low,
        high=interval.high,
        n=n,
        adequacy=adequacy(n, mde.value, target_effect=target_effect),
        mde=mde.value,
        interval_method=interval.method,
        reason=interval.reason or mde.reason,
    )
