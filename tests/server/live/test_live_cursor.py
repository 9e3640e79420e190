"""Grading reads a comparison's traces by a cursor on their ingest order
(server/live/cursor.py), and still grades each trace exactly once: spans that arrive after
their trace was graded write it again (it comes after the cursor once more) without a second
grade, and a trace whose ingest committed after the cursor passed its stamp is graded all
the same."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from bench.kit.factories import WorkspaceFixture, make_workspace
from bench.kit.harness import Backend
from bench.kit.waiting import API_POLL_SECONDS, eventually
from server.db import transaction, utcnow
from server.live import cursor, grading
from server.live.models import LiveComparison, LiveGrade
from server.traces import store
from server.traces.models import Trace
from server.traces.prepare import prepare
from server.workspaces.roles import Role
from tests.server.live.canary import chat_traces, create, pattern, read
from tests.server.traces.otlp_bodies import PROTOBUF, SpanSpec, export, post_spans, read_trace

UNDECIDED = {"qualityMarginPoints": 0.1}
"""Equal arms stay RUNNING under this margin for far more traces than a test posts."""


async def _post(
    backend: Backend, ws: WorkspaceFixture, release: str, spans: list[SpanSpec]
) -> None:
    await post_spans(
        backend,
        spans,
        token=ws.tokens[Role.MEMBER],
        service="shop",
        **{"shipwise.release": release},
    )


async def _graded(backend: Backend, ws: WorkspaceFixture, live_id: str, want: list[int]) -> Any:
    return await eventually(
        lambda: read(backend, ws.tokens[Role.VIEWER], live_id),
        until=lambda r: [a["graded"] for a in r["arms"]] == want,
        interval=API_POLL_SECONDS,
        what=f"{want} traces graded",
    )


async def _grade_rows(backend: Backend, live_id: str) -> tuple[int, int]:
    async with backend.sessionmaker() as session:
        where = LiveGrade.live_comparison_id == live_id
        rows = await session.scalar(select(func.count()).where(where))
        distinct = await session.scalar(
            select(func.count(LiveGrade.trace_id.distinct())).where(where)
        )
    return int(rows or 0), int(distinct or 0)


def _tool_span(parent: SpanSpec) -> SpanSpec:
    """A span of `parent`'s trace that arrives after it: a tool call under it."""
    return SpanSpec(
        parent.trace_id, "lookup", parent_id=parent.span_id, start_ms=5.0, base_ns=parent.base_ns,
        attributes={"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup"},
    )  # fmt: skip


async def test_late_spans_do_not_grade_a_trace_twice(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    live = await create(backend, ws, shipPolicy=UNDECIDED)
    first = {"v2": chat_traces(20, pattern(0.9, 20)), "v1": chat_traces(20, pattern(0.9, 20))}
    for release, spans in first.items():
        await _post(backend, ws, release, spans)
    await _graded(backend, ws, live["id"], [20, 20])
    # Every graded trace gets a late span, then 10 new traces an arm follow them.
    for release, spans in first.items():
        await _post(backend, ws, release, [_tool_span(s) for s in spans])
    for release in ("v2", "v1"):
        await _post(backend, ws, release, chat_traces(10, [True] * 10))
    shown = await _graded(backend, ws, live["id"], [30, 30])
    assert shown["status"] == "RUNNING"
    assert [a["traces"] for a in shown["arms"]] == [30, 30]
    assert await _grade_rows(backend, live["id"]) == (60, 60)
    late = await read_trace(backend, first["v2"][0].trace_id, token=ws.tokens[Role.VIEWER])
    assert len(late["steps"]) == 2  # the late span was stored: the trace was written again


async def test_a_trace_committed_behind_the_cursor_is_graded_once(
    postgres_backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An ingest transaction stamps its trace and commits only after the cursor, `LAG`
    behind the clock, passed the stamp: a later batch's settle check grades it, once. The
    worker's batches look for such a trace `SETTLE` (60 s) after its stamp; this test's
    own batch (the job's call) waits none."""
    backend = postgres_backend
    ws = await make_workspace(backend.sessionmaker)
    live = await create(backend, ws, shipPolicy=UNDECIDED)
    held = chat_traces(1, [True])
    body = export(held, service="shop", **{"shipwise.release": "v2"}).SerializeToString()
    async with transaction(backend.sessionmaker) as session:
        await store.store_prepared(
            session=session,
            workspace_id=ws.id,
            prepared=prepare(body, PROTOBUF, {}, ws.id, utcnow()),
        )
        stamp = await session.scalar(select(Trace.updated_at).where(Trace.id == held[0].trace_id))
        assert stamp is not None
        await _post(backend, ws, "v2", chat_traces(5, [True] * 5))
        await _post(backend, ws, "v1", chat_traces(5, [True] * 5))
        await _graded(backend, ws, live["id"], [5, 5])
        await eventually(utcnow, until=lambda now: now > stamp + cursor.LAG, what="LAG past")
        await _post(backend, ws, "v1", chat_traces(1, [True]))  # its batch moves the cursor on
        await _graded(backend, ws, live["id"], [5, 6])
        assert await _scanned(backend, live["id"]) > stamp  # committed behind the cursor
    monkeypatch.setattr(cursor, "SETTLE", timedelta(0))
    graded = await grading.grade_batch(sessionmaker=backend.sessionmaker, live_id=live["id"])
    assert graded is not None and graded.graded == 1
    shown = await read(backend, ws.tokens[Role.VIEWER], live["id"])
    assert [a["graded"] for a in shown["arms"]] == [6, 6]
    assert await _grade_rows(backend, live["id"]) == (12, 12)
    assert await grading.grade_batch(sessionmaker=backend.sessionmaker, live_id=live["id"]) is None


async def _scanned(backend: Backend, live_id: str) -> datetime:
    async with backend.sessionmaker() as session:
        row = await session.get(LiveComparison, live_id)
        assert row is not None and row.scanned_at is not None
        return row.scanned_at
