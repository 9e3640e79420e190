"""The SQL of a run diff: items paired in the database, per-item differences computed there.

Two runs are paired by `datasetItemId` when every item of both carries one, else by
position (`datasetItemId` is unique in a run, positions too, so pairs are one to one).
The summary reads, in one PostgreSQL statement as arrays (elsewhere two queries): each
pair's passed and graded counts on both sides (what the paired pass-rate tests take) and
each evaluator's per-pair differences with both sides' means. The case list pages in SQL
with the status expression of `server.runs.statuses`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy import ColumnElement, and_, case, exists, func, literal, select, text
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from server.runs import vectors as run_vectors
from server.runs.models import RunItem, RunItemScore
from server.runs.statuses import ADDED, REMOVED, IntArray, sql_status

DATASET_ITEM_ID = "DATASET_ITEM_ID"
POSITIONAL = "POSITIONAL"


@dataclass(frozen=True, slots=True)
class Sides:
    """The two runs of a diff and how their items pair."""

    candidate: str
    baseline: str
    pairing: str


@dataclass(frozen=True, slots=True)
class PairVectors:
    """Every matched pair, by candidate position: both sides' passed and graded counts."""

    positions: IntArray
    candidate_passed: IntArray
    candidate_graded: IntArray
    baseline_passed: IntArray
    baseline_graded: IntArray


@dataclass(frozen=True, slots=True)
class EvaluatorVector:
    """One evaluator over the pairs both sides scored: the pairs' candidate positions, their
    differences (candidate − baseline, computed in SQL) and each side's mean over them."""

    name: str
    positions: IntArray
    differences: np.ndarray[Any, np.dtype[np.float64]]
    candidate_mean: float
    baseline_mean: float


async def is_postgres(session: AsyncSession) -> bool:
    return (await session.connection()).dialect.name == "postgresql"


async def pin_join_order(session: AsyncSession, *, nested_loops: bool = False) -> None:
    """PostgreSQL: join in the order written, each join on a whole key.

    Right after an import the planner's statistics may still say a run has a few dozen
    items; left free, it may then hash-join two runs' scores on the evaluator name alone,
    a product of the runs. In the written order every join has its full key. A page of
    cases wants index lookups in position order, so it may also rule out hash and merge
    joins (it reads a few dozen rows past a cursor); those make its estimated cost look
    huge, so JIT compilation (tens of milliseconds) is off too.
    """
    if not await is_postgres(session):
        return
    settings = {"join_collapse_limit": "1", "jit": "off"}
    if nested_loops:
        settings |= {"enable_hashjoin": "off", "enable_mergejoin": "off"}
    else:
        settings["work_mem"] = "64MB"
    calls = ", ".join(f"set_config('{name}', '{value}', true)" for name, value in settings.items())
    await session.execute(text(f"SELECT {calls}"))  # one round trip; `true`: this transaction


async def pairing(session: AsyncSession, candidate: str, baseline: str) -> str:
    """DATASET_ITEM_ID when every item of both runs carries one, else POSITIONAL."""
    for run_id in (candidate, baseline):
        missing = await session.scalar(
            select(exists().where(RunItem.run_id == run_id, RunItem.dataset_item_id.is_(None)))
        )
        if missing:
            return POSITIONAL
    return DATASET_ITEM_ID


def _items(sides: Sides) -> tuple[Any, Any, ColumnElement[bool]]:
    """Aliases for the candidate's and the baseline's items, and the pairing condition."""
    c = aliased(RunItem, name="c")
    b = aliased(RunItem, name="b")
    if sides.pairing == DATASET_ITEM_ID:
        on = and_(b.run_id == sides.baseline, b.dataset_item_id == c.dataset_item_id)
    else:
        on = and_(b.run_id == sides.baseline, b.position == c.position)
    return c, b, on


def _ints(values: Sequence[Any]) -> IntArray:
    return np.asarray(values, dtype=np.int64)


