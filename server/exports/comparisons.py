"""A comparison's trials as export rows: one per (case, cohort, trial), case-major.

Read a range of case ordinals at a time (about `BATCH` trials, each range its own short
session), so the export holds one batch in memory and no transaction while the client
reads, and each query touches only its range's trials whatever the planner's estimates
(a row-value keyset let PostgreSQL, with stale statistics, sort every remaining trial on
every batch).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.comparisons import service as comparison_service
from server.comparisons.models import Comparison, ComparisonCase, ComparisonCohort, Trial
from server.datasets.models import DatasetCase

BATCH = 1000
COLUMNS = (
    "comparisonId",
    "caseOrdinal",
    "datasetItemId",
    "cohortIndex",
    "cohortLabel",
    "trialIndex",
    "state",
    "passed",
    "score",
    "output",
    "toolCalls",
    "checks",
    "errorCode",
    "latencyMs",
    "inputTokens",
    "outputTokens",
    "costMicros",
    "costEstimated",
    "input",
    "expected",
)


async def cohort_labels(
    *, session: AsyncSession, workspace_id: str, comparison_id: str
) -> dict[int, str]:
    """The workspace's comparison's labels by cohort index; NOT_FOUND for another's."""
    await comparison_service.get(
        session=session, workspace_id=workspace_id, comparison_id=comparison_id
    )
    rows = await session.execute(
        select(ComparisonCohort.cohort_index, ComparisonCohort.label).where(
            ComparisonCohort.comparison_id == comparison_id
        )
    )
    return {int(index): str(label) for index, label in rows}


async def _case_span(session: AsyncSession, comparison_id: str) -> tuple[int, int]:
    """(trials per case at most, the last case ordinal + 1)."""
    found = await session.execute(
        select(func.count(ComparisonCohort.cohort_index), Comparison.trials_per_case)
        .join(Comparison, Comparison.id == ComparisonCohort.comparison_id)
        .where(ComparisonCohort.comparison_id == comparison_id)
        .group_by(Comparison.trials_per_case)
    )
    cohorts, trials = found.one_or_none() or (1, 1)
    last = await session.scalar(
        select(func.max(Trial.case_ordinal)).where(Trial.comparison_id == comparison_id)
    )
    return max(1, int(cohorts) * int(trials)), (-1 if last is None else int(last)) + 1


def _row(
    comparison_id: str, labels: dict[int, str], trial: Trial, item_id: str, case: Any, expected: Any
) -> dict[str, Any]:
    return {
        "comparisonId": comparison_id,
        "caseOrdinal": trial.case_ordinal,
        "datasetItemId": item_id,
        "cohortIndex": trial.cohort_index,
        "cohortLabel": labels.get(trial.cohort_index),
        "trialIndex": trial.trial_index,
        "state": trial.state.value,
        "passed": trial.passed,
        "score": trial.score,
        "output": trial.output,
        "toolCalls": trial.tool_calls,
        "checks": trial.check_results,
        "errorCode": trial.error_code,
        "latencyMs": trial.latency_ms,
        "inputTokens": trial.input_tokens,
        "outputTokens": trial.output_tokens,
        "costMicros": trial.cost_micros,
        "costEstimated": trial.cost_estimated,
        "input": case,
        "expected": expected,
    }


async def comparison_rows(
    *,
    sessionmaker: async_sessionmaker[AsyncSession],
    comparison_id: str,
    labels: dict[int, str],
    batch: int = BATCH,
) -> AsyncIterator[dict[str, Any]]:
    """Every trial of the comparison, with its case's id, input and expected answer."""
    async with sessionmaker() as session:
        per_case, end = await _case_span(session, comparison_id)
    step = max(1, batch // per_case)
    for low in range(0, end, step):
        stmt = (
            select(Trial, DatasetCase.dataset_item_id, DatasetCase.input, DatasetCase.expected)
            .join(
                ComparisonCase,
                (ComparisonCase.comparison_id == Trial.comparison_id)
                & (ComparisonCase.ordinal == Trial.case_ordinal),
            )
            .join(DatasetCase, DatasetCase.id == ComparisonCase.dataset_case_id)
            .where(
                Trial.comparison_id == comparison_id,
                Trial.case_ordinal >= low,
                Trial.case_ordinal < low + step,
            )
            .order_by(Trial.case_ordinal, Trial.cohort_index, Trial.trial_index)
        )
        async with sessionmaker() as session:
            rows = (await session.execute(stmt)).all()
        for trial, item_id, case, expected in rows:
            yield _row(comparison_id, labels, trial, item_id, case, expected)
