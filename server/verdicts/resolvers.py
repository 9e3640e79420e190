"""Thin resolvers: the verdict fields of `Comparison`, and `finalizeComparison`."""

from __future__ import annotations

from server.comparisons.models import Comparison as ComparisonRow
from server.context import Context
from server.pagination import Connection, check_page_size
from server.verdicts import cases as case_view
from server.verdicts.models import SignOffVerdict as SignOffVerdictEnum
from server.verdicts.models import VerdictState as VerdictStateEnum
from server.verdicts.types import (
    CaseCohort,
    CaseFilter,
    ComparisonCase,
    Scorecard,
)


async def verdict_state(context: Context, comparison_id: str) -> VerdictStateEnum:
    row = await context.loaders.verdicts.load(comparison_id)
    return row.state if row is not None else VerdictStateEnum.NOT_FINALIZED


async def verdict_error_code(context: Context, comparison_id: str) -> str | None:
    row = await context.loaders.verdicts.load(comparison_id)
    return row.error_code if row is not None else None


async def verdict(context: Context, comparison_id: str) -> SignOffVerdictEnum | None:
    row = await context.loaders.verdicts.load(comparison_id)
    return row.verdict if row is not None else None


async def scorecard(context: Context, comparison_id: str) -> Scorecard | None:
    row = await context.loaders.verdicts.load(comparison_id)
    if row is None or row.state != VerdictStateEnum.FINALIZED or row.scorecard is None:
        return None
    assert row.finalized_at is not None
    return Scorecard.from_document(row.scorecard, row.finalized_at)


def _case(view: case_view.CaseView) -> ComparisonCase:
    row = view.case
    summaries = {c["cohortIndex"]: c for c in row.cohorts}
    candidate, baseline = summaries.get(0, {}), summaries.get(view.baseline_cohort_index, {})

    def delta(name: str, scale: float = 1.0) -> float | None:
        if candidate.get(name) is None or baseline.get(name) is None:
            return None
        return (float(candidate[name]) - float(baseline[name])) / scale

    key = (row.comparison_id, row.ordinal)
    return ComparisonCase(
        ordinal=row.ordinal,
        dataset_item_id=row.dataset_item_id,
        dataset_case_id=row.dataset_case_id,
        classification=row.classification,
        baseline_cohort_index=view.baseline_cohort_index,
        latency_delta_ms=delta("latencyMs"),
        cost_delta_cents=delta("costMicros", 10_000.0),
        cohorts=[
            CaseCohort(
                cohort_index=c["cohortIndex"],
                passed=None if not c["completed"] else 2 * c["passed"] > c["completed"],
                pass_fraction=c["passFraction"],
                score=c["score"],
                key=key,
            )
            for c in row.cohorts
        ],
    )


async def cases(
    context: Context,
    comparison: ComparisonRow,
    *,
    case_filter: CaseFilter,
    baseline_cohort_index: int | None,
    first: int | None,
    after: str | None,
) -> Connection[ComparisonCase]:
    size = check_page_size(first, context.settings.max_page_size)
    async with context.read() as session:
        page = await case_view.get_case_page(
            session=session,
            comparison_id=comparison.id,
            case_filter=case_view.CaseFilter(case_filter.value),
            baseline_cohort_index=baseline_cohort_index,
            first=size,
            after=after,
        )
    return Connection.of(page, _case)
