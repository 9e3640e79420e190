"""`comparisons(first, after, status)`: the page a dashboard polls.

The stamp is the list's read model (`server.page_reads.comparisons_list`), the value the
schema's resolver shows, read in its own statement with the columns only other documents
select added to it: a comparison's other row fields. Anything an answer may show is in it,
so any change (a recorded batch moves `seq` and the counters, a cohort's state, a
finalization, a new comparison, a renamed experiment) changes the stamp. `etaSeconds` of a
running comparison moves with the clock: while some row's does, the stamp holds the time
too, and such a page is never kept for long. The fields it may answer are the read model's
(`shape_of` its value's class) and those columns' fields: a new field of the list's read is
a field the cache covers, with nothing to add here."""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any, Final

from sqlalchemy import Select

from server.api.http.cached_reads.shape import Rule, Shape, Stamp, shape_of
from server.comparisons.models import TERMINAL_STATUSES, Comparison, ComparisonStatus
from server.db import utcnow
from server.errors import ValidationFailed
from server.page_reads import comparisons_list
from server.page_reads.comparison_page import Fetch
from server.page_reads.comparisons_list import ComparisonsListRead
from server.pagination import DEFAULT_PAGE_SIZE
from server.verdicts.models import ComparisonVerdict


def _leaves(*names: str) -> Shape:
    return dict.fromkeys(names)


ROW_FIELDS: Final[Shape] = _leaves("checks", "epsilonPoints", "targetEffectPoints", "rerunOfId")
"""`Comparison` fields beside the list's read, made from the columns of `_EXTRA` below."""

_EXTRA: Final = (
    Comparison.checks,
    Comparison.epsilon_points,
    Comparison.target_effect_points,
    Comparison.rerun_of_id,
    Comparison.finalized_at,
    ComparisonVerdict.attempts,
    ComparisonVerdict.cases_erased_at,
    ComparisonVerdict.updated_at,
)


def _with_row_fields(shape: Shape) -> Shape:
    """The list's shape with `ROW_FIELDS` beside each node's own."""
    edges = shape["edges"]
    assert isinstance(edges, dict) and isinstance(edges["node"], dict)
    return {**shape, "edges": {**edges, "node": {**edges["node"], **ROW_FIELDS}}}


SHAPE: Final[Shape] = _with_row_fields(shape_of(ComparisonsListRead))


def _page_arguments(
    arguments: dict[str, Any], max_page_size: int
) -> tuple[int, str | None, ComparisonStatus | None] | None:
    """(first, after, status) as the resolver would take them; None when it would refuse
    them (it answers the error; nothing is kept)."""
    first = arguments.get("first")
    first = DEFAULT_PAGE_SIZE if first is None else first
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first <= max_page_size:
        return None
    after = arguments.get("after")
    if after is not None and not isinstance(after, str):
        return None
    status = arguments.get("status")
    if status is not None and status not in ComparisonStatus.__members__:
        return None
    return first, after, ComparisonStatus(status) if status is not None else None


@cache
def _statement(dialect: str, *, with_status: bool, after: bool) -> Select[Any]:
    """The list's statement with `_EXTRA` after its own columns (and its total), built once
    per dialect and filters."""
    page = comparisons_list.statements(dialect, with_status=with_status, after=after)
    return page.add_columns(*_EXTRA)


def _ticking(page: ComparisonsListRead) -> bool:
    """Whether some row's `etaSeconds` moves with the clock (running, started, calls done)."""
    return any(
        edge.node.status not in TERMINAL_STATUSES
        and edge.node.progress.started_at is not None
        and edge.node.progress.done_calls > 0
        for edge in page.edges
    )


async def read_stamp(
    fetch: Fetch, *, dialect: str, workspace_id: str, arguments: dict[str, Any], max_page_size: int
) -> Stamp | None:
    """The list's value, each shown row's `_EXTRA` columns, and the time while a row's ETA
    moves with it; None for arguments the resolver refuses (a cursor not of this list)."""
    parsed = _page_arguments(arguments, max_page_size)
    if parsed is None:
        return None
    first, after, status = parsed
    try:
        values = comparisons_list.bound_values(workspace_id, first, after, status)
    except ValidationFailed:
        return None
    stmt = _statement(dialect, with_status=status is not None, after=after is not None)
    rows = [tuple(row) for row in await fetch(stmt, values)]
    width = len(rows[0]) - len(_EXTRA) if rows else 0
    total = None
    if not rows and after is not None:
        counted = comparisons_list.counted(with_status=status is not None)
        total = (await fetch(counted, values))[0][0]
    page = comparisons_list.list_of(
        [row[:width] for row in rows], first=first, after=after, total=total
    )
    extra = tuple(tuple(row[width:]) for row in rows[:first])
    now: datetime | None = utcnow() if _ticking(page) else None
    return (page, extra, now)


RULE: Final = Rule(
    root="comparisons",
    arguments=frozenset({"first", "after", "status"}),
    required=frozenset(),
    shape=SHAPE,
    stamp=read_stamp,
)
