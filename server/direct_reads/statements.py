"""A Core statement compiled once per dialect and run on the driver's own connection.

Through `exec_driver_sql` a direct read still paid SQLAlchemy's per-execution work (its
cursor adapter, the result's metadata, a `Row` per row): 0.41 ms a page against 0.27 on
the asyncpg connection it wraps. So the statement runs on that connection, checked out of
the engine's pool as ever; listeners of `before_cursor_execute` (logging, the tests'
statement counts) are told of it as SQLAlchemy tells them, and a connection that failed
mid-statement is invalidated rather than pooled. Rows are the driver's records, read by
column name: strings for enum columns, JSON already parsed (the engine's codec), aware
datetimes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy import Select
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine

DATABASE_ERRORS = (SQLAlchemyError, asyncpg.PostgresError, asyncpg.InterfaceError, OSError)
"""What a direct read raises when the database is away or refuses: the schema answers
then, as it answers any other database failure."""


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


async def fetch(
    engine: AsyncEngine, statement: Select[Any], values: Mapping[str, Any]
) -> Sequence[Any]:
    """The rows of `statement` with its bound parameters from `values` (PostgreSQL): the
    driver's records, by column name or position."""
    kept = compiled(statement, engine.dialect)
    bound = {**kept.defaults, **values}
    parameters = tuple(bound[name] for name in kept.names)
    async with engine.connect() as connection:
        driver = (await connection.get_raw_connection()).driver_connection
        assert driver is not None
        told = connection.sync_connection
        if told is not None and told.dispatch.before_cursor_execute:
            told.dispatch.before_cursor_execute(told, None, kept.sql, parameters, None, False)
        try:
            rows: Sequence[Any] = await driver.fetch(kept.sql, *parameters)
        except BaseException:  # a lost connection, a cancel mid-protocol: not back to the pool
            await connection.invalidate()
            raise
        return rows
