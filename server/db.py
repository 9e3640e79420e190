"""Engine, sessions and the declarative base, portable across PostgreSQL and SQLite."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import JSON, BigInteger, DateTime, Integer, MetaData, event
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.types import TypeDecorator

from server import sqlite_gate

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

PortableJSON = JSON().with_variant(JSONB(), "postgresql")
"""JSON documents: JSONB on PostgreSQL, JSON text on SQLite."""

AutoIncrementBigInt = BigInteger().with_variant(Integer(), "sqlite")
"""A 64-bit surrogate key that autoincrements on both backends (SQLite needs INTEGER)."""


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC timestamps on both backends (SQLite stores naive text)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:  # noqa: ARG002
        if value is not None and value.tzinfo is None:
            raise ValueError("naive datetime")
        return value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:  # noqa: ARG002
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def utcnow() -> datetime:
    return datetime.now(UTC)


def _configure_sqlite(sync_engine: Engine) -> None:
    """WAL, a busy timeout, and BEGIN IMMEDIATE behind the process's queue
    (server/sqlite_gate.py) so writers wait their turn instead of failing."""

    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # let the `begin` hook below issue BEGIN
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    def _begin_immediate(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    sqlite_gate.install(sync_engine, _begin_immediate)  # this process's transactions queue


def create_engine(
    database_url: str,
    *,
    pool_size: int = 10,
    max_overflow: int | None = None,
    ping_idle_after: float | None = None,
) -> AsyncEngine:
    """An async engine for the URL, with SQLite's locking made safe for concurrent writers.

    PostgreSQL connections are pinged at every checkout, or with `ping_idle_after` only
    when they sat in the pool that many seconds (`_ping_when_idle`)."""
    if database_url.startswith("sqlite"):
        _ensure_sqlite_dir(database_url)
        engine = create_async_engine(database_url)
        _configure_sqlite(engine.sync_engine)
        return engine
    engine = create_async_engine(
        database_url,
        pool_size=pool_size,
        max_overflow=pool_size if max_overflow is None else max_overflow,
        pool_pre_ping=ping_idle_after is None,
        json_deserializer=orjson.loads,  # JSONB columns: several times faster than `json`
    )
    if ping_idle_after is not None:
        _ping_when_idle(engine.sync_engine, ping_idle_after)
    return engine


def _ping_when_idle(sync_engine: Engine, seconds: float) -> None:
    """Ping a connection at checkout only when it was idle `seconds` or more: a busy API
    reuses its connections within milliseconds, and a ping costs up to three round trips
    (BEGIN, `;`, ROLLBACK). A connection dropped while idle (a database restart) is
    replaced before use, as `pool_pre_ping` would; one dropped while busy fails its
    request, SQLAlchemy invalidates the pool, and the next checkout reconnects."""

    @event.listens_for(sync_engine, "checkin")
    def _on_checkin(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(sync_engine, "checkout")
    def _on_checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        idle_since = record.info.get("idle_since")
        if idle_since is None or time.monotonic() - idle_since < seconds:
            return  # new, or back in the pool a moment ago
        try:
            sync_engine.dialect.do_ping(dbapi_connection)
        except Exception as exc:  # any failure: the pool retries with a new connection
            raise DisconnectionError() from exc


def _ensure_sqlite_dir(database_url: str) -> None:
    from pathlib import Path

    path = database_url.split("///", 1)[-1]
    if path and path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)


def create_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


def create_read_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions for reads only: on PostgreSQL in autocommit, so a request's reads cost no
    BEGIN and ROLLBACK round trips (each statement sees the latest commits, as READ
    COMMITTED would); SQLite keeps its own transactions (`server/reading.py`)."""
    if engine.dialect.name == "sqlite":
        return create_sessionmaker(engine)
    return create_sessionmaker(engine.execution_options(isolation_level="AUTOCOMMIT"))


@asynccontextmanager
async def transaction(
    sessionmaker: async_sessionmaker[AsyncSession],
) -> AsyncIterator[AsyncSession]:
    """A session inside one transaction: committed on success, rolled back on error."""
    async with sessionmaker() as session, session.begin():
        yield session
