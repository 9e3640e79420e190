"""A span row as stored is the same whichever way it went in: on PostgreSQL the spans of a
trace an export creates are written as binary `COPY` rows encoded where the export is
prepared (server/traces/copy_rows.py), those of a trace stored before by `INSERT`; SQLite
inserts both. Unicode, NUL, a value cut past 64 KiB, a redacted secret, large integers,
missing parents and services read back exactly."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.db import utcnow
from server.traces.models import TraceSpan
from tests.server.traces.otlp_bodies import SpanSpec, export, new_trace_id, post, read_trace

TRICKY: dict[str, object] = {
    "note": 'Zoë — 日本語 🚀 "quoted" \\ back',
    "nul": "a\x00b",
    "huge": "é" * 40_000,  # 80,000 bytes of UTF-8
    "db.password": "hunter2",
    "count": 2**62,
    "ratio": 0.5,
    "flag": True,
    "list": [1, "x"],
}


async def post_without_service(backend: Backend, spans: list[SpanSpec], token: str) -> None:
    """An export whose resource names no `service.name` (the row's service is NULL)."""
    request = export(spans)
    del request.resource_spans[0].resource.attributes[:]
    posted = await post(backend, request.SerializeToString(), token=token)
    assert posted.status == 200, (posted.status, posted.body[:300])


async def rows_of(backend: Backend, workspace_id: str, trace_id: str) -> dict[str, Any]:
    async with backend.sessionmaker() as session:
        found = await session.execute(
            select(TraceSpan).where(
                TraceSpan.workspace_id == workspace_id, TraceSpan.trace_id == trace_id
            )
        )
        return {row.span_id: row for row in found.scalars()}


async def test_copied_and_inserted_rows_read_back_the_same(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    trace_id = new_trace_id()
    root = SpanSpec(trace_id, "lookup 🚀", attributes=TRICKY)
    child = SpanSpec(
        trace_id, "lookup again", parent_id=root.span_id, start_ms=3, attributes=TRICKY
    )
    before = utcnow()
    await post_without_service(backend, [root], ws.owner)  # creates the trace: COPY
    await post_without_service(backend, [child], ws.owner)  # a trace stored before: INSERT
    after = utcnow()

    rows = await rows_of(backend, ws.id, trace_id)
    copied, inserted = rows[root.span_id], rows[child.span_id]
    assert (copied.parent_span_id, inserted.parent_span_id) == (None, root.span_id)
    assert (copied.service, inserted.service) == (None, None)
    assert copied.attributes == inserted.attributes
    span = copied.attributes["span"]
    cut = span.pop("huge")
    assert span == {
        "note": TRICKY["note"],
        "nul": "a\ufffdb",
        "db.password": "[redacted]",
        "count": 2**62,
        "ratio": 0.5,
        "flag": True,
        "list": [1, "x"],
    }
    assert cut == "é" * 32_768 + "…[cut: 80000 bytes, 65536 kept]"
    assert copied.attributes["resource"] == {} and copied.attributes["events"] == []

    def same(step: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in step.items() if k not in ("id", "name", "startedAt", "parentId")}

    assert same(copied.step) == same(inserted.step)
    assert (copied.step["name"], copied.step["kind"]) == ("lookup 🚀", "OTHER")
    for row, spec in ((copied, root), (inserted, child)):
        assert row.started_at == datetime.fromisoformat(row.step["startedAt"])
        expected = spec.base_ns + int(spec.start_ms * 1e6)
        assert abs(row.started_at.timestamp() * 1e9 - expected) < 1_000
        assert before - timedelta(seconds=1) <= row.received_at <= after

    trace = await read_trace(backend, trace_id, token=ws.owner)
    assert [s["name"] for s in trace["steps"]] == ["lookup 🚀", "lookup again"]
    assert trace["steps"][0]["attributes"]["note"] == TRICKY["note"]
    assert trace["service"] is None
    assert "hunter2" not in str(trace)
