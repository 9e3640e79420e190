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
from server.traces.copy_rows import Encoder, SpanRow
from server.traces.spans import ReceivedSpan
from server.traces.steps import step_document, step_from_document, step_of
from server.traces.summary import StoredSpan, summary_columns

Prices = dict[str, tuple[int, int]]
"""The workspace's model prices: model → (input, output) micro-dollars per million tokens."""


class Prepared(NamedTuple):
    rows: dict[str, list[bytes]]
    """Each trace's span rows in PostgreSQL's binary `COPY` format (`copy_rows`), one a
    (trace id, span id): an export that repeats a span keeps its last."""
    summaries: dict[str, dict[str, Any]]
    """Each trace's summary columns (`summary_columns`) from this export's spans of it."""
    rejected: int
    reasons: list[str]


def prepare(
    body: bytes, media_type: str, prices: Prices, workspace_id: str, received_at: datetime
) -> Prepared:
    """The export ready to store (`otlp.NotOtlp` when it is not one)."""
    decoded = otlp.decode(body, media_type)
    unique = {(span.trace_id, span.span_id): span for span in decoded.spans}
    encoder = Encoder(workspace_id, received_at)
    rows: dict[str, list[bytes]] = {}
    by_trace: dict[str, list[StoredSpan]] = {}
    for span in unique.values():
        step = step_of(span, prices.get)
        service = service_of(span)
        row = encoder.encode(
            span.trace_id,
            span.span_id,
            span.parent_span_id,
            step.startedAt,
            service,
            json_bytes(step, step_document),
            json_bytes(_attributes_document(span)),
        )
        rows.setdefault(span.trace_id, []).append(row)
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


def row_values(row: SpanRow) -> dict[str, Any]:
    """The row's columns by name, its JSON as documents (for an `INSERT`, not the `COPY`)."""
    return {
        **row._asdict(),
        "step": _document(row.step),
        "attributes": _document(row.attributes),
    }


def json_bytes(value: Any, as_document: Callable[[Any], object] = lambda value: value) -> bytes:
    """`as_document(value)` as JSON text (UTF-8). `orjson` writes `value` itself (dataclasses
    such as `Step` field by field, datetimes in ISO 8601 as `isoformat` does); `json` writes
    the document when `orjson` cannot (an integer past 64 bits)."""
    try:
        return orjson.dumps(value)
    except TypeError:
        return json.dumps(as_document(value)).encode()


def _document(text: bytes) -> Any:
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
