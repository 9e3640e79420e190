"""Verdicts: finalizing a DONE comparison, retrying it, and reading what it stored.

Finalization streams the trial rows into count matrices a slice of cases at a time, computes
the scorecard off the event loop (every number from `stats/`), then writes the scorecard,
the case rows (a slice at a time) and one hosted run per cohort in one transaction; the
runs are RUNNING until `server.verdicts.hosted_runs` writes their items after the commit.
Reports, follow-ups and webhooks read through the functions here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from uuid import uuid4

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.comparisons import cohort_rates
from server.comparisons import service as comparison_service
from server.comparisons.models import Comparison, ComparisonCase, ComparisonStatus
from server.db import utcnow
from server.errors import Conflict
from server.runtime.interfaces import JobQueue
from server.verdicts import (
    gc_pause,
    inputs,
    judged_decision,
    pair_judgments,
    records,
    scorecard,
    store,
    tensors,
)
from server.verdicts.models import ComparisonVerdict, VerdictState
from server.workspaces.roles import Actor, Role

logger = logging.getLogger("shipwise.verdicts")

FINALIZE_JOB = "finalize_comparison"


def finalize_job_id(comparison_id: str, suffix: str) -> str:
    return f"finalize:{comparison_id}:{suffix}"


@dataclass(frozen=True, slots=True)
class BaselineOutcome:
    baseline_cohort_index: int
    outcome: str
    reason: str
    pass_rate_delta_points: float | None


@dataclass(frozen=True, slots=True)
class Finalized:
    """What one finalization attempt did; `outcomes` is set when it finalized just now."""

    comparison_id: str
    status: str
    """`finalized`, `already finalized`, `not done`, `cases erased` or `missing`."""
    workspace_id: str | None = None
    experiment_id: str | None = None
    outcomes: tuple[BaselineOutcome, ...] = ()


def baseline_outcomes(document: dict[str, Any]) -> tuple[BaselineOutcome, ...]:
    """Each baseline's outcome from a stored scorecard document (webhooks, reports)."""
    return tuple(
        BaselineOutcome(
            baseline_cohort_index=int(row["baselineCohortIndex"]),
            outcome=str(row["outcome"]),
            reason=str(row["reason"]),
            pass_rate_delta_points=row.get("passRateDeltaPoints"),
        )
        for row in document.get("verdicts", [])
    )


async def finalize(
    *, sessionmaker: async_sessionmaker[AsyncSession], comparison_id: str
) -> Finalized:
    """Finalize a DONE comparison (idempotent: a FINALIZED one is left as it is).

    The statistics run in an executor while the transaction that holds the comparison's
    row lock clears an earlier attempt and writes the hosted runs (RUNNING, no items: the
    finalize job queues `hosted_runs.complete` once this returns `finalized`); the cohort
    rates are stored again from the counts (no second aggregate over the trial rows). The
    cyclic garbage collector is paused meanwhile (`gc_pause`).
    """
    with gc_pause.paused():
        return await _finalize(sessionmaker=sessionmaker, comparison_id=comparison_id)


async def _finalize(
    *, sessionmaker: async_sessionmaker[AsyncSession], comparison_id: str
) -> Finalized:
    async with sessionmaker() as session:
        verdict = await session.get(ComparisonVerdict, comparison_id)
        if verdict is not None and verdict.state == VerdictState.FINALIZED:
            return Finalized(comparison_id, "already finalized")
        if verdict is not None and verdict.cases_erased_at is not None:
            return Finalized(comparison_id, "cases erased")
        data = await inputs.load(session, comparison_id)
        if data is None:
            return Finalized(comparison_id, "not done")
        counts = await _count(session, data)
    loop = asyncio.get_running_loop()
    now = utcnow()
    scoring = loop.run_in_executor(None, _score, data, counts)
    try:
        async with sessionmaker() as session, session.begin():
            if not await store.claim(session, comparison_id):
                return Finalized(comparison_id, "already finalized")
            await store.write_runs(session, records.run_rows(data, now))
            scored = await scoring
            # As the run's end settled them, from the counts: no second pass over the trials.
            rates = _rates(data, counts)
            await cohort_rates.store(session, comparison_id=comparison_id, rates=rates)
            # Pairwise judging (server/verdicts/pair_judgments.py): a result per baseline.
            await pair_judgments.add_pairwise(session, comparison_id, scored.document)
            for rows in records.case_row_chunks(data, counts, scored):
                await store.write_cases(session, rows)
            await store.write_verdict(
                session, comparison_id=comparison_id, document=scored.document, now=now
            )
    finally:
        if not scoring.done():  # an early return or a failure: let the thread finish quietly
            scoring.add_done_callback(lambda future: future.exception())
    return Finalized(
        comparison_id,
        "finalized",
        workspace_id=data.workspace_id,
        experiment_id=data.experiment_id,
        outcomes=baseline_outcomes(scored.document),
    )


def _score(data: inputs.FinalizeInput, counts: tensors.Tensors) -> scorecard.Scored:
    """Off the event loop: the scorecard and, from the same counts and seed, the ship
    decision (docs/decision.md), stored with it."""
    scored = scorecard.score(data, counts)
    scored.document["decision"] = judged_decision.decide(data, counts)
    return scored


