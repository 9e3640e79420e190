"""Span rows written in bulk (server/traces/store.py decides which): the spans of traces this
request created cannot be stored yet, so on PostgreSQL they go in by one binary `COPY` (no
statement to compile, no conflict to check); the spans of traces stored before go in by
multi-row `INSERT … ON CONFLICT DO NOTHING`, which says which of them were new."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from server.traces.models import TraceSpan
from server.traces.spans import ReceivedSpan
from server.traces.steps import Step, step_document

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
_JSON_COLUMNS = frozenset({"step", "attributes"})


def insert_of(session: AsyncSession, table: Any) -> Any:
    """The dialect's `INSERT` (both have `ON CONFLICT DO NOTHING`)."""
    dialect = session.get_bind().dialect.name
    return (pg_insert if dialect == "postgresql" else sqlite_insert)(table)


def span_row(
    workspace_id: str, span: ReceivedSpan, step: Step, received_at: datetime
) -> dict[str, Any]:
    """The `trace_span` row of a span already read as `step`."""
    events = [
        {"name": e.name, "timeUnixNano": e.time_unix_nano, "attributes": e.attributes}
        for e in span.events
    ]
    return {
        "workspace_id": workspace_id,
        "trace_id": span.trace_id,
        "span_id": span.span_id,
        "parent_span_id": span.parent_span_id,
        "started_at": step.startedAt,
        "service": service_of(span),
        "step": step_document(step),
        "attributes": {"span": span.attributes, "resource": span.resource, "events": events},
        "received_at": received_at,
    }


def service_of(span: ReceivedSpan) -> str | None:
    name = span.resource.get("service.name")
    return str(name)[:200] if name is not None else None


async def write_unstored(session: AsyncSession, rows: Sequence[dict[str, Any]]) -> None:
    """Rows none of which can be stored yet (their traces were created in this transaction)."""
    if not rows:
        return
    if session.get_bind().dialect.name != "postgresql":
        await session.execute(insert_of(session, _TABLE), list(rows))
        return
    connection = await session.connection()
    driver = (await connection.get_raw_connection()).driver_connection
    assert driver is not None, "an open connection has its asyncpg connection"
    records = [
        tuple(_json_text(row[c]) if c in _JSON_COLUMNS else row[c] for c in COLUMNS) for row in rows
    ]
    # the session's own connection: the copy commits or rolls back with its transaction
    await driver.copy_records_to_table(TraceSpan.__tablename__, records=records, columns=COLUMNS)


async def insert_new(session: AsyncSession, rows: Sequence[dict[str, Any]]) -> set[tuple[str, str]]:
    """Insert the rows not stored yet; the (trace id, span id) of those inserted."""
    if not rows:
        return set()
    result = await session.execute(  # executemany: SQLAlchemy pages it into multi-row VALUES
        insert_of(session, _TABLE)
        .on_conflict_do_nothing()
        .returning(_TABLE.c.trace_id, _TABLE.c.span_id),
        list(rows),
    )
    return {(trace_id, span_id) for trace_id, span_id in result.all()}


def _json_text(document: object) -> str:
    """A JSONB value as text for asyncpg's codec (as SQLAlchemy's own bind would send it)."""
    try:
        return orjson.dumps(document).decode()
    except TypeError:  # an integer past 64 bits, which only `json` writes
        return json.dumps(document)
