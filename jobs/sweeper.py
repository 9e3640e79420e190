"""Periodic job: no comparison stays RUNNING with nothing working on it.

A RUNNING comparison whose dispatch lease is free or expired (its worker died, or its
continuation was lost) gets a fresh dispatch job; the lease decides who runs it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import or_, select

from jobs.dispatch import dispatch_job_id
from server.comparisons.models import Comparison, ComparisonStatus
from server.db import utcnow


async def sweep_comparisons(ctx: dict[str, Any]) -> int:
    """Enqueue dispatch for every unattended RUNNING comparison; how many were enqueued."""
    async with ctx["sessionmaker"]() as session:
        rows = (
            await session.execute(
                select(Comparison.id, Comparison.lease_token).where(
                    Comparison.status == ComparisonStatus.RUNNING,
                    or_(
                        Comparison.lease_owner.is_(None),
                        Comparison.lease_expires_at.is_(None),
                        Comparison.lease_expires_at < utcnow(),
                    ),
                )
            )
        ).all()
    enqueued = 0
    for comparison_id, token in rows:
        job_id = dispatch_job_id(comparison_id, f"sweep-{token}")
        enqueued += bool(
            await ctx["queue"].enqueue("dispatch_comparison", comparison_id, job_id=job_id)
        )
    return enqueued
