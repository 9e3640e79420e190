"""The trace list's `totalCount`, kept a moment per (workspace, filter) in each process: at a
million spans the count reads a quarter of a million index entries (~170 ms), and 20 readers
of the first page asked for it each time.

- A count at most `FRESH_SECONDS` old is answered as it is (the portal asks again every 5 s,
  docs/portal.md).
- An older one, when the caller can count apart from its request (`again`: its own session,
  PostgreSQL), is still answered while it is counted again behind the request, once at a
  time: another process's changes show within `FRESH_SECONDS` plus a count's time, and no
  reader waits for a count its traces did not ask for.
- None kept, or the workspace's traces changed in this process since (`changed`: an export
  stored, a trace scored, expired traces deleted): counted in the request, at once right.
  One count at a time per (workspace, filter, generation): requests that find none while one
  is being counted wait for its answer rather than each scanning the index too.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from cachetools import LRUCache

logger = logging.getLogger("shipwise.traces")

FRESH_SECONDS = 2.0
_MAX_ENTRIES = 10_000

_counts: LRUCache[tuple[str, Any], tuple[float, int, int]] = LRUCache(maxsize=_MAX_ENTRIES)
"""(workspace, filter) → (counted at, generation then, count)."""
_generations: LRUCache[str, int] = LRUCache(maxsize=_MAX_ENTRIES)
_counting: dict[tuple[str, Any, int], asyncio.Future[int]] = {}
"""(workspace, filter, generation) → the count being counted now."""
_behind: set[asyncio.Task[None]] = set()
"""Counts running behind requests (held until they end)."""

Counter = Callable[[], Awaitable[int]]


def changed(workspace_id: str) -> None:
    """The workspace's traces changed: its counts are counted again."""
    _generations[workspace_id] = _generations.get(workspace_id, 0) + 1


async def count(
    workspace_id: str,
    where: Any,
    counted: Counter,
    *,
    again: Counter | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """The count under `where` (hashable): kept, from `counted` when none is kept for the
    workspace's traces as they are here, and counted again by `again` behind the request
    when the kept one aged."""
    key = (workspace_id, where)
    generation = _generations.get(workspace_id, 0)
    kept = _counts.get(key)
    now = clock()
    if kept is not None and kept[1] == generation:
        if now - kept[0] < FRESH_SECONDS:
            return kept[2]
        if again is not None:
            _count_behind(key, generation, again, clock)
            return kept[2]
    flying = (workspace_id, where, generation)
    other = _counting.get(flying)
    if other is not None:
        await asyncio.wait([other])  # this request cancelled: the other count goes on
        if not other.cancelled():  # else it failed or its request went: count here
            return other.result()
    return await _count_once(key, generation, counted, now, _flying(key, generation))


def _flying(key: tuple[str, Any], generation: int) -> asyncio.Future[int]:
    """The count of `key` at `generation` from now on being counted (its answer, for others)."""
    mine: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    _counting[(*key, generation)] = mine
    return mine


async def _count_once(
    key: tuple[str, Any], generation: int, counted: Counter, now: float, mine: asyncio.Future[int]
) -> int:
    flying = (*key, generation)
    try:
        found = await counted()
    except BaseException:
        mine.cancel()
        raise
    finally:
        if _counting.get(flying) is mine:
            del _counting[flying]
    mine.set_result(found)
    _counts[key] = (now, generation, found)
    return found


def _count_behind(
    key: tuple[str, Any], generation: int, again: Counter, clock: Callable[[], float]
) -> None:
    if (*key, generation) in _counting:
        return
    mine = _flying(key, generation)

    async def run() -> None:
        try:
            await _count_once(key, generation, again, clock(), mine)
        except Exception as exc:  # the next read counts in its request
            logger.warning("a trace count failed", extra={"error_type": type(exc).__name__})

    task = asyncio.get_running_loop().create_task(run())
    _behind.add(task)
    task.add_done_callback(_behind.discard)