async def _count(session: AsyncSession, data: inputs.FinalizeInput) -> tensors.Tensors:
    """The count tensors, summed off the event loop a slice of trial rows at a time: what is
    held is the matrices (cohorts × cases), never the comparison's trials."""
    loop = asyncio.get_running_loop()
    accumulator = tensors.Accumulator(data)
    async for _, trials in inputs.trial_chunks(session, data):
        await loop.run_in_executor(None, accumulator.add, trials)
    return accumulator.result()


def _rates(data: inputs.FinalizeInput, t: tensors.Tensors) -> dict[int, tuple[int, int]]:
    """Each cohort's stored pass rate (`cohort_rates.settled`) from its per-case counts."""
    return {
        cohort.index: cohort_rates.settled(
            t.passed[cohort.index].tolist(), t.completed[cohort.index].tolist()
        )
        for cohort in data.cohorts
    }


async def record_failure(
    *, sessionmaker: async_sessionmaker[AsyncSession], comparison_id: str, error_code: str
) -> None:
    """Leave the comparison NOT_FINALIZED with a bounded `verdictErrorCode`."""
    async with sessionmaker() as session, session.begin():
        exists = await session.get(Comparison, comparison_id)
        if exists is None:
            return
        await store.record_failure(
            session, comparison_id=comparison_id, error_code=error_code, now=utcnow()
        )


async def cases_erased(session: AsyncSession, comparison: Comparison) -> bool:
    verdict = await session.get(ComparisonVerdict, comparison.id)
    if verdict is not None and verdict.cases_erased_at is not None:
        return True
    kept = await session.scalar(
        select(func.count())
        .select_from(ComparisonCase)
        .where(ComparisonCase.comparison_id == comparison.id)
    )
    return comparison.case_count > 0 and not kept


async def retry_finalize(
    *,
    sessionmaker: async_sessionmaker[AsyncSession],
    queue: JobQueue,
    actor: Actor,
    comparison_id: str,
) -> Comparison:
    """`finalizeComparison`: queue finalization under a fresh job id (ADMIN and up); a no-op
    on a FINALIZED comparison; CONFLICT unless DONE, or once its cases were erased."""
    actor.require(Role.ADMIN)
    async with sessionmaker() as session, session.begin():
        comparison = await comparison_service.get(
            session=session, workspace_id=actor.workspace_id, comparison_id=comparison_id
        )
        verdict = await session.get(ComparisonVerdict, comparison_id)
        if verdict is not None and verdict.state == VerdictState.FINALIZED:
            return comparison
        if await cases_erased(session, comparison):
            raise Conflict(
                "this comparison was not finalized within 30 days of ending and its cases "
                "were erased: rerun it",
                reason="CASES_ERASED",
            )
        if comparison.status != ComparisonStatus.DONE:
            raise Conflict(
                f"only a DONE comparison can be finalized; this one is {comparison.status.value}",
                reason="NOT_DONE",
            )
        if verdict is not None:  # pending again: the job records a new outcome
            verdict.error_code = None
            verdict.updated_at = utcnow()
        job_id = finalize_job_id(comparison_id, uuid4().hex[:12])
        await comparison_service.record_audit(
            session, actor, "comparison.finalize", comparison, {"jobId": job_id}
        )
    await queue.enqueue(FINALIZE_JOB, comparison_id, job_id=job_id)
    return comparison


async def queue_finalization(queue: JobQueue, comparison_id: str) -> None:
    """Dispatch's hook once a run ended DONE; never raises (the verdict sweep catches a lost
    job: a DONE comparison nobody tried to finalize)."""
    try:
        await queue.enqueue(
            FINALIZE_JOB,
            comparison_id,
            job_id=finalize_job_id(comparison_id, "dispatch"),
        )
    except Exception as exc:
        logger.warning("finalization not queued", extra={"error_type": type(exc).__name__})


async def get_verdicts(
    *, session: AsyncSession, comparison_ids: Sequence[str]
) -> dict[str, ComparisonVerdict]:
    """Verdict rows by comparison id (callers have scoped the ids)."""
    rows = await session.scalars(
        select(ComparisonVerdict).where(ComparisonVerdict.comparison_id.in_(comparison_ids))
    )
    return {row.comparison_id: row for row in rows}


async def get_document(*, session: AsyncSession, comparison_id: str) -> dict[str, Any] | None:
    """The stored scorecard of a FINALIZED comparison (callers have scoped the id)."""
    verdict = await session.get(ComparisonVerdict, comparison_id)
    if verdict is None or verdict.state != VerdictState.FINALIZED:
        return None
    return verdict.scorecard


async def unattended(*, session: AsyncSession, ended_before: timedelta) -> list[str]:
    """DONE comparisons nobody tried to finalize (the hook's job was lost), ended a while ago."""
    rows = await session.scalars(
        select(Comparison.id)
        .outerjoin(ComparisonVerdict, ComparisonVerdict.comparison_id == Comparison.id)
        .where(
            Comparison.status == ComparisonStatus.DONE,
            Comparison.finalized_at.is_(None),
            Comparison.ended_at < utcnow() - ended_before,
            ComparisonVerdict.comparison_id.is_(None),
        )
        .limit(100)
    )
    return list(rows)
