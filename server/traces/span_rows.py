"""Span rows written in bulk (server/traces/store.py decides which): the spans of traces this
request created cannot be stored yet, so on PostgreSQL they go in by one binary `COPY` (no
statement to compile, no conflict to check), the bytes `prepare` encoded (`copy_rows`); the
spans of traces stored before go in by multi-row `INSERT … ON CONFLICT DO NOTHING`, which
says which of them were new."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from server.traces import copy_rows
from server.traces.copy_rows import SpanRow
from server.traces.models import TraceSpan
from server.traces.prepare import row_values

_TABLE = TraceSpan.__table__
"""Rows go in through the table, not the ORM entity: no per-value ORM coercion."""


def insert_of(session: AsyncSession, table: Any) -> Any:
    """The dialect's `INSERT` (both have `ON CONFLICT DO NOTHING`)."""
    dialect = session.get_bind().dialect.name
    return (pg_insert if dialect == "postgresql" else sqlite_insert)(table)


async def write_unstored(session: AsyncSession, rows: list[bytes]) -> None:
    """Rows none of which can be stored yet (their traces were created in this transaction),
    as `copy_rows` encoded them."""
    if not rows:
        return
    if session.get_bind().dialect.name != "postgresql":
        values = [row_values(copy_rows.decode(row)) for row in rows]
        await session.execute(insert_of(session, _TABLE), values)
        return
    connection = await session.connection()
    driver = (await connection.get_raw_connection()).driver_connection
    assert driver is not None, "an open connection has its asyncpg connection"
    # the session's own connection: the copy commits or rolls back with its transaction, which
    # a statement through the session has begun (the driver alone would autocommit)
    assert driver.is_in_transaction(), "the session's transaction has begun"
    await driver.copy_to_table(
        TraceSpan.__tablename__,
        source=copy_rows.payload(rows),
        columns=copy_rows.COLUMNS,
        format="binary",
    )


async def insert_new(session: AsyncSession, rows: Sequence[SpanRow]) -> set[tuple[str, str]]:
    """Insert the rows not stored yet; the (trace id, span id) of those inserted."""
    if not rows:
        return set()
    result = await session.execute(  # executemany: SQLAlchemy pages it into multi-row VALUES
        insert_of(session, _TABLE)
        .on_conflict_do_nothing()
        .returning(_TABLE.c.trace_id, _TABLE.c.span_id),
        [row_values(row) for row in rows],
    )
    return {(trace_id, span_id) for trace_id, span_id in result.all()}
