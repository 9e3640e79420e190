"""A hosted comparison on an ANTHROPIC connection, end to end against a fake Messages API:
the mapped request, TOOL_CALL checks on `tool_use` blocks, usage priced, a 529 retried after
its `retry-after`, and a refused key recorded as a bounded code."""

from __future__ import annotations

import math
from typing import Any

from bench.kit.factories import (
    WorkspaceFixture,
    comparison_cases,
    make_asset_version,
    make_comparison_dataset,
    make_prompt_version,
    make_release,
    make_workspace,
)
from bench.kit.harness import Backend
from bench.kit.openai_server import PROVIDER_TEXT, Behaviour
from server.assets.models import AssetKind
from server.workspaces.roles import Role
from tests.conftest import PROVIDER_KEY
from tests.fakes.anthropic_server import FakeAnthropic
from tests.server.dispatch.api import create, start, trials_of

CONNECTION = """
mutation($input: CreateModelConnectionInput!) { createModelConnection(input: $input) { id status } }
"""
TOOL = {
    "type": "function",
    "function": {
        "name": "add_numbers",
        "description": "Adds two numbers.",
        "parameters": {"type": "object", "properties": {"a": {"type": "integer"}}},
    },
}
PROMPT = "Answer with the number only: {{ question }}"
SYSTEM = "You are a careful assistant."
CHECKS = [{"kind": "TOOL_CALL", "toolName": "add_numbers"}, {"kind": "CONTAINS"}]


def _answer(body: dict[str, Any]) -> str:
    """The right sum for the question in the request's one user turn."""
    question = body["messages"][0]["content"]
    number = int(question.split("What is ")[1].split(" +")[0])
    return str(2 * number)


async def _setup(
    backend: Backend, ws: WorkspaceFixture, fake: FakeAnthropic, *, api_key: str, cases: int
) -> dict[str, Any]:
    """An ANTHROPIC connection made through the API, and two releases on it: the candidate
    offers the tool, the baseline does not."""
    created = await backend.gql(
        CONNECTION,
        {
            "input": {
                "name": "claude",
                "kind": "ANTHROPIC",
                "baseUrl": fake.base_url,
                "apiKey": api_key,
                "inputCentsPerMillionTokens": 100,  # 1 micro-dollar a token
                "outputCentsPerMillionTokens": 300,
                "maxConcurrency": 4,
            }
        },
        token=ws.owner,
    )
    connection_id = created.ok()["createModelConnection"]["id"]
    version = await make_comparison_dataset(backend.sessionmaker, ws, cases=comparison_cases(cases))
    tools = await make_asset_version(
        backend.sessionmaker, ws, kind=AssetKind.TOOL_SCHEMA, content={"tools": [TOOL]}
    )
    release_ids = []
    for index, tools_id in enumerate((tools.id, None)):
        prompt = await make_prompt_version(backend.sessionmaker, ws, text=PROMPT)
        config = await make_asset_version(
            backend.sessionmaker,
            ws,
            kind=AssetKind.MODEL_CONFIG,
            content={
                "connectionId": connection_id,
                "model": f"claude-{index}",
                "maxOutputTokens": 32,
            },
        )
        release = await make_release(
            backend.sessionmaker,
            ws,
            prompt_version_id=prompt.id,
            model_config_version_id=config.id,
            tools_version_id=tools_id,
        )
        release_ids.append(release.id)
    return {
        "datasetVersionId": version.id,
        "cohorts": [{"kind": "RELEASE", "releaseId": rid} for rid in release_ids],
        "checks": CHECKS,
    }


