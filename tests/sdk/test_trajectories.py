"""`shipwise.aevaluate` with a task that answers its trajectory: the steps and trace id are
stored with each trial, its metrics filled from them, and the server's trajectory checks
(`shipwise.checks.tool_order`…) grade what the agent did."""

from __future__ import annotations

from typing import Any

import pytest
import shipwise

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.sdk.helpers import capital_cases, sealed_dataset

TRIALS = """query($id: ID!) {
  run(id: $id) { items(first: 100) { edges { node { input trials {
    passed evaluators { name score } traceId
    metrics { tokens turns toolCalls wallMs errors costUsd }
    trajectory { kind name toolName arguments result status inputTokens outputTokens }
  } } } } }
}"""
TRACE_ID = "0af7651916cd43dd8448eb211c80319c"


def agent(case: dict[str, str]) -> dict[str, Any]:
    """Looks the capital up, except for France, which it answers from memory twice over."""
    country = case["country"]
    lookup = {"kind": "TOOL", "name": "execute_tool lookup", "toolName": "lookup",
              "arguments": {"country": country}, "result": {"city": "?"},
              "status": "ERROR" if country == "Spain" else "OK"}  # fmt: skip
    chat = {"kind": "LLM", "name": "chat", "model": "m", "inputTokens": 20, "outputTokens": 5,
            "costCents": 0.1}  # fmt: skip
    steps = [chat, chat] if country == "France" else [chat, lookup, chat]
    return {"output": f"The capital of {country}.", "trajectory": steps, "traceId": TRACE_ID}


async def test_an_agents_trajectory_is_stored_and_graded(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    await sealed_dataset(backend, ws, "Capitals", capital_cases(4))
    client = shipwise.Client(url=backend.base_url, token=token)
    checks = [
        shipwise.checks.tool_called("lookup", {"country": "Germany"}),
        shipwise.checks.tool_order("lookup"),
        shipwise.checks.no_tool("delete_everything"),
        shipwise.checks.max_steps(3),
        shipwise.checks.max_llm_calls(2),
    ]
    result = await client.aevaluate(
        agent, "Capitals", "agents", checks=checks, baseline=None, progress=False
    )
    assert (result.item_count, result.failed_trials) == (4, 0)

    found = (await backend.gql(TRIALS, {"id": result.run_id}, token=token)).ok()
    trials = {
        edge["node"]["input"]["country"]: edge["node"]["trials"][0]
        for edge in found["run"]["items"]["edges"]
    }
    assert set(trials) == {"France", "Germany", "Italy", "Spain"}
    germany, france, spain = trials["Germany"], trials["France"], trials["Spain"]
    assert [s["kind"] for s in germany["trajectory"]] == ["LLM", "TOOL", "LLM"]
    assert germany["trajectory"][1]["arguments"] == {"country": "Germany"}
    assert germany["traceId"] == TRACE_ID
    # What the trajectory gives fills the metrics the task left out; the wall time is the
    # SDK's own measure of the call.
    metrics = germany["metrics"]
    assert (metrics["tokens"], metrics["turns"], metrics["toolCalls"], metrics["errors"]) == (
        50, 2, 1, 0,
    )  # fmt: skip
    assert metrics["costUsd"] == 0.002 and metrics["wallMs"] >= 0
    assert spain["metrics"]["errors"] == 1

    scores = {c: {e["name"]: e["score"] for e in t["evaluators"]} for c, t in trials.items()}
    assert scores["Germany"] == {
        "TOOL_CALLED": 1.0, "TOOL_ORDER": 1.0, "NO_TOOL": 1.0, "MAX_STEPS": 1.0,
        "MAX_LLM_CALLS": 1.0,
    }  # fmt: skip
    assert scores["Italy"]["TOOL_CALLED"] == 0.0  # called, with Italy's arguments
    assert scores["France"] == {
        "TOOL_CALLED": 0.0, "TOOL_ORDER": 0.0, "NO_TOOL": 1.0, "MAX_STEPS": 1.0,
        "MAX_LLM_CALLS": 1.0,
    }  # fmt: skip
    assert (germany["passed"], france["passed"], trials["Italy"]["passed"]) == (True, False, False)


def test_a_check_without_its_options_is_refused_before_anything_is_sent() -> None:
    with pytest.raises(shipwise.ValidationError, match="MAX_STEPS needs n"):
        shipwise.checks.check("MAX_STEPS")
