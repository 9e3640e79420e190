"""Periodic job: a DONE comparison whose finalization job was lost gets one queued."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from server.verdicts import service

SETTLE = timedelta(minutes=1)
"""How long after its end a comparison is left to the hook's own job."""


async def sweep_verdicts(ctx: dict[str, Any]) -> int:
    """Queue finalization for DONE comparisons nobody tried to finalize; how many."""
    async with ctx["sessionmaker"]() as session:
        ids = await service.unattended(session=session, ended_before=SETTLE)
    queued = 0
    for comparison_id in ids:
        queued += bool(
            await ctx["queue"].enqueue(
                service.FINALIZE_JOB,
                comparison_id,
                job_id=service.finalize_job_id(comparison_id, "sweep"),
            )
        )
    return queued
