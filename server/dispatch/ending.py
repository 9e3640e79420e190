"""The end of a run, by the one delivery holding the comparison's finishing lease: the
row's status and counters (`store.finish`), its webhook and its finalization."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server import db_retry
from server.comparisons import hooks as comparison_hooks
from server.comparisons.models import ComparisonStatus, StopReason
from server.comparisons.progress import Progress
from server.dispatch import store
from server.dispatch.ranges import Ending
from server.runtime.interfaces import JobQueue
from server.verdicts.service import queue_finalization


async def settle(
    sessionmaker: async_sessionmaker[AsyncSession],
    queue: JobQueue,
    *,
    comparison_id: str,
    token: int,
    status: ComparisonStatus,
    stop_reason: StopReason | None,
    error_code: str | None,
) -> Progress:
    """End the run (a cancelled one keeps its status); the snapshot to publish."""
    snapshot = await db_retry.unit(
        sessionmaker,
        lambda session: store.finish(
            session,
            comparison_id=comparison_id,
            token=token,
            status=status,
            stop_reason=stop_reason,
            error_code=error_code,
        ),
        what="ending the run",
    )
    if status != ComparisonStatus.CANCELLED and snapshot.status == status.value:
        # This delivery ended it (a cancel publishes its own event).
        await comparison_hooks.comparison_finished(
            sessionmaker=sessionmaker, queue=queue, comparison_id=comparison_id
        )
    if snapshot.status == ComparisonStatus.DONE.value:  # any stop reason
        await queue_finalization(queue, comparison_id)
    return snapshot


def outcome(ending: Ending) -> str:
    """The job's result for a run this delivery ended."""
    if ending.error_code is not None:
        return "failed: outcome ambiguous"
    if ending.status != ComparisonStatus.DONE:
        return f"stopped: {ending.status.value}"
    if ending.stop_reason not in (None, StopReason.COMPLETED):
        return f"done: {ending.stop_reason.value}"
    return "done"
