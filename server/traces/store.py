"""Spans stored once by (trace id, span id) in one multi-row insert, and the summary of each
trace they belong to recomputed from all of its stored spans, under the trace's row lock:
spans of one trace arriving in any order over several requests make one trace."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, select, tuple_, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from server.db import utcnow
from server.traces.models import ModelPrice, Trace, TraceSpan
from server.traces.spans import ReceivedSpan
from server.traces.steps import step_document, step_from_document, step_of
from server.traces.summary import StoredSpan, summarize

SPANS_PER_STATEMENT = 500
"""Rows per multi-row insert (PostgreSQL binds at most 32,767 parameters a statement)."""


def _insert(session: AsyncSession, table: Any) -> Any:
    dialect = session.get_bind().dialect.name
    return (pg_insert if dialect == "postgresql" else sqlite_insert)(table)


async def prices_of(*, session: AsyncSession, workspace_id: str) -> dict[str, tuple[int, int]]:
    """The workspace's model prices: model → (input, output) micro-dollars per million."""
    rows = await session.execute(
        select(
            ModelPrice.model,
            ModelPrice.input_micros_per_million_tokens,
            ModelPrice.output_micros_per_million_tokens,
        ).where(ModelPrice.workspace_id == workspace_id)
    )
    return {model: (inp, out) for model, inp, out in rows.all()}


async def store_spans(
    *, session: AsyncSession, workspace_id: str, spans: Sequence[ReceivedSpan]
) -> int:
    """Store the spans not stored yet and resummarize their traces; the spans new here."""
    unique = {(s.trace_id, s.span_id): s for s in spans}
    if not unique:
        return 0
    prices = await prices_of(session=session, workspace_id=workspace_id)
    trace_ids = sorted({trace_id for trace_id, _ in unique})
    await _lock_traces(session, workspace_id, trace_ids, list(unique.values()))
    rows = [_span_row(workspace_id, span, prices.get) for span in unique.values()]
    new = 0
    for start in range(0, len(rows), SPANS_PER_STATEMENT):
        chunk = rows[start : start + SPANS_PER_STATEMENT]
        result = await session.execute(
            _insert(session, TraceSpan)
            .values(chunk)
            .on_conflict_do_nothing()
            .returning(TraceSpan.span_id)
        )
        new += len(result.all())
    if new:
        await _resummarize(session, workspace_id, trace_ids)
    return new


async def _lock_traces(
    session: AsyncSession, workspace_id: str, trace_ids: list[str], spans: list[ReceivedSpan]
) -> None:
    """Each trace's row made if missing, then locked in id order (no deadlock between two
    requests), so the summary written last saw every span committed before it."""
    earliest: dict[str, int] = {}
    for span in spans:
        earliest[span.trace_id] = min(
            earliest.get(span.trace_id, span.start_unix_nano), span.start_unix_nano
        )
    stubs = [
        {
            "workspace_id": workspace_id,
            "id": trace_id,
            "started_at": datetime.fromtimestamp(earliest[trace_id] / 1e9, tz=UTC),
            "models": [],
            "span_feedback": [],
            "updated_at": utcnow(),
        }
        for trace_id in trace_ids
    ]
    await session.execute(_insert(session, Trace).values(stubs).on_conflict_do_nothing())
    if session.get_bind().dialect.name == "postgresql":
        await session.execute(
            select(Trace.id)
            .where(Trace.workspace_id == workspace_id, Trace.id.in_(trace_ids))
            .order_by(Trace.id)
            .with_for_update()
        )


def _span_row(workspace_id: str, span: ReceivedSpan, price_of: Any) -> dict[str, Any]:
    step = step_of(span, price_of)
    events = [
        {"name": e.name, "timeUnixNano": e.time_unix_nano, "attributes": e.attributes}
        for e in span.events
    ]
    return {
        "workspace_id": workspace_id,
        "trace_id": span.trace_id,
        "span_id": span.span_id,
        "parent_span_id": span.parent_span_id,
        "started_at": step.startedAt,
        "service": _service(span),
        "step": step_document(step),
        "attributes": {"span": span.attributes, "resource": span.resource, "events": events},
        "received_at": utcnow(),
    }


def _service(span: ReceivedSpan) -> str | None:
    name = span.resource.get("service.name")
    return str(name)[:200] if name is not None else None


async def _resummarize(session: AsyncSession, workspace_id: str, trace_ids: list[str]) -> None:
    rows = await session.execute(
        select(TraceSpan.trace_id, TraceSpan.service, TraceSpan.step, TraceSpan.attributes).where(
            TraceSpan.workspace_id == workspace_id, TraceSpan.trace_id.in_(trace_ids)
        )
    )
    by_trace: dict[str, list[StoredSpan]] = {}
    for trace_id, service, step, attributes in rows.all():
        by_trace.setdefault(trace_id, []).append(
            StoredSpan(
                step=step_from_document(step),
                service=service,
                attributes=attributes.get("span") or {},
                resource=attributes.get("resource") or {},
            )
        )
    had_feedback = set(
        (
            await session.execute(
                select(Trace.id).where(
                    Trace.workspace_id == workspace_id,
                    Trace.id.in_(trace_ids),
                    Trace.has_feedback.is_(True),
                )
            )
        ).scalars()
    )
    now = utcnow()
    summaries = []
    for trace_id, stored in by_trace.items():
        summary = asdict(summarize(stored))
        summary["model_key"] = "|".join(summary["models"])[:500] or None
        summary["has_feedback"] = bool(summary["span_feedback"]) or trace_id in had_feedback
        summary["updated_at"] = now
        summaries.append({"workspace_id": workspace_id, "id": trace_id, **summary})
    if summaries:  # one executemany by primary key, not a round trip a trace
        await session.execute(update(Trace), summaries)


async def forget_expired(*, session: AsyncSession, workspace_id: str, days: int) -> int:
    """Delete the workspace's traces (and their spans) started more than `days` ago."""
    cutoff = utcnow() - timedelta(days=days)
    expired = select(Trace.workspace_id, Trace.id).where(
        Trace.workspace_id == workspace_id, Trace.started_at < cutoff
    )
    await session.execute(
        delete(TraceSpan).where(tuple_(TraceSpan.workspace_id, TraceSpan.trace_id).in_(expired))
    )
    result = await session.execute(
        delete(Trace).where(Trace.workspace_id == workspace_id, Trace.started_at < cutoff)
    )
    return int(getattr(result, "rowcount", 0) or 0)
