"""A run diff's ship decision (docs/decision.md): the comparison's engine over the paired
items, which `server/runs/diff_items.py` reads.

An item is a case: its graded trials are the completed ones, its trials the planned ones.
Cost, latency and output tokens come from the trials' `metrics.costUsd`, `metrics.wallMs`
and `metrics.outputTokens` where both runs carry them; a guardrail on a metric they lack is
UNCERTAIN with reason NOT_MEASURED. Items are read only as far as the policy needs: the
trials' JSON only when a guardrail or gain uses one of those metrics.
"""

from __future__ import annotations

import math
from typing import Any, Final

import numpy as np

import stats
from server.decisions import document as decision_document
from stats.decision import CohortMeasures
from stats.decision import policy as engine

_TRIAL_METRICS: Final = {
    engine.COST_PER_CASE: "costUsd",
    engine.OUTPUT_TOKENS: "outputTokens",
    engine.LATENCY_P50: "wallMs",
    engine.LATENCY_P95: "wallMs",
}
_GAIN_METRICS: Final = {engine.COST: engine.COST_PER_CASE, engine.LATENCY: engine.LATENCY_P50}


def needs_trials(policy: engine.ShipPolicy) -> bool:
    """Whether a guardrail or the gain reads the trials' metrics (their JSON)."""
    metrics = {g.metric for g in policy.guardrails}
    metrics.add(_GAIN_METRICS.get(policy.require_gain, engine.FAILED_OR_MISSING))
    return any(metric in _TRIAL_METRICS for metric in metrics)


def decide(
    rows: list[tuple[Any, ...]],
    policy: engine.ShipPolicy,
    seed: int,
    labels: dict[int, str],
) -> dict[str, Any]:
    """The decision document over the paired items' rows: per pair, by candidate position,
    each side's trial, graded and passed counts, then (with `needs_trials`) each side's
    trials."""
    cohorts = [_cohort(rows, side) for side in (0, 1)]
    decision = stats.ship_decision(cohorts[0], cohorts[1:], policy, seed=seed)
    return decision_document.to_document(
        decision, policy=policy, labels=labels, candidate=labels[0]
    )


def _cohort(rows: list[tuple[Any, ...]], side: int) -> CohortMeasures:
    """One run's items as a cohort (side 0 the candidate, 1 the baseline)."""
    at = 1 + 3 * side
    planned = np.array([max(int(r[at]), int(r[at + 1])) for r in rows], dtype=np.int64)
    graded = np.array([int(r[at + 1]) for r in rows], dtype=np.int64)
    passed = np.array([int(r[at + 2]) for r in rows], dtype=np.int64)
    scheduled = max(1, int(planned.max())) if len(planned) else 1
    trials = stats.CohortTrials(passed, graded, scheduled)
    if len(rows) == 0 or len(rows[0]) <= 7:
        return CohortMeasures(trials, planned=planned)
    documents = [r[7 + side] or [] for r in rows]
    latency, cases = _trial_values(documents, "wallMs")
    return CohortMeasures(
        trials,
        cost=_item_means(documents, "costUsd"),
        output_tokens=_item_means(documents, "outputTokens"),
        latency=latency if len(latency) else None,
        latency_case=cases if len(latency) else None,
        planned=planned,
    )


def _metric(trial: Any, name: str) -> float | None:
    metrics = trial.get("metrics") if isinstance(trial, dict) else None
    value = metrics.get(name) if isinstance(metrics, dict) else None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _item_means(documents: list[list[Any]], name: str) -> np.ndarray[Any, Any] | None:
    """Per item: the mean of the metric over the trials that carry it (NaN: none); None
    when no item carries it."""
    means = np.full(len(documents), np.nan)
    for index, trials in enumerate(documents):
        values = [v for v in (_metric(t, name) for t in trials) if v is not None]
        if values:
            means[index] = sum(values) / len(values)
    return None if np.all(np.isnan(means)) else means


def _trial_values(
    documents: list[list[Any]], name: str
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    values: list[float] = []
    cases: list[int] = []
    for index, trials in enumerate(documents):
        for trial in trials:
            value = _metric(trial, name)
            if value is not None:
                values.append(value)
                cases.append(index)
    return np.array(values, dtype=np.float64), np.array(cases, dtype=np.int64)
