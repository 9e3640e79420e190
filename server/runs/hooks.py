"""Webhook events about a run: `RUN_REGRESSED`.

await hooks.run_regressed(sessionmaker=…, queue=…, run_id=…, summary={…})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.runs.models import Run, RunSource, RunStatus
from server.runtime.interfaces import JobQueue
from server.webhooks.hooks import publish_about
from server.webhooks.models import WebhookEvent


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

    return await publish_about(
        sessionmaker=sessionmaker,
        queue=queue,
        model=Run,
        row_id=run_id,
        event=WebhookEvent.RUN_REGRESSED,
        summary_of=summary_of,
    )
