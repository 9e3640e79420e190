"""The worker heartbeat: each worker's last beat (`jobs/heartbeat.py` writes it)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from server.db import utcnow
from server.ops.models import WorkerHeartbeat


async def beat(*, session: AsyncSession, worker_name: str) -> None:
    """Record that `worker_name` is alive now."""
    row = await session.get(WorkerHeartbeat, worker_name)
    if row is None:
        session.add(WorkerHeartbeat(worker_name=worker_name, seen_at=utcnow()))
    else:
        row.seen_at = utcnow()
