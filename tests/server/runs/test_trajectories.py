"""Trajectories in runs (docs/domain.md) through GraphQL, on both backends: a trial's steps
and trace id stored and read back, its metrics filled from them where the trial gave none, bad
steps refused naming the field, and the trajectory checks graded by the server on imports
and on a hosted comparison's one model call."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import func, select

from bench.kit.factories import comparison_cases, make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from server.comparisons.models import Trial
from server.connections.service import Simulation
from server.runs.models import RunItem
from server.workspaces.roles import Role
from tests.server.dispatch.api import start_comparison, wait_terminal
from tests.server.runs.api import append, experiment

START = """mutation($e: ID!, $k: String!, $c: JSON) {
  startRunImport(experimentId: $e, idempotencyKey: $k, checks: $c) { id }
}"""
CREATE = """mutation($input: CreateComparisonInput!) { createComparison(input: $input) { id } }"""
TRIALS = """query($id: ID!) {
  run(id: $id) { items(first: 10) { edges { node { position trials {
    passed evaluators { name score }
    metrics { tokens turns toolCalls wallMs errors costUsd outputTokens }
    traceId
    trajectory {
      id kind name startedAt durationMs status errorType provider model
      inputMessages { role content toolCalls { id name arguments } }
      outputMessages { role content toolCalls { id name arguments } }
      finishReasons inputTokens outputTokens costCents toolName toolCallId arguments result
      parentId
    }
  } } } } }
}"""
TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
EXPORT_PATH = "/runs/{}/items.jsonl"


def agent_steps(*, refund_first: bool = False, failed_tool: bool = False) -> list[dict[str, Any]]:
    """An agent's four kinds of step: the agent, two model calls, a tool between them."""
    tools = ["refund", "lookup_order"] if refund_first else ["lookup_order", "refund"]
    steps: list[dict[str, Any]] = [
        {
            "id": "s1",
            "kind": "AGENT",
            "name": "invoke_agent support",
            "startedAt": "2026-12-01T10:00:00Z",
            "durationMs": 900,
            "status": "OK",
        },
        {
            "id": "s2",
            "parentId": "s1",
            "kind": "LLM",
            "name": "chat gpt-x",
            "startedAt": "2026-12-01T10:00:00.100Z",
            "durationMs": 300,
            "provider": "openai",
            "model": "gpt-x",
            "inputTokens": 120,
            "outputTokens": 30,
            "costCents": 0.25,
            "inputMessages": [{"role": "user", "content": "Refund order A-7"}],
            "outputMessages": [
                {
                    "role": "assistant",
                    "content": None,
                    "toolCalls": [
                        {"id": f"c{i}", "name": name, "arguments": json.dumps({"order": "A-7"})}
                        for i, name in enumerate(tools)
                    ],
                }
            ],
            "finishReasons": ["tool_calls"],
        },
    ]
    for i, name in enumerate(tools):
        steps.append(
            {
                "id": f"t{i}",
                "parentId": "s1",
                "kind": "TOOL",
                "name": f"execute_tool {name}",
                "startedAt": f"2026-12-01T10:00:00.{5 + i}00Z",
                "durationMs": 50,
                "status": "ERROR" if failed_tool and i == 0 else "OK",
                "errorType": "TimeoutError" if failed_tool and i == 0 else None,
                "toolName": name,
                "toolCallId": f"c{i}",
                "arguments": {"order": "A-7"},
                "result": {"ok": True, "note": "<script>alert(1)</script>"},
            }
        )
    steps.append(
        {
            "id": "s3",
            "parentId": "s1",
            "kind": "LLM",
            "name": "chat gpt-x",
            "startedAt": "2026-12-01T10:00:00.700Z",
            "durationMs": 200,
            "model": "gpt-x",
            "inputTokens": 200,
            "outputTokens": 10,
            "costCents": 0.5,
            "outputMessages": [{"role": "assistant", "content": "Refunded A-7."}],
        }
    )
    return steps


