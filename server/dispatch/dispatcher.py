"""Dispatch a RUNNING comparison's trials, range by range, under fenced leases.

A comparison's cases are split into ranges, each with its own lease and fencing token
(`server.dispatch.ranges`), so any number of `shipwise worker` processes share a run.
A delivery (a job run) claims the lowest free or expired unfinished range and feeds its
trials, case-major, into the pipeline (`server.dispatch`: admission, concurrent callers
and batched recording); once the range's trials are all admitted it claims the next free
range into the same window. A range taken over from a dead delivery has admitted calls
without an outcome: they are never re-sent: they close as `outcome_ambiguous`, or fail the
run under the workspace's `ambiguousOutcomes: FAIL_RUN`.

How other processes join: a delivery whose first claim leaves free ranges enqueues a join
job (`dispatch:<id>:join-0`). A job that lands in a process already dispatching that
comparison (a registry in the job context: one delivery per process per comparison)
starts no second delivery: while free ranges remain it re-enqueues itself under the other
of two ids (`join-0`/`join-1`, deferred by `JOIN_DEFER`), so at most two such jobs travel
until a process with nothing of this run takes one, and they end once no range is free
(`server.dispatch.joins`). The sweeper enqueues a job for a run with a free range, so a
lost join is found.

A stop found at admission (a cap, a cancel) is written on the comparison row: every other
delivery sees it at its next admission. In-flight calls still record. Each delivery that
ends gives its ranges up; exactly one, the one that finds no range still held by a live
delivery, takes the comparison's finishing lease and runs `_finish` (the pairwise stage,
`store.finish`, webhooks, finalization). A slice's end or SIGTERM gives the ranges up and
queues a continuation, once in-flight calls have finished and committed.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from datetime import timedelta
from functools import partial
from typing import Any, TypeVar
from uuid import uuid4

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server import db_retry
from server.comparisons.models import ComparisonStatus, StopReason
from server.dispatch import ambiguous, joins, lease, range_units, ranges, store
from server.dispatch import ending as run_end
from server.dispatch.holdings import Holdings
from server.dispatch.joins import dispatch_job_id
from server.dispatch.keepalive import Keepalive
from server.dispatch.lease import Fenced
from server.dispatch.looks import Looks
from server.dispatch.outcomes import TrialOutcome
from server.dispatch.pairwise_stage import Stage as PairwiseStage
from server.dispatch.pipeline import Pipeline, SliceResult, Stop
from server.dispatch.plan import DispatchPlan, WorkItem, load_plan
from server.dispatch.publisher import Publisher
from server.dispatch.recorder import Recorder
from server.dispatch.trials import TrialRunner
from server.providers.base import DispatchError
from server.providers.registry import ProviderPool
from server.runtime.interfaces import EventBus, JobQueue
from server.runtime.slots import RedisSlots, SlotWaitAbandoned
from server.settings import Settings
from server.workspaces.models import AmbiguousOutcomes

logger = logging.getLogger("shipwise.dispatch")

T = TypeVar("T")

RunTrial = Callable[[DispatchPlan, WorkItem, int, str], Coroutine[Any, Any, TrialOutcome]]
"""(plan, item, trial id, delivery id) → outcome; never raises for provider faults."""


def delivery_id() -> str:
    """A new delivery's id (the X-Shipwise-Delivery header): it names the worker process."""
    return f"dlv_{os.getpid()}_{uuid4().hex[:16]}"


