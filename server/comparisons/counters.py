"""A comparison's progress counters recounted from its rows: trials and pairwise judge calls.

The counters on the comparison and cohort rows are the truth progress is read from. A record
adds exactly what it wrote (`server.dispatch.store.record`); `recompute` recounts them from
every committed row, when a delivery starts, when a run ends, and when a run is started or
cancelled (`lifecycle`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.checks import calls_per_trial
from server.comparisons.models import (
    CohortState,
    Comparison,
    ComparisonCohort,
    ComparisonPairJudgment,
    JudgmentState,
    Trial,
    TrialState,
)
from server.comparisons.progress import Progress, shown_state, snapshot
from server.db import utcnow


async def cohorts_of(session: AsyncSession, comparison_id: str) -> list[ComparisonCohort]:
    """The comparison's cohort rows by index, read afresh (their counters may have moved)."""
    rows = await session.execute(
        select(ComparisonCohort)
        .where(ComparisonCohort.comparison_id == comparison_id)
        .order_by(ComparisonCohort.cohort_index)
        .execution_options(populate_existing=True)
    )
    return list(rows.scalars())


async def pairwise_counters(session: AsyncSession, comparison_id: str) -> tuple[int, int, int]:
    """(settled calls, failed calls, spend) of the comparison's pairwise judge calls."""
    state = ComparisonPairJudgment.state
    row = (
        await session.execute(
            select(
                func.count().filter(state != JudgmentState.ADMITTED),
                func.count().filter(state.in_((JudgmentState.ERRORED, JudgmentState.SKIPPED))),
                func.coalesce(func.sum(ComparisonPairJudgment.cost_micros), 0),
            ).where(ComparisonPairJudgment.comparison_id == comparison_id)
        )
    ).one()
    return int(row[0]), int(row[1]), int(row[2])


async def recompute(
    session: AsyncSession, comparison: Comparison, *, bump_unchanged: bool = True
) -> Progress:
    """Counters, spend and cohort states from every committed trial row; `seq` + 1 (unless
    nothing changed and not `bump_unchanged`). Only at lease acquisition, at the end and on
    start or cancel: every record in between adds what it wrote."""
    per_cohort = {
        int(row.cohort_index): row
        for row in (
            await session.execute(
                select(
                    Trial.cohort_index,
                    func.count().label("rows"),
                    func.sum(case((Trial.state != TrialState.ADMITTED, 1), else_=0)).label("done"),
                    func.sum(case((Trial.state == TrialState.ERRORED, 1), else_=0)).label("failed"),
                    func.coalesce(func.sum(Trial.cost_micros), 0).label("spent"),
                )
                .where(Trial.comparison_id == comparison.id)
                .group_by(Trial.cohort_index)
            )
        ).all()
    }
    per_cohort_calls = comparison.case_count * comparison.trials_per_case
    # A recorded trial settles its model call and its judge calls (made, or not needed
    # because the model call failed), so done reaches the planned total.
    per_trial = calls_per_trial(comparison.checks)
    cohorts = await cohorts_of(session, comparison.id)
    before = _counters(comparison, cohorts)
    for cohort in cohorts:
        row = per_cohort.get(cohort.cohort_index)
        cohort.done_trials = int(row.done or 0) if row else 0
        cohort.failed_trials = int(row.failed or 0) if row else 0
        cohort.spent_micros = int(row.spent or 0) if row else 0
        if row is None:
            cohort.state = CohortState.QUEUED
        elif cohort.done_trials >= per_cohort_calls:
            cohort.state = CohortState.DONE
        else:
            cohort.state = CohortState.RUNNING
    comparison.done_calls = per_trial * sum(c.done_trials for c in cohorts)
    comparison.failed_calls = per_trial * sum(c.failed_trials for c in cohorts)
    comparison.spent_micros = sum(c.spent_micros for c in cohorts)
    # Pairwise judge calls (server/dispatch/pair_judging.py) are calls of the comparison too.
    judged, judge_failed, judge_spent = await pairwise_counters(session, comparison.id)
    comparison.done_calls += judged
    comparison.failed_calls += judge_failed
    comparison.spent_micros += judge_spent
    if not bump_unchanged and _counters(comparison, cohorts) == before:
        return snapshot(comparison, [(c.cohort_index, c.state) for c in cohorts])
    return _bump(comparison, cohorts, utcnow())


def _counters(comparison: Comparison, cohorts: Sequence[ComparisonCohort]) -> tuple[Any, ...]:
    return (
        comparison.done_calls,
        comparison.failed_calls,
        comparison.spent_micros,
        tuple((c.done_trials, c.failed_trials, c.spent_micros, c.state) for c in cohorts),
    )


def _bump(comparison: Comparison, cohorts: Sequence[ComparisonCohort], now: datetime) -> Progress:
    comparison.seq = comparison.seq + 1
    comparison.progress_at = now
    ordered = []
    for cohort in cohorts:
        cohort.state = shown_state(comparison, cohort.state)
        ordered.append((cohort.cohort_index, cohort.state))
    return snapshot(comparison, ordered)
