"""Writing a chunk's items and scores, and reading back which of its positions are taken."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import insert as sql_insert
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from server.errors import Conflict
from server.runs.grading import ungraded
from server.runs.items import ItemRow
from server.runs.models import RunItem, RunItemScore

_ITEMS = RunItem.metadata.tables[RunItem.__tablename__]
_SCORES = RunItemScore.metadata.tables[RunItemScore.__tablename__]
INSERT_BATCH = 1000
ITEM_COLUMNS = (
    "run_id", "position", "dataset_item_id", "input", "trials",
    "trial_count", "graded_count", "passed_count",
)  # fmt: skip
SCORE_COLUMNS = ("run_id", "position", "evaluator", "mean", "count")


async def insert(session: AsyncSession, run_id: str, rows: list[ItemRow]) -> None:
    """The items and their scores: COPY on PostgreSQL (several times faster), else INSERTs.

    A position already taken raises IntegrityError either way.
    """
    connection = await session.connection()
    if connection.dialect.name == "postgresql":
        await _copy(connection, run_id, rows)
        return
    items: list[dict[str, Any]] = []
    scores: list[dict[str, Any]] = []
    for row in rows:
        position = row["position"]
        items.append(
            {
                "run_id": run_id,
                "position": position,
                "dataset_item_id": row["dataset_item_id"],
                "input": row["input"],
                "trials": row["trials"],
                "trial_count": row["trial_count"],
                "graded_count": row["graded_count"],
                "passed_count": row["passed_count"],
            }
        )
        scores.extend({"run_id": run_id, "position": position, **s} for s in row["scores"])
    for low in range(0, len(items), INSERT_BATCH):
        await session.execute(sql_insert(_ITEMS), items[low : low + INSERT_BATCH])
    for low in range(0, len(scores), INSERT_BATCH):
        await session.execute(sql_insert(_SCORES), scores[low : low + INSERT_BATCH])


async def _copy(connection: Any, run_id: str, rows: list[ItemRow]) -> None:
    import asyncpg  # type: ignore[import-untyped]

    items: list[tuple[Any, ...]] = []
    scores: list[tuple[Any, ...]] = []
    for row in rows:
        position = row["position"]
        items.append(
            (
                run_id,
                position,
                row["dataset_item_id"],
                json.dumps(row["input"]),
                json.dumps(row["trials"]),
                row["trial_count"],
                row["graded_count"],
                row["passed_count"],
            )
        )
        scores.extend(
            (run_id, position, s["evaluator"], s["mean"], s["count"]) for s in row["scores"]
        )
    raw = (await connection.get_raw_connection()).driver_connection
    try:
        await raw.copy_records_to_table("run_item", records=items, columns=ITEM_COLUMNS)
        if scores:
            await raw.copy_records_to_table("run_item_score", records=scores, columns=SCORE_COLUMNS)
    except asyncpg.UniqueViolationError as error:
        raise IntegrityError("COPY run_item", None, error) from None


async def stored_positions(
    session: AsyncSession,
    run_id: str,
    rows: list[ItemRow],
    checks: list[dict[str, Any]] | None = None,
) -> set[int]:
    """The chunk's positions already stored; CONFLICT unless they hold these very items
    (`rows` as sent: what the server's `checks` set on the stored ones is not compared)."""
    wanted = {row["position"]: row for row in rows}
    taken = (
        set(
            await session.scalars(
                select(RunItem.position).where(
                    RunItem.run_id == run_id,
                    RunItem.position >= min(wanted),
                    RunItem.position <= max(wanted),
                )
            )
        )
        & wanted.keys()
    )
    ordered = sorted(taken)
    for low in range(0, len(ordered), 1000):
        stored = await session.execute(
            select(RunItem.position, RunItem.dataset_item_id, RunItem.input, RunItem.trials).where(
                RunItem.run_id == run_id, RunItem.position.in_(ordered[low : low + 1000])
            )
        )
        for position, item_id, input_, trials in stored:
            row = wanted[position]
            if (item_id, _canonical(input_), ungraded(trials, checks)) != (
                row["dataset_item_id"],
                _canonical(row["input"]),
                ungraded(row["trials"], checks),
            ):
                raise Conflict(
                    f"item {position} differs from the one this run already holds there: "
                    "an idempotent retry must send the same items",
                    reason="ITEMS_DIFFER",
                    position=position,
                )
    return taken


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))