class Dispatcher:
    """One delivery of one comparison: claim ranges, admit, call, record, then end the run
    (if last) or hand over."""

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
        registry: set[str] | None = None,
        join: int | None = None,
    ) -> None:
        self.comparison_id = comparison_id
        self.delivery_id = delivery_id()
        self.sessionmaker = sessionmaker
        self.queue = queue
        self.events = events
        self.run_trial = run_trial
        self.window_of = window_of
        self.stopping = stopping or asyncio.Event()
        self.lease_ttl = timedelta(seconds=settings.dispatch_lease_seconds)
        self.slice_seconds = settings.dispatch_slice_seconds
        self.range_cases = settings.dispatch_range_cases
        self.registry = registry
        """Comparisons a delivery of this process dispatches (one per comparison)."""
        self.registered = False
        self.join = join
        """Which of the two join job ids this job came as (None: not a join)."""
        self.held = Holdings()
        self.token = 0
        """The comparison's finishing lease, once this delivery ends the run."""
        self.slots = slots
        """Shared concurrency slots: this delivery's expire with its leases."""
        self.keepalive = Keepalive(
            sessionmaker=sessionmaker,
            comparison_id=comparison_id,
            delivery_id=self.delivery_id,
            lease_ttl=self.lease_ttl,
            held=self.held,
            slots=slots,
        )
        self.fresh_cohorts: set[int] = set()
        """Cohorts admitted to since the last record: that record shows them RUNNING."""
        self.pairwise = PairwiseStage(sessionmaker, settings)
        self.looks: Looks | None = None
        """Sequential stopping's looks (server/dispatch/looks.py), after each record."""
        self.planned: asyncio.Future[DispatchPlan]  # read once per delivery
        self.publisher = Publisher(events, comparison_id)

    async def run(self) -> str:
        if self.registry is not None and self.comparison_id in self.registry:
            return await joins.travel(self.sessionmaker, self.queue, self.comparison_id, self.join)
        self._register(True)
        try:
            return await self._run()
        except Fenced:
            logger.warning("dispatch fenced out", extra={"comparison_id": self.comparison_id})
            return "fenced"
        finally:
            self._register(False)
            await self.publisher.flush()
            if self.slots is not None:
                await self.slots.release_all(self.delivery_id)

    def _register(self, dispatching: bool) -> None:
        """This delivery is (no longer) this process's one for the comparison."""
        if self.registry is None or dispatching == self.registered:
            return
        self.registered = dispatching
        if dispatching:
            self.registry.add(self.comparison_id)
        else:
            self.registry.discard(self.comparison_id)

    async def _run(self) -> str:
        # The plan loads while the first range is claimed: neither needs the other.
        self.planned = asyncio.ensure_future(
            self._unit(lambda s: load_plan(s, self.comparison_id), "loading the plan", write=False)
        )
        first: list[WorkItem] = []
        try:
            first, stop = await self._claim()
        finally:
            if not first:  # nothing to send here (or a failure): no plan needed
                self.planned.cancel()
        if not first:
            return await self._conclude(SliceResult(stop=stop, exhausted=stop is None))
        plan = await self.planned
        self.looks = Looks(self.sessionmaker, plan.comparison, cohorts=len(plan.cohorts))
        await self._resync(plan)
        await joins.invite(self.sessionmaker, self.queue, self.comparison_id)
        await self.keepalive.extend_slots()
        result = await self._pump(plan, deque(first))
        return await self._conclude(result)

    async def _claim(self) -> tuple[list[WorkItem], Stop | None]:
        """Claim the next free range with trials to send; ([], None) when none is free.
        Orphans of a range taken over close as missing, or stop the run (FAIL_RUN)."""
        while True:
            claim = await self._unit(
                partial(
                    range_units.claim_next,
                    comparison_id=self.comparison_id,
                    delivery_id=self.delivery_id,
                    ttl=self.lease_ttl,
                    range_cases=None if self.held.claimed else self.range_cases,
                ),
                "a claim",
            )
            if claim is None:
                return [], None
            if not self.held.claims:
                self.keepalive.leased_now()
            self.held.claimed += 1
            found, policy = await self._unit(
                partial(range_units.found_in, comparison_id=self.comparison_id, claim=claim),
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
                await self._close_ambiguous(plan, claim)
                if self.held.claimed > 1:  # the first claim's resync follows in `_run`
                    await self._resync(plan)
            items = plan.pending(claim.first, claim.end, found.recorded)
            if items:
                self.held.add(claim, len(items))
                return items, None
            await self._unit(
                partial(
                    range_units.release_finished, comparison_id=self.comparison_id, claim=claim
                ),
                "releasing a finished range",
            )

    async def _unit(
        self, body: Callable[[AsyncSession], Awaitable[T]], what: str, *, write: bool = True
    ) -> T:
        """`body(session)` in a transaction, run again whole if its connection is lost."""
        return await db_retry.unit(self.sessionmaker, body, what=what, write=write)

    async def _pump(self, plan: DispatchPlan, pending: deque[WorkItem]) -> SliceResult:
        """Keep the connections busy until done, stopped, the slice ends or SIGTERM."""
        pipeline = Pipeline(
            pending=pending,
            window=self.window_of(plan),
            admit=lambda batch: self._admit(plan, batch),
            call=lambda item, trial_id: self._call(plan, item, trial_id),
            recorder=Recorder(lambda outcomes: self._record(plan, outcomes)),
            upkeep=self.keepalive.upkeep,
            abandon=self.keepalive.abandon_waits,
            stopping=self.stopping,
            slice_seconds=self.slice_seconds,
            refill=self._claim,
        )
        return await pipeline.run()

    async def _conclude(self, result: SliceResult) -> str:
        """Give the ranges up; end the run if this delivery is the last one working on it."""
        claims = self.held.claims
        self.held.clear()
        if result.stop is None and not result.exhausted:
            await self._unit(
                lambda session: ranges.release(session, self.comparison_id, claims, finished=False),
                "handing the ranges over",
            )
            await self._continue()
            return "handed over"
        ending = await self._unit(
            lambda session: ranges.conclude(
                session,
                comparison_id=self.comparison_id,
                claims=claims,
                delivery_id=self.delivery_id,
                ttl=self.lease_ttl,
                observed=self.held.claimed > 0,
            ),
            "concluding the delivery",
        )
        if ending == ranges.UNFINISHED:  # a range was given up meanwhile: dispatch goes on
            await self._continue()
            return "handed over"
        if not isinstance(ending, ranges.Ending):
            return "not leased" if not self.held.claimed else "done here"
        self.token = ending.token
        ended = await self._finish(
            ending.status, stop_reason=ending.stop_reason, error_code=ending.error_code
        )
        return run_end.outcome(ending) if ended else "handed over"

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
    ) -> tuple[list[int], Stop | None]:
        claims = self.held.of(batch)
        ids, stop = await self._unit(
            lambda session: store.admit(
                session, plan=plan, items=batch, claims=claims, delivery_id=self.delivery_id
            ),
            "an admission",
        )
        if stop is None:
            self.held.admitted(batch, ids)
            self.fresh_cohorts.update(item.cohort_index for item in batch)
        return ids, stop

    async def _close_ambiguous(self, plan: DispatchPlan, claim: ranges.Claim) -> None:
        snapshot = await self._unit(
            lambda session: ambiguous.close(session, plan=plan, claim=claim),
            "closing ambiguous trials",
        )
        logger.warning(
            "ambiguous trials closed as missing", extra={"comparison_id": self.comparison_id}
        )
        await self.publisher.publish(snapshot)

    async def _resync(self, plan: DispatchPlan) -> None:
        """Counters and spend ledgers from the rows once per delivery; records add to them."""
        claims = self.held.claims
        snapshot = await self._unit(
            lambda session: store.resync(session, plan=plan, claims=claims),
            "a resync",
        )
        await self.publisher.publish(snapshot)

    async def _record(self, plan: DispatchPlan, outcomes: list[TrialOutcome]) -> None:
        fresh, self.fresh_cohorts = self.fresh_cohorts, set()
        claims, finished = self.held.recording(outcomes)
        snapshot = await self._unit(
            lambda session: store.record(
                session,
                comparison_id=self.comparison_id,
                plan=plan,
                outcomes=outcomes,
                claims=claims,
                finished=finished,
                admitted_cohorts=fresh,
            ),
            "a record",
        )
        self.held.recorded(outcomes, finished)
        await self.publisher.publish(snapshot)
        if self.looks is not None:  # sequential stopping: a decision is the pending stop
            await self.looks.after_record(done_calls=snapshot.done_calls)

    async def _finish(
        self,
        status: ComparisonStatus,
        *,
        stop_reason: StopReason | None = None,
        error_code: str | None = None,
    ) -> bool:
        """End the run; False when it handed over instead (the pairwise stage goes on)."""
        if status == ComparisonStatus.DONE:
            # The pairwise stage (server/dispatch/pairwise_stage.py): a run with `pairwise`
            # makes and records its pairwise judge calls before it is DONE; None: hand over.
            settled = await self.pairwise.settle(
                comparison_id=self.comparison_id,
                token=self.token,
                stop_reason=stop_reason,
                publish=self.publisher.publish,
                renew=lambda: self.keepalive.renew_finishing(self.token),
            )
            if settled is None:
                await self._hand_over()
                return False
            stop_reason = settled
        snapshot = await run_end.settle(
            self.sessionmaker,
            self.queue,
            comparison_id=self.comparison_id,
            token=self.token,
            status=status,
            stop_reason=stop_reason,
            error_code=error_code,
        )
        await self.publisher.publish(snapshot)
        return True

    async def _hand_over(self) -> None:
        """Free the finishing lease and queue the continuation (another worker may take it)."""
        await self._unit(
            lambda session: lease.release(
                session, comparison_id=self.comparison_id, token=self.token
            ),
            "releasing the finishing lease",
        )
        await self._continue()

    async def _continue(self) -> None:
        self._register(False)  # the continuation may start in this process
        try:
            await self.queue.enqueue(
                "dispatch_comparison",
                self.comparison_id,
                job_id=dispatch_job_id(self.comparison_id, f"after-{self.delivery_id}"),
            )
        except RuntimeError:
            # The embedded queue is closing: the start-up sweep resumes the run.
            logger.info("continuation left to the start-up sweep")


async def deliver(
    *,
    comparison_id: str,
    sessionmaker: async_sessionmaker[AsyncSession],
    settings: Settings,
    queue: JobQueue,
    events: EventBus,
    providers: ProviderPool,
    slots: RedisSlots | None = None,
    stopping: asyncio.Event | None = None,
    registry: set[str] | None = None,
    join: int | None = None,
) -> str:
    """One delivery of a comparison's dispatch (`join`: it came as a join job); what it did."""
    runner = TrialRunner(providers, slots)
    dispatcher = Dispatcher(
        comparison_id=comparison_id,
        sessionmaker=sessionmaker,
        settings=settings,
        queue=queue,
        events=events,
        run_trial=runner.run,
        window_of=runner.window,
        stopping=stopping,
        slots=slots,
        registry=registry,
        join=join,
    )
    return await dispatcher.run()
