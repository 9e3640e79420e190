"""Job: dispatch a RUNNING comparison's trials, in slices, under a fenced lease.

One delivery (a job run) takes the lease; an admitted call an earlier delivery left without
an outcome is never re-sent: it closes as `outcome_ambiguous`, or fails the comparison under
the workspace's `ambiguousOutcomes: FAIL_RUN`. Counters and spend ledgers are recomputed
from the rows once. Then the pipeline (`jobs.dispatching`) admits trials in case-major order
as the window frees, runs them concurrently within each connection's `maxConcurrency`, and
records outcomes in batches, the three at once. It hands over to a continuation job after a
slice or on SIGTERM, once its in-flight calls have finished and committed. `_finish` is the
one place a delivery ends a comparison (DONE, or a terminal status found elsewhere).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable, Coroutine
from datetime import timedelta
from typing import Any
from uuid import uuid4

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from jobs.dispatching.pipeline import Pipeline, SliceResult
from jobs.dispatching.recorder import Recorder
from jobs.finalize import queue_finalization
from jobs.trials import trial_runner
from server.comparisons import ambiguous, lease, progress
from server.comparisons import dispatch_store as store
from server.comparisons.dispatch_plan import DispatchPlan, WorkItem, load_plan
from server.comparisons.dispatch_store import Fenced, TrialOutcome
from server.comparisons.models import ComparisonStatus, StopReason
from server.comparisons.progress import Progress
from server.pairwise.hosted import Stage as PairwiseStage
from server.providers.base import DispatchError
from server.runtime.interfaces import EventBus, JobQueue
from server.runtime.slots import RedisSlots, SlotWaitAbandoned
from server.settings import Settings
from server.webhooks import hooks as webhook_hooks
from server.workspaces.models import AmbiguousOutcomes

logger = logging.getLogger("shipwise.dispatch")

STATUS_CHECK_S = 0.5
"""While calls wait for slots, how often the row is read for a cancel (nothing else is)."""

RunTrial = Callable[[DispatchPlan, WorkItem, int, str], Coroutine[Any, Any, TrialOutcome]]
"""(plan, item, trial id, delivery id) → outcome; never raises for provider faults."""


def dispatch_job_id(comparison_id: str, suffix: str) -> str:
    return f"dispatch:{comparison_id}:{suffix}"


class Dispatcher:
    """One delivery of one comparison: admit, call, record, then finish or hand over."""

    def __init__(
        self,
        *,
        comparison_id: str,
        sessionmaker: async_sessionmaker[AsyncSession],
        settings: Settings,
        queue: JobQueue,
        events: EventBus,
        run_trial: RunTrial,
        window_of: Callable[[DispatchPlan], int],
        stopping: asyncio.Event | None = None,
        slots: RedisSlots | None = None,
    ) -> None:
        self.comparison_id = comparison_id
        self.delivery_id = f"dlv_{uuid4().hex[:20]}"
        self.sessionmaker = sessionmaker
        self.queue = queue
        self.events = events
        self.run_trial = run_trial
        self.window_of = window_of
        self.stopping = stopping or asyncio.Event()
        self.lease_ttl = timedelta(seconds=settings.dispatch_lease_seconds)
        self.slice_seconds = settings.dispatch_slice_seconds
        self.token = 0
        self.leased_at = 0.0
        """When this delivery last extended its lease (monotonic seconds)."""
        self.slots = slots
        """Shared concurrency slots: this delivery's expire with its lease."""
        self.slots_extended_at = 0.0
        self.status_read_at = 0.0
        self.fresh_cohorts: set[int] = set()
        """Cohorts admitted to since the last record: that record shows them RUNNING."""
        self.pairwise = PairwiseStage(sessionmaker, settings)

    async def run(self) -> str:
        async with self.sessionmaker() as session, session.begin():
            token = await lease.acquire(
                session,
                comparison_id=self.comparison_id,
                delivery_id=self.delivery_id,
                ttl=self.lease_ttl,
            )
        if token is None:
            return "not leased"
        self.token = token
        self.leased_at = time.monotonic()
        try:
            await self._extend_slots()
            return await self._run_leased()
        except Fenced:
            logger.warning("dispatch fenced out", extra={"comparison_id": self.comparison_id})
            return "fenced"
        finally:
            if self.slots is not None:
                await self.slots.release_all(self.delivery_id)

    async def _run_leased(self) -> str:
        async with self.sessionmaker() as session:
            orphans = await store.count_orphans(session, self.comparison_id)
            policy = await ambiguous.policy(session, self.comparison_id) if orphans else None
        if policy == AmbiguousOutcomes.FAIL_RUN:
            await self._finish(ComparisonStatus.FAILED, error_code=DispatchError.OUTCOME_AMBIGUOUS)
            return "failed: outcome ambiguous"
        async with self.sessionmaker() as session:
            plan = await load_plan(session, self.comparison_id)
        if orphans:  # never re-sent: each closes as outcome_ambiguous, the run goes on
            await self._close_ambiguous(plan)
        await self._resync(plan)
        result = await self._pump(plan, deque(plan.pending()))
        stop = result.stop
        if isinstance(stop, StopReason):
            await self._finish(ComparisonStatus.DONE, stop_reason=stop)
            return f"done: {stop.value}"
        if isinstance(stop, ComparisonStatus):
            # Ended elsewhere (a cancel): its status stays; counters settle, the lease is freed.
            await self._finish(stop)
            return f"stopped: {stop.value}"
        if result.exhausted:
            await self._finish(ComparisonStatus.DONE, stop_reason=StopReason.COMPLETED)
            return "done"
        await self._hand_over()
        return "handed over"

    async def _pump(self, plan: DispatchPlan, pending: deque[WorkItem]) -> SliceResult:
        """Keep the connections busy until done, stopped, the slice ends or SIGTERM."""
        pipeline = Pipeline(
            pending=pending,
            window=self.window_of(plan),
            admit=lambda batch: self._admit(plan, batch),
            call=lambda item, trial_id: self._call(plan, item, trial_id),
            recorder=Recorder(self._record),
            upkeep=self._upkeep,
            abandon=self._abandon_waits,
            stopping=self.stopping,
            slice_seconds=self.slice_seconds,
        )
        return await pipeline.run()

    async def _call(self, plan: DispatchPlan, item: WorkItem, trial_id: int) -> TrialOutcome:
        """Run one admitted trial. A runner that breaks (a bug, not a provider fault) records
        `comparison_dispatch_internal` for that trial: raising would lose the outcomes of its
        batch and leave admitted rows that fail the whole run as ambiguous."""
        try:
            return await self.run_trial(plan, item, trial_id, self.delivery_id)
        except SlotWaitAbandoned:
            return TrialOutcome.unsent(trial_id)
        except Exception as exc:
            # The class only: the text could quote a prompt, an output or provider text.
            logger.error(
                "trial runner failed",
                extra={"comparison_id": self.comparison_id, "error_type": type(exc).__name__},
            )
            return TrialOutcome.failed(trial_id, DispatchError.DISPATCH_INTERNAL.value)

    async def _admit(
        self, plan: DispatchPlan, batch: list[WorkItem]
    ) -> tuple[list[int], StopReason | ComparisonStatus | None]:
        async with self.sessionmaker() as session, session.begin():
            ids, stop = await store.admit(
                session,
                plan=plan,
                items=batch,
                token=self.token,
                delivery_id=self.delivery_id,
                lease_ttl=self.lease_ttl,
            )
        if stop is None:  # an admission extends the lease
            self.leased_at = time.monotonic()
            self.fresh_cohorts.update(item.cohort_index for item in batch)
        return ids, stop

    async def _close_ambiguous(self, plan: DispatchPlan) -> None:
        async with self.sessionmaker() as session, session.begin():
            snapshot = await ambiguous.close(session, plan=plan, token=self.token)
        logger.warning(
            "ambiguous trials closed as missing", extra={"comparison_id": self.comparison_id}
        )
        await self._publish(snapshot)

    async def _resync(self, plan: DispatchPlan) -> None:
        """Counters and spend ledgers from the rows once per lease; records add to them."""
        async with self.sessionmaker() as session, session.begin():
            snapshot = await store.resync(session, plan=plan, token=self.token)
        await self._publish(snapshot)

    async def _upkeep(
        self, stop: StopReason | ComparisonStatus | None
    ) -> StopReason | ComparisonStatus | None:
        """Keep the lease and this delivery's slots alive; while calls wait for a slot
        (nothing is admitted or recorded then), read the row so a cancel ends the wait."""
        third = self.lease_ttl.total_seconds() / 3
        if time.monotonic() - self.leased_at >= third:
            await self._renew()
        if time.monotonic() - self.slots_extended_at >= third:
            await self._extend_slots()
        if (
            stop is None
            and self.slots is not None
            and self.slots.waiting(self.delivery_id)
            and time.monotonic() - self.status_read_at >= STATUS_CHECK_S
        ):
            self.status_read_at = time.monotonic()
            stop = await self._ended_elsewhere()
            if stop is not None:
                self._abandon_waits()
        return stop

    def _abandon_waits(self) -> None:
        if self.slots is not None:
            self.slots.abandon(self.delivery_id)

    async def _extend_slots(self) -> None:
        """This delivery's slots expire when its lease does (so a crash frees them with it)."""
        if self.slots is None:
            return
        lease_left = self.leased_at + self.lease_ttl.total_seconds() - time.monotonic()
        await self.slots.extend(self.delivery_id, time.time() + lease_left)
        self.slots_extended_at = time.monotonic()

    async def _ended_elsewhere(self) -> ComparisonStatus | None:
        """The comparison's status if it is no longer RUNNING (a cancel); `Fenced` if the
        lease was taken."""
        async with self.sessionmaker() as session:
            status = await lease.status_if_held(
                session, comparison_id=self.comparison_id, token=self.token
            )
        if status is None:
            raise Fenced(self.comparison_id)
        return None if status == ComparisonStatus.RUNNING else status

    async def _renew(self) -> None:
        """Extend the lease while calls outlast it (slow or retried calls record nothing for
        a while): a sweep must not take a live delivery for a dead one and fail the run."""
        async with self.sessionmaker() as session, session.begin():
            renewed = await lease.renew(
                session, comparison_id=self.comparison_id, token=self.token, ttl=self.lease_ttl
            )
        if not renewed:
            raise Fenced(self.comparison_id)
        self.leased_at = time.monotonic()

    async def _record(self, outcomes: list[TrialOutcome]) -> None:
        fresh, self.fresh_cohorts = self.fresh_cohorts, set()
        async with self.sessionmaker() as session, session.begin():
            snapshot = await store.record(
                session,
                comparison_id=self.comparison_id,
                outcomes=outcomes,
                token=self.token,
                lease_ttl=self.lease_ttl,
                admitted_cohorts=fresh,
            )
        self.leased_at = time.monotonic()
        await self._publish(snapshot)

    async def _finish(
        self,
        status: ComparisonStatus,
        *,
        stop_reason: StopReason | None = None,
        error_code: str | None = None,
    ) -> None:
        if status == ComparisonStatus.DONE:
            # The pairwise stage (server/pairwise/hosted.py): a run with `pairwise` makes and
            # records its pairwise judge calls before it is DONE; None: hand over, not yet.
            settled = await self.pairwise.settle(
                comparison_id=self.comparison_id,
                token=self.token,
                stop_reason=stop_reason,
                publish=self._publish,
                renew=self._renew,
            )
            if settled is None:
                await self._hand_over()
                return
            stop_reason = settled
        async with self.sessionmaker() as session, session.begin():
            snapshot = await store.finish(
                session,
                comparison_id=self.comparison_id,
                token=self.token,
                status=status,
                stop_reason=stop_reason,
                error_code=error_code,
            )
        await self._publish(snapshot)
        if status != ComparisonStatus.CANCELLED and snapshot.status == status.value:
            # This delivery ended it (a cancel publishes its own event).
            await webhook_hooks.comparison_finished(
                sessionmaker=self.sessionmaker, queue=self.queue, comparison_id=self.comparison_id
            )
        if snapshot.status == ComparisonStatus.DONE.value:  # any stop reason
            await queue_finalization(self.queue, self.comparison_id)

    async def _hand_over(self) -> None:
        """Free the lease and queue the continuation (another worker may take it)."""
        async with self.sessionmaker() as session, session.begin():
            await lease.release(session, comparison_id=self.comparison_id, token=self.token)
        try:
            await self.queue.enqueue(
                "dispatch_comparison",
                self.comparison_id,
                job_id=dispatch_job_id(self.comparison_id, f"after-{self.token}"),
            )
        except RuntimeError:
            # The embedded queue is closing: the start-up sweep resumes the run.
            logger.info("continuation left to the start-up sweep")

    async def _publish(self, snapshot: Progress) -> None:
        try:
            await progress.publish(self.events, self.comparison_id, snapshot)
        except Exception as exc:  # events are best effort; the row stays the truth
            logger.warning("progress event not published", extra={"error_type": type(exc).__name__})


async def dispatch_comparison(ctx: dict[str, Any], comparison_id: str) -> str:
    """arq job: one delivery of a comparison's dispatch."""
    runner = trial_runner(ctx)
    dispatcher = Dispatcher(
        comparison_id=comparison_id,
        sessionmaker=ctx["sessionmaker"],
        settings=ctx["settings"],
        queue=ctx["queue"],
        events=ctx["events"],
        run_trial=runner.run,
        window_of=runner.window,
        stopping=ctx.get("stopping"),
        slots=ctx.get("slots"),
    )
    return await dispatcher.run()
