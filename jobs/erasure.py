"""Periodic job: erase the cases of comparisons not finalized within 30 days of ending."""

from __future__ import annotations

from typing import Any

from server.db import utcnow
from server.verdicts import erasure


async def erase_stale_cases(ctx: dict[str, Any]) -> int:
    """One batch of stale comparisons erased; how many."""
    async with ctx["sessionmaker"]() as session, session.begin():
        erased = await erasure.erase_stale(session=session, now=utcnow())
    return len(erased)
