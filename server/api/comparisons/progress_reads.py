"""A comparison's progress read from its row, shared between its subscribers.

Subscribers read the row when they join and again when the run ends, and all of one
comparison's subscribers reach its end at the same moment: in `bench/soak.py` (200
subscribers following four running comparisons) these reads were about half of the API's
busy time (py-spy, docs/benchmarks.md, "Ten minutes of mixed load"). Here the subscribers of
one comparison in one workspace asking at the same time share one read, and a terminal
snapshot, which never changes (a comparison that ended never runs again), is kept for
`ENDED_SECONDS`, so a subscriber joining an ended comparison reads nothing.
"""

from __future__ import annotations

import asyncio
import weakref
from functools import partial
from typing import Final

from cachetools import TTLCache
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.comparisons import service
from server.comparisons.progress import Progress, snapshot

ENDED_SECONDS: Final = 60.0
"""How long an ended comparison's snapshot is answered without reading its row."""
ENDED_KEPT: Final = 4096

Key = tuple[str, str]
"""(workspace id, comparison id): a read is never shared across workspaces."""


async def read_progress(
    sessionmaker: async_sessionmaker[AsyncSession], *, workspace_id: str, comparison_id: str
) -> Progress:
    """The comparison's snapshot from its row, in a short session; NOT_FOUND outside the
    workspace."""
    async with sessionmaker() as session:
        row = await service.get(
            session=session, workspace_id=workspace_id, comparison_id=comparison_id
        )
        cohorts = await service.get_cohorts(session=session, comparison_ids=[row.id])
    return snapshot(row, [(c.cohort_index, c.state) for c in cohorts.get(row.id, [])])


class SharedProgressReads:
    """One process's progress reads on one database."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self._sessionmaker = sessionmaker
        self._ended: TTLCache[Key, Progress] = TTLCache(maxsize=ENDED_KEPT, ttl=ENDED_SECONDS)
        self._reading: dict[Key, asyncio.Future[Progress]] = {}

    async def read(self, *, workspace_id: str, comparison_id: str) -> Progress:
        key = (workspace_id, comparison_id)
        ended = self._ended.get(key)
        if ended is not None:
            return ended
        reading = self._reading.get(key)
        if reading is None:
            reading = asyncio.ensure_future(
                read_progress(
                    self._sessionmaker, workspace_id=workspace_id, comparison_id=comparison_id
                )
            )
            self._reading[key] = reading
            reading.add_done_callback(partial(self._done, key))
        # A subscriber that leaves mid-read leaves the read to the others.
        return await asyncio.shield(reading)

    def _done(self, key: Key, reading: asyncio.Future[Progress]) -> None:
        self._reading.pop(key, None)
        if reading.cancelled() or reading.exception() is not None:
            return
        progress = reading.result()
        if progress.terminal:
            self._ended[key] = progress


_READS: weakref.WeakKeyDictionary[async_sessionmaker[AsyncSession], SharedProgressReads] = (
    weakref.WeakKeyDictionary()
)


def progress_reads(sessionmaker: async_sessionmaker[AsyncSession]) -> SharedProgressReads:
    """The process's shared reads on this database (made on first use)."""
    reads = _READS.get(sessionmaker)
    if reads is None:
        reads = _READS[sessionmaker] = SharedProgressReads(sessionmaker)
    return reads
