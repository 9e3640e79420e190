"""The read bench's finalized and DONE comparisons: trial rows as dispatch leaves them."""

from __future__ import annotations

from typing import Any

import numpy as np
from sqlalchemy import insert, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bench.kit.done_comparison import mark_done
from bench.kit.factories import make_comparison, make_comparison_setup, make_workspace
from server.comparisons import cohort_rates
from server.comparisons.models import Trial, TrialState
from server.db import utcnow
from server.settings import Settings
from server.verdicts import hosted_runs
from server.verdicts import service as verdict_service
from server.workspaces.models import Workspace
from server.workspaces.roles import Role

CASES, COHORTS, TRIALS, COMPARISONS = 500, 3, 3, 20
RATES = (0.78, 0.82, 0.80)


def trial_rows(
    comparison_id: str, connection_id: str, seed: int, cases: int = CASES
) -> list[dict[str, Any]]:
    """What dispatch leaves: outcomes drawn per cohort, 1% errors, varied latency and tokens."""
    rng = np.random.default_rng(seed)
    now = utcnow()
    rows = []
    for case in range(cases):
        for cohort in range(COHORTS):
            for trial in range(TRIALS):
                errored = bool(rng.random() < 0.01)
                passed = bool(rng.random() < RATES[cohort])
                tokens = int(rng.integers(1, 40))
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
                        "output_tokens": 0 if errored else tokens,
                        "cost_micros": 0 if errored else 3 + tokens * 6,
                        "latency_ms": int(rng.gamma(4.0, 60.0)),
                        "error_code": "provider_timeout" if errored else None,
                        "passed": None if errored else passed,
                        "score": None if errored else float(passed),
                        "check_results": None
                        if errored
                        else [{"kind": "CONTAINS", "passed": passed, "score": float(passed)}],
                        "admitted_at": now,
                        "completed_at": now,
                    }
                )
    return rows


async def seed_ended(
    sessionmaker: async_sessionmaker[AsyncSession],
    *,
    cases: int = CASES,
    comparisons: int = COMPARISONS,
) -> tuple[str, str]:
    """(the owner's token, the finalized comparison's id) of `comparisons` ended ones."""
    ws = await make_workspace(sessionmaker, name="bench", max_calls_per_comparison=10**6)
    async with sessionmaker() as session, session.begin():
        await session.execute(
            update(Workspace)
            .where(Workspace.id == ws.id)
            .values(requests_per_minute_per_token=10**9)
        )
    setup = await make_comparison_setup(sessionmaker, ws, cases=cases, cohorts=COHORTS)
    settings = Settings.model_construct(max_calls_per_comparison=10**6)
    ids = []
    for index in range(comparisons):
        comparison_id = await make_comparison(sessionmaker, setup, trials=TRIALS, settings=settings)
        rows = trial_rows(comparison_id, setup.connection_id, seed=index, cases=cases)
        async with sessionmaker() as session, session.begin():
            await session.execute(insert(Trial), rows)
            await mark_done(session, comparison_id, done_calls=len(rows))
            await cohort_rates.settle(session, comparison_id=comparison_id)  # as dispatch ends
        ids.append(comparison_id)
    finalized = await verdict_service.finalize(sessionmaker=sessionmaker, comparison_id=ids[0])
    assert finalized.status == "finalized", finalized
    await hosted_runs.complete(sessionmaker=sessionmaker, comparison_id=ids[0])
    return ws.tokens[Role.OWNER], ids[0]
