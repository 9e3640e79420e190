"""Run as a subprocess by test_finalize_memory.py: seed one DONE comparison of 3 cohorts ×
CASES cases × 3 trials in DATABASE_URL (migrated), as the benches do
(`bench/kit/done_comparison.py`), then print, as one JSON line, the tracemalloc peak
(bytes above what was allocated before) of finalizing it and of writing its hosted runs.
CHUNK sets the cases per slice read and written (`inputs.SLICE_ROWS`,
`records.CASE_ROWS_CHUNK`), so a small run spans several slices.

    python -m tests.server.verdicts.finalize_memory DATABASE_URL CASES CHUNK
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
import tracemalloc
from collections.abc import Awaitable, Callable

from bench.kit.done_comparison import COHORTS, TRIALS, seed_done_comparison
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


async def main(database_url: str, cases: int, chunk: int) -> None:
    inputs.SLICE_ROWS = chunk * COHORTS * TRIALS
    records.CASE_ROWS_CHUNK = chunk
    engine = create_engine(database_url)
    sessionmaker = create_sessionmaker(engine)
    try:
        comparison_id, _ = await seed_done_comparison(sessionmaker, cases)

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
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
