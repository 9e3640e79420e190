"""What one run of a comparison may spend at most: every trial's calls at their maxima.

The same bound as an ambiguous trial's (`ambiguous.bound`: max output tokens, input as
characters ÷ 4, judge calls included), summed over the comparison's cases, cohorts and
trials. The portal shows it before a Re-run, which runs these same cases and cohorts.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from server.dispatch.ambiguous import bound
from server.dispatch.plan import load_plan


async def run_bound_micros(session: AsyncSession, comparison_id: str) -> int:
    plan = await load_plan(session, comparison_id)
    per_trial = sum(
        bound(plan, case.ordinal, cohort.index)[2]
        for case in plan.cases.values()
        for cohort in plan.cohorts.values()
    )
    return per_trial * plan.comparison.trials_per_case
