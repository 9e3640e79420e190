"""Dispatch a RUNNING comparison's trials, range by range, under fenced leases.

A comparison's cases are split into ranges, each with its own lease and fencing token
(`server.dispatch.ranges`), so any number of `shipwise worker` processes share a run.
A delivery (a job run) claims the lowest free or expired unfinished range
(`server.dispatch.claims`) and feeds its trials, case-major, into the pipeline (admission,
concurrent callers and batched recording: `server.dispatch.pipeline`, `holdings.Books`);
once the range's trials are all admitted it claims the next free range into the same
window. A range taken over from a dead delivery has admitted calls without an outcome: they
are never re-sent: they close as `outcome_ambiguous`, or fail the run under the
workspace's `ambiguousOutcomes: FAIL_RUN`.

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
delivery, takes the comparison's finishing lease and ends the run (`server.dispatch.ending`:
the pairwise stage, `store.finish`, webhooks, finalization). A slice's end or SIGTERM gives
the ranges up and queues a continuation, once in-flight calls have finished and committed.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections import deque
from collections.abc import Callable, Coroutine
from datetime import timedelta
from typing import Any
from uuid import uuid4

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.dispatch import joins
from server.dispatch.claims import Claims
from server.dispatch.ending import End
from server.dispatch.holdings import Books, Holdings
from server.dispatch.keepalive import Keepalive
from server.dispatch.lease import Fenced
from server.dispatch.outcomes import TrialOutcome
from server.dispatch.pipeline import Pipeline, SliceResult
from server.dispatch.plan import DispatchPlan, WorkItem
from server.dispatch.publisher import Publisher
from server.dispatch.recorder import Recorder
from server.dispatch.trials import TrialRunner
from server.providers.registry import ProviderPool
from server.runtime.interfaces import EventBus, JobQueue
from server.runtime.slots import RedisSlots
from server.settings import Settings

logger = logging.getLogger("shipwise.dispatch")

RunTrial = Callable[[DispatchPlan, WorkItem, int, str], Coroutine[Any, Any, TrialOutcome]]
"""(plan, item, trial id, delivery id) → outcome; never raises for provider faults."""


def delivery_id() -> str:
    """A new delivery's id (the X-Shipwise-Delivery header): it names the worker process."""
    return f"dlv_{os.getpid()}_{uuid4().hex[:16]}"


class Dispatcher:
    """One delivery of one comparison: claim ranges (`claims`), admit, call and record
    (`pipeline`, `holdings.Books`), then end the run (if last) or hand over (`ending`)."""

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
        self.settings = settings
        self.queue = queue
        self.run_trial = run_trial
        self.window_of = window_of
        self.stopping = stopping or asyncio.Event()
        self.registry = registry
        """Comparisons a delivery of this process dispatches (one per comparison)."""
        self.registered = False
        self.join = join
        """Which of the two join job ids this job came as (None: not a join)."""
        self.held = Holdings()
        self.slots = slots
        """Shared concurrency slots: this delivery's expire with its leases."""
        lease_ttl = timedelta(seconds=settings.dispatch_lease_seconds)
        self.keepalive = Keepalive(
            sessionmaker=sessionmaker,
            comparison_id=comparison_id,
            delivery_id=self.delivery_id,
            lease_ttl=lease_ttl,
            held=self.held,
            slots=slots,
        )
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
        claims = Claims(
            sessionmaker=self.sessionmaker,
            comparison_id=self.comparison_id,
            delivery_id=self.delivery_id,
            lease_ttl=self.keepalive.lease_ttl,
            range_cases=self.settings.dispatch_range_cases,
            held=self.held,
            keepalive=self.keepalive,
            publisher=self.publisher,
        )
        first, stop = await claims.first()
        result = SliceResult(stop=stop, exhausted=stop is None)
        if first:  # keep the connections busy until done, stopped, the slice ends or SIGTERM
            plan = await claims.planned
            books = Books(
                sessionmaker=self.sessionmaker,
                plan=plan,
                delivery_id=self.delivery_id,
                held=self.held,
                publisher=self.publisher,
            )
            await joins.invite(self.sessionmaker, self.queue, self.comparison_id)
            await self.keepalive.extend_slots()
            pipeline = Pipeline(
                comparison_id=self.comparison_id,
                pending=deque(first),
                window=self.window_of(plan),
                admit=books.admit,
                call=lambda item, trial_id: self.run_trial(plan, item, trial_id, self.delivery_id),
                recorder=Recorder(books.record),
                upkeep=self.keepalive.upkeep,
                abandon=self.keepalive.abandon_waits,
                stopping=self.stopping,
                slice_seconds=self.settings.dispatch_slice_seconds,
                refill=claims.next,
            )
            result = await pipeline.run()
        end = End(
            sessionmaker=self.sessionmaker,
            queue=self.queue,
            settings=self.settings,
            comparison_id=self.comparison_id,
            delivery_id=self.delivery_id,
            held=self.held,
            keepalive=self.keepalive,
            publisher=self.publisher,
            leave=lambda: self._register(False),
        )
        return await end.conclude(result)


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
