"""`shipwise.aevaluate(checks=[…judge_rubric…])`: the server judges the SDK's trials with the
code a hosted comparison uses, so the same outputs get the same per-trial grades."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import shipwise

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import Behaviour, FakeOpenAI
from server.workspaces.roles import Role
from tests.server.dispatch.test_judge_rubric import graded_by_city
from tests.server.runs.test_judged_imports import hosted_trials, judge_of, judge_requests


async def test_an_sdk_run_is_judged_as_the_hosted_comparison(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    fake_openai.behaviour = Behaviour(reply=graded_by_city)
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    judge = await judge_of(backend, ws, fake_openai)
    cases, trials, version_id = await hosted_trials(
        backend, ws, [{"kind": "CONTAINS"}, judge.check()], cases=6
    )
    hosted: dict[str, list[tuple[str, Any, Any]]] = defaultdict(list)
    answers: dict[str, list[str]] = defaultdict(list)
    for trial in trials:
        question = cases[trial.case_ordinal]["input"]["question"]
        assert trial.output is not None
        hosted[question].append((trial.output, trial.check_results, trial.passed))
        answers[question].append(trial.output)
    before = judge_requests(fake_openai)

    def task(case: dict[str, str]) -> str:
        return answers[case["question"]].pop()

    client = shipwise.Client(url=backend.base_url, token=member)
    checks = [shipwise.checks.contains(), shipwise.checks.judge_rubric(
        judge.rubric_version_id, judge.config_version_id)]  # fmt: skip
    result = await client.aevaluate(
        task, "hosted", "sdk-judged", trials=2, checks=checks, baseline=None,
        version=version_id, progress=False,
    )  # fmt: skip
    assert result.trial_count == 12
    assert judge_requests(fake_openai) - before == 12, "one judge call per SDK trial"
    exported = await backend.client.get(
        f"/runs/{result.run_id}/items.jsonl", headers={"Authorization": f"Bearer {member}"}
    )
    rows = [json.loads(line) for line in exported.text.splitlines()]
    judged: dict[str, list[tuple[str, Any, Any]]] = defaultdict(list)
    for row in rows:
        question = (
            json.loads(row["input"])["question"]
            if isinstance(row["input"], str)
            else (row["input"]["question"])
        )
        judged[question].append((row["output"], row["checks"], row["passed"]))
    assert {q: sorted(v, key=repr) for q, v in judged.items()} == {
        q: sorted(v, key=repr) for q, v in hosted.items()
    }
    assert {row["passed"] for row in rows} == {True, False}
