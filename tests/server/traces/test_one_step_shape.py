"""`TraceStep` and `TrajectoryStep` are two published shapes of one step (server/api/
step_shape.py): a trace read with `trace(id) { steps }` and a run trial naming that trace by
`traceId` give the same content, field by field, for an LLM call with messages, tokens and
tool calls, a tool step, a failed step and an unknown span."""

from __future__ import annotations

import json
from typing import Any

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.server.runs.api import append, experiment
from tests.server.traces.otlp_bodies import SpanSpec, new_span_id, new_trace_id, post_spans

FIELDS = """
  id kind name startedAt durationMs status errorType provider model
  inputMessages { role content toolCalls { id name arguments } }
  outputMessages { role content toolCalls { id name arguments } }
  finishReasons inputTokens outputTokens costCents toolName toolCallId arguments result parentId
"""
TRACE = "query($id: ID!) { trace(id: $id) { steps {" + FIELDS + "} } }"
TRIAL = (
    "query($id: ID!) { run(id: $id) { items(first: 1) { edges { node { trials { trajectory {"
    + FIELDS
    + "} } } } } } }"
)
START = """mutation($e: ID!, $k: String!) {
  startRunImport(experimentId: $e, idempotencyKey: $k) { id }
}"""


def spans(trace_id: str) -> list[SpanSpec]:
    root = new_span_id()
    call = {"type": "tool_call", "id": "c1", "name": "lookup_order", "arguments": {"id": "A-7"}}
    return [
        SpanSpec(
            trace_id,
            "chat gpt-t",
            span_id=root,
            duration_ms=30,
            attributes={
                "gen_ai.operation.name": "chat",
                "gen_ai.provider.name": "openai",
                "gen_ai.request.model": "gpt-t",
                "gen_ai.usage.input_tokens": 120,
                "gen_ai.usage.output_tokens": 9,
                "gen_ai.response.finish_reasons": ["tool_calls"],
                "gen_ai.input.messages": json.dumps(
                    [{"role": "user", "parts": [{"type": "text", "content": "Where is A-7?"}]}]
                ),
                "gen_ai.output.messages": json.dumps([{"role": "assistant", "parts": [call]}]),
            },
        ),
        SpanSpec(
            trace_id,
            "execute_tool lookup_order",
            parent_id=root,
            start_ms=40,
            attributes={
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": "lookup_order",
                "gen_ai.tool.call.id": "c1",
                "gen_ai.tool.call.arguments": json.dumps({"id": "A-7"}),
                "gen_ai.tool.call.result": json.dumps({"status": "shipped"}),
            },
        ),
        SpanSpec(
            trace_id,
            "execute_tool notify",
            parent_id=root,
            start_ms=60,
            error=True,
            attributes={
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": "notify",
                "error.type": "TimeoutError",
            },
        ),
        SpanSpec(trace_id, "db.query", parent_id=root, start_ms=80, attributes={"db": "orders"}),
    ]


async def test_trace_steps_and_a_trials_trajectory_of_that_trace_are_the_same_steps(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    member, viewer = ws.tokens[Role.MEMBER], ws.tokens[Role.VIEWER]
    trace_id = new_trace_id()
    await post_spans(backend, spans(trace_id), token=member)
    exp = await experiment(backend, member, name="shapes")
    started = (await backend.gql(START, {"e": exp, "k": "shapes"}, token=member)).ok()
    run_id = started["startRunImport"]["id"]
    items: list[dict[str, Any]] = [
        {"datasetItemId": "a", "input": "Where is A-7?", "trials": [{"traceId": trace_id}]}
    ]
    assert (await append(backend, member, run_id, items)).ok()["appendRunItems"][
        "appendedCount"
    ] == 1

    traced = (await backend.gql(TRACE, {"id": trace_id}, token=viewer)).ok()["trace"]["steps"]
    run = (await backend.gql(TRIAL, {"id": run_id}, token=viewer)).ok()["run"]
    [trial] = run["items"]["edges"][0]["node"]["trials"]
    trajectory = trial["trajectory"]

    assert [s["kind"] for s in traced] == ["LLM", "TOOL", "TOOL", "OTHER"]
    assert trajectory == traced  # every field, the same value
    llm, tool, failed, _ = traced
    assert llm["inputTokens"] == 120 and llm["outputTokens"] == 9
    assert llm["provider"] == "openai" and llm["finishReasons"] == ["tool_calls"]
    assert llm["inputMessages"] == [{"role": "user", "content": "Where is A-7?", "toolCalls": []}]
    assert llm["outputMessages"][0]["toolCalls"] == [
        {"id": "c1", "name": "lookup_order", "arguments": {"id": "A-7"}}
    ]
    assert tool["result"] == {"status": "shipped"} and tool["parentId"] == llm["id"]
    assert failed["status"] == "ERROR" and failed["errorType"] == "TimeoutError"
    assert all(s["startedAt"] and s["durationMs"] is not None for s in trajectory)
