"""A run's items as export rows: one per (item, trial), in position order.

Read in keyset batches over `(run_id, position)` (its unique index), each batch in its own
short session. A trial's fields are what the run holds: imported runs' `{passed,
evaluators, output, metrics}` and, where the server graded or hosted them, `checks`,
`errorCode`, latency, tokens and cost.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.runs.models import RunItem

BATCH = 500
COLUMNS = (
    "runId",
    "position",
    "datasetItemId",
    "trialIndex",
    "passed",
    "output",
    "evaluators",
    "checks",
    "toolCalls",
    "errorCode",
    "latencyMs",
    "inputTokens",
    "outputTokens",
    "costMicros",
    "metrics",
    "input",
)


def trial_fields(trial: dict[str, Any], index: int) -> dict[str, Any]:
    """The export's view of one stored trial (what it lacks is left empty)."""
    stored = trial.get("metrics")
    metrics: dict[str, Any] = stored if isinstance(stored, dict) else {}
    return {
        "trialIndex": trial.get("trialIndex", index),
        "passed": trial.get("passed"),
        "output": trial.get("output"),
        "evaluators": trial.get("evaluators"),
        "checks": trial.get("checks"),
        "toolCalls": trial.get("toolCalls", metrics.get("toolCalls")),
        "errorCode": trial.get("errorCode"),
        "latencyMs": trial.get("latencyMs", metrics.get("wallMs")),
        "inputTokens": trial.get("inputTokens"),
        "outputTokens": trial.get("outputTokens"),
        "costMicros": trial.get("costMicros"),
        "metrics": trial.get("metrics"),
    }


def item_rows(run_id: str, item: RunItem) -> Iterator[dict[str, Any]]:
    for index, trial in enumerate(item.trials):
        yield {
            "runId": run_id,
            "position": item.position,
            "datasetItemId": item.dataset_item_id,
            **trial_fields(trial if isinstance(trial, dict) else {}, index),
            "input": item.input,
        }


async def items_at(session: AsyncSession, run_id: str, *, after: int, limit: int) -> list[RunItem]:
    stmt = (
        select(RunItem)
        .where(RunItem.run_id == run_id, RunItem.position > after)
        .order_by(RunItem.position)
        .limit(limit)
    )
    return list(await session.scalars(stmt))


async def run_rows(
    *, sessionmaker: async_sessionmaker[AsyncSession], run_id: str, batch: int = BATCH
) -> AsyncIterator[dict[str, Any]]:
    """Every trial of every item of the run (its workspace checked by the caller)."""
    after = -1
    while True:
        async with sessionmaker() as session:
            items = await items_at(session, run_id, after=after, limit=batch)
        for item in items:
            for row in item_rows(run_id, item):
                yield row
        if len(items) < batch:
            return
        after = items[-1].position
