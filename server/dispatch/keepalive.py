"""A delivery's leases and concurrency slots kept alive while its calls run, and the two
statements that do it: the held ranges' leases extended (`renew`) and the run read for a
stop (`stop_found`).

The ranges' leases are extended a third of the way through (slow or retried calls record
nothing for a while, and a sweep must not take a live delivery for a dead one); the
delivery's slots expire when its leases do, so a crash frees them with it. While calls
wait for a slot nothing is admitted or recorded, so the row is read for a stop meanwhile.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from datetime import timedelta

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server import db_retry
from server.comparisons.models import Comparison, ComparisonStatus, StopReason
from server.db import utcnow
from server.dispatch import lease, ranges, store
from server.dispatch.holdings import Holdings
from server.dispatch.lease import Fenced
from server.dispatch.models import ComparisonRange
from server.dispatch.pipeline import Stop
from server.dispatch.ranges import Claim
from server.runtime.slots import RedisSlots

STATUS_CHECK_S = 0.5
"""While calls wait for slots, how often the row is read for a cancel (nothing else is)."""


class Keepalive:
    def __init__(
        self,
        *,
        sessionmaker: async_sessionmaker[AsyncSession],
        comparison_id: str,
        delivery_id: str,
        lease_ttl: timedelta,
        held: Holdings,
        slots: RedisSlots | None,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.comparison_id = comparison_id
        self.delivery_id = delivery_id
        self.lease_ttl = lease_ttl
        self.held = held
        self.slots = slots
        self.leased_at = 0.0
        """When the ranges' leases were last extended (monotonic seconds)."""
        self.slots_extended_at = 0.0
        self.status_read_at = 0.0

    def leased_now(self) -> None:
        """A first range was just claimed: its lease runs from now."""
        self.leased_at = time.monotonic()

    async def upkeep(self, stop: Stop | None) -> Stop | None:
        """The pipeline's periodic hook: leases and slots extended; while calls wait for
        slots, a stop (`stop`, or one read here) ends the waits."""
        third = self.lease_ttl.total_seconds() / 3
        if time.monotonic() - self.leased_at >= third:
            await self._renew_ranges()
        if time.monotonic() - self.slots_extended_at >= third:
            await self.extend_slots()
        if self.slots is None or not self.slots.waiting(self.delivery_id):
            return stop  # calls that do not wait go out: admission decided to send them
        if stop is None and time.monotonic() - self.status_read_at >= STATUS_CHECK_S:
            self.status_read_at = time.monotonic()
            stop = await self._stop_found()
        # Found here or at admission (whichever read the row first), the stop ends the
        # waits; a decided run's admitted calls go out, so its cases stay whole.
        if stop is not None and stop != StopReason.DECIDED_EARLY:
            self.abandon_waits()
        return stop

    def abandon_waits(self) -> None:
        if self.slots is not None:
            self.slots.abandon(self.delivery_id)

    async def extend_slots(self) -> None:
        """The delivery's slots expire when its leases do."""
        if self.slots is None:
            return
        lease_left = self.leased_at + self.lease_ttl.total_seconds() - time.monotonic()
        await self.slots.extend(self.delivery_id, time.time() + lease_left)
        self.slots_extended_at = time.monotonic()

    async def _stop_found(self) -> Stop | None:
        """`stop_found` for the held ranges, in a transaction of its own."""
        claims = self.held.claims
        return await db_retry.unit(
            self.sessionmaker,
            lambda session: stop_found(session, self.comparison_id, claims),
            what="reading the run for a stop",
        )

    async def renew_finishing(self, token: int) -> None:
        """Extend the finishing lease (`token`) while the pairwise stage runs."""
        renewed = await db_retry.unit(
            self.sessionmaker,
            lambda session: lease.renew(
                session, comparison_id=self.comparison_id, token=token, ttl=self.lease_ttl
            ),
            what="renewing the lease",
        )
        if not renewed:
            raise Fenced(self.comparison_id)

    async def _renew_ranges(self) -> None:
        claims = self.held.claims
        renewed = await db_retry.unit(
            self.sessionmaker,
            lambda session: renew(session, self.comparison_id, claims, ttl=self.lease_ttl),
            what="renewing the range leases",
        )
        if not renewed:
            raise Fenced(self.comparison_id)
        self.leased_at = time.monotonic()


async def renew(
    session: AsyncSession, comparison_id: str, claims: Collection[Claim], *, ttl: timedelta
) -> bool:
    """Extend the claims' leases; False when another delivery has taken one of them."""
    if not claims:
        return True
    result = await session.execute(
        update(ComparisonRange)
        .where(ranges.holding(comparison_id, claims))
        .values(lease_expires_at=utcnow() + ttl)
        .returning(ComparisonRange.range_index)
        .execution_options(synchronize_session=False)
    )
    return len(result.all()) == len(claims)


async def stop_found(
    session: AsyncSession, comparison_id: str, claims: Collection[Claim]
) -> StopReason | ComparisonStatus | None:
    """The comparison's status if no longer RUNNING (a cancel), or its pending stop;
    `Fenced` if one of the claims was taken."""
    await ranges.lock(session, comparison_id, claims)
    status, pending = (
        await session.execute(
            select(Comparison.status, Comparison.pending_stop).where(Comparison.id == comparison_id)
        )
    ).one()
    if status != ComparisonStatus.RUNNING:
        return ComparisonStatus(status)
    return store.pending_stop(pending) if pending is not None else None