async def _start(backend: Backend, token: str, key: str, checks: Any = None) -> str:
    exp = await experiment(backend, token, name=f"exp-{key}")
    found = await backend.gql(START, {"e": exp, "k": key, "c": checks}, token=token)
    return str(found.ok()["startRunImport"]["id"])


async def _trials(backend: Backend, token: str, run_id: str) -> list[dict[str, Any]]:
    data = (await backend.gql(TRIALS, {"id": run_id}, token=token)).ok()
    return [t for e in data["run"]["items"]["edges"] for t in e["node"]["trials"]]


async def test_a_trajectory_is_stored_read_back_and_fills_the_metrics(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    run_id = await _start(backend, member, "stored")
    steps = agent_steps(failed_tool=True)
    items = [
        {
            "datasetItemId": "a",
            "input": "Refund order A-7",
            "trials": [
                {"output": "Refunded A-7.", "trajectory": steps, "traceId": TRACE_ID},
                # What the trial gives wins; the trajectory fills the rest.
                {
                    "output": "Refunded.",
                    "trajectory": steps,
                    "metrics": {"tokens": 7, "wallMs": None},
                },
                {"output": "No steps."},
            ],
        },
    ]
    assert (await append(backend, member, run_id, items)).ok()["appendRunItems"][
        "appendedCount"
    ] == 1
    again = await append(backend, member, run_id, items, position=0)  # a retried chunk
    assert again.ok()["appendRunItems"]["appendedCount"] == 0

    first, second, third = await _trials(backend, member, run_id)
    assert first["traceId"] == TRACE_ID
    assert first["metrics"] == {
        "tokens": 360,
        "turns": 2,
        "toolCalls": 2,
        "wallMs": 900,
        "errors": 1,
        "costUsd": 0.0075,
        "outputTokens": 40,
    }
    assert second["metrics"]["tokens"] == 7 and second["metrics"]["wallMs"] == 900
    assert second["traceId"] is None
    assert third["trajectory"] is None and third["metrics"] is None

    read = first["trajectory"]
    assert [s["kind"] for s in read] == ["AGENT", "LLM", "TOOL", "TOOL", "LLM"]
    assert [s["id"] for s in read] == ["s1", "s2", "t0", "t1", "s3"]
    llm, tool = read[1], read[2]
    assert llm["startedAt"].startswith("2026-12-01T10:00:00.100")
    assert (llm["provider"], llm["model"], llm["inputTokens"], llm["outputTokens"]) == (
        "openai",
        "gpt-x",
        120,
        30,
    )
    assert llm["inputMessages"] == [
        {"role": "user", "content": "Refund order A-7", "toolCalls": []}
    ]
    assert llm["outputMessages"][0]["toolCalls"][1] == {
        "id": "c1",
        "name": "refund",
        "arguments": '{"order": "A-7"}',
    }
    assert llm["finishReasons"] == ["tool_calls"] and llm["costCents"] == 0.25
    assert llm["parentId"] == "s1" and read[0]["parentId"] is None
    assert (tool["status"], tool["errorType"], tool["toolName"], tool["toolCallId"]) == (
        "ERROR",
        "TimeoutError",
        "lookup_order",
        "c0",
    )
    assert tool["arguments"] == {"order": "A-7"}
    assert tool["result"] == {"ok": True, "note": "<script>alert(1)</script>"}  # as sent
    assert read[3]["status"] == "OK" and read[3]["errorType"] is None


async def test_bad_steps_are_refused_naming_the_field_and_nothing_is_stored(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    run_id = await _start(backend, member, "refused")
    good = agent_steps()
    bad: list[tuple[dict[str, Any], str]] = [
        ({"trajectory": "steps"}, "items[0].trials[0].trajectory"),
        ({"trajectory": [{"kind": "LLM", "name": "x"}] * 1001}, "items[0].trials[0].trajectory"),
        (
            {"trajectory": [good[0], {**good[1], "kind": "CHAIN"}]},
            "items[0].trials[0].trajectory[1].kind",
        ),
        ({"trajectory": [{"kind": "LLM"}]}, "items[0].trials[0].trajectory[0].name"),
        (
            {"trajectory": [{**good[1], "status": "FINE"}]},
            "items[0].trials[0].trajectory[0].status",
        ),
        (
            {"trajectory": [{**good[1], "startedAt": "yesterday"}]},
            "items[0].trials[0].trajectory[0].startedAt",
        ),
        (
            {"trajectory": [{**good[1], "durationMs": -1}]},
            "items[0].trials[0].trajectory[0].durationMs",
        ),
        (
            {"trajectory": [{**good[1], "inputTokens": 1.5}]},
            "items[0].trials[0].trajectory[0].inputTokens",
        ),
        (
            {"trajectory": [{**good[1], "spanKind": "x"}]},
            "items[0].trials[0].trajectory[0].spanKind",
        ),
        (
            {"trajectory": [{**good[1], "inputMessages": [{"content": "hi"}]}]},
            "items[0].trials[0].trajectory[0].inputMessages[0].role",
        ),
        (
            {
                "trajectory": [
                    {**good[1], "outputMessages": [{"role": "assistant", "toolCalls": [{}]}]}
                ]
            },
            "items[0].trials[0].trajectory[0].outputMessages[0].toolCalls[0].name",
        ),
        (
            {"trajectory": [{**good[1], "name": "a\u0000b"}]},
            "items[0].trials[0].trajectory[0].name",
        ),
        ({"traceId": "not-a-trace"}, "items[0].trials[0].traceId"),
        ({"traceId": "0" * 32}, "items[0].trials[0].traceId"),
    ]
    for trial, field in bad:
        items = [{"input": "q", "trials": [{"output": "x", **trial}]}]
        result = await append(backend, member, run_id, items)
        assert result.codes == ["VALIDATION_FAILED"], field
        assert result.errors[0]["extensions"]["field"] == field
        assert "Traceback" not in json.dumps(result.body)
    async with backend.sessionmaker() as session:
        count = await session.scalar(
            select(func.count()).select_from(RunItem).where(RunItem.run_id == run_id)
        )
    assert count == 0


TRAJECTORY_CHECKS: list[dict[str, Any]] = [
    {"kind": "TOOL_CALLED", "toolName": "refund", "argumentsMatch": {"order": "A-7"}},
    {"kind": "TOOL_ORDER", "toolNames": ["lookup_order", "refund"]},
    {"kind": "NO_TOOL", "toolName": "delete_account"},
    {"kind": "MAX_STEPS", "n": 5},
    {"kind": "MAX_LLM_CALLS", "n": 2},
]


async def test_an_import_is_graded_on_its_trajectories(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    run_id = await _start(backend, member, "graded", TRAJECTORY_CHECKS)
    wrong_order = agent_steps(refund_first=True)
    long = [*agent_steps(), {"kind": "LLM", "name": "chat again"}]
    deleting = [*agent_steps()[:-1], {"kind": "TOOL", "name": "delete_account"}]
    items = [
        {"input": "ok", "trials": [{"output": "x", "trajectory": agent_steps()}]},
        {"input": "order", "trials": [{"output": "x", "trajectory": wrong_order}]},
        {"input": "long", "trials": [{"output": "x", "trajectory": long}]},
        {"input": "delete", "trials": [{"output": "x", "trajectory": deleting}]},
        # No trajectory: the tool checks read `toolCalls`; the step counts cannot be told.
        {
            "input": "flat",
            "trials": [
                {
                    "output": "x",
                    "toolCalls": [
                        {"name": "lookup_order"},
                        {"name": "refund", "arguments": {"order": "A-7"}},
                    ],
                }
            ],
        },
    ]
    (await append(backend, member, run_id, items)).ok()
    exported = await backend.client.get(
        EXPORT_PATH.format(run_id), headers={"Authorization": f"Bearer {member}"}
    )
    rows = [json.loads(line) for line in exported.text.splitlines()]
    reasons = [[c["reason"] for c in row["checks"]] for row in rows]
    assert reasons == [
        [None, None, None, None, None],
        [None, "out_of_order", None, None, None],
        [None, None, None, "too_many_steps", "too_many_llm_calls"],
        [None, None, "tool_called", None, None],
        [None, None, None, "trajectory_missing", "trajectory_missing"],
    ]
    assert [row["passed"] for row in rows] == [True, False, False, False, False]
    assert rows[0]["evaluators"] == {c["kind"]: 1.0 for c in TRAJECTORY_CHECKS}


async def test_bad_trajectory_check_options_are_refused_naming_the_field(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    exp = await experiment(backend, member)
    refusals = [
        ([{"kind": "TOOL_CALLED"}], "checks[0].toolName"),
        ([{"kind": "CONTAINS"}, {"kind": "TOOL_ORDER", "toolNames": []}], "checks[1].toolNames"),
        (
            [{"kind": "TOOL_CALLED", "toolName": "a", "argumentsMatch": [1]}],
            "checks[0].argumentsMatch",
        ),
        ([{"kind": "MAX_STEPS", "n": -3}], "checks[0].n"),
        ([{"kind": "MAX_LLM_CALLS", "n": "2"}], "checks[0].n"),
        ([{"kind": "NO_TOOL", "toolName": "x", "n": 1}], "checks[0].n"),
    ]
    for checks, field in refusals:
        result = await backend.gql(START, {"e": exp, "k": "k", "c": checks}, token=member)
        assert result.codes == ["VALIDATION_FAILED"], checks
        assert result.errors[0]["extensions"]["field"] == field
    setup = await make_comparison_setup(backend.sessionmaker, ws, case_list=comparison_cases(2))
    refused = await backend.gql(
        CREATE, {"input": setup.input(checks=[{"kind": "MAX_STEPS", "n": 1.5}])}, token=member
    )
    assert refused.codes == ["VALIDATION_FAILED"]
    assert refused.errors[0]["extensions"]["field"] == "checks[0].n"


async def test_a_hosted_comparison_is_graded_on_its_one_model_call(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    cases = comparison_cases(3)
    answers: list[Any] = [
        {"output": "ok", "toolCalls": [{"name": "refund", "arguments": {"order": "A-7"}}]},
        {
            "output": "ok",
            "toolCalls": [
                {"name": "refund", "arguments": {"order": "B-1"}},
                {"name": "delete_account", "arguments": {}},
            ],
        },
        "no tools",
    ]
    script = {c["datasetItemId"]: a for c, a in zip(cases, answers, strict=True)}
    setup = await make_comparison_setup(
        backend.sessionmaker, ws, case_list=cases, simulation=Simulation(script=script)
    )
    checks = [
        {"kind": "TOOL_CALLED", "toolName": "refund", "argumentsMatch": {"order": "A-7"}},
        {"kind": "NO_TOOL", "toolName": "delete_account"},
        {"kind": "MAX_LLM_CALLS", "n": 1},
        {"kind": "MAX_STEPS", "n": 1},
    ]
    comparison_id = await start_comparison(
        backend, member, setup.input(trialsPerCase=1, checks=checks)
    )
    ended = await wait_terminal(backend, member, comparison_id, timeout=180)
    assert ended["status"] == "DONE"
    async with backend.sessionmaker() as session:
        trials = list(
            await session.scalars(
                select(Trial)
                .where(Trial.comparison_id == comparison_id, Trial.cohort_index == 0)
                .order_by(Trial.case_ordinal)
            )
        )
    reasons = [[c["reason"] for c in t.check_results or []] for t in trials]
    assert reasons == [
        [None, None, None, None],
        ["arguments_mismatch", "tool_called", None, None],
        ["tool_not_called", None, None, None],
    ]
    assert [t.passed for t in trials] == [True, False, False]
