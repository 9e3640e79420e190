"""The run's conclusion: a delivery gives its ranges up and, when it is the last one working
on the run and the run must end, takes the comparison's finishing lease (`lease.py`) to end
it (`ending.py`). Same lock order as `ranges.py`: range rows, then the comparison row."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons.models import Comparison, ComparisonStatus, StopReason
from server.db import utcnow
from server.dispatch.models import ComparisonRange
from server.dispatch.ranges import FAILED_STOP, Claim
from server.providers.base import DispatchError


@dataclass(frozen=True, slots=True)
class Ending:
    """How the finishing delivery ends the run (`ending.End.conclude`)."""

    token: int
    """The comparison's finishing lease."""
    status: ComparisonStatus
    stop_reason: StopReason | None = None
    error_code: str | None = None


BUSY = "busy"
"""`conclude`: a live delivery still holds a range (it ends the run), or the finishing lease."""
UNFINISHED = "unfinished"
"""`conclude`: free unfinished ranges remain and nothing stops the run: dispatch goes on."""
ENDED = "ended"
"""`conclude`: the run is DONE or FAILED already, ended by the delivery that held the
finishing lease (`store.finish`, the only writer of those statuses): nothing is left to do."""


async def conclude(
    session: AsyncSession,
    *,
    comparison_id: str,
    claims: Collection[Claim],
    delivery_id: str,
    ttl: timedelta,
    observed: bool,
) -> Ending | str:
    """Give `claims` up; then, unless a live delivery still holds a range, take the
    finishing lease when the run must end (a stop pending or found, or every range
    finished). `observed`: this delivery took part, so it may settle a run cancelled
    meanwhile; a delivery with nothing claimed ends only a RUNNING one. A run already DONE or
    FAILED was ended by another delivery, after this one's last record gave up its ranges
    and before this conclusion: it stays as it is (`ENDED`), neither ended again nor handed
    over. One transaction under every range row's lock, so exactly one delivery ends the
    run."""
    rows = list(
        (
            await session.execute(
                select(ComparisonRange)
                .where(ComparisonRange.comparison_id == comparison_id)
                .order_by(ComparisonRange.range_index)
                .with_for_update()
            )
        ).scalars()
    )
    now = utcnow()
    mine = {(c.index, c.token) for c in claims}
    for row in rows:
        if (row.range_index, row.lease_token) in mine:
            row.lease_owner = row.lease_expires_at = None
    if any(
        row.lease_owner is not None
        and row.lease_expires_at is not None
        and row.lease_expires_at >= now
        for row in rows
    ):
        return BUSY
    comparison = (
        await session.execute(
            select(Comparison).where(Comparison.id == comparison_id).with_for_update()
        )
    ).scalar_one()
    status, stop, error = comparison.status, None, None
    if status != ComparisonStatus.RUNNING:
        if not observed:
            return BUSY
        if status != ComparisonStatus.CANCELLED:
            return ENDED
    elif comparison.pending_stop == FAILED_STOP:
        status, error = ComparisonStatus.FAILED, DispatchError.OUTCOME_AMBIGUOUS.value
    elif comparison.pending_stop is not None:
        status, stop = ComparisonStatus.DONE, StopReason(comparison.pending_stop)
    elif all(row.finished_at is not None for row in rows):
        status, stop = ComparisonStatus.DONE, StopReason.COMPLETED
    else:
        return UNFINISHED
    held = comparison.lease_owner is not None and (
        comparison.lease_expires_at is not None and comparison.lease_expires_at >= now
    )
    if held:
        return BUSY
    comparison.lease_token += 1
    comparison.lease_owner = delivery_id
    comparison.lease_expires_at = now + ttl
    return Ending(comparison.lease_token, status, stop, error)
