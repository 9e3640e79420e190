"""Webhook events about a comparison: `COMPARISON_FINISHED` and `COMPARISON_REGRESSED`.

await hooks.comparison_finished(sessionmaker=…, queue=…, comparison_id=…)
await hooks.comparison_regressed(sessionmaker=…, queue=…, comparison_id=…, summary={…})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.comparisons.models import TERMINAL_STATUSES, Comparison
from server.money import micros_to_cents
from server.runtime.interfaces import JobQueue
from server.webhooks.hooks import publish_about
from server.webhooks.models import WebhookEvent


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
    return await publish_about(
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
    return await publish_about(
        sessionmaker=sessionmaker,
        queue=queue,
        model=Comparison,
        row_id=comparison_id,
        event=WebhookEvent.COMPARISON_REGRESSED,
        summary_of=lambda row: {"label": row.label, **summary},
    )
