"""A comparison as its page shows it, in one statement: the row with, as the selection asks,
its verdict row, its cohorts (or their number), its experiment, its dataset version and
whether it has reports joined; and the comparisons page with each row's verdict row joined.

The page's fields would otherwise read them in a loader batch each (five statements, each
paying the session, the compiled-statement lookup and asyncpg's round trip, for one row
apiece). The joins keep the loaders' scoping: the experiment must be the workspace's and
the dataset version visible to it, else none is read here and the loader decides (and
answers NOT_FOUND as before).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import ColumnElement, Select, String, and_, bindparam, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.assets.models import AssetVersion
from server.assets.service import version_visible_to as visible
from server.comparisons import service
from server.comparisons.models import Comparison, ComparisonCohort, ComparisonStatus
from server.errors import NotFound
from server.experiments.models import Experiment
from server.pagination import KeysetStatements, Page, keyset_rows, keyset_statements
from server.verdicts.models import ComparisonVerdict


@dataclass(frozen=True, slots=True)
class Wanted:
    """What the page selects besides the row."""

    verdict: bool = False
    cohorts: bool = False
    experiment: bool = False
    dataset_version: bool = False
    cohort_count: bool = False
    """The number of cohorts (a case page checks its baseline against it)."""
    has_reports: ColumnElement[bool] | None = None
    """Whether it has report versions, as the reports aggregate tells it of `Comparison.id`
    (this one may not import it): a running comparison has none, so its page need not read
    them apart."""


@dataclass(frozen=True, slots=True)
class ComparisonPage:
    row: Comparison
    verdict: ComparisonVerdict | None
    cohorts: list[ComparisonCohort] | None
    """In index order; None when not wanted."""
    experiment: Experiment | None
    dataset_version: AssetVersion | None
    cohort_count: int | None
    """None when not wanted."""
    has_reports: bool | None = None
    """None when not wanted."""


async def get(
    *, session: AsyncSession, workspace_id: str, comparison_id: str, wanted: Wanted
) -> ComparisonPage:
    """The workspace's comparison with what `wanted` names; another workspace's or an
    unknown id is NOT_FOUND."""
    params = {"comparison_id": comparison_id, "workspace_id": workspace_id}
    rows = [row._mapping for row in await session.execute(_statement(wanted), params)]
    if not rows:
        raise NotFound("comparison not found")
    first = rows[0]
    cohorts = (
        [c for row in rows if (c := row[ComparisonCohort]) is not None] if wanted.cohorts else None
    )
    cohort_count = None
    if wanted.cohort_count:
        cohort_count = len(cohorts) if cohorts is not None else int(first["cohort_count"])
    return ComparisonPage(
        row=first[Comparison],
        verdict=first[ComparisonVerdict] if wanted.verdict else None,
        cohorts=cohorts,
        experiment=first[Experiment] if wanted.experiment else None,
        dataset_version=first[AssetVersion] if wanted.dataset_version else None,
        cohort_count=cohort_count,
        has_reports=bool(first["has_reports"]) if wanted.has_reports is not None else None,
    )


@lru_cache(maxsize=256)
def _statement(wanted: Wanted) -> Select[Any]:
    """The page's statement for one `wanted`, built once: every value a bound parameter, so
    SQLAlchemy keeps its cache key instead of walking a new statement per request. Bounded:
    `has_reports` is an expression, one per caller if each builds it once as it should."""
    workspace_id = bindparam("workspace_id", type_=String)
    stmt = select(Comparison)
    if wanted.verdict:
        stmt = _with_verdicts(stmt)
    if wanted.experiment:
        ours = Experiment.workspace_id == workspace_id
        on = and_(Experiment.id == Comparison.experiment_id, ours)
        stmt = stmt.add_columns(Experiment).outerjoin(Experiment, on)
    if wanted.dataset_version:
        on = and_(AssetVersion.id == Comparison.dataset_version_id, visible(workspace_id))
        stmt = stmt.add_columns(AssetVersion).outerjoin(AssetVersion, on)
    if wanted.cohort_count and not wanted.cohorts:  # else the cohorts read tell it
        counted = (
            select(func.count())
            .select_from(ComparisonCohort)
            .where(ComparisonCohort.comparison_id == Comparison.id)
            .correlate(Comparison)
        )
        stmt = stmt.add_columns(counted.scalar_subquery().label("cohort_count"))
    if wanted.has_reports is not None:
        stmt = stmt.add_columns(wanted.has_reports.label("has_reports"))
    if wanted.cohorts:
        on = ComparisonCohort.comparison_id == Comparison.id
        stmt = (
            stmt.add_columns(ComparisonCohort)
            .outerjoin(ComparisonCohort, on)
            .order_by(ComparisonCohort.cohort_index)
        )
    return stmt.where(
        Comparison.id == bindparam("comparison_id", type_=String),
        Comparison.workspace_id == workspace_id,
    ).execution_options(populate_existing=True)


def _with_verdicts(stmt: Select[Any]) -> Select[Any]:
    on = ComparisonVerdict.comparison_id == Comparison.id
    return stmt.add_columns(ComparisonVerdict).outerjoin(ComparisonVerdict, on)


@lru_cache(maxsize=4)
def _list_statements(*, with_status: bool, verdicts: bool) -> KeysetStatements:
    """The comparisons page's statements, built once per shape (bound parameters
    `workspace_id` and, `with_status`, `status`)."""
    stmt = select(Comparison).where(
        Comparison.workspace_id == bindparam("workspace_id", type_=String)
    )
    if with_status:
        stmt = stmt.where(Comparison.status == bindparam("status"))
    joined = _with_verdicts if verdicts else None
    return keyset_statements(stmt, key=Comparison.id, descending=True, joined=joined)


Listed = tuple[Comparison, ComparisonVerdict | None, list[ComparisonCohort] | None]
"""A row of the comparisons page: the comparison, its verdict row and its cohorts (None
where not asked for; a verdict row is None too before finalization)."""


async def get_list(
    *,
    session: AsyncSession,
    workspace_id: str,
    first: int,
    after: str | None,
    status: ComparisonStatus | None = None,
    verdicts: bool = False,
    cohorts: bool = False,
) -> Page[Listed]:
    """The workspace's comparisons, newest first, optionally of one status; each row with its
    verdict row when `verdicts`, read in the page's statement, and its cohorts when
    `cohorts`, read next in the same session (no loader batch to wait for)."""
    params: dict[str, Any] = {"workspace_id": workspace_id}
    if status is not None:
        params["status"] = status
    statements = _list_statements(with_status=status is not None, verdicts=verdicts)
    page = await keyset_rows(session, statements, first=first, after=after, params=params)
    found: dict[str, list[ComparisonCohort]] | None = None
    if cohorts and page.items:
        ids = [row[0].id for row in page.items]
        found = await service.get_cohorts(session=session, comparison_ids=ids)
    return page.with_items(
        [
            (
                row[0],
                row[1] if verdicts else None,
                None if found is None else found.get(row[0].id, []),
            )
            for row in page.items
        ]
    )
