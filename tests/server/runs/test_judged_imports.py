"""JUDGE_RUBRIC checks on imported runs: graded by the judge code hosted comparisons use (the
same per-trial grades for the same outputs), the calls counted and priced on the run and in
the spend ledgers, a cap that stops judging, and a bad judge refused before anything starts."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import func, select

from bench.kit.factories import (
    JudgeFixture,
    comparison_cases,
    make_comparison_setup,
    make_judge,
    make_workspace,
)
from bench.kit.harness import Backend
from bench.kit.openai_server import Behaviour, FakeOpenAI
from server.comparisons.models import Trial
from server.runs.models import Run
from server.spend.models import ConnectionSpend, RunJudgeSpend
from server.workspaces.roles import Role
from tests.conftest import PROVIDER_KEY
from tests.server.dispatch.api import create, start, wait_terminal
from tests.server.dispatch.test_judge_rubric import graded_by_city
from tests.server.runs.api import append, experiment

START = """mutation($e: ID!, $k: String!, $c: JSON, $cap: Float) {
  startRunImport(experimentId: $e, idempotencyKey: $k, checks: $c, budgetCapCents: $cap) {
    id status budgetCapCents
  }
}"""
RUN = """query($id: ID!) { run(id: $id) {
  itemCount judgeCallCount judgeSpentCents budgetCapCents stopReason } }"""
EXPORT_PATH = "/runs/{}/items.jsonl"


async def judge_of(backend: Backend, ws: Any, fake: FakeOpenAI) -> JudgeFixture:
    return await make_judge(
        backend.sessionmaker,
        ws,
        rubric="The answer names the reference answer.",
        kind="OPENAI_COMPATIBLE",
        secret_box=backend.state.secret_box,
        base_url=fake.base_url,
        api_key=PROVIDER_KEY,
        input_cents_per_million_tokens=100_000.0,
        output_cents_per_million_tokens=100_000.0,
        max_concurrency=2,
    )


def judge_requests(fake: FakeOpenAI) -> int:
    return sum(1 for r in fake.requests if r.path.endswith("/chat/completions"))


async def hosted_trials(
    backend: Backend, ws: Any, checks: list[dict[str, Any]], cases: int
) -> tuple[list[dict[str, Any]], list[Trial], str]:
    """A finished hosted comparison with `checks`: (its cases, cohort 0's trials, its
    dataset version)."""
    member = ws.tokens[Role.MEMBER]
    case_list = comparison_cases(cases)
    setup = await make_comparison_setup(backend.sessionmaker, ws, case_list=case_list)
    comparison_id = await create(backend, member, setup.input(trialsPerCase=2, checks=checks))
    await start(backend, member, comparison_id)  # in the background: waited for below
    ended = await wait_terminal(backend, member, comparison_id, timeout=180)
    assert ended["status"] == "DONE"
    async with backend.sessionmaker() as session:
        trials = list(
            await session.scalars(
                select(Trial)
                .where(Trial.comparison_id == comparison_id, Trial.cohort_index == 0)
                .order_by(Trial.case_ordinal, Trial.trial_index)
            )
        )
    return case_list, trials, setup.dataset_version_id


def _items(cases: list[dict[str, Any]], trials: list[Trial]) -> list[dict[str, Any]]:
    """The hosted trials' outputs as import items, with no grade at all."""
    return [
        {
            "datasetItemId": case["datasetItemId"],
            "input": case["input"],
            "expected": case["expected"],
            "trials": [{"output": t.output} for t in trials if t.case_ordinal == ordinal],
        }
        for ordinal, case in enumerate(cases)
    ]


