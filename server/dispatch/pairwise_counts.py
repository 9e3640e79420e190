"""What a hosted comparison's pairwise judge calls add to its counters and spend."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.pairwise.models import ComparisonPairJudgment, JudgmentState


async def counters(session: AsyncSession, comparison_id: str) -> tuple[int, int, int]:
    """(settled calls, failed calls, spend) of the comparison's pairwise judge calls."""
    state = ComparisonPairJudgment.state
    row = (
        await session.execute(
            select(
                func.count().filter(state != JudgmentState.ADMITTED),
                func.count().filter(state.in_((JudgmentState.ERRORED, JudgmentState.SKIPPED))),
                func.coalesce(func.sum(ComparisonPairJudgment.cost_micros), 0),
            ).where(ComparisonPairJudgment.comparison_id == comparison_id)
        )
    ).one()
    return int(row[0]), int(row[1]), int(row[2])
