"""Writing a finalization's verdict in one transaction under the comparison's row lock.

Whatever an earlier, failed attempt left is replaced, so finalizing is idempotent; a
comparison already FINALIZED is left alone. Rows go in with Core executemany.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons.models import Comparison
from server.runs.models import Run, RunItem, RunItemScore
from server.verdicts import bulk
from server.verdicts.models import ComparisonVerdict, VerdictCase, VerdictState


async def lock(session: AsyncSession, comparison_id: str) -> tuple[Comparison, ComparisonVerdict]:
    """The comparison row locked, and its verdict row (created NOT_FINALIZED if absent)."""
    comparison = (
        await session.execute(
            select(Comparison)
            .where(Comparison.id == comparison_id)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
    ).scalar_one()
    verdict = await session.get(ComparisonVerdict, comparison_id, populate_existing=True)
    if verdict is None:
        verdict = ComparisonVerdict(
            comparison_id=comparison_id,
            workspace_id=comparison.workspace_id,
            state=VerdictState.NOT_FINALIZED,
            attempts=0,
        )
        session.add(verdict)
        await session.flush()
    return comparison, verdict


async def clear(session: AsyncSession, comparison_id: str) -> None:
    """Remove the hosted runs and case rows of an earlier attempt."""
    run_ids = select(Run.id).where(Run.comparison_id == comparison_id).scalar_subquery()
    await session.execute(delete(RunItemScore).where(RunItemScore.run_id.in_(run_ids)))
    await session.execute(delete(RunItem).where(RunItem.run_id.in_(run_ids)))
    await session.execute(delete(Run).where(Run.comparison_id == comparison_id))
    await session.execute(delete(VerdictCase).where(VerdictCase.comparison_id == comparison_id))


async def claim(session: AsyncSession, comparison_id: str) -> bool:
    """Lock the comparison and clear an earlier attempt's rows; False (nothing to do) when it
    is FINALIZED already or its cases were erased meanwhile."""
    _, verdict = await lock(session, comparison_id)
    if verdict.state == VerdictState.FINALIZED or verdict.cases_erased_at is not None:
        return False
    await clear(session, comparison_id)
    return True


async def write_runs(session: AsyncSession, runs: Sequence[dict[str, Any]]) -> None:
    """The hosted run rows (RUNNING: `server.verdicts.hosted_runs` writes their items)."""
    await bulk.insert_rows(session, bulk.table(Run), runs)


async def write_cases(session: AsyncSession, rows: Sequence[dict[str, Any]]) -> None:
    """A slice of the case rows (`records.case_row_chunks`)."""
    await bulk.insert_rows(session, bulk.table(VerdictCase), rows)


async def write_verdict(
    session: AsyncSession, *, comparison_id: str, document: dict[str, Any], now: datetime
) -> None:
    """The scorecard, after every case row; the comparison becomes FINALIZED (after
    `claim`)."""
    comparison, verdict = await lock(session, comparison_id)
    verdict.state = VerdictState.FINALIZED
    verdict.error_code = None
    verdict.scorecard = {**document, "finalizedAt": now.isoformat()}
    verdict.finalized_at = now
    verdict.attempts = verdict.attempts + 1
    verdict.updated_at = now
    comparison.finalized_at = now


async def record_failure(
    session: AsyncSession, *, comparison_id: str, error_code: str, now: datetime
) -> None:
    """NOT_FINALIZED with a bounded code (a FINALIZED comparison keeps its verdict)."""
    _, verdict = await lock(session, comparison_id)
    if verdict.state == VerdictState.FINALIZED:
        return
    verdict.error_code = error_code
    verdict.attempts = verdict.attempts + 1
    verdict.updated_at = now
