"""A run diff as export rows: for each case of the diff (its page order: candidate items in
position order, then REMOVED baseline items), the candidate's trials then the baseline's,
each row carrying the case's diff status.

The case list is read a page at a time through the diff's own keyset pagination
(`server.runs.cases.diff_cases`), and each page's items by position, so memory holds one
page whatever the runs' size.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.exports.runs import trial_fields
from server.runs import cases as case_list
from server.runs import statuses as st
from server.runs.diff import DiffSummary
from server.runs.models import RunItem
from stats.movement import CaseFilter

PAGE = 500
COLUMNS = (
    "datasetItemId",
    "status",
    "side",
    "runId",
    "position",
    "trialIndex",
    "passed",
    "output",
    "evaluators",
    "checks",
    "toolCalls",
    "errorCode",
    "latencyMs",
    "inputTokens",
    "outputTokens",
    "costMicros",
    "input",
)


async def _items(session: AsyncSession, run_id: str, positions: list[int]) -> dict[int, RunItem]:
    if not positions:
        return {}
    rows = await session.scalars(
        select(RunItem).where(RunItem.run_id == run_id, RunItem.position.in_(positions))
    )
    return {item.position: item for item in rows}


def _rows(
    case: case_list.DiffCase, side: str, run_id: str, item: RunItem | None
) -> list[dict[str, Any]]:
    if item is None:
        return []
    return [
        {
            "datasetItemId": case.dataset_item_id,
            "status": case.status,
            "side": side,
            "runId": run_id,
            "position": item.position,
            **trial_fields(trial if isinstance(trial, dict) else {}, index),
            "input": item.input,
        }
        for index, trial in enumerate(item.trials)
    ]


async def diff_rows(
    *,
    sessionmaker: async_sessionmaker[AsyncSession],
    summary: DiffSummary,
    page: int = PAGE,
) -> AsyncIterator[dict[str, Any]]:
    """Every trial of both runs, case by case in the diff's order."""
    candidate, baseline = summary.candidate_run_id, summary.baseline_run_id
    after: str | None = None
    while True:
        async with sessionmaker() as session, session.begin():
            cases = await case_list.diff_cases(
                session=session,
                summary=summary,
                case_filter=CaseFilter.ALL,
                first=page,
                after=after,
            )
            wanted = [c.position for c in cases.items if c.status != st.REMOVED]
            candidates = await _items(session, candidate, wanted)
            baselines = await _items(
                session,
                baseline,
                [c.baseline_position for c in cases.items if c.baseline_position is not None],
            )
        for case in cases.items:
            present = case.status != st.REMOVED
            for row in _rows(
                case, "CANDIDATE", candidate, candidates.get(case.position) if present else None
            ):
                yield row
            base = None if case.baseline_position is None else baselines.get(case.baseline_position)
            for row in _rows(case, "BASELINE", baseline, base):
                yield row
        if not cases.has_next or not cases.cursors:
            return
        after = cases.cursors[-1]