_POSTGRES_VECTORS = """
WITH pairs AS MATERIALIZED (
  SELECT c.position AS cpos, b.position AS bpos, c.passed_count AS cp, c.graded_count AS cg,
         b.passed_count AS bp, b.graded_count AS bg
  FROM run_item AS c JOIN run_item AS b ON b.run_id = :baseline AND {pairing}
  WHERE c.run_id = :candidate
),
scores AS (
  SELECT cs.evaluator AS name, array_agg(p.cpos) AS positions,
         array_agg(cs.mean - bs.mean) AS d, avg(cs.mean) AS cm, avg(bs.mean) AS bm
  FROM pairs AS p
  JOIN run_item_score AS cs ON cs.run_id = :candidate AND cs.position = p.cpos
  JOIN run_item_score AS bs
    ON bs.run_id = :baseline AND bs.position = p.bpos AND bs.evaluator = cs.evaluator
  GROUP BY cs.evaluator
)
SELECT NULL::text, array_agg(cpos), array_agg(cp), array_agg(cg), array_agg(bp), array_agg(bg),
       NULL::float8[], NULL::float8, NULL::float8
FROM pairs
UNION ALL
SELECT name, positions, NULL, NULL, NULL, NULL, d, cm, bm FROM scores
"""
_PAIRING_SQL = {
    DATASET_ITEM_ID: "b.dataset_item_id = c.dataset_item_id",
    POSITIONAL: "b.position = c.position",
}


async def vectors(session: AsyncSession, sides: Sides) -> tuple[PairVectors, list[EvaluatorVector]]:
    """The pairs' counts and each evaluator's means over the pairs both sides scored.

    PostgreSQL zips the runs' `RunVector` rows when they hold the same keys, else pairs
    the items once (a materialized CTE); either way every vector comes back as an array in
    one statement. Elsewhere two plain queries.
    """
    if not await is_postgres(session):
        return await pair_vectors(session, sides), await evaluator_vectors(session, sides)
    rows = await run_vectors.zipped(session, sides.candidate, sides.baseline, sides.pairing)
    if rows is None:
        sql = text(_POSTGRES_VECTORS.format(pairing=_PAIRING_SQL[sides.pairing]))
        params = {"candidate": sides.candidate, "baseline": sides.baseline}
        rows = list((await session.execute(sql, params)).all())
    pairs = next(row for row in rows if row[0] is None)
    found = [(row[0], row[1], row[6], row[7], row[8]) for row in rows if row[0] is not None]
    return _pairs(list(pairs[1:6])), _evaluators(found)


def _pairs(columns: list[Sequence[int] | None]) -> PairVectors:
    arrays = [_ints([] if values is None else values) for values in columns]
    order = np.argsort(arrays[0], kind="stable")
    return PairVectors(*(array[order] for array in arrays))


def _evaluators(found: list[tuple[str, Any, Any, float, float]]) -> list[EvaluatorVector]:
    vectors = []
    for name, positions, differences, cand, base in sorted(found, key=lambda row: row[0]):
        ordered = _ints(positions)
        order = np.argsort(ordered, kind="stable")
        values = np.asarray(differences, dtype=np.float64)[order]
        vectors.append(EvaluatorVector(name, ordered[order], values, float(cand), float(base)))
    return vectors


async def pair_vectors(session: AsyncSession, sides: Sides) -> PairVectors:
    """The matched pairs' counts, sorted by candidate position."""
    c, b, on = _items(sides)
    columns = (c.position, c.passed_count, c.graded_count, b.passed_count, b.graded_count)
    stmt = select(*columns).select_from(c).join(b, on).where(c.run_id == sides.candidate)
    rows = (await session.execute(stmt)).all()
    return _pairs([[r[i] for r in rows] for i in range(len(columns))])


async def evaluator_vectors(session: AsyncSession, sides: Sides) -> list[EvaluatorVector]:
    """Per evaluator, both sides' means over the matched pairs both scored, by position."""
    c, b, on = _items(sides)
    cs = aliased(RunItemScore, name="cs")
    bs = aliased(RunItemScore, name="bs")
    stmt = (
        select(cs.evaluator, c.position, cs.mean - bs.mean, cs.mean, bs.mean)
        .select_from(c)
        .join(b, on)
        .join(cs, and_(cs.run_id == sides.candidate, cs.position == c.position))
        .join(
            bs,
            and_(
                bs.run_id == sides.baseline,
                bs.position == b.position,
                bs.evaluator == cs.evaluator,
            ),
        )
        .where(c.run_id == sides.candidate)
    )
    grouped: dict[str, tuple[list[int], list[float], list[float], list[float]]] = {}
    for name, position, difference, cand, base in (await session.execute(stmt)).all():
        entry = grouped.setdefault(name, ([], [], [], []))
        entry[0].append(position)
        entry[1].append(difference)
        entry[2].append(cand)
        entry[3].append(base)
    return _evaluators(
        [
            (name, positions, diffs, sum(cands) / len(cands), sum(bases) / len(bases))
            for name, (positions, diffs, cands, bases) in grouped.items()
        ]
    )


