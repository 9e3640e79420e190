"""The ship decision of a live comparison (docs/statistics.md, "Live comparisons"): the
criteria of `stats/decision/` read off anytime-valid sequences of two independent arms.

Each criterion is a one-sided test at α read off a sequence at two-sided level 1 − 2α, and
SHIP needs every criterion against every baseline (intersection–union, Berger 1982), as for
a hosted comparison. Because the sequences hold at every trace at once, the decision may be
read after each trace without inflating its error. NO_DECISION under 20 traces an arm;
MORE_DATA carries the traces an arm at which the undecided quality criteria would be
decided with 80% power if the difference and its spread stayed as observed
(`stats.decision.cases_needed` over the matched differences). `settle` keeps DONT_SHIP
final.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

import numpy as np

from stats._arrays import FloatArray
from stats.decision import policy as sp
from stats.decision.criteria import Criterion, quality_gain, status_of
from stats.decision.outcome import Decision, outcome_of
from stats.decision.policy import Guardrail, ShipPolicy
from stats.decision.sample_size import cases_needed
from stats.decision.vocabulary import (
    DONT_SHIP,
    GAIN,
    GUARDRAIL,
    MET,
    NOT_MEASURED,
    POINTS,
    QUALITY,
    UNCERTAIN,
    VIOLATED,
    ZERO_BASELINE,
)
from stats.live.means import (
    DifferenceSequence,
    Interval,
    SequenceNow,
    difference_sequence,
    ratio_interval,
)
from stats.live.quantiles import quantile_ratio_interval

WARM_UP: Final = 20
"""Baseline values that fix a ratio's bound (4 × their largest) when none is given; they
are then left out of that ratio, so the bound is fixed before the values it scales."""
BOUND_FACTOR: Final = 4.0
QUANTILE: Final = {sp.LATENCY_P50: 0.5, sp.LATENCY_P95: 0.95}
MEAN_METRICS: Final = (sp.COST_PER_CASE, sp.OUTPUT_TOKENS)


def _floats(values: Sequence[float] | FloatArray) -> FloatArray:
    return np.asarray(values, dtype=np.float64)


@dataclass(frozen=True, slots=True)
class LiveArm:
    """One release's graded traces in arrival order: `quality` (pass fraction of the
    traces with an output), `errors` (1 for a trace that failed or has no output, per
    trace), `costs` (cents), `output_tokens`, `latencies` (ms)."""

    release: str
    quality: FloatArray = field(default_factory=lambda: np.empty(0))
    errors: FloatArray = field(default_factory=lambda: np.empty(0))
    costs: FloatArray = field(default_factory=lambda: np.empty(0))
    output_tokens: FloatArray = field(default_factory=lambda: np.empty(0))
    latencies: FloatArray = field(default_factory=lambda: np.empty(0))

    @property
    def traces(self) -> int:
        return int(self.errors.size)

    def metric(self, metric: str) -> FloatArray:
        return self.costs if metric == sp.COST_PER_CASE else self.output_tokens


def quality_sequence(
    candidate: LiveArm, baseline: LiveArm, policy: ShipPolicy
) -> DifferenceSequence:
    """The sequence the quality criterion reads (pass-fraction units), at 1 − 2α."""
    return difference_sequence(candidate.quality, baseline.quality, 2.0 * policy.alpha)


def _scaled(value: float | None) -> float | None:
    return None if value is None else value * POINTS


def _quality(seq: SequenceNow, policy: ShipPolicy, index: int) -> Criterion:
    threshold = -policy.quality_margin_points
    if seq.pairs == 0:
        return Criterion(
            index, QUALITY, sp.PASS_RATE, UNCERTAIN, NOT_MEASURED, None, None, None, threshold
        )
    now = seq.last()
    low, high = float(now.low or 0.0) * POINTS, float(now.high or 0.0) * POINTS
    status = status_of(low, high, met_above=threshold)
    return Criterion(
        index, QUALITY, sp.PASS_RATE, status, None, _scaled(now.estimate), low, high, threshold
    )


def _ratio_figure(
    candidate: LiveArm, baseline: LiveArm, metric: str, alpha: float, bound: float | None
) -> Interval | str:
    """The ratio's interval, or a reason (NOT_MEASURED, ZERO_BASELINE) with no figure."""
    if metric in QUANTILE:
        cand, base = candidate.latencies, baseline.latencies
        if cand.size == 0 or base.size == 0:
            return NOT_MEASURED
        if float(np.quantile(base, QUANTILE[metric])) <= 0:
            return ZERO_BASELINE
        return quantile_ratio_interval(cand, base, p=QUANTILE[metric], alpha=alpha)
    cand, base = candidate.metric(metric), baseline.metric(metric)
    if cand.size == 0 or base.size == 0:
        return NOT_MEASURED
    if float(base.max()) <= 0:
        return ZERO_BASELINE
    if bound is None:
        if base.size <= WARM_UP:
            return NOT_MEASURED
        bound = BOUND_FACTOR * float(base[:WARM_UP].max()) or 1.0
        base = base[WARM_UP:]
    return ratio_interval(cand, base, bound=bound, alpha=alpha)


def _zero_status(candidate: LiveArm, metric: str) -> str:
    values = candidate.latencies if metric in QUANTILE else candidate.metric(metric)
    return MET if float(values.max(initial=0.0)) <= 0 else VIOLATED


