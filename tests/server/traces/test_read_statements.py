"""What the trace reads cost. The list's `totalCount` is kept a moment per (workspace, filter)
in each process (server/traces/counts.py): a page read again soon costs no count, and the
count is right at once after an export is stored or a trace scored through this process.
A page whose count is kept is one statement on PostgreSQL; `trace(id)` is two statements,
three when the trace has feedback."""

from __future__ import annotations

from typing import Any

import pytest

from bench.kit.factories import WorkspaceFixture, make_workspace
from bench.kit.harness import Backend
from bench.kit.statements import counting_statements
from bench.kit.waiting import API_POLL_SECONDS, eventually
from server.traces import counts
from server.traces.models import Trace
from server.workspaces.roles import Role
from tests.server.traces.otlp_bodies import agent_trace, new_trace_id, post_spans

LIST = """query($filter: TraceFilter) { traces(filter: $filter, first: 2) {
  totalCount edges { node { id } } } }"""
SCORE = 'mutation($t: ID!) { scoreTrace(traceId: $t, name: "thumb", value: 1) { name } }'


async def post_one(backend: Backend, ws: WorkspaceFixture) -> str:
    trace_id = new_trace_id()
    await post_spans(backend, agent_trace(trace_id, "hi", "hello"), token=ws.owner)
    return trace_id


async def listed(
    backend: Backend, ws: WorkspaceFixture, **filter: Any
) -> tuple[int, list[str], list[str]]:
    """(totalCount, the page's ids, the statements the read ran)."""
    with counting_statements(backend) as seen:
        found = await backend.gql(LIST, {"filter": filter}, token=ws.tokens[Role.VIEWER])
    page = found.ok()["traces"]
    return page["totalCount"], [e["node"]["id"] for e in page["edges"]], list(seen)


def counts_in(statements: list[str]) -> int:
    return sum("count(" in s.lower() for s in statements)


async def test_a_count_is_kept_until_the_workspaces_traces_change(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    # kept as long as the test may take on a slow host: what it shows is what drops a count
    monkeypatch.setattr(counts, "FRESH_SECONDS", 600.0)
    ws = await make_workspace(backend.sessionmaker)
    first = await post_one(backend, ws)
    total, ids, seen = await listed(backend, ws)
    assert (total, ids, counts_in(seen)) == (1, [first], 1)
    total, ids, seen = await listed(backend, ws)  # read again: the count kept
    assert (total, ids, counts_in(seen)) == (1, [first], 0), seen
    # the page alone; on PostgreSQL with the workspace's retention inside it
    reads = [s for s in seen if not s.startswith("BEGIN")]
    assert len(reads) == (1 if backend.name == "postgres" else 2), reads

    second = await post_one(backend, ws)
    total, ids, seen = await listed(backend, ws)
    assert (total, sorted(ids), counts_in(seen)) == (2, sorted([first, second]), 1)

    total, _, _ = await listed(backend, ws, hasFeedback=True)
    assert total == 0
    (await backend.gql(SCORE, {"t": second}, token=ws.tokens[Role.MEMBER])).ok()
    total, ids, _ = await listed(backend, ws, hasFeedback=True)
    assert (total, ids) == (1, [second])

    other = await make_workspace(backend.sessionmaker)  # another workspace's count is its own
    total, ids, _ = await listed(backend, other)
    assert (total, ids) == (0, [])


TRACE = "query($id: ID!) { trace(id: $id) { id steps { name } feedback { name source } } }"


async def test_a_trace_is_read_in_two_statements_or_three_with_feedback(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    trace_id = await post_one(backend, ws)

    async def read() -> tuple[dict[str, Any], list[str]]:
        with counting_statements(backend) as seen:
            found = await backend.gql(TRACE, {"id": trace_id}, token=ws.tokens[Role.VIEWER])
        return found.ok()["trace"], [s for s in seen if not s.startswith("BEGIN")]

    trace, seen = await read()
    assert len(trace["steps"]) == 4 and trace["steps"][0]["name"] == "invoke_agent support"
    assert (trace["feedback"], len(seen)) == ([], 2), seen
    (await backend.gql(SCORE, {"t": trace_id}, token=ws.tokens[Role.MEMBER])).ok()
    trace, seen = await read()
    assert (trace["feedback"], len(seen)) == ([{"name": "thumb", "source": "API"}], 3), seen


async def copy_of_a_trace(backend: Backend, workspace_id: str, trace_id: str) -> str:
    """A trace another process stored: this process's counts are not told."""
    other = new_trace_id()
    async with backend.sessionmaker() as session, session.begin():
        row = await session.get(Trace, (workspace_id, trace_id))
        assert row is not None
        values = {c.key: getattr(row, c.key) for c in Trace.__table__.columns}
        session.add(Trace(**(values | {"id": other})))
    return other


async def test_an_aged_count_is_answered_while_counted_again_behind_on_postgres(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL a count older than `FRESH_SECONDS` is still the answer while it is
    counted again on a session of its own, so another process's traces show a read later;
    SQLite counts again in the request."""
    monkeypatch.setattr(counts, "FRESH_SECONDS", 0.0)  # every kept count is aged
    ws = await make_workspace(backend.sessionmaker)
    first = await post_one(backend, ws)
    total, _, _ = await listed(backend, ws)
    assert total == 1
    await copy_of_a_trace(backend, ws.id, first)
    total, ids, _ = await listed(backend, ws)
    assert len(ids) == 2  # the page itself is read as it is now
    assert total == (1 if backend.name == "postgres" else 2)

    async def total_now() -> int:
        return (await listed(backend, ws))[0]

    again = await eventually(
        total_now, until=lambda n: n == 2, what="the count again", interval=API_POLL_SECONDS
    )
    assert again == 2
