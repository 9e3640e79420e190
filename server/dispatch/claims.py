"""A delivery's claims: the next free range leased, what it holds read, and the trials it
still has to send handed to the pipeline.

The plan loads beside the first claim: neither needs the other. A range taken over from a
dead delivery has admitted calls without an outcome: they are never re-sent: they close as
`outcome_ambiguous` (`server.dispatch.ambiguous`), or fail the run under the workspace's
`ambiguousOutcomes: FAIL_RUN`. Counters and spend ledgers are resynced from the rows once
the delivery has trials to send, and after each later close.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from functools import partial
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server import db_retry
from server.comparisons.models import ComparisonStatus
from server.dispatch import ambiguous, ranges, store
from server.dispatch.holdings import Holdings
from server.dispatch.keepalive import Keepalive
from server.dispatch.pipeline import Stop
from server.dispatch.plan import DispatchPlan, WorkItem, load_plan
from server.dispatch.publisher import Publisher
from server.workspaces.models import AmbiguousOutcomes

logger = logging.getLogger("shipwise.dispatch")

T = TypeVar("T")


class Claims:
    def __init__(
        self,
        *,
        sessionmaker: async_sessionmaker[AsyncSession],
        comparison_id: str,
        delivery_id: str,
        lease_ttl: timedelta,
        range_cases: int,
        held: Holdings,
        keepalive: Keepalive,
        publisher: Publisher,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.comparison_id = comparison_id
        self.delivery_id = delivery_id
        self.lease_ttl = lease_ttl
        self.range_cases = range_cases
        self.held: Holdings = held
        self.keepalive: Keepalive = keepalive
        self.publisher: Publisher = publisher
        self.planned: asyncio.Future[DispatchPlan]  # read once per delivery
        self.resynced = False

    async def first(self) -> tuple[list[WorkItem], Stop | None]:
        """The first claim with trials to send, the plan loading meanwhile (no trials: the
        load is left to end, unused)."""
        self.planned = asyncio.ensure_future(
            self._unit(
                partial(load_plan, comparison_id=self.comparison_id),
                "loading the plan",
                write=False,
            )
        )
        first: list[WorkItem] = []
        try:
            first, stop = await self.next()
        finally:
            if not first:  # nothing to send here (or a failure): no plan needed
                await self._unplanned()
        return first, stop

    async def _unplanned(self) -> None:
        """Wait for the unneeded plan load to end; never cancel it: a unit cancelled in the
        middle of a statement has its connection invalidated, and on SQLite its transaction
        held the database's write lock after it (`server.sqlite_gate.rollback_invalidated`).
        Its result or failure is dropped (not logged as never retrieved)."""
        await asyncio.wait({self.planned})
        if not self.planned.cancelled():
            self.planned.exception()

    async def next(self) -> tuple[list[WorkItem], Stop | None]:
        """Claim the next free range with trials to send; ([], None) when none is free."""
        while True:
            if not self.held.claims:  # a first lease runs from no earlier than now
                self.keepalive.leased_now()
            claim = await self._unit(
                partial(
                    ranges.claim,
                    comparison_id=self.comparison_id,
                    delivery_id=self.delivery_id,
                    ttl=self.lease_ttl,
                    range_cases=None if self.held.claimed else self.range_cases,
                ),
                "a claim",
            )
            if claim is None:
                return [], None
            self.held.claimed += 1
            found, policy = await self._unit(
                partial(ranges.found_in, comparison_id=self.comparison_id, claim=claim),
                "reading a range",
                write=False,
            )
            if found.orphans and policy == AmbiguousOutcomes.FAIL_RUN:
                await self._unit(
                    partial(ranges.fail_pending, comparison_id=self.comparison_id, claim=claim),
                    "failing a range",
                )
                return [], ComparisonStatus.FAILED
            plan = await self.planned
            if found.orphans:  # never re-sent: each closes as outcome_ambiguous
                snapshot = await self._unit(
                    partial(ambiguous.close, plan=plan, claim=claim),
                    "closing ambiguous trials",
                )
                logger.warning(
                    "ambiguous trials closed as missing",
                    extra={"comparison_id": self.comparison_id},
                )
                await self.publisher.publish(snapshot)
                if self.held.claimed > 1:
                    await self._resync(plan)
            items = plan.pending(claim.first, claim.end, found.recorded)
            if items:
                self.held.add(claim, len(items))
                if not self.resynced:
                    await self._resync(plan)
                return items, None
            await self._unit(
                partial(ranges.release_finished, comparison_id=self.comparison_id, claim=claim),
                "releasing a finished range",
            )

    async def _resync(self, plan: DispatchPlan) -> None:
        """Counters and spend ledgers from the rows; records add to them from here."""
        snapshot = await self._unit(
            partial(store.resync, plan=plan, claims=self.held.claims), "a resync"
        )
        self.resynced = True
        await self.publisher.publish(snapshot)

    async def _unit(
        self, body: Callable[[AsyncSession], Awaitable[T]], what: str, *, write: bool = True
    ) -> T:
        return await db_retry.unit(self.sessionmaker, body, what=what, write=write)