def _ratio_criterion(
    candidate: LiveArm,
    baseline: LiveArm,
    metric: str,
    threshold: float,
    *,
    kind: str,
    policy: ShipPolicy,
    bounds: dict[str, float],
    index: int,
) -> Criterion:
    """A ratio guardrail (MET when high ≤ the allowance, VIOLATED when low > it) or a
    cost or latency gain (MET when high < 1, VIOLATED when low ≥ 1)."""
    figure = _ratio_figure(candidate, baseline, metric, 2.0 * policy.alpha, bounds.get(metric))
    if isinstance(figure, str):
        status = UNCERTAIN
        if figure == ZERO_BASELINE:
            status = _zero_status(candidate, metric) if kind == GUARDRAIL else VIOLATED
        return Criterion(index, kind, metric, status, figure, None, None, None, threshold)
    high = figure.high if figure.high is not None else math.inf
    low = figure.low if figure.low is not None else 0.0
    if kind == GUARDRAIL:
        status = MET if high <= threshold else VIOLATED if low > threshold else UNCERTAIN
    else:
        status = MET if high < 1.0 else VIOLATED if low >= 1.0 else UNCERTAIN
    return Criterion(
        index, kind, metric, status, None, figure.estimate, figure.low, figure.high, threshold
    )


def _failed_or_missing(seq: SequenceNow, guardrail: Guardrail, index: int) -> Criterion:
    threshold = guardrail.threshold
    if seq.pairs == 0:
        return Criterion(
            index,
            GUARDRAIL,
            sp.FAILED_OR_MISSING,
            UNCERTAIN,
            NOT_MEASURED,
            None,
            None,
            None,
            threshold,
        )
    now = seq.last()
    low, high = float(now.low or 0.0) * POINTS, float(now.high or 0.0) * POINTS
    status = MET if high <= threshold else VIOLATED if low > threshold else UNCERTAIN
    return Criterion(
        index,
        GUARDRAIL,
        sp.FAILED_OR_MISSING,
        status,
        None,
        _scaled(now.estimate),
        low,
        high,
        threshold,
    )


def criteria_against(
    candidate: LiveArm,
    baseline: LiveArm,
    policy: ShipPolicy,
    *,
    index: int,
    bounds: dict[str, float] | None = None,
    running: tuple[SequenceNow, SequenceNow] | None = None,
) -> tuple[list[Criterion], SequenceNow]:
    """Every criterion against one baseline, and the quality sequence they were read off.
    `running`: the quality and FAILED_OR_MISSING sequences at 1 − 2α, kept up to date by
    the caller (`stats.live.running`), in place of computing them from every value."""
    seq: SequenceNow = running[0] if running else quality_sequence(candidate, baseline, policy)
    quality = _quality(seq, policy, index)
    found = [quality]
    for guardrail in policy.guardrails:
        if guardrail.metric == sp.FAILED_OR_MISSING:
            errors: SequenceNow = (
                running[1]
                if running
                else difference_sequence(candidate.errors, baseline.errors, 2.0 * policy.alpha)
            )
            found.append(_failed_or_missing(errors, guardrail, index))
        else:
            found.append(
                _ratio_criterion(
                    candidate,
                    baseline,
                    guardrail.metric,
                    guardrail.threshold,
                    kind=GUARDRAIL,
                    policy=policy,
                    bounds=bounds or {},
                    index=index,
                )
            )
    if policy.require_gain == sp.QUALITY:
        found.append(quality_gain(quality, index))
    elif policy.require_gain in (sp.COST, sp.LATENCY):
        metric = sp.COST_PER_CASE if policy.require_gain == sp.COST else sp.LATENCY_P50
        found.append(
            _ratio_criterion(
                candidate,
                baseline,
                metric,
                1.0,
                kind=GAIN,
                policy=policy,
                bounds=bounds or {},
                index=index,
            )
        )
    return found, seq


def decide_live(
    candidate: LiveArm,
    baselines: Sequence[LiveArm],
    policy: ShipPolicy | None = None,
    *,
    bounds: dict[str, float] | None = None,
    running: Sequence[tuple[SequenceNow, SequenceNow]] | None = None,
) -> tuple[Decision, list[SequenceNow]]:
    """The decision now, and each baseline's quality sequence. `bounds`: the largest
    cost / output tokens a trace is counted at (else fixed from the first baseline values).
    `running`: each baseline's quality and FAILED_OR_MISSING sequences at 1 − 2α, kept up
    to date by the caller (the same bounds as from the values). The decision's `n` is the
    fewest traces of any arm."""
    policy = policy or ShipPolicy()
    problem = sp.validate(policy)
    if problem is not None:
        raise ValueError(f"{problem.field}: {problem.message}")
    criteria: list[Criterion] = []
    needed: list[int | None] = []
    sequences: list[SequenceNow] = []
    for index, baseline in enumerate(baselines):
        found, seq = criteria_against(
            candidate,
            baseline,
            policy,
            index=index,
            bounds=bounds,
            running=running[index] if running else None,
        )
        criteria.extend(found)
        sequences.append(seq)
        quality = found[0]
        if quality.status == UNCERTAIN and quality.estimate is not None:
            pairs = seq.pairs
            d = _floats(candidate.quality[:pairs]) - _floats(baseline.quality[:pairs])
            needed.append(
                cases_needed(
                    d, delta=quality.estimate / POINTS, margin=policy.margin, alpha=policy.alpha
                )
            )
    n = min([arm.traces for arm in (candidate, *baselines)])
    outcome, reason, traces_needed = outcome_of(
        criteria, needed, n=n, baselines=len(baselines), ran_to_end=True
    )
    return Decision(outcome, reason, traces_needed, n, tuple(criteria)), sequences


def settle(previous: Decision | None, current: Decision) -> Decision:
    """DONT_SHIP is final: once reached, later traces do not change it."""
    if previous is not None and previous.outcome == DONT_SHIP:
        return previous
    return current
