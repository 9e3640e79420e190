"""`comparisons(first, after, status)`: the page a dashboard polls, with each comparison's
row fields, cohorts, progress, experiment and dataset version.

The stamp is the page itself, read with Core in one statement instead of the GraphQL
execution's eight ORM ones and ~1,000 resolved fields: every page row with every column a
field of `SHAPE` shows (its verdict, experiment and dataset version joined), the total,
and the row's cohorts as JSON text. Anything the answer shows is in it, so any change
(a recorded batch moves `seq` and the counters, a cohort's state, a finalization, a new
comparison, a renamed experiment) changes the stamp. `etaSeconds` of a running
comparison moves with the clock: the stamp holds it as computed now (on PostgreSQL, where
the database digests the page, the time itself: such a page is never kept).
"""

from __future__ import annotations

from functools import cache
from typing import Any, Final
from typing import cast as cast_to

from sqlalchemy import Integer, ScalarSelect, Select, Text, bindparam, cast, func, select
from sqlalchemy.dialects.postgresql import aggregate_order_by
from sqlalchemy.ext.asyncio import AsyncConnection

from server.api.http.cached_reads.shape import Rule, Shape, Stamp
from server.assets.models import AssetVersion
from server.comparisons.models import (
    TERMINAL_STATUSES,
    Comparison,
    ComparisonCohort,
    ComparisonStatus,
)
from server.comparisons.progress import eta_seconds
from server.db import utcnow
from server.errors import ValidationFailed
from server.experiments.models import Experiment
from server.pagination import DEFAULT_PAGE_SIZE, decode_cursor
from server.verdicts.models import ComparisonVerdict

ROW_FIELDS: Final[Shape] = dict.fromkeys(
    (
        "id",
        "label",
        "status",
        "stopReason",
        "errorCode",
        "split",
        "trialsPerCase",
        "caseCount",
        "checks",
        "budgetCapCents",
        "epsilonPoints",
        "targetEffectPoints",
        "spentCentsSoFar",
        "rerunOfId",
        "createdAt",
        "startedAt",
        "endedAt",
        "verdictState",
        "verdictErrorCode",
        "verdict",
    )
)
"""`Comparison` fields of a list row made from the comparison and verdict rows (columns
below)."""

ROW_COLUMNS: Final = (
    Comparison.id,
    Comparison.label,
    Comparison.status,
    Comparison.stop_reason,
    Comparison.error_code,
    Comparison.split,
    Comparison.trials_per_case,
    Comparison.case_count,
    Comparison.checks,
    Comparison.budget_cap_micros,
    Comparison.epsilon_points,
    Comparison.target_effect_points,
    Comparison.spent_micros,
    Comparison.rerun_of_id,
    Comparison.created_at,
    Comparison.started_at,
    Comparison.ended_at,
    Comparison.seq,
    Comparison.finalized_at,
    ComparisonVerdict.state,
    ComparisonVerdict.error_code,
    ComparisonVerdict.verdict,
    ComparisonVerdict.attempts,
    ComparisonVerdict.cases_erased_at,
    ComparisonVerdict.updated_at,
    ComparisonVerdict.finalized_at,
)


def _leaves(*names: str) -> Shape:
    return dict.fromkeys(names)


NODE: Final[Shape] = {
    **ROW_FIELDS,
    "cohorts": _leaves("cohortIndex", "kind", "label", "releaseId", "isCandidate", "passRate"),
    "progress": {
        **_leaves(
            "seq",
            "status",
            "stopReason",
            "doneCalls",
            "totalCalls",
            "failedCalls",
            "percent",
            "etaSeconds",
            "spentCentsSoFar",
            "updatedAt",
        ),
        "cohorts": _leaves("cohortIndex", "state"),
    },
    "experiment": _leaves("id", "name", "dailyBudgetCents", "createdAt"),
    "datasetVersion": _leaves(
        "id", "datasetId", "number", "state", "caseCount", "contentHash", "createdAt", "sealedAt"
    ),
}

SHAPE: Final[Shape] = {
    "totalCount": None,
    "pageInfo": _leaves("hasNextPage", "hasPreviousPage", "startCursor", "endCursor"),
    "edges": {"cursor": None, "node": NODE},
}

_PAGE_COLUMNS: Final = (
    *ROW_COLUMNS,
    Comparison.total_calls,
    Comparison.done_calls,
    Comparison.failed_calls,
    Comparison.progress_at,
    Comparison.experiment_id,
    Experiment.name,
    Experiment.daily_budget_micros,
    Experiment.created_at,
    Comparison.dataset_version_id,
    AssetVersion.asset_id,
    AssetVersion.number,
    AssetVersion.state,
    AssetVersion.case_count,
    AssetVersion.content_hash,
    AssetVersion.created_at,
    AssetVersion.sealed_at,
)

_COHORT_COLUMNS: Final = (
    ComparisonCohort.comparison_id,
    ComparisonCohort.cohort_index,
    ComparisonCohort.kind,
    ComparisonCohort.label,
    ComparisonCohort.release_id,
    ComparisonCohort.usable_cases,
    ComparisonCohort.pass_fraction_sum,
    ComparisonCohort.state,
)


