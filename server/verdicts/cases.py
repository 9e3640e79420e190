"""The case-debug view: a finalized comparison's case rows, filtered and keyset-paginated in
SQL; each case's trials and dataset case are read in one statement for the whole page."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from sqlalchemy import (
    BindParameter,
    ColumnElement,
    Integer,
    Select,
    String,
    and_,
    bindparam,
    func,
    null,
    or_,
    select,
)
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons.models import ComparisonCohort, Trial
from server.datasets.models import DatasetCase
from server.errors import ValidationFailed
from server.pagination import KeysetStatements, Page, keyset_page, keyset_statements
from server.verdicts.models import CaseClass, VerdictCase
from stats.movement import CaseFilter, Movement


@dataclass(frozen=True, slots=True)
class CaseView:
    case: VerdictCase
    baseline_cohort_index: int
    movement: Movement
    """What `case_condition` filters on: the case against the asked baseline, else its class."""


def case_movement(case: VerdictCase, baseline_cohort_index: int | None) -> Movement:
    """A case's movement, as `case_condition` selects it (an unusable case: NO_VERDICT)."""
    return movement_of(
        case.classification, case.worse_mask, case.better_mask, baseline_cohort_index
    )


def movement_of(
    classification: CaseClass, worse_mask: int, better_mask: int, baseline_cohort_index: int | None
) -> Movement:
    """`case_movement` of a case row's columns."""
    if classification == CaseClass.INCOMPLETE:
        return Movement.NO_VERDICT
    if baseline_cohort_index is not None:
        bit = 1 << baseline_cohort_index
        if worse_mask & bit:
            return Movement.REGRESSED
        if better_mask & bit:
            return Movement.IMPROVED
        return Movement.NO_CHANGE
    return _BY_CLASS.get(classification, Movement.NO_CHANGE)


_BY_CLASS = {CaseClass.REGRESSED: Movement.REGRESSED, CaseClass.IMPROVED: Movement.IMPROVED}


CaseKey = tuple[str, int]
"""`(comparison_id, case ordinal)`: what the trials of a case are loaded by."""


def case_condition(case_filter: CaseFilter, baseline: bool) -> ColumnElement[bool] | None:
    """docs/statistics.md: with a baseline (its bit the bound parameter `baseline_bit`), its
    worse/better cases by pass fraction; without one, the failure analysis classes
    (CHANGED = improved or regressed)."""
    if case_filter == CaseFilter.ALL:
        return None
    if baseline:
        bit = bindparam("baseline_bit", type_=Integer)
        worse = VerdictCase.worse_mask.op("&")(bit) != 0
        better = VerdictCase.better_mask.op("&")(bit) != 0
        if case_filter == CaseFilter.REGRESSED:
            return worse
        if case_filter == CaseFilter.IMPROVED:
            return better
        return worse | better
    classes = {
        CaseFilter.REGRESSED: [CaseClass.REGRESSED],
        CaseFilter.IMPROVED: [CaseClass.IMPROVED],
        CaseFilter.CHANGED: [CaseClass.REGRESSED, CaseClass.IMPROVED],
    }[case_filter]
    # Equalities, not IN: no expanding parameter, so the statement compiles once for good
    # (`server.driver_reads` runs it compiled).
    return or_(*(VerdictCase.classification == c for c in classes))


@lru_cache(maxsize=len(CaseFilter) * 2)
def _page_statements(case_filter: CaseFilter, baseline: bool) -> KeysetStatements:
    """A case page's statements, built once per filter (bound: `comparison_id` and, with a
    baseline, `baseline_bit`)."""
    stmt = select(VerdictCase).where(
        VerdictCase.comparison_id == bindparam("comparison_id", type_=String)
    )
    condition = case_condition(case_filter, baseline)
    if condition is not None:
        stmt = stmt.where(condition)
    return keyset_statements(stmt, key=VerdictCase.ordinal)


async def _cohort_count(session: AsyncSession, comparison_id: str) -> int:
    count = await session.scalar(
        select(func.count())
        .select_from(ComparisonCohort)
        .where(ComparisonCohort.comparison_id == comparison_id)
    )
    return int(count or 0)


