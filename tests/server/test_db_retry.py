"""A unit of work whose connection is lost mid-transaction runs again whole, once it can;
an error of the statement itself is raised at once (real PostgreSQL and SQLite)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.ext.asyncio import AsyncSession

from server import db_retry
from server.db import create_engine, create_sessionmaker


async def _terminate(url: str, pid: int) -> None:
    admin = create_engine(url, pool_size=1)
    try:
        async with admin.connect() as conn:
            await conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    finally:
        await admin.dispose()


async def test_a_terminated_backend_runs_the_unit_again(postgres_database: str) -> None:
    engine = create_engine(postgres_database, pool_size=2)
    sessionmaker = create_sessionmaker(engine)
    pids: list[int] = []

    async def body(session: AsyncSession) -> int:
        pid = int(await session.scalar(text("SELECT pg_backend_pid()")) or 0)
        pids.append(pid)
        if len(pids) == 1:  # cut this very connection in the middle of its transaction
            await _terminate(postgres_database, pid)
        return int(await session.scalar(text("SELECT 41 + 1")) or 0)

    try:
        assert await db_retry.unit(sessionmaker, body, what="the test's unit") == 42
    finally:
        await engine.dispose()
    assert len(pids) == 2 and pids[0] != pids[1]


async def test_an_error_of_the_statement_is_not_run_again(postgres_database: str) -> None:
    engine = create_engine(postgres_database, pool_size=1)
    runs = 0

    async def body(session: AsyncSession) -> object:
        nonlocal runs
        runs += 1
        return await session.scalar(text("SELECT 1 / 0"))

    try:
        with pytest.raises(DBAPIError) as raised:
            await db_retry.unit(create_sessionmaker(engine), body)
    finally:
        await engine.dispose()
    assert runs == 1 and not db_retry.connection_lost(raised.value)


async def test_sqlite_errors_are_not_connection_losses(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
    runs = 0

    async def body(session: AsyncSession) -> object:
        nonlocal runs
        runs += 1
        return await session.scalar(text("SELECT * FROM no_such_table"))

    try:
        with pytest.raises(OperationalError):
            await db_retry.unit(create_sessionmaker(engine), body)
    finally:
        await engine.dispose()
    assert runs == 1
