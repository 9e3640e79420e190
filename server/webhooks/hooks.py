"""Ready-made `publish` calls for the places where events happen; each is called after the
transaction that made its event true has committed, and none raises.

    await hooks.comparison_finished(sessionmaker=…, queue=…, comparison_id=…)
    await hooks.comparison_regressed(sessionmaker=…, queue=…, comparison_id=…, summary={…})
    await hooks.run_regressed(sessionmaker=…, queue=…, run_id=…, summary={…})
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.comparisons.models import TERMINAL_STATUSES, Comparison
from server.money import micros_to_cents
from server.runs.models import Run, RunSource, RunStatus
from server.runtime.interfaces import JobQueue
from server.webhooks.models import WebhookEvent
from server.webhooks.publishing import publish

logger = logging.getLogger("shipwise.webhooks")

R = TypeVar("R", Comparison, Run)


async def _read(
    sessionmaker: async_sessionmaker[AsyncSession], model: type[R], row_id: str
) -> R | None:
    """The committed row, or None (logged) when it cannot be read: never fail the caller's
    finished work over an alert."""
    try:
        async with sessionmaker() as session:
            return await session.get(model, row_id)
    except Exception as exc:
        logger.error(
            "row not read for its webhook event",
            extra={"subject_id": row_id, "error_type": type(exc).__name__},
        )
        return None


async def _publish_about(
    *,
    sessionmaker: async_sessionmaker[AsyncSession],
    queue: JobQueue,
    model: type[R],
    row_id: str,
    event: WebhookEvent,
    summary_of: Callable[[R], Mapping[str, Any] | None],
) -> list[str]:
    """Publish `event` about the committed subject row with `summary_of(row)`; nothing when
    the row cannot be read or `summary_of` answers None (the event is not true of it)."""
    row = await _read(sessionmaker, model, row_id)
    summary = None if row is None else summary_of(row)
    if row is None or summary is None:
        return []
    return await publish(
        sessionmaker=sessionmaker,
        queue=queue,
        workspace_id=row.workspace_id,
        experiment_id=row.experiment_id,
        event=event,
        subject_id=row.id,
        summary=summary,
    )


def _finished_summary(row: Comparison) -> dict[str, Any] | None:
    if row.status not in TERMINAL_STATUSES:
        return None
    return {
        "label": row.label,
        "status": row.status.value,
        "stopReason": row.stop_reason.value if row.stop_reason else None,
        "errorCode": row.error_code,
        "doneCalls": row.done_calls,
        "totalCalls": row.total_calls,
        "failedCalls": row.failed_calls,
        "spentCentsSoFar": micros_to_cents(row.spent_micros),
        "endedAt": row.ended_at.isoformat() if row.ended_at else None,
    }


async def comparison_finished(
    *, sessionmaker: async_sessionmaker[AsyncSession], queue: JobQueue, comparison_id: str
) -> list[str]:
    """`COMPARISON_FINISHED` for a comparison that reached DONE, FAILED or CANCELLED.

    The summary is read from the committed row: `{label, status, stopReason, errorCode,
    doneCalls, totalCalls, failedCalls, spentCentsSoFar, endedAt}`.
    """
    return await _publish_about(
        sessionmaker=sessionmaker,
        queue=queue,
        model=Comparison,
        row_id=comparison_id,
        event=WebhookEvent.COMPARISON_FINISHED,
        summary_of=_finished_summary,
    )


async def comparison_regressed(
    *,
    sessionmaker: async_sessionmaker[AsyncSession],
    queue: JobQueue,
    comparison_id: str,
    summary: Mapping[str, Any],
) -> list[str]:
    """`COMPARISON_REGRESSED` once finalization gave at least one baseline `REGRESSED`.

    `summary` is the caller's (e.g. `{"regressedBaselines": [{"baselineCohortIndex",
    "passRateDeltaPoints", "deltaLow", "deltaHigh"}]}`); the comparison's `label` is added.
    """
    return await _publish_about(
        sessionmaker=sessionmaker,
        queue=queue,
        model=Comparison,
        row_id=comparison_id,
        event=WebhookEvent.COMPARISON_REGRESSED,
        summary_of=lambda row: {"label": row.label, **summary},
    )


async def run_regressed(
    *,
    sessionmaker: async_sessionmaker[AsyncSession],
    queue: JobQueue,
    run_id: str,
    summary: Mapping[str, Any],
) -> list[str]:
    """`RUN_REGRESSED` for a COMPLETED *imported* run whose diff against the previous
    completed imported run of its experiment regressed; a hosted run never fires it.

    `summary` is the caller's (e.g. `{"baselineRunId", "passRateDelta", "regressedCount",
    "significant"}`).
    """

    def summary_of(row: Run) -> Mapping[str, Any] | None:
        imported = row.source == RunSource.IMPORTED and row.status == RunStatus.COMPLETED
        return summary if imported else None

    return await _publish_about(
        sessionmaker=sessionmaker,
        queue=queue,
        model=Run,
        row_id=run_id,
        event=WebhookEvent.RUN_REGRESSED,
        summary_of=summary_of,
    )
