"""A DONE, not yet finalized comparison with its trial rows written directly, as dispatch
would leave them: what the finalize, portal and report benches and the finalize memory test
start from."""

from __future__ import annotations

from typing import Any

import numpy as np
from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bench.kit.factories import (
    WorkspaceFixture,
    make_comparison,
    make_comparison_setup,
    make_workspace,
)
from server.comparisons.models import Comparison, ComparisonStatus, StopReason, Trial, TrialState
from server.datasets.models import DatasetCase
from server.db import utcnow
from server.settings import Settings

COHORTS, TRIALS = 3, 3
CHECKS = [{"kind": "CONTAINS"}, {"kind": "EXACT_MATCH"}]
RATES = (0.78, 0.82, 0.80)


def trial_rows(comparison_id: str, connection_id: str, cases: int) -> list[dict[str, Any]]:
    """What dispatch leaves: outcomes drawn per cohort, 1% errors, varied latency and tokens."""
    rng = np.random.default_rng(7)
    now = utcnow()
    rows = []
    for case in range(cases):
        for cohort in range(COHORTS):
            for trial in range(TRIALS):
                errored = rng.random() < 0.01
                passed = bool(rng.random() < RATES[cohort])
                contains = passed or bool(rng.random() < 0.3)
                output_tokens = int(rng.integers(1, 40))
                rows.append(
                    {
                        "comparison_id": comparison_id,
                        "case_ordinal": case,
                        "cohort_index": cohort,
                        "trial_index": trial,
                        "connection_id": connection_id,
                        "state": TrialState.ERRORED if errored else TrialState.COMPLETED,
                        "delivery_id": "dlv_bench",
                        "lease_token": 1,
                        "attempts": 1,
                        "output": None if errored else f"The answer is {case}. " * 3,
                        "input_tokens": 20,
                        "output_tokens": 0 if errored else output_tokens,
                        "cost_micros": 0 if errored else 3 + output_tokens * 6,
                        "latency_ms": int(rng.gamma(4.0, 60.0)),
                        "error_code": "provider_timeout" if errored else None,
                        "passed": None if errored else passed,
                        "score": None if errored else (float(passed) + float(contains)) / 2,
                        "check_results": None
                        if errored
                        else [
                            {
                                "kind": "CONTAINS",
                                "passed": contains,
                                "score": float(contains),
                                "reason": None if contains else "not_contained",
                            },
                            {
                                "kind": "EXACT_MATCH",
                                "passed": passed,
                                "score": float(passed),
                                "reason": None if passed else "mismatch",
                            },
                        ],  # fmt: skip
                        "admitted_at": now,
                        "completed_at": now,
                    }
                )
    return rows


async def mark_done(
    session: AsyncSession, comparison_id: str, *, done_calls: int | None = None
) -> None:
    """End a comparison whose trial rows a bench wrote itself as a completed run."""
    now = utcnow()
    values: dict[str, Any] = {
        "status": ComparisonStatus.DONE,
        "stop_reason": StopReason.COMPLETED,
        "started_at": now,
        "ended_at": now,
    }
    if done_calls is not None:
        values["done_calls"] = done_calls
    await session.execute(update(Comparison).where(Comparison.id == comparison_id).values(values))


async def seed_done_comparison(
    sessionmaker: async_sessionmaker[AsyncSession], cases: int
) -> tuple[str, WorkspaceFixture]:
    """A DONE, not yet finalized comparison of COHORTS × `cases` × TRIALS trial rows, and its
    workspace."""
    ws = await make_workspace(sessionmaker, name="bench", max_calls_per_comparison=10**6)
    setup = await make_comparison_setup(sessionmaker, ws, cases=cases, cohorts=COHORTS)
    # 45,000 calls is over the per-comparison limit: the bench makes its rows itself.
    settings = Settings.model_construct(max_calls_per_comparison=10**6)
    comparison_id = await make_comparison(
        sessionmaker, setup, trials=TRIALS, checks=CHECKS, settings=settings
    )
    rows = trial_rows(comparison_id, setup.connection_id, cases)
    async with sessionmaker() as session, session.begin():
        for low in range(0, len(rows), 5000):
            await session.execute(insert(Trial), rows[low : low + 5000])
        await mark_done(session, comparison_id)
    async with sessionmaker() as session:
        assert await session.scalar(select(DatasetCase.id).limit(1)) is not None
    return comparison_id, ws
