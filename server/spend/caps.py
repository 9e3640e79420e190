"""Spend limits that stop further calls: the comparison's cap, each connection's monthly
cap and the experiment's daily budget. Post-hoc: spend is known once outcomes are recorded.

Dispatch reads the spend ledgers (`ledgers`: one row per limit); the month-to-date figures
shown elsewhere (preview, connections) still sum the trial rows. A run a cap stopped names
the connections whose caps it reached (`Comparison.cappedConnections`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.assets.models import AssetVersion
from server.checks import CheckKind, judge_key
from server.comparisons.models import Comparison, ComparisonCohort, StopReason
from server.connections.models import ModelConnection
from server.experiments.models import Experiment
from server.spend import ledgers


class Cohort(Protocol):
    """What a cap needs of a cohort (dispatch's `CohortPlan`): the connection it calls."""

    @property
    def connection(self) -> ModelConnection: ...


async def stop_reason(
    session: AsyncSession,
    *,
    comparison: Comparison,
    cohorts: Sequence[Cohort],
    daily_budget_micros: int | None | object = ...,
) -> StopReason | None:
    """Why no further call may start, or None. Call with the comparison row locked; reads
    O(1) rows: the comparison's counters and one ledger row per limit."""
    if comparison.budget_cap_micros is not None and (
        comparison.spent_micros >= comparison.budget_cap_micros
    ):
        return StopReason.BUDGET_CAP
    now = datetime.now(UTC)
    capped = {
        c.connection.id: c.connection.monthly_cap_micros
        for c in cohorts
        if c.connection.monthly_cap_micros is not None
    }
    if capped:
        spent = await ledgers.connection_month(session, capped, now=now)
        if any(spent[cid] >= cap for cid, cap in capped.items() if cap is not None):
            return StopReason.CONNECTION_CAP
    budget = daily_budget_micros
    if budget is ...:  # not read with the comparison's lock: read it now
        experiment = await session.get(Experiment, comparison.experiment_id)
        budget = experiment.daily_budget_micros if experiment is not None else None
    if isinstance(budget, int):
        if await ledgers.experiment_day(session, comparison.experiment_id, now=now) >= budget:
            return StopReason.DAILY_BUDGET
    return None


async def capped_connections(
    session: AsyncSession, comparison: Comparison, cohorts: Sequence[ComparisonCohort]
) -> list[ModelConnection]:
    """For a run stopped by CONNECTION_CAP: the connections it calls (cohorts' and judges')
    whose spend in the month the run ended reached their cap, by name; else none."""
    if comparison.stop_reason != StopReason.CONNECTION_CAP:
        return []
    config_ids = {c.bindings["model_config"] for c in cohorts}
    config_ids |= {
        judge_key(s)[1] for s in comparison.checks if s.get("kind") == CheckKind.JUDGE_RUBRIC
    }
    configs = await session.execute(
        select(AssetVersion.content).where(AssetVersion.id.in_(sorted(config_ids)))
    )
    connection_ids = {str(content["connectionId"]) for (content,) in configs}
    rows = (
        await session.execute(
            select(ModelConnection).where(
                ModelConnection.id.in_(sorted(connection_ids)),
                ModelConnection.monthly_cap_micros.is_not(None),
            )
        )
    ).scalars()
    capped = {row.id: row for row in rows}
    when = comparison.ended_at or datetime.now(UTC)
    spent = await ledgers.connection_month(session, capped, now=when)
    reached = [
        row
        for cid, row in capped.items()
        if row.monthly_cap_micros is not None and spent[cid] >= row.monthly_cap_micros
    ]
    return sorted(reached, key=lambda row: row.name)
