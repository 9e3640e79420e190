"""The dispatcher itself, with stand-in trials: a delivery whose calls outlast the lease
keeps it, and a trial runner that breaks costs one trial, not the run."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import update

from server.comparisons import lifecycle
from server.comparisons.models import Comparison, ComparisonRange, ComparisonStatus, TrialState
from server.dispatch.dispatcher import Dispatcher
from server.dispatch.plan import DispatchPlan, WorkItem
from server.dispatch.store import TrialOutcome
from server.providers.base import DispatchError
from server.runtime.interfaces import JobStats
from server.workspaces.roles import Role
from tests.factories import actor_for, make_comparison, make_comparison_setup, make_workspace
from tests.harness import Backend
from tests.server.dispatch.test_dispatch import leased, trials_of


class HeldQueue:
    """A job queue that keeps what is enqueued: the test runs the deliveries itself."""

    def __init__(self) -> None:
        self.enqueued: list[tuple[str, tuple[Any, ...], str | None, timedelta | None]] = []

    async def enqueue(
        self,
        name: str,
        *args: Any,
        job_id: str | None = None,
        delay: timedelta | None = None,
        **kwargs: Any,
    ) -> bool:
        self.enqueued.append((name, (*args, *kwargs.values()), job_id, delay))
        return True

    async def stats(self) -> JobStats:
        return JobStats(counts={}, queued=len(self.enqueued))

    async def close(self) -> None:
        """Nothing to close."""


class Trials:
    """Stand-in trials: each takes `seconds` and completes, except `broken` trial indexes,
    whose runner raises (a bug, not a provider fault)."""

    def __init__(self, seconds: float, broken: frozenset[int] = frozenset()) -> None:
        self.seconds = seconds
        self.broken = broken

    async def __call__(
        self,
        plan: DispatchPlan,  # noqa: ARG002 - the RunTrial signature
        item: WorkItem,
        trial_id: int,
        delivery_id: str,  # noqa: ARG002
    ) -> TrialOutcome:
        await asyncio.sleep(self.seconds)
        if item.trial_index in self.broken:
            raise RuntimeError("secret prompt text that must not be logged")
        return TrialOutcome(
            trial_id=trial_id,
            state=TrialState.COMPLETED,
            output="ok",
            tool_calls=None,
            input_tokens=1,
            output_tokens=1,
            cost_micros=0,
            latency_ms=round(self.seconds * 1000),
            attempts=1,
            error_code=None,
            passed=True,
            score=1.0,
            check_results=[],
        )


async def running_comparison(
    backend: Backend, queue: HeldQueue, *, trials: int, cases: int = 1
) -> str:
    """A RUNNING comparison with two cohorts whose dispatch job is held back."""
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=cases)
    comparison_id = await make_comparison(backend.sessionmaker, setup, trials=trials)
    await lifecycle.start(
        sessionmaker=backend.sessionmaker,
        events=backend.state.events,
        queue=queue,
        actor=actor_for(ws, Role.MEMBER),
        comparison_id=comparison_id,
    )
    return comparison_id


def _dispatcher(
    backend: Backend,
    comparison_id: str,
    trials: Trials,
    queue: HeldQueue,
    *,
    lease: int = 30,
    slice_seconds: int = 60,
) -> Dispatcher:
    timing = {"dispatch_lease_seconds": lease, "dispatch_slice_seconds": slice_seconds}
    return Dispatcher(
        comparison_id=comparison_id,
        sessionmaker=backend.sessionmaker,
        settings=backend.settings.model_copy(update=timing),
        queue=queue,
        events=backend.state.events,
        run_trial=trials,
        window_of=lambda _plan: 2,
    )


async def test_a_delivery_whose_calls_outlast_the_lease_keeps_it(backend: Backend) -> None:
    queue = HeldQueue()
    comparison_id = await running_comparison(backend, queue, trials=1)
    slow = Trials(seconds=2.5)
    first = asyncio.create_task(_dispatcher(backend, comparison_id, slow, queue, lease=1).run())
    await asyncio.sleep(1.6)  # the calls are still in flight, the lease's first second is over
    # What a sweep would start for a lease it believes expired: it must find it held.
    assert await _dispatcher(backend, comparison_id, slow, queue, lease=1).run() == "not leased"
    assert await first == "done"
    trials = await trials_of(backend, comparison_id)
    assert [t.state for t in trials] == [TrialState.COMPLETED] * 2


async def test_a_broken_trial_runner_costs_that_trial_only(
    backend: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    queue = HeldQueue()
    comparison_id = await running_comparison(backend, queue, trials=3)
    broken = Trials(seconds=0.05, broken=frozenset({1}))
    assert await _dispatcher(backend, comparison_id, broken, queue).run() == "done"
    trials = await trials_of(backend, comparison_id)
    assert len(trials) == 6
    assert {(t.trial_index, t.state, t.error_code) for t in trials} == {
        (0, TrialState.COMPLETED, None),
        (1, TrialState.ERRORED, DispatchError.DISPATCH_INTERNAL.value),
        (2, TrialState.COMPLETED, None),
    }
    assert all(t.passed is None for t in trials if t.state == TrialState.ERRORED)
    assert any(getattr(r, "error_type", None) == "RuntimeError" for r in caplog.records)
    assert "secret prompt text" not in caplog.text


async def test_a_slice_hands_over_to_a_continuation_that_finishes_the_run(
    backend: Backend,
) -> None:
    queue = HeldQueue()
    comparison_id = await running_comparison(backend, queue, trials=3, cases=4)
    trials = Trials(seconds=0.2)
    first = _dispatcher(backend, comparison_id, trials, queue, slice_seconds=1)
    assert await first.run() == "handed over"
    name, args, job_id, _ = queue.enqueued[-1]
    assert (name, args) == ("dispatch_comparison", (comparison_id,))
    assert job_id == f"dispatch:{comparison_id}:after-{first.delivery_id}"
    assert not await leased(backend, comparison_id), "the lease is free for the continuation"
    rows = await trials_of(backend, comparison_id)
    assert 0 < len(rows) < 24 and all(t.state == TrialState.COMPLETED for t in rows)

    second = _dispatcher(backend, comparison_id, trials, queue)
    assert await second.run() == "done"
    rows = await trials_of(backend, comparison_id)
    assert len(rows) == 24 and all(t.state == TrialState.COMPLETED for t in rows)
    assert {t.delivery_id for t in rows} == {first.delivery_id, second.delivery_id}
    # The continuation took the range over with the next fencing token.
    tokens = {t.delivery_id: t.lease_token for t in rows}
    assert tokens[second.delivery_id] == tokens[first.delivery_id] + 1


async def test_a_delivery_fenced_out_writes_nothing_more(backend: Backend) -> None:
    queue = HeldQueue()
    comparison_id = await running_comparison(backend, queue, trials=1)
    first = _dispatcher(backend, comparison_id, Trials(seconds=0.5), queue)
    running = asyncio.create_task(first.run())
    while not (await trials_of(backend, comparison_id)):
        await asyncio.sleep(0.02)
    # Another delivery takes the range over (as after a lease it believed expired).
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(
            update(ComparisonRange)
            .where(ComparisonRange.comparison_id == comparison_id)
            .values(lease_token=ComparisonRange.lease_token + 1, lease_owner="dlv_other")
        )
    assert await running == "fenced"
    rows = await trials_of(backend, comparison_id)
    assert [t.state for t in rows] == [TrialState.ADMITTED] * 2, "its outcomes were refused"
    async with backend.sessionmaker() as session, session.begin():
        row = await session.get(Comparison, comparison_id)
        assert row is not None
        assert (row.status, row.done_calls) == ("RUNNING", 0)
        taken = await session.get(ComparisonRange, (comparison_id, 0))
        assert taken is not None and taken.lease_owner == "dlv_other"
        row.status = ComparisonStatus.CANCELLED  # nobody resumes it
        taken.lease_owner = None
