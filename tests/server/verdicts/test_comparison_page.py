"""`comparison_page.get` reads, in one statement, what the separate reads would for every
combination of what a selection asks, and nothing of another workspace."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import fields
from itertools import product
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncSession

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import finalized, scripted_setup
from server.assets import service as asset_service
from server.comparisons import service
from server.comparisons.models import Comparison
from server.errors import NotFound
from server.reports import service as report_service
from server.verdicts import comparison_page
from server.verdicts import service as verdict_service
from server.workspaces.roles import Role
from tests.server.reports.api import GENERATE

HAS_REPORTS = report_service.exists_for(Comparison.id)


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
    event.listen(connection, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(connection, "before_cursor_execute", count)


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
    names = [f.name for f in fields(comparison_page.Wanted)]
    for flags in product([False, True], repeat=len(names)):
        asked = dict(zip(names, flags, strict=True))
        values: dict[str, Any] = dict(asked)
        values["has_reports"] = HAS_REPORTS if asked["has_reports"] else None
        wanted = comparison_page.Wanted(**values)
        async with backend.sessionmaker() as session:
            async with _statements(session) as seen:
                page = await comparison_page.get(
                    session=session, workspace_id=ws.id, comparison_id=row.id, wanted=wanted
                )
        assert len(seen) == 1, (wanted, seen)
        found = {
            "verdict": page.verdict.comparison_id if page.verdict else None,
            "cohorts": [(c.cohort_index, c.label, c.state) for c in page.cohorts]
            if page.cohorts is not None
            else None,
            "experiment": page.experiment.id if page.experiment else None,
            "dataset_version": page.dataset_version.id if page.dataset_version else None,
            "cohort_count": page.cohort_count,
            "has_reports": page.has_reports,
        }
        assert found == {k: v if asked[k] else None for k, v in expected.items()}, wanted
        assert page.row.id == row.id


async def test_a_reported_comparison_is_read_as_having_reports(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, [["P"], ["P"], ["F"]])
    comparison_id, _ = await finalized(backend, setup, trialsPerCase=1)
    wanted = comparison_page.Wanted(has_reports=HAS_REPORTS)
    found = []
    for _ in range(2):
        async with backend.sessionmaker() as session:
            page = await comparison_page.get(
                session=session, workspace_id=ws.id, comparison_id=comparison_id, wanted=wanted
            )
        found.append(page.has_reports)
        token = ws.tokens[Role.MEMBER]
        (await backend.gql(GENERATE, {"id": comparison_id}, token=token)).ok()
    assert found == [False, True]


async def test_another_workspaces_comparison_is_not_found(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker, name="other")
    setup = await scripted_setup(backend.sessionmaker, ws, [["P"], ["P"], ["F"]])
    comparison_id, _ = await finalized(backend, setup, trialsPerCase=1)
    wanted = comparison_page.Wanted(verdict=True, cohorts=True, experiment=True)
    async with backend.sessionmaker() as session:
        with pytest.raises(NotFound):
            await comparison_page.get(
                session=session, workspace_id=other.id, comparison_id=comparison_id, wanted=wanted
            )
