"""Reading traces: a keyset page of the workspace's traces under a filter, one trace with its
steps and feedback, and figures grouped by release, model or service (docs/traces.md). Traces past
the workspace's `traceRetentionDays` are never shown, deleted or not yet."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.db import utcnow
from server.errors import NotFound, ValidationFailed
from server.pagination import Page, decode_cursor, encode_cursor
from server.traces import counts
from server.traces.models import Trace, TraceFeedback, TraceSpan
from server.traces.steps import Step, step_from_document
from server.workspaces.models import Workspace


@dataclass(frozen=True, slots=True)
class TraceFilter:
    service: str | None = None
    release: str | None = None
    model: str | None = None
    status: str | None = None
    case_id: str | None = None
    search: str | None = None
    started_after: datetime | None = None
    started_before: datetime | None = None
    has_feedback: bool | None = None
    min_duration_ms: float | None = None


@dataclass(frozen=True, slots=True)
class FeedbackRead:
    name: str
    value: float
    comment: str | None
    source: str
    """`API` (scoreTrace) or `SPAN` (a `shipwise.feedback.<name>` attribute)."""
    created_at: datetime | None
    member_id: str | None = None


@dataclass(frozen=True, slots=True)
class TraceRead:
    row: Trace
    steps: list[Step] = field(default_factory=list)
    feedback: list[FeedbackRead] = field(default_factory=list)


async def _oldest_shown(session: AsyncSession, workspace_id: str) -> datetime:
    days = await session.scalar(
        select(Workspace.trace_retention_days).where(Workspace.id == workspace_id)
    )
    return _oldest(days)


def _oldest(retention_days: int | None) -> datetime:
    return utcnow() - timedelta(days=retention_days or 30)


async def _oldest_bound(session: AsyncSession, workspace_id: str) -> Any:
    """The oldest start a read shows: on PostgreSQL an expression its statement evaluates (the
    workspace's retention as a subquery: no statement of its own before the list's), elsewhere
    read first."""
    if session.get_bind().dialect.name != "postgresql":
        return await _oldest_shown(session, workspace_id)
    days = (
        select(Workspace.trace_retention_days).where(Workspace.id == workspace_id).scalar_subquery()
    )
    return func.now() - func.make_interval(0, 0, 0, func.coalesce(days, 30))


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _conditions(workspace_id: str, oldest: Any, where: TraceFilter) -> list[Any]:
    found: list[ColumnElement[bool]] = [
        Trace.workspace_id == workspace_id,
        Trace.started_at >= oldest,
        Trace.step_count > 0,
    ]
    equal = (
        (Trace.service, where.service),
        (Trace.release, where.release),
        (Trace.status, where.status),
        (Trace.case_id, where.case_id),
    )
    found += [column == value for column, value in equal if value is not None]
    if where.model is not None:
        escaped = where.model.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        found.append(
            or_(
                Trace.model_key == where.model,
                Trace.model_key.like(f"{escaped}|%", escape="\\"),
                Trace.model_key.like(f"%|{escaped}", escape="\\"),
                Trace.model_key.like(f"%|{escaped}|%", escape="\\"),
            )
        )
    if where.search:
        pattern = _like(where.search)
        found.append(
            or_(
                Trace.input.ilike(pattern, escape="\\"),
                Trace.output.ilike(pattern, escape="\\"),
                Trace.root_name.ilike(pattern, escape="\\"),
                Trace.id == where.search.lower(),
            )
        )
    if where.started_after is not None:
        found.append(Trace.started_at >= where.started_after)
    if where.started_before is not None:
        found.append(Trace.started_at < where.started_before)
    if where.has_feedback is not None:
        found.append(Trace.has_feedback.is_(where.has_feedback))
    if where.min_duration_ms is not None:
        found.append(Trace.duration_ms >= where.min_duration_ms)
    return found


async def filter_conditions(
    *, session: AsyncSession, workspace_id: str, where: TraceFilter
) -> list[Any]:
    """The WHERE clauses of the traces the list shows under `where` (datasets sample them)."""
    return _conditions(workspace_id, await _oldest_shown(session, workspace_id), where)


def _cursor_key(after: str) -> tuple[datetime, str]:
    key = decode_cursor(after)
    try:
        started, trace_id = key
        return datetime.fromisoformat(started), str(trace_id)
    except (TypeError, ValueError) as exc:
        raise ValidationFailed("`after` is not a cursor from this list") from exc


async def get_page(
    *,
    session: AsyncSession,
    workspace_id: str,
    first: int,
    after: str | None,
    where: TraceFilter,
) -> Page[Trace]:
    """Newest first, keyset by (start, id)."""
    conditions = _conditions(workspace_id, await _oldest_bound(session, workspace_id), where)
    stmt = select(Trace).where(*conditions)
    if after is not None:
        started, trace_id = _cursor_key(after)
        stmt = stmt.where(
            or_(
                Trace.started_at < started,
                and_(Trace.started_at == started, Trace.id < trace_id),
            )
        )
    rows = list(
        (
            await session.execute(
                stmt.order_by(Trace.started_at.desc(), Trace.id.desc()).limit(first + 1)
            )
        ).scalars()
    )

    counting = select(func.count()).select_from(Trace).where(*conditions)

    async def counted() -> int:
        return int(await session.scalar(counting) or 0)

    async def again() -> int:  # behind the request, on a session of its own
        async with AsyncSession(session.bind) as own:
            return int(await own.scalar(counting) or 0)

    postgres = session.get_bind().dialect.name == "postgresql"
    total = await counts.count(workspace_id, where, counted, again=again if postgres else None)
    items = rows[:first]
    cursors = [encode_cursor([row.started_at.isoformat(), row.id]) for row in items]
    return Page(items, cursors, len(rows) > first, after is not None, total)


async def get_trace(*, session: AsyncSession, workspace_id: str, trace_id: str) -> TraceRead:
    """One trace with its steps in start order; NOT_FOUND outside the workspace. Two
    statements: the row with its workspace's retention, then its spans (and its feedback
    when it has any)."""
    found = (
        await session.execute(
            select(Trace, Workspace.trace_retention_days)
            .join(Workspace, Workspace.id == Trace.workspace_id)
            .where(
                Trace.workspace_id == workspace_id,
                Trace.id == trace_id.lower(),
                Trace.step_count > 0,
            )
        )
    ).first()
    if found is None or found[0].started_at < _oldest(found[1]):
        raise NotFound("no such trace")
    row: Trace = found[0]
    documents = (
        await session.execute(
            select(TraceSpan.step)
            .where(TraceSpan.workspace_id == workspace_id, TraceSpan.trace_id == row.id)
            .order_by(TraceSpan.started_at, TraceSpan.span_id)
        )
    ).scalars()
    given: list[TraceFeedback] = []
    if row.has_feedback:  # set by every score (server/traces/feedback.py) and span score
        given = list(
            (
                await session.execute(
                    select(TraceFeedback)
                    .where(
                        TraceFeedback.workspace_id == workspace_id,
                        TraceFeedback.trace_id == row.id,
                    )
                    .order_by(TraceFeedback.id)
                )
            ).scalars()
        )
    feedback = [
        FeedbackRead(f["name"], f["value"], None, "SPAN", None) for f in row.span_feedback
    ] + [FeedbackRead(f.name, f.value, f.comment, "API", f.created_at, f.member_id) for f in given]
    return TraceRead(row, [step_from_document(d) for d in documents], feedback)


@dataclass(frozen=True, slots=True)
class TraceStatsRow:
    key: str | None
    traces: int
    error_rate: float
    latency_p50_ms: float
    latency_p95_ms: float
    input_tokens: int
    output_tokens: int
    cost_micros: int


GROUPS = ("RELEASE", "MODEL", "SERVICE")


async def get_stats(
    *, session: AsyncSession, workspace_id: str, where: TraceFilter, group_by: str
) -> list[TraceStatsRow]:
    """Per release, model or service (a trace counts under each model it called)."""
    conditions = _conditions(workspace_id, await _oldest_bound(session, workspace_id), where)
    rows = await session.execute(
        select(
            Trace.release,
            Trace.models,
            Trace.service,
            Trace.status,
            Trace.duration_ms,
            Trace.input_tokens,
            Trace.output_tokens,
            Trace.cost_micros,
        ).where(*conditions)
    )
    groups: dict[str | None, list[tuple[Any, ...]]] = {}
    for release, models, service, *figures in rows.all():
        keys: Sequence[str | None]
        if group_by == "RELEASE":
            keys = [release]
        elif group_by == "SERVICE":
            keys = [service]
        else:
            keys = list(models or []) or [None]
        for key in keys:
            groups.setdefault(key, []).append(tuple(figures))
    return sorted(
        (_figures(key, members) for key, members in groups.items()),
        key=lambda r: (-r.traces, r.key or ""),
    )


def _figures(key: str | None, members: list[tuple[Any, ...]]) -> TraceStatsRow:
    durations = sorted(float(m[1]) for m in members)
    return TraceStatsRow(
        key=key,
        traces=len(members),
        error_rate=sum(1 for m in members if m[0] == "ERROR") / len(members),
        latency_p50_ms=_quantile(durations, 0.5),
        latency_p95_ms=_quantile(durations, 0.95),
        input_tokens=sum(int(m[2]) for m in members),
        output_tokens=sum(int(m[3]) for m in members),
        cost_micros=sum(int(m[4]) for m in members),
    )


def _quantile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    if not ordered:
        return 0.0
    position = (len(ordered) - 1) * q
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


async def trajectories_of(
    *, session: AsyncSession, workspace_id: str, trace_ids: Sequence[str]
) -> dict[str, list[dict[str, Any]]]:
    """The stored steps (JSON documents, start order) of each of these traces the workspace
    shows, by the lower-cased id; a trace of another workspace, expired or unknown is left
    out (a run trial's `traceId`, docs/domain.md "Trajectories in runs")."""
    wanted = sorted({trace_id.lower() for trace_id in trace_ids})
    if not wanted:
        return {}
    oldest = await _oldest_shown(session, workspace_id)
    shown = (
        await session.execute(
            select(Trace.id).where(
                Trace.workspace_id == workspace_id,
                Trace.id.in_(wanted),
                Trace.started_at >= oldest,
                Trace.step_count > 0,
            )
        )
    ).scalars()
    found: dict[str, list[dict[str, Any]]] = {trace_id: [] for trace_id in shown}
    if not found:
        return {}
    rows = await session.execute(
        select(TraceSpan.trace_id, TraceSpan.step)
        .where(TraceSpan.workspace_id == workspace_id, TraceSpan.trace_id.in_(list(found)))
        .order_by(TraceSpan.trace_id, TraceSpan.started_at, TraceSpan.span_id)
    )
    for trace_id, document in rows:
        found[trace_id].append(dict(document))
    return found
