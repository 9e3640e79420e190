"""The trace list's `totalCount`, kept a moment per (workspace, filter) in each process: at a
million spans the count reads a quarter of a million index entries, and 20 readers of the
first page asked for it each time. A count is reused for at most `FRESH_SECONDS` (the portal
asks again every 5 s, docs/portal.md), and at once no more in this process once its traces
change (`changed`: an export stored, a trace scored, expired traces deleted); another
process's changes show within `FRESH_SECONDS`."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from cachetools import LRUCache

FRESH_SECONDS = 2.0
_MAX_ENTRIES = 10_000

_counts: LRUCache[tuple[str, Any], tuple[float, int, int]] = LRUCache(maxsize=_MAX_ENTRIES)
"""(workspace, filter) → (counted at, generation then, count)."""
_generations: LRUCache[str, int] = LRUCache(maxsize=_MAX_ENTRIES)


def changed(workspace_id: str) -> None:
    """The workspace's traces changed: its counts are counted again."""
    _generations[workspace_id] = _generations.get(workspace_id, 0) + 1


async def count(
    workspace_id: str,
    where: Any,
    counted: Callable[[], Awaitable[int]],
    *,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """The count under `where` (hashable), from `counted` when none fresh is kept."""
    key = (workspace_id, where)
    generation = _generations.get(workspace_id, 0)
    kept = _counts.get(key)
    now = clock()
    if kept is not None and kept[1] == generation and now - kept[0] < FRESH_SECONDS:
        return kept[2]
    found = await counted()
    _counts[key] = (now, generation, found)
    return found
