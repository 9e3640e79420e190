"""A run trial sent with a `traceId` and no trajectory reads, as its trajectory, the steps of
that ingested trace of the same workspace (docs/domain.md, "Trajectories in runs"); another
workspace's trace of that id gives nothing."""

from __future__ import annotations

import json
from typing import Any

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.server.runs.api import append, experiment
from tests.server.traces.otlp_bodies import SpanSpec, new_span_id, new_trace_id, post_spans

START = """mutation($e: ID!, $k: String!) {
  startRunImport(experimentId: $e, idempotencyKey: $k) { id }
}"""
TRIALS = """query($id: ID!) {
  run(id: $id) { items(first: 10) { edges { node { trials {
    traceId
    trajectory { kind name model toolName arguments result parentId
                 outputMessages { role content } }
  } } } } }
}"""


def agent_spans(trace_id: str, tool: str) -> list[SpanSpec]:
    """An agent's trace: a model call, then the tool it asked for."""
    root = new_span_id()
    return [
        SpanSpec(
            trace_id,
            "chat gpt-t",
            span_id=root,
            duration_ms=30,
            attributes={
                "gen_ai.operation.name": "chat",
                "gen_ai.request.model": "gpt-t",
                "gen_ai.output.messages": json.dumps(
                    [{"role": "assistant", "parts": [{"type": "text", "content": "calling"}]}]
                ),
            },
        ),
        SpanSpec(
            trace_id,
            f"execute_tool {tool}",
            parent_id=root,
            start_ms=40,
            attributes={
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": tool,
                "gen_ai.tool.call.arguments": json.dumps({"order": "A-7"}),
                "gen_ai.tool.call.result": "shipped",
            },
        ),
    ]


async def _trials(backend: Backend, token: str, run_id: str) -> list[dict[str, Any]]:
    data = (await backend.gql(TRIALS, {"id": run_id}, token=token)).ok()
    return [t for e in data["run"]["items"]["edges"] for t in e["node"]["trials"]]


async def test_a_trace_id_reads_the_ingested_trace_of_the_workspace_as_trajectory(
    backend: Backend,
) -> None:
    mine = await make_workspace(backend.sessionmaker, name="mine")
    theirs = await make_workspace(backend.sessionmaker, name="theirs")
    own_trace, their_trace = new_trace_id(), new_trace_id()
    await post_spans(
        backend, agent_spans(own_trace, "lookup_order"), token=mine.tokens[Role.MEMBER]
    )
    await post_spans(backend, agent_spans(their_trace, "refund"), token=theirs.tokens[Role.MEMBER])

    member = mine.tokens[Role.MEMBER]
    exp = await experiment(backend, member, name="traced")
    run_id = (await backend.gql(START, {"e": exp, "k": "traced"}, token=member)).ok()[
        "startRunImport"
    ]["id"]
    items = [
        {
            "datasetItemId": "a",
            "input": "Where is A-7?",
            "trials": [
                {"output": "Shipped.", "traceId": own_trace.upper()},
                {"output": "Theirs.", "traceId": their_trace},
                {
                    "output": "Own steps win.",
                    "traceId": own_trace,
                    "trajectory": [{"kind": "TOOL", "name": "sent", "toolName": "sent_tool"}],
                },
            ],
        }
    ]
    assert (await append(backend, member, run_id, items)).ok()["appendRunItems"][
        "appendedCount"
    ] == 1

    traced, foreign, sent = await _trials(backend, mine.tokens[Role.VIEWER], run_id)
    assert traced["traceId"] == own_trace.upper()
    steps = traced["trajectory"]
    assert [s["kind"] for s in steps] == ["LLM", "TOOL"]
    assert steps[0]["model"] == "gpt-t"
    assert steps[0]["outputMessages"] == [{"role": "assistant", "content": "calling"}]
    assert steps[1]["toolName"] == "lookup_order"
    assert steps[1]["arguments"] == {"order": "A-7"}
    assert steps[1]["parentId"] is not None
    # Tenancy: the other workspace's trace is not read, and nothing of it shows.
    assert foreign["traceId"] == their_trace and foreign["trajectory"] is None
    assert [s["toolName"] for s in sent["trajectory"]] == ["sent_tool"]
