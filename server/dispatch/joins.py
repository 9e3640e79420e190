"""How other worker processes join a comparison's dispatch (see `server.dispatch.dispatcher`).

A delivery whose first claim leaves free ranges invites a join job (`join-0`). A job that
lands in a process already dispatching that comparison starts no second delivery: while
free ranges remain it passes itself on under the other of two job ids (`join-0`/`join-1`,
deferred by `JOIN_DEFER`), so at most two such jobs travel; they end once no range is free.
"""

from __future__ import annotations

import logging
from datetime import timedelta

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


async def _enqueue(
    queue: JobQueue, comparison_id: str, which: int, *, delay: timedelta | None
) -> None:
    try:
        await queue.enqueue(
            "dispatch_comparison",
            comparison_id,
            join=which,
            job_id=dispatch_job_id(comparison_id, f"join-{which}"),
            delay=delay,
        )
    except RuntimeError:  # the embedded queue is closing
        logger.info("join left to the sweep")


async def invite(
    sessionmaker: async_sessionmaker[AsyncSession], queue: JobQueue, comparison_id: str
) -> None:
    """Free ranges remain: a join job lets a process with nothing of this run take one."""
    if await _free(sessionmaker, comparison_id):
        await _enqueue(queue, comparison_id, 0, delay=None)


async def travel(
    sessionmaker: async_sessionmaker[AsyncSession],
    queue: JobQueue,
    comparison_id: str,
    join: int | None,
) -> str:
    """This process dispatches the comparison already: pass the job on while free ranges
    remain (under the other join id), else end."""
    if await _free(sessionmaker, comparison_id):
        await _enqueue(queue, comparison_id, 1 - (join or 0), delay=JOIN_DEFER)
        return "passed on"
    return "dispatching here"
