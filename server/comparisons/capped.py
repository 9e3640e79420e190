"""Which connections' monthly caps stopped a run (`Comparison.cappedConnections`): the stop
text names them ("Stopped: my-connection reached its monthly cap of $50.00")."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.assets.models import AssetVersion
from server.comparisons.models import Comparison, ComparisonCohort, StopReason
from server.connections.models import ModelConnection
from server.dispatch.plan import JUDGE_RUBRIC, judge_key
from server.spend import ledgers


async def capped_connections(
    session: AsyncSession, comparison: Comparison, cohorts: Sequence[ComparisonCohort]
) -> list[ModelConnection]:
    """For a run stopped by CONNECTION_CAP: the connections it calls (cohorts' and judges')
    whose spend in the month the run ended reached their cap, by name; else none."""
    if comparison.stop_reason != StopReason.CONNECTION_CAP:
        return []
    config_ids = {c.bindings["model_config"] for c in cohorts}
    config_ids |= {judge_key(s)[1] for s in comparison.checks if s.get("kind") == JUDGE_RUBRIC}
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