def _page_arguments(
    arguments: dict[str, Any], max_page_size: int
) -> tuple[int, str | None, ComparisonStatus | None] | None:
    """(first, the cursor's id, status) as the resolver would take them; None when it would
    refuse them (it answers the error; nothing is kept)."""
    first = arguments.get("first")
    first = DEFAULT_PAGE_SIZE if first is None else first
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first <= max_page_size:
        return None
    after, after_key = arguments.get("after"), None
    if after is not None:
        try:
            after_key = decode_cursor(after) if isinstance(after, str) else None
        except ValidationFailed:
            return None
        if not isinstance(after_key, str):
            return None
    status = arguments.get("status")
    if status is not None and status not in ComparisonStatus.__members__:
        return None
    return first, after_key, ComparisonStatus(status) if status is not None else None


def _cohorts_json(dialect: str) -> ScalarSelect[Any]:
    """Each page row's cohorts as one JSON text (order only affects hits, never which
    changes are seen: any change to a column changes the text)."""
    element = func.json_build_array if dialect == "postgresql" else func.json_array
    values = element(*_COHORT_COLUMNS)
    aggregate = (
        func.json_agg(aggregate_order_by(values, ComparisonCohort.cohort_index))
        if dialect == "postgresql"
        else func.json_group_array(values)
    )
    return (
        select(cast(aggregate, Text))
        .where(ComparisonCohort.comparison_id == Comparison.id)
        .scalar_subquery()
    )


def _digest(page: Select[Any]) -> Select[Any]:
    """PostgreSQL: the page as the sha256 of its rows' JSON text, made by the database, so
    a kept answer's stamp costs one short row instead of ~1,000 decoded values; with
    whether some row's `etaSeconds` moves with the clock (running, started, with calls
    done), and the number of rows."""
    rows = page.subquery("page")
    as_json = func.json_agg(aggregate_order_by(rows.table_valued(), rows.c.id.desc()))
    digest = func.encode(func.sha256(func.convert_to(cast(as_json, Text), "UTF8")), "hex")
    ticking = func.bool_or(
        rows.c.status.not_in(list(TERMINAL_STATUSES))
        & rows.c.started_at.is_not(None)
        & (rows.c.done_calls > 0)
    )
    return select(digest, ticking, func.count()).select_from(rows)


@cache
def _statements(dialect: str, *, status: bool, after: bool) -> tuple[Select[Any], Select[Any]]:
    """(the total, the page with the total and its cohorts — on PostgreSQL its digest) for
    one combination of filters, built once per dialect (SQLAlchemy memoizes a statement's
    cache key), every value a bound parameter: one statement per request unless the page
    is empty."""
    scope = [Comparison.workspace_id == bindparam("workspace_id")]
    if status:
        scope.append(Comparison.status == bindparam("status"))
    total = select(func.count()).select_from(Comparison).where(*scope)
    page = (
        select(*_PAGE_COLUMNS, total.scalar_subquery(), _cohorts_json(dialect))
        .select_from(Comparison)
        .outerjoin(ComparisonVerdict, ComparisonVerdict.comparison_id == Comparison.id)
        .outerjoin(Experiment, Experiment.id == Comparison.experiment_id)
        .outerjoin(AssetVersion, AssetVersion.id == Comparison.dataset_version_id)
        .where(*scope)
        .order_by(Comparison.id.desc())
        .limit(bindparam("limit", type_=Integer))
    )
    if after:
        page = page.where(Comparison.id < bindparam("after"))
    return total, _digest(page) if dialect == "postgresql" else page


async def read_stamp(
    connection: AsyncConnection, *, workspace_id: str, arguments: dict[str, Any], max_page_size: int
) -> Stamp | None:
    """The page as the answer would show it, as plain tuples (each with the total and its
    cohorts' JSON text)."""
    parsed = _page_arguments(arguments, max_page_size)
    if parsed is None:
        return None
    first, after_key, status = parsed
    total_stmt, page_stmt = _statements(
        connection.dialect.name, status=status is not None, after=after_key is not None
    )
    params = {"workspace_id": workspace_id, "status": status, "after": after_key}
    now = utcnow()
    if connection.dialect.name == "postgresql":
        digest, ticking, count = (
            await connection.execute(page_stmt, {**params, "limit": first + 1})
        ).one()
        if not count:  # no row carries the total
            return (await connection.scalar(total_stmt, params), ())
        return (digest, now) if ticking else (digest,)
    rows = tuple(
        (*row, eta_seconds(cast_to(Comparison, row), now))
        for row in await connection.execute(page_stmt, {**params, "limit": first + 1})
    )
    if not rows:  # no row carries the total
        return (await connection.scalar(total_stmt, params), ())
    return rows


RULE: Final = Rule(
    root="comparisons",
    arguments=frozenset({"first", "after", "status"}),
    required=frozenset(),
    shape=SHAPE,
    stamp=read_stamp,
)
