"""After a grading batch commits: the progress event and the webhooks it made true
(`live_comparison.decided`, `live_comparison.guardrail_violated`). Never raises."""

from __future__ import annotations

import logging
import time
from datetime import timedelta
from typing import Any, Final

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.live import cursor, service
from server.live.grading import Graded
from server.runtime.interfaces import EventBus, JobQueue
from server.webhooks.models import WebhookEvent
from server.webhooks.publishing import publish

logger = logging.getLogger("shipwise.live")

SLICE_SECONDS: Final = 1.0
"""One grading job a workspace a second while traffic flows: each batch re-reads the last
`cursor.LAG` of traces and commits under the comparison's row lock, so at 2,000 traces/s
quarter-second batches cost the worker and PostgreSQL several times what they graded; a
decision is still visible within about a second of its trace (docs/live.md)."""
GRADING_JOB: Final = "grade_live_traces"


def grading_job_id(workspace_id: str, *, ahead: int = 0) -> str:
    """The grading job's id for the workspace in the current (or a later) slice of
    `SLICE_SECONDS`: a burst of exports makes one job."""
    return f"live:{workspace_id}:{int(time.time() / SLICE_SECONDS) + ahead}"


async def queue_grading(queue: JobQueue, workspace_id: str, *, ahead: int = 0) -> None:
    """Queue the grading job (`jobs/live.py`) by name; never raises."""
    delay = timedelta(seconds=SLICE_SECONDS * ahead) if ahead else None
    await _enqueue(queue, workspace_id, grading_job_id(workspace_id, ahead=ahead), delay)


async def queue_settle_check(queue: JobQueue, workspace_id: str) -> None:
    """The grading job once more two `SETTLE`s after the current `SETTLE`-long slot began
    (one a slot), so a trace that committed behind the cursor (server/live/cursor.py) is
    graded after the traffic stopped too; never raises."""
    settle = cursor.SETTLE.total_seconds()
    slot = int(time.time() / settle)
    job_id = f"live-settle:{workspace_id}:{slot}"
    await _enqueue(queue, workspace_id, job_id, timedelta(seconds=2 * settle))


async def _enqueue(
    queue: JobQueue, workspace_id: str, job_id: str, delay: timedelta | None
) -> None:
    try:
        await queue.enqueue(GRADING_JOB, workspace_id, job_id=job_id, delay=delay)
    except Exception as exc:  # the next export queues it again
        logger.warning("live grading not queued", extra={"error_type": type(exc).__name__})


def topic(live_id: str) -> str:
    return f"live:{live_id}"


def _summary(graded: Graded, event: WebhookEvent) -> dict[str, Any]:
    """The decision's outcome and sentence, with every criterion when it decided, or the
    violated guardrails alone for `live_comparison.guardrail_violated`."""
    decision = graded.decision or {}
    criteria = decision.get("criteria", [])
    if event == WebhookEvent.LIVE_COMPARISON_GUARDRAIL_VIOLATED:
        criteria = [c for c in criteria if c["kind"] == "GUARDRAIL" and c["status"] == "VIOLATED"]
    return {
        "outcome": decision.get("outcome"),
        "sentence": decision.get("sentence"),
        "criteria": [
            {k: c.get(k) for k in ("kind", "metric", "status", "estimate", "low", "high")}
            for c in criteria
        ],
    }


async def announce(
    graded: Graded,
    *,
    sessionmaker: async_sessionmaker[AsyncSession],
    queue: JobQueue,
    events: EventBus | None,
) -> None:
    """Publish the progress snapshot's seq and the batch's webhook events."""
    if events is not None:
        try:
            await events.publish(topic(graded.live_id), graded.seq, {"seq": graded.seq})
        except Exception as exc:  # the row is the truth; subscribers re-read it
            logger.warning("live progress not published", extra={"error_type": type(exc).__name__})
    wanted = []
    if graded.guardrail_violated:
        wanted.append(WebhookEvent.LIVE_COMPARISON_GUARDRAIL_VIOLATED)
    if graded.decided:
        wanted.append(WebhookEvent.LIVE_COMPARISON_DECIDED)
    for event in wanted:
        await publish(
            sessionmaker=sessionmaker,
            queue=queue,
            workspace_id=graded.workspace_id,
            experiment_id=None,
            event=event,
            subject_id=graded.live_id,
            summary=_summary(graded, event),
        )


class TracesStored:
    """What trace ingest calls (server/traces/receiver.py): `watching` in the transaction that
    stores a workspace's spans (no session of its own an export), `stored` after it commits,
    when it was: queue grading, a live comparison of the workspace being RUNNING."""

    def __init__(self, queue: JobQueue) -> None:
        self._queue = queue

    async def watching(self, session: AsyncSession, workspace_id: str) -> bool:
        return await service.is_watching(session=session, workspace_id=workspace_id)

    async def stored(self, workspace_id: str) -> None:
        await queue_grading(self._queue, workspace_id)


def traces_stored(*, queue: JobQueue) -> TracesStored:
    return TracesStored(queue)
