"""A comparison's page (the portal's `ComparisonPage`): the comparison with its verdict row,
experiment, dataset version, cohorts and whether it has reports, in one statement, as one
frozen value.

The value's attributes are the page's GraphQL fields in snake case: the `Comparison` type
is made from it alone (`server/api/comparisons/types.py`; a row of the comparisons list
carries the same attributes), and the response cache's stamp of a finalized comparison is
the value itself with the few columns only the stamp needs
(`server/api/http/cached_reads/comparison.py`). A new field of the page is one attribute
here (its column in `statement`), the same attribute of the list's row, and one field of
the type.

The joins keep the loaders' scoping: the experiment only when the workspace's, the dataset
version only when visible to it (else None here, and the type's loader decides)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any, NamedTuple, cast

from sqlalchemy import Select, String, and_, bindparam, select

from server.assets.models import AssetVersion, VersionState
from server.assets.service import version_visible_to
from server.comparisons.models import CohortState, Comparison, ComparisonStatus, StopReason
from server.comparisons.progress import eta_seconds, shown_state
from server.datasets.models import Split
from server.db import utcnow
from server.experiments.models import Experiment
from server.money import micros_to_cents, optional_micros_to_cents
from server.page_reads.cohorts import CohortRead, cohorts_column, cohorts_of
from server.page_reads.stored_json import StoredJson, json_text, stored, value_of
from server.reports.service import exists_for
from server.verdicts.models import ComparisonVerdict, SignOffVerdict, VerdictState

Fetch = Callable[[Select[Any], Mapping[str, Any]], Awaitable[Sequence[Any]]]
"""Rows of a statement with its bound values, each read by column name (the driver's
records on the direct path, SQLAlchemy's row mappings in a session)."""


@dataclass(frozen=True, slots=True)
class DatasetVersionRef:
    """The comparison's dataset version, as its type shows it."""

    id: str
    dataset_id: str
    number: int
    state: VersionState
    case_count: int
    dev_case_count: int
    holdout_case_count: int
    content_hash: str | None
    created_at: datetime
    sealed_at: datetime | None


@dataclass(frozen=True, slots=True)
class ExperimentRef:
    """The comparison's experiment, as its type shows it."""

    id: str
    name: str
    daily_budget_cents: float | None
    created_at: datetime


class CohortProgressRead(NamedTuple):
    cohort_index: int
    state: CohortState


class RowProgress(NamedTuple):
    """A comparison's progress columns (what `progress.snapshot` reads:
    `progress.Counted`), with the snapshot's other fields computed when shown."""

    seq: int
    status: ComparisonStatus
    stop_reason: StopReason | None
    done_calls: int
    total_calls: int
    failed_calls: int
    spent_micros: int
    started_at: datetime | None
    progress_at: datetime | None
    cohort_reads: tuple[CohortRead, ...]
    """The row's cohorts (their states, as the snapshot shows them: `cohorts`)."""

    @property
    def percent(self) -> float:
        total = self.total_calls
        return round(100.0 * self.done_calls / total, 2) if total else 0.0

    @property
    def eta_seconds(self) -> float | None:
        return eta_seconds(self, utcnow())

    @property
    def spent_cents_so_far(self) -> float:
        return micros_to_cents(self.spent_micros)

    @property
    def updated_at(self) -> datetime | None:
        return self.progress_at

    @property
    def cohorts(self) -> tuple[CohortProgressRead, ...]:
        """Each cohort's state as the progress shows it (`progress.shown_state`)."""
        return tuple(
            CohortProgressRead(c.cohort_index, shown_state(self, c.state))
            for c in self.cohort_reads
        )


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
    scorecard_json: StoredJson | None
    """The verdict's stored scorecard, as its text (`scorecard_document` reads it)."""
    verdict_finalized_at: datetime | None
    progress: RowProgress

    @property
    def scorecard_document(self) -> dict[str, Any] | None:
        """The verdict's stored scorecard (its type shows it once FINALIZED)."""
        return cast("dict[str, Any] | None", value_of(self.scorecard_json))

    @property
    def cohort_count(self) -> int:
        return len(self.cohorts)

    @property
    def may_have_reports(self) -> bool:
        """Whether its reports must be read (the page's statement saw whether any exist)."""
        return self.has_reports


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
        AssetVersion.state.label("version_state"),
        AssetVersion.case_count.label("version_case_count"),
        AssetVersion.dev_case_count.label("version_dev_case_count"),
        AssetVersion.holdout_case_count.label("version_holdout_case_count"),
        AssetVersion.content_hash.label("version_content_hash"),
        AssetVersion.created_at.label("version_created_at"),
        AssetVersion.sealed_at.label("version_sealed_at"),
        Experiment.id.label("experiment_id"),
        Experiment.name.label("experiment_name"),
        Experiment.daily_budget_micros.label("daily_budget_micros"),
        Experiment.created_at.label("experiment_created_at"),
        exists_for(Comparison.id).label("has_reports"),
        cohorts_column(dialect),
        json_text(verdict.scorecard).label("scorecard_json"),
        verdict.finalized_at.label("verdict_finalized_at"),
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
    stop_reason = StopReason(row["stop_reason"]) if row["stop_reason"] else None
    cohorts = cohorts_of(row["cohorts"], status)
    version, experiment = row["version_id"], row["experiment_id"]
    return ComparisonPageRead(
        id=row["id"],
        label=row["label"],
        status=status,
        stop_reason=stop_reason,
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
        dataset_version=DatasetVersionRef(
            version,
            row["dataset_id"],
            row["version_number"],
            VersionState(row["version_state"]),
            row["version_case_count"],
            row["version_dev_case_count"],
            row["version_holdout_case_count"],
            row["version_content_hash"],
            row["version_created_at"],
            row["version_sealed_at"],
        )
        if version is not None
        else None,
        experiment=ExperimentRef(
            experiment,
            row["experiment_name"],
            optional_micros_to_cents(row["daily_budget_micros"]),
            row["experiment_created_at"],
        )
        if experiment is not None
        else None,
        cohorts=cohorts,
        has_reports=bool(row["has_reports"]),
        scorecard_json=stored(row["scorecard_json"]),
        verdict_finalized_at=row["verdict_finalized_at"],
        progress=RowProgress(
            row["seq"],
            status,
            stop_reason,
            row["done_calls"],
            row["total_calls"],
            row["failed_calls"],
            row["spent_micros"],
            row["started_at"],
            row["progress_at"],
            cohorts,
        ),
    )


async def read(
    fetch: Fetch, *, dialect: str, workspace_id: str, comparison_id: str
) -> ComparisonPageRead | None:
    """The workspace's comparison's page; None when it has no such comparison."""
    values = {"comparison_id": comparison_id, "workspace_id": workspace_id}
    rows = await fetch(statement(dialect), values)
    return page_of(rows[0]) if rows else None
