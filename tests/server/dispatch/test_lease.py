"""The dispatcher itself, with stand-in trials: a delivery whose calls outlast the lease
keeps it, and a trial runner that breaks costs one trial, not the run."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime

import pytest
from sqlalchemy import select, update

from bench.kit.harness import Backend
from bench.kit.waiting import eventually
from server.comparisons.models import Comparison, ComparisonStatus, TrialState
from server.dispatch.dispatcher import Dispatcher
from server.dispatch.models import ComparisonRange
from server.providers.base import DispatchError
from tests.server.dispatch.api import between_sweeps, leased, trials_of
from tests.server.dispatch.by_hand import HeldQueue, Trials, running_comparison


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
    await between_sweeps()  # a sweep finds a held-back comparison unattended and runs it
    queue = HeldQueue()
    comparison_id = await running_comparison(backend, queue, trials=1)
    slow = Trials(seconds=2.5)
    first = asyncio.create_task(_dispatcher(backend, comparison_id, slow, queue, lease=1).run())
    claimed = await eventually(
        lambda: _lease_expiry(backend, comparison_id), what="the first delivery's claim"
    )
    assert claimed is not None
    # The calls are still in flight (2.5 s) when the lease as first claimed is over.
    await eventually(lambda: datetime.now(UTC) > claimed, timeout=5, what="the first lease over")
    # What a sweep would start for a lease it believes expired: it must find it held.
    assert await _dispatcher(backend, comparison_id, slow, queue, lease=1).run() == "not leased"
    assert await first == "done"
    trials = await trials_of(backend, comparison_id)
    assert [t.state for t in trials] == [TrialState.COMPLETED] * 2


async def test_a_broken_trial_runner_costs_that_trial_only(
    backend: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    await between_sweeps()
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
    await between_sweeps()  # a sweep between the hand-over and the continuation would join
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
    await between_sweeps()
    queue = HeldQueue()
    comparison_id = await running_comparison(backend, queue, trials=1)
    first = _dispatcher(backend, comparison_id, Trials(seconds=0.5), queue)
    running = asyncio.create_task(first.run())
    await eventually(lambda: trials_of(backend, comparison_id), what="a trial admitted")
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


async def _lease_expiry(backend: Backend, comparison_id: str) -> datetime | None:
    """When the comparison's first range lease expires, once a delivery claimed it."""
    async with backend.sessionmaker() as session:
        return await session.scalar(
            select(ComparisonRange.lease_expires_at).where(
                ComparisonRange.comparison_id == comparison_id,
                ComparisonRange.lease_owner.is_not(None),
            )
        )
