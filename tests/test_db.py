"""The API's PostgreSQL pool pings only connections that sat idle, and still never hands out
a connection the database dropped while it was idle; one dropped while busy costs one
failed use, then the pool reconnects."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from server.db import create_engine


async def _terminate(url: str, pid: int) -> None:
    admin = create_engine(url, pool_size=1)
    try:
        async with admin.connect() as conn:
            await conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    finally:
        await admin.dispose()


async def _pid(engine: AsyncEngine) -> int:
    async with engine.connect() as conn:
        pid = await conn.scalar(text("SELECT pg_backend_pid()"))
    return int(pid)


async def test_a_connection_dropped_while_idle_is_replaced_before_use(
    postgres_database: str,
) -> None:
    engine = create_engine(postgres_database, pool_size=1, max_overflow=0, ping_idle_after=0.2)
    try:
        pid = await _pid(engine)
        await _terminate(postgres_database, pid)
        await asyncio.sleep(0.3)  # idle past the threshold: pinged at checkout
        assert await _pid(engine) != pid
    finally:
        await engine.dispose()


async def test_a_connection_reused_at_once_is_not_pinged_and_the_pool_then_reconnects(
    postgres_database: str,
) -> None:
    engine = create_engine(postgres_database, pool_size=1, max_overflow=0, ping_idle_after=60)
    try:
        pid = await _pid(engine)
        await _terminate(postgres_database, pid)
        with pytest.raises(DBAPIError):  # no ping: the dead connection was handed out
            await _pid(engine)
        assert await _pid(engine) != pid  # invalidated: the next use reconnects
    finally:
        await engine.dispose()
