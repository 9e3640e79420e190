"""The end of a delivery (`End`): its ranges given up, and the end of the run by the one
delivery holding the comparison's finishing lease: the pairwise stage, the row's status
and counters (`store.finish`), its webhook and its finalization."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from functools import partial
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server import db_retry
from server.comparisons import hooks as comparison_hooks
from server.comparisons.models import ComparisonStatus, StopReason
from server.comparisons.progress import Progress
from server.dispatch import conclusion, joins, lease, ranges, store
from server.dispatch.conclusion import Ending
from server.dispatch.holdings import Holdings
from server.dispatch.keepalive import Keepalive
from server.dispatch.pair_judging import Stage as PairJudging
from server.dispatch.pipeline import SliceResult
from server.dispatch.publisher import Publisher
from server.runtime.interfaces import JobQueue
from server.settings import Settings
from server.verdicts.service import queue_finalization

T = TypeVar("T")


async def settle(
    sessionmaker: async_sessionmaker[AsyncSession],
    queue: JobQueue,
    *,
    comparison_id: str,
    token: int,
    status: ComparisonStatus,
    stop_reason: StopReason | None,
    error_code: str | None,
) -> Progress:
    """End the run (a cancelled one keeps its status); the snapshot to publish."""
    snapshot = await db_retry.unit(
        sessionmaker,
        lambda session: store.finish(
            session,
            comparison_id=comparison_id,
            token=token,
            status=status,
            stop_reason=stop_reason,
            error_code=error_code,
        ),
        what="ending the run",
    )
    if status != ComparisonStatus.CANCELLED and snapshot.status == status.value:
        # This delivery ended it (a cancel publishes its own event).
        await comparison_hooks.comparison_finished(
            sessionmaker=sessionmaker, queue=queue, comparison_id=comparison_id
        )
    if snapshot.status == ComparisonStatus.DONE.value:  # any stop reason
        await queue_finalization(queue, comparison_id)
    return snapshot


def outcome(ending: Ending) -> str:
    """The job's result for a run this delivery ended."""
    if ending.error_code is not None:
        return "failed: outcome ambiguous"
    if ending.status != ComparisonStatus.DONE:
        return f"stopped: {ending.status.value}"
    if ending.stop_reason not in (None, StopReason.COMPLETED):
        return f"done: {ending.stop_reason.value}"
    return "done"


class End:
    """How one delivery ends: its ranges given up; the run ended if it is the last one
    working on it (the pairwise stage first, for a run ending DONE), else the continuation
    queued. `leave` takes the delivery out of its process's registry first, so the
    continuation may start in this process."""

    def __init__(
        self,
        *,
        sessionmaker: async_sessionmaker[AsyncSession],
        queue: JobQueue,
        settings: Settings,
        comparison_id: str,
        delivery_id: str,
        held: Holdings,
        keepalive: Keepalive,
        publisher: Publisher,
        leave: Callable[[], None],
    ) -> None:
        self.sessionmaker = sessionmaker
        self.queue = queue
        self.comparison_id = comparison_id
        self.delivery_id = delivery_id
        self.lease_ttl = timedelta(seconds=settings.dispatch_lease_seconds)
        self.held: Holdings = held
        self.keepalive: Keepalive = keepalive
        self.publisher: Publisher = publisher
        self.leave = leave
        self.settings = settings

    async def conclude(self, result: SliceResult) -> str:
        """Give the ranges up; end the run if this delivery is the last one working on it."""
        claims = self.held.claims
        self.held.clear()
        if result.stop is None and not result.exhausted:
            await self._unit(
                partial(
                    ranges.release, comparison_id=self.comparison_id, claims=claims, finished=False
                ),
                "handing the ranges over",
            )
            return await self._continue()
        ending = await self._unit(
            partial(
                conclusion.conclude,
                comparison_id=self.comparison_id,
                claims=claims,
                delivery_id=self.delivery_id,
                ttl=self.lease_ttl,
                observed=self.held.claimed > 0,
            ),
            "concluding the delivery",
        )
        if ending == conclusion.UNFINISHED:  # a range was given up meanwhile: dispatch goes on
            return await self._continue()
        if not isinstance(ending, Ending):  # BUSY: another ends the run; ENDED: another did
            return "not leased" if not self.held.claimed else "done here"
        stop_reason = ending.stop_reason
        if ending.status == ComparisonStatus.DONE:
            # The pairwise stage (server/dispatch/pair_judging.py): a run with `pairwise`
            # makes and records its pairwise judge calls before it is DONE; None: hand over.
            stage = PairJudging(self.sessionmaker, self.settings)
            settled = await stage.settle(
                comparison_id=self.comparison_id,
                token=ending.token,
                stop_reason=stop_reason,
                publish=self.publisher.publish,
                renew=partial(self.keepalive.renew_finishing, ending.token),
            )
            if settled is None:  # the finishing lease freed for the continuation
                await self._unit(
                    partial(lease.release, comparison_id=self.comparison_id, token=ending.token),
                    "releasing the finishing lease",
                )
                return await self._continue()
            stop_reason = settled
        snapshot = await settle(
            self.sessionmaker,
            self.queue,
            comparison_id=self.comparison_id,
            token=ending.token,
            status=ending.status,
            stop_reason=stop_reason,
            error_code=ending.error_code,
        )
        await self.publisher.publish(snapshot)
        return outcome(ending)

    async def _continue(self) -> str:
        self.leave()
        await joins.enqueue(self.queue, self.comparison_id, f"after-{self.delivery_id}")
        return "handed over"

    async def _unit(self, body: Callable[[AsyncSession], Awaitable[T]], what: str) -> T:
        return await db_retry.unit(self.sessionmaker, body, what=what)
