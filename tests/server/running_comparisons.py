"""Comparisons left RUNNING mid-way, as a delivery leaves them, without running one."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import insert, update

from bench.kit.factories import ComparisonSetup, make_comparison
from bench.kit.harness import Backend
from server.comparisons.models import (
    CohortState,
    Comparison,
    ComparisonCohort,
    ComparisonStatus,
    Trial,
    TrialState,
)
from server.db import utcnow


async def running_comparison(backend: Backend, setup: ComparisonSetup, *, recorded: int) -> str:
    """A RUNNING comparison with `recorded` cases' trials completed; its finishing lease held
    (as by a delivery), so no sweep dispatches it meanwhile."""
    comparison_id = await make_comparison(backend.sessionmaker, setup, trials=2)
    now = utcnow()
    rows = [
        {
            "comparison_id": comparison_id,
            "case_ordinal": ordinal,
            "cohort_index": cohort,
            "trial_index": index,
            "connection_id": setup.connection_id,
            "state": TrialState.COMPLETED,
            "delivery_id": "dlv_test",
            "lease_token": 1,
            "passed": index == 0,
            "cost_micros": 10,
            "completed_at": now,
        }
        for ordinal in range(recorded)
        for cohort in range(2)
        for index in range(2)
    ]
    async with backend.sessionmaker() as session, session.begin():
        if rows:
            await session.execute(insert(Trial), rows)
        await session.execute(
            update(Comparison)
            .where(Comparison.id == comparison_id)
            .values(
                status=ComparisonStatus.RUNNING,
                started_at=now - timedelta(seconds=30),
                progress_at=now,
                total_calls=len(setup.dataset_item_ids) * 4,
                done_calls=len(rows),
                spent_micros=10 * len(rows),
                seq=1 + recorded,
                lease_owner="dlv_test",
                lease_expires_at=now + timedelta(hours=1),
            )
        )
        await session.execute(
            update(ComparisonCohort)
            .where(ComparisonCohort.comparison_id == comparison_id)
            .values(state=CohortState.RUNNING, done_trials=2 * recorded)
        )
    return comparison_id