async def get_case_page(
    *,
    session: AsyncSession,
    comparison_id: str,
    case_filter: CaseFilter,
    baseline_cohort_index: int | None,
    first: int,
    after: str | None,
    cohort_count: int | None = None,
) -> Page[CaseView]:
    """One page of case rows in case order (the comparison is already scoped); their trials
    and dataset cases load through `get_trials` and `get_dataset_cases`. `cohort_count`:
    the comparison's, when read with it (else counted here if a baseline is asked for)."""
    if baseline_cohort_index is not None:
        cohorts = cohort_count
        if cohorts is None:
            cohorts = await _cohort_count(session, comparison_id)
        if not 1 <= baseline_cohort_index < cohorts:
            raise ValidationFailed(
                f"`baselineCohortIndex` must name a baseline: 1 to {cohorts - 1}",
                field="baselineCohortIndex",
            )
    statements = _page_statements(case_filter, baseline_cohort_index is not None)
    params: dict[str, Any] = {"comparison_id": comparison_id}
    if baseline_cohort_index is not None:
        params["baseline_bit"] = 1 << baseline_cohort_index
    page: Page[VerdictCase] = await keyset_page(
        session, statements, first=first, after=after, params=params
    )
    return Page(
        items=[
            CaseView(row, baseline_cohort_index or 1, case_movement(row, baseline_cohort_index))
            for row in page.items
        ],
        cursors=page.cursors,
        has_next=page.has_next,
        has_previous=page.has_previous,
        total=page.total,
    )


class CaseTrialRow(NamedTuple):
    """The trial columns the case view shows, as a plain tuple: a page
    reads ~10 fields of each of its 450 trials, and a SQLAlchemy `Row`'s attribute costs
    ~10× a named tuple's."""

    comparison_id: str
    case_ordinal: int
    cohort_index: int
    trial_index: int
    passed: bool | None
    output: str | None
    check_results: list[dict[str, Any]] | None
    latency_ms: int
    input_tokens: int
    output_tokens: int
    cost_micros: int
    error_code: str | None
    tool_calls: list[dict[str, Any]] | None


_TRIAL_COLUMNS = tuple(getattr(Trial, name) for name in CaseTrialRow._fields)

_BRIEF_COLUMNS = tuple(
    null().label(column.key) if column.key in {"output", "check_results", "tool_calls"} else column
    for column in _TRIAL_COLUMNS
)
"""The same row without the output, the checks and the tool calls (their text and JSON are
most of a trial's bytes and decoding), for a page that shows none of them."""


async def get_trials(
    *, session: AsyncSession, keys: Sequence[CaseKey], brief: bool = False
) -> dict[CaseKey, dict[int, list[CaseTrialRow]]]:
    """The trials of each case, per cohort index in trial order, in one statement; `brief`:
    without their output, checks and tool calls (all None)."""
    by_comparison: dict[str, list[int]] = defaultdict(list)
    for comparison_id, ordinal in keys:
        by_comparison[comparison_id].append(ordinal)
    if len(by_comparison) == 1:  # a case page's: its statement is kept
        ((comparison_id, ordinals),) = by_comparison.items()
        params = {"comparison_id": comparison_id, "ordinals": ordinals}
        rows = await session.execute(_one_comparisons_trials(brief), params)
    else:
        condition = or_(
            *(
                and_(Trial.comparison_id == comparison_id, Trial.case_ordinal.in_(ordinals))
                for comparison_id, ordinals in by_comparison.items()
            )
        )
        rows = await session.execute(_trials(brief).where(condition))
    found: dict[CaseKey, dict[int, list[CaseTrialRow]]] = defaultdict(lambda: defaultdict(list))
    for trial in map(CaseTrialRow._make, rows):
        found[(trial.comparison_id, trial.case_ordinal)][trial.cohort_index].append(trial)
    return found


def _trials(brief: bool) -> Select[Any]:
    columns = _BRIEF_COLUMNS if brief else _TRIAL_COLUMNS
    order = (Trial.comparison_id, Trial.case_ordinal, Trial.cohort_index, Trial.trial_index)
    return select(*columns).order_by(*order)


@lru_cache(maxsize=2)
def _one_comparisons_trials(brief: bool) -> Select[Any]:
    """One comparison's trials of the bound `ordinals`, built once."""
    ordinals: BindParameter[list[int]] = bindparam("ordinals", expanding=True)
    return _trials(brief).where(
        Trial.comparison_id == bindparam("comparison_id", type_=String),
        Trial.case_ordinal.in_(ordinals),
    )


async def get_dataset_cases(
    *, session: AsyncSession, dataset_case_ids: Sequence[int]
) -> dict[int, tuple[Any, Any]]:
    """Each dataset case's `(input, expected)`, in one statement."""
    rows = await session.execute(
        select(DatasetCase.id, DatasetCase.input, DatasetCase.expected).where(
            DatasetCase.id.in_(dataset_case_ids)
        )
    )
    return {int(i): (inp, exp) for i, inp, exp in rows}
