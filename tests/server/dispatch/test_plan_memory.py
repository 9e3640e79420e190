"""What a delivery keeps of its plan does not grow with the comparison's recorded trials:
each range's recorded trials are read with its claim (`server/dispatch/ranges.py`). The
plan that held every trial key of the comparison kept about 140 bytes more per trial here
(docs/benchmarks.md, "The big run": what that cost a 900,000-call run's workers)."""

from __future__ import annotations

import gc
import tracemalloc

from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bench.kit.done_comparison import COHORTS, TRIALS, seed_done_comparison
from server.comparisons.models import Trial
from server.dispatch.plan import DispatchPlan, load_plan

CASES = 2_000
PER_TRIAL_BYTES = 20
"""The most one more recorded trial may add to what a plan keeps (the old plan: ~140)."""


async def _kept(sessionmaker: async_sessionmaker[AsyncSession], comparison_id: str) -> int:
    """Bytes still allocated once the plan is loaded and the session closed, the plan alive."""
    gc.collect()
    tracemalloc.start()
    try:
        async with sessionmaker() as session:
            plan: DispatchPlan = await load_plan(session, comparison_id)
        gc.collect()
        kept, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(plan.cases) == CASES
    return kept


async def test_a_plan_keeps_nothing_per_recorded_trial(
    postgres_sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    comparison_id, _ws = await seed_done_comparison(postgres_sessionmaker, CASES)
    await _kept(postgres_sessionmaker, comparison_id)  # first: the statement caches fill
    with_trials = await _kept(postgres_sessionmaker, comparison_id)
    async with postgres_sessionmaker() as session, session.begin():
        await session.execute(delete(Trial).where(Trial.comparison_id == comparison_id))
    without = await _kept(postgres_sessionmaker, comparison_id)
    trials = CASES * COHORTS * TRIALS
    assert with_trials - without < trials * PER_TRIAL_BYTES, (with_trials, without)
