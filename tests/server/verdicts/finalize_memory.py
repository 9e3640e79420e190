"""Run as a subprocess by test_finalize_memory.py: seed one DONE comparison of 3 cohorts ×
CASES cases × 3 trials in DATABASE_URL (migrated), then print, as one JSON line, the
tracemalloc peak (bytes above what was allocated before) of finalizing it and of writing its
hosted runs. CHUNK sets the cases per slice read and written (`inputs.SLICE_ROWS`,
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
from typing import Any

from sqlalchemy import insert, update

from server.comparisons.models import Comparison, ComparisonStatus, StopReason, Trial, TrialState
from server.db import create_engine, create_sessionmaker, utcnow
from server.verdicts import hosted_runs, inputs, records, service
from tests.factories import make_comparison, make_comparison_setup, make_workspace

COHORTS, TRIALS = 3, 3
CHECKS = [{"kind": "CONTAINS"}, {"kind": "EXACT_MATCH"}]


def _rows(comparison_id: str, connection_id: str, cases: int) -> list[dict[str, Any]]:
    """Trial rows as dispatch leaves them: every fifth trial fails its checks, one in 50
    errored, outputs of a few dozen characters."""
    now = utcnow()
    rows = []
    for case in range(cases):
        for cohort in range(COHORTS):
            for trial in range(TRIALS):
                n = case * 9 + cohort * 3 + trial
                errored = n % 50 == 0
                passed = n % 5 != cohort
                rows.append(
                    {
                        "comparison_id": comparison_id,
                        "case_ordinal": case,
                        "cohort_index": cohort,
                        "trial_index": trial,
                        "connection_id": connection_id,
                        "state": TrialState.ERRORED if errored else TrialState.COMPLETED,
                        "delivery_id": "dlv_memory",
                        "lease_token": 1,
                        "attempts": 1,
                        "output": None if errored else f"The answer is {case}. " * 3,
                        "input_tokens": 20,
                        "output_tokens": 0 if errored else 7 + n % 11,
                        "cost_micros": 0 if errored else 40 + n % 13,
                        "latency_ms": 100 + n % 97,
                        "error_code": "provider_timeout" if errored else None,
                        "passed": None if errored else passed,
                        "score": None if errored else float(passed),
                        "check_results": None
                        if errored
                        else [
                            {"kind": "CONTAINS", "passed": passed, "score": float(passed)},
                            {"kind": "EXACT_MATCH", "passed": passed, "score": float(passed)},
                        ],
                        "admitted_at": now,
                        "completed_at": now,
                    }
                )
    return rows


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
        ws = await make_workspace(sessionmaker, max_calls_per_comparison=2_000_000)
        setup = await make_comparison_setup(sessionmaker, ws, cases=cases, cohorts=COHORTS)
        comparison_id = await make_comparison(sessionmaker, setup, trials=TRIALS, checks=CHECKS)
        rows = _rows(comparison_id, setup.connection_id, cases)
        async with sessionmaker() as session, session.begin():
            for low in range(0, len(rows), 5000):
                await session.execute(insert(Trial), rows[low : low + 5000])
            await session.execute(
                update(Comparison)
                .where(Comparison.id == comparison_id)
                .values(
                    status=ComparisonStatus.DONE,
                    stop_reason=StopReason.COMPLETED,
                    started_at=utcnow(),
                    ended_at=utcnow(),
                )
            )
        del rows

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
