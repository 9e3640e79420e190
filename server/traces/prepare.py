"""An export made ready to store, with no I/O (server/traces/store.py writes it): its spans
decoded, each read as a step once, each row's JSON written, and each trace's summary from the
export's own spans. What goes in and comes out is plain values that pickle fast, so a large
export is prepared in a worker process (server/traces/preparer.py) while the API's event loop
reads, writes and answers."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any, NamedTuple

import orjson

from server.traces import otlp
from server.traces.spans import ReceivedSpan
from server.traces.steps import step_document, step_from_document, step_of
from server.traces.summary import StoredSpan, summary_columns

Prices = dict[str, tuple[int, int]]
"""The workspace's model prices: model → (input, output) micro-dollars per million tokens."""


class SpanRow(NamedTuple):
    """A span's `trace_span` columns but its workspace and when it was received; the two
    JSON columns as text."""

    trace_id: str
    span_id: str
    parent_span_id: str | None
    started_at: datetime
    service: str | None
    step: str
    attributes: str


class Prepared(NamedTuple):
    rows: list[SpanRow]
    """One a (trace id, span id): an export that repeats a span keeps its last."""
    summaries: dict[str, dict[str, Any]]
    """Each trace's summary columns (`summary_columns`) from this export's spans of it."""
    rejected: int
    reasons: list[str]


def prepare(body: bytes, media_type: str, prices: Prices) -> Prepared:
    """The export ready to store (`otlp.NotOtlp` when it is not one)."""
    decoded = otlp.decode(body, media_type)
    unique = {(span.trace_id, span.span_id): span for span in decoded.spans}
    rows: list[SpanRow] = []
    by_trace: dict[str, list[StoredSpan]] = {}
    for span in unique.values():
        step = step_of(span, prices.get)
        service = service_of(span)
        rows.append(
            SpanRow(
                span.trace_id,
                span.span_id,
                span.parent_span_id,
                step.startedAt,
                service,
                json_text(step, step_document),
                json_text(_attributes_document(span)),
            )
        )
        stored = StoredSpan(step, service, span.attributes, span.resource)
        by_trace.setdefault(span.trace_id, []).append(stored)
    summaries = {trace_id: summary_columns(spans) for trace_id, spans in by_trace.items()}
    return Prepared(rows, summaries, decoded.rejected, decoded.reasons)


def service_of(span: ReceivedSpan) -> str | None:
    name = span.resource.get("service.name")
    return str(name)[:200] if name is not None else None


def stored_span(row: SpanRow) -> StoredSpan:
    """A prepared row as the summary reads it (for a trace stored before, read again)."""
    attributes = _document(row.attributes)
    return StoredSpan(
        step=step_from_document(_document(row.step)),
        service=row.service,
        attributes=attributes["span"],
        resource=attributes["resource"],
    )


def row_values(workspace_id: str, row: SpanRow, received_at: datetime) -> dict[str, Any]:
    """The row's columns by name, its JSON as documents (for an `INSERT`, not the `COPY`)."""
    return {
        "workspace_id": workspace_id,
        **row._asdict(),
        "step": _document(row.step),
        "attributes": _document(row.attributes),
        "received_at": received_at,
    }


def json_text(value: Any, as_document: Callable[[Any], object] = lambda value: value) -> str:
    """`as_document(value)` as JSON text. `orjson` writes `value` itself (dataclasses such as
    `Step` field by field, datetimes in ISO 8601 as `isoformat` does); `json` writes the
    document when `orjson` cannot (an integer past 64 bits)."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(as_document(value))


def _document(text: str) -> Any:
    try:
        return orjson.loads(text)
    except ValueError:  # an integer past 64 bits
        return json.loads(text)


def _attributes_document(span: ReceivedSpan) -> dict[str, Any]:
    events = [
        {"name": e.name, "timeUnixNano": e.time_unix_nano, "attributes": e.attributes}
        for e in span.events
    ]
    return {"span": span.attributes, "resource": span.resource, "events": events}