async def test_a_comparison_on_an_anthropic_connection(
    backend: Backend, fake_anthropic: FakeAnthropic
) -> None:
    fake_anthropic.behaviour = Behaviour(
        reply=_answer, tool_calls=({"name": "add_numbers", "arguments": {"a": 1}},)
    )
    ws = await make_workspace(backend.sessionmaker)
    comparison_input = await _setup(backend, ws, fake_anthropic, api_key=PROVIDER_KEY, cases=4)
    fake_anthropic.reset()
    fake_anthropic.behaviour = Behaviour(
        reply=_answer, tool_calls=({"name": "add_numbers", "arguments": {"a": 1}},)
    )
    # The first call meets an overloaded API that asks for a second's wait.
    fake_anthropic.enqueue(Behaviour(status=529, retry_after="1"))
    member = ws.tokens[Role.MEMBER]
    comparison_id = await create(backend, member, {**comparison_input, "trialsPerCase": 2})
    started = await start(backend, member, comparison_id, background=False)
    assert (started["status"], started["stopReason"]) == ("DONE", "COMPLETED")

    requests = fake_anthropic.requests
    assert len(requests) == 4 * 2 * 2 + 1
    assert all(r.headers["x-api-key"] == PROVIDER_KEY for r in requests)
    assert all(r.headers["anthropic-version"] == "2023-06-01" for r in requests)
    assert all(r.body["system"] == SYSTEM for r in requests)
    assert all([m["role"] for m in r.body["messages"]] == ["user"] for r in requests)
    offered = [r.body.get("tools") for r in requests if r.body["model"] == "claude-0"]
    assert offered and all(
        t
        == [
            {
                "name": "add_numbers",
                "description": "Adds two numbers.",
                "input_schema": {"type": "object", "properties": {"a": {"type": "integer"}}},
            }
        ]
        for t in offered
    )
    # The 529 was retried on the same trial after the provider's one second.
    first, retried = (
        requests[0],
        next(
            r
            for r in requests[1:]
            if r.headers["x-shipwise-trial"] == requests[0].headers["x-shipwise-trial"]
        ),
    )
    assert retried.received_at - first.received_at >= 1.0

    trials = await trials_of(backend, comparison_id)
    assert len(trials) == 16
    assert sum(t.attempts for t in trials) == 17
    for trial in trials:
        assert trial.error_code is None
        assert trial.output == str(2 * trial.case_ordinal)
        tool_call, contains = trial.check_results or []
        assert contains["passed"] is True
        if trial.cohort_index == 0:
            assert trial.tool_calls == [{"name": "add_numbers", "arguments": {"a": 1}}]
            assert (tool_call["passed"], trial.passed) == (True, True)
        else:
            assert trial.tool_calls is None
            assert (tool_call["passed"], tool_call["reason"]) == (False, "tool_not_called")
            assert trial.passed is False
        # usage from the response, priced: input 1 µ$ a token, output 3 µ$ a token
        question = f"What is {trial.case_ordinal:03d} + {trial.case_ordinal:03d}?"
        input_tokens = math.ceil(
            (len(SYSTEM) + len(PROMPT.replace("{{ question }}", question))) / 4
        )
        output_tokens = max(1, math.ceil(len(trial.output or "") / 4))
        assert (trial.input_tokens, trial.output_tokens) == (input_tokens, output_tokens)
        assert trial.cost_micros == input_tokens + 3 * output_tokens


async def test_a_refused_key_records_a_bounded_code_without_provider_text(
    backend: Backend, fake_anthropic: FakeAnthropic
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    comparison_input = await _setup(backend, ws, fake_anthropic, api_key=PROVIDER_KEY, cases=2)
    fake_anthropic.api_key = "sk-ant-rotated"  # the key was revoked after the check
    member = ws.tokens[Role.MEMBER]
    comparison_id = await create(backend, member, {**comparison_input, "trialsPerCase": 1})
    started = await start(backend, member, comparison_id, background=False)
    assert started["status"] == "DONE"
    assert started["progress"]["failedCalls"] == 4
    trials = await trials_of(backend, comparison_id)
    assert {(t.error_code, t.attempts, t.output) for t in trials} == {
        ("provider_client_error", 1, None)
    }
    assert PROVIDER_TEXT not in str(started)
    assert len(fake_anthropic.requests) == 1 + 4  # the check, then each trial once
