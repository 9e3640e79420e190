"""Ready-made `publish` calls for the places where events happen (called after commit)."""

from __future__ import annotations

import logging

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.comparisons.models import TERMINAL_STATUSES, Comparison
from server.money import micros_to_cents
from server.runtime.interfaces import JobQueue
from server.webhooks.models import WebhookEvent
from server.webhooks.publishing import publish

logger = logging.getLogger("shipwise.webhooks")


async def comparison_finished(
    *, sessionmaker: async_sessionmaker[AsyncSession], queue: JobQueue, comparison_id: str
) -> list[str]:
    """`COMPARISON_FINISHED` for a comparison that reached DONE, FAILED or CANCELLED.

    The summary is read from the committed row: `{label, status, stopReason, errorCode,
    doneCalls, totalCalls, failedCalls, spentCentsSoFar, endedAt}`.
    """
    try:
        async with sessionmaker() as session:
            row = await session.get(Comparison, comparison_id)
    except Exception as exc:  # never fail the caller's finished work over an alert
        logger.error(
            "comparison not read for its webhook event",
            extra={"comparison_id": comparison_id, "error_type": type(exc).__name__},
        )
        return []
    if row is None or row.status not in TERMINAL_STATUSES:
        return []
    summary = {
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
    return await publish(
        sessionmaker=sessionmaker,
        queue=queue,
        workspace_id=row.workspace_id,
        experiment_id=row.experiment_id,
        event=WebhookEvent.COMPARISON_FINISHED,
        subject_id=row.id,
        summary=summary,
    )
