"""The guardrails and the cost or latency gain against one baseline (docs/decision.md), all
from the quality Δ's case resamples: ratio guardrails (cost, p50/p95 latency, output tokens)
as candidate ÷ baseline with a percentile interval, both cohorts weighed by the same draw;
FAILED_OR_MISSING as the difference of failed-or-missing shares (points)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace
from typing import Final

import numpy as np
import numpy.typing as npt

from stats._arrays import FloatArray, IntArray
from stats.bootstrap import case_resamples, tagged_resamples
from stats.decision import policy as sp
from stats.decision.criteria import Criterion
from stats.decision.measures import CohortMeasures, missing_share
from stats.decision.policy import Guardrail, ShipPolicy
from stats.decision.vocabulary import (
    GAIN,
    GUARDRAIL,
    MET,
    NOT_MEASURED,
    POINTS,
    UNCERTAIN,
    VIOLATED,
    ZERO_BASELINE,
)
from stats.resampled import TrialValues, percentile_interval, ratios, resampled_means

GAIN_METRIC: Final = {sp.COST: sp.COST_PER_CASE, sp.LATENCY: sp.LATENCY_P50}
PERCENTILE: Final = {sp.LATENCY_P50: 50.0, sp.LATENCY_P95: 95.0}


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


class Figures:
    """The guardrails' and gains' figures against one baseline, resampled together."""

    def __init__(
        self,
        candidate: CohortMeasures,
        baseline: CohortMeasures,
        usable: npt.NDArray[np.bool_],
        differences: FloatArray,
        policy: ShipPolicy,
        seed: int,
        resamples: int,
    ) -> None:
        self._pair = (candidate, baseline)
        self._usable = usable
        self._differences = differences
        self._policy = policy
        self._seed = seed
        self._resamples = resamples
        self._cache: dict[str, FloatArray] = {}

    def guardrail(self, guardrail: Guardrail, index: int) -> Criterion:
        if not guardrail.is_ratio:
            return self._failed_or_missing(guardrail, index)
        allowance = guardrail.threshold
        figure = self._ratio(guardrail.metric, index, allowance)
        if figure.reason is not None or figure.low is None:
            return figure
        high = figure.high if figure.high is not None else math.inf
        status = MET if high <= allowance else VIOLATED if figure.low > allowance else UNCERTAIN
        return replace(figure, status=status, high=_finite(figure.high))

    def gain(self, metric: str, index: int) -> Criterion:
        figure = self._ratio(metric, index, 1.0)
        figure = replace(figure, kind=GAIN)
        if figure.reason == ZERO_BASELINE:
            # Nothing is cheaper or faster than zero.
            return replace(figure, status=VIOLATED)
        if figure.reason is not None or figure.low is None:
            return figure
        high = figure.high if figure.high is not None else math.inf
        status = MET if high < 1.0 else VIOLATED if figure.low >= 1.0 else UNCERTAIN
        return replace(figure, status=status)

    def _ratio(self, metric: str, index: int, threshold: float) -> Criterion:
        """The ratio's estimate and interval; status UNCERTAIN until the caller decides,
        or final for a zero baseline (MET only when the candidate is zero too)."""
        unmeasured = Criterion(
            index, GUARDRAIL, metric, UNCERTAIN, NOT_MEASURED, None, None, None, threshold
        )
        points = self._points(metric)
        if points is None:
            return unmeasured
        cand, base = points
        if base == 0:
            status = MET if cand == 0 else VIOLATED
            return replace(unmeasured, status=status, reason=ZERO_BASELINE)
        interval = percentile_interval(self._resampled(metric), self._policy.confidence)
        if interval is None:
            return unmeasured
        return replace(
            unmeasured, reason=None, estimate=cand / base, low=interval[0], high=interval[1]
        )

    def _points(self, metric: str) -> tuple[float, float] | None:
        """(candidate, baseline) figures over the usable cases, or None (not measured)."""
        if metric in PERCENTILE:
            values = [self._trials(c) for c in self._pair]
            if values[0] is None or values[1] is None:
                return None
            cand = values[0].percentile(PERCENTILE[metric])
            base = values[1].percentile(PERCENTILE[metric])
            return None if cand is None or base is None else (cand, base)
        pair = self._per_case(metric)
        if pair is None:
            return None
        return float(pair[0].mean()), float(pair[1].mean())

    def _per_case(self, metric: str) -> tuple[FloatArray, FloatArray] | None:
        """Per-case values over usable cases, NaN where either side lacks one."""
        name = "cost" if metric == sp.COST_PER_CASE else "output_tokens"
        cand, base = (getattr(c, name) for c in self._pair)
        if cand is None or base is None:
            return None
        cand, base = cand[self._usable], base[self._usable]
        both = np.isfinite(cand) & np.isfinite(base)
        if not both.any():
            return None
        return np.where(both, cand, np.nan), np.where(both, base, np.nan)

    def _trials(self, cohort: CohortMeasures) -> TrialValues | None:
        if cohort.latency is None or cohort.latency_case is None:
            return None
        position = np.cumsum(self._usable) - 1
        keep = self._usable[cohort.latency_case]
        trials = TrialValues.of(cohort.latency[keep], position[cohort.latency_case[keep]])
        return trials if len(trials.values) else None

    def _resampled(self, metric: str) -> FloatArray:
        """The figure of `metric` in every case resample of the quality Δ. Every figure the
        policy asks for is computed in one pass over the resamples, on first use."""
        if not self._cache:
            wanted = {g.metric for g in self._policy.guardrails}
            wanted.add(GAIN_METRIC.get(self._policy.require_gain, sp.FAILED_OR_MISSING))
            ratio_metrics = [m for m in sp.RATIO_METRICS if m in wanted and self._points(m)]
            if not ratio_metrics:
                self._cache = {sp.FAILED_OR_MISSING: np.empty(0)}
                return self._cache.get(metric, np.empty(0))
            parts: dict[str, list[FloatArray]] = {m: [] for m in ratio_metrics}
            parts[sp.FAILED_OR_MISSING] = []
            # Drawn case by case only for a ratio metric; alone, failed-or-missing rides on
            # cells of equal differences (`_missing_resampled`).
            shares = self._missing_shares() if self._usable.all() and ratio_metrics else None
            for drawn in self._blocks():
                counts = drawn.astype(np.float64)  # matrix products in BLAS, not on integers
                for name in ratio_metrics:
                    parts[name].append(self._ratio_block(name, counts))
                if shares is not None:
                    parts[sp.FAILED_OR_MISSING].append(counts @ shares / len(shares))
            self._cache = {m: np.concatenate(p) if p else np.empty(0) for m, p in parts.items()}
        return self._cache.get(metric, np.empty(0))

    def _ratio_block(self, metric: str, counts: FloatArray) -> FloatArray:
        if metric in PERCENTILE:
            cand, base = (self._trials(c) for c in self._pair)
            assert cand is not None and base is not None
            q = PERCENTILE[metric]
            return ratios(
                cand.resampled_percentiles(counts, q), base.resampled_percentiles(counts, q)
            )
        pair = self._per_case(metric)
        assert pair is not None
        return ratios(resampled_means(counts, pair[0]), resampled_means(counts, pair[1]))

    def _missing_shares(self) -> FloatArray:
        """Per case: candidate − baseline failed-or-missing share of its trials, in points."""
        cand, base = (missing_share(c) for c in self._pair)
        return np.asarray((cand - base) * POINTS, dtype=np.float64)

    def _blocks(self) -> Iterator[IntArray]:
        return case_resamples(self._differences, resamples=self._resamples, seed=self._seed)

    def _missing_resampled(self, per_case: FloatArray) -> FloatArray:
        """The failed-or-missing difference in every resample: the quality Δ's own (when every
        case that ran is usable), summed per cell of equal differences unless a ratio
        metric already drew them case by case; else resamples of the cases that ran."""
        if not self._usable.all():
            blocks = case_resamples(per_case, resamples=self._resamples, seed=self._seed)
            return np.concatenate([counts @ per_case / len(per_case) for counts in blocks])
        if self._resampled(sp.FAILED_OR_MISSING).size:
            return self._resampled(sp.FAILED_OR_MISSING)
        tags, cells = tagged_resamples(
            self._differences, per_case, resamples=self._resamples, seed=self._seed
        )
        return np.concatenate([counts @ tags / len(per_case) for counts in cells])

    def _failed_or_missing(self, guardrail: Guardrail, index: int) -> Criterion:
        """Difference of failed-or-missing shares (points) over the cases that ran: a case
        lost to errors is what it measures, so it is not limited to the usable cases.
        When every case that ran is usable it rides on the quality Δ's resamples."""
        threshold = guardrail.threshold
        if len(self._pair[0].trials) == 0:
            return Criterion(
                index,
                GUARDRAIL,
                guardrail.metric,
                UNCERTAIN,
                NOT_MEASURED,
                None,
                None,
                None,
                threshold,
            )
        per_case = self._missing_shares()
        resampled = self._missing_resampled(per_case)
        low, high = percentile_interval(resampled, self._policy.confidence) or (0.0, 0.0)
        status = MET if high <= threshold else VIOLATED if low > threshold else UNCERTAIN
        return Criterion(
            index,
            GUARDRAIL,
            guardrail.metric,
            status,
            None,
            float(per_case.mean()),
            low,
            high,
            threshold,
        )
