"""POST /v1/traces as OpenTelemetry exporters use it (docs/traces.md), on both backends."""

from __future__ import annotations

import asyncio
import json
import os
import time

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.server.traces.otlp_bodies import (
    SpanSpec,
    export,
    new_trace_id,
    otlp_json,
    post,
    post_spans,
    read_trace,
)

CHAT = {
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": "openai",
    "gen_ai.request.model": "gpt-4o-mini",
    "gen_ai.usage.input_tokens": 12,
    "gen_ai.usage.output_tokens": 5,
    "gen_ai.input.messages": json.dumps(
        [{"role": "user", "parts": [{"type": "text", "content": "Where is order 7?"}]}]
    ),
    "gen_ai.output.messages": json.dumps(
        [
            {
                "role": "assistant",
                "parts": [{"type": "text", "content": "It ships today."}],
                "finish_reason": "stop",
            }
        ]
    ),
}


def agent_spans(trace_id: str) -> list[SpanSpec]:
    root = SpanSpec(
        trace_id, "invoke_agent support", attributes={"gen_ai.operation.name": "invoke_agent"}
    )
    root.duration_ms = 50
    chat = SpanSpec(
        trace_id,
        "chat gpt-4o-mini",
        parent_id=root.span_id,
        start_ms=5,
        attributes=CHAT,
        base_ns=root.base_ns,
    )
    return [root, chat]


