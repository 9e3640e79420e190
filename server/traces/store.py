"""Spans stored once by (trace id, span id), and one summary row a trace they belong to,
under the trace's row lock: spans of one trace arriving in any order over several requests
make one trace. A trace this request creates is summarized from the request's own spans (no
span of it can be stored yet) and inserted whole; a trace stored before is resummarized from
its stored spans plus the request's new ones, each read once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Final

from sqlalchemy import bindparam, delete, func, select, tuple_, update
from sqlalchemy.ext.asyncio import AsyncSession

from server.db import utcnow
from server.traces import copy_rows
from server.traces.models import ModelPrice, Trace, TraceSpan
from server.traces.prepare import Prepared, Prices, stored_span
from server.traces.span_rows import insert_new, write_unstored
from server.traces.steps import step_from_document
from server.traces.summary import StoredSpan, summary_columns
from server.traces.trace_rows import insert_missing


async def prices_of(*, session: AsyncSession, workspace_id: str) -> Prices:
    """The workspace's model prices: model → (input, output) micro-dollars per million."""
    rows = await session.execute(
        select(
            ModelPrice.model,
            ModelPrice.input_micros_per_million_tokens,
            ModelPrice.output_micros_per_million_tokens,
        ).where(ModelPrice.workspace_id == workspace_id)
    )
    return {model: (inp, out) for model, inp, out in rows.all()}


_PRICES_STAMP: Final = select(func.count(), func.max(ModelPrice.updated_at)).where(
    ModelPrice.workspace_id == bindparam("workspace_id")
)
"""Built once: it runs in every export's storing transaction."""


async def prices_stamp(*, session: AsyncSession, workspace_id: str) -> tuple[Any, ...]:
    """What changes whenever the workspace's prices do (`setModelPrices` writes each price it
    sets with the time): how many there are and when the last was set."""
    row = (await session.execute(_PRICES_STAMP, {"workspace_id": workspace_id})).one()
    return tuple(row)


async def store_prepared(*, session: AsyncSession, workspace_id: str, prepared: Prepared) -> int:
    """Store the export's spans not stored yet and summarize their traces; the spans new here."""
    if not prepared.rows:
        return 0
    created = await insert_missing(session, workspace_id, prepared.summaries, utcnow())
    known = sorted(set(prepared.summaries) - created)
    await _lock(session, workspace_id, known)
    fresh = [row for trace_id in created for row in prepared.rows[trace_id]]
    others = [copy_rows.decode(row) for trace_id in known for row in prepared.rows[trace_id]]
    await write_unstored(session, fresh)
    inserted = await insert_new(session, others)
    if inserted:
        new_spans: dict[str, list[StoredSpan]] = {}
        for row in others:
            if (row.trace_id, row.span_id) in inserted:
                new_spans.setdefault(row.trace_id, []).append(stored_span(row))
        await _resummarize(session, workspace_id, inserted, new_spans)
    return len(fresh) + len(inserted)


def _summary_row(workspace_id: str, trace_id: str, columns: dict[str, Any]) -> dict[str, Any]:
    return {"workspace_id": workspace_id, "id": trace_id, **columns, "updated_at": utcnow()}


async def _lock(session: AsyncSession, workspace_id: str, trace_ids: list[str]) -> None:
    """The rows of traces stored before locked in id order (no deadlock between two
    requests), so the summary written last saw every span committed before it."""
    if trace_ids and session.get_bind().dialect.name == "postgresql":
        await session.execute(
            select(Trace.id)
            .where(Trace.workspace_id == workspace_id, Trace.id.in_(trace_ids))
            .order_by(Trace.id)
            .with_for_update()
        )


async def _resummarize(
    session: AsyncSession,
    workspace_id: str,
    inserted: set[tuple[str, str]],
    by_trace: dict[str, list[StoredSpan]],
) -> None:
    """The traces stored before that got new spans (`by_trace`: the request's new spans of
    each, not read back), summarized from their other stored spans and those."""
    trace_ids = sorted(by_trace)
    rows = await session.execute(
        select(
            TraceSpan.trace_id,
            TraceSpan.span_id,
            TraceSpan.service,
            TraceSpan.step,
            TraceSpan.attributes,
        ).where(TraceSpan.workspace_id == workspace_id, TraceSpan.trace_id.in_(trace_ids))
    )
    for trace_id, span_id, service, step, attributes in rows.all():
        if (trace_id, span_id) in inserted:
            continue
        by_trace[trace_id].append(
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
    summaries = []
    for trace_id, stored in by_trace.items():
        row = _summary_row(workspace_id, trace_id, summary_columns(stored))
        row["has_feedback"] = row["has_feedback"] or trace_id in had_feedback
        summaries.append(row)
    await session.execute(update(Trace), summaries)  # one executemany by primary key


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
