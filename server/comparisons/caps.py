"""Spend limits that stop further calls: the comparison's cap, each connection's monthly
cap and the experiment's daily budget. Post-hoc: spend is known once outcomes are recorded."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons.models import Comparison, StopReason, Trial
from server.experiments.models import Experiment
from server.pairwise.models import ComparisonPairJudgment, PairwiseJob

if TYPE_CHECKING:
    from server.comparisons.dispatch_store import CohortPlan


def month_start(now: datetime) -> datetime:
    return now.astimezone(UTC).replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def day_start(now: datetime) -> datetime:
    return now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


async def month_to_date_spend(
    session: AsyncSession, connection_ids: Iterable[str], *, now: datetime | None = None
) -> dict[str, int]:
    """Micro-dollars recorded this UTC month per connection, from trial rows."""
    ids = list(connection_ids)
    spend = dict.fromkeys(ids, 0)
    if not ids:
        return spend
    rows = await session.execute(
        select(Trial.connection_id, func.coalesce(func.sum(Trial.cost_micros), 0))
        .where(
            Trial.connection_id.in_(ids),
            Trial.completed_at >= month_start(now or datetime.now(UTC)),
        )
        .group_by(Trial.connection_id)
    )
    for connection_id, total in rows:
        spend[connection_id] = int(total)
    for connection_id, total in await _pairwise_spend(session, ids, now):
        spend[connection_id] += int(total)
    return spend


async def _pairwise_spend(
    session: AsyncSession, ids: list[str], now: datetime | None
) -> list[tuple[str, int]]:
    """What pairwise judge calls cost each connection this month: pairwise jobs' (a running
    job's spend so far counts from its start) and hosted comparisons'."""
    when = func.coalesce(PairwiseJob.completed_at, PairwiseJob.started_at)
    rows = await session.execute(
        select(PairwiseJob.connection_id, func.coalesce(func.sum(PairwiseJob.cost_micros), 0))
        .where(
            PairwiseJob.connection_id.in_(ids),
            when >= month_start(now or datetime.now(UTC)),
        )
        .group_by(PairwiseJob.connection_id)
    )
    found = [(str(connection_id), int(total)) for connection_id, total in rows]
    hosted = await session.execute(
        select(
            ComparisonPairJudgment.connection_id,
            func.coalesce(func.sum(ComparisonPairJudgment.cost_micros), 0),
        )
        .where(
            ComparisonPairJudgment.connection_id.in_(ids),
            ComparisonPairJudgment.completed_at >= month_start(now or datetime.now(UTC)),
        )
        .group_by(ComparisonPairJudgment.connection_id)
    )
    return found + [(str(connection_id), int(total)) for connection_id, total in hosted]


async def experiment_spend_today(
    session: AsyncSession, experiment_id: str, *, now: datetime | None = None
) -> int:
    total = (
        await session.execute(
            select(func.coalesce(func.sum(Trial.cost_micros), 0))
            .join(Comparison, Comparison.id == Trial.comparison_id)
            .where(
                Comparison.experiment_id == experiment_id,
                Trial.completed_at >= day_start(now or datetime.now(UTC)),
            )
        )
    ).scalar_one()
    judged = (
        await session.execute(
            select(func.coalesce(func.sum(ComparisonPairJudgment.cost_micros), 0))
            .join(Comparison, Comparison.id == ComparisonPairJudgment.comparison_id)
            .where(
                Comparison.experiment_id == experiment_id,
                ComparisonPairJudgment.completed_at >= day_start(now or datetime.now(UTC)),
            )
        )
    ).scalar_one()
    return int(total) + int(judged)


async def stop_reason(
    session: AsyncSession, *, comparison: Comparison, cohorts: Sequence[CohortPlan]
) -> StopReason | None:
    """Why no further call may start, or None. Call with the comparison row locked."""
    if comparison.budget_cap_micros is not None and (
        comparison.spent_micros >= comparison.budget_cap_micros
    ):
        return StopReason.BUDGET_CAP
    capped = {
        c.connection.id: c.connection.monthly_cap_micros
        for c in cohorts
        if c.connection.monthly_cap_micros is not None
    }
    if capped:
        spent = await month_to_date_spend(session, capped)
        if any(spent[cid] >= cap for cid, cap in capped.items() if cap is not None):
            return StopReason.CONNECTION_CAP
    experiment = await session.get(Experiment, comparison.experiment_id)
    if experiment is not None and experiment.daily_budget_micros is not None:
        if await experiment_spend_today(session, experiment.id) >= experiment.daily_budget_micros:
            return StopReason.DAILY_BUDGET
    return None
