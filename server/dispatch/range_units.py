"""A delivery's units of work on its ranges: each one transaction, re-runnable whole when
its connection is lost (`server.db_retry`), so a claim, a read of a claimed range or the
release of a finished one never leaves the delivery to wait for its lease."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from server.dispatch import ambiguous, ranges
from server.workspaces.models import AmbiguousOutcomes


async def claim_next(
    session: AsyncSession,
    *,
    comparison_id: str,
    delivery_id: str,
    ttl: timedelta,
    range_cases: int | None,
) -> ranges.Claim | None:
    """The next free range, leased to `delivery_id`; first the ranges made, on a first claim
    (`range_cases` given)."""
    if range_cases is not None:
        await ranges.ensure(session, comparison_id, size=range_cases)
    return await ranges.claim_next(
        session, comparison_id=comparison_id, delivery_id=delivery_id, ttl=ttl
    )


async def found_in(
    session: AsyncSession, comparison_id: str, claim: ranges.Claim
) -> tuple[ranges.RangeTrials, AmbiguousOutcomes]:
    """The claimed range's trials, and the workspace's rule for ambiguous ones."""
    return (
        await ranges.trials_in(session, comparison_id, claim),
        await ambiguous.policy(session, comparison_id),
    )


async def release_finished(session: AsyncSession, comparison_id: str, claim: ranges.Claim) -> None:
    """Give up a range with nothing left to send, as finished."""
    await ranges.lock(session, comparison_id, [claim])
    await ranges.release(session, comparison_id, [claim], finished=True)
