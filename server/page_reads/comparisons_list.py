"""The comparisons list (the portal's `ComparisonsList`): one keyset page of the workspace's
comparisons, newest first, each with its verdict row's state, chips and decision and its
cohorts, and the total, in one statement, as one frozen value.

The value's attributes are the connection's GraphQL fields in snake case (`total_count`,
`edges`, `page_info`; a node's `id`, `status`, `verdict_state`, `cohorts`, …): the resolver
builds its connection from it (`server/api/comparisons/resolvers.py`), and the direct answer
shows it as the persisted document selects it (`server/api/direct_reads/comparisons_list.py`).
A new field of a row is one attribute of `ComparisonRowRead` (its column in `_columns`) and
one field of the type.

A page holds 20 rows and is polled: a row's values are named tuples made in C from its
columns in the statement's order (`fields.made`; a row built through keyword arguments into
frozen dataclasses cost the page a third more), enum columns are looked up by value
(`fields.members`), and what only the schema shows of a row's progress is computed when
asked for (`RowProgress`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any, NamedTuple

from sqlalchemy import Select, String, bindparam, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons.models import (
    Comparison,
    ComparisonStatus,
    StopReason,
)
from server.comparisons.progress import CohortProgress, Progress, eta_seconds, shown_state
from server.db import utcnow
from server.decisions import document as decision_document
from server.money import micros_to_cents
from server.page_reads.cohorts import CohortRead, cohorts_column, cohorts_of
from server.page_reads.comparison_page import Fetch
from server.page_reads.fields import made, members
from server.page_reads.pages import PageInfoRead, page_info
from server.pagination import cursor_key, encode_cursor, keyset_statements
from server.verdicts import wording
from server.verdicts.models import ComparisonVerdict, VerdictState
from stats.movement import Movement


class VerdictChipRead(NamedTuple):
    """A baseline's verdict as its chip shows it (the stored scorecard's `verdicts` entry)."""

    baseline_cohort_index: int
    outcome: Movement
    summary: str


@dataclass(frozen=True, slots=True)
class ScorecardChipsRead:
    """What the list shows of a finalized comparison's scorecard: its chips."""

    verdicts: tuple[VerdictChipRead, ...]


@dataclass(frozen=True, slots=True)
class DecisionRead:
    """What the list shows of the ship decision: its outcome's name."""

    outcome: str


NOT_RUN_TO_END = DecisionRead("NO_DECISION")
"""The decision of a comparison that ended undecided (`decisions.document.ENDED_UNDECIDED`)."""


class RowProgress(NamedTuple):
    """A row's progress columns (what `progress.snapshot` reads: `progress.Counted`), with
    the snapshot's other fields computed when shown."""

    seq: int
    status: ComparisonStatus
    stop_reason: StopReason | None
    done_calls: int
    total_calls: int
    failed_calls: int
    spent_micros: int
    started_at: datetime | None
    progress_at: datetime | None
    cohort_reads: tuple[CohortRead, ...]
    """The row's cohorts (their states, as the snapshot shows them: `cohorts`)."""

    @property
    def percent(self) -> float:
        total = self.total_calls
        return round(100.0 * self.done_calls / total, 2) if total else 0.0

    @property
    def eta_seconds(self) -> float | None:
        return eta_seconds(self, utcnow())

    @property
    def spent_cents_so_far(self) -> float:
        return micros_to_cents(self.spent_micros)

    @property
    def updated_at(self) -> datetime | None:
        return self.progress_at

    @property
    def cohorts(self) -> tuple[CohortProgress, ...]:
        return tuple(
            CohortProgress(c.cohort_index, shown_state(self, c.state).value)
            for c in self.cohort_reads
        )

    def snapshot(self) -> Progress:
        """The progress as the live subscription sends it (`progress.snapshot`)."""
        return Progress(
            self.seq,
            self.status.value,
            self.stop_reason.value if self.stop_reason else None,
            self.done_calls,
            self.total_calls,
            self.failed_calls,
            self.percent,
            self.eta_seconds,
            self.spent_cents_so_far,
            self.cohorts,
            self.progress_at.isoformat() if self.progress_at else None,
        )


