"""Which cases an evaluation runs, at which run positions."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from typing import Any

from shipwise import api
from shipwise.transport import Transport


def _rank(seed: int, case: dict[str, Any]) -> bytes:
    return hashlib.sha256(f"{seed}\x00{case['datasetItemId']}".encode()).digest()


async def selected(
    transport: Transport, version_id: str, split: str | None, sample: int | None, seed: int
) -> AsyncIterator[tuple[int, dict[str, Any]]]:
    """(position, case): every case of the split in the version's order, read page by page;
    with `sample`, the `sample` cases whose seeded hash of `datasetItemId` is smallest (the
    same cases every time, whatever the page size), in the version's order."""
    if sample is None:
        position = 0
        async for case in api.cases(transport, version_id, split):
            yield position, case
            position += 1
        return
    every = [case async for case in api.cases(transport, version_id, split)]
    chosen = {id(case) for case in sorted(every, key=lambda c: _rank(seed, c))[:sample]}
    kept = (case for case in every if id(case) in chosen)
    for position, case in enumerate(kept):
        yield position, case
