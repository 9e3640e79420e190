"""Bad input to the SDK: a clear, typed error with the server's code, and nothing written."""

from __future__ import annotations

from typing import Any

import pytest
import shipwise

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.sdk.helpers import capital_cases, experiment_runs, run_items, sealed_dataset

EXPERIMENTS = "{ experiments(first: 100) { edges { node { name } } } }"


async def experiment_names(backend: Backend, token: str) -> list[str]:
    found = (await backend.gql(EXPERIMENTS, token=token)).ok()["experiments"]["edges"]
    return [edge["node"]["name"] for edge in found]


@pytest.mark.parametrize(
    "answer",
    [42, None, ["Paris"], {"text": "Paris"}, {"output": {1, 2}}, {"output": float("nan")}],
)
async def test_a_task_that_returns_no_string_is_refused_and_writes_nothing(
    backend: Backend, answer: Any
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    await sealed_dataset(backend, ws, "typed", capital_cases(5))
    client = shipwise.Client(url=backend.base_url, token=token)
    with pytest.raises(shipwise.TaskOutputError) as raised:
        await client.aevaluate(lambda _case: answer, "typed", "typed", progress=False)
    assert raised.value.code == "VALIDATION_FAILED"
    assert raised.value.message.startswith(("the task returned", "the task's"))
    assert isinstance(raised.value, TypeError)
    assert await experiment_names(backend, token) == []  # no experiment, no run


async def test_an_unknown_check_name_is_refused_before_anything_is_sent(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    await sealed_dataset(backend, ws, "checked", capital_cases(5))
    client = shipwise.Client(url=backend.base_url, token=token)
    with pytest.raises(shipwise.ValidationError) as raised:
        shipwise.checks.check("FUZZY_MATCH")
    assert raised.value.code == "VALIDATION_FAILED" and "FUZZY_MATCH" in raised.value.message
    assert "CONTAINS" in raised.value.message  # the known names are listed
    calls = 0

    def task(case: dict[str, str]) -> str:
        nonlocal calls
        calls += 1
        return case["country"]

    for checks in (["FUZZY_MATCH"], [{"kind": "fuzzy"}], [{"kind": "JSON_SCHEMA"}]):
        with pytest.raises(shipwise.ValidationError) as raised:
            await client.aevaluate(task, "checked", "checked", checks=checks, progress=False)
        assert raised.value.extensions["field"] == "checks"
    assert calls == 0 and await experiment_names(backend, token) == []


async def test_a_dataset_that_does_not_exist_surfaces_the_servers_code(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    other = await make_workspace(backend.sessionmaker, name="other")
    elsewhere = await sealed_dataset(backend, other, "theirs", capital_cases(3))
    client = shipwise.Client(url=backend.base_url, token=token)
    for dataset in ("ds_00000000000000000000000000", elsewhere.asset_id, "No such dataset"):
        with pytest.raises(shipwise.NotFoundError) as raised:
            await client.aevaluate(str.upper, dataset, "nowhere", progress=False)
        assert raised.value.code == "NOT_FOUND"
    with pytest.raises(shipwise.NotFoundError) as raised:
        await client.aevaluate(str.upper, "x", "nowhere", version="dsv_00000000000000000000000000")
    assert raised.value.code == "NOT_FOUND"
    assert await experiment_names(backend, token) == []


async def test_a_refused_token_is_an_auth_error(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    await sealed_dataset(backend, ws, "locked", capital_cases(3))
    viewer = shipwise.Client(url=backend.base_url, token=ws.tokens[Role.VIEWER])
    with pytest.raises(shipwise.AuthError) as raised:
        await viewer.aevaluate(lambda c: c["country"], "locked", "locked", progress=False)
    assert raised.value.code == "FORBIDDEN"
    assert await experiment_runs(backend, ws.tokens[Role.MEMBER], "locked") == []
    wrong = shipwise.Client(url=backend.base_url, token="sw_not-a-token")
    with pytest.raises(shipwise.AuthError) as raised:
        await wrong.aevaluate(lambda c: c["country"], "locked", "locked", progress=False)
    assert raised.value.code == "UNAUTHENTICATED"
    assert "sw_not-a-token" not in repr(wrong)


async def test_checks_are_sent_to_a_server_that_grades_them(backend: Backend) -> None:
    """The server grades `checks` where `startRunImport` takes them; where it does not,
    the SDK says so before any call (and sends nothing)."""
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    await sealed_dataset(backend, ws, "graded", capital_cases(4))
    client = shipwise.Client(url=backend.base_url, token=token)
    schema = (await backend.gql(
        '{ __type(name: "Mutation") { fields { name args { name } } } }', token=token
    )).ok()  # fmt: skip
    start = next(f for f in schema["__type"]["fields"] if f["name"] == "startRunImport")
    graded = "checks" in {arg["name"] for arg in start["args"]}

    def task(case: dict[str, str]) -> str | dict[str, Any]:
        if case["country"] == "Germany":
            raise ConnectionError("the model is down")
        if case["country"] == "France":
            return {"output": "It is Paris.", "toolCalls": [{"name": "lookup", "arguments": {}}]}
        return "Somewhere"

    checks = [shipwise.checks.contains(), shipwise.checks.tool_call("lookup")]
    if not graded:
        with pytest.raises(shipwise.UnsupportedError) as raised:
            await client.aevaluate(task, "graded", "graded", checks=checks, progress=False)
        assert raised.value.code == "UNSUPPORTED" and "checks" in raised.value.message
        assert await experiment_names(backend, token) == []
        return
    result = await client.aevaluate(
        task, "graded", "graded", checks=checks, scorers={"length": lambda _i, o, _e: len(o)},
        progress=False,
    )  # fmt: skip
    assert result.failed_trials == 1
    _, items = await run_items(backend, token, result.run_id)
    trials = [item["trials"][0] for item in items]
    assert [t["passed"] for t in trials] == [True, None, False, False]  # Germany: ungraded
    scores = [{e["name"]: e["score"] for e in t["evaluators"]} for t in trials]
    assert scores[0] == {"CONTAINS": 1.0, "TOOL_CALL": 1.0, "length": 12.0}
    assert scores[2] == {"CONTAINS": 0.0, "TOOL_CALL": 0.0, "length": 9.0}
    assert trials[1]["output"] is None and trials[1]["metrics"]["errors"] == 1


async def test_a_ship_policy_needs_a_server_that_takes_one(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    await sealed_dataset(backend, ws, "policy", capital_cases(4))
    client = shipwise.Client(url=backend.base_url, token=token)
    schema = (await backend.gql(
        '{ __type(name: "Query") { fields { name args { name } } } }', token=token
    )).ok()  # fmt: skip
    run_diff = next(f for f in schema["__type"]["fields"] if f["name"] == "runDiff")
    policy = shipwise.ShipPolicy(
        quality_margin_points=2,
        guardrails=(shipwise.Guardrail("LATENCY_P95", max_increase_percent=20),),
    )
    assert policy.as_input() == {
        "qualityMarginPoints": 2,
        "guardrails": [{"metric": "LATENCY_P95", "maxIncreasePercent": 20}],
    }
    if "policy" in {arg["name"] for arg in run_diff["args"]}:
        first = await client.aevaluate(str, "policy", "policy", progress=False)
        second = await client.aevaluate(str, "policy", "policy", policy=policy, progress=False)
        assert second.baseline_run_id == first.run_id and second.decision is not None
        return
    with pytest.raises(shipwise.UnsupportedError) as raised:
        await client.aevaluate(str, "policy", "policy", policy=policy, progress=False)
    assert raised.value.extensions["field"] == "policy"
    assert await experiment_names(backend, token) == []
