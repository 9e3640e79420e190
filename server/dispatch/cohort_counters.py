"""A record's cohort counters: each touched cohort's rows, failures and spend added, its
state moved on (RUNNING, or DONE once every trial has its outcome), and every cohort's
state read back for the progress snapshot.

Called with the comparison row locked (lock order: comparison → cohorts), last in a record:
on PostgreSQL one statement (an `UPDATE … FROM jsonb_to_recordset` in a CTE, joined back to
every cohort of the comparison), so the comparison's lock is held one round trip past its
own update; SQLite updates cohort by cohort and reads them again.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import orjson
from sqlalchemy import case, text, update
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons import counters
from server.comparisons.models import CohortState, ComparisonCohort
from server.dispatch.recording import Tally

_POSTGRES = text(
    "WITH u AS (UPDATE comparison_cohort AS k SET"
    " done_trials = k.done_trials + v.done,"
    " failed_trials = k.failed_trials + v.failed,"
    " spent_micros = k.spent_micros + v.cost,"
    " state = CASE WHEN k.state = 'STOPPED' THEN 'STOPPED'"
    " WHEN k.done_trials + v.done >= :per_cohort THEN 'DONE' ELSE 'RUNNING' END"
    " FROM jsonb_to_recordset(CAST(:rows AS jsonb))"
    " AS v(cohort_index integer, done integer, failed integer, cost bigint)"
    " WHERE k.comparison_id = :comparison_id AND k.cohort_index = v.cohort_index"
    " RETURNING k.cohort_index, k.state)"
    " SELECT c.cohort_index, coalesce(u.state, c.state) FROM comparison_cohort AS c"
    " LEFT JOIN u ON u.cohort_index = c.cohort_index"
    " WHERE c.comparison_id = :comparison_id ORDER BY c.cohort_index"
)


def _sums(tallies: Sequence[Tally], admitted: Collection[int]) -> dict[int, list[int]]:
    """(rows, failed, spend) by cohort: every cohort written or admitted to."""
    sums = {index: [0, 0, 0] for index in admitted}
    for tally in tallies:
        row = sums.setdefault(tally.cohort_index, [0, 0, 0])
        row[0] += tally.done
        row[1] += tally.failed
        row[2] += tally.cost_micros
    return sums


async def add(
    session: AsyncSession,
    *,
    comparison_id: str,
    tallies: Sequence[Tally],
    admitted: Collection[int],
    per_cohort_calls: int,
) -> list[tuple[int, CohortState]]:
    """Add `tallies` to their cohorts (those `admitted` to show RUNNING); every cohort's
    (index, state), by index. A STOPPED cohort (the run ended meanwhile) keeps its state."""
    sums = _sums(tallies, admitted)
    if session.get_bind().dialect.name == "postgresql":
        rows = [
            {"cohort_index": index, "done": done, "failed": failed, "cost": cost}
            for index, (done, failed, cost) in sorted(sums.items())
        ]
        result = await session.execute(
            _POSTGRES,
            {
                "comparison_id": comparison_id,
                "rows": orjson.dumps(rows).decode(),
                "per_cohort": per_cohort_calls,
            },
        )
        return [(int(index), CohortState(state)) for index, state in result.all()]
    for index, (done, failed, cost) in sorted(sums.items()):
        total = ComparisonCohort.done_trials + done
        await session.execute(
            update(ComparisonCohort)
            .where(ComparisonCohort.comparison_id == comparison_id)
            .where(ComparisonCohort.cohort_index == index)
            .values(
                done_trials=total,
                failed_trials=ComparisonCohort.failed_trials + failed,
                spent_micros=ComparisonCohort.spent_micros + cost,
                state=case(
                    (ComparisonCohort.state == CohortState.STOPPED, CohortState.STOPPED.value),
                    (total >= per_cohort_calls, CohortState.DONE.value),
                    else_=CohortState.RUNNING.value,
                ),
            )
            .execution_options(synchronize_session=False)
        )
    cohorts = await counters.cohorts_of(session, comparison_id)
    return [(c.cohort_index, c.state) for c in cohorts]
