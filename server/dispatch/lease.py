"""The comparison's finishing lease: the one delivery ending a run (its pairwise stage,
`finish`) holds it, fenced by a token. Cases are dispatched under the leases of their
ranges (`server.dispatch.ranges`)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons.models import Comparison, ComparisonStatus
from server.db import utcnow


class Fenced(Exception):
    """Another delivery holds the lease now: this one must not write."""


async def renew(session: AsyncSession, *, comparison_id: str, token: int, ttl: timedelta) -> bool:
    """Extend the lease; False when another delivery has taken it (we are fenced out)."""
    result = await session.execute(
        update(Comparison)
        .where(Comparison.id == comparison_id, Comparison.lease_token == token)
        .values(lease_expires_at=utcnow() + ttl)
        .returning(Comparison.id)
    )
    return result.scalar_one_or_none() is not None


async def release(session: AsyncSession, *, comparison_id: str, token: int) -> None:
    """Give the lease up so the next delivery can take it at once."""
    await session.execute(
        update(Comparison)
        .where(Comparison.id == comparison_id, Comparison.lease_token == token)
        .values(lease_owner=None, lease_expires_at=None)
    )


async def expire_all_running(session: AsyncSession) -> None:
    """Embedded start-up: no other process can hold a lease, so every lease is stale."""
    await session.execute(
        update(Comparison)
        .where(Comparison.status == ComparisonStatus.RUNNING)
        .values(lease_owner=None, lease_expires_at=None)
    )
