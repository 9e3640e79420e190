"""A comparison's trials as export rows: one per (case, cohort, trial), case-major.

Read in keyset batches (each its own short session) over the trial table's unique index, so
the export holds one batch in memory at a time and no transaction while the client reads.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.comparisons import service as comparison_service
from server.comparisons.models import ComparisonCase, ComparisonCohort, Trial
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


async def comparison_rows(
    *,
    sessionmaker: async_sessionmaker[AsyncSession],
    comparison_id: str,
    labels: dict[int, str],
    batch: int = BATCH,
) -> AsyncIterator[dict[str, Any]]:
    """Every trial of the comparison, with its case's id, input and expected answer."""
    key = tuple_(Trial.case_ordinal, Trial.cohort_index, Trial.trial_index)
    after: tuple[int, int, int] = (-1, -1, -1)
    while True:
        stmt = (
            select(Trial, DatasetCase.dataset_item_id, DatasetCase.input, DatasetCase.expected)
            .join(
                ComparisonCase,
                (ComparisonCase.comparison_id == Trial.comparison_id)
                & (ComparisonCase.ordinal == Trial.case_ordinal),
            )
            .join(DatasetCase, DatasetCase.id == ComparisonCase.dataset_case_id)
            .where(Trial.comparison_id == comparison_id, key > tuple_(*after))
            .order_by(Trial.case_ordinal, Trial.cohort_index, Trial.trial_index)
            .limit(batch)
        )
        async with sessionmaker() as session:
            rows = (await session.execute(stmt)).all()
        for trial, item_id, case_input, expected in rows:
            yield {
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
                "input": case_input,
                "expected": expected,
            }
        if len(rows) < batch:
            return
        last = rows[-1][0]
        after = (last.case_ordinal, last.cohort_index, last.trial_index)
