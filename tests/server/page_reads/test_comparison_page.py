"""A comparison's page read (`server.page_reads.comparison_page`) reads, in one statement,
what the separate reads would, on either database, and nothing of another workspace."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import finalized, scripted_setup
from bench.kit.statements import listening
from server.assets import service as asset_service
from server.comparisons import service
from server.page_reads import comparison_page
from server.reports import service as report_service
from server.verdicts import service as verdict_service
from server.verdicts.models import VerdictState
from server.workspaces.roles import Role
from tests.server.reports.api import GENERATE


@asynccontextmanager
async def _statements(session: AsyncSession) -> AsyncIterator[list[str]]:
    """The statements the session runs in the block, SQLite's BEGINs left out. Only its
    own connection's: the app's background jobs (a finalized comparison's hosted runs)
    share the engine."""
    seen: list[str] = []

    def count(*args: Any) -> None:
        if not args[2].startswith("BEGIN"):
            seen.append(args[2])  # the statement's text

    connection = (await session.connection()).sync_connection
    assert connection is not None
    with listening(connection, "before_cursor_execute", count):
        yield seen


async def test_every_combination_reads_what_the_loaders_would(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, [["P", "F"], ["P", "P"], ["F", "P"]])
    comparison_id, _ = await finalized(backend, setup, trialsPerCase=1)
    async with backend.sessionmaker() as session:
        row = await service.get(session=session, workspace_id=ws.id, comparison_id=comparison_id)
        cohorts = (await service.get_cohorts(session=session, comparison_ids=[row.id]))[row.id]
        verdict = (await verdict_service.get_verdicts(session=session, comparison_ids=[row.id]))[
            row.id
        ]
        experiments = await service.get_experiments(
            session=session, workspace_id=ws.id, experiment_ids=[row.experiment_id]
        )
        reports = await report_service.get_for_comparisons(session=session, comparison_ids=[row.id])
        (version,) = await asset_service.get_versions(
            session=session, workspace_id=ws.id, version_ids=[row.dataset_version_id]
        )
        expected = {
            "verdict": verdict.comparison_id,
            "cohorts": [(c.cohort_index, c.label, c.state) for c in cohorts],
            "experiment": experiments[row.experiment_id].id,
            "dataset_version": version.id,
            "cohort_count": len(cohorts),
            "has_reports": bool(reports[row.id]),
        }
    async with backend.sessionmaker() as session:
        async with _statements(session) as seen:
            page = await _read(session, workspace_id=ws.id, comparison_id=row.id)
    assert len(seen) == 1, seen
    assert page is not None
    found = {
        "verdict": page.id if page.verdict_state != VerdictState.NOT_FINALIZED else None,
        "cohorts": [(c.cohort_index, c.label, c.state) for c in page.cohorts],
        "experiment": page.experiment.id if page.experiment else None,
        "dataset_version": page.dataset_version.id if page.dataset_version else None,
        "cohort_count": page.cohort_count,
        "has_reports": page.has_reports,
    }
    assert found == expected
    assert page.id == row.id
    assert [c.pass_rate is not None for c in page.cohorts] == [True, True, True]  # DONE
    assert page.experiment is not None and page.experiment.id == row.experiment_id
    assert page.scorecard_document is not None and page.verdict_finalized_at is not None


async def test_a_reported_comparison_is_read_as_having_reports(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, [["P"], ["P"], ["F"]])
    comparison_id, _ = await finalized(backend, setup, trialsPerCase=1)
    found = []
    for _ in range(2):
        async with backend.sessionmaker() as session:
            read = await _read(session, workspace_id=ws.id, comparison_id=comparison_id)
        assert read is not None
        found.append(read.has_reports)
        token = ws.tokens[Role.MEMBER]
        (await backend.gql(GENERATE, {"id": comparison_id}, token=token)).ok()
    assert found == [False, True]


async def test_another_workspaces_comparison_is_not_found(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker, name="other")
    setup = await scripted_setup(backend.sessionmaker, ws, [["P"], ["P"], ["F"]])
    comparison_id, _ = await finalized(backend, setup, trialsPerCase=1)
    async with backend.sessionmaker() as session:
        assert await _read(session, workspace_id=other.id, comparison_id=comparison_id) is None
        assert await _read(session, workspace_id=ws.id, comparison_id=comparison_id) is not None


async def _read(
    session: AsyncSession, *, workspace_id: str, comparison_id: str
) -> comparison_page.ComparisonPageRead | None:
    """The page's read in `session`, its rows read by column name."""

    async def fetch(statement: Any, values: Any) -> Any:
        return (await session.execute(statement, values)).mappings().all()

    dialect = session.get_bind().dialect.name
    return await comparison_page.read(
        fetch, dialect=dialect, workspace_id=workspace_id, comparison_id=comparison_id
    )
