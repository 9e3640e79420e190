"""Alembic takes empty databases to head, and the models match the migrated schema."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import alembic.command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import insert, inspect, select, update
from sqlalchemy.engine import Connection

from bench.kit.factories import make_comparison, make_comparison_setup, make_workspace
from server.comparisons.cohort_rates import PASS_SCALE
from server.comparisons.models import (
    Comparison,
    ComparisonCohort,
    ComparisonStatus,
    Trial,
    TrialState,
)
from server.db import create_engine, create_sessionmaker, utcnow
from server.migrate import alembic_config, upgrade
from server.models import Base

EXPECTED_TABLES = {
    "workspace",
    "member",
    "api_token",
    "audit_event",
    "worker_heartbeat",
    "asset",
    "asset_version",
    "dataset_case",
    "release",
    "release_binding",
    "model_connection",
    "experiment",
    "comparison_verdict",
    "verdict_case",
    "report",
    "follow_up",
    "sign_off",
    "sign_off_follow_up",
}


def _diff(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


def _tables(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


async def _check(url: str) -> tuple[set[str], list[Any]]:
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            return await connection.run_sync(_tables), await connection.run_sync(_diff)
    finally:
        await engine.dispose()


async def test_an_empty_sqlite_upgrades_to_head_with_no_drift(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'fresh.db'}"
    await asyncio.to_thread(upgrade, url)
    tables, diff = await _check(url)
    assert EXPECTED_TABLES <= tables
    assert diff == []


async def test_an_empty_postgres_upgrades_to_head_with_no_drift(postgres_database: str) -> None:
    """`postgres_database` is a fresh database the session fixture upgraded from empty."""
    tables, diff = await _check(postgres_database)
    assert EXPECTED_TABLES <= tables
    assert diff == []


async def test_runs_that_ended_before_stored_pass_rates_get_them_from_their_trials(
    tmp_path: Path,
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    await asyncio.to_thread(upgrade, url)
    engine = create_engine(url)
    sessionmaker = create_sessionmaker(engine)
    ws = await make_workspace(sessionmaker)
    setup = await make_comparison_setup(sessionmaker, ws, cases=2)
    comparison_id = await make_comparison(sessionmaker, setup, trials=3)
    outcomes = {(0, 0): [True, True, False], (0, 1): [True], (1, 0): [False, False, False]}
    async with sessionmaker() as session, session.begin():
        await session.execute(
            insert(Trial),
            [
                {
                    "comparison_id": comparison_id,
                    "case_ordinal": ordinal,
                    "cohort_index": cohort,
                    "trial_index": index,
                    "connection_id": setup.connection_id,
                    "state": TrialState.COMPLETED,
                    "delivery_id": "dlv_old",
                    "lease_token": 1,
                    "passed": passed,
                    "completed_at": utcnow(),
                }
                for (cohort, ordinal), trials in outcomes.items()
                for index, passed in enumerate(trials)
            ],
        )
        await session.execute(
            update(Comparison)
            .where(Comparison.id == comparison_id)
            .values(status=ComparisonStatus.DONE)
        )
    await engine.dispose()
    # Back to the revision before the stored rates (0013), then up: the migration settles
    # the run.
    await asyncio.to_thread(alembic.command.downgrade, alembic_config(url), "0014")
    await asyncio.to_thread(upgrade, url)
    engine = create_engine(url)
    try:
        async with create_sessionmaker(engine)() as session:
            rows = (
                await session.execute(
                    select(
                        ComparisonCohort.cohort_index,
                        ComparisonCohort.usable_cases,
                        ComparisonCohort.pass_fraction_sum,
                    ).where(ComparisonCohort.comparison_id == comparison_id)
                )
            ).all()
    finally:
        await engine.dispose()
    # cohort 0: cases 2/3 and 1/1; cohort 1: 0/3 (its case 1 never completed).
    assert sorted(tuple(r) for r in rows) == [
        (0, 2, PASS_SCALE * 2 // 3 + PASS_SCALE),
        (1, 1, 0),
    ]