class ComparisonRowRead(NamedTuple):
    """One comparison as the list shows it. Plain values: equal values show equal rows."""

    id: str
    label: str | None
    status: ComparisonStatus
    stop_reason: StopReason | None
    created_at: datetime
    spent_cents_so_far: float
    verdict_state: VerdictState
    decision: DecisionRead | None
    """NO_DECISION for a run that did not end, the stored outcome once FINALIZED, else None."""
    cohorts: tuple[CohortRead, ...]
    scorecard: ScorecardChipsRead | None
    """Once FINALIZED with a scorecard."""
    progress: RowProgress

    @property
    def may_have_reports(self) -> bool:
        """The list reads no reports: a comparison's are read when asked for."""
        return True

    def progress_snapshot(self) -> Progress:
        """The progress as the live subscription sends it (as `ComparisonPageRead` does)."""
        return self.progress.snapshot()


class EdgeRead(NamedTuple):
    cursor: str
    node: ComparisonRowRead


@dataclass(frozen=True, slots=True)
class ComparisonsListRead:
    """A page of the comparisons list."""

    total_count: int
    edges: tuple[EdgeRead, ...]
    page_info: PageInfoRead


def _columns(dialect: str) -> tuple[Any, ...]:
    """A row's columns, in the order `row_of` reads them by position (the total last)."""
    verdict = ComparisonVerdict
    return (
        Comparison.id,
        Comparison.label,
        Comparison.status,
        Comparison.stop_reason,
        Comparison.created_at,
        Comparison.spent_micros,
        verdict.state.label("verdict_state"),
        verdict.scorecard.is_not(None).label("has_scorecard"),
        verdict.scorecard["verdicts"].label("verdicts"),
        verdict.scorecard[("decision", "outcome")].label("decision_outcome"),
        cohorts_column(dialect),
        Comparison.seq,
        Comparison.done_calls,
        Comparison.total_calls,
        Comparison.failed_calls,
        Comparison.started_at,
        Comparison.progress_at,
    )


_WIDTH = 17
"""How many of a row's columns `row_of` reads (`_columns`): the ORM rows and the total follow."""


@cache
def statements(dialect: str, *, with_status: bool, after: bool, rows: bool = False) -> Select[Any]:
    """The page's statement, built once per shape (bound: `workspace_id`, `page_limit`; with
    a status `status`, after a cursor `after_key`); `rows`: with the comparison and verdict
    rows the schema's types are made of. The total rides last on each row."""
    stmt = select(Comparison.id).where(
        Comparison.workspace_id == bindparam("workspace_id", type_=String)
    )
    if with_status:
        stmt = stmt.where(Comparison.status == bindparam("status", type_=String))
    on = ComparisonVerdict.comparison_id == Comparison.id

    def joined(page: Select[Any]) -> Select[Any]:
        columns = _columns(dialect)
        if rows:
            columns = (*columns, Comparison, ComparisonVerdict)
        return page.with_only_columns(*columns).outerjoin(ComparisonVerdict, on)

    kept = keyset_statements(stmt, key=Comparison.id, descending=True, joined=joined)
    page = kept.after_page if after else kept.first_page
    return page.execution_options(populate_existing=True) if rows else page


def row_of(row: Sequence[Any]) -> ComparisonRowRead:
    """The value of one row of `statements` (read by position: a driver's record or a
    SQLAlchemy row)."""
    (
        id_,
        label,
        status_name,
        stop_name,
        created_at,
        spent_micros,
        state_name,
        has_scorecard,
        verdicts,
        outcome,
        cohorts_json,
        seq,
        done_calls,
        total_calls,
        failed_calls,
        started_at,
        progress_at,
    ) = row[:_WIDTH]
    status = _STATUSES[status_name]
    stop_reason = _STOP_REASONS[stop_name] if stop_name else None
    state = _VERDICT_STATES[state_name] if state_name else VerdictState.NOT_FINALIZED
    finalized = state == VerdictState.FINALIZED and has_scorecard
    cohorts = cohorts_of(cohorts_json, status)
    if status in decision_document.ENDED_UNDECIDED:
        decision: DecisionRead | None = NOT_RUN_TO_END
    else:
        decision = DecisionRead(str(outcome)) if finalized and outcome else None
    progress = (
        seq,
        status,
        stop_reason,
        done_calls,
        total_calls,
        failed_calls,
        spent_micros,
        started_at,
        progress_at,
        cohorts,
    )
    node = (
        id_,
        label,
        status,
        stop_reason,
        created_at,
        micros_to_cents(spent_micros),
        state,
        decision,
        cohorts,
        _chips(verdicts) if finalized else None,
        _new_progress(progress),
    )
    return _new_row(node)


