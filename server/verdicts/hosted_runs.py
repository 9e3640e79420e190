"""A finalized comparison's hosted runs: their items written after the verdict.

Finalization commits the verdict with one RUNNING hosted run per cohort and no items, so
nobody waits for 15,000 items to read a verdict. This follow-up writes each run's items and
evaluator scores (PostgreSQL builds them from the trial rows, SQLite in Python) and
completes the runs, in one transaction: a run is never COMPLETED without all its items.

Queued by the finalize job once the verdict is committed; a lost job (the process died in
between) is queued again by the verdict sweep (`pending`), which also runs at start-up.
Idempotent: only RUNNING hosted runs are written, under their row locks (SQLite's single
writer), so a second run of the job finds nothing to do.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import Final

from sqlalchemy import Select, delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.comparisons.models import Comparison
from server.db import utcnow
from server.runs.models import Run, RunItem, RunItemScore, RunSource, RunStatus
from server.runtime.interfaces import JobQueue
from server.verdicts import bulk, gc_pause, inputs, pg_items, records, tensors
from server.verdicts.models import ComparisonVerdict, VerdictCase, VerdictState

logger = logging.getLogger("shipwise.verdicts")

HOSTED_RUNS_JOB: Final = "complete_hosted_runs"
"""Enqueued by name (server never imports jobs): `jobs/hosted_runs.py`."""

COMPLETED: Final = "completed"
NOTHING_TO_DO: Final = "nothing to do"


def job_id(comparison_id: str, suffix: str) -> str:
    return f"hosted-runs:{comparison_id}:{suffix}"


async def queue_completion(queue: JobQueue, comparison_id: str, *, suffix: str) -> bool:
    """Queue the follow-up; never raises (the verdict sweep finds runs left RUNNING)."""
    try:
        return await queue.enqueue(
            HOSTED_RUNS_JOB, comparison_id, job_id=job_id(comparison_id, suffix)
        )
    except Exception as exc:
        logger.warning("hosted runs not queued", extra={"error_type": type(exc).__name__})
        return False


async def complete(*, sessionmaker: async_sessionmaker[AsyncSession], comparison_id: str) -> str:
    """Write the items of a FINALIZED comparison's RUNNING hosted runs and complete them:
    `completed`, or `nothing to do` (complete already, or no verdict)."""
    with gc_pause.paused():
        async with sessionmaker() as session:
            if not bulk.is_postgres(session):
                return await _complete_in_python(sessionmaker, comparison_id)
        async with sessionmaker() as session, session.begin():
            runs = await _lock_running(session, comparison_id)
            if not runs:
                return NOTHING_TO_DO
            ran = await _ran(session, comparison_id)
            checks, trials = (
                await session.execute(
                    select(Comparison.checks, Comparison.trials_per_case).where(
                        Comparison.id == comparison_id
                    )
                )
            ).one()
            await _clear(session, runs)
            ordinals = sorted(ran)
            size = inputs.slice_cases(len(runs), int(trials))
            for low in range(0, len(ordinals), size):
                await pg_items.write(
                    session,
                    comparison_id=comparison_id,
                    ran=ordinals[low : low + size],
                    names=tensors.evaluator_names(list(checks or [])),
                )
            await _mark_completed(session, runs, len(ran))
    return COMPLETED


async def _complete_in_python(
    sessionmaker: async_sessionmaker[AsyncSession], comparison_id: str
) -> str:
    """SQLite: in one transaction, the items built and written a slice of cases at a time
    (`inputs.trial_chunks`), then the runs completed. The embedded writer is held while
    they are built (a few seconds for the largest embedded runs), the price of never
    holding a whole comparison's trials and outputs in memory."""
    loop = asyncio.get_running_loop()
    async with sessionmaker() as session, session.begin():
        runs = await _lock_running(session, comparison_id)
        if not runs:
            return NOTHING_TO_DO
        ran = await _ran(session, comparison_id)
        data = await inputs.load(session, comparison_id)
        if data is None:
            raise LookupError("the hosted runs' comparison is not DONE")
        await _clear(session, runs)
        async for cases, trials in inputs.trial_chunks(session, data, documents=True):
            built = await loop.run_in_executor(
                None, records.hosted_items, data, cases, trials, ran, runs
            )
            await bulk.insert_rows(session, bulk.table(RunItem), built.items)
            await bulk.insert_rows(session, bulk.table(RunItemScore), built.scores)
        await _mark_completed(session, runs, len(ran))
    return COMPLETED


def _running_query(comparison_id: str) -> Select[int | None, str]:
    return (
        select(Run.cohort_index, Run.id)
        .join(ComparisonVerdict, ComparisonVerdict.comparison_id == Run.comparison_id)
        .where(
            Run.comparison_id == comparison_id,
            Run.source == RunSource.HOSTED,
            Run.status == RunStatus.RUNNING,
            ComparisonVerdict.state == VerdictState.FINALIZED,
        )
    )


async def _running(session: AsyncSession, comparison_id: str) -> dict[int, str]:
    """The comparison's RUNNING hosted runs by cohort, once its verdict is FINALIZED."""
    rows = await session.execute(_running_query(comparison_id))
    return {int(cohort): str(run_id) for cohort, run_id in rows if cohort is not None}


async def _lock_running(session: AsyncSession, comparison_id: str) -> dict[int, str]:
    """`_running` with the run rows locked: a concurrent completion waits, then finds none."""
    rows = await session.execute(_running_query(comparison_id).with_for_update(of=Run))
    return {int(cohort): str(run_id) for cohort, run_id in rows if cohort is not None}


async def _ran(session: AsyncSession, comparison_id: str) -> frozenset[int]:
    """The cases that ran: those with a case row in the verdict."""
    rows = await session.scalars(
        select(VerdictCase.ordinal).where(VerdictCase.comparison_id == comparison_id)
    )
    return frozenset(int(ordinal) for ordinal in rows)


async def _clear(session: AsyncSession, runs: dict[int, str]) -> None:
    """Items an interrupted write could not have left (one transaction), removed anyway so
    the insert below never meets a duplicate position."""
    ids = list(runs.values())
    await session.execute(delete(RunItemScore).where(RunItemScore.run_id.in_(ids)))
    await session.execute(delete(RunItem).where(RunItem.run_id.in_(ids)))


async def _mark_completed(session: AsyncSession, runs: dict[int, str], items: int) -> None:
    await session.execute(
        update(Run)
        .where(Run.id.in_(list(runs.values())))
        .values(status=RunStatus.COMPLETED, item_count=items, completed_at=utcnow())
    )


async def pending(*, session: AsyncSession, created_before: timedelta) -> list[str]:
    """Comparisons whose hosted runs are still RUNNING a while after their verdict (the
    follow-up job was lost)."""
    rows = await session.scalars(
        select(Run.comparison_id)
        .where(
            Run.source == RunSource.HOSTED,
            Run.status == RunStatus.RUNNING,
            Run.created_at < utcnow() - created_before,
        )
        .distinct()
        .limit(100)
    )
    return [str(comparison_id) for comparison_id in rows if comparison_id is not None]
