"""Span rows written in bulk (server/traces/store.py decides which): the spans of traces this
request created cannot be stored yet, so on PostgreSQL they go in by one binary `COPY` (no
statement to compile, no conflict to check), their JSON as the text `prepare` wrote; the
spans of traces stored before go in by multi-row `INSERT … ON CONFLICT DO NOTHING`, which
says which of them were new."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from server.traces.models import TraceSpan
from server.traces.prepare import SpanRow, row_values

_TABLE = TraceSpan.__table__
"""Rows go in through the table, not the ORM entity: no per-value ORM coercion."""

COLUMNS = (
    "workspace_id",
    "trace_id",
    "span_id",
    "parent_span_id",
    "started_at",
    "service",
    "step",
    "attributes",
    "received_at",
)
"""The `COPY`'s columns: the workspace, `SpanRow`'s fields in order, the time received."""


def insert_of(session: AsyncSession, table: Any) -> Any:
    """The dialect's `INSERT` (both have `ON CONFLICT DO NOTHING`)."""
    dialect = session.get_bind().dialect.name
    return (pg_insert if dialect == "postgresql" else sqlite_insert)(table)


async def write_unstored(
    session: AsyncSession, workspace_id: str, rows: Sequence[SpanRow], received_at: datetime
) -> None:
    """Rows none of which can be stored yet (their traces were created in this transaction)."""
    if not rows:
        return
    if session.get_bind().dialect.name != "postgresql":
        values = [row_values(workspace_id, row, received_at) for row in rows]
        await session.execute(insert_of(session, _TABLE), values)
        return
    connection = await session.connection()
    driver = (await connection.get_raw_connection()).driver_connection
    assert driver is not None, "an open connection has its asyncpg connection"
    records = [(workspace_id, *row, received_at) for row in rows]
    # the session's own connection: the copy commits or rolls back with its transaction
    await driver.copy_records_to_table(TraceSpan.__tablename__, records=records, columns=COLUMNS)


async def insert_new(
    session: AsyncSession, workspace_id: str, rows: Sequence[SpanRow], received_at: datetime
) -> set[tuple[str, str]]:
    """Insert the rows not stored yet; the (trace id, span id) of those inserted."""
    if not rows:
        return set()
    result = await session.execute(  # executemany: SQLAlchemy pages it into multi-row VALUES
        insert_of(session, _TABLE)
        .on_conflict_do_nothing()
        .returning(_TABLE.c.trace_id, _TABLE.c.span_id),
        [row_values(workspace_id, row, received_at) for row in rows],
    )
    return {(trace_id, span_id) for trace_id, span_id in result.all()}
