"""The worker heartbeat: each worker's last beat (`jobs/heartbeat.py` writes it, `/metrics`
shows it as `shipwise_worker_last_heartbeat_seconds`)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.db import utcnow
from server.ops.models import WorkerHeartbeat

FORGET_AFTER = timedelta(days=1)
"""A worker silent this long is gone (its name holds a process id): its row is dropped."""


async def beat(*, session: AsyncSession, worker_name: str) -> None:
    """Record that `worker_name` is alive now, and forget workers long gone."""
    now = utcnow()
    await session.execute(
        delete(WorkerHeartbeat).where(WorkerHeartbeat.seen_at < now - FORGET_AFTER)
    )
    row = await session.get(WorkerHeartbeat, worker_name)
    if row is None:
        session.add(WorkerHeartbeat(worker_name=worker_name, seen_at=now))
    else:
        row.seen_at = now


async def last_beats(*, session: AsyncSession) -> list[tuple[str, float]]:
    """(worker, its last beat as Unix time) of each worker heard from within `FORGET_AFTER`."""
    rows = await session.execute(
        select(WorkerHeartbeat.worker_name, WorkerHeartbeat.seen_at)
        .where(WorkerHeartbeat.seen_at >= utcnow() - FORGET_AFTER)
        .order_by(WorkerHeartbeat.worker_name)
    )
    return [(name, seen.timestamp()) for name, seen in rows.all()]
