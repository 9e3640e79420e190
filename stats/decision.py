"""The ship decision of docs/decision.md: every criterion against every baseline, one outcome.

Differences are candidate − baseline over the usable cases (a completed trial in every
cohort), as the scorecard's. Each criterion is a one-sided test at α, read off the ends of
a two-sided interval at 1 − 2α; SHIP needs every one of them (an intersection–union test,
Berger 1982, "Multiparameter hypothesis testing and acceptance sampling",
Technometrics 24(4)), so the chance of shipping a candidate that breaks any criterion
stays at or below α without adjusting for their number.

- Quality: Δ of pass fractions with the scorecard's interval (`stats.bootstrap.
  delta_interval`, the same seed: the same case resamples, BCa); MET when low > −δ,
  VIOLATED when high < −δ. A sequence bound or a label-corrected Δ replaces it when given.
- Ratio guardrails (cost, p50/p95 latency, output tokens): the scorecard's figure of the
  candidate ÷ the baseline's, with a percentile interval from those same case resamples,
  both cohorts weighed by the same draw; MET when high ≤ 1 + p/100, VIOLATED when low > it.
- FAILED_OR_MISSING: the difference of failed-or-missing trial shares over the cases that
  ran (points), percentile interval; MET when high ≤ x, VIOLATED when low > x.
- Required gain: QUALITY low of Δ > 0; COST / LATENCY high of the cost / p50 ratio < 1.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Final

import numpy as np
import numpy.typing as npt
from scipy.special import ndtri

from stats import ship_policy as sp
from stats._arrays import FloatArray, IntArray, as_floats, as_ints
from stats.bootstrap import (
    BOOTSTRAP_RESAMPLES,
    case_resamples,
    delta_interval,
    tagged_resamples,
)
from stats.gate import subset
from stats.power import MIN_CASES
from stats.resampled import (
    TrialValues,
    percentile_interval,
    ratios,
    resampled_means,
)
from stats.ship_policy import Guardrail, ShipPolicy
from stats.trials import CohortTrials

POINTS: Final = 100.0
POWER: Final = 0.8

# Criterion kinds and statuses.
QUALITY: Final = "QUALITY"
GUARDRAIL: Final = "GUARDRAIL"
GAIN: Final = "GAIN"
MET: Final = "MET"
VIOLATED: Final = "VIOLATED"
UNCERTAIN: Final = "UNCERTAIN"
# Criterion reasons.
ZERO_BASELINE: Final = "ZERO_BASELINE"
NOT_MEASURED: Final = "NOT_MEASURED"
JUDGE_UNCALIBRATED: Final = "JUDGE_UNCALIBRATED"
# Outcomes and their reasons.
SHIP: Final = "SHIP"
DONT_SHIP: Final = "DONT_SHIP"
MORE_DATA: Final = "MORE_DATA"
NO_DECISION: Final = "NO_DECISION"
INSUFFICIENT_CASES: Final = "INSUFFICIENT_CASES"
NOT_RUN_TO_END: Final = "NOT_RUN_TO_END"
NO_BASELINE: Final = "NO_BASELINE"
UNLIKELY_TO_PASS: Final = "UNLIKELY_TO_PASS"

_GAIN_METRIC: Final = {sp.COST: sp.COST_PER_CASE, sp.LATENCY: sp.LATENCY_P50}
_PERCENTILE: Final = {sp.LATENCY_P50: 50.0, sp.LATENCY_P95: 95.0}


@dataclass(frozen=True, slots=True, eq=False)
class CohortMeasures:
    """One cohort's figures per case (the cases that ran, in the comparison's order).

    `cost` and `output_tokens`: the mean over each case's trials (NaN: none measured);
    `latency`: one value per completed trial, `latency_case` the case of each. None: the
    cohort does not carry the metric (a guardrail on it is UNCERTAIN, NOT_MEASURED).
    `planned`: trials planned per case when cases differ (a run's items); default
    `trials.scheduled` for every case.
    """

    trials: CohortTrials
    cost: FloatArray | None = None
    output_tokens: FloatArray | None = None
    latency: FloatArray | None = None
    latency_case: IntArray | None = None
    planned: IntArray | None = None

    def __post_init__(self) -> None:
        cases = len(self.trials)
        if self.planned is not None:
            planned = as_ints(self.planned, "planned")
            if len(planned) != cases or np.any(planned < self.trials.completed):
                raise ValueError("planned must give each case at least its completed trials")
            object.__setattr__(self, "planned", planned)
        for name in ("cost", "output_tokens"):
            values = getattr(self, name)
            if values is not None:
                array = as_floats(values, name)
                if len(array) != cases:
                    raise ValueError(f"{name} has {len(array)} values for {cases} cases")
                object.__setattr__(self, name, array)
        if (self.latency is None) != (self.latency_case is None):
            raise ValueError("latency and latency_case come together")
        if self.latency is not None and self.latency_case is not None:
            latency, case = as_floats(self.latency, "latency"), as_ints(self.latency_case)
            if len(latency) != len(case) or np.any((case < 0) | (case >= cases)):
                raise ValueError("latency_case must give a case of each latency")
            object.__setattr__(self, "latency", latency)
            object.__setattr__(self, "latency_case", case)


@dataclass(frozen=True, slots=True)
class QualityBounds:
    """Δ's interval from outside the fixed-n bootstrap, in rate units at level 1 − 2α:
    the confidence sequence at a sequential stop (estimate None: the observed Δ stays), or
    a label-corrected Δ (docs/labels.md) with `corrected`."""

    low: float
    high: float
    estimate: float | None = None
    corrected: bool = False


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


@dataclass(frozen=True, slots=True)
class Decision:
    """The outcome, its reason, `cases_needed` for MORE_DATA, usable cases and criteria."""

    outcome: str
    reason: str | None
    cases_needed: int | None
    n: int
    criteria: tuple[Criterion, ...]


def ship_decision(
    candidate: CohortMeasures,
    baselines: Sequence[CohortMeasures],
    policy: ShipPolicy | None = None,
    *,
    seed: int = 0,
    ran_to_end: bool = True,
    sequence: Sequence[QualityBounds | None] | None = None,
    corrected: Sequence[QualityBounds | None] | None = None,
    judge_uncalibrated: bool = False,
    resamples: int = BOOTSTRAP_RESAMPLES,
) -> Decision:
    """The decision for `candidate` against every baseline under `policy` (docs/decision.md).

    `sequence[b]`: the confidence sequence at a sequential stop, used for Δ instead of the
    bootstrap; `corrected[b]`: a label-corrected Δ (used when there is no sequence);
    `judge_uncalibrated` caps the quality criteria at UNCERTAIN (docs/labels.md). `ran_to_end`
    is False for a cancelled or failed comparison (NO_DECISION).
    """
    policy = policy or ShipPolicy()
    problem = sp.validate(policy)
    if problem is not None:
        raise ValueError(f"{problem.field}: {problem.message}")
    cohorts = [candidate, *baselines]
    if len({len(c.trials) for c in cohorts}) != 1:
        raise ValueError("every cohort must have the same cases")
    usable = np.all([c.trials.completed > 0 for c in cohorts], axis=0)
    n = int(np.count_nonzero(usable))
    criteria: list[Criterion] = []
    needed: list[int | None] = []
    for index, baseline in enumerate(baselines):
        found, cases = _against(
            candidate,
            baseline,
            usable,
            policy,
            seed=seed,
            resamples=resamples,
            bounds=_pick(sequence, index) or _pick(corrected, index),
            judge_uncalibrated=judge_uncalibrated,
            index=index,
        )
        criteria.extend(found)
        if cases is not _DECIDED:
            needed.append(cases if isinstance(cases, int) else None)
    outcome, reason, cases_needed = _outcome(
        criteria, needed, n=n, baselines=len(baselines), ran_to_end=ran_to_end
    )
    return Decision(outcome, reason, cases_needed, n, tuple(criteria))


def cases_needed(
    differences: npt.ArrayLike, *, delta: float, margin: float, alpha: float
) -> int | None:
    """n = ⌈((z₁₋α + z₀.₈)·sd ÷ (Δ + δ))²⌉: the cases at which a one-sided test at α of
    Δ > −δ has 80% power if Δ and the SD of the per-case differences (ddof 1) stay as
    observed (the one-sample normal design; Chow, Shao & Wang 2008, §3.1). None when
    Δ ≤ −δ (no number of cases makes the criterion pass) or under two differences."""
    data = as_floats(differences, "differences")
    if delta + margin <= 0 or len(data) < 2:
        return None
    spread = float(data.std(ddof=1))
    z = float(ndtri(1.0 - alpha)) + float(ndtri(POWER))
    return math.ceil((z * spread / (delta + margin)) ** 2)


_DECIDED: Final = object()
"""No quality criterion of this baseline is open to more cases."""


def _pick(values: Sequence[QualityBounds | None] | None, index: int) -> QualityBounds | None:
    if values is None or index >= len(values):
        return None
    return values[index]


def _against(
    candidate: CohortMeasures,
    baseline: CohortMeasures,
    usable: npt.NDArray[np.bool_],
    policy: ShipPolicy,
    *,
    seed: int,
    resamples: int,
    bounds: QualityBounds | None,
    judge_uncalibrated: bool,
    index: int,
) -> tuple[list[Criterion], object]:
    """The criteria against one baseline, and what more cases would take for its quality
    criterion: a count, None (unlikely to pass) or `_DECIDED`."""
    cand, base = subset(candidate.trials, usable), subset(baseline.trials, usable)
    differences = cand.passed / np.maximum(cand.completed, 1) - base.passed / np.maximum(
        base.completed, 1
    )
    quality = _quality(differences, policy, seed=seed, bounds=bounds, index=index)
    if judge_uncalibrated and quality.status != VIOLATED:
        quality = replace(quality, status=UNCERTAIN, reason=JUDGE_UNCALIBRATED)
    figures = _Figures(candidate, baseline, usable, differences, policy, seed, resamples)
    found = [quality]
    found.extend(figures.guardrail(g, index) for g in policy.guardrails)
    if policy.require_gain == sp.QUALITY:
        found.append(_quality_gain(quality, index))
    elif policy.require_gain in _GAIN_METRIC:
        found.append(figures.gain(_GAIN_METRIC[policy.require_gain], index))
    more: object = _DECIDED
    if quality.status == UNCERTAIN and quality.reason is None and quality.estimate is not None:
        more = cases_needed(
            differences,
            delta=quality.estimate / POINTS,
            margin=policy.margin,
            alpha=policy.alpha,
        )
    return found, more


def _quality(
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
    status = _status(low * POINTS, high * POINTS, met_above=threshold)
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


def _quality_gain(quality: Criterion, index: int) -> Criterion:
    """QUALITY gain: Δ's low end above 0 (MET), its high end at or below 0 (VIOLATED)."""
    if quality.low is None or quality.high is None:
        return replace(quality, kind=GAIN, threshold=0.0, status=UNCERTAIN)
    if quality.reason == JUDGE_UNCALIBRATED:
        status = VIOLATED if quality.high <= 0 else UNCERTAIN
    else:
        status = MET if quality.low > 0 else VIOLATED if quality.high <= 0 else UNCERTAIN
    return replace(quality, baseline=index, kind=GAIN, threshold=0.0, status=status)


def _status(low: float, high: float, *, met_above: float) -> str:
    """MET when the interval lies above the bound, VIOLATED when below, else UNCERTAIN."""
    if low > met_above:
        return MET
    if high < met_above:
        return VIOLATED
    return UNCERTAIN


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


class _Figures:
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
        if metric in _PERCENTILE:
            values = [self._trials(c) for c in self._pair]
            if values[0] is None or values[1] is None:
                return None
            cand = values[0].percentile(_PERCENTILE[metric])
            base = values[1].percentile(_PERCENTILE[metric])
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
            wanted.add(_GAIN_METRIC.get(self._policy.require_gain, sp.FAILED_OR_MISSING))
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
        if metric in _PERCENTILE:
            cand, base = (self._trials(c) for c in self._pair)
            assert cand is not None and base is not None
            q = _PERCENTILE[metric]
            return ratios(
                cand.resampled_percentiles(counts, q), base.resampled_percentiles(counts, q)
            )
        pair = self._per_case(metric)
        assert pair is not None
        return ratios(resampled_means(counts, pair[0]), resampled_means(counts, pair[1]))

    def _missing_shares(self) -> FloatArray:
        """Per case: candidate − baseline failed-or-missing share of its trials, in points."""
        cand, base = (_missing_share(c) for c in self._pair)
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


def _missing_share(cohort: CohortMeasures) -> FloatArray:
    """Per case: failed-or-missing trials ÷ planned trials (0 for a case planning none)."""
    trials = cohort.trials
    planned = np.full(len(trials), trials.scheduled) if cohort.planned is None else cohort.planned
    share = np.zeros(len(trials))
    np.divide(planned - trials.completed, planned, out=share, where=planned > 0)
    return share


def _outcome(
    criteria: Sequence[Criterion],
    needed: Sequence[int | None],
    *,
    n: int,
    baselines: int,
    ran_to_end: bool,
) -> tuple[str, str | None, int | None]:
    """(outcome, reason, cases needed) by docs/decision.md's order."""
    if baselines == 0:
        return NO_DECISION, NO_BASELINE, None
    if not ran_to_end:
        return NO_DECISION, NOT_RUN_TO_END, None
    if n < MIN_CASES:
        return NO_DECISION, INSUFFICIENT_CASES, None
    statuses = {c.status for c in criteria}
    if VIOLATED in statuses:
        return DONT_SHIP, None, None
    if statuses == {MET}:
        return SHIP, None, None
    if any(c.reason == JUDGE_UNCALIBRATED for c in criteria):
        return MORE_DATA, JUDGE_UNCALIBRATED, None
    if any(count is None for count in needed):
        return MORE_DATA, UNLIKELY_TO_PASS, None
    counts = [count for count in needed if count is not None]
    return MORE_DATA, None, max(counts) if counts else None
