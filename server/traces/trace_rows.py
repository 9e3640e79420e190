"""The `trace` rows an export's traces lack, inserted with their summaries (server/traces/store.py
decides when). On PostgreSQL one statement over arrays, a column each (`INSERT … SELECT … FROM
unnest(…) ON CONFLICT DO NOTHING RETURNING id`): asyncpg encodes the arrays in C, where
SQLAlchemy's multi-row `INSERT` built and bound ~1,100 parameters an export in Python; SQLite
takes that `INSERT`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import TextClause, text
from sqlalchemy.ext.asyncio import AsyncSession

from server.traces.models import Trace
from server.traces.span_rows import insert_of
from server.traces.summary import SUMMARY_FIELDS

_ARRAY_TYPES = {
    "service": "text",
    "release": "text",
    "started_at": "timestamptz",
    "duration_ms": "float8",
    "status": "text",
    "root_name": "text",
    "input": "text",
    "output": "text",
    "models": "jsonb",
    "step_count": "int4",
    "llm_calls": "int4",
    "tool_calls": "int4",
    "input_tokens": "int8",
    "output_tokens": "int8",
    "cost_micros": "int8",
    "case_id": "text",
    "expected": "text",
    "span_feedback": "jsonb",
    "model_key": "text",
    "has_feedback": "bool",
}
"""Each summary column (`summary_columns`) and the type its array is sent as; JSONB as text."""
COLUMNS = (*SUMMARY_FIELDS, "model_key", "has_feedback")
_JSON = frozenset(name for name in COLUMNS if _ARRAY_TYPES[name] == "jsonb")


def _statement() -> TextClause:
    arrays = ", ".join(
        f"CAST(:{name} AS {'text' if _ARRAY_TYPES[name] == 'jsonb' else _ARRAY_TYPES[name]}[])"
        for name in COLUMNS
    )
    values = ", ".join(f"CAST({name} AS jsonb)" if name in _JSON else name for name in COLUMNS)
    return text(
        f"INSERT INTO {Trace.__tablename__} (workspace_id, id, updated_at, {', '.join(COLUMNS)}) "
        f"SELECT CAST(:workspace_id AS text), id, CAST(:now AS timestamptz), {values} "
        f"FROM unnest(CAST(:ids AS text[]), {arrays}) AS given(id, {', '.join(COLUMNS)}) "
        "ON CONFLICT DO NOTHING RETURNING id"
    )


_INSERT = _statement()


async def insert_missing(
    session: AsyncSession,
    workspace_id: str,
    summaries: dict[str, dict[str, Any]],
    now: datetime,
) -> set[str]:
    """Each trace's row, with its summary columns, where the workspace has none (in id
    order); the ids inserted."""
    ids = sorted(summaries)
    if session.get_bind().dialect.name != "postgresql":
        table = Trace.__table__
        rows = [
            {"workspace_id": workspace_id, "id": t, **summaries[t], "updated_at": now} for t in ids
        ]
        result = await session.execute(  # executemany: pages of multi-row VALUES
            insert_of(session, table).on_conflict_do_nothing().returning(table.c.id), rows
        )
        return set(result.scalars())
    columns = {
        name: [_json(summaries[t][name]) for t in ids]
        if name in _JSON
        else [summaries[t][name] for t in ids]
        for name in COLUMNS
    }
    # one set of parameters, not a row each: SQLAlchemy binds 23 values, asyncpg encodes the
    # arrays (through the session, so in its transaction, begun if it was not)
    found = await session.execute(
        _INSERT, {"workspace_id": workspace_id, "ids": ids, "now": now, **columns}
    )
    return set(found.scalars())


def _json(value: object) -> str:
    return orjson.dumps(value).decode()