async def test_an_import_is_judged_as_the_hosted_comparison_of_the_same_outputs(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    fake_openai.behaviour = Behaviour(reply=graded_by_city)
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    judge = await judge_of(backend, ws, fake_openai)
    checks = [{"kind": "CONTAINS"}, judge.check()]
    cases, trials, _ = await hosted_trials(backend, ws, checks, cases=6)
    assert len(trials) == 12 and all(t.error_code is None for t in trials)
    hosted_calls = judge_requests(fake_openai)

    exp = await experiment(backend, member)
    variables = {"e": exp, "k": "judged", "c": checks, "cap": None}
    run = (await backend.gql(START, variables, token=member)).ok()["startRunImport"]
    items = _items(cases, trials)
    (await append(backend, member, run["id"], items)).ok()
    assert judge_requests(fake_openai) - hosted_calls == 12, "one judge call per trial"
    again = await append(backend, member, run["id"], items, position=0)  # a retried chunk
    assert again.ok()["appendRunItems"]["appendedCount"] == 0
    assert judge_requests(fake_openai) - hosted_calls == 12, "a retry calls no judge again"

    exported = await backend.client.get(
        EXPORT_PATH.format(run["id"]), headers={"Authorization": f"Bearer {member}"}
    )
    rows = [json.loads(line) for line in exported.text.splitlines()]
    assert len(rows) == len(trials)
    for row, trial in zip(rows, trials, strict=True):
        assert row["checks"] == trial.check_results
        assert row["passed"] is trial.passed
    assert {row["passed"] for row in rows} == {True, False}, "the judge decided both ways"

    found = (await backend.gql(RUN, {"id": run["id"]}, token=member)).ok()["run"]
    assert found["judgeCallCount"] == 12 and found["itemCount"] == 6
    assert found["judgeSpentCents"] > 0 and found["stopReason"] is None
    async with backend.sessionmaker() as session:
        recorded = await session.scalar(
            select(func.sum(RunJudgeSpend.spent_micros)).where(RunJudgeSpend.run_id == run["id"])
        )
        ledger = await session.scalar(
            select(ConnectionSpend.spent_micros).where(
                ConnectionSpend.connection_id == judge.connection.id
            )
        )
        hosted = await session.scalar(
            select(func.sum(Trial.cost_micros)).where(Trial.connection_id == judge.connection.id)
        )
    assert recorded is not None and recorded == round(found["judgeSpentCents"] * 10_000)
    assert ledger is not None and ledger >= recorded + (hosted or 0)


async def test_a_cap_stops_judging_and_says_so(backend: Backend, fake_openai: FakeOpenAI) -> None:
    fake_openai.behaviour = Behaviour(reply=graded_by_city)
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    judge = await judge_of(backend, ws, fake_openai)
    exp = await experiment(backend, member)
    variables = {"e": exp, "k": "capped", "c": [judge.check()], "cap": 1.0}
    run = (await backend.gql(START, variables, token=member)).ok()["startRunImport"]
    assert run["budgetCapCents"] == 1.0
    items = [
        {"datasetItemId": f"q{i}", "input": f"q{i}", "expected": "Paris",
         "trials": [{"output": "Paris"}, {"output": "Lyon"}]}
        for i in range(20)
    ]  # fmt: skip
    refused = await append(backend, member, run["id"], items)
    assert refused.codes == ["QUOTA_EXCEEDED"]
    extensions = refused.errors[0]["extensions"]
    assert extensions["reason"] == "BUDGET_CAP"
    assert "judging stopped" in refused.errors[0]["message"]
    calls = judge_requests(fake_openai)
    assert 1 <= calls < 40, "judging stopped before every trial was judged"

    found = (await backend.gql(RUN, {"id": run["id"]}, token=member)).ok()["run"]
    assert found["itemCount"] == 0, "nothing of the refused chunk is stored"
    assert found["judgeCallCount"] == calls, "the calls made are counted"
    assert found["judgeSpentCents"] >= 1.0 and found["stopReason"] == "BUDGET_CAP"

    later = await append(backend, member, run["id"], items[:1])
    assert later.codes == ["QUOTA_EXCEEDED"]
    assert judge_requests(fake_openai) == calls, "no judge is called past the cap"


async def test_an_unparseable_grade_leaves_the_trial_ungraded(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    fake_openai.behaviour = Behaviour(reply="Looks good to me!")
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    judge = await judge_of(backend, ws, fake_openai)
    exp = await experiment(backend, member)
    variables = {"e": exp, "k": "k", "c": [judge.check()], "cap": None}
    run = (await backend.gql(START, variables, token=member)).ok()["startRunImport"]
    item = {"datasetItemId": "a", "input": "q", "expected": "x", "trials": [{"output": "x"}]}
    (await append(backend, member, run["id"], [item])).ok()
    exported = await backend.client.get(
        EXPORT_PATH.format(run["id"]), headers={"Authorization": f"Bearer {member}"}
    )
    (row,) = [json.loads(line) for line in exported.text.splitlines()]
    assert row["passed"] is None and row["errorCode"] == "judge_grade_unparseable"


async def test_a_bad_judge_is_refused_and_nothing_starts(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    mine = await judge_of(backend, ws, fake_openai)
    theirs = await judge_of(backend, other, fake_openai)
    exp = await experiment(backend, member)

    def check(rubric: str, config: str) -> list[dict[str, Any]]:
        judge = {"rubricVersionId": rubric, "judgeModelConfigVersionId": config}
        return [{"kind": "CONTAINS"}, {"kind": "JUDGE_RUBRIC", **judge}]

    refusals = [
        (check("nope", mine.config_version_id), "NOT_FOUND", "checks[1].rubricVersionId"),
        (check(theirs.rubric_version_id, mine.config_version_id), "NOT_FOUND",
         "checks[1].rubricVersionId"),
        (check(mine.rubric_version_id, theirs.config_version_id), "NOT_FOUND",
         "checks[1].judgeModelConfigVersionId"),
        (check(mine.config_version_id, mine.config_version_id), "VALIDATION_FAILED",
         "checks[1].rubricVersionId"),
        ([{"kind": "JUDGE_RUBRIC", "rubricVersionId": mine.rubric_version_id}],
         "VALIDATION_FAILED", "checks[0].judgeModelConfigVersionId"),
    ]  # fmt: skip
    for checks, code, field in refusals:
        variables = {"e": exp, "k": "k", "c": checks, "cap": None}
        result = await backend.gql(START, variables, token=member)
        assert result.codes == [code], checks
        assert result.errors[0]["extensions"]["field"] == field
    negative = await backend.gql(
        START, {"e": exp, "k": "k", "c": [mine.check()], "cap": -1.0}, token=member
    )
    assert negative.codes == ["VALIDATION_FAILED"]
    assert negative.errors[0]["extensions"]["field"] == "budgetCapCents"
    async with backend.sessionmaker() as session:
        count = await session.scalar(
            select(func.count()).select_from(Run).where(Run.experiment_id == exp)
        )
    assert count == 0
    assert judge_requests(fake_openai) == 0
