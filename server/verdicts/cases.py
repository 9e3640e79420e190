"""The case-debug view: a finalized comparison's case rows, filtered and keyset-paginated in
SQL, with each cohort's trials for the page only."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sqlalchemy import ColumnElement, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons.models import ComparisonCohort, Trial
from server.datasets.models import DatasetCase
from server.errors import ValidationFailed
from server.pagination import Page, keyset_page
from server.verdicts.models import CaseClass, VerdictCase


class CaseFilter(StrEnum):
    REGRESSIONS = "REGRESSIONS"
    IMPROVEMENTS = "IMPROVEMENTS"
    DIVERGED = "DIVERGED"
    ALL = "ALL"


@dataclass(frozen=True, slots=True)
class CaseView:
    case: VerdictCase
    input: Any
    expected: Any
    trials: dict[int, list[Trial]]
    """Per cohort index, in trial order."""
    baseline_cohort_index: int


def _condition(case_filter: CaseFilter, baseline: int | None) -> ColumnElement[bool] | None:
    """SPEC §4: with a baseline, its worse/better cases by pass fraction; without one, the
    failure analysis classes (DIVERGED = improved or regressed)."""
    if case_filter == CaseFilter.ALL:
        return None
    if baseline is not None:
        bit = 1 << baseline
        worse = VerdictCase.worse_mask.op("&")(bit) != 0
        better = VerdictCase.better_mask.op("&")(bit) != 0
        if case_filter == CaseFilter.REGRESSIONS:
            return worse
        if case_filter == CaseFilter.IMPROVEMENTS:
            return better
        return worse | better
    classes = {
        CaseFilter.REGRESSIONS: [CaseClass.REGRESSED],
        CaseFilter.IMPROVEMENTS: [CaseClass.IMPROVED],
        CaseFilter.DIVERGED: [CaseClass.REGRESSED, CaseClass.IMPROVED],
    }[case_filter]
    return VerdictCase.classification.in_(classes)


async def _cohort_count(session: AsyncSession, comparison_id: str) -> int:
    rows = await session.scalars(
        select(ComparisonCohort.cohort_index).where(ComparisonCohort.comparison_id == comparison_id)
    )
    return len(list(rows))


async def get_case_page(
    *,
    session: AsyncSession,
    comparison_id: str,
    case_filter: CaseFilter,
    baseline_cohort_index: int | None,
    first: int,
    after: str | None,
) -> Page[CaseView]:
    """One page of case rows in case order (the comparison is already scoped)."""
    cohorts = await _cohort_count(session, comparison_id)
    if baseline_cohort_index is not None and not 1 <= baseline_cohort_index < cohorts:
        raise ValidationFailed(
            f"`baselineCohortIndex` must name a baseline: 1 to {cohorts - 1}",
            field="baselineCohortIndex",
        )
    stmt = select(VerdictCase).where(VerdictCase.comparison_id == comparison_id)
    condition = _condition(case_filter, baseline_cohort_index)
    if condition is not None:
        stmt = stmt.where(condition)
    page = await keyset_page(session, stmt, key=VerdictCase.ordinal, first=first, after=after)
    ordinals = [row.ordinal for row in page.items]
    trials: dict[int, dict[int, list[Trial]]] = defaultdict(lambda: defaultdict(list))
    datasets: dict[int, tuple[Any, Any]] = {}
    if ordinals:
        for trial in await session.scalars(
            select(Trial)
            .where(Trial.comparison_id == comparison_id, Trial.case_ordinal.in_(ordinals))
            .order_by(Trial.case_ordinal, Trial.cohort_index, Trial.trial_index)
        ):
            trials[trial.case_ordinal][trial.cohort_index].append(trial)
        rows = await session.execute(
            select(DatasetCase.id, DatasetCase.input, DatasetCase.expected).where(
                DatasetCase.id.in_([row.dataset_case_id for row in page.items])
            )
        )
        datasets = {int(i): (inp, exp) for i, inp, exp in rows}
    views = [
        CaseView(
            case=row,
            input=datasets.get(row.dataset_case_id, (None, None))[0],
            expected=datasets.get(row.dataset_case_id, (None, None))[1],
            trials=dict(trials[row.ordinal]),
            baseline_cohort_index=baseline_cohort_index or 1,
        )
        for row in page.items
    ]
    return Page(
        items=views,
        cursors=page.cursors,
        has_next=page.has_next,
        has_previous=page.has_previous,
        total=page.total,
    )
