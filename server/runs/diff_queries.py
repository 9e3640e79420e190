"""The SQL of a run diff: items paired in the database, per-item differences computed there.

Two runs are paired by `datasetItemId` when every item of both carries one, else by
position. A pair's status is one SQL expression (`status_expression`), so the summary's
counts and the case list's filter agree by construction:

- the pass fraction flipped (majority pass ↔ fail) or moved beyond ε → REGRESSED/IMPROVED
  by its sign;
- else any evaluator mean fell by more than ε → REGRESSED; else rose → IMPROVED;
- else UNCHANGED. Items on one side only are ADDED (candidate) or REMOVED (baseline).

Only aggregates and per-evaluator difference vectors leave the database.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Float,
    and_,
    case,
    cast,
    exists,
    func,
    literal,
    select,
)
from sqlalchemy.dialects.postgresql import aggregate_order_by
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from server.runs.models import RunItem, RunItemScore

TOLERANCE = 1e-9
"""Float slack on ε, so a difference of exactly ε (say 0.51 − 0.50) is not "beyond" it."""

DATASET_ITEM_ID = "DATASET_ITEM_ID"
POSITIONAL = "POSITIONAL"

REGRESSED = "REGRESSED"
IMPROVED = "IMPROVED"
UNCHANGED = "UNCHANGED"
ADDED = "ADDED"
REMOVED = "REMOVED"


@dataclass(frozen=True, slots=True)
class Sides:
    """The two runs of a diff and how their items pair."""

    candidate: str
    baseline: str
    pairing: str


@dataclass(frozen=True, slots=True)
class PassGroup:
    """Matched pairs sharing these counts and this status, and how many there are."""

    candidate_passed: int
    candidate_graded: int
    baseline_passed: int
    baseline_graded: int
    status: str
    count: int


@dataclass(frozen=True, slots=True)
class EvaluatorVector:
    """One evaluator's per-pair differences (candidate − baseline), in candidate order."""

    name: str
    differences: list[float]
    candidate_mean: float
    baseline_mean: float


async def pairing(session: AsyncSession, candidate: str, baseline: str) -> str:
    """DATASET_ITEM_ID when every item of both runs carries one, else POSITIONAL."""
    rows = (
        await session.execute(
            select(RunItem.run_id, func.count(), func.count(RunItem.dataset_item_id))
            .where(RunItem.run_id.in_((candidate, baseline)))
            .group_by(RunItem.run_id)
        )
    ).all()
    counted = {run_id: (total, with_id) for run_id, total, with_id in rows}
    sides = [counted.get(run_id, (0, 0)) for run_id in (candidate, baseline)]
    if all(total > 0 and total == with_id for total, with_id in sides):
        return DATASET_ITEM_ID
    return POSITIONAL


def _items(sides: Sides) -> tuple[Any, Any, ColumnElement[bool]]:
    """Aliases for the candidate's and the baseline's items, and the pairing condition."""
    c = aliased(RunItem, name="c")
    b = aliased(RunItem, name="b")
    if sides.pairing == DATASET_ITEM_ID:
        on = and_(b.run_id == sides.baseline, b.dataset_item_id == c.dataset_item_id)
    else:
        on = and_(b.run_id == sides.baseline, b.position == c.position)
    return c, b, on


def status_expression(
    c: Any, b: Any, low: ColumnElement[Any], high: ColumnElement[Any], epsilon: float
) -> ColumnElement[str]:
    """A matched pair's status; `low`/`high` are its smallest and largest evaluator deltas."""
    bar = epsilon + TOLERANCE
    graded = and_(c.graded_count > 0, b.graded_count > 0)
    cross = c.passed_count * b.graded_count - b.passed_count * c.graded_count
    scale = cast(c.graded_count * b.graded_count, Float)
    candidate_passes = 2 * c.passed_count > c.graded_count
    baseline_passes = 2 * b.passed_count > b.graded_count
    return case(
        (and_(graded, baseline_passes, ~candidate_passes), literal(REGRESSED)),
        (and_(graded, candidate_passes, ~baseline_passes), literal(IMPROVED)),
        (and_(graded, cross < -bar * scale), literal(REGRESSED)),
        (and_(graded, cross > bar * scale), literal(IMPROVED)),
        (low < -bar, literal(REGRESSED)),
        (high > bar, literal(IMPROVED)),
        else_=literal(UNCHANGED),
    )


