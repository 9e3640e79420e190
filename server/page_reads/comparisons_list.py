"""The comparisons list (the portal's `ComparisonsList`): one keyset page of the workspace's
comparisons, newest first, each with its verdict row (state, sign-off, stored scorecard), its
cohorts, its experiment and dataset version, and the total, in one statement, as one frozen value.

The value's attributes are the connection's GraphQL fields in snake case (`total_count`,
`edges`, `page_info`; a node's `id`, `status`, `verdict_state`, `cohorts`, …): the resolver
builds its connection from it and each node's `Comparison` from its row alone
(`server/api/comparisons/resolvers.py`), the attributes a comparison's page read has too.
A new field of a row is one attribute of `ComparisonRowRead` (its column in `_columns`) and
the same attribute of the page's read.

A page holds 20 rows and is polled: a row's values are named tuples made in C from its
columns in the statement's order (`fields.made`; a row built through keyword arguments into
frozen dataclasses cost the page a third more), enum columns are looked up by value
(`fields.members`), and what only the schema shows of a row's progress is computed when
asked for (`RowProgress`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any, NamedTuple, cast

from sqlalchemy import Select, String, and_, bindparam, func, select

from server.assets.models import AssetVersion, VersionState
from server.assets.service import version_visible_to
from server.comparisons.models import (
    Comparison,
    ComparisonStatus,
    StopReason,
)
from server.datasets.models import Split
from server.experiments.models import Experiment
from server.money import micros_to_cents, optional_micros_to_cents
from server.page_reads.cohorts import CohortRead, cohorts_column, cohorts_of
from server.page_reads.comparison_page import DatasetVersionRef, ExperimentRef, Fetch, RowProgress
from server.page_reads.fields import made, members
from server.page_reads.pages import PageInfoRead, page_info
from server.page_reads.stored_json import StoredJson, json_text, stored, value_of
from server.pagination import cursor_key, encode_cursor, keyset_statements
from server.verdicts.models import ComparisonVerdict, SignOffVerdict, VerdictState


class ComparisonRowRead(NamedTuple):
    """One comparison as the list shows it: the attributes its type reads that a
    comparison's page read (`comparison_page.ComparisonPageRead`) has too, but whether it
    has reports. Plain values: equal values show equal rows."""

    id: str
    label: str | None
    status: ComparisonStatus
    stop_reason: StopReason | None
    error_code: str | None
    split: Split
    trials_per_case: int
    case_count: int
    budget_cap_cents: float | None
    spent_cents_so_far: float
    created_at: datetime
    ended_at: datetime | None
    verdict_state: VerdictState
    verdict_error_code: str | None
    verdict: SignOffVerdict | None
    scorecard_json: StoredJson | None
    """The verdict's stored scorecard, as its text (`scorecard_document` reads it)."""
    verdict_finalized_at: datetime | None
    cohorts: tuple[CohortRead, ...]
    experiment: ExperimentRef | None
    dataset_version: DatasetVersionRef | None
    progress: RowProgress

    @property
    def started_at(self) -> datetime | None:
        return self.progress.started_at

    @property
    def scorecard_document(self) -> dict[str, Any] | None:
        """The verdict's stored scorecard (its type shows it once FINALIZED)."""
        return cast("dict[str, Any] | None", value_of(self.scorecard_json))

    @property
    def may_have_reports(self) -> bool:
        """The list reads no reports: a comparison's are read when asked for."""
        return True


class EdgeRead(NamedTuple):
    cursor: str
    node: ComparisonRowRead


@dataclass(frozen=True, slots=True)
class ComparisonsListRead:
    """A page of the comparisons list."""

    total_count: int
    edges: tuple[EdgeRead, ...]
    page_info: PageInfoRead


