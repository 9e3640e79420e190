"""Thin resolvers: the verdict fields of `Comparison`, and `finalizeComparison`."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, TypeVar

from server.api.context import Context
from server.api.relay import Connection
from server.api.selected import selects_anywhere
from server.api.ship_policy_types import ShipDecision
from server.api.verdicts.types import (
    CaseCohort,
    ComparisonCase,
    Scorecard,
    case_trial,
)
from server.comparisons.models import Comparison as ComparisonRow
from server.page_reads import case_page
from server.page_reads import scorecard as scorecard_read
from server.pagination import Page, check_page_size
from server.verdicts import cases as case_view
from server.verdicts.models import ComparisonVerdict
from server.verdicts.models import SignOffVerdict as SignOffVerdictEnum
from server.verdicts.models import VerdictState as VerdictStateEnum
from stats.movement import CaseFilter

T = TypeVar("T")


# Each field has a plain function of the verdict row (a page's rows are read beforehand, so
# the field resolves at once) and an async one that loads the row first.


def verdict_state_of(row: ComparisonVerdict | None) -> VerdictStateEnum:
    return row.state if row is not None else VerdictStateEnum.NOT_FINALIZED


def verdict_error_code_of(row: ComparisonVerdict | None) -> str | None:
    return row.error_code if row is not None else None


def verdict_of(row: ComparisonVerdict | None) -> SignOffVerdictEnum | None:
    return row.verdict if row is not None else None


def scorecard_of(row: ComparisonVerdict | None) -> Scorecard | None:
    """The scorecard's read model's value of the verdict row (`server.page_reads.scorecard`)."""
    if row is None:
        return None
    card = scorecard_read.scorecard_of(row.state, row.scorecard, row.finalized_at)
    return Scorecard.from_read(card) if card is not None else None


def decision_of(row: ComparisonVerdict | None) -> ShipDecision | None:
    """The stored ship decision of a FINALIZED comparison (docs/decision.md)."""
    if row is None or row.state != VerdictStateEnum.FINALIZED or row.scorecard is None:
        return None
    return ShipDecision.from_document(row.scorecard.get("decision"))


async def decision(context: Context, comparison_id: str) -> ShipDecision | None:
    return decision_of(await context.loaders.verdicts.load(comparison_id))


async def verdict_state(context: Context, comparison_id: str) -> VerdictStateEnum:
    return verdict_state_of(await context.loaders.verdicts.load(comparison_id))


async def verdict_error_code(context: Context, comparison_id: str) -> str | None:
    return verdict_error_code_of(await context.loaders.verdicts.load(comparison_id))


async def verdict(context: Context, comparison_id: str) -> SignOffVerdictEnum | None:
    return verdict_of(await context.loaders.verdicts.load(comparison_id))


async def scorecard(context: Context, comparison_id: str) -> Scorecard | None:
    return scorecard_of(await context.loaders.verdicts.load(comparison_id))


TrialsByCohort = dict[int, list[case_view.CaseTrialRow]]


def _case(
    view: case_view.CaseView,
    trials: TrialsByCohort,
    dataset_case: tuple[Any, Any],
    baseline_cohort_index: int | None,
) -> ComparisonCase:
    """A case as the case page's read model makes it (`page_reads.case_page.case_of`), with
    the trials and dataset case its loaders read."""
    row = view.case
    read = case_page.case_of(
        row.ordinal,
        row.dataset_item_id,
        row.classification,
        row.cohorts,
        row.worse_mask,
        row.better_mask,
        baseline_cohort_index,
        {},
    )
    return ComparisonCase(
        ordinal=read.ordinal,
        dataset_item_id=read.dataset_item_id,
        input=dataset_case[0],
        expected=dataset_case[1],
        classification=read.classification,
        movement=read.movement,
        baseline_cohort_index=read.baseline_cohort_index,
        latency_delta_ms=read.latency_delta_ms,
        cost_delta_cents=read.cost_delta_cents,
        cohorts=[
            CaseCohort(
                cohort_index=c.cohort_index,
                passed=c.passed,
                pass_fraction=c.pass_fraction,
                score=c.score,
                trials=[case_trial(t) for t in trials.get(c.cohort_index, ())],
            )
            for c in read.cohorts
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
    selections: Sequence[Any],
    cohort_count: int | None = None,
) -> Connection[ComparisonCase]:
    """A page of cases; the page's trials and dataset cases come through the request's
    loaders in one batch each, and only when selected, so nested fields resolve at once."""
    size = check_page_size(first, context.settings.max_page_size)
    async with context.read() as session:
        page = await case_view.get_case_page(
            session=session,
            comparison_id=comparison.id,
            case_filter=case_filter,
            baseline_cohort_index=baseline_cohort_index,
            first=size,
            after=after,
            cohort_count=cohort_count,
        )
    rows = [view.case for view in page.items]
    no_trials: list[TrialsByCohort] = [{} for _ in rows]
    no_cases: list[tuple[Any, Any]] = [(None, None) for _ in rows]
    loaders = context.loaders
    trial_loader = (
        loaders.case_trials
        if selects_anywhere(selections, frozenset({"output", "checks", "trajectory"}))
        else loaders.brief_case_trials
    )
    trials, dataset_cases = await asyncio.gather(
        trial_loader.load_many([(r.comparison_id, r.ordinal) for r in rows])
        if selects_anywhere(selections, frozenset({"trials"}))
        else _ready(no_trials),
        loaders.dataset_cases.load_many([r.dataset_case_id for r in rows])
        if selects_anywhere(selections, frozenset({"input", "expected"}))
        else _ready(no_cases),
    )
    loaded: Page[tuple[case_view.CaseView, TrialsByCohort, tuple[Any, Any]]] = Page(
        items=list(zip(page.items, trials, dataset_cases, strict=True)),
        cursors=page.cursors,
        has_next=page.has_next,
        has_previous=page.has_previous,
        total=page.total,
    )
    return Connection.of(loaded, lambda item: _case(*item, baseline_cohort_index))


async def _ready(value: list[T]) -> list[T]:
    return value
