"""Alembic takes empty databases to head, and the models match the migrated schema."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from server.db import create_engine
from server.migrate import upgrade
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
