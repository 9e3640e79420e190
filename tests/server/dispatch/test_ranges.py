"""Case ranges: several deliveries of one comparison, each under its own range leases, with
stand-in trials; a stop found by one stops all, and exactly one ends the run."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from bench.kit.factories import actor_for, make_comparison, make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from bench.kit.waiting import eventually
from jobs.sweeper import sweep_comparisons
from server.comparisons import lifecycle
from server.comparisons.models import Comparison, Trial, TrialState
from server.comparisons.progress import Progress
from server.db import utcnow
from server.dispatch import ranges
from server.dispatch.dispatcher import Dispatcher
from server.dispatch.joins import JOIN_DEFER
from server.dispatch.models import ComparisonRange
from server.dispatch.outcomes import TrialOutcome
from server.dispatch.plan import DispatchPlan, WorkItem
from server.dispatch.publisher import Publisher
from server.workspaces.roles import Role
from tests.server.dispatch.api import between_sweeps, trials_of
from tests.server.dispatch.by_hand import HeldQueue, Trials, range_dispatcher, running_comparison

CASES, TRIALS = 6, 2


async def _postgres_only(backend: Backend) -> None:
    if backend.name == "sqlite":
        pytest.skip("deliveries of one comparison run at once on PostgreSQL")
    await between_sweeps()


def _finalizations(queue: HeldQueue, comparison_id: str) -> int:
    return sum(
        1
        for name, args, *_ in queue.enqueued
        if name == "finalize_comparison" and comparison_id in args
    )


async def _ranges(backend: Backend, comparison_id: str) -> list[ComparisonRange]:
    async with backend.sessionmaker() as session:
        rows = await session.scalars(
            select(ComparisonRange)
            .where(ComparisonRange.comparison_id == comparison_id)
            .order_by(ComparisonRange.range_index)
        )
        return list(rows)


def _case_major_prefixes(trials: list[Trial], cohorts: int) -> None:
    """In each case (a range of one case here), the trials with a row are the first ones
    of its case-major order: a stop leaves a balanced, paired prefix."""
    order = [(c, t) for c in range(cohorts) for t in range(TRIALS)]
    for case in {t.case_ordinal for t in trials}:
        present = sorted(
            order.index((t.cohort_index, t.trial_index)) for t in trials if t.case_ordinal == case
        )
        assert present == list(range(len(present))), (case, present)


async def test_two_deliveries_share_a_run_and_exactly_one_ends_it(backend: Backend) -> None:
    await _postgres_only(backend)
    queue = HeldQueue()
    comparison_id = await running_comparison(backend, queue, trials=TRIALS, cases=CASES)
    slow = Trials(seconds=0.05)
    first = range_dispatcher(backend, comparison_id, slow, queue)
    second = range_dispatcher(backend, comparison_id, slow, queue)

    outcomes = await asyncio.gather(first.run(), second.run())

    assert sorted(outcomes) == ["done", "done here"]
    rows = await trials_of(backend, comparison_id)
    assert len(rows) == CASES * TRIALS * 2 and {t.state for t in rows} == {TrialState.COMPLETED}
    assert {t.delivery_id for t in rows} == {first.delivery_id, second.delivery_id}
    for case in range(CASES):  # a range (one case here) is dispatched by one delivery
        assert len({t.delivery_id for t in rows if t.case_ordinal == case}) == 1
    assert all(
        r.finished_at is not None and r.lease_owner is None
        for r in await _ranges(backend, comparison_id)
    )
    assert _finalizations(queue, comparison_id) == 1, "the run was ended once"
    joins = {job for _, _, job, _ in queue.enqueued if job and ":join-" in job}
    assert joins == {f"dispatch:{comparison_id}:join-0"}, "a first claim invited a join"


class _HeldOnceDone(Publisher):
    """A delivery's publisher that holds the delivery once a record leaves it no range:
    its records are committed, and it concludes only when `go` is set."""

    def __init__(self, delivery: Dispatcher) -> None:
        super().__init__(delivery.publisher.events, delivery.comparison_id)
        self.holdings = delivery.held
        self.held = asyncio.Event()
        self.go = asyncio.Event()

    async def publish(self, snapshot: Progress) -> None:
        await super().publish(snapshot)
        if snapshot.done_calls and not self.holdings.claims:
            self.held.set()
            await self.go.wait()


async def test_a_delivery_that_concludes_after_the_run_ended_leaves_it_ended(
    backend: Backend,
) -> None:
    """The run ends (DONE) between one delivery's last record and its conclusion: that
    delivery has nothing left to do, and neither takes the finishing lease nor hands the
    ended run over to a continuation."""
    await _postgres_only(backend)
    queue = HeldQueue()
    comparison_id = await running_comparison(backend, queue, trials=1, cases=2)
    async with backend.sessionmaker() as session, session.begin():
        await ranges.ensure(session, comparison_id, size=1)
        await session.execute(  # the second range is another live delivery's, for now
            update(ComparisonRange)
            .where(ComparisonRange.comparison_id == comparison_id, ComparisonRange.range_index == 1)
            .values(lease_owner="dlv_other", lease_expires_at=utcnow() + timedelta(minutes=1))
        )
    early = range_dispatcher(backend, comparison_id, Trials(0), queue)
    held = early.publisher = _HeldOnceDone(early)
    running = asyncio.create_task(early.run())
    await eventually(held.held.is_set, what="the first range recorded, its delivery held")
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(
            update(ComparisonRange)
            .where(ComparisonRange.comparison_id == comparison_id, ComparisonRange.range_index == 1)
            .values(lease_owner=None, lease_expires_at=None)
        )

    assert await range_dispatcher(backend, comparison_id, Trials(0), queue).run() == "done"
    held.go.set()

    assert await running == "done here"
    async with backend.sessionmaker() as session:
        row = await session.get(Comparison, comparison_id)
        assert row is not None
        assert (row.status, row.lease_owner) == ("DONE", None)
    assert _finalizations(queue, comparison_id) == 1, "the run was ended once"
    continuations = [job for _, _, job, _ in queue.enqueued if job and ":after-" in job]
    assert continuations == [], "an ended run is not handed over"


class _Costly:
    """Stand-in trials that each cost 4,000 µ$."""

    def __init__(self) -> None:
        self.trials = Trials(seconds=0.05)

    async def __call__(
        self, plan: DispatchPlan, item: WorkItem, trial_id: int, delivery_id: str
    ) -> TrialOutcome:
        outcome = await self.trials(plan, item, trial_id, delivery_id)
        return dataclasses.replace(outcome, cost_micros=4_000)


async def test_a_cap_found_by_one_delivery_stops_every_delivery(backend: Backend) -> None:
    await _postgres_only(backend)
    queue = HeldQueue()
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=20)
    comparison_id = await make_comparison(
        backend.sessionmaker, setup, trials=TRIALS, budget_cap_cents=3.0
    )
    await lifecycle.start(
        sessionmaker=backend.sessionmaker,
        events=backend.state.events,
        queue=queue,
        actor=actor_for(ws, Role.MEMBER),
        comparison_id=comparison_id,
    )
    first = range_dispatcher(backend, comparison_id, _Costly(), queue)
    second = range_dispatcher(backend, comparison_id, _Costly(), queue)

    outcomes = await asyncio.gather(first.run(), second.run())

    assert sorted(outcomes) == ["done here", "done: BUDGET_CAP"]
    async with backend.sessionmaker() as session:
        row = await session.get(Comparison, comparison_id)
        assert row is not None
        assert (row.status, row.stop_reason, row.pending_stop) == (
            "DONE",
            "BUDGET_CAP",
            "BUDGET_CAP",
        )
        assert row.lease_owner is None
    rows = await trials_of(backend, comparison_id)
    assert {t.state for t in rows} == {TrialState.COMPLETED}, "in-flight calls recorded"
    assert {t.delivery_id for t in rows} == {first.delivery_id, second.delivery_id}
    assert 30_000 <= sum(t.cost_micros for t in rows) < 20 * TRIALS * 2 * 4_000
    _case_major_prefixes(rows, cohorts=2)
    assert all(r.lease_owner is None for r in await _ranges(backend, comparison_id))
    assert _finalizations(queue, comparison_id) == 1


async def test_a_cancel_stops_both_deliveries_and_one_settles_it(backend: Backend) -> None:
    await _postgres_only(backend)
    queue = HeldQueue()
    comparison_id = await running_comparison(backend, queue, trials=TRIALS, cases=CASES)
    slow = Trials(seconds=0.3)
    first = range_dispatcher(backend, comparison_id, slow, queue)
    second = range_dispatcher(backend, comparison_id, slow, queue)
    running = asyncio.gather(first.run(), second.run())
    await eventually(
        lambda: trials_of(backend, comparison_id),
        until=lambda rows: len({t.delivery_id for t in rows}) >= 2,
        what="both deliveries admitted",
    )
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(
            update(Comparison).where(Comparison.id == comparison_id).values(status="CANCELLED")
        )

    assert sorted(await running) == ["done here", "stopped: CANCELLED"]
    rows = await trials_of(backend, comparison_id)
    assert 0 < len(rows) < CASES * TRIALS * 2
    assert {t.state for t in rows} == {TrialState.COMPLETED}, "in-flight calls recorded"
    assert all(r.lease_owner is None for r in await _ranges(backend, comparison_id))


async def test_a_job_that_lands_where_the_run_is_dispatched_passes_on(backend: Backend) -> None:
    await between_sweeps()
    queue = HeldQueue()
    comparison_id = await running_comparison(backend, queue, trials=1, cases=3)
    here = {comparison_id}  # this process dispatches the comparison already
    async with backend.sessionmaker() as session, session.begin():
        await ranges.ensure(session, comparison_id, size=1)

    delivery = range_dispatcher(backend, comparison_id, Trials(0), queue, registry=here)
    assert await delivery.run() == "passed on"
    name, args, job_id, delay = queue.enqueued[-1]
    assert (name, job_id, delay) == (
        "dispatch_comparison",
        f"dispatch:{comparison_id}:join-1",
        JOIN_DEFER,
    )
    assert args == (comparison_id, 1)
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(
            update(ComparisonRange)
            .where(ComparisonRange.comparison_id == comparison_id)
            .values(lease_owner="dlv_other", lease_expires_at=utcnow() + timedelta(minutes=1))
        )
    before = len(queue.enqueued)
    delivery = range_dispatcher(backend, comparison_id, Trials(0), queue, registry=here)
    assert await delivery.run() == "dispatching here"
    assert len(queue.enqueued) == before, "no range is free: it ends"
    assert await range_dispatcher(backend, comparison_id, Trials(0), queue).run() == "not leased"
    assert here == {comparison_id}, "the other delivery of this process is still registered"


async def _swept(backend: Backend, comparison_id: str) -> list[str]:
    queue = HeldQueue()
    await sweep_comparisons({"sessionmaker": backend.sessionmaker, "queue": queue})
    return [str(job) for _, args, job, _ in queue.enqueued if comparison_id in args]


async def test_the_sweep_finds_free_ranges_and_runs_nobody_ended(backend: Backend) -> None:
    await between_sweeps()
    queue = HeldQueue()
    comparison_id = await running_comparison(backend, queue, trials=1, cases=2)
    assert len(await _swept(backend, comparison_id)) == 1, "no ranges yet (a run from before)"
    live = utcnow() + timedelta(minutes=1)
    async with backend.sessionmaker() as session, session.begin():
        await ranges.ensure(session, comparison_id, size=1)
        await session.execute(
            update(ComparisonRange)
            .where(ComparisonRange.comparison_id == comparison_id)
            .where(ComparisonRange.range_index == 0)
            .values(lease_owner="dlv_a", lease_expires_at=live, lease_token=1)
        )
    assert len(await _swept(backend, comparison_id)) == 1, "range 1 is free"
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(
            update(ComparisonRange)
            .where(ComparisonRange.comparison_id == comparison_id)
            .values(lease_owner="dlv_a", lease_expires_at=live)
        )
    assert await _swept(backend, comparison_id) == [], "both ranges are held by a live delivery"
    # Every trial recorded, every range finished, but the delivery died before it ended
    # the run.
    trials = Trials(seconds=0)
    dispatcher = range_dispatcher(backend, comparison_id, trials, queue)
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(
            update(ComparisonRange)
            .where(ComparisonRange.comparison_id == comparison_id)
            .values(lease_owner=None, lease_expires_at=None)
        )
    assert await dispatcher.run() == "done"
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(
            update(Comparison)
            .where(Comparison.id == comparison_id)
            .values(status="RUNNING", lease_owner=None, lease_expires_at=None)
        )
    assert len(await _swept(backend, comparison_id)) == 1, "finished ranges, nobody ended it"
    assert await range_dispatcher(backend, comparison_id, trials, queue).run() == "done"
    assert len(await trials_of(backend, comparison_id)) == 4, "nothing sent twice"