async def test_a_protobuf_export_is_stored_and_read_back_as_one_trace(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    trace_id = new_trace_id()
    spans = agent_spans(trace_id)
    posted = await post_spans(
        backend, spans, token=ws.tokens[Role.MEMBER], **{"service.version": "v7"}
    )
    assert posted.headers["content-type"].startswith("application/x-protobuf")
    assert posted.response().partial_success.rejected_spans == 0

    trace = await read_trace(backend, trace_id, token=ws.tokens[Role.VIEWER])
    assert trace["id"] == trace_id
    assert (trace["service"], trace["release"], trace["rootName"]) == (
        "agent-app",
        "v7",
        "invoke_agent support",
    )
    assert (trace["input"], trace["output"]) == ("Where is order 7?", "It ships today.")
    assert (trace["llmCalls"], trace["inputTokens"], trace["outputTokens"]) == (1, 12, 5)
    assert trace["models"] == ["gpt-4o-mini"]
    assert [s["kind"] for s in trace["steps"]] == ["AGENT", "LLM"]
    assert trace["steps"][1]["parentId"] == spans[0].span_id
    assert trace["steps"][1]["finishReasons"] == ["stop"]
    assert trace["durationMs"] >= 50


async def test_otlp_json_gzipped_is_answered_in_json(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    trace_id = new_trace_id()
    body = json.dumps(otlp_json(export(agent_spans(trace_id)))).encode()
    posted = await post(
        backend, body, token=ws.tokens[Role.MEMBER], content_type="application/json", gzipped=True
    )
    assert posted.status == 200, posted.body
    assert posted.headers["content-type"].startswith("application/json")
    assert json.loads(posted.body) == {}
    trace = await read_trace(backend, trace_id, token=ws.owner)
    assert trace["stepCount"] == 2


async def test_spans_arriving_in_any_order_twice_make_one_trace(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    trace_id = new_trace_id()
    root, chat = agent_spans(trace_id)
    tool = SpanSpec(
        trace_id,
        "execute_tool lookup",
        parent_id=root.span_id,
        start_ms=20,
        base_ns=root.base_ns,
        attributes={
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": "lookup",
            "gen_ai.tool.call.id": "call_1",
            "gen_ai.tool.call.arguments": '{"order": 7}',
            "gen_ai.tool.call.result": '{"status": "shipped"}',
        },
    )
    token = ws.tokens[Role.MEMBER]
    await post_spans(backend, [tool], token=token)  # the child first, the root last
    await post_spans(backend, [chat, tool], token=token)  # a retry adds nothing
    await post_spans(backend, [root], token=token)
    await post_spans(backend, [root, chat, tool], token=token)
    trace = await read_trace(backend, trace_id, token=token)
    assert [s["name"] for s in trace["steps"]] == [
        "invoke_agent support",
        "chat gpt-4o-mini",
        "execute_tool lookup",
    ]
    assert trace["rootName"] == "invoke_agent support"
    assert trace["stepCount"] == 3 and trace["toolCalls"] == 1
    step = trace["steps"][2]
    assert (step["toolName"], step["toolCallId"]) == ("lookup", "call_1")
    assert (step["arguments"], step["result"]) == ({"order": 7}, {"status": "shipped"})
    listed = (
        await backend.gql("{ traces(first: 50) { totalCount edges { node { id } } } }", token=token)
    ).ok()["traces"]
    assert listed["totalCount"] == 1


async def test_unreadable_spans_are_counted_while_the_rest_are_stored(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    trace_id = new_trace_id()
    document = otlp_json(export(agent_spans(trace_id)))
    spans = document["resourceSpans"][0]["scopeSpans"][0]["spans"]
    spans.append({**spans[1], "spanId": "not-hex", "name": "broken"})
    posted = await post(
        backend, json.dumps(document).encode(), token=ws.owner, content_type="application/json"
    )
    assert posted.status == 200, posted.body
    answer = posted.response()
    assert answer.partial_success.rejected_spans == 1
    assert "span id" in answer.partial_success.error_message
    assert (await read_trace(backend, trace_id, token=ws.owner))["stepCount"] == 2


async def test_a_body_that_is_not_otlp_is_400_with_a_status(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.owner
    cases = [
        (b"\xff\xff\xff\xff", "application/x-protobuf", False),
        (b"this is not OTLP at all", "application/x-protobuf", False),
        (b"[1, 2, 3]", "application/json", False),
        (b'{"spans": []}', "application/json", False),
        (b"{not json", "application/json", False),
    ]
    for body, content_type, gzipped in cases:
        posted = await post(backend, body, token=token, content_type=content_type, gzipped=gzipped)
        assert posted.status == 400, (body, posted.status, posted.body)
        status = posted.status_message()
        assert status["code"] == 3, status
    broken_gzip = await backend.client.post(
        "/v1/traces",
        content=b"not gzip",
        headers={
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/x-protobuf",
            "Content-Encoding": "gzip",
        },
    )
    assert broken_gzip.status_code == 400
    listed = (await backend.gql("{ traces { totalCount } }", token=token)).ok()
    assert listed["traces"]["totalCount"] == 0


async def test_an_export_over_8_mib_is_413(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    body = os.urandom(8 * 1024 * 1024 + 1)
    posted = await post(backend, body, token=ws.owner)
    assert posted.status == 413
    assert posted.status_message()["code"] == 3


async def test_who_may_write_traces(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    body = export(agent_spans(new_trace_id())).SerializeToString()
    assert (await post(backend, body, token=None)).status == 401
    assert (await post(backend, body, token="sw_unknown")).status == 401
    viewer = await post(backend, body, token=ws.tokens[Role.VIEWER])
    assert viewer.status == 403 and viewer.status_message()["code"] == 7
    assert (await post(backend, body, token=ws.tokens[Role.MEMBER])).status == 200

    created = (
        await backend.gql(
            'mutation($m: ID!) { createToken(name: "collector", memberId: $m, scope: INGEST)'
            " { secret token { scope } } }",
            {"m": ws.member_ids[Role.VIEWER]},
            token=ws.tokens[Role.ADMIN],
        )
    ).ok()["createToken"]
    assert created["token"]["scope"] == "INGEST"
    ingest = created["secret"]
    trace_id = new_trace_id()
    await post_spans(backend, agent_spans(trace_id), token=ingest)  # a viewer's INGEST token
    refused = await backend.gql("{ traces { totalCount } }", token=ingest)
    assert refused.codes == ["FORBIDDEN"], refused.body
    assert (await read_trace(backend, trace_id, token=ws.tokens[Role.VIEWER]))["stepCount"] == 2


async def test_over_the_tokens_rate_is_429_with_retry_after(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    (
        await backend.gql(
            "mutation { updateWorkspaceSettings(input: {requestsPerMinutePerToken: 2}) { id } }",
            token=ws.owner,
        )
    ).ok()
    body = export(agent_spans(new_trace_id())).SerializeToString()
    token = ws.tokens[Role.MEMBER]
    statuses = []
    for _ in range(4):
        posted = await post(backend, body, token=token)
        statuses.append(posted.status)
        if posted.status == 429:
            assert 1 <= int(posted.headers["retry-after"]) <= 60
            assert posted.status_message()["code"] == 8
            break
    assert statuses[-1] == 429 and 200 in statuses, statuses


async def test_secret_named_attributes_are_redacted_and_long_values_cut(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    trace_id = new_trace_id()
    huge = "x" * (70 * 1024)
    span = SpanSpec(
        trace_id,
        "db.query",
        attributes={
            "http.request.header.authorization": "Bearer sk-live-SECRET1",
            "openai.api_key": "sk-SECRET2",
            "x-api-key": "SECRET3",
            "db.password": "SECRET4",
            "oauth.access_token": "SECRET5",
            "gen_ai.usage.input_tokens": 3,
            "llm.token_count.prompt": 4,
            "payload": huge,
        },
    )
    await post_spans(backend, [span], token=ws.owner)
    trace = await read_trace(backend, trace_id, token=ws.owner)
    attributes = trace["steps"][0]["attributes"]
    assert "SECRET" not in json.dumps(trace)
    for key in (
        "http.request.header.authorization",
        "openai.api_key",
        "x-api-key",
        "db.password",
        "oauth.access_token",
    ):
        assert attributes[key] == "[redacted]", key
    assert (attributes["gen_ai.usage.input_tokens"], attributes["llm.token_count.prompt"]) == (3, 4)
    cut = attributes["payload"]
    assert len(cut) < len(huge) and cut.startswith("x" * 1000) and "[cut: 71680 bytes" in cut


async def test_traces_past_the_retention_are_not_kept(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    settings = (
        await backend.gql(
            "mutation { updateWorkspaceSettings(input: {traceRetentionDays: 2})"
            " { settings { traceRetentionDays } } }",
            token=ws.owner,
        )
    ).ok()
    assert settings["updateWorkspaceSettings"]["settings"]["traceRetentionDays"] == 2
    old_id, new_id = new_trace_id(), new_trace_id()
    three_days_ago = time.time_ns() - 3 * 86_400 * 10**9
    old = SpanSpec(old_id, "old", base_ns=three_days_ago)
    await post_spans(backend, [old, SpanSpec(new_id, "new")], token=ws.owner)
    gone = await backend.gql(
        "query($id: ID!) { trace(id: $id) { id } }", {"id": old_id}, token=ws.owner
    )
    assert gone.codes == ["NOT_FOUND"]
    listed = (await backend.gql("{ traces { edges { node { id } } } }", token=ws.owner)).ok()
    assert [e["node"]["id"] for e in listed["traces"]["edges"]] == [new_id]
    fresh = await backend.gql("{ workspace { settings { traceRetentionDays } } }", token=ws.owner)
    assert fresh.ok()["workspace"]["settings"]["traceRetentionDays"] == 2


async def test_an_unsupported_media_type_is_415(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    posted = await post(backend, b"hello", token=ws.owner, content_type="text/plain")
    assert posted.status == 415


async def test_nul_characters_and_infinite_numbers_are_stored_safely(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    trace_id = new_trace_id()
    span = SpanSpec(
        trace_id,
        "odd\x00name",
        attributes={"note": "a\x00b", "ratio": float("inf"), "nan": float("nan"), "k\x00": 1},
    )
    await post_spans(backend, [span], token=ws.owner)
    trace = await read_trace(backend, trace_id, token=ws.owner)
    assert trace["rootName"] == "odd\ufffdname"
    attributes = trace["steps"][0]["attributes"]
    assert attributes == {"note": "a\ufffdb", "ratio": None, "nan": None, "k\ufffd": 1}


async def test_spans_of_one_trace_posted_at_once_make_one_whole_summary(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    trace_id = new_trace_id()
    root = SpanSpec(
        trace_id,
        "invoke_agent support",
        duration_ms=500,
        attributes={"gen_ai.operation.name": "invoke_agent"},
    )
    calls = [
        SpanSpec(
            trace_id,
            f"chat {n}",
            parent_id=root.span_id,
            start_ms=10 + n * 10,
            base_ns=root.base_ns,
            attributes={**CHAT, "gen_ai.usage.input_tokens": n + 1},
        )
        for n in range(7)
    ]
    await asyncio.gather(*(post_spans(backend, [span], token=ws.owner) for span in [root, *calls]))
    trace = await read_trace(backend, trace_id, token=ws.owner)
    assert (trace["stepCount"], trace["llmCalls"], trace["inputTokens"]) == (8, 7, 28)
    assert trace["rootName"] == "invoke_agent support"
