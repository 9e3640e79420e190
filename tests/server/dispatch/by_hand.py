"""Deliveries run by hand: a job queue that holds what is enqueued, stand-in trials, and a
RUNNING comparison whose dispatch job is held back (the lease and ranges tests)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

from bench.kit.factories import actor_for, make_comparison, make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from server.comparisons import lifecycle
from server.comparisons.models import TrialState
from server.dispatch.dispatcher import Dispatcher
from server.dispatch.outcomes import TrialOutcome
from server.dispatch.plan import DispatchPlan, WorkItem
from server.runtime.interfaces import JobStats
from server.workspaces.roles import Role


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


def range_dispatcher(
    backend: Backend,
    comparison_id: str,
    trials: Any,
    queue: HeldQueue,
    *,
    registry: set[str] | None = None,
) -> Dispatcher:
    """A delivery over ranges of one case each, window 2 (the ranges and sequential tests)."""
    settings = backend.settings.model_copy(
        update={"dispatch_range_cases": 1, "dispatch_lease_seconds": 30}
    )
    return Dispatcher(
        comparison_id=comparison_id,
        sessionmaker=backend.sessionmaker,
        settings=settings,
        queue=queue,
        events=backend.state.events,
        run_trial=trials,
        window_of=lambda _plan: 2,
        registry=registry,
    )