_new_progress = made(RowProgress)
_new_row = made(ComparisonRowRead)
_new_chip = made(VerdictChipRead)
_new_edge = made(EdgeRead)
_STATUSES = members(ComparisonStatus)
_STOP_REASONS = members(StopReason)
_VERDICT_STATES = members(VerdictState)
_MOVEMENTS = members(Movement)


def _chips(verdicts: Any) -> ScorecardChipsRead:
    """The chips of a stored scorecard's `verdicts` (`api.verdicts.types.baseline_verdict`)."""
    if not isinstance(verdicts, list):
        raise ValueError("a stored scorecard without its verdicts")
    return ScorecardChipsRead(
        tuple(
            _new_chip((v["baselineCohortIndex"], _MOVEMENTS[v["outcome"]], wording.chip(v)))
            for v in verdicts
        )
    )


def list_of(
    rows: Sequence[Sequence[Any]], *, first: int, after: str | None, total: int | None = None
) -> ComparisonsListRead:
    """The page of the rows of `statements` (`first` + 1 asked for); `total` when no row
    carries it."""
    shown = rows[:first]
    nodes = [row_of(row) for row in shown]
    cursors = [encode_cursor(node.id) for node in nodes]
    return ComparisonsListRead(
        rows[0][-1] if rows else (total or 0),
        tuple(map(_new_edge, zip(cursors, nodes, strict=True))),
        page_info(cursors, more=len(rows) > first, after=after),
    )


def bound_values(
    workspace_id: str, first: int, after: str | None, status: ComparisonStatus | None
) -> dict[str, Any]:
    """The bound values; a cursor that is not this list's is refused (`ValidationFailed`)."""
    return {
        "workspace_id": workspace_id,
        "status": status.value if status is not None else None,
        "page_limit": first + 1,
        "after_key": cursor_key(after, Comparison.id) if after is not None else None,
    }


@cache
def counted(*, with_status: bool) -> Select[Any]:
    """The total alone, for a page past the end (no row carries it)."""
    stmt = select(func.count()).select_from(Comparison)
    stmt = stmt.where(Comparison.workspace_id == bindparam("workspace_id", type_=String))
    if with_status:
        stmt = stmt.where(Comparison.status == bindparam("status", type_=String))
    return stmt


async def read(
    fetch: Fetch,
    *,
    dialect: str,
    workspace_id: str,
    first: int,
    after: str | None,
    status: ComparisonStatus | None,
) -> ComparisonsListRead:
    """The workspace's comparisons after the cursor `after` (`first` checked by the caller);
    a cursor not of this list is `ValidationFailed`."""
    values = bound_values(workspace_id, first, after, status)
    with_status = status is not None
    stmt = statements(dialect, with_status=with_status, after=after is not None)
    rows = await fetch(stmt, values)
    total = None
    if not rows and after is not None:
        total = (await fetch(counted(with_status=with_status), values))[0][0]
    return list_of(rows, first=first, after=after, total=total)


@dataclass(frozen=True, slots=True)
class ListWithRows:
    """The page, with each node's comparison and verdict rows (read in the same statement)."""

    page: ComparisonsListRead
    rows: tuple[tuple[Comparison, ComparisonVerdict | None], ...]
    """In the order of `page.edges`."""


async def read_with_rows(
    session: AsyncSession,
    *,
    workspace_id: str,
    first: int,
    after: str | None,
    status: ComparisonStatus | None,
) -> ListWithRows:
    """The page and its rows in one statement (a page past the end counts apart)."""
    dialect = session.get_bind().dialect.name
    values = bound_values(workspace_id, first, after, status)
    with_status = status is not None
    stmt = statements(dialect, with_status=with_status, after=after is not None, rows=True)
    found = (await session.execute(stmt, values)).all()
    total = None
    if not found and after is not None:
        total = (await session.execute(counted(with_status=with_status), values)).scalar()
    entities = tuple((row[_WIDTH], row[_WIDTH + 1]) for row in found[:first])
    return ListWithRows(list_of(found, first=first, after=after, total=total), entities)