def _columns(dialect: str) -> tuple[Any, ...]:
    """A row's columns, in the order `row_of` reads them by position (the total last)."""
    verdict, version = ComparisonVerdict, AssetVersion
    return (
        Comparison.id,
        Comparison.label,
        Comparison.status,
        Comparison.stop_reason,
        Comparison.error_code,
        Comparison.split,
        Comparison.trials_per_case,
        Comparison.case_count,
        Comparison.budget_cap_micros,
        Comparison.spent_micros,
        Comparison.created_at,
        Comparison.ended_at,
        verdict.state.label("verdict_state"),
        verdict.error_code.label("verdict_error_code"),
        verdict.verdict.label("verdict"),
        json_text(verdict.scorecard).label("scorecard_json"),
        verdict.finalized_at.label("verdict_finalized_at"),
        cohorts_column(dialect),
        Experiment.id.label("experiment_id"),
        Experiment.name.label("experiment_name"),
        Experiment.daily_budget_micros.label("experiment_daily_budget_micros"),
        Experiment.created_at.label("experiment_created_at"),
        version.id.label("version_id"),
        version.asset_id.label("version_dataset_id"),
        version.number.label("version_number"),
        version.state.label("version_state"),
        version.case_count.label("version_case_count"),
        version.dev_case_count.label("version_dev_case_count"),
        version.holdout_case_count.label("version_holdout_case_count"),
        version.content_hash.label("version_content_hash"),
        version.created_at.label("version_created_at"),
        version.sealed_at.label("version_sealed_at"),
        Comparison.seq,
        Comparison.done_calls,
        Comparison.total_calls,
        Comparison.failed_calls,
        Comparison.started_at,
        Comparison.progress_at,
    )


_WIDTH = 38
"""How many of a row's columns `row_of` reads (`_columns`): the total follows."""


@cache
def statements(dialect: str, *, with_status: bool, after: bool) -> Select[Any]:
    """The page's statement, built once per shape (bound: `workspace_id`, `page_limit`; with
    a status `status`, after a cursor `after_key`). The total rides last on each row."""
    workspace_id = bindparam("workspace_id", type_=String)
    stmt = select(Comparison.id).where(Comparison.workspace_id == workspace_id)
    if with_status:
        stmt = stmt.where(Comparison.status == bindparam("status", type_=String))
    # The joins keep the loaders' scoping, as the comparison's page does.
    experiment_on = and_(
        Experiment.id == Comparison.experiment_id, Experiment.workspace_id == workspace_id
    )
    version_on = and_(
        AssetVersion.id == Comparison.dataset_version_id, version_visible_to(workspace_id)
    )

    def joined(page: Select[Any]) -> Select[Any]:
        return (
            page.with_only_columns(*_columns(dialect))
            .outerjoin(ComparisonVerdict, ComparisonVerdict.comparison_id == Comparison.id)
            .outerjoin(Experiment, experiment_on)
            .outerjoin(AssetVersion, version_on)
        )

    kept = keyset_statements(stmt, key=Comparison.id, descending=True, joined=joined)
    return kept.after_page if after else kept.first_page


