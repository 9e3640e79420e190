"""How other worker processes join a comparison's dispatch (see `server.dispatch.dispatcher`).

A delivery whose first claim leaves free ranges invites a join job (`join-0`). A job that
lands in a process already dispatching that comparison starts no second delivery: while
free ranges remain it passes itself on under the other of two job ids (`join-0`/`join-1`,
deferred by `JOIN_DEFER`), so at most two such jobs travel; they end once no range is free.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.dispatch import ranges
from server.runtime.interfaces import JobQueue

logger = logging.getLogger("shipwise.dispatch")

JOIN_DEFER = timedelta(seconds=0.5)
"""How long a join job that landed in a busy process waits before it travels again."""


def dispatch_job_id(comparison_id: str, suffix: str) -> str:
    return f"dispatch:{comparison_id}:{suffix}"


async def _free(sessionmaker: async_sessionmaker[AsyncSession], comparison_id: str) -> int:
    async with sessionmaker() as session:
        return await ranges.free_count(session, comparison_id)


async def enqueue(queue: JobQueue, comparison_id: str, suffix: str, **job: Any) -> None:
    """A dispatch job of the comparison, `dispatch:<id>:<suffix>` (joins, a continuation);
    left to the sweep when the embedded queue is closing."""
    job_id = dispatch_job_id(comparison_id, suffix)
    try:
        await queue.enqueue("dispatch_comparison", comparison_id, job_id=job_id, **job)
    except RuntimeError:  # the embedded queue is closing
        logger.info("dispatch job left to the sweep", extra={"job_id": job_id})


async def invite(
    sessionmaker: async_sessionmaker[AsyncSession], queue: JobQueue, comparison_id: str
) -> None:
    """Free ranges remain: a join job lets a process with nothing of this run take one."""
    if await _free(sessionmaker, comparison_id):
        await enqueue(queue, comparison_id, "join-0", join=0, delay=None)


async def travel(
    sessionmaker: async_sessionmaker[AsyncSession],
    queue: JobQueue,
    comparison_id: str,
    join: int | None,
) -> str:
    """This process dispatches the comparison already: pass the job on while free ranges
    remain (under the other join id), else end."""
    if await _free(sessionmaker, comparison_id):
        which = 1 - (join or 0)
        await enqueue(queue, comparison_id, f"join-{which}", join=which, delay=JOIN_DEFER)
        return "passed on"
    return "dispatching here"
