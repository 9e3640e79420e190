"""A run diff's case list: candidate items in position order, then REMOVED baseline items.

Keyset-paginated in SQL (`server.runs.diff_queries.matched_page` / `removed_page`) with a
cursor `[group, position]`; the total per status comes from the summary's counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from server.errors import ValidationFailed
from server.pagination import Page, decode_cursor, encode_cursor
from server.runs import diff_queries as q
from server.runs import statuses as st
from server.runs.diff import DiffSummary
from stats.movement import CaseFilter


@dataclass(frozen=True, slots=True)
class CaseEvaluator:
    name: str
    baseline_mean: float | None
    candidate_mean: float | None
    delta: float | None
    status: str
    significant: bool


@dataclass(frozen=True, slots=True)
class DiffCase:
    dataset_item_id: str | None
    position: int
    baseline_position: int | None
    status: str
    pass_flip: bool
    candidate_pass_fraction: float | None
    baseline_pass_fraction: float | None
    input: Any
    evaluators: tuple[CaseEvaluator, ...]


async def diff_cases(
    *,
    session: AsyncSession,
    summary: DiffSummary,
    case_filter: CaseFilter,
    first: int,
    after: str | None,
) -> Page[DiffCase]:
    """One page of the case list: candidate items in order, then REMOVED baseline items."""
    movements = case_filter.movements
    statuses = None if movements is None else tuple(m.value for m in movements)
    sides = q.Sides(summary.candidate_run_id, summary.baseline_run_id, summary.pairing)
    group, position = _cursor(after)
    await q.pin_join_order(session, nested_loops=True)
    rows: list[q.CaseRow] = []
    if group == 0 and statuses is not None:
        rows = await _changed_page(session, sides, summary, statuses, position, first + 1)
    elif group == 0:
        rows = await q.matched_page(
            session, sides, summary.epsilon, statuses=statuses, after=position, limit=first + 1
        )
    if statuses is None and len(rows) <= first:
        removed_after = position if group == 1 else None
        rows += await q.removed_page(
            session, sides, after=removed_after, limit=first + 1 - len(rows)
        )
    has_next = len(rows) > first
    rows = rows[:first]
    cases = await _cases(session, sides, summary, rows)
    total = _total(summary, case_filter)
    return Page(
        items=cases,
        cursors=[encode_cursor([row.group, row.position]) for row in rows],
        has_next=has_next,
        has_previous=after is not None,
        total=total,
    )


async def _changed_page(
    session: AsyncSession,
    sides: q.Sides,
    summary: DiffSummary,
    statuses: tuple[str, ...],
    after: int | None,
    limit: int,
) -> list[q.CaseRow]:
    """A filtered page read by position: the summary knows which pairs have each status."""
    wanted: dict[int, str] = {}
    if st.REGRESSED in statuses:
        wanted |= dict.fromkeys(summary.regressed_positions, st.REGRESSED)
    if st.IMPROVED in statuses:
        wanted |= dict.fromkeys(summary.improved_positions, st.IMPROVED)
    start = -1 if after is None else after
    positions = [p for p in sorted(wanted) if p > start][:limit]
    return await q.pairs_at(session, sides, positions, wanted)


def _cursor(after: str | None) -> tuple[int, int | None]:
    if after is None:
        return 0, None
    key = decode_cursor(after)
    if (
        not isinstance(key, list)
        or len(key) != 2
        or key[0] not in (0, 1)
        or not isinstance(key[1], int)
    ):
        raise ValidationFailed("`after` is not a cursor from this API")
    return int(key[0]), int(key[1])


def _total(summary: DiffSummary, case_filter: CaseFilter) -> int:
    if case_filter == CaseFilter.REGRESSED:
        return summary.regressed_count
    if case_filter == CaseFilter.IMPROVED:
        return summary.improved_count
    if case_filter == CaseFilter.CHANGED:
        return summary.regressed_count + summary.improved_count
    return summary.paired_count + summary.added_count + summary.removed_count


async def _cases(
    session: AsyncSession, sides: q.Sides, summary: DiffSummary, rows: list[q.CaseRow]
) -> list[DiffCase]:
    cand_scores = await q.scores_of(
        session, sides.candidate, [r.candidate.position for r in rows if r.candidate]
    )
    base_scores = await q.scores_of(
        session, sides.baseline, [r.baseline.position for r in rows if r.baseline]
    )
    significant = {e.name: e.significant for e in summary.evaluators}
    cases = []
    for row in rows:
        cand = cand_scores.get(row.candidate.position, {}) if row.candidate else {}
        base = base_scores.get(row.baseline.position, {}) if row.baseline else {}
        evaluators = tuple(
            _case_evaluator(name, base.get(name), cand.get(name), summary.epsilon, significant)
            for name in sorted(cand.keys() | base.keys())
        )
        item = row.candidate or row.baseline
        assert item is not None
        cases.append(
            DiffCase(
                dataset_item_id=item.dataset_item_id,
                position=row.position,
                baseline_position=row.baseline.position if row.baseline else None,
                status=row.status,
                pass_flip=_pass_flip(row),
                candidate_pass_fraction=_fraction(row.candidate),
                baseline_pass_fraction=_fraction(row.baseline),
                input=item.input,
                evaluators=evaluators,
            )
        )
    return cases


def _case_evaluator(
    name: str,
    baseline: float | None,
    candidate: float | None,
    epsilon: float,
    significant: dict[str, bool],
) -> CaseEvaluator:
    delta = None if baseline is None or candidate is None else candidate - baseline
    status = st.evaluator_status(delta, epsilon)
    return CaseEvaluator(name, baseline, candidate, delta, status, significant.get(name, False))


def _fraction(item: Any) -> float | None:
    if item is None or item.graded_count == 0:
        return None
    return float(item.passed_count / item.graded_count)


def _pass_flip(row: q.CaseRow) -> bool:
    cand, base = row.candidate, row.baseline
    if cand is None or base is None or cand.graded_count == 0 or base.graded_count == 0:
        return False
    return (2 * cand.passed_count > cand.graded_count) != (
        2 * base.passed_count > base.graded_count
    )
