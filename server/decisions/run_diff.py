"""A run diff's ship decision (docs/decision.md; docs/decision.md): the comparison's engine over the
paired items.

An item is a case: its graded trials are the completed ones, its trials the planned ones.
Cost, latency and output tokens come from the trials' `metrics.costUsd`, `metrics.wallMs`
and `metrics.outputTokens` where both runs carry them; a guardrail on a metric they lack is
UNCERTAIN with reason NOT_MEASURED. Items are read only as far as the policy needs: the
trials' JSON only when a guardrail or gain uses one of those metrics.
"""

from __future__ import annotations

import asyncio
import math
from typing import Any, Final

import numpy as np
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

import stats
from server.decisions import document as decision_document
from server.decisions import policy as ship_policy_option
from server.runs import diff_queries as q
from server.runs.diff import completed_pair, pair_seed
from server.workspaces.models import Workspace
from stats import ship_policy as engine
from stats.decision import CohortMeasures

_TRIAL_METRICS: Final = {
    engine.COST_PER_CASE: "costUsd",
    engine.OUTPUT_TOKENS: "outputTokens",
    engine.LATENCY_P50: "wallMs",
    engine.LATENCY_P95: "wallMs",
}
_GAIN_METRICS: Final = {engine.COST: engine.COST_PER_CASE, engine.LATENCY: engine.LATENCY_P50}


async def policy_for(
    session: AsyncSession, workspace_id: str, spec: ship_policy_option.ShipPolicySpec | None
) -> ship_policy_option.ShipPolicySpec:
    """The policy given, else the workspace's `defaultShipPolicy`, else docs/decision.md's."""
    if spec is not None:
        ship_policy_option.check(spec, where="policy")
        return spec
    workspace = await session.get(Workspace, workspace_id)
    return ship_policy_option.from_document(workspace.default_ship_policy if workspace else None)


async def decide(
    *,
    session: AsyncSession,
    workspace_id: str,
    candidate_run_id: str,
    baseline_run_id: str,
    policy: ship_policy_option.ShipPolicySpec | None = None,
) -> dict[str, Any]:
    """The decision document for the candidate run against the baseline run."""
    spec = await policy_for(session, workspace_id, policy)
    candidate, baseline = await completed_pair(
        session=session,
        workspace_id=workspace_id,
        candidate_run_id=candidate_run_id,
        baseline_run_id=baseline_run_id,
    )
    engine_policy = ship_policy_option.to_engine(spec)
    pairing = await q.pairing(session, candidate.id, baseline.id)
    sides = q.Sides(candidate.id, baseline.id, pairing)
    rows = await _paired_items(session, sides, with_trials=_needs_trials(engine_policy))
    labels = {0: f"run {candidate.id}", 1: f"run {baseline.id}"}
    seed = pair_seed(candidate.id, baseline.id)
    return await asyncio.get_running_loop().run_in_executor(
        None, _decide, rows, engine_policy, seed, labels
    )


def _needs_trials(policy: engine.ShipPolicy) -> bool:
    metrics = {g.metric for g in policy.guardrails}
    metrics.add(_GAIN_METRICS.get(policy.require_gain, engine.FAILED_OR_MISSING))
    return any(metric in _TRIAL_METRICS for metric in metrics)


async def _paired_items(
    session: AsyncSession, sides: q.Sides, *, with_trials: bool
) -> list[tuple[Any, ...]]:
    """Per pair, by candidate position: each side's trial, graded and passed counts (and
    trials)."""
    c, b, on = q._items(sides)
    columns: list[Any] = [
        c.position,
        c.trial_count,
        c.graded_count,
        c.passed_count,
        b.trial_count,
        b.graded_count,
        b.passed_count,
    ]
    if with_trials:
        columns += [c.trials, b.trials]
    stmt = (
        select(*columns)
        .select_from(c)
        .join(b, on)
        .where(c.run_id == sides.candidate)
        .order_by(c.position)
    )
    return [tuple(row) for row in (await session.execute(stmt)).all()]


def _decide(
    rows: list[tuple[Any, ...]],
    policy: engine.ShipPolicy,
    seed: int,
    labels: dict[int, str],
) -> dict[str, Any]:
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
