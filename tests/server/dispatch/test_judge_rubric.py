"""JUDGE_RUBRIC: a judge call per trial with a structured grade, counted everywhere."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select

from bench.kit.factories import (
    make_comparison_setup,
    make_judge,
    make_workspace,
)
from bench.kit.harness import Backend
from bench.kit.openai_server import Behaviour, FakeOpenAI
from server.comparisons.models import Trial
from server.workspaces.roles import Role
from tests.conftest import PROVIDER_KEY

START = """
mutation($id: ID!) { startComparison(id: $id, background: false) {
  status stopReason spentCentsSoFar
  progress { doneCalls totalCalls failedCalls percent }
} }
"""
CREATE = "mutation($i: CreateComparisonInput!) { createComparison(input: $i) { id } }"
PREVIEW = "query($i: CreateComparisonInput!) { comparisonPreview(input: $i) { totalCalls } }"


def graded_by_city(body: dict[str, Any]) -> str:
    """PASS when the graded answer names the reference answer (each judge request is one)."""
    text = body["messages"][-1]["content"]
    reference = text.split("Reference answer:\n", 1)[1].split("\n\n", 1)[0]
    graded = text.split("Answer to grade:\n", 1)[1]
    return json.dumps({"grade": "PASS" if reference.lower() in graded.lower() else "FAIL"})


async def _setup(backend: Backend, fake: FakeOpenAI) -> tuple[Any, str, dict[str, Any]]:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=8)
    judge = await make_judge(
        backend.sessionmaker,
        ws,
        rubric="The answer names the reference answer.",
        kind="OPENAI_COMPATIBLE",
        secret_box=backend.state.secret_box,
        base_url=fake.base_url,
        api_key=PROVIDER_KEY,
        input_cents_per_million_tokens=100_000.0,
        output_cents_per_million_tokens=100_000.0,
    )
    return ws, ws.tokens[Role.MEMBER], setup.input(trialsPerCase=2, checks=[judge.check()])


async def test_each_trial_is_graded_by_the_judge_and_counted(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    fake_openai.behaviour = Behaviour(reply=graded_by_city)
    _, token, spec = await _setup(backend, fake_openai)
    preview = (await backend.gql(PREVIEW, {"i": spec}, token=token)).ok()
    assert preview["comparisonPreview"]["totalCalls"] == 8 * 2 * 2 * 2  # judge calls included
    comparison_id = (await backend.gql(CREATE, {"i": spec}, token=token)).ok()["createComparison"][
        "id"
    ]
    ended = (await backend.gql(START, {"id": comparison_id}, token=token)).ok()["startComparison"]
    assert ended["status"] == "DONE"
    assert ended["progress"]["doneCalls"] == ended["progress"]["totalCalls"] == 64
    assert ended["spentCentsSoFar"] > 0, "the judge's price is counted in the spend"
    judge_requests = [r for r in fake_openai.requests if r.path.endswith("/chat/completions")]
    assert len(judge_requests) == 32
    assert all(r.headers["x-shipwise-trial"].endswith("/judge") for r in judge_requests)
    async with backend.sessionmaker() as session:
        trials = list(
            (
                await session.execute(select(Trial).where(Trial.comparison_id == comparison_id))
            ).scalars()
        )
    assert len(trials) == 32
    for trial in trials:
        assert trial.check_results is not None
        (result,) = trial.check_results
        assert result["kind"] == "JUDGE_RUBRIC"
        assert result["passed"] is trial.passed
    # The simulated model answers right ~80% of the time: the judge saw both kinds.
    assert {t.passed for t in trials} == {True, False}


async def test_the_judge_sees_only_its_own_trials_output(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    fake_openai.behaviour = Behaviour(reply=graded_by_city)
    _, token, spec = await _setup(backend, fake_openai)
    comparison_id = (await backend.gql(CREATE, {"i": spec}, token=token)).ok()["createComparison"][
        "id"
    ]
    (await backend.gql(START, {"id": comparison_id}, token=token)).ok()
    async with backend.sessionmaker() as session:
        outputs = {
            f"{comparison_id}/{t.cohort_index}/{t.case_ordinal}/{t.trial_index}": t.output
            for t in (
                await session.execute(select(Trial).where(Trial.comparison_id == comparison_id))
            ).scalars()
        }
    judged = [r for r in fake_openai.requests if r.path.endswith("/chat/completions")]
    assert len(judged) == len(outputs)
    for request in judged:
        trial = request.headers["x-shipwise-trial"].removesuffix("/judge")
        graded = request.body["messages"][-1]["content"].split("Answer to grade:\n", 1)[1]
        assert graded == outputs[trial]


async def test_an_unparseable_grade_is_an_error_not_a_pass(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    fake_openai.behaviour = Behaviour(reply="Looks good to me!")
    _, token, spec = await _setup(backend, fake_openai)
    comparison_id = (await backend.gql(CREATE, {"i": spec}, token=token)).ok()["createComparison"][
        "id"
    ]
    ended = (await backend.gql(START, {"id": comparison_id}, token=token)).ok()["startComparison"]
    assert ended["status"] == "DONE"
    assert ended["progress"]["failedCalls"] == ended["progress"]["totalCalls"]
    async with backend.sessionmaker() as session:
        trials = list(
            (
                await session.execute(select(Trial).where(Trial.comparison_id == comparison_id))
            ).scalars()
        )
    assert {t.error_code for t in trials} == {"judge_grade_unparseable"}
    assert {t.passed for t in trials} == {None}
