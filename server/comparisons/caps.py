"""Spend limits that stop further calls: the comparison's cap, each connection's monthly
cap and the experiment's daily budget. Post-hoc: spend is known once outcomes are recorded.

Dispatch reads the spend ledgers (`ledgers`: one row per limit); the month-to-date figures
shown elsewhere (preview, connections) still sum the trial rows."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons import ledgers
from server.comparisons.ledgers import day_start, month_start
from server.comparisons.models import Comparison, StopReason, Trial
from server.experiments.models import Experiment

if TYPE_CHECKING:
    from server.comparisons.dispatch_store import CohortPlan


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
    return spend


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
    return int(total)


async def stop_reason(
    session: AsyncSession,
    *,
    comparison: Comparison,
    cohorts: Sequence[CohortPlan],
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
