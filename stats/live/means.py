"""Anytime-valid sequences for two independent streams of bounded values.

Production traffic is not paired: each trace went to one release. Two constructions, both
on the hedged betting sequence of `stats/sequential.py` (Waudby-Smith & Ramdas 2024,
JRSS-B 86(1), "Estimating means of bounded random variables by betting"):

- **Difference of means** (values in [0, 1]: a trace's pass fraction, an error flag). The
  i-th candidate value is matched with the i-th baseline value in arrival order. The two
  streams are independent and each is i.i.d., so dᵢ = cᵢ − bᵢ ∈ [−1, 1] are i.i.d. with
  mean μ_c − μ_b, and the betting sequence of the dᵢ covers the difference at every
  number of pairs at once with probability ≥ 1 − α (the matching is fixed by arrival, not
  by the values, so it does not break the time-uniform guarantee). Values of the larger
  arm beyond the smaller arm's count wait for their partner.
- **Ratio of means** (values in [0, bound]: cost per trace, output tokens). A sequence for
  each arm's mean at α/2 (values ÷ bound, mapped to [−1, 1]); by the union bound both hold
  at every time with probability ≥ 1 − α, and then μ_c ÷ μ_b lies in
  [low_c ÷ high_b, high_c ÷ low_b]. The bound must be fixed before the values it scales
  (the service takes it from the traces before the comparison started); larger values
  are counted at the bound.

A two-sided sequence at level 1 − 2α tests each one-sided criterion at α: the hedged
capital splits its bet in halves (θ = 1/2), so each side alone errs with probability ≤ α.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from stats._arrays import FloatArray
from stats.sequential import betting_cs, hedged_capital


@dataclass(frozen=True, slots=True)
class Interval:
    """An estimate with its bounds; `low` or `high` None where the bound is unbounded."""

    estimate: float | None
    low: float | None
    high: float | None


@dataclass(frozen=True, slots=True)
class DifferenceSequence:
    """After each matched pair t (index t − 1): the running mean difference and the
    sequence's bounds (candidate − baseline, in the values' unit)."""

    estimate: FloatArray
    low: FloatArray
    high: FloatArray

    @property
    def pairs(self) -> int:
        return int(self.estimate.shape[-1])

    def last(self) -> Interval:
        """The sequence now; no pairs yet gives [−1, 1] around no estimate."""
        if self.pairs == 0:
            return Interval(None, -1.0, 1.0)
        return Interval(float(self.estimate[-1]), float(self.low[-1]), float(self.high[-1]))

    def at(self, indices: npt.ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]:
        """(estimate, low, high) after pair t + 1 for each 0-based t."""
        at = np.asarray(indices, dtype=np.int64)
        return self.estimate[..., at], self.low[..., at], self.high[..., at]


class SequenceNow(Protocol):
    """What the decision and the drawn sequence read of a difference sequence: this and
    `stats.live.running.RunningDifference` (the same bounds, kept up to date) answer it."""

    @property
    def pairs(self) -> int: ...

    def last(self) -> Interval: ...

    def at(self, indices: npt.ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]: ...


def _unit(values: npt.ArrayLike, name: str) -> FloatArray:
    data = np.asarray(values, dtype=np.float64)
    if data.size and (np.isnan(data).any() or data.min() < -1e-12 or data.max() > 1 + 1e-12):
        raise ValueError(f"{name} must lie in [0, 1]")
    return np.clip(data, 0.0, 1.0)


def difference_sequence(
    candidate: npt.ArrayLike, baseline: npt.ArrayLike, alpha: float
) -> DifferenceSequence:
    """The sequence for μ_candidate − μ_baseline over values in [0, 1] (the last axis is
    arrival order; leading axes are independent streams), at level 1 − α."""
    cand, base = _unit(candidate, "candidate"), _unit(baseline, "baseline")
    pairs = min(cand.shape[-1], base.shape[-1])
    d = cand[..., :pairs] - base[..., :pairs]
    if pairs == 0:
        empty = np.empty(d.shape)
        return DifferenceSequence(empty, empty, empty)
    low, high = betting_cs(d, alpha)
    estimate = np.cumsum(d, axis=-1) / np.arange(1, pairs + 1)
    return DifferenceSequence(estimate, low, high)


def mean_sequence(values: npt.ArrayLike, alpha: float) -> tuple[FloatArray, FloatArray]:
    """Running bounds of the sequence for the mean of values in [0, 1], at level 1 − α."""
    data = _unit(values, "values")
    low, high = betting_cs(2.0 * data - 1.0, alpha)
    return (low + 1.0) / 2.0, (high + 1.0) / 2.0


def ratio_interval(
    candidate: npt.ArrayLike, baseline: npt.ArrayLike, *, bound: float, alpha: float
) -> Interval:
    """μ_candidate ÷ μ_baseline now, for values in [0, bound] (larger ones counted at the
    bound), from each arm's sequence at α/2. An arm with no values gives no bounds; a
    baseline whose low end is 0 leaves the ratio unbounded above (`high` None)."""
    if not bound > 0 or not math.isfinite(bound):
        raise ValueError("bound must be a positive number")
    cand = np.clip(np.asarray(candidate, dtype=np.float64), 0.0, bound) / bound
    base = np.clip(np.asarray(baseline, dtype=np.float64), 0.0, bound) / bound
    if cand.size == 0 or base.size == 0:
        return Interval(None, None, None)
    c_low, c_high = (float(v[-1]) for v in mean_sequence(cand, alpha / 2.0))
    b_low, b_high = (float(v[-1]) for v in mean_sequence(base, alpha / 2.0))
    c_mean, b_mean = float(cand.mean()), float(base.mean())
    estimate = c_mean / b_mean if b_mean > 0 else None
    low = c_low / b_high if b_high > 0 else None
    high = c_high / b_low if b_low > 0 else None
    return Interval(estimate, low, high)


def ever_excludes_difference(
    candidate: npt.ArrayLike, baseline: npt.ArrayLike, truth: float, alpha: float
) -> npt.NDArray[np.bool_]:
    """For each stream (rows), whether `difference_sequence` ever left out `truth`: the
    hedged capital of the matched differences at the truth reached 1/α (the grid bounds
    contain the exact sequence, so they leave it out no more often)."""
    cand, base = _unit(candidate, "candidate"), _unit(baseline, "baseline")
    pairs = min(cand.shape[-1], base.shape[-1])
    capital = hedged_capital(cand[..., :pairs] - base[..., :pairs], truth, alpha)
    excluded: npt.NDArray[np.bool_] = capital[..., -1] >= 1.0 / alpha
    return excluded


def ever_excludes_mean(values: npt.ArrayLike, truth: float, alpha: float) -> npt.NDArray[np.bool_]:
    """For each stream, whether `mean_sequence` of values in [0, 1] ever left out `truth`."""
    data = _unit(values, "values")
    capital = hedged_capital(2.0 * data - 1.0, 2.0 * truth - 1.0, alpha)
    excluded: npt.NDArray[np.bool_] = capital[..., -1] >= 1.0 / alpha
    return excluded


def thin(count: int, limit: int = 500) -> list[int]:
    """At most `limit` indices of 0 … count − 1, evenly spread, the last always kept."""
    if count <= limit:
        return list(range(count))
    picks = np.unique(np.linspace(0, count - 1, limit).round().astype(np.int64))
    return [int(i) for i in picks]
