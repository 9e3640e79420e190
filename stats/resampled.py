"""Figures of a case resample: means, per-trial percentiles, and percentile intervals.

A resample is a row of per-case draw counts (`stats.bootstrap.case_resamples`); a
figure of the resampled cases weighs each case (and each of its trials) by its count.
Candidate and baseline are weighed by the same row, so their pairing holds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from stats._arrays import FloatArray, IntArray, as_floats, as_ints, same_length

_HUGE = float(np.finfo(np.float64).max) / 4.0
"""Stands in for +∞ while quantiles interpolate (∞ − ∞ would give NaN)."""


def resampled_means(counts: FloatArray, values: FloatArray) -> FloatArray:
    """The mean of `values` over each row's resampled cases (NaN where a row drew none
    with a value; NaN values are left out)."""
    present = np.isfinite(values)
    weights = counts[:, present]
    totals = weights.sum(axis=1)
    sums = weights @ values[present]
    out = np.full(len(counts), np.nan)
    np.divide(sums, totals, out=out, where=totals > 0)
    return out


@dataclass(frozen=True, slots=True, eq=False)
class TrialValues:
    """Per-trial values sorted ascending, with the case of each; for percentiles over
    the trials of resampled cases."""

    values: FloatArray
    cases: IntArray

    @classmethod
    def of(cls, values: npt.ArrayLike, cases: npt.ArrayLike) -> TrialValues:
        """Sorted, NaN values left out."""
        data, case = as_floats(values, "values"), as_ints(cases, "cases")
        same_length(data, case)
        keep = np.isfinite(data)
        order = np.argsort(data[keep], kind="stable")
        return cls(data[keep][order], case[keep][order])

    def percentile(self, q: float) -> float | None:
        """The q-th percentile of every trial (Hyndman & Fan definition 7); None if none."""
        if len(self.values) == 0:
            return None
        return float(np.percentile(self.values, q))

    def resampled_percentiles(self, counts: FloatArray, q: float) -> FloatArray:
        """The q-th percentile over each row's resampled trials: each trial repeated as often
        as its case was drawn, then definition 7 (h = (N − 1)·q/100, interpolating between
        order statistics ⌊h⌋ and ⌊h⌋ + 1 of the N repeated trials). NaN when a row drew
        no trial."""
        rows = len(counts)
        if len(self.values) == 0:
            return np.full(rows, np.nan)
        weights = counts[:, self.cases]
        cumulative = np.cumsum(weights, axis=1)
        total = cumulative[:, -1]
        position = (total - 1) * (q / 100.0)
        below = np.floor(position)
        fraction = position - below
        above = np.minimum(below + 1, total - 1)
        # The order statistic k is the first trial whose cumulative count exceeds k.
        first = np.count_nonzero(cumulative <= below[:, None], axis=1)
        second = np.count_nonzero(cumulative <= above[:, None], axis=1)
        last = len(self.values) - 1
        low_value = self.values[np.minimum(first, last)]
        high_value = self.values[np.minimum(second, last)]
        out = low_value + fraction * (high_value - low_value)
        return np.where(total > 0, out, np.nan)


def ratios(numerator: FloatArray, denominator: FloatArray) -> FloatArray:
    """numerator ÷ denominator per resample; +∞ over a zero denominator, 1 for 0 ÷ 0
    (equal figures), NaN where either is missing."""
    out = np.full(len(numerator), np.nan)
    finite = np.isfinite(numerator) & np.isfinite(denominator)
    zero = finite & (denominator == 0)
    regular = finite & ~zero
    np.divide(numerator, denominator, out=out, where=regular)
    out[zero & (numerator == 0)] = 1.0
    out[zero & (numerator != 0)] = np.inf
    return out


def percentile_interval(resampled: FloatArray, confidence: float) -> tuple[float, float] | None:
    """The ((1 − confidence)/2, (1 + confidence)/2) quantiles of the resampled figures
    (the bootstrap percentile interval; Efron & Tibshirani 1993, §13.3), with +∞ kept
    where the quantile falls among infinite figures. None when no resample has a figure."""
    values = resampled[~np.isnan(resampled)]
    if len(values) == 0:
        return None
    tail = (1.0 - confidence) / 2.0
    stand_in = np.where(np.isposinf(values), _HUGE, values)
    low, high = (float(x) for x in np.quantile(stand_in, (tail, 1.0 - tail)))
    return _unstand(low), _unstand(high)


def _unstand(value: float) -> float:
    return math.inf if value >= _HUGE / 2.0 else value