def row_of(row: Sequence[Any]) -> ComparisonRowRead:
    """The value of one row of `statements` (read by position: a driver's record or a
    session's row)."""
    (
        id_,
        label,
        status_name,
        stop_name,
        error_code,
        split,
        trials_per_case,
        case_count,
        budget_cap_micros,
        spent_micros,
        created_at,
        ended_at,
        state_name,
        verdict_error_code,
        verdict,
        scorecard_json,
        verdict_finalized_at,
        cohorts_json,
        experiment_id,
        experiment_name,
        daily_budget_micros,
        experiment_created_at,
        version_id,
        *version,
        seq,
        done_calls,
        total_calls,
        failed_calls,
        started_at,
        progress_at,
    ) = row[:_WIDTH]
    status = _STATUSES[status_name]
    stop_reason = _STOP_REASONS[stop_name] if stop_name else None
    state = _VERDICT_STATES[state_name] if state_name else VerdictState.NOT_FINALIZED
    cohorts = cohorts_of(cohorts_json, status)
    progress = (
        seq,
        status,
        stop_reason,
        done_calls,
        total_calls,
        failed_calls,
        spent_micros,
        started_at,
        progress_at,
        cohorts,
    )
    experiment = (
        ExperimentRef(
            experiment_id,
            experiment_name,
            optional_micros_to_cents(daily_budget_micros),
            experiment_created_at,
        )
        if experiment_id is not None
        else None
    )
    node = (
        id_,
        label,
        status,
        stop_reason,
        error_code,
        _SPLITS[split],
        trials_per_case,
        case_count,
        optional_micros_to_cents(budget_cap_micros),
        micros_to_cents(spent_micros),
        created_at,
        ended_at,
        state,
        verdict_error_code,
        _SIGN_OFFS[verdict] if verdict else None,
        stored(scorecard_json),
        verdict_finalized_at,
        cohorts,
        experiment,
        _version(version_id, version) if version_id is not None else None,
        _new_progress(progress),
    )
    return _new_row(node)


def _version(version_id: str, columns: Sequence[Any]) -> DatasetVersionRef:
    dataset_id, number, state, *counts_and_times = columns
    return DatasetVersionRef(
        version_id, dataset_id, number, _VERSION_STATES[state], *counts_and_times
    )


_new_progress = made(RowProgress)
_new_row = made(ComparisonRowRead)
_new_edge = made(EdgeRead)
_STATUSES = members(ComparisonStatus)
_STOP_REASONS = members(StopReason)
_VERDICT_STATES = members(VerdictState)
_SPLITS = members(Split)
_SIGN_OFFS = members(SignOffVerdict)
_VERSION_STATES = members(VersionState)


def list_of(
    rows: Sequence[Sequence[Any]], *, first: int, after: str | None, total: int | None = None
) -> ComparisonsListRead:
    """The page of the rows of `statements` (`first` + 1 asked for); `total` when no row
    carries it."""
    shown = rows[:first]
    nodes = [row_of(row) for row in shown]
    cursors = [encode_cursor(node.id) for node in nodes]
    return ComparisonsListRead(
        rows[0][-1] if rows else (total or 0),
        tuple(map(_new_edge, zip(cursors, nodes, strict=True))),
        page_info(cursors, more=len(rows) > first, after=after),
    )


def bound_values(
    workspace_id: str, first: int, after: str | None, status: ComparisonStatus | None
) -> dict[str, Any]:
    """The bound values; a cursor that is not this list's is refused (`ValidationFailed`)."""
    return {
        "workspace_id": workspace_id,
        "status": status.value if status is not None else None,
        "page_limit": first + 1,
        "after_key": cursor_key(after, Comparison.id) if after is not None else None,
    }


@cache
def counted(*, with_status: bool) -> Select[Any]:
    """The total alone, for a page past the end (no row carries it)."""
    stmt = select(func.count()).select_from(Comparison)
    stmt = stmt.where(Comparison.workspace_id == bindparam("workspace_id", type_=String))
    if with_status:
        stmt = stmt.where(Comparison.status == bindparam("status", type_=String))
    return stmt


async def read(
    fetch: Fetch,
    *,
    dialect: str,
    workspace_id: str,
    first: int,
    after: str | None,
    status: ComparisonStatus | None,
) -> ComparisonsListRead:
    """The workspace's comparisons after the cursor `after` (`first` checked by the caller);
    a cursor not of this list is `ValidationFailed`."""
    values = bound_values(workspace_id, first, after, status)
    with_status = status is not None
    stmt = statements(dialect, with_status=with_status, after=after is not None)
    rows = await fetch(stmt, values)
    total = None
    if not rows and after is not None:
        total = (await fetch(counted(with_status=with_status), values))[0][0]
    return list_of(rows, first=first, after=after, total=total)
