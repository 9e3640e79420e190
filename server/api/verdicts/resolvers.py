"""Thin resolvers: the case page of `Comparison` (its cases, their trials and dataset cases)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from server.api.context import Context
from server.api.relay import Connection
from server.api.selected import selects_anywhere
from server.api.verdicts.types import (
    ComparisonCase,
)
from server.errors import NotFound
from server.page_reads import case_page
from server.pagination import Page, check_page_size
from server.verdicts import cases as case_view
from stats.movement import CaseFilter

TrialsByCohort = dict[int, list[case_view.CaseTrialRow]]


def _case(
    view: case_view.CaseView, trials: TrialsByCohort, baseline_cohort_index: int | None
) -> ComparisonCase:
    """A case as the case page's read makes it (`page_reads.case_page.case_of`), from its
    paged row and the trials its loader read."""
    row = view.case
    read = case_page.case_of(
        row.ordinal,
        row.dataset_item_id,
        row.dataset_case_id,
        row.classification,
        row.cohorts,
        row.worse_mask,
        row.better_mask,
        baseline_cohort_index,
        {index: [case_page.trial_read(t) for t in rows] for index, rows in trials.items()},
    )
    return ComparisonCase.from_read(read)


async def cases(
    context: Context,
    comparison_id: str,
    *,
    case_filter: CaseFilter,
    baseline_cohort_index: int | None,
    first: int | None,
    after: str | None,
    selected: Callable[[], Sequence[Any]],
    cohort_count: int | None = None,
) -> Connection[ComparisonCase]:
    """A page of cases, each made from the case page's read (`page_reads.case_page`). On
    PostgreSQL that read is its one statement, trials aggregated, on the driver; else the
    case rows are paged in the read session and their trials come through the request's
    loader in one batch, only when selected."""
    size = check_page_size(first, context.settings.max_page_size)
    if context.app.page_connections is not None:
        found = await case_page.read(
            context.fetch,
            workspace_id=context.require().workspace_id,
            comparison_id=comparison_id,
            case_filter=case_filter,
            baseline=baseline_cohort_index,
            first=size,
            after=after,
        )
        if found is None:  # the comparison was read in the caller's workspace just before
            raise NotFound("comparison not found")
        # The page's read carries the connection's fields under their names (its edges'
        # nodes are `CaseRead`s, which `ComparisonCase` shows as they are).
        return cast(Connection[ComparisonCase], found.cases)
    async with context.read() as session:
        page = await case_view.get_case_page(
            session=session,
            comparison_id=comparison_id,
            case_filter=case_filter,
            baseline_cohort_index=baseline_cohort_index,
            first=size,
            after=after,
            cohort_count=cohort_count,
        )
    rows = [view.case for view in page.items]
    trials: list[TrialsByCohort] = [{} for _ in rows]
    selections = selected()  # read only here: Strawberry builds them on each ask
    if selects_anywhere(selections, frozenset({"trials"})):
        loader = (
            context.loaders.case_trials
            if selects_anywhere(selections, frozenset({"output", "checks", "trajectory"}))
            else context.loaders.brief_case_trials
        )
        trials = await loader.load_many([(r.comparison_id, r.ordinal) for r in rows])
    loaded: Page[tuple[case_view.CaseView, TrialsByCohort]] = Page(
        items=list(zip(page.items, trials, strict=True)),
        cursors=page.cursors,
        has_next=page.has_next,
        has_previous=page.has_previous,
        total=page.total,
    )
    return Connection.of(loaded, lambda item: _case(*item, baseline_cohort_index))
