"""Admission's checkpoints: one Core statement inserts a batch of ADMITTED trial rows.

On PostgreSQL the batch travels as five arrays into `INSERT … SELECT … FROM unnest(…)`:
one round trip and five bound values whatever its size (through the ORM's bulk path,
SQLAlchemy built and processed nine bound values per row, 5–7% of the worker's time at 0 ms:
docs/benchmarks.md, "Dispatch at the physical limit"). The ids come back with each row's key,
so they are matched to the items by key, not by the order of `RETURNING`. SQLite takes a Core
executemany.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from sqlalchemy import BigInteger, Integer, String, Table, bindparam, insert, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons.models import Trial, TrialState
from server.db import UTCDateTime
from server.dispatch.plan import WorkItem

_ZEROED = ("attempts", "input_tokens", "output_tokens", "cost_micros", "latency_ms")
"""Columns with a Python-side default of 0 (a Core `text` statement must name them)."""

_POSTGRES = text(
    "INSERT INTO trial (comparison_id, case_ordinal, cohort_index, trial_index, connection_id,"
    " state, delivery_id, lease_token, admitted_at, "
    + ", ".join(_ZEROED)
    + ") SELECT :comparison_id, u.o, u.c, u.t, u.k, :state, :delivery_id, u.l, :now, "
    + ", ".join("0" for _ in _ZEROED)
    + " FROM unnest(:ordinals, :cohorts, :trials, :connections, :tokens) AS u(o, c, t, k, l)"
    " RETURNING id, case_ordinal, cohort_index, trial_index"
).bindparams(
    bindparam("now", type_=UTCDateTime()),
    bindparam("ordinals", type_=ARRAY(Integer())),
    bindparam("cohorts", type_=ARRAY(Integer())),
    bindparam("trials", type_=ARRAY(Integer())),
    bindparam("connections", type_=ARRAY(String())),
    bindparam("tokens", type_=ARRAY(BigInteger())),
)

_TABLE: Table = Trial.__table__  # type: ignore[assignment]
_CORE = insert(_TABLE).returning(_TABLE.c.id, sort_by_parameter_order=True)


async def insert_admitted(
    session: AsyncSession,
    *,
    comparison_id: str,
    items: Sequence[WorkItem],
    connection_of: Mapping[int, str],
    tokens: Sequence[int],
    delivery_id: str,
    now: datetime,
) -> list[int]:
    """Insert `items` as ADMITTED (`tokens[i]`: item i's range fencing token); their ids,
    in the order of `items`."""
    if not items:
        return []
    if session.get_bind().dialect.name != "postgresql":
        rows = [
            {
                "comparison_id": comparison_id,
                "case_ordinal": item.case_ordinal,
                "cohort_index": item.cohort_index,
                "trial_index": item.trial_index,
                "connection_id": connection_of[item.cohort_index],
                "state": TrialState.ADMITTED,
                "delivery_id": delivery_id,
                "lease_token": token,
                "admitted_at": now,
            }
            for item, token in zip(items, tokens, strict=True)
        ]
        return [int(i) for i in (await session.execute(_CORE, rows)).scalars().all()]
    result = await session.execute(
        _POSTGRES,
        {
            "comparison_id": comparison_id,
            "state": TrialState.ADMITTED.value,
            "delivery_id": delivery_id,
            "now": now,
            "ordinals": [item.case_ordinal for item in items],
            "cohorts": [item.cohort_index for item in items],
            "trials": [item.trial_index for item in items],
            "connections": [connection_of[item.cohort_index] for item in items],
            "tokens": list(tokens),
        },
    )
    ids = {(int(o), int(c), int(t)): int(i) for i, o, c, t in result.all()}
    return [ids[(item.case_ordinal, item.cohort_index, item.trial_index)] for item in items]
