"""A finalized comparison's page of cases (the portal's `ComparisonCases`): the comparison,
its cohort count, one keyset page of its case rows with each case's trials aggregated, and
the total, in one statement, as one frozen value (PostgreSQL).

The value's attributes are the GraphQL fields in snake case (`cases { totalCount pageInfo
edges { cursor node { … } } }`), and the `ComparisonCase` type is made from a case's value
alone (`ComparisonCase.from_read`; its dataset case's `input` and `expected` from a loader
when asked for). A case is made by `case_of` from its row's columns, here from this
statement on the driver, and on SQLite by the `cases` resolver
(`server/api/verdicts/resolvers.py`) from the rows it pages and the trials its loader
reads. A new field of a case is one attribute here (made in `case_of`) and one field of the
type."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple, cast

from sqlalchemy import Select, String, bindparam, func, select, true
from sqlalchemy.dialects.postgresql import aggregate_order_by

from server.comparisons.models import Comparison, ComparisonCohort, Trial
from server.errors import ValidationFailed
from server.page_reads.comparison_page import Fetch
from server.page_reads.fields import made, members
from server.page_reads.pages import PageInfoRead, page_info
from server.pagination import cursor_key, encode_cursor
from server.verdicts.cases import CaseTrialRow, case_condition, movement_of
from server.verdicts.models import CaseClass, VerdictCase
from stats.movement import CaseFilter, Movement


class CaseTrialRead(NamedTuple):
    """A trial as the case page shows it: the fields the page selects, and the keys of its
    row (`comparison_id`, `case_ordinal`, `cohort_index`, `trial_index`), by which the
    `CaseTrial` type loads what no page shows (its checks, tokens, cost, tool calls: most
    of a trial's bytes and decoding) when asked for."""

    comparison_id: str
    case_ordinal: int
    cohort_index: int
    trial_index: int
    passed: bool | None
    output: str | None
    error_code: str | None


def trial_read(row: CaseTrialRow) -> CaseTrialRead:
    """A trial's loaded row as the case page shows it (SQLite's case pages)."""
    return _new_trial(
        (
            row.comparison_id,
            row.case_ordinal,
            row.cohort_index,
            row.trial_index,
            row.passed,
            row.output,
            row.error_code,
        )
    )


class CaseCohortRead(NamedTuple):
    cohort_index: int
    passed: bool | None
    """More than half of the completed trials passed; None with none completed."""
    pass_fraction: float | None
    score: float | None
    trials: tuple[CaseTrialRead, ...]


class CaseRead(NamedTuple):
    ordinal: int
    dataset_item_id: str
    dataset_case_id: int
    """Its dataset case (`input`, `expected`: read when asked for)."""
    classification: CaseClass
    movement: Movement
    baseline_cohort_index: int
    latency_delta_ms: float | None
    cost_delta_cents: float | None
    cohorts: tuple[CaseCohortRead, ...]


class CaseEdgeRead(NamedTuple):
    cursor: str
    node: CaseRead


@dataclass(frozen=True, slots=True)
class CasesRead:
    total_count: int
    page_info: PageInfoRead
    edges: tuple[CaseEdgeRead, ...]


@dataclass(frozen=True, slots=True)
class CasePageRead:
    """What the case page shows: the comparison's id and one page of its cases."""

    id: str
    cases: CasesRead


_NO_TRIALS: tuple[CaseTrialRead, ...] = ()


def case_of(
    ordinal: int,
    dataset_item_id: str,
    dataset_case_id: int,
    classification: CaseClass | str,
    summaries: Sequence[Mapping[str, Any]],
    worse_mask: int,
    better_mask: int,
    baseline: int | None,
    trials: Mapping[int, Sequence[CaseTrialRead]],
) -> CaseRead:
    """A case from its row's columns (`summaries`: its stored per-cohort summaries) against
    `baseline` (None: its class, the deltas against cohort 1), with `trials` by cohort."""
    kind = _CLASSES[classification]
    against = baseline or 1
    candidate = other = None
    cohorts = []
    for c in summaries:
        index, completed, fraction, score = (
            c["cohortIndex"],
            c["completed"],
            c["passFraction"],
            c["score"],
        )
        if index == 0:
            candidate = c
        if index == against:
            other = c
        cohort = (
            index,
            None if not completed else 2 * c["passed"] > completed,
            None if fraction is None else float(fraction),
            None if score is None else float(score),
            tuple(trials.get(index, _NO_TRIALS)),
        )
        cohorts.append(_new_cohort(cohort))
    case = (
        ordinal,
        dataset_item_id,
        dataset_case_id,
        kind,
        movement_of(kind, worse_mask, better_mask, baseline),
        against,
        _delta(candidate, other, "latencyMs", 1.0),
        _delta(candidate, other, "costMicros", 10_000.0),
        tuple(cohorts),
    )
    return _new_case(case)


_new_trial = made(CaseTrialRead)
_new_cohort = made(CaseCohortRead)
_new_case = made(CaseRead)

_CLASSES = members(CaseClass)


def _delta(
    candidate: Mapping[str, Any] | None, baseline: Mapping[str, Any] | None, name: str, scale: float
) -> float | None:
    if candidate is None or baseline is None:
        return None
    ours, theirs = candidate.get(name), baseline.get(name)
    if ours is None or theirs is None:
        return None
    return (float(ours) - float(theirs)) / scale


_PER_CASE = ("comparison_id", "case_ordinal", "cohort_index")
"""A trial's columns its case and cohort give (not aggregated: `_trials_of` adds them)."""
_AGGREGATED = tuple(getattr(Trial, name) for name in CaseTrialRead._fields if name not in _PER_CASE)
"""Each trial's other columns, in `CaseTrialRead`'s order."""


def _trials_column() -> Any:
    """A case's trials by cohort, in cohort and trial order, as [[cohort index, [[each of
    `CaseTrialRead`'s other columns], …]], …] (PostgreSQL): grouped in the statement, so each
    cohort's trials become its tuple at once."""
    trial = func.json_build_array(*_AGGREGATED)
    per_cohort = (
        select(
            Trial.cohort_index.label("cohort_index"),
            func.json_agg(aggregate_order_by(trial, Trial.trial_index)).label("trials"),
        )
        .where(Trial.comparison_id == VerdictCase.comparison_id)
        .where(Trial.case_ordinal == VerdictCase.ordinal)
        .group_by(Trial.cohort_index)
        .correlate(VerdictCase)
        .subquery("per_cohort")
    )
    cohort = func.json_build_array(per_cohort.c.cohort_index, per_cohort.c.trials)
    aggregated = func.json_agg(aggregate_order_by(cohort, per_cohort.c.cohort_index))
    return select(aggregated).correlate(VerdictCase).scalar_subquery().label("trials")


_TRIALS = _trials_column()


@lru_cache(maxsize=len(CaseFilter) * 4)
def statement(case_filter: CaseFilter, baseline: bool, after: bool) -> Select[Any]:
    """The workspace's comparison with its cohort count, the page's total and, laterally
    joined, one page of its case rows (none: a row of nulls), for one filter and shape
    (bound: `comparison_id`, `workspace_id`, `page_limit`, with a baseline `baseline_bit`,
    after a cursor `after_key`); PostgreSQL."""
    condition = case_condition(case_filter, baseline)
    ours = VerdictCase.comparison_id == Comparison.id
    counted = select(func.count().label("total")).select_from(VerdictCase).where(ours)
    page = select(
        VerdictCase.ordinal,
        VerdictCase.dataset_item_id,
        VerdictCase.dataset_case_id,
        VerdictCase.classification,
        VerdictCase.cohorts,
        VerdictCase.worse_mask,
        VerdictCase.better_mask,
        _TRIALS,
    ).where(ours)
    if condition is not None:
        counted, page = counted.where(condition), page.where(condition)
    if after:
        page = page.where(VerdictCase.ordinal > bindparam("after_key"))
    cases = page.order_by(VerdictCase.ordinal).limit(bindparam("page_limit")).lateral("cases")
    # Counts as aggregates joined laterally, not scalar subqueries in the select list:
    # PostgreSQL would count again for each case row of the page.
    total = counted.lateral("counted")
    cohorts = (
        select(func.count().label("cohort_count"))
        .select_from(ComparisonCohort)
        .where(ComparisonCohort.comparison_id == Comparison.id)
        .lateral("cohorts")
    )
    stmt = cast("Select[Any]", select(Comparison.id, cohorts.c.cohort_count, total.c.total))
    return (
        stmt.add_columns(*cases.c)
        .select_from(Comparison)
        .join(cohorts, true())
        .join(total, true())
        .outerjoin(cases, true())
        .where(
            Comparison.id == bindparam("comparison_id", type_=String),
            Comparison.workspace_id == bindparam("workspace_id", type_=String),
        )
    )


def _trials_of(
    comparison_id: str, ordinal: int, aggregated: Any
) -> dict[int, tuple[CaseTrialRead, ...]]:
    """A case's aggregated trials by cohort."""
    return {
        index: tuple(_new_trial((comparison_id, ordinal, index, *trial)) for trial in trials)
        for index, trials in aggregated or ()
    }


async def read(
    fetch: Fetch,
    *,
    workspace_id: str,
    comparison_id: str,
    case_filter: CaseFilter,
    baseline: int | None,
    first: int,
    after: str | None,
) -> CasePageRead | None:
    """The workspace's comparison's page of cases (`first` checked by the caller); None
    when it has no such comparison. A cursor not of this list, or a baseline that is not
    one of the comparison's, is `ValidationFailed`."""
    after_key = cursor_key(after, VerdictCase.ordinal) if after is not None else None
    values = {
        "comparison_id": comparison_id,
        "workspace_id": workspace_id,
        "page_limit": first + 1,
        "after_key": after_key,
        "baseline_bit": 1 << baseline if baseline is not None and 0 <= baseline < 31 else 0,
    }
    rows = await fetch(statement(case_filter, baseline is not None, after is not None), values)
    if not rows:
        return None
    head = rows[0]
    if baseline is not None and not 1 <= baseline < head["cohort_count"]:
        raise ValidationFailed(
            f"`baselineCohortIndex` must name a baseline: 1 to {head['cohort_count'] - 1}",
            field="baselineCohortIndex",
        )
    found = [row for row in rows if row["ordinal"] is not None]
    shown = found[:first]
    cursors = [encode_cursor(row["ordinal"]) for row in shown]
    edges = tuple(
        CaseEdgeRead(
            cursor,
            case_of(
                row["ordinal"],
                row["dataset_item_id"],
                row["dataset_case_id"],
                row["classification"],
                row["cohorts"],
                row["worse_mask"],
                row["better_mask"],
                baseline,
                _trials_of(head["id"], row["ordinal"], row["trials"]),
            ),
        )
        for cursor, row in zip(cursors, shown, strict=True)
    )
    info = page_info(cursors, more=len(found) > first, after=after)
    return CasePageRead(head["id"], CasesRead(head["total"], info, edges))
