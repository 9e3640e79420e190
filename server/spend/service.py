"""Spend summed from the rows: trials, pairwise judge calls, imported runs' judge calls
(`RunJudgeSpend`) and the Playground's calls (`PlaygroundCall`), per connection this UTC month
and per experiment today. The truth the ledgers are resynced from, and what preview and
connections show."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons.models import Comparison, ComparisonPairJudgment, Trial
from server.run_pairs.models import PairwiseJob
from server.spend.models import PlaygroundCall, RunJudgeSpend
from server.spend.periods import day_start, month_start


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
    judged = await session.execute(
        select(RunJudgeSpend.connection_id, func.coalesce(func.sum(RunJudgeSpend.spent_micros), 0))
        .where(
            RunJudgeSpend.connection_id.in_(ids),
            RunJudgeSpend.recorded_at >= month_start(now or datetime.now(UTC)),
        )
        .group_by(RunJudgeSpend.connection_id)
    )
    for connection_id, total in judged:
        spend[connection_id] += int(total)
    played = await session.execute(
        select(PlaygroundCall.connection_id, func.coalesce(func.sum(PlaygroundCall.cost_micros), 0))
        .where(
            PlaygroundCall.connection_id.in_(ids),
            PlaygroundCall.recorded_at >= month_start(now or datetime.now(UTC)),
        )
        .group_by(PlaygroundCall.connection_id)
    )
    for connection_id, total in played:
        spend[connection_id] += int(total)
    return spend


async def month_to_date_spend_micros(
    *,
    session: AsyncSession,
    connection_ids: list[str],
) -> dict[str, int]:
    """Spend of each connection this calendar month (UTC), in micro-dollars.

    Derived, never stored: the sum of the recorded cost of its trials and judge calls
    this month. What a connection shows (`spend.loaders`).
    """
    return await month_to_date_spend(session, connection_ids)


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
    imported = (
        await session.execute(
            select(func.coalesce(func.sum(RunJudgeSpend.spent_micros), 0)).where(
                RunJudgeSpend.experiment_id == experiment_id,
                RunJudgeSpend.recorded_at >= day_start(now or datetime.now(UTC)),
            )
        )
    ).scalar_one()
    return int(total) + int(judged) + int(imported)
