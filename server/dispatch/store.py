"""The database side of dispatch: admission under the row lock, and recording.

The plan it admits against is in `server.dispatch.plan`.

Admission commits each trial's checkpoint (state ADMITTED) before its provider call; the
outcome commits after. A record adds to the counters and the spend ledgers exactly the rows
its one statement wrote; they are recomputed from all the rows when a delivery starts and at
the end. Every change bumps `seq`. Admission and recording lock the range rows they touch
and check their fencing tokens (`ranges.lock`); caps, status and counters stay on the
comparison row, which a record locks only for its final increments, so two deliveries
recording at once barely wait for each other. Lock order: ranges → trials → ledgers →
comparison → cohorts.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from server.checks import calls_per_trial
from server.comparisons import cohort_rates, counters
from server.comparisons.models import (
    Comparison,
    ComparisonStatus,
    StopReason,
    Trial,
    TrialState,
)
from server.comparisons.progress import Progress, shown_state, snapshot
from server.db import utcnow
from server.dispatch import cohort_counters, ranges
from server.dispatch.checkpoints import insert_admitted
from server.dispatch.lease import Fenced
from server.dispatch.outcomes import TrialOutcome
from server.dispatch.plan import DispatchPlan, WorkItem
from server.dispatch.recording import write_outcomes
from server.experiments.models import Experiment
from server.spend import caps, ledgers

__all__ = ["Fenced", "TrialOutcome"]


async def lock_row(session: AsyncSession, comparison_id: str) -> Comparison:
    """The comparison row under its row lock."""
    return (
        await session.execute(
            select(Comparison).where(Comparison.id == comparison_id).with_for_update()
        )
    ).scalar_one()


async def lock(session: AsyncSession, comparison_id: str, token: int) -> Comparison:
    """The comparison row under its row lock; `Fenced` unless `token` holds its finishing
    lease (the pairwise stage and `finish`)."""
    row = await lock_row(session, comparison_id)
    if row.lease_token != token:
        raise Fenced(comparison_id)
    return row


async def admit(
    session: AsyncSession,
    *,
    plan: DispatchPlan,
    items: Sequence[WorkItem],
    claims: Sequence[ranges.Claim],
    tokens: Sequence[int],
    delivery_id: str,
) -> tuple[list[int], StopReason | ComparisonStatus | None]:
    """Checkpoint `items` (of `claims`, each under its range's fencing token in `tokens`) as
    ADMITTED unless the run must stop; (trial ids, why it stops). A cap found here is
    recorded as the run's pending stop, so every other delivery stops at its next admission.
    Three statements when no connection has a monthly cap and no daily budget is set: the
    range rows locked, the comparison row locked (with its experiment's budget) and the
    insert."""
    await ranges.lock(session, plan.comparison.id, claims, shared=True)
    row = (
        await session.execute(
            select(Comparison, Experiment.daily_budget_micros)
            .join(Experiment, Experiment.id == Comparison.experiment_id)
            .where(Comparison.id == plan.comparison.id)
            .with_for_update(of=Comparison)
        )
    ).one()
    comparison, daily_budget = row
    if comparison.status != ComparisonStatus.RUNNING:
        return [], comparison.status
    if comparison.pending_stop is not None:
        return [], pending_stop(comparison.pending_stop)
    stop = await caps.stop_reason(
        session,
        comparison=comparison,
        cohorts=list(plan.cohorts.values()),
        daily_budget_micros=daily_budget,
    )
    if stop is not None:
        comparison.pending_stop = stop.value
        return [], stop
    ids = await insert_admitted(
        session,
        comparison_id=comparison.id,
        items=items,
        connection_of={index: cohort.connection.id for index, cohort in plan.cohorts.items()},
        tokens=tokens,
        delivery_id=delivery_id,
        now=utcnow(),
    )
    return ids, None


def pending_stop(value: str) -> StopReason | ComparisonStatus:
    """A pending stop as admission reports it: a StopReason, or FAILED."""
    if value == ranges.FAILED_STOP:
        return ComparisonStatus.FAILED
    return StopReason(value)


async def record(
    session: AsyncSession,
    *,
    comparison_id: str,
    plan: DispatchPlan,
    outcomes: Sequence[TrialOutcome],
    claims: Sequence[ranges.Claim],
    finished: Collection[ranges.Claim] = (),
    admitted_cohorts: Collection[int] = (),
) -> Progress:
    """Commit outcomes and add exactly the rows written to the counters, the cohorts' counters
    and the spend ledgers; `seq` + 1 (one transaction, O(batch) whatever the run's size).
    `claims` are the ranges the outcomes belong to (their rows locked, tokens checked);
    `finished` of them have every outcome now and are given up as finished. The comparison
    row is locked only by the final increments, so an admission after it sees the spend."""
    await ranges.lock(session, comparison_id, claims, shared=True)
    now = utcnow()
    unsent = [o.trial_id for o in outcomes if not o.sent]
    if unsent:  # never sent, so not ambiguous: the trial is simply not dispatched yet
        await session.execute(
            delete(Trial).where(Trial.id.in_(unsent), Trial.state == TrialState.ADMITTED)
        )
    tallies = await write_outcomes(session, [o for o in outcomes if o.sent], now=now)
    by_connection: dict[str, int] = {}
    for tally in tallies:
        by_connection[tally.connection_id] = (
            by_connection.get(tally.connection_id, 0) + tally.cost_micros
        )
    await ledgers.add(
        session, experiment_id=plan.comparison.experiment_id, by_connection=by_connection, now=now
    )
    await ranges.release(session, comparison_id, finished, finished=True)
    per_trial = calls_per_trial(plan.comparison.checks)
    # From here to the commit the comparison row is locked: one statement for the counters,
    # one for every cohort (admission waits for this row only this long).
    comparison = (
        await session.execute(
            select(Comparison)
            .from_statement(
                update(Comparison)
                .where(Comparison.id == comparison_id)
                .values(
                    done_calls=Comparison.done_calls + per_trial * sum(t.done for t in tallies),
                    failed_calls=Comparison.failed_calls
                    + per_trial * sum(t.failed for t in tallies),
                    spent_micros=Comparison.spent_micros + sum(by_connection.values()),
                    seq=Comparison.seq + 1,
                    progress_at=now,
                )
                .returning(Comparison)
            )
            .execution_options(populate_existing=True)
        )
    ).scalar_one()
    states = await cohort_counters.add(
        session,
        comparison_id=comparison_id,
        tallies=tallies,
        admitted=admitted_cohorts,
        per_cohort_calls=plan.comparison.case_count * plan.comparison.trials_per_case,
    )
    return snapshot(comparison, [(i, shown_state(comparison, state)) for i, state in states])


async def resync(
    session: AsyncSession, *, plan: DispatchPlan, claims: Sequence[ranges.Claim]
) -> Progress:
    """When a delivery starts: counters and the spend ledgers this run's caps read, from
    rows. Exact while other deliveries record: each adds its rows after this commits, or
    committed them before this read them."""
    await ranges.lock(session, plan.comparison.id, claims)
    connections = {c.connection.id for c in plan.cohorts.values()}
    connections.update(j.connection.id for j in plan.judges.values())
    await ledgers.resync(
        session,
        experiment_id=plan.comparison.experiment_id,
        connection_ids=connections,
        now=utcnow(),
    )
    comparison = await lock_row(session, plan.comparison.id)
    return await counters.recompute(session, comparison, bump_unchanged=False)


async def finish(
    session: AsyncSession,
    *,
    comparison_id: str,
    token: int,
    status: ComparisonStatus,
    stop_reason: StopReason | None = None,
    error_code: str | None = None,
) -> Progress:
    """End a RUNNING comparison (a cancelled one keeps its status) and free the lease."""
    comparison = await lock(session, comparison_id, token)
    if comparison.status == ComparisonStatus.RUNNING:
        comparison.status = status
        comparison.stop_reason = stop_reason
        comparison.error_code = error_code
        comparison.ended_at = utcnow()
    comparison.lease_owner = None
    comparison.lease_expires_at = None
    progress = await counters.recompute(session, comparison)
    await cohort_rates.settle(session, comparison_id=comparison.id)
    return progress
