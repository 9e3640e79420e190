"""An agent instrumented by each of the three real instrumentations (the real `openai` client
against the fake provider, the real OTLP/HTTP exporter) sends its trace to the served app,
and the trace reads back over GraphQL as one trajectory in the one step shape."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import Behaviour, FakeOpenAI
from server.workspaces.roles import Role
from tests.conftest import PROVIDER_KEY
from tests.server.traces import agent_app
from tests.server.traces.otlp_bodies import read_trace

ROOT = Path(__file__).resolve().parents[3]
INPUT_CENTS, OUTPUT_CENTS = 150.0, 600.0
"""fake-1's price, cents per million tokens."""


async def run_agent(convention: str, backend: Backend, token: str, fake: FakeOpenAI) -> str:
    fake.enqueue(
        Behaviour(
            reply=None, tool_calls=({"name": "lookup_order", "arguments": {"order_id": "7"}},)
        ),
        Behaviour(reply="Order 7 ships today."),
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.server.traces.agent_app",
        convention,
        f"{backend.base_url}/v1/traces",
        token,
        fake.base_url,
        PROVIDER_KEY,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=ROOT,
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=100)
    assert process.returncode == 0, err.decode()[-3000:]
    return out.decode().strip().splitlines()[-1]


def _usage(fake: FakeOpenAI) -> tuple[int, int]:
    """The tokens the fake reported over the agent's two calls (it counts as it answers)."""
    prompt = completion = 0
    for request in fake.requests:
        chars = sum(len(str(m.get("content") or "")) for m in request.body["messages"])
        prompt += -(-chars // 4)
    completion = 1 + -(-len("Order 7 ships today.") // 4)
    return prompt, completion


@pytest.mark.parametrize("convention", ["genai", "openinference", "openllmetry"])
async def test_an_instrumented_agents_trace_reads_back_as_its_trajectory(
    backend: Backend, fake_openai: FakeOpenAI, convention: str
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    (
        await backend.gql(
            "mutation($p: [ModelPriceInput!]!) { setModelPrices(prices: $p) { model } }",
            {
                "p": [
                    {
                        "model": "fake-1",
                        "inputCentsPerMillionTokens": INPUT_CENTS,
                        "outputCentsPerMillionTokens": OUTPUT_CENTS,
                    }
                ]
            },
            token=ws.tokens[Role.ADMIN],
        )
    ).ok()
    trace_id = await run_agent(convention, backend, ws.tokens[Role.MEMBER], fake_openai)
    trace = await read_trace(backend, trace_id, token=ws.tokens[Role.VIEWER])
    steps: list[dict[str, Any]] = trace["steps"]
    assert [s["kind"] for s in steps] == ["AGENT", "LLM", "TOOL", "LLM"], [
        (s["kind"], s["name"]) for s in steps
    ]
    agent, ask, tool, answer = steps
    assert all(s["parentId"] == agent["id"] for s in (ask, tool, answer))
    assert all(s["status"] == "OK" and s["durationMs"] >= 0 for s in steps)

    assert (ask["model"], ask["provider"]) == ("fake-1", "openai")
    assert {"role": "user", "content": agent_app.QUESTION, "toolCalls": []} in ask["inputMessages"]
    [call] = [c for m in ask["outputMessages"] for c in m["toolCalls"]]
    assert (call["id"], call["name"], call["arguments"]) == (
        "call_fake_0",
        "lookup_order",
        {"order_id": "7"},
    )
    assert (tool["toolName"], tool["arguments"], tool["result"]) == (
        "lookup_order",
        {"order_id": "7"},
        agent_app.TOOL_RESULT,
    )
    if convention != "openllmetry":  # Traceloop's tool spans carry no call id
        assert tool["toolCallId"] == "call_fake_0"
    assert any(
        m["role"] == "tool" and "shipped" in (m["content"] or "") for m in answer["inputMessages"]
    ), answer["inputMessages"]
    assert answer["outputMessages"][-1]["content"] == "Order 7 ships today."

    prompt, completion = _usage(fake_openai)
    assert (trace["inputTokens"], trace["outputTokens"]) == (prompt, completion)
    assert ask["inputTokens"] + answer["inputTokens"] == prompt
    expected_cents = (prompt * INPUT_CENTS + completion * OUTPUT_CENTS) / 1e6
    assert trace["costCents"] == pytest.approx(expected_cents, abs=1e-4)
    assert (trace["input"], trace["output"]) == (agent_app.QUESTION, "Order 7 ships today.")
    assert (trace["llmCalls"], trace["toolCalls"], trace["stepCount"]) == (2, 1, 4)
    assert (trace["caseId"], trace["release"], trace["service"]) == (
        agent_app.CASE_ID,
        agent_app.RELEASE,
        f"support-{convention}",
    )
    assert (trace["models"], trace["status"], trace["rootName"]) == (
        ["fake-1"],
        "OK",
        "invoke_agent support",
    )
