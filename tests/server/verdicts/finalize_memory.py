"""Run as a subprocess by test_finalize_memory.py: seed one DONE comparison of 3 cohorts ×
CASES cases × 3 trials in DATABASE_URL (migrated), as the benches do
(`bench/kit/done_comparison.py`), then print, as one JSON line, the tracemalloc peak
(bytes above what was allocated before) of finalizing it and of writing its hosted runs.
CHUNK sets the cases per slice read and written (`inputs.SLICE_ROWS`,
`records.CASE_ROWS_CHUNK`), so a small run spans several slices. UNUSABLE (default 0) cases
have every trial of cohort 0 closed `outcome_ambiguous`, as a worker killed mid-run leaves
them: those cases are not usable for the decision, which then resamples the cases that ran.

    python -m tests.server.verdicts.finalize_memory DATABASE_URL CASES CHUNK [UNUSABLE]
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
import tracemalloc
from collections.abc import Awaitable, Callable

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bench.kit.done_comparison import COHORTS, TRIALS, seed_done_comparison
from server.comparisons.models import Trial, TrialState
from server.db import create_engine, create_sessionmaker
from server.verdicts import hosted_runs, inputs, records, service


async def _peak(step: Callable[[], Awaitable[str]]) -> tuple[str, int]:
    """What `step` returns, and the most memory it held at once above where it started."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    try:
        outcome = await step()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return outcome, peak - base


async def _leave_unusable(
    sessionmaker: async_sessionmaker[AsyncSession], comparison_id: str, cases: int
) -> None:
    """Cohort 0's trials of the first `cases` cases closed as a killed delivery's are."""
    async with sessionmaker() as session, session.begin():
        await session.execute(
            update(Trial)
            .where(
                Trial.comparison_id == comparison_id,
                Trial.cohort_index == 0,
                Trial.case_ordinal < cases,
            )
            .values(
                state=TrialState.ERRORED,
                error_code="outcome_ambiguous",
                output=None,
                passed=None,
                score=None,
            )
        )


async def main(database_url: str, cases: int, chunk: int, unusable: int = 0) -> None:
    inputs.SLICE_ROWS = chunk * COHORTS * TRIALS
    records.CASE_ROWS_CHUNK = chunk
    engine = create_engine(database_url)
    sessionmaker = create_sessionmaker(engine)
    try:
        comparison_id, _ = await seed_done_comparison(sessionmaker, cases)
        if unusable:
            await _leave_unusable(sessionmaker, comparison_id, unusable)

        async def finalize() -> str:
            finalized = await service.finalize(
                sessionmaker=sessionmaker, comparison_id=comparison_id
            )
            return finalized.status

        async def complete() -> str:
            return await hosted_runs.complete(
                sessionmaker=sessionmaker, comparison_id=comparison_id
            )

        finalized, finalize_peak = await _peak(finalize)
        completed, hosted_peak = await _peak(complete)
        line = {
            "finalized": finalized,
            "completed": completed,
            "finalize_peak": finalize_peak,
            "hosted_runs_peak": hosted_peak,
        }
        print(json.dumps(line))  # noqa: T201 - the test reads it
    finally:
        await engine.dispose()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], *(int(arg) for arg in sys.argv[2:5])))
