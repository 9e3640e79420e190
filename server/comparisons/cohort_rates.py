"""Cohort pass rates, settled once from the trial rows when a run ends (and at finalization).

A cohort's pass rate is the mean over cases of passed ÷ completed trials (cases with none
completed are skipped). It is stored as two integers — the usable cases and the sum of each
case's fraction scaled by `PASS_SCALE` (divisible by every possible trial count, so each
term is a whole number) — and divided on read: identical pass sets give identical rates,
and no read aggregates trial rows.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from math import lcm

from sqlalchemy import case, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons.inputs import MAX_TRIALS
from server.comparisons.models import ComparisonCohort, Trial, TrialState

PASS_SCALE = lcm(*range(1, MAX_TRIALS + 1))
"""2520 for up to 10 trials per case: `passed × PASS_SCALE ÷ completed` is exact."""


def pass_rate(*, usable_cases: int, pass_fraction_sum: int) -> float | None:
    """The stored pass rate (None without a usable case); int ÷ int is correctly rounded."""
    if usable_cases <= 0:
        return None
    return pass_fraction_sum / (PASS_SCALE * usable_cases)


def settled(passed: Iterable[int], completed: Iterable[int]) -> tuple[int, int]:
    """A cohort's (usable cases, scaled pass-fraction sum) from its per-case counts of
    passed and completed trials (cases with none completed are skipped)."""
    usable = total = 0
    for passes, done in zip(passed, completed, strict=True):
        if done > 0:
            usable += 1
            total += passes * PASS_SCALE // done
    return usable, total


async def settle(session: AsyncSession, *, comparison_id: str) -> None:
    """Store every cohort's usable cases and scaled pass-fraction sum from its trial rows.

    Call it in the transaction that ends the run (`dispatch_store.finish`); it is
    idempotent, one aggregate over the comparison's trials.
    """
    rows = await session.execute(
        select(
            Trial.cohort_index,
            func.sum(case((Trial.passed.is_(True), 1), else_=0)),
            func.count(),
        )
        .where(Trial.comparison_id == comparison_id, Trial.state == TrialState.COMPLETED)
        .group_by(Trial.cohort_index, Trial.case_ordinal)
    )
    counts: dict[int, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
    for cohort_index, passed, completed in rows:
        counts[int(cohort_index)][0].append(int(passed))
        counts[int(cohort_index)][1].append(int(completed))
    indexes = await session.scalars(
        select(ComparisonCohort.cohort_index).where(ComparisonCohort.comparison_id == comparison_id)
    )
    await store(
        session,
        comparison_id=comparison_id,
        rates={index: settled(*counts.get(index, ([], []))) for index in list(indexes)},
    )


async def store(
    session: AsyncSession, *, comparison_id: str, rates: Mapping[int, tuple[int, int]]
) -> None:
    """Store (usable cases, scaled pass-fraction sum) per cohort index (finalization passes
    them from the counts it holds, `settled` over each cohort's cases)."""
    for index, (usable, total) in rates.items():
        await session.execute(
            update(ComparisonCohort)
            .where(
                ComparisonCohort.comparison_id == comparison_id,
                ComparisonCohort.cohort_index == index,
            )
            .values(usable_cases=usable, pass_fraction_sum=total)
        )
