"""Job: grade a workspace's live comparisons' new traces in batches (docs/live.md).

Queued by trace ingest (`server/traces/receiver.py`) with a job id per workspace and
second (`hooks.SLICE_SECONDS`), so a burst of exports makes one job; a job that graded
something queues the next second's, so traces stored while it ran are not left waiting for
more traffic, and a settle check two minutes on (`hooks.queue_settle_check`,
server/live/cursor.py).
"""

from __future__ import annotations

from typing import Any, Final

from server.live import grading, hooks

MAX_BATCHES: Final = 20
"""Batches per comparison in one job; the continuation takes the rest."""


async def grade_live_traces(ctx: dict[str, Any], workspace_id: str) -> int:
    """arq job: grade every RUNNING live comparison's new traces; how many were graded."""
    sessionmaker = ctx["sessionmaker"]
    total = 0
    for live_id in await grading.running_ids(sessionmaker=sessionmaker, workspace_id=workspace_id):
        for _ in range(MAX_BATCHES):
            graded = await grading.grade_batch(
                sessionmaker=sessionmaker, live_id=live_id, providers=ctx.get("providers")
            )
            if graded is None:
                break
            total += graded.graded
            await hooks.announce(
                graded, sessionmaker=sessionmaker, queue=ctx["queue"], events=ctx.get("events")
            )
            if graded.decided:
                break
    if total:
        await hooks.queue_grading(ctx["queue"], workspace_id, ahead=1)
        await hooks.queue_settle_check(ctx["queue"], workspace_id)
    return total
