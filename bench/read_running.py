"""RUNNING comparisons for the read bench, and a writer that records into them meanwhile.

Each comparison is started as `startComparison` starts it (`lifecycle.start`, its dispatch
job queued nowhere); the writer then does what a delivery does, through the same code:
it leases the comparison's one range (`ranges.claim_next`), admits a batch of trials
(`store.admit`) and records their outcomes (`store.record`), one comparison after another,
so `seq`, the counters, the spend and the cohorts' counts move throughout a measurement.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, cast

import numpy as np
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bench.kit.factories import actor_for, make_comparison, make_comparison_setup, make_workspace
from server.comparisons import lifecycle
from server.comparisons.models import Trial, TrialState
from server.db import create_engine, create_sessionmaker
from server.dispatch import ranges, store
from server.dispatch.plan import DispatchPlan, load_plan
from server.runtime.embedded import InProcessEventBus
from server.runtime.interfaces import JobQueue
from server.settings import Settings
from server.workspaces.models import Workspace
from server.workspaces.roles import Role

CASES_PER_BATCH = 2
"""Cases per recorded batch: with 3 cohorts × 3 trials, 18 trials, as a small delivery."""


class _NoQueue:
    """`lifecycle.start` queues the dispatch job here: nobody runs it but the writer."""

    async def enqueue(self, *args: Any, **kwargs: Any) -> None:  # noqa: ARG002
        return None


async def seed_running(
    sessionmaker: async_sessionmaker[AsyncSession], *, count: int, cases: int, cohorts: int
) -> tuple[str, list[Run]]:
    """A workspace of its own with `count` RUNNING comparisons, each range leased: (owner
    token, the runs for a `Writer`)."""
    ws = await make_workspace(sessionmaker, name="bench-running", max_calls_per_comparison=10**6)
    async with sessionmaker() as session, session.begin():
        await session.execute(
            update(Workspace)
            .where(Workspace.id == ws.id)
            .values(requests_per_minute_per_token=10**9, max_running_comparisons=count)
        )
    setup = await make_comparison_setup(sessionmaker, ws, cases=cases, cohorts=cohorts)
    settings = Settings.model_construct(max_calls_per_comparison=10**6)
    events = InProcessEventBus()
    ids = []
    for _ in range(count):
        comparison_id = await make_comparison(sessionmaker, setup, trials=3, settings=settings)
        await lifecycle.start(
            sessionmaker=sessionmaker,
            events=events,
            queue=cast(JobQueue, _NoQueue()),
            actor=actor_for(ws, Role.MEMBER),
            comparison_id=comparison_id,
        )
        ids.append(await lease(sessionmaker, comparison_id))
    await events.close()
    return ws.tokens[Role.OWNER], ids


@dataclass
class Run:
    """A running comparison's plan, its leased range and the next case to record."""

    plan: DispatchPlan
    claim: ranges.Claim
    next_case: int = 0


def _outcomes(trial_ids: list[int], rng: np.random.Generator) -> list[store.TrialOutcome]:
    outcomes = []
    for trial_id in trial_ids:
        passed = bool(rng.random() < 0.8)
        tokens = int(rng.integers(1, 40))
        outcomes.append(
            store.TrialOutcome(
                trial_id=trial_id,
                state=TrialState.COMPLETED,
                output="The answer. " * 3,
                tool_calls=None,
                input_tokens=20,
                output_tokens=tokens,
                cost_micros=3 + tokens * 6,
                latency_ms=int(rng.gamma(4.0, 60.0)),
                attempts=1,
                error_code=None,
                passed=passed,
                score=float(passed),
                check_results=[{"kind": "CONTAINS", "passed": passed, "score": float(passed)}],
            )
        )
    return outcomes


async def lease(sessionmaker: async_sessionmaker[AsyncSession], cid: str) -> Run:
    """Lease the comparison's one range for an hour, as a delivery would (before any server
    starts, so no sweep dispatches it)."""
    async with sessionmaker() as session, session.begin():
        plan = await load_plan(session, cid)
        await ranges.ensure(session, cid, size=len(plan.cases))
        claim = await ranges.claim_next(
            session, comparison_id=cid, delivery_id="dlv_bench", ttl=timedelta(hours=1)
        )
        last = await session.scalar(
            select(func.max(Trial.case_ordinal)).where(Trial.comparison_id == cid)
        )
    assert claim is not None, f"{cid}: no range to lease"
    return Run(plan, claim, next_case=0 if last is None else int(last) + 1)


@dataclass
class Writer:
    """Records a batch into the next running comparison every `interval` seconds, in a
    thread of its own (its own event loop and engine), until `stop()`."""

    database_url: str
    runs: list[Run]
    interval: float = 0.05
    batches: int = 0
    _stopping: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _error: BaseException | None = None

    def start(self) -> None:
        self._stopping.clear()
        self._thread = threading.Thread(target=self._main, name="bench-writer", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(30)
        if self._error is not None:
            raise self._error

    def _main(self) -> None:
        try:
            asyncio.run(self._loop())
        except BaseException as exc:  # reported by stop()
            self._error = exc

    async def _loop(self) -> None:
        engine = create_engine(self.database_url)
        sessionmaker = create_sessionmaker(engine)
        rng = np.random.default_rng(7)
        try:
            turn = 0
            while not self._stopping.is_set():
                run = self.runs[turn % len(self.runs)]
                turn += 1
                if run.next_case < len(run.plan.cases):
                    await self._batch(sessionmaker, run, rng)
                    self.batches += 1
                await asyncio.sleep(self.interval)
        finally:
            await engine.dispose()

    async def _batch(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        run: Run,
        rng: np.random.Generator,
    ) -> None:
        end = run.next_case + CASES_PER_BATCH
        items = run.plan.pending(run.next_case, end, frozenset())  # cases not yet written
        run.next_case = end
        async with sessionmaker() as session, session.begin():
            trial_ids, stop = await store.admit(
                session,
                plan=run.plan,
                items=items,
                claims=[run.claim],
                tokens=[run.claim.token] * len(items),  # the one range fences every item
                delivery_id="dlv_bench",
            )
        if stop is not None:
            raise RuntimeError(f"{run.plan.comparison.id} stopped: {stop}")
        async with sessionmaker() as session, session.begin():
            await store.record(
                session,
                comparison_id=run.plan.comparison.id,
                plan=run.plan,
                outcomes=_outcomes(trial_ids, rng),
                claims=[run.claim],
                admitted_cohorts={item.cohort_index for item in items},
            )
