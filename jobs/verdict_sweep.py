"""Periodic job (also at start-up): a DONE comparison whose finalization job was lost gets
one queued, and a finalized one whose hosted runs are still RUNNING gets their job again."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from server.settings import Settings
from server.verdicts import hosted_runs, service

SETTLE = timedelta(minutes=1)
"""How long after its end a comparison is left to the hook's own job (and hosted runs after
their verdict to the finalize job's follow-up), unless the settings say otherwise
(`SHIPWISE_VERDICT_SETTLE_SECONDS`)."""


def settle(ctx: dict[str, Any]) -> timedelta:
    """The settings' settle time (`ctx["settings"]`), or `SETTLE` in a context without them."""
    settings = ctx.get("settings")
    if isinstance(settings, Settings):
        return timedelta(seconds=settings.verdict_settle_seconds)
    return SETTLE


async def sweep_verdicts(ctx: dict[str, Any]) -> int:
    """Queue finalization for DONE comparisons nobody tried to finalize, and the hosted runs'
    job for runs left RUNNING after their verdict; how many jobs."""
    settled = settle(ctx)
    async with ctx["sessionmaker"]() as session:
        ids = await service.unattended(session=session, ended_before=settled)
        running = await hosted_runs.pending(session=session, created_before=settled)
    queued = 0
    for comparison_id in running:
        queued += await hosted_runs.queue_completion(ctx["queue"], comparison_id, suffix="sweep")
    for comparison_id in ids:
        queued += bool(
            await ctx["queue"].enqueue(
                service.FINALIZE_JOB,
                comparison_id,
                job_id=service.finalize_job_id(comparison_id, "sweep"),
            )
        )
    return queued
