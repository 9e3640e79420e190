"""One statement writes a batch of outcomes and returns exactly the rows it wrote.

The batch travels as one JSON array parameter (PostgreSQL `jsonb_to_recordset`, SQLite
`json_each`) into an `UPDATE … FROM … RETURNING`: one round trip whatever its size, and the
counters are derived from the returned rows only (an outcome whose checkpoint is gone —
already closed — writes nothing and counts nothing).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import BigInteger, bindparam, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons.models import TrialState
from server.db import UTCDateTime
from server.dispatch.outcomes import TrialOutcome

_COLUMNS = (
    ("state", "text"),
    ("output", "text"),
    ("tool_calls", "jsonb"),
    ("input_tokens", "integer"),
    ("output_tokens", "integer"),
    ("cost_micros", "bigint"),
    ("latency_ms", "integer"),
    ("attempts", "integer"),
    ("error_code", "text"),
    ("passed", "boolean"),
    ("score", "double precision"),
    ("check_results", "jsonb"),
)

_RETURNING = "RETURNING trial.cohort_index, trial.connection_id, trial.state, trial.cost_micros"
_WHERE = "trial.state = 'ADMITTED'"

_POSTGRES = text(
    "UPDATE trial SET "
    + ", ".join(f"{name} = v.{name}" for name, _ in _COLUMNS)
    + ", completed_at = :now FROM jsonb_to_recordset(CAST(:rows AS jsonb)) AS v(id bigint, "
    + ", ".join(f"{name} {kind}" for name, kind in _COLUMNS)
    # `= ANY(:ids)` makes the planner find the rows by primary key (a hash join over the
    # whole table otherwise): O(batch), whatever the table's size.
    + f") WHERE trial.id = v.id AND trial.id = ANY(:ids) AND {_WHERE} {_RETURNING}"
).bindparams(bindparam("now", type_=UTCDateTime()), bindparam("ids", type_=ARRAY(BigInteger())))

_SQLITE = text(
    "UPDATE trial SET "
    + ", ".join(f"{name} = json_extract(v.value, '$.{name}')" for name, _ in _COLUMNS)
    + ", completed_at = :now FROM json_each(:rows) AS v"
    + f" WHERE trial.id = json_extract(v.value, '$.id') AND {_WHERE} {_RETURNING}"
).bindparams(bindparam("now", type_=UTCDateTime()))


@dataclass(frozen=True, slots=True)
class Written:
    """One trial row the batch wrote."""

    cohort_index: int
    connection_id: str
    failed: bool
    cost_micros: int


def _row(outcome: TrialOutcome) -> dict[str, Any]:
    row: dict[str, Any] = {
        "id": outcome.trial_id,
        "state": outcome.state.value,
        "input_tokens": outcome.input_tokens,
        "output_tokens": outcome.output_tokens,
        "cost_micros": outcome.cost_micros,
        "latency_ms": outcome.latency_ms,
        "attempts": outcome.attempts,
    }
    # Absent keys read as SQL NULL on both backends.
    for name in ("output", "tool_calls", "error_code", "passed", "score", "check_results"):
        value = getattr(outcome, name)
        if value is not None:
            row[name] = value
    return row


async def write_outcomes(
    session: AsyncSession, outcomes: Sequence[TrialOutcome], *, now: datetime
) -> list[Written]:
    """Write the outcomes onto their ADMITTED checkpoints; the rows written."""
    if not outcomes:
        return []
    postgres = session.get_bind().dialect.name == "postgresql"
    rows = orjson.dumps([_row(o) for o in outcomes]).decode()
    if postgres:
        ids = [o.trial_id for o in outcomes]
        result = await session.execute(_POSTGRES, {"rows": rows, "now": now, "ids": ids})
    else:
        result = await session.execute(_SQLITE, {"rows": rows, "now": now})
    return [
        Written(
            cohort_index=int(cohort_index),
            connection_id=str(connection_id),
            failed=state == TrialState.ERRORED.value,
            cost_micros=int(cost or 0),
        )
        for cohort_index, connection_id, state, cost in result.all()
    ]
