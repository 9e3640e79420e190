"""Bulk reads and writes of finalization: asyncpg's COPY and plain fetches on PostgreSQL (tens
of thousands of rows in well under a second), Core executemany elsewhere (SQLite)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import orjson
from sqlalchemy import JSON, Table, insert, null, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons.models import Trial, TrialState

BATCH = 5000

TrialRow = tuple[
    int, int, int, bool, bool | None, float | None, tuple[bool | None, ...],
    tuple[float | None, ...], str | None, int, int, int, int, int, str | None,
]  # fmt: skip
"""(case, cohort, trial, completed, passed, score, each check's pass and score, output,
tool calls, input tokens, output tokens, cost micros, latency ms, error code)."""


def _pg_trials(checks: int, outputs: bool) -> str:
    """The trial rows with each check's result taken apart in SQL (no JSON reaches Python);
    the outputs as NULL unless `outputs`."""
    results = "".join(
        f", (check_results->{j}->>'passed')::boolean, (check_results->{j}->>'score')::float8"
        for j in range(checks)
    )
    return f"""
SELECT case_ordinal, cohort_index, trial_index, state = 'COMPLETED', passed, score,
       {"output" if outputs else "NULL::text"},
       CASE WHEN jsonb_typeof(tool_calls) = 'array' THEN jsonb_array_length(tool_calls)
            ELSE 0 END,
       input_tokens, output_tokens, cost_micros, latency_ms, error_code{results}
FROM trial WHERE comparison_id = $1 AND case_ordinal >= $2 AND case_ordinal < $3
ORDER BY case_ordinal, cohort_index, trial_index
"""


def _results(value: Any, checks: int) -> tuple[tuple[bool | None, ...], tuple[float | None, ...]]:
    found = value if isinstance(value, list) else []
    passed: list[bool | None] = []
    scores: list[float | None] = []
    for j in range(checks):
        result = found[j] if j < len(found) and isinstance(found[j], dict) else {}
        passed.append(None if result.get("passed") is None else bool(result["passed"]))
        score = result.get("score")
        scores.append(float(score) if isinstance(score, int | float) else None)
    return tuple(passed), tuple(scores)


async def driver(session: AsyncSession) -> Any:
    connection = await session.connection()
    raw = await connection.get_raw_connection()
    return raw.driver_connection


def table(model: type[Any]) -> Table:
    """A mapped class's Core table, for `insert_rows`."""
    return cast(Table, model.__table__)


def is_postgres(session: AsyncSession) -> bool:
    return session.get_bind().dialect.name == "postgresql"


async def fetch_trials(
    session: AsyncSession,
    comparison_id: str,
    checks: int,
    *,
    outputs: bool,
    first: int,
    end: int,
) -> list[TrialRow]:
    """The comparison's trial rows of cases `first` ≤ ordinal < `end` in case-major order,
    with `checks` check results (and each output only if `outputs`: the verdict needs none)."""
    if is_postgres(session):
        connection = await driver(session)
        records = await connection.fetch(_pg_trials(checks, outputs), comparison_id, first, end)
        end = 13 + 2 * checks
        return [(*r[0:6], tuple(r[13:end:2]), tuple(r[14:end:2]), *r[6:13]) for r in records]
    rows = await session.execute(
        select(
            Trial.case_ordinal,
            Trial.cohort_index,
            Trial.trial_index,
            Trial.state,
            Trial.passed,
            Trial.score,
            Trial.check_results,
            Trial.output if outputs else null(),
            Trial.tool_calls,
            Trial.input_tokens,
            Trial.output_tokens,
            Trial.cost_micros,
            Trial.latency_ms,
            Trial.error_code,
        )
        .where(
            Trial.comparison_id == comparison_id,
            Trial.case_ordinal >= first,
            Trial.case_ordinal < end,
        )
        .order_by(Trial.case_ordinal, Trial.cohort_index, Trial.trial_index)
    )
    return [
        (
            int(r[0]),
            int(r[1]),
            int(r[2]),
            r[3] == TrialState.COMPLETED,
            r[4],
            r[5],
            *_results(r[6], checks),
            r[7],
            len(r[8]) if isinstance(r[8], list) else 0,
            int(r[9] or 0),
            int(r[10] or 0),
            int(r[11] or 0),
            int(r[12] or 0),
            r[13],
        )  # fmt: skip
        for r in rows
    ]


def _json(value: Any) -> str:
    """A JSON column's text for COPY: orjson, about ten times `json.dumps` (0.2 s of the
    5,000 case rows' documents before)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


async def insert_rows(session: AsyncSession, table: Table, rows: Sequence[dict[str, Any]]) -> None:
    """Insert `rows` (dicts keyed by column name, all with the same keys) in the session's
    transaction: COPY on PostgreSQL, batched executemany elsewhere."""
    if not rows:
        return
    if not is_postgres(session):
        for low in range(0, len(rows), BATCH):
            await session.execute(insert(table), list(rows[low : low + BATCH]))
        return
    columns = list(rows[0])
    documents = {name for name in columns if isinstance(table.c[name].type, JSON)}
    records = [
        tuple(
            (None if row[name] is None else _json(row[name])) if name in documents else row[name]
            for name in columns
        )
        for row in rows
    ]
    connection = await driver(session)
    await connection.copy_records_to_table(table.name, records=records, columns=columns)