@dataclass(frozen=True, slots=True)
class CaseRow:
    """One row of the case list: the candidate side, the baseline side, or both."""

    group: int
    position: int
    status: str
    candidate: RunItem | None
    baseline: RunItem | None


def _correlated_deltas(sides: Sides, c: Any, b: Any) -> tuple[Any, Any]:
    """The pair's smallest and largest evaluator delta, as correlated scalar subqueries."""
    cs = aliased(RunItemScore, name="cs")
    bs = aliased(RunItemScore, name="bs")
    delta = cs.mean - bs.mean
    base = (
        select()
        .select_from(cs)
        .join(
            bs,
            and_(
                bs.run_id == sides.baseline,
                bs.position == b.position,
                bs.evaluator == cs.evaluator,
            ),
        )
        .where(cs.run_id == sides.candidate, cs.position == c.position)
    )
    low = base.add_columns(func.min(delta)).scalar_subquery()
    high = base.add_columns(func.max(delta)).scalar_subquery()
    return low, high


async def matched_page(
    session: AsyncSession,
    sides: Sides,
    epsilon: float,
    *,
    statuses: Sequence[str] | None,
    after: int | None,
    limit: int,
) -> list[CaseRow]:
    """Candidate items in position order after `after`, with their partner and status.

    `statuses` None lists every candidate item (ADDED ones included); otherwise only
    matched pairs with one of these statuses.
    """
    c, b, on = _items(sides)
    low, high = _correlated_deltas(sides, c, b)
    status = case(
        (b.id.is_(None), literal(ADDED)),
        else_=sql_status(
            c.passed_count, c.graded_count, b.passed_count, b.graded_count, low, high, epsilon
        ),
    ).label("status")
    stmt = select(c, b, status).select_from(c).where(c.run_id == sides.candidate)
    stmt = stmt.outerjoin(b, on) if statuses is None else stmt.join(b, on)
    if after is not None:
        stmt = stmt.where(c.position > after)
    if statuses is not None:
        stmt = stmt.where(status.in_(statuses))
    rows = (await session.execute(stmt.order_by(c.position).limit(limit))).all()
    return [CaseRow(0, cand.position, kind, cand, base) for cand, base, kind in rows]


async def pairs_at(
    session: AsyncSession, sides: Sides, positions: Sequence[int], statuses: dict[int, str]
) -> list[CaseRow]:
    """The matched pairs at these candidate positions, in position order, with given statuses."""
    if not positions:
        return []
    c, b, on = _items(sides)
    stmt = (
        select(c, b)
        .select_from(c)
        .join(b, on)
        .where(c.run_id == sides.candidate, c.position.in_(list(positions)))
        .order_by(c.position)
    )
    rows = (await session.execute(stmt)).all()
    return [CaseRow(0, cand.position, statuses[cand.position], cand, base) for cand, base in rows]


async def removed_page(
    session: AsyncSession, sides: Sides, *, after: int | None, limit: int
) -> list[CaseRow]:
    """Baseline items without a candidate partner, in position order after `after`."""
    c, b, on = _items(sides)
    stmt = select(b).where(
        b.run_id == sides.baseline,
        ~exists(select(literal(1)).select_from(c).where(c.run_id == sides.candidate, on)),
    )
    if after is not None:
        stmt = stmt.where(b.position > after)
    rows = (await session.scalars(stmt.order_by(b.position).limit(limit))).all()
    return [CaseRow(1, row.position, REMOVED, None, row) for row in rows]


async def scores_of(
    session: AsyncSession, run_id: str, positions: Sequence[int]
) -> dict[int, dict[str, float]]:
    """The evaluator means of some items of a run: position → {evaluator: mean}."""
    found: dict[int, dict[str, float]] = {}
    if not positions:
        return found
    rows = await session.execute(
        select(RunItemScore.position, RunItemScore.evaluator, RunItemScore.mean).where(
            RunItemScore.run_id == run_id, RunItemScore.position.in_(list(positions))
        )
    )
    for position, evaluator, mean in rows:
        found.setdefault(position, {})[evaluator] = float(mean)
    return found
