"""How well an LLM judge agrees with human labels: κ, raw agreement, sensitivity, specificity.

Paired per labelled trial: the judge's grade and the human label, a human pass being
the positive class (docs/labels.md). Sensitivity is the share of human passes the judge
passes; specificity the share of human fails the judge fails.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from stats import reasons
from stats._arrays import FloatArray, as_bools, clip, same_length, two_sided_z
from stats.intervals import Interval, wilson_interval


@dataclass(frozen=True, slots=True)
class Agreement:
    """A judge against human labels over `labels` labelled trials it graded.

    `kappa` is Cohen's κ with its large-sample interval (`kappa_se` its unclipped
    standard error, 0 when undefined); `sensitivity` and
    `specificity` are Wilson intervals; `agreement` is the raw share of trials where
    judge and human agree (0 with no labels). The 2×2 counts are kept for reports.
    """

    labels: int
    agreement: float
    kappa: Interval
    kappa_se: float
    sensitivity: Interval
    specificity: Interval
    true_pass: int
    false_pass: int
    false_fail: int
    true_fail: int


def cohens_kappa(table: npt.ArrayLike, *, confidence: float = 0.95) -> Interval:
    """Cohen's κ of a square agreement table, with its large-sample interval.

    κ = (p_o − p_e)/(1 − p_e), p_o = Σ p_ii, p_e = Σ p_i·p_·i (Cohen 1960); interval
    κ ± z·SE (as statsmodels `cohens_kappa`), SE from `kappa_standard_error`, clipped to
    [−1, 1]. No labels give 0 in [−1, 1] with reason NO_CASES; one class used alone by
    both raters (p_e = 1, κ undefined) gives the same with reason KAPPA_UNDEFINED. A
    zero SE (perfect agreement, or one rater using one class: κ = 0) gives the point
    with reason ZERO_VARIANCE.
    """
    counts = _table(table)
    n = int(counts.sum())
    if n == 0:
        return Interval(0.0, -1.0, 1.0, 0, reasons.FLEISS_COHEN_EVERITT, reasons.NO_CASES)
    fitted = _kappa_and_variance(counts)
    if fitted is None:
        return Interval(0.0, -1.0, 1.0, n, reasons.FLEISS_COHEN_EVERITT, reasons.KAPPA_UNDEFINED)
    kappa, variance = fitted
    half = two_sided_z(confidence) * math.sqrt(variance)
    low, high = clip(kappa - half, -1.0, 1.0), clip(kappa + half, -1.0, 1.0)
    reason = reasons.ZERO_VARIANCE if variance == 0.0 else None
    return Interval(kappa, low, high, n, reasons.FLEISS_COHEN_EVERITT, reason)


def kappa_standard_error(table: npt.ArrayLike) -> float:
    """Large-sample SE of Cohen's κ, not assuming κ = 0; 0 when κ is undefined.

    Var κ = [Σ_i p_ii(1 − (p_i· + p_·i)(1 − κ))² + (1 − κ)² Σ_{i≠j} p_ij(p_·i + p_j·)²
             − (κ − p_e(1 − κ))²] / (n(1 − p_e)²)
    (Fleiss, Cohen & Everitt 1969, "Large sample standard errors of kappa and weighted
    kappa", Psychol Bull 72:323, eq. 13).
    """
    counts = _table(table)
    fitted = _kappa_and_variance(counts) if counts.sum() > 0 else None
    return math.sqrt(fitted[1]) if fitted is not None else 0.0


def _table(table: npt.ArrayLike) -> FloatArray:
    counts = np.asarray(table, dtype=np.float64)
    if counts.ndim != 2 or counts.shape[0] != counts.shape[1]:
        raise ValueError(f"table must be square, got shape {counts.shape}")
    if not np.all(np.isfinite(counts)) or np.any(counts < 0):
        raise ValueError("table counts must be finite and non-negative")
    return counts


def _kappa_and_variance(counts: FloatArray) -> tuple[float, float] | None:
    """κ and its variance for a non-empty table; None when p_e = 1 (κ undefined)."""
    n = float(counts.sum())
    probs = counts / n
    rows, cols = probs.sum(axis=1), probs.sum(axis=0)
    observed = float(np.trace(probs))
    expected = float(rows @ cols)
    if expected >= 1.0 - 1e-12:
        return None
    kappa = (observed - expected) / (1.0 - expected)
    diagonal = np.diag(probs) * (1.0 - (rows + cols) * (1.0 - kappa)) ** 2
    off = probs * (cols[:, None] + rows[None, :]) ** 2
    np.fill_diagonal(off, 0.0)
    variance = (
        float(diagonal.sum())
        + (1.0 - kappa) ** 2 * float(off.sum())
        - (kappa - expected * (1.0 - kappa)) ** 2
    ) / (n * (1.0 - expected) ** 2)
    # Rounding leaves ±1e-16 where the variance is exactly 0 (perfect agreement, or a
    # rater using one class); statsmodels then takes √ of a negative number.
    return float(kappa), variance if variance > 1e-14 / n else 0.0


def judge_agreement(
    judge_passed: npt.ArrayLike, human_passed: npt.ArrayLike, *, confidence: float = 0.95
) -> Agreement:
    """κ, raw agreement, sensitivity and specificity of a judge over labelled trials."""
    judge = as_bools(judge_passed, "judge_passed")
    human = as_bools(human_passed, "human_passed")
    n = same_length(judge, human)
    true_pass = int(np.sum(judge & human))
    false_fail = int(np.sum(~judge & human))
    false_pass = int(np.sum(judge & ~human))
    true_fail = int(np.sum(~judge & ~human))
    # Rows: human pass, human fail; columns: judge pass, judge fail.
    table = [[true_pass, false_fail], [false_pass, true_fail]]
    return Agreement(
        labels=n,
        agreement=(true_pass + true_fail) / n if n else 0.0,
        kappa=cohens_kappa(table, confidence=confidence),
        kappa_se=kappa_standard_error(table),
        sensitivity=wilson_interval(true_pass, true_pass + false_fail, confidence=confidence),
        specificity=wilson_interval(true_fail, true_fail + false_pass, confidence=confidence),
        true_pass=true_pass,
        false_pass=false_pass,
        false_fail=false_fail,
        true_fail=true_fail,
    )
