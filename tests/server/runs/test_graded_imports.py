"""Checks graded by the server on imported runs: the grades a hosted comparison gives the
same outputs, an unknown check refused, a retried chunk still a no-op."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from bench.kit.factories import comparison_cases, make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from server.comparisons.models import Trial
from server.connections.service import Simulation
from server.runs.models import Run
from server.workspaces.roles import Role
from tests.server.cli.invoke import shipwise
from tests.server.dispatch.api import create, start
from tests.server.runs.api import append, experiment
from tests.server.runs.api import start as start_import

CHECKS: list[dict[str, Any]] = [
    {"kind": "CONTAINS"},
    {
        "kind": "JSON_SCHEMA",
        "schema": {"type": "object", "required": ["answer"]},
    },
    {"kind": "TOOL_CALL", "toolName": "add"},
]
START = """mutation($e: ID!, $k: String!, $c: JSON) {
  startRunImport(experimentId: $e, idempotencyKey: $k, checks: $c) { id status }
}"""
EXPORT_PATH = "/runs/{}/items.jsonl"


def _script(cases: list[dict[str, Any]]) -> dict[str, Any]:
    """Outputs that pass and fail the checks in different ways, case by case."""
    answers: list[Any] = [
        "0",  # contained only
        "The answer is 2.",  # contained only
        {"output": '{"answer": 4}', "toolCalls": [{"name": "add", "arguments": {"a": 2}}]},
        {"output": '```json\n{"answer": 6}\n```', "toolCalls": [{"name": "sub"}]},
        "no idea",
        "",
    ]
    return {c["datasetItemId"]: answer for c, answer in zip(cases, answers, strict=True)}


async def test_an_import_is_graded_as_the_hosted_comparison_of_the_same_outputs(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    cases = comparison_cases(6)
    setup = await make_comparison_setup(
        backend.sessionmaker, ws, case_list=cases, simulation=Simulation(script=_script(cases))
    )
    comparison_id = await create(backend, member, setup.input(trialsPerCase=2, checks=CHECKS))
    assert (await start(backend, member, comparison_id, background=False))["status"] == "DONE"
    async with backend.sessionmaker() as session:
        trials = list(
            await session.scalars(
                select(Trial)
                .where(Trial.comparison_id == comparison_id, Trial.cohort_index == 0)
                .order_by(Trial.case_ordinal, Trial.trial_index)
            )
        )
    assert len(trials) == 12 and all(t.error_code is None for t in trials)

    # The same outputs, imported with the same checks: the client sends no grade at all.
    exp = await experiment(backend, member)
    run = (await backend.gql(START, {"e": exp, "k": "graded", "c": CHECKS}, token=member)).ok()[
        "startRunImport"
    ]
    items = []
    for case in cases:
        mine = [t for t in trials if t.case_ordinal == int(case["datasetItemId"][2:])]
        items.append(
            {
                "datasetItemId": case["datasetItemId"],
                "input": case["input"],
                "expected": case["expected"],
                "trials": [{"output": t.output, "toolCalls": t.tool_calls or []} for t in mine],
            }
        )
    (await append(backend, member, run["id"], items)).ok()
    again = await append(backend, member, run["id"], items, position=0)  # a retried chunk
    assert again.ok()["appendRunItems"]["appendedCount"] == 0

    exported = await backend.client.get(
        EXPORT_PATH.format(run["id"]), headers={"Authorization": f"Bearer {member}"}
    )
    rows = [json.loads(line) for line in exported.text.splitlines()]
    assert len(rows) == len(trials)
    for row, trial in zip(rows, trials, strict=True):
        assert row["checks"] == trial.check_results
        assert row["passed"] is trial.passed
    # Not every trial passed, nor every one failed: the checks decided.
    assert {row["passed"] for row in rows} == {True, False}
    assert [row["passed"] for row in rows[4:8]] == [True, True, False, False]
    assert rows[0]["evaluators"] == {
        "CONTAINS": 1.0,
        "JSON_SCHEMA": 0.0,
        "TOOL_CALL": 0.0,
    }


async def test_an_unknown_check_is_refused_and_nothing_starts(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    exp = await experiment(backend, member)
    refusals = [
        ([{"kind": "SPELLCHECK"}], "checks[0].kind"),
        ([{"kind": "CONTAINS"}, {"kind": "TOOL_CALL"}], "checks[1].toolName"),
        ("CONTAINS", "checks"),
    ]
    for checks, field in refusals:
        result = await backend.gql(START, {"e": exp, "k": "k", "c": checks}, token=member)
        assert result.codes == ["VALIDATION_FAILED"], checks
        assert result.errors[0]["extensions"]["field"] == field
    async with backend.sessionmaker() as session:
        count = await session.scalar(
            select(func.count()).select_from(Run).where(Run.experiment_id == exp)
        )
    assert count == 0


async def test_a_key_resumed_with_other_checks_is_a_conflict(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    exp = await experiment(backend, member)
    first = await start_import(backend, member, exp, "same")
    assert first.ok()["startRunImport"]["status"] == "RUNNING"
    other = await backend.gql(START, {"e": exp, "k": "same", "c": CHECKS}, token=member)
    assert other.codes == ["CONFLICT"]
    assert other.errors[0]["extensions"]["field"] == "checks"


async def test_shipwise_run_import_names_checks(backend: Backend, tmp_path: Path) -> None:
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    path = tmp_path / "results.jsonl"
    lines = [
        {"datasetItemId": "a", "input": "1 + 1?", "expected": "2", "trials": [{"output": "2"}]},
        {"datasetItemId": "b", "input": "2 + 2?", "expected": "4", "trials": [{"output": "5"}]},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    env = {"SHIPWISE_URL": backend.base_url, "SHIPWISE_TOKEN": member}
    done = await shipwise(
        "run", "import", str(path), "--experiment", "graded",
        "--checks-json", '[{"kind": "EXACT_MATCH"}]', env=env,
    )  # fmt: skip
    assert done.code == 0, done.stderr
    run_id = done.stdout.strip().splitlines()[-1]
    exported = await backend.client.get(
        EXPORT_PATH.format(run_id), headers={"Authorization": f"Bearer {member}"}
    )
    rows = [json.loads(line) for line in exported.text.splitlines()]
    assert [(r["datasetItemId"], r["passed"]) for r in rows] == [("a", True), ("b", False)]
    assert rows[1]["checks"] == [
        {"kind": "EXACT_MATCH", "passed": False, "score": 0.0, "reason": "mismatch"}
    ]
    bad = await shipwise(
        "run", "import", str(path), "--experiment", "graded", "--idempotency-key", "x",
        "--checks-json", '[{"kind": "NOPE"}]', env=env,
    )  # fmt: skip
    assert bad.code == 2
    assert "VALIDATION_FAILED" in bad.stderr