def _score_deltas(sides: Sides) -> Any:
    """Per candidate position: the smallest and largest evaluator delta of its pair."""
    cs = aliased(RunItemScore, name="cs")
    bs = aliased(RunItemScore, name="bs")
    delta = cs.mean - bs.mean
    stmt = select(
        cs.position.label("position"), func.min(delta).label("low"), func.max(delta).label("high")
    ).select_from(cs)
    if sides.pairing == DATASET_ITEM_ID:
        c2 = aliased(RunItem, name="c2")
        b2 = aliased(RunItem, name="b2")
        stmt = (
            stmt.join(c2, and_(c2.run_id == cs.run_id, c2.position == cs.position))
            .join(b2, and_(b2.run_id == sides.baseline, b2.dataset_item_id == c2.dataset_item_id))
            .join(bs, and_(bs.run_id == sides.baseline, bs.position == b2.position))
        )
    else:
        stmt = stmt.join(bs, and_(bs.run_id == sides.baseline, bs.position == cs.position))
    return (
        stmt.where(cs.run_id == sides.candidate, bs.evaluator == cs.evaluator)
        .group_by(cs.position)
        .subquery("deltas")
    )


async def pass_groups(session: AsyncSession, sides: Sides, epsilon: float) -> list[PassGroup]:
    """Matched pairs grouped by their four counts and status: the pass-rate vectors, packed."""
    c, b, on = _items(sides)
    deltas = _score_deltas(sides)
    status = status_expression(c, b, deltas.c.low, deltas.c.high, epsilon).label("status")
    keys = (c.passed_count, c.graded_count, b.passed_count, b.graded_count, status)
    rows = (
        await session.execute(
            select(*keys, func.count())
            .select_from(c)
            .join(b, on)
            .outerjoin(deltas, deltas.c.position == c.position)
            .where(c.run_id == sides.candidate)
            .group_by(*keys)
        )
    ).all()
    return [PassGroup(*row) for row in rows]


async def one_sided_counts(session: AsyncSession, sides: Sides) -> tuple[int, int]:
    """(added, removed): candidate items without a baseline partner, and the reverse."""
    c, b, on = _items(sides)
    added = await session.scalar(
        select(func.count())
        .select_from(c)
        .where(c.run_id == sides.candidate, ~exists(select(literal(1)).select_from(b).where(on)))
    )
    removed = await session.scalar(
        select(func.count())
        .select_from(b)
        .where(
            b.run_id == sides.baseline,
            ~exists(select(literal(1)).select_from(c).where(c.run_id == sides.candidate, on)),
        )
    )
    return int(added or 0), int(removed or 0)


async def evaluator_vectors(session: AsyncSession, sides: Sides) -> list[EvaluatorVector]:
    """Per evaluator, the differences over the matched pairs both sides scored."""
    c, b, on = _items(sides)
    cs = aliased(RunItemScore, name="cs")
    bs = aliased(RunItemScore, name="bs")
    delta = cs.mean - bs.mean
    joined = (
        select()
        .select_from(c)
        .join(b, on)
        .join(cs, and_(cs.run_id == sides.candidate, cs.position == c.position))
        .join(
            bs,
            and_(
                bs.run_id == sides.baseline, bs.position == b.position, bs.evaluator == cs.evaluator
            ),
        )
        .where(c.run_id == sides.candidate)
    )
    if (await session.connection()).dialect.name == "postgresql":
        stmt = (
            joined.add_columns(
                cs.evaluator,
                func.array_agg(aggregate_order_by(delta, c.position)),
                func.avg(cs.mean),
                func.avg(bs.mean),
            )
            .group_by(cs.evaluator)
            .order_by(cs.evaluator)
        )
        return [
            EvaluatorVector(name, list(values), float(cand), float(base))
            for name, values, cand, base in (await session.execute(stmt)).all()
        ]
    stmt = joined.add_columns(cs.evaluator, delta, cs.mean, bs.mean).order_by(
        cs.evaluator, c.position
    )
    vectors: dict[str, tuple[list[float], list[float], list[float]]] = {}
    for name, value, cand, base in (await session.execute(stmt)).all():
        entry = vectors.setdefault(name, ([], [], []))
        entry[0].append(float(value))
        entry[1].append(float(cand))
        entry[2].append(float(base))
    return [
        EvaluatorVector(name, diffs, sum(cands) / len(cands), sum(bases) / len(bases))
        for name, (diffs, cands, bases) in vectors.items()
    ]


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
        .join(bs, and_(bs.evaluator == cs.evaluator))
        .where(
            cs.run_id == sides.candidate,
            cs.position == c.position,
            bs.run_id == sides.baseline,
            bs.position == b.position,
        )
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
        (b.id.is_(None), literal(ADDED)), else_=status_expression(c, b, low, high, epsilon)
    ).label("status")
    stmt = select(c, b, status).select_from(c).where(c.run_id == sides.candidate)
    stmt = stmt.outerjoin(b, on) if statuses is None else stmt.join(b, on)
    if after is not None:
        stmt = stmt.where(c.position > after)
    if statuses is not None:
        stmt = stmt.where(status.in_(statuses))
    rows = (await session.execute(stmt.order_by(c.position).limit(limit))).all()
    return [CaseRow(0, cand.position, kind, cand, base) for cand, base, kind in rows]


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
