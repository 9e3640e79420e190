"""A comparison's page (the portal's `ComparisonPage`): the comparison with its verdict row,
experiment, dataset version, cohorts and whether it has reports, in one statement, as one
frozen value.

The value's attributes are the page's GraphQL fields in snake case: the resolver's type
reads them (`server/api/comparisons/types.py`), the direct answer shows them field by field
as the document selects them (`server/api/direct_reads/present.py`), and the response
cache's stamp of a finalized comparison is the value itself with the few columns only the
stamp needs (`server/api/http/cached_reads/comparison.py`). A new field of the page is one
attribute here (its column in `_statement`) and one field of the type.

The joins keep the loaders' scoping: the experiment only when the workspace's, the dataset
version only when visible to it (else None here, and the type's loader decides).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import Select, String, and_, bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.assets.models import AssetVersion
from server.assets.service import version_visible_to
from server.comparisons.models import Comparison, ComparisonStatus, StopReason
from server.comparisons.progress import Progress, snapshot
from server.datasets.models import Split
from server.errors import NotFound
from server.experiments.models import Experiment
from server.money import micros_to_cents, optional_micros_to_cents
from server.page_reads.cohorts import CohortRead, cohorts_column, cohorts_of
from server.reports.service import exists_for
from server.verdicts.models import ComparisonVerdict, SignOffVerdict, VerdictState

Fetch = Callable[[Select[Any], Mapping[str, Any]], Awaitable[Sequence[Any]]]
"""Rows of a statement with its bound values, each read by column name (the driver's
records on the direct path, SQLAlchemy's row mappings in a session)."""


@dataclass(frozen=True, slots=True)
class DatasetVersionRef:
    id: str
    dataset_id: str
    number: int


@dataclass(frozen=True, slots=True)
class ExperimentRef:
    id: str
    name: str
    daily_budget_cents: float | None


@dataclass(frozen=True, slots=True)
class ComparisonPageRead:
    """What a comparison's page shows. Plain values: equal values show equal pages."""

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
    started_at: datetime | None
    ended_at: datetime | None
    verdict_state: VerdictState
    verdict_error_code: str | None
    verdict: SignOffVerdict | None
    dataset_version: DatasetVersionRef | None
    experiment: ExperimentRef | None
    cohorts: tuple[CohortRead, ...]
    has_reports: bool
    # The progress columns (`progress.Counted`), for `progress`:
    seq: int
    done_calls: int
    total_calls: int
    failed_calls: int
    spent_micros: int
    progress_at: datetime | None

    @property
    def progress(self) -> Progress:
        """The progress snapshot, as the live subscription sends it (its ETA from now)."""
        return snapshot(self, [(c.cohort_index, c.state) for c in self.cohorts])

    @property
    def cohort_count(self) -> int:
        return len(self.cohorts)

    @property
    def may_have_reports(self) -> bool:
        """Whether its reports must be read (the page's statement saw whether any exist)."""
        return self.has_reports

    def progress_snapshot(self) -> Progress:
        """The progress as the live subscription sends it (as `ComparisonRowRead` does)."""
        return self.progress


@cache
def statement(dialect: str) -> Select[Any]:
    """The page's statement (bound: `comparison_id`, `workspace_id`), built once per
    dialect: every column labelled as `page_of` reads it."""
    workspace_id = bindparam("workspace_id", type_=String)
    verdict = ComparisonVerdict
    experiment_on = and_(
        Experiment.id == Comparison.experiment_id, Experiment.workspace_id == workspace_id
    )
    version_on = and_(
        AssetVersion.id == Comparison.dataset_version_id, version_visible_to(workspace_id)
    )
    columns = (
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
        Comparison.started_at,
        Comparison.ended_at,
        Comparison.seq,
        Comparison.done_calls,
        Comparison.total_calls,
        Comparison.failed_calls,
        Comparison.progress_at,
        verdict.state.label("verdict_state"),
        verdict.error_code.label("verdict_error_code"),
        verdict.verdict.label("verdict"),
        AssetVersion.id.label("version_id"),
        AssetVersion.asset_id.label("dataset_id"),
        AssetVersion.number.label("version_number"),
        Experiment.id.label("experiment_id"),
        Experiment.name.label("experiment_name"),
        Experiment.daily_budget_micros.label("daily_budget_micros"),
        exists_for(Comparison.id).label("has_reports"),
        cohorts_column(dialect),
    )
    return (
        select(*columns)
        .outerjoin(verdict, verdict.comparison_id == Comparison.id)
        .outerjoin(Experiment, experiment_on)
        .outerjoin(AssetVersion, version_on)
        .where(
            Comparison.id == bindparam("comparison_id", type_=String),
            Comparison.workspace_id == workspace_id,
        )
    )


def page_of(row: Any) -> ComparisonPageRead:
    """The value of one row of `statement` (read by column name)."""
    status = ComparisonStatus(row["status"])
    version, experiment = row["version_id"], row["experiment_id"]
    return ComparisonPageRead(
        id=row["id"],
        label=row["label"],
        status=status,
        stop_reason=StopReason(row["stop_reason"]) if row["stop_reason"] else None,
        error_code=row["error_code"],
        split=Split(row["split"]),
        trials_per_case=row["trials_per_case"],
        case_count=row["case_count"],
        budget_cap_cents=optional_micros_to_cents(row["budget_cap_micros"]),
        spent_cents_so_far=micros_to_cents(row["spent_micros"]),
        created_at=row["created_at"],
        started_at=row["started_at"],
        ended_at=row["ended_at"],
        verdict_state=VerdictState(row["verdict_state"] or VerdictState.NOT_FINALIZED),
        verdict_error_code=row["verdict_error_code"],
        verdict=SignOffVerdict(row["verdict"]) if row["verdict"] else None,
        dataset_version=DatasetVersionRef(version, row["dataset_id"], row["version_number"])
        if version is not None
        else None,
        experiment=ExperimentRef(
            experiment,
            row["experiment_name"],
            optional_micros_to_cents(row["daily_budget_micros"]),
        )
        if experiment is not None
        else None,
        cohorts=cohorts_of(row["cohorts"], status),
        has_reports=bool(row["has_reports"]),
        seq=row["seq"],
        done_calls=row["done_calls"],
        total_calls=row["total_calls"],
        failed_calls=row["failed_calls"],
        spent_micros=row["spent_micros"],
        progress_at=row["progress_at"],
    )


async def read(
    fetch: Fetch, *, dialect: str, workspace_id: str, comparison_id: str
) -> ComparisonPageRead | None:
    """The workspace's comparison's page; None when it has no such comparison."""
    values = {"comparison_id": comparison_id, "workspace_id": workspace_id}
    rows = await fetch(statement(dialect), values)
    return page_of(rows[0]) if rows else None


@dataclass(frozen=True, slots=True)
class PageWithRows:
    """The page, with the rows the schema's types are made of (read in the same statement)."""

    page: ComparisonPageRead
    comparison: Comparison
    verdict: ComparisonVerdict | None
    experiment: Experiment | None
    dataset_version: AssetVersion | None


@cache
def _with_rows(dialect: str) -> Select[Any]:
    entities = (Comparison, ComparisonVerdict, Experiment, AssetVersion)
    stmt = statement(dialect).add_columns(*entities)
    return stmt.execution_options(populate_existing=True)


async def read_with_rows(
    session: AsyncSession, *, workspace_id: str, comparison_id: str
) -> PageWithRows:
    """The page and its rows in one statement; another workspace's or an unknown id is
    NOT_FOUND."""
    values = {"comparison_id": comparison_id, "workspace_id": workspace_id}
    dialect = session.get_bind().dialect.name
    row = (await session.execute(_with_rows(dialect), values)).first()
    if row is None:
        raise NotFound("comparison not found")
    found = row._mapping
    return PageWithRows(
        page=page_of(found),
        comparison=found[Comparison],
        verdict=found[ComparisonVerdict],
        experiment=found[Experiment],
        dataset_version=found[AssetVersion],
    )
