"""Periodic job: no comparison stays RUNNING with nothing working on it.

A RUNNING comparison with an unfinished range whose lease is free or expired (its worker
died, or its continuation was lost), or with no range held at all (its ranges finished,
or a stop pending, but nobody ended it), and a free finishing lease, gets a fresh dispatch
job; the leases decide who runs it (`server.dispatch.ranges`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from server.comparisons.models import Comparison
from server.db import utcnow
from server.dispatch import ranges
from server.dispatch.joins import dispatch_job_id


async def sweep_comparisons(ctx: dict[str, Any]) -> int:
    """Enqueue dispatch for every unattended RUNNING comparison; how many were enqueued."""
    async with ctx["sessionmaker"]() as session:
        rows = (
            await session.execute(
                select(Comparison.id, Comparison.lease_token, ranges.tokens_sum()).where(
                    ranges.unattended(utcnow())
                )
            )
        ).all()
    enqueued = 0
    for comparison_id, token, range_tokens in rows:
        job_id = dispatch_job_id(comparison_id, f"sweep-{token}-{range_tokens}")
        enqueued += bool(
            await ctx["queue"].enqueue("dispatch_comparison", comparison_id, job_id=job_id)
        )
    return enqueued
