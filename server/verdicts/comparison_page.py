"""The comparisons page through the schema: a keyset page of the workspace's comparisons
with each row's verdict row joined, and their cohorts read next in the same session (a
comparison's own page is read by `server.page_reads.comparison_page`)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from sqlalchemy import Select, String, bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons import service
from server.comparisons.models import Comparison, ComparisonCohort, ComparisonStatus
from server.pagination import KeysetStatements, Page, keyset_rows, keyset_statements
from server.verdicts.models import ComparisonVerdict


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
