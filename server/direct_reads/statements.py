"""A Core statement compiled once per dialect and run on the driver, its rows unprocessed.

Running a compiled statement through `exec_driver_sql` skips SQLAlchemy's per-execution
work (the compiled-cache lookup, the ORM's entities, every column's result processor)
while keeping its connection pool, its events and its error wrapping. Rows come back as
the driver decodes them: strings for enum columns, JSON already parsed (the engine's
codec), aware datetimes from PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import Row, Select
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncEngine


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
) -> Sequence[Row[Any]]:
    """The rows of `statement` with its bound parameters from `values`."""
    kept = compiled(statement, engine.dialect)
    bound = {**kept.defaults, **values}
    async with engine.connect() as connection:
        result = await connection.exec_driver_sql(
            kept.sql, tuple(bound[name] for name in kept.names)
        )
        return result.all()
