"""Erasing the cases of comparisons nobody finalized within 30 days of their end (docs/domain.md).

The frozen case rows go and every trial's output, tool calls and check results are cleared;
a trial's tokens and cost stay, since spend caps are summed from them. The verdict row
records the erasure, after which `finalizeComparison` answers CONFLICT (CASES_ERASED).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Final

from sqlalchemy import delete, exists, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons.models import TERMINAL_STATUSES, Comparison, ComparisonCase, Trial
from server.verdicts import store
from server.verdicts.models import VerdictError, VerdictState

KEEP_UNFINALIZED: Final = timedelta(days=30)
BATCH: Final = 100


async def erase_stale(*, session: AsyncSession, now: datetime) -> list[str]:
    """Erase up to BATCH comparisons ended more than 30 days ago and never finalized."""
    ids = list(
        await session.scalars(
            select(Comparison.id)
            .where(
                Comparison.status.in_(list(TERMINAL_STATUSES)),
                Comparison.ended_at < now - KEEP_UNFINALIZED,
                Comparison.finalized_at.is_(None),
                exists().where(ComparisonCase.comparison_id == Comparison.id),
            )
            .order_by(Comparison.ended_at)
            .limit(BATCH)
        )
    )
    for comparison_id in ids:
        _, verdict = await store.lock(session, comparison_id)
        if verdict.state == VerdictState.FINALIZED:
            continue
        await session.execute(
            delete(ComparisonCase).where(ComparisonCase.comparison_id == comparison_id)
        )
        await session.execute(
            update(Trial)
            .where(Trial.comparison_id == comparison_id)
            .values(output=None, tool_calls=None, check_results=None)
        )
        await store.clear(session, comparison_id)
        verdict.cases_erased_at = now
        verdict.error_code = VerdictError.CASES_ERASED.value
        verdict.updated_at = now
    return ids
