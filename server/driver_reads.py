"""A page's read on PostgreSQL (`server.page_reads`): its Core statement compiled once per
dialect and run on the driver's own connection (`server.api.context.Context.fetch` reads
through it).

Through `exec_driver_sql` a page's read still paid SQLAlchemy's per-execution work (its
cursor adapter, the result's metadata, a `Row` per row): 0.41 ms a page against 0.27 on
the asyncpg connection it wraps. So the statement runs on that connection, checked out of
the engine's pool (and kept out between reads: `DriverConnections`); listeners of
`before_cursor_execute` (logging, the tests' statement counts) are told of it as
SQLAlchemy tells them, and a connection that failed mid-statement is invalidated rather
than pooled. Rows are the driver's records, read by column name: strings for enum
columns, JSON already parsed (the engine's codec), aware datetimes.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy import Select
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

DATABASE_ERRORS = (
    SQLAlchemyError,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
)
"""What a read on the driver raises when the database is away or refuses. (A connection
the server dropped while it sat idle raises asyncpg's `InternalClientError` at its next
statement.)"""


LOST = (
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    asyncpg.exceptions.AdminShutdownError,
    OSError,
)
"""What a connection the server dropped raises at its next statement."""


@dataclass(frozen=True, slots=True)
class Compiled:
    sql: str
    names: tuple[str, ...]
    """The bound parameters' names, in the order the SQL takes them."""
    defaults: dict[str, Any]
    """The values bound in the statement itself (a JSON key, say)."""


@lru_cache(maxsize=64)
def compiled(statement: Select[Any], dialect: Dialect) -> Compiled:
    done = statement.compile(dialect=dialect)
    if any(bind.expanding for bind in done.binds.values()):
        raise ValueError("an expanding parameter (IN) is rendered per execution: not here")
    return Compiled(str(done), tuple(done.positiontup or ()), dict(done.params))


@dataclass(slots=True)
class _Kept:
    connection: AsyncConnection
    driver: Any
    """The asyncpg connection under `connection`."""
    used_at: float


class DriverConnections:
    """The driver connections page reads run on: at most `size` at once, kept checked out
    of the engine's pool between reads.

    A checkout and return per read (SQLAlchemy's connection, its pool's fairy and events)
    cost 0.08–0.10 ms, a tenth of a running comparison's page. And reads that each took a
    connection of their own outgrew the pool under 50 clients: it opened overflow
    connections and closed them again on return, 15 a second, each a PostgreSQL backend
    started and set up while requests waited (the page's 99th percentile). A read takes
    well under a millisecond of the database, so a few connections serve every client;
    the rest of the pool stays the schema's. One idle `idle_seconds` or more goes back to
    the pool and a fresh checkout replaces it, which pings a connection that sat idle
    there (`server.db`).
    """

    def __init__(self, engine: AsyncEngine, *, size: int = 8, idle_seconds: float = 5.0) -> None:
        self._engine = engine
        self._turns = asyncio.Semaphore(size)
        self._idle_seconds = idle_seconds
        self._idle: list[_Kept] = []

    async def fetch(self, statement: Select[Any], values: Mapping[str, Any]) -> Sequence[Any]:
        """The rows of `statement` with its bound parameters from `values` (PostgreSQL):
        the driver's records, by column name or position."""
        kept = compiled(statement, self._engine.dialect)
        bound = {**kept.defaults, **values}
        parameters = tuple(bound[name] for name in kept.names)
        async with self._turns:
            held = await self._checkout()
            try:
                rows = await self._run(held, kept.sql, parameters)
            except LOST:
                # A connection the server dropped (a restart drops them all, the pool's idle
                # ones too): the kept ones are let go, the pool's closed, as SQLAlchemy does
                # on a disconnect, and the read runs again once on a new connection.
                await self._let_go()
                await self._engine.dispose()
                held = await self._checkout()
                rows = await self._run(held, kept.sql, parameters)
            held.used_at = time.monotonic()
            self._idle.append(held)  # at most `size`: one per turn
        return rows

    @staticmethod
    async def _run(held: _Kept, sql: str, parameters: tuple[Any, ...]) -> Sequence[Any]:
        told = held.connection.sync_connection
        if told is not None and told.dispatch.before_cursor_execute:
            told.dispatch.before_cursor_execute(told, None, sql, parameters, None, False)
        try:
            rows: Sequence[Any] = await held.driver.fetch(sql, *parameters)
        except BaseException:  # a lost connection, a cancel mid-protocol: not kept
            await held.connection.invalidate()
            await held.connection.close()
            raise
        return rows

    async def _let_go(self) -> None:
        """Every kept connection invalidated: none goes back to the pool unchecked."""
        idle, self._idle = self._idle, []
        for held in idle:
            await held.connection.invalidate()
            await held.connection.close()

    async def close(self) -> None:
        """Every kept connection back to the engine's pool."""
        idle, self._idle = self._idle, []
        for held in idle:
            await held.connection.close()

    async def _checkout(self) -> _Kept:
        """A connection kept from an earlier read, else a new checkout."""
        now = time.monotonic()
        while self._idle:
            held = self._idle.pop()
            if now - held.used_at < self._idle_seconds:
                return held
            await held.connection.close()
        connection = await self._engine.connect()
        try:
            driver = (await connection.get_raw_connection()).driver_connection
        except BaseException:
            await connection.close()
            raise
        return _Kept(connection, driver, now)
