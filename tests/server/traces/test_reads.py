"""Reading traces over GraphQL: the filtered keyset list, stats, feedback, model prices, and
nothing of another workspace."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from bench.kit.factories import WorkspaceFixture, make_workspace
from bench.kit.harness import Backend
from server.audit.models import AuditEvent
from server.workspaces.roles import Role
from tests.server.traces.otlp_bodies import SpanSpec, new_trace_id, post_spans, read_trace

LIST = """
query($filter: TraceFilter, $first: Int, $after: String) {
  traces(filter: $filter, first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges { node { id service release status caseId models durationMs hasFeedback } }
  }
}
"""


def chat(model: str, question: str, answer: str, tokens: tuple[int, int]) -> dict[str, Any]:
    return {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": model,
        "gen_ai.usage.input_tokens": tokens[0],
        "gen_ai.usage.output_tokens": tokens[1],
        "gen_ai.input.messages": json.dumps(
            [{"role": "user", "parts": [{"type": "text", "content": question}]}]
        ),
        "gen_ai.output.messages": json.dumps(
            [{"role": "assistant", "parts": [{"type": "text", "content": answer}]}]
        ),
    }


async def post_trace(
    backend: Backend,
    ws: WorkspaceFixture,
    *,
    service: str = "shop",
    release: str = "r1",
    model: str = "gpt-a",
    question: str = "hello",
    duration_ms: float = 100,
    error: bool = False,
    case_id: str | None = None,
    at_ns: int | None = None,
    trace_id: str | None = None,
    extra: dict[str, object] | None = None,
) -> str:
    trace_id = trace_id or new_trace_id()
    attributes = {**chat(model, question, f"answer to {question}", (10, 4)), **(extra or {})}
    if case_id is not None:
        attributes["shipwise.case_id"] = case_id
    span = SpanSpec(
        trace_id,
        "chat",
        duration_ms=duration_ms,
        error=error,
        attributes=attributes,
        base_ns=at_ns or time.time_ns(),
    )
    await post_spans(
        backend,
        [span],
        token=ws.tokens[Role.MEMBER],
        service=service,
        **{"service.version": release},
    )
    return trace_id


async def listed(backend: Backend, token: str, **filter: Any) -> list[str]:
    data = (await backend.gql(LIST, {"filter": filter, "first": 100}, token=token)).ok()
    return [e["node"]["id"] for e in data["traces"]["edges"]]


async def test_the_list_filters_and_pages_newest_first(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    now = time.time_ns()
    a = await post_trace(
        backend,
        ws,
        service="shop",
        release="r1",
        model="gpt-a",
        question="where is my parcel",
        at_ns=now - 3_000_000_000,
        case_id="c-1",
    )
    b = await post_trace(
        backend,
        ws,
        service="shop",
        release="r2",
        model="gpt-b",
        duration_ms=900,
        error=True,
        at_ns=now - 2_000_000_000,
    )
    c = await post_trace(
        backend,
        ws,
        service="billing",
        release="r2",
        model="gpt-a",
        at_ns=now - 1_000_000_000,
        extra={"shipwise.feedback.thumbs": 1},
    )
    token = ws.tokens[Role.VIEWER]
    assert await listed(backend, token) == [c, b, a]
    assert await listed(backend, token, service="shop") == [b, a]
    assert await listed(backend, token, release="r2") == [c, b]
    assert await listed(backend, token, model="gpt-a") == [c, a]
    assert await listed(backend, token, status="ERROR") == [b]
    assert await listed(backend, token, caseId="c-1") == [a]
    assert await listed(backend, token, search="PARCEL") == [a]
    assert await listed(backend, token, search="100%_") == []
    assert await listed(backend, token, minDurationMs=500) == [b]
    assert await listed(backend, token, hasFeedback=True) == [c]
    assert await listed(backend, token, hasFeedback=False) == [b, a]
    middle = datetime.fromtimestamp((now - 2_500_000_000) / 1e9, tz=UTC).isoformat()
    assert await listed(backend, token, startedAfter=middle) == [c, b]
    assert await listed(backend, token, startedBefore=middle) == [a]

    pages: list[str] = []
    after = None
    while True:
        page = (await backend.gql(LIST, {"first": 2, "after": after}, token=token)).ok()["traces"]
        assert page["totalCount"] == 3
        pages += [e["node"]["id"] for e in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert pages == [c, b, a]
    bad = await backend.gql(LIST, {"after": "bm9wZQ=="}, token=token)
    assert bad.codes == ["VALIDATION_FAILED"]


async def test_stats_group_by_release_model_and_service(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    await post_trace(backend, ws, release="r1", model="gpt-a", duration_ms=100)
    await post_trace(backend, ws, release="r1", model="gpt-a", duration_ms=300, error=True)
    await post_trace(backend, ws, release="r2", model="gpt-b", duration_ms=200, service="other")
    query = """query($g: TraceGroupBy!, $f: TraceFilter) { traceStats(groupBy: $g, filter: $f) {
        key traces errorRate latencyP50Ms latencyP95Ms inputTokens outputTokens costCents } }"""
    token = ws.tokens[Role.VIEWER]
    by_release = (await backend.gql(query, {"g": "RELEASE"}, token=token)).ok()["traceStats"]
    assert by_release[0] == {
        "key": "r1",
        "traces": 2,
        "errorRate": 0.5,
        "latencyP50Ms": 200.0,
        "latencyP95Ms": 290.0,
        "inputTokens": 20,
        "outputTokens": 8,
        "costCents": 0.0,
    }
    assert (by_release[1]["key"], by_release[1]["traces"]) == ("r2", 1)
    by_model = (await backend.gql(query, {"g": "MODEL"}, token=token)).ok()["traceStats"]
    assert [(r["key"], r["traces"]) for r in by_model] == [("gpt-a", 2), ("gpt-b", 1)]
    by_service = (
        await backend.gql(query, {"g": "SERVICE", "f": {"status": "OK"}}, token=token)
    ).ok()["traceStats"]
    assert sorted((r["key"], r["traces"]) for r in by_service) == [("other", 1), ("shop", 1)]


async def test_feedback_is_scored_audited_and_read_from_span_attributes(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    trace_id = await post_trace(backend, ws, extra={"shipwise.feedback.accuracy": 0.5})
    score = """mutation($t: ID!, $n: String!, $v: Float!, $c: String) {
        scoreTrace(traceId: $t, name: $n, value: $v, comment: $c) { name value comment source } }"""
    refused = await backend.gql(
        score, {"t": trace_id, "n": "helpful", "v": 1}, token=ws.tokens[Role.VIEWER]
    )
    assert refused.codes == ["FORBIDDEN"]
    empty = await backend.gql(
        score, {"t": trace_id, "n": " ", "v": 1}, token=ws.tokens[Role.MEMBER]
    )
    assert empty.codes == ["VALIDATION_FAILED"]
    given = (
        await backend.gql(
            score,
            {"t": trace_id, "n": "helpful", "v": 1, "c": "<b>ok</b>"},
            token=ws.tokens[Role.MEMBER],
        )
    ).ok()["scoreTrace"]
    assert given == {"name": "helpful", "value": 1.0, "comment": "<b>ok</b>", "source": "API"}
    trace = await read_trace(backend, trace_id, token=ws.tokens[Role.VIEWER])
    assert [(f["name"], f["value"], f["source"]) for f in trace["feedback"]] == [
        ("accuracy", 0.5, "SPAN"),
        ("helpful", 1.0, "API"),
    ]
    assert trace["hasFeedback"] is True
    async with backend.sessionmaker() as session:
        actions = list(
            await session.scalars(
                select(AuditEvent.action).where(
                    AuditEvent.workspace_id == ws.id, AuditEvent.target_id == trace_id
                )
            )
        )
    assert actions == ["trace.score"]


async def test_model_prices_are_set_by_an_admin_and_price_new_traces(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    mutation = """mutation($p: [ModelPriceInput!]!) { setModelPrices(prices: $p) {
        model inputCentsPerMillionTokens outputCentsPerMillionTokens } }"""
    price = {
        "model": "gpt-a",
        "inputCentsPerMillionTokens": 250_000.0,
        "outputCentsPerMillionTokens": 1_000_000.0,
    }
    assert (await backend.gql(mutation, {"p": [price]}, token=ws.tokens[Role.MEMBER])).codes == [
        "FORBIDDEN"
    ]
    negative = await backend.gql(
        mutation, {"p": [{**price, "inputCentsPerMillionTokens": -1}]}, token=ws.tokens[Role.ADMIN]
    )
    assert negative.codes == ["VALIDATION_FAILED"]
    assert negative.errors[0]["extensions"]["field"] == "prices[0].inputCentsPerMillionTokens"
    assert (await backend.gql(mutation, {"p": [price]}, token=ws.tokens[Role.ADMIN])).ok()[
        "setModelPrices"
    ] == [price]
    listed_prices = (await backend.gql("{ modelPrices { model } }", token=ws.owner)).ok()
    assert listed_prices["modelPrices"] == [{"model": "gpt-a"}]
    trace_id = await post_trace(backend, ws, model="gpt-a")  # 10 in, 4 out
    trace = await read_trace(backend, trace_id, token=ws.owner)
    assert trace["costCents"] == 6.5  # 10 × 0.25 ¢ + 4 × 1 ¢
    assert trace["steps"][0]["costCents"] == 6.5


async def test_another_workspaces_traces_are_never_seen(backend: Backend) -> None:
    mine = await make_workspace(backend.sessionmaker, name="mine")
    theirs = await make_workspace(backend.sessionmaker, name="theirs")
    shared_id = new_trace_id()  # both export a trace with the same id: two traces
    own = await post_trace(backend, mine, case_id="c-1", question="mine", trace_id=shared_id)
    await post_trace(backend, theirs, case_id="c-1", question="theirs", trace_id=shared_id)
    other = await post_trace(
        backend,
        theirs,
        case_id="c-1",
        service="shop",
        release="r1",
        extra={"shipwise.feedback.x": 1},
    )
    token = mine.tokens[Role.VIEWER]
    missing = await backend.gql(
        "query($id: ID!) { trace(id: $id) { id } }", {"id": other}, token=token
    )
    assert missing.codes == ["NOT_FOUND"]
    assert (await read_trace(backend, own, token=token))["input"] == "mine"
    filters: list[dict[str, Any]] = [
        {},
        {"service": "shop"},
        {"release": "r1"},
        {"model": "gpt-a"},
        {"status": "OK"},
        {"caseId": "c-1"},
        {"search": "theirs"},
        {"search": other},
        {"hasFeedback": True},
        {"minDurationMs": 0},
        {"startedAfter": "2000-01-01T00:00:00+00:00"},
    ]
    for where in filters:
        found = await listed(backend, token, **where)
        assert other not in found and set(found) <= {own}, (where, found)
    stats = (
        await backend.gql("{ traceStats(groupBy: SERVICE) { key traces } }", token=token)
    ).ok()["traceStats"]
    assert stats == [{"key": "shop", "traces": 1}]
    scored = await backend.gql(
        'mutation($t: ID!) { scoreTrace(traceId: $t, name: "n", value: 1) { name } }',
        {"t": other},
        token=mine.tokens[Role.MEMBER],
    )
    assert scored.codes == ["NOT_FOUND"]
