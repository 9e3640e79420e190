"""A criterion against one baseline, and the quality ones (docs/decision.md): Δ of pass
fractions with the scorecard's interval, or a sequence bound or a label-corrected Δ in its
place; MET when low > −δ, VIOLATED when high < −δ; the quality gain when low > 0."""

from __future__ import annotations

from dataclasses import dataclass, replace

from stats._arrays import FloatArray
from stats.bootstrap import delta_interval
from stats.decision import policy as sp
from stats.decision.measures import QualityBounds
from stats.decision.policy import ShipPolicy
from stats.decision.vocabulary import (
    GAIN,
    JUDGE_UNCALIBRATED,
    MET,
    NOT_MEASURED,
    POINTS,
    QUALITY,
    UNCERTAIN,
    VIOLATED,
)


@dataclass(frozen=True, slots=True)
class Criterion:
    """One criterion against one baseline (`baseline`: its position among the baselines).

    `estimate`, `low`, `high`, `threshold` in the criterion's unit: points for QUALITY,
    the QUALITY gain and FAILED_OR_MISSING; the ratio candidate ÷ baseline otherwise. None
    where there is no figure (not measured, a zero baseline, an unbounded interval end).
    """

    baseline: int
    kind: str
    metric: str
    status: str
    reason: str | None
    estimate: float | None
    low: float | None
    high: float | None
    threshold: float
    corrected: bool = False


def quality_criterion(
    differences: FloatArray,
    policy: ShipPolicy,
    *,
    seed: int,
    bounds: QualityBounds | None,
    index: int,
) -> Criterion:
    threshold = -policy.quality_margin_points
    if len(differences) == 0:
        return Criterion(
            index, QUALITY, sp.PASS_RATE, UNCERTAIN, NOT_MEASURED, None, None, None, threshold
        )
    if bounds is None:
        interval = delta_interval(
            differences, confidence=policy.confidence, seed=seed, bounds=(-1.0, 1.0)
        )
        estimate, low, high, corrected = interval.estimate, interval.low, interval.high, False
    else:
        observed = float(differences.mean())
        estimate = observed if bounds.estimate is None else bounds.estimate
        low, high, corrected = bounds.low, bounds.high, bounds.corrected
    status = status_of(low * POINTS, high * POINTS, met_above=threshold)
    return Criterion(
        index,
        QUALITY,
        sp.PASS_RATE,
        status,
        None,
        estimate * POINTS,
        low * POINTS,
        high * POINTS,
        threshold,
        corrected,
    )


def quality_gain(quality: Criterion, index: int) -> Criterion:
    """QUALITY gain: Δ's low end above 0 (MET), its high end at or below 0 (VIOLATED)."""
    if quality.low is None or quality.high is None:
        return replace(quality, kind=GAIN, threshold=0.0, status=UNCERTAIN)
    if quality.reason == JUDGE_UNCALIBRATED:
        status = VIOLATED if quality.high <= 0 else UNCERTAIN
    else:
        status = MET if quality.low > 0 else VIOLATED if quality.high <= 0 else UNCERTAIN
    return replace(quality, baseline=index, kind=GAIN, threshold=0.0, status=status)


def status_of(low: float, high: float, *, met_above: float) -> str:
    """MET when the interval lies above the bound, VIOLATED when below, else UNCERTAIN."""
    if low > met_above:
        return MET
    if high < met_above:
        return VIOLATED
    return UNCERTAIN
